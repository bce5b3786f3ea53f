"""The judge solves exactly only what the deciding seat could know (issue 34, part 4; R8).

A seat that went out with the Dragon while two others still hold cards gives the trick away
without knowing how the unseen cards lie between those two: the true state is hidden from it,
so its gift is judged by sampling worlds it cannot tell apart, not by solving the real one.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from tichu.agents.support.exact import known_hands
from tichu.analysis import DecisionPoint, decision_points, judge
from tichu.records.bsw import decode, import_game


@cache
def every_point(folder: str) -> tuple[DecisionPoint, ...]:
    """Every judged decision of every seat in the Brettspielwelt games of ``folder``."""
    found: list[DecisionPoint] = []
    for path in sorted(Path(folder).glob("*.tch")):
        found += decision_points(dict(import_game(decode(path.read_bytes()), path.stem)), [0, 1, 2, 3])
    return tuple(found)


def test_an_exact_position_holds_only_what_the_seat_knows_R8(shared_dir: Path) -> None:
    points = every_point(str(shared_dir / "data" / "bsw"))
    exact = [point for point in points if point.state is not None]
    assert len(exact) >= 300
    for point in exact:
        assert point.state is not None and point.state.round is not None
        assert known_hands(point.view) == point.state.round.hands, point


def test_a_dragon_gift_of_a_seat_out_between_two_hands_is_sampled_R4_5_R8(shared_dir: Path) -> None:
    """Before, such a gift was solved on the true hands and shown as exact."""
    gifts = [point for point in every_point(str(shared_dir / "data" / "bsw")) if point.kind == "dragon"
             and not point.view.hand and sum(1 for count in point.view.public_state().count_hand_cards if count) == 2]
    assert gifts
    for point in gifts:
        assert point.state is None
        judgement = judge(point, samples=4)
        assert not judgement.exact and judgement.samples > 0
