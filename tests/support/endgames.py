"""Two-seat endgames for the tests: two independent exact solvers, and the endgames of the
Brettspielwelt games and of seeded Arena games (issue 34, finding 1 and part 4).

Both solvers play the core's flow through its public, checked API only
(:meth:`~tichu.core.flow.GameState.legal_actions`, :meth:`~tichu.core.flow.GameState.apply`,
:meth:`~tichu.core.flow.GameState.clone`) and share nothing with the agents' solver
(:mod:`tichu.agents.support.endgame`: neither its state key nor its code nor its fast path;
its move order, which decides only how long a solve takes, is written anew), so that a fault
in one is not hidden by the other: :func:`minimax` searches every
line (small positions only), :class:`MemoSolver` searches with alpha-beta and a table of
proven bounds under a key of its own (:func:`position_key`), and reaches every two-seat
position of the games in test time."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from tests.analysis.games import heuristic_record
from tichu.analysis.points import DecisionPoint, decision_points
from tichu.core.cards import cards_of, points_of
from tichu.core.combos import Play
from tichu.core.flow import GameState
from tichu.core.round import Action, ActionKind, Decision
from tichu.core.ruleset import RuleSet
from tichu.core.seats import team_of
from tichu.records.bsw import decode, import_game

#: Most cards in the two hands of a position the plain minimax is asked about.
SMALL = 7
#: Seeds of the Arena games whose endgames are checked.
ARENA_SEEDS = (5, 11, 23)


def apply_option(point: DecisionPoint, index: int) -> GameState:
    """A copy of a two-seat decision's state with one of its options taken through the flow's
    checked methods (apart from the judge's own way of applying it): a play or pass, a bomb,
    a call, a declined offer (no call, no bomb; none open: the state as it is), a wish, a
    Dragon recipient."""
    assert point.state is not None
    state = point.state.clone()
    option, seat, kind = point.options[index], point.seat, point.kind
    if isinstance(option, Play) and kind == "play":
        state.play(seat, option.cards)
    elif isinstance(option, Play):
        state.bomb(seat, option.cards)
    elif kind == "tichu" and option is True:
        state.call(seat)
    elif kind in ("tichu", "bomb"):
        if state.decision in (Decision.TICHU, Decision.BOMB) and state.decision_seat == seat:
            state.decline(seat)
    elif kind == "wish":
        assert isinstance(option, int)
        state.wish(seat, option)
    else:
        assert kind == "dragon" and isinstance(option, int)
        state.give_dragon(seat, option)
    return state


def fingerprint(point: DecisionPoint) -> str:
    """A short name of a two-seat decision that changes with its position or options: the
    key of :data:`VALUES` (a game replayed otherwise, or other options, find no entry)."""
    assert point.state is not None
    state = point.state
    text = repr((state.decision, state.decision_seat, point.seat, point.kind, position_key(state), point.options))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def stored_values() -> dict[str, list[int] | None]:
    """The stored exact values of :data:`VALUES` by fingerprint (``None``: a position the
    script could not solve in its time); none if the file is missing."""
    if not VALUES.exists():
        return {}
    data = json.loads(VALUES.read_text())
    return {entry["fingerprint"]: entry["values"] for entry in data["positions"]}


def minimax(state: GameState, seat: int) -> int:
    """The round's exact value for ``seat``'s team: points of its team minus the other's."""
    round_ = state.round
    assert round_ is not None
    if round_.is_over:
        points = round_.result().points
        return points[team_of(seat)] - points[1 - team_of(seat)]
    deciding = state.decision_seat
    assert deciding is not None
    values = []
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        values.append(minimax(after, seat))
    return max(values) if team_of(deciding) == team_of(seat) else min(values)


#: Most cards in the two hands of a position :class:`MemoSolver` solves while the tests run;
#: the larger ones are read from :data:`VALUES` (solved by the same solver, once).
LIVE = 10
#: The exact values of every option of every two-seat decision of the games, by
#: :func:`fingerprint` (written by ``tests/data/make_endgame_values.py``).
VALUES = Path(__file__).resolve().parents[1] / "data" / "endgame_values.json"

#: Beyond any round's value for one team (R7: 200 of cards and 2 × 200 of calls at most).
_BEYOND = 1_000


def position_key(state: GameState) -> tuple[object, ...]:
    """What decides the rest of a round at a play decision, read from the round's public
    fields (R4, R5, R6, R7): the hands, the open trick (top, owner, its card points, closed or
    not, who passed on it since its last play), the seat at turn, the wish and whether it is
    open, who is out in order, the calls, who has played, and each seat's card points taken.

    Kept independent of :meth:`~tichu.core.round.Round.play_key` (written from the rules, not
    from it): a tighter key there, a looser one here, and the two solvers disagree.
    """
    round_ = state.round
    assert round_ is not None
    taken = tuple(points_of(won) + carried for won, carried in zip(round_.won, round_.carried_points))
    return (tuple(round_.hands), round_.trick, round_.trick_owner, points_of(round_.trick_cards),
            round_.trick_closed, tuple(round_.passed_since_last_play()), round_.turn, round_.wish_value,
            round_.wish_open, tuple(round_.out_order), tuple(round_.announcements), tuple(round_.has_played), taken)


def ordered(state: GameState) -> list[Action]:
    """The legal actions as :class:`MemoSolver` tries them: a play that empties the hand first,
    then the most cards, then the highest card among them (going out, long plays and the lead
    won early cut the search most), a pass or a declined offer last. The order decides only
    how soon the search cuts, never a value (alpha-beta is exact in any order): ranked by the
    card count alone, a 22-card endgame of the Brettspielwelt games took more than 25 minutes,
    ranked so, 10 seconds (docs/benchmarks.md, "Checked against an independent solver")."""
    seat = state.decision_seat
    assert seat is not None and state.round is not None
    hand = state.round.hands[seat]

    def priority(action: Action) -> tuple[bool, int, int]:
        if action.kind not in (ActionKind.PLAY, ActionKind.BOMB):
            return False, 0, 0
        cards = action.number()
        return cards == hand, cards.bit_count(), max(card.value for card in cards_of(cards))
    return sorted(state.legal_actions(), key=priority, reverse=True)


class MemoSolver:
    """Exact values of two-seat endgames: alpha-beta over the flow with a table of proven
    bounds and the best action found per :func:`position_key` (play decisions only: the
    offers around a play are made afresh after it), that action tried first when the
    position comes again. The table is kept between solves of the same rules, so the
    positions of one round, each a later moment of the one before, share it.

    :ivar nodes: The positions searched since the solver was made.
    """

    def __init__(self) -> None:
        self.table: dict[tuple[object, ...], tuple[int, int, Action | None]] = {}
        self.rules: RuleSet | None = None
        self.nodes = 0

    def value(self, state: GameState, seat: int) -> int:
        """The round's exact value for ``seat``'s team (its points minus the other's), both
        seats left playing their best."""
        round_ = state.round
        assert round_ is not None
        if round_.rules is not self.rules:
            self.table.clear()
            self.rules = round_.rules
        value = self._search(state, -_BEYOND, _BEYOND)
        return value if team_of(seat) == 0 else -value

    def _search(self, state: GameState, alpha: int, beta: int) -> int:
        """Team 0's value if it lies inside ``(alpha, beta)``; else a bound on the side it lies."""
        round_ = state.round
        assert round_ is not None
        if round_.is_over:
            points = round_.result().points
            return points[0] - points[1]
        self.nodes += 1
        key = position_key(state) if state.decision == Decision.PLAY else None
        low, high, first = self.table.get(key, (-_BEYOND, _BEYOND, None)) if key is not None \
            else (-_BEYOND, _BEYOND, None)
        if low == high or low >= beta:
            return low
        if high <= alpha:
            return high
        floor, ceiling = max(alpha, low), min(beta, high)
        seat = state.decision_seat
        assert seat is not None
        maximise = team_of(seat) == 0
        best, best_action = (-_BEYOND if maximise else _BEYOND), first
        lower, upper = floor, ceiling
        actions = ordered(state)
        if first in actions:
            actions.remove(first)
            actions.insert(0, first)
        for action in actions:
            after = state.clone()
            after.apply(action)
            value = self._search(after, lower, upper)
            if (value > best) if maximise else (value < best):
                best, best_action = value, action
            if maximise:
                lower = max(lower, best)
            else:
                upper = min(upper, best)
            if lower >= upper:
                break
        if key is not None:
            if best <= floor:
                high = min(high, best)
            elif best >= ceiling:
                low = max(low, best)
            else:
                low = high = best
            self.table[key] = (low, high, best_action)
        return best


@cache
def bsw_points(folder: str) -> tuple[DecisionPoint, ...]:
    """The two-seat decisions of every seat in the Brettspielwelt games of ``folder``."""
    found: list[DecisionPoint] = []
    for path in sorted(Path(folder).glob("*.tch")):
        record = import_game(decode(path.read_bytes()), path.stem)
        found += [point for point in decision_points(dict(record), [0, 1, 2, 3]) if point.state is not None]
    return tuple(found)


@cache
def arena_points() -> tuple[DecisionPoint, ...]:
    """The two-seat decisions of the seeded Arena games (:data:`ARENA_SEEDS`)."""
    found: list[DecisionPoint] = []
    for seed in ARENA_SEEDS:
        found += [point for point in decision_points(heuristic_record(seed, 500)) if point.state is not None]
    return tuple(found)


def cards_left(point: DecisionPoint) -> int:
    """The cards in the hands at a two-seat decision."""
    assert point.state is not None and point.state.round is not None
    return sum(hand.bit_count() for hand in point.state.round.hands)
