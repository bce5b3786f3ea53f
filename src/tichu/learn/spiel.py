"""Tichu as an OpenSpiel game, ``python_tichu``: the rules core's whole game, registered with
``pyspiel`` on import (``pip install tichu[spiel]``; docs/learning.md, "Tichu in OpenSpiel")::

    import pyspiel, tichu.learn.spiel
    game = pyspiel.load_game("python_tichu", {"target_score": 1000, "max_rounds": 50})

- Four players, sequential, imperfect information, zero-sum: every seat's return at the end is its
  team's score minus the other team's (R7.3, R7.4), the partners' alike.
- Rewards as OpenSpiel's own card games give them: by default at the end only
  (``reward_model="terminal"``, ``RewardModel.TERMINAL``: the returns are zero until the game
  ends), which OpenSpiel's MCTS needs; with ``reward_model="rewards"`` a round's points arrive
  once, with the transition that arrives at the next decision (the next deal's last card) or at
  the end, and the returns are the rewards so far. Either way a reward is that of the last
  transition only, so the rewards of a game add up to its returns.
- Chance deals the deck card by card, each card not dealt yet alike likely; card ``k`` goes to seat
  ``k % 4``, into its first eight for ``k < 32``, else into its last six
  (:mod:`tichu.learn.spiel_position`).
- Actions: the learning agents' catalogue of 737 (:mod:`tichu.agents.learning.actions`); the push
  is three decisions of one card each (to the right opponent, the partner, the left one).
  ``legal_actions`` lists the allowed ones only; any other is refused with a :class:`ValueError`
  and changes nothing.
- Information state and observation, strings and tensors, of a seat's knowledge only (R8,
  :mod:`tichu.learn.spiel_info`); ``resample_from_infostate`` draws a world the seat cannot tell
  apart (:mod:`tichu.learn.spiel_worlds`), which OpenSpiel's ISMCTS needs.
- Parameters: ``target_score`` (default 1000, R7.4), ``max_rounds`` (default 50, as the
  PettingZoo environment's: the game ends after that many rounds even without a winner, since
  random play never reaches the target, its calls costing both teams some 70 points a round,
  while games of our agents to 1000 take 6 to 12 rounds; docs/agents.md) and ``reward_model``
  (``"terminal"``, the default, or ``"rewards"``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel

from tichu.agents.learning.actions import CATALOGUE, PUSH_BASE, SIZE, WISH_BASE
from tichu.agents.learning.observation import SIZE as OBSERVATION_SIZE
from tichu.core.cards import LABELS, format_mask
from tichu.core.flow import GameState
from tichu.core.ruleset import RuleSet
from tichu.learn.bounds import ROUND_SWING, game_swing
from tichu.learn.spiel_info import TENSOR_SIZE, fill_tensor, information_state_string, observation_string
from tichu.learn.spiel_position import CHANCE, DECK_SIZE, Position
from tichu.learn.spiel_worlds import resample

SHORT_NAME = "python_tichu"
#: The reward models of the ``reward_model`` parameter, by OpenSpiel's ``RewardModel``.
REWARD_MODELS = {"terminal": pyspiel.GameType.RewardModel.TERMINAL, "rewards": pyspiel.GameType.RewardModel.REWARDS}
DEFAULTS: dict[str, int | str] = {"target_score": 1000, "max_rounds": 50, "reward_model": "terminal"}

# The decisions of a round, bounded from the rules and the core's flow (tichu.core.flow):
_PLAYS = 55  # plays and bombs: each lays a card at least, and a seat keeps one at least (R7.1, R7.2)
_PASSES = 3 * _PLAYS  # at most three passes follow a play before the next play or the trick's end (R4.1, R4.2)
# The flow's moments: the first lead, and after each play, bomb, pass, trick taken, wish and Dragon gift.
_MOMENTS = 1 + _PLAYS + _PASSES + _PLAYS + 2
_OFFERS = 4 + 4  # per moment each seat is offered a Tichu call once (R6.1) and a bomb once (R4.3)
#: At most this many decisions in a round: Grand Tichu (4), the push (4 x 3 cards), the offers of
#: every moment, and the plays, passes, the wish and the Dragon gift (R2, R4, R5). Random play
#: takes some 120.
ROUND_DECISIONS = 4 + 4 * 3 + _MOMENTS * _OFFERS + _PLAYS + _PASSES + 2



def game_type(reward_model: str = "terminal") -> Any:
    """OpenSpiel's type of the game with the given reward model (``"terminal"``: the one
    registered; a game loaded with ``reward_model="rewards"`` reports ``RewardModel.REWARDS``)."""
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python Tichu",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=REWARD_MODELS[reward_model],
        max_num_players=4,
        min_num_players=4,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=DEFAULTS)


GAME_TYPE = game_type()


def game_info(max_rounds: int) -> Any:
    """OpenSpiel's facts of a game of at most ``max_rounds`` rounds."""
    return pyspiel.GameInfo(
        num_distinct_actions=SIZE,
        max_chance_outcomes=DECK_SIZE,
        num_players=4,
        min_utility=-float(game_swing(max_rounds)),
        max_utility=float(game_swing(max_rounds)),
        utility_sum=0.0,
        max_game_length=ROUND_DECISIONS * max_rounds)


