"""The expert's judgement of one decision: every option rolled out on the same sampled deals.

:func:`judge` draws ``samples`` deals from what the deciding seat knew (R8: the seat's
knowledge, weighted by the passes and calls seen, as the expert draws them; before the play
the cards it had not seen, shuffled): the expert's own worlds
(:class:`~tichu.agents.support.worlds.WorldSampler`), states at the seat's decision built by
the rules core. Per world each option is the world cloned with the option's action applied
through the core (:func:`~tichu.agents.mc_agent.take`), finished with the expert's rollout
policy; the value is the round value: the deciding seat's team's points minus
the other team's (R7). Every option sees the same deals, so the difference between two
options is estimated from paired values, with far less noise than either mean.

The loss of the choice made is the best option's mean minus the choice's, with the 95 %
half width of the paired differences; a label is given only when the loss is clear of that
noise: the highest of :data:`THRESHOLDS` that ``loss - loss_half_width`` reaches
(:func:`sampled_label`). Where the differences do not vary at all, their half width of 0
measures nothing of the method's noise (every deal alike, one deterministic continuation),
and a sampled two-seat endgame has nothing hidden to sample: the continuation's own errors
are then all the noise there is, and the judge cannot tell them from the choice's, so such a
judgement carries no label (it says nothing rather than blame a good move for a later move
of the continuation).

At a two-seat endgame (:attr:`~tichu.analysis.points.DecisionPoint.state`) nothing is
hidden from the seat (R8) and nothing is sampled: every option is applied to the position
and the rest of the round solved exactly (:mod:`tichu.agents.support.endgame`, both seats
playing their best). The values and the loss are then exact (half widths 0,
:attr:`Judgement.exact`) and the label follows from the loss itself. A position that is not
solved within :data:`ENDGAME_NODES` is judged by sampling as above, not exact. The
judgements of one game may share one solver (``endgame``): its table, bounded by
:data:`~tichu.agents.support.endgame.TABLE_LIMIT`, then carries what the first position of
an endgame proved to the later ones, each a later moment of the same round.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tichu.agents.heuristic_policy import HeuristicPolicy
from tichu.agents.mc_agent import ROLLOUT_WEIGHTS, Branch, play_out, share_caches, take
from tichu.agents.mc_search import SEARCH
from tichu.agents.support.endgame import DEFAULT_NODES, EndgameSolver
from tichu.agents.support.worlds import WorldSampler
from tichu.analysis.points import DecisionPoint, Option
from tichu.core.combos import Play
from tichu.core.flow import GameState
from tichu.core.round import Action, ActionKind, Decision

#: Deals per decision by default: the half width of a typical loss stays below the lowest
#: threshold (docs/agents.md, "Game analysis").
DEFAULT_SAMPLES = 64
#: Standard errors of a 95 % interval.
Z = 1.96
#: Labels by the least loss, clear of the noise, that earns them (points per round): above the
#: median half width of a loss at the default samples (about 29) for an inaccuracy, above its
#: 90th percentile (about 58) for a mistake (docs/agents.md, "Game analysis").
THRESHOLDS: Mapping[str, float] = {"inaccuracy": 35.0, "mistake": 60.0, "blunder": 120.0}
#: Nodes an exact solve of a two-seat endgame may visit before the judge samples instead:
#: five times the agents' budget (:data:`~tichu.agents.support.endgame.DEFAULT_NODES`), as the
#: analysis runs in the background, not against a player's clock (docs/benchmarks.md, "Exact
#: endgames": how far it reaches, in what time and memory).
ENDGAME_NODES = 5 * DEFAULT_NODES
#: Most actions of an exact judgement's best line.
LINE = 8


@dataclass(frozen=True)
class Judgement:
    """The judged options of one decision.

    :ivar point: The decision.
    :ivar means: Per option (in the point's order) its mean round value for the deciding team.
    :ivar half_widths: Per option the 95 % half width of that mean.
    :ivar best: Index of the option with the best mean.
    :ivar loss: The best mean minus the chosen option's (paired; 0 when the best was chosen).
    :ivar loss_half_width: The 95 % half width of the loss, from the paired differences.
    :ivar label: ``inaccuracy``, ``mistake``, ``blunder`` or ``None`` (:func:`label_of`).
    :ivar samples: The deals drawn (0 for an exact judgement).
    :ivar exact: Whether the values are exact (a two-seat endgame solved, nothing sampled).
    :ivar line: Of an exact judgement, the best line after the best option (both seats
        playing their best, :data:`LINE` actions at most); empty otherwise.
    """

    point: DecisionPoint
    means: tuple[float, ...]
    half_widths: tuple[float, ...]
    best: int
    loss: float
    loss_half_width: float
    label: str | None
    samples: int
    exact: bool = False
    line: tuple[Action, ...] = ()


def judge(point: DecisionPoint, *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
          thresholds: Mapping[str, float] = THRESHOLDS, endgame_nodes: int = ENDGAME_NODES,
          endgame: EndgameSolver | None = None) -> Judgement:
    """Judge one decision: exactly at a two-seat endgame solved within ``endgame_nodes``, else
    by the expert's search (see the module docstring); deterministic for ``(point, samples, seed)``
    and the judgements made before with the same ``endgame`` solver.

    :param point: The decision (:func:`~tichu.analysis.points.decision_points`).
    :param samples: The deals to draw (at least 2).
    :param seed: Seeds the deals and the rollouts.
    :param thresholds: The labels' least losses.
    :param endgame_nodes: The node budget of an exact solve (of a fresh solver).
    :param endgame: (Optional) The solver of the exact solves, shared by the judgements of
        one game (its own budget then applies); a fresh one of ``endgame_nodes`` by default.
    :raises ValueError: For fewer than two samples, or a view that admits no deal.
    """
    if samples < 2:
        raise ValueError("a judgement needs at least two deals")
    if point.state is not None:
        exact = judge_exact(point, point.state, endgame or EndgameSolver(endgame_nodes), thresholds)
        if exact is not None:
            return exact
    rng = random.Random(f"{seed}:{point.step}:{point.seat}")
    policy = HeuristicPolicy(ROLLOUT_WEIGHTS, seed)
    worlds, branches = branches_of(point, policy)
    values = paired_values(point.seat, worlds, branches, samples, rng, policy)
    means = tuple(mean(row) for row in values)
    best = max(range(len(means)), key=lambda index: (means[index], -index))
    chosen = point.chosen
    diffs = [a - b for a, b in zip(values[best], values[chosen])]
    loss = mean(diffs)
    loss_half_width = half_width(diffs)
    return Judgement(point, means, tuple(half_width(row) for row in values), best, loss, loss_half_width,
                     sampled_label(point, diffs, thresholds), len(values[0]))


def judge_exact(point: DecisionPoint, state: GameState, solver: EndgameSolver,
                thresholds: Mapping[str, float] = THRESHOLDS) -> Judgement | None:
    """The exact judgement of a decision at a two-seat endgame ``state``: each option applied
    to a copy of it and the rest solved; ``None`` as soon as a solve runs out of nodes (a
    position beyond the budget costs one budget, not one per option)."""
    values = []
    after = []
    for option in point.options:
        after.append(option_state(state, point.seat, point.kind, option))
        value = solver.value(after[-1], point.seat)
        if value is None:
            return None
        values.append(float(value))
    best = max(range(len(values)), key=lambda index: (values[index], -index))
    loss = values[best] - values[point.chosen]
    return Judgement(point, tuple(values), (0.0,) * len(values), best, loss, 0.0,
                     label_of(loss, 0.0, thresholds), 0, True, tuple(solver.line(after[best], LINE)))


def option_state(state: GameState, seat: int, kind: str, option: Option) -> GameState:
    """A copy of ``state`` with ``seat``'s option taken: a play, a bomb, a call, a wish, a
    recipient; declining an offered bomb or call (no bomb, no Tichu) where the seat is offered
    one, else the state as it is (the flow goes on without it).

    :raises RuleViolation: For an option the rules do not allow now.
    """
    after = state.clone()
    offered = after.decision_seat == seat and after.decision in (Decision.BOMB, Decision.TICHU)
    if kind == "play":
        play = _play(option)
        after.apply_play(next(legal for legal in after.legal_plays() if legal.cards == play.cards))
    elif kind == "bomb" and option is not None:
        after.bomb(seat, _play(option).cards)
    elif kind == "tichu" and option:
        after.call(seat)
    elif kind in ("bomb", "tichu") and offered:
        after.decline(seat)
    elif kind == "wish":
        after.wish(seat, _int(option))
    elif kind == "dragon":
        after.give_dragon(seat, _int(option))
    elif kind not in ("bomb", "tichu"):
        raise ValueError(f"no exact judgement of a {kind!r} decision")
    return after


#: The decision each kind of judged decision is made at.
DECISIONS = {"grand_tichu": Decision.GRAND_TICHU, "push": Decision.SCHUPF, "tichu": Decision.TICHU,
             "play": Decision.PLAY, "bomb": Decision.BOMB, "wish": Decision.WISH, "dragon": Decision.DRAGON}


def branches_of(point: DecisionPoint, policy: HeuristicPolicy) -> tuple[WorldSampler, list[Branch]]:
    """The world sampler of a decision and its options as branches to apply (the expert's, R8).

    :raises ValueError: For a view that admits no deal, or an unknown kind.
    """
    view, seat, kind = point.view, point.seat, point.kind
    if kind not in DECISIONS:
        raise ValueError(f"unknown decision kind {kind!r}")
    worlds = WorldSampler(view, DECISIONS[kind], policy, inference=SEARCH.inference)
    return worlds, [branch_of(seat, kind, option) for option in point.options]


def branch_of(seat: int, kind: str, option: Option) -> Branch:
    """An option of a decision as the action a world applies."""
    if kind == "play":
        return _play(option)
    if kind == "grand_tichu":
        return Action(ActionKind.GRAND_TICHU, seat, bool(option))
    if kind == "push":
        return Action(ActionKind.SCHUPF, seat, _push(option))
    if kind == "tichu":
        return Action(ActionKind.TICHU if option else ActionKind.DECLINE, seat)
    if kind == "bomb":
        return Action(ActionKind.DECLINE, seat) if option is None else Action(ActionKind.BOMB, seat,
                                                                              _play(option).cards)
    if kind == "wish":
        return Action(ActionKind.WISH, seat, _int(option))
    return Action(ActionKind.DRAGON, seat, _int(option))


def paired_values(seat: int, worlds: WorldSampler, branches: Sequence[Branch], samples: int, rng: random.Random,
                  policy: HeuristicPolicy) -> list[list[int]]:
    """Per branch its round values for ``seat`` over the same ``samples`` worlds.

    :raises ValueError: If no world can be drawn.
    """
    values: list[list[int]] = [[] for _ in branches]
    for _ in range(samples):
        world = worlds.draw(rng)
        share_caches(world)
        for index, branch in enumerate(branches):
            state = world.clone()
            take(state, branch)
            values[index].append(play_out(state, seat, policy, SEARCH))
    return values


def mean(values: Sequence[float]) -> float:
    """The mean (0 for none)."""
    return sum(values) / len(values) if values else 0.0


def half_width(values: Sequence[float], z: float = Z) -> float:
    """The half width of the mean's interval at ``z`` standard errors (0 for fewer than two)."""
    n = len(values)
    if n < 2:
        return 0.0
    average = sum(values) / n
    variance = sum((value - average) ** 2 for value in values) / (n - 1)
    return z * math.sqrt(variance / n)


def sampled_label(point: DecisionPoint, diffs: Sequence[float],
                  thresholds: Mapping[str, float] = THRESHOLDS) -> str | None:
    """The label of a sampled judgement's loss, from its paired differences (best option's
    value minus the chosen one's, deal by deal): :func:`label_of` their mean and half width,
    but none where the method's noise is not measured (see the module docstring): at a
    two-seat endgame (nothing hidden, every deal the same position) and where the differences
    do not vary."""
    if point.state is not None or len(set(diffs)) < 2:
        return None
    return label_of(mean(diffs), half_width(diffs), thresholds)


def label_of(loss: float, loss_half_width: float, thresholds: Mapping[str, float] = THRESHOLDS) -> str | None:
    """The label of a loss: the highest threshold that ``loss - loss_half_width`` reaches, else ``None``."""
    clear = loss - loss_half_width
    reached = [(least, name) for name, least in thresholds.items() if clear >= least]
    return max(reached)[1] if reached else None


def _play(option: object) -> Play:
    assert isinstance(option, Play)
    return option


def _int(option: object) -> int:
    assert isinstance(option, int) and not isinstance(option, bool)
    return option


def _push(option: object) -> tuple[int, int, int]:
    assert isinstance(option, tuple) and len(option) == 3
    right, mate, left = option
    return int(right), int(mate), int(left)


__all__ = ["DECISIONS", "DEFAULT_SAMPLES", "ENDGAME_NODES", "LINE", "THRESHOLDS", "Z", "Judgement", "branch_of",
           "branches_of", "half_width", "judge", "judge_exact", "label_of", "mean", "option_state", "paired_values",
           "sampled_label"]
