"""An evaluator for OpenSpiel's searches on ``python_tichu``: uniform random rollouts to the end of
the current round, not of the game (``pip install tichu[spiel]``; docs/learning.md).

A random rollout of a whole game to 1000 points would never end in practice (random calls cost
both teams some 70 points a round) and a round takes about 120 decisions, so the rollout stops
where the round ends (R7): at the next deal, or the game's end. It steps the
:class:`~tichu.learn.spiel_position.Position` under the OpenSpiel state directly, with the same
actions and the same uniform choice among the legal ones as OpenSpiel's own
``RandomRolloutEvaluator``, without OpenSpiel's per-step overhead.

It follows OpenSpiel's ``mcts.Evaluator`` interface (``evaluate`` and ``prior``), so ISMCTS and
MCTS take it as they take their own.
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from tichu.learn.spiel import TichuState
from tichu.learn.spiel_position import Position


def rollout_round(position: Position, rng: random.Random) -> list[float]:
    """Play uniformly random actions from ``position`` (a copy) until the current round ends, a
    deal in progress first dealt and its round played; the returns then (R7.3)."""
    work = position.clone()
    decided = False
    while not work.is_terminal:
        if work.is_chance:
            if decided:
                break
            left = work.chance_outcomes()
            work.apply(left[rng.randrange(len(left))][0])
        else:
            decided = True
            actions = work.legal_actions()
            work.apply(actions[rng.randrange(len(actions))])
    return work.returns()


class RoundRolloutEvaluator:
    """OpenSpiel's ``mcts.Evaluator`` for ``python_tichu``: the mean returns of ``rollouts`` uniform
    random rollouts to the end of the current round.

    The returns at a round's end are the score difference before the round plus the round's points
    difference (R7.3): the first part is the same for every action of the decision searched, so
    the search ranks actions by the round's points difference, and its values agree with the
    returns where its tree reaches the end of the game.

    :param rollouts: Rollouts per evaluation.
    :param seed: Seed of the rollouts' choices.
    """

    def __init__(self, rollouts: int = 1, seed: int | None = None) -> None:
        if rollouts < 1:
            raise ValueError("at least one rollout")
        self.rollouts = rollouts
        self._rng = random.Random(seed)

    def evaluate(self, state: TichuState) -> npt.NDArray[np.float64]:
        """Each player's mean return at the end of the round."""
        total = np.zeros(4)
        for _ in range(self.rollouts):
            total += rollout_round(state.position, self._rng)
        result: npt.NDArray[np.float64] = total / self.rollouts
        return result

    def prior(self, state: TichuState) -> list[tuple[int, float]]:
        """Every legal action alike likely (the chance outcomes at a deal)."""
        position = state.position
        if position.is_chance:
            return position.chance_outcomes()
        actions = position.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


__all__ = ["RoundRolloutEvaluator", "rollout_round"]