class TichuGame(pyspiel.Game):
    """The game: its parameters, its states and its observers.

    :ivar target_score: The score that ends the game (R7.4).
    :ivar max_rounds: The game ends after this many rounds even without a winner.
    :ivar terminal_rewards: Rewards and returns only at the end (``reward_model="terminal"``).
    """

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        settings = {**DEFAULTS, **(params or {})}
        unknown = set(settings) - set(DEFAULTS)
        if unknown:
            raise ValueError(f"unknown parameters {sorted(unknown)}; known: {sorted(DEFAULTS)}")
        self.target_score = int(settings["target_score"])
        self.max_rounds = int(settings["max_rounds"])
        if self.target_score < 1 or self.max_rounds < 1:
            raise ValueError("target_score and max_rounds are at least 1")
        reward_model = str(settings["reward_model"])
        if reward_model not in REWARD_MODELS:
            raise ValueError(f"reward_model {reward_model!r}: use one of {sorted(REWARD_MODELS)}")
        self.terminal_rewards = reward_model == "terminal"
        super().__init__(game_type(reward_model), game_info(self.max_rounds), settings)

    def new_initial_state(self) -> TichuState:
        """A game before its first deal."""
        return TichuState(self)

    def max_chance_nodes_in_history(self) -> int:
        """A deal of 56 cards per round."""
        return DECK_SIZE * self.max_rounds

    def make_py_observer(self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None) -> TichuObserver:
        """An observer of one seat's knowledge: the information state (``perfect_recall``) or the
        observation, with the seat's private information and the public one (R8).

        :raises ValueError: For observation parameters, or another kind of observation (public
            only, or every seat's private information: not provided).
        """
        if params:
            raise ValueError(f"observation parameters are not supported; passed {dict(params)}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not kind.public_info or kind.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only a seat's own knowledge is observed: public information and its private one")
        return TichuObserver(bool(kind.perfect_recall))


