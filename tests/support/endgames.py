"""Two-seat endgames for the tests: an independent plain minimax, and the endgames of the
Brettspielwelt games and of seeded Arena games (issue 34, finding 1)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from tests.analysis.games import heuristic_record
from tichu.analysis.points import DecisionPoint, decision_points
from tichu.core.flow import GameState
from tichu.core.seats import team_of
from tichu.records.bsw import decode, import_game

#: Most cards in the two hands of a position the plain minimax is asked about.
SMALL = 7
#: Seeds of the Arena games whose endgames are checked.
ARENA_SEEDS = (5, 11, 23)


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
