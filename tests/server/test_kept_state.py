"""Reading back what the store keeps for a table (JSON): its kinds are checked as it is read."""

from __future__ import annotations

import pytest

from tichu.server.tables.options import TableOptions, as_number
from tichu.server.tables.session import read_seat_change


def test_a_stored_seat_change_is_read_back_as_it_was_kept() -> None:
    change = {"seat": 2, "round": 1, "event": 7, "name": "Ann", "kind": "human", "reason": "left"}
    assert read_seat_change(change) == change


@pytest.mark.parametrize("value", [None, [], {"seat": "2", "round": 1, "event": 7, "name": "Ann", "kind": "human",
                                                "reason": "left"}, {"seat": 2}])
def test_a_stored_seat_change_of_other_kinds_is_refused(value: object) -> None:
    with pytest.raises(TypeError):
        read_seat_change(value)


def test_stored_options_are_restored_and_a_turn_clock_must_be_a_number() -> None:
    options = TableOptions(agent="random", hints=False)
    options.restore({"agent": "expert", "hints": True, "turn_clock": 30, "on_leave": "end", "newcomers": True})
    assert options == TableOptions(agent="expert", hints=True, turn_clock=30.0, on_leave="end", newcomers=True)
    assert as_number("60") == 60.0
    with pytest.raises(TypeError):
        options.restore({"turn_clock": [30]})
    with pytest.raises(ValueError):
        as_number("soon")