class TichuState(pyspiel.State):
    """A game of Tichu at one moment, over a :class:`~tichu.learn.spiel_position.Position`.

    :ivar position: The game in OpenSpiel's steps (OpenSpiel's clone deep-copies it, cheaply).
    """

    def __init__(self, game: TichuGame) -> None:
        super().__init__(game)
        self.position = Position(GameState(RuleSet(target_score=game.target_score)), game.max_rounds)
        self.terminal_rewards = game.terminal_rewards

    @property
    def core(self) -> GameState:
        """The rules core's game underneath."""
        return self.position.core

    def current_player(self) -> int:
        """The seat that decides, ``CHANCE`` during a deal, ``TERMINAL`` at the end."""
        return self.position.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        """The actions the seat may take now, ascending."""
        return self.position.legal_actions() if player == self.position.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt yet, each alike likely."""
        return self.position.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        """Apply an action :meth:`_legal_actions` allows.

        :raises ValueError: For any other (nothing changes then).
        """
        self.position.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"deal {LABELS[action]}"
        if PUSH_BASE <= action < WISH_BASE:
            return f"push {LABELS[action - PUSH_BASE]}"
        return CATALOGUE[action]

    def is_terminal(self) -> bool:
        return self.position.is_terminal

    def returns(self) -> list[float]:
        """Per seat its team's score minus the other team's (R7.3, R7.4): at the end only with
        terminal rewards (zero before), else the rewards received so far (during a deal without
        the round just ended, :meth:`~tichu.learn.spiel_position.Position.rewards`)."""
        if self.terminal_rewards and not self.position.is_terminal:
            return [0.0] * 4
        return self.position.paid_returns()

    def rewards(self) -> list[float]:
        """What each seat received with the last transition alone (OpenSpiel's meaning): with
        terminal rewards the returns at the end and zero before, else a round's points once, with
        the transition that arrives at the next decision or the end
        (:meth:`~tichu.learn.spiel_position.Position.rewards`), and zero with every other."""
        if self.terminal_rewards:
            return self.returns()
        return self.position.rewards()

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> TichuState:
        """A state ``player_id`` cannot tell from this one (R8): the same information state for it,
        the same legal actions if it decides (:mod:`tichu.learn.spiel_worlds`). OpenSpiel's ISMCTS
        calls it once per simulation.

        The new state's OpenSpiel history is empty: the true one holds the true deal.

        :param probability_sampler: Uniform numbers in [0, 1) (OpenSpiel's
            ``UniformProbabilitySampler``); one seeds the draw.
        :raises ValueError: During a deal or at the end.
        """
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        state = TichuState(self.get_game())
        state.position = resample(self.position, player_id, rng)
        return state

    def __str__(self) -> str:
        """Everything, every hand included (for debugging; no seat's view)."""
        position = self.position
        core = position.core
        game = core.game
        assert game is not None
        parts = [f"rounds {position.rounds_played} score {game.total[0]}:{game.total[1]}"]
        if position.is_chance:
            parts.append(f"dealt {' '.join(LABELS[card] for card in position.dealt)}")
        elif core.round is not None:
            parts += [f"p{seat} [{format_mask(hand)}]" for seat, hand in enumerate(core.round.hands)]
            parts.append(f"decision {core.decision.name} p{core.decision_seat}")
            parts.append(f"held back {position.grand} {position.pushes}")
        return "; ".join(parts)


class TichuObserver:
    """OpenSpiel's Python observer: a seat's tensor and string (:mod:`tichu.learn.spiel_info`).

    :ivar tensor: The seat's numbers: the observation, then the table's (``dict`` names them).
    :ivar dict: ``observation`` and ``table``, views of :attr:`tensor`.
    """

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(TENSOR_SIZE, np.float32)
        self.dict = {"observation": self.tensor[:OBSERVATION_SIZE], "table": self.tensor[OBSERVATION_SIZE:]}

    def set_from(self, state: TichuState, player: int) -> None:
        """Write ``player``'s tensor of ``state``."""
        fill_tensor(state.position, player, self.tensor)

    def string_from(self, state: TichuState, player: int) -> str:
        """``player``'s information state string, or its observation string."""
        if self.perfect_recall:
            return information_state_string(state.position, player)
        return observation_string(state.position, player)


pyspiel.register_game(GAME_TYPE, TichuGame)

__all__ = ["DEFAULTS", "GAME_TYPE", "REWARD_MODELS", "ROUND_DECISIONS", "ROUND_SWING", "SHORT_NAME", "TichuGame",
           "TichuObserver",
           "TichuState", "game_info", "game_type"]
