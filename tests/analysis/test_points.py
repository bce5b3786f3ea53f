"""The decisions the analysis judges (:func:`tichu.analysis.decision_points`): which, where in
the replay's steps, whose, and that each holds only what its seat knew (R8)."""

from __future__ import annotations

import pickle
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from tests.analysis.games import heuristic_record
from tichu.analysis import KINDS, DecisionPoint, RecordFault, decision_points
from tichu.core.cards import parse_mask
from tichu.records.steps import record_steps

#: The step kinds a decision's step may have.
STEP_KINDS = {"grand_tichu": {"grand_tichu"}, "push": {"push"}, "play": {"play", "pass"}, "bomb": {"bomb"},
              "wish": {"wish"}, "dragon": {"dragon"}}


def _hand_before(steps: Sequence[Mapping[str, Any]], point: DecisionPoint) -> int:
    """The seat's hand in the position the decision was made in."""
    declined = point.kind == "tichu" and not point.options[point.chosen]
    before = steps[point.step] if declined else steps[point.step - 1]
    return parse_mask(" ".join(before["hands"][point.seat]))


def test_every_kind_of_decision_with_a_valid_choice_R2_R4_R5_R6() -> None:
    """An Arena record: every seat judged; Grand Tichu and the push for each seat each round
    (R2.1, R2.3), plays with more than one option (R4.1), calls (R6.1), wish and Dragon."""
    record = heuristic_record()
    points = decision_points(record)
    kinds = {point.kind for point in points}
    assert {"grand_tichu", "push", "tichu", "play"} <= kinds <= set(KINDS)
    rounds = len(record["rounds"])
    for kind in ("grand_tichu", "push"):
        assert sorted((p.round, p.seat) for p in points if p.kind == kind) == \
            [(r, seat) for r in range(rounds) for seat in range(4)]
    for point in points:
        assert len(point.options) > 1 and 0 <= point.chosen < len(point.options)
        assert len(set(point.options)) == len(point.options)
    assert [point.step for point in points] == sorted(point.step for point in points)


def test_each_decision_points_at_its_step_in_the_replay() -> None:
    """The step shows the decision made (its kind and seat), or for a Tichu not called the
    position in which it was offered (R6.1)."""
    record = heuristic_record()
    steps, fault = record_steps(record)
    assert fault is None
    for point in decision_points(record):
        step = steps[point.step]
        assert step["round"] == point.round
        if point.kind == "tichu":
            called = point.options[point.chosen]
            assert (step["kind"] == "tichu" and step["seat"] == point.seat) == bool(called)
            continue
        assert step["kind"] in STEP_KINDS[point.kind]
        if point.kind not in ("grand_tichu", "push"):
            assert step["seat"] == point.seat


def test_a_point_holds_only_what_its_seat_knew_R8() -> None:
    """The view is the deciding seat's: its own hand as it was, its private state, and of the
    others only counts; it pickles (the server judges in a worker process)."""
    record = heuristic_record()
    steps, _ = record_steps(record)
    for point in decision_points(record):
        view = point.view
        public, private = view.public_state(), view.private_state()
        assert view.seat == private.player_index == point.seat
        assert view.hand == private.hand_cards == _hand_before(steps, point)
        assert not hasattr(public, "hands")
        assert pickle.loads(pickle.dumps(point)) == point


def test_default_seats_are_the_stints_people_held() -> None:
    """A person at seat 1 for round 0 only (an agent took over at round 1, event 0): only
    that stint is judged; ``seats`` judges the seats named, always."""
    record = heuristic_record()
    record["players"][1]["kind"] = "human"
    record["seat_changes"] = [{"seat": 1, "round": 1, "event": 0, "name": "Bot", "kind": "agent:montecarlo",
                               "reason": "left"}]
    points = decision_points(record)
    assert points and {(point.seat, point.round) for point in points} == {(1, 0)}
    assert {point.seat for point in decision_points(record, seats=[0, 2])} == {0, 2}


def test_an_aborted_game_is_judged_as_far_as_it_went() -> None:
    """A record ended early (docs/server.md): its unfinished round's decisions are taken."""
    record = heuristic_record()
    last = record["rounds"].pop()
    record["score"] = [sum(r["score"][0] for r in record["rounds"]), sum(r["score"][1] for r in record["rounds"])]
    record.update(aborted=True, winner=None,
                  unfinished_round={key: last[key] for key in ("deal", "deal_rest", "grand_tichu", "push")}
                  | {"events": last["events"][:10]})
    rounds = len(record["rounds"])
    points = decision_points(record)
    assert any(point.round == rounds and point.kind == "play" for point in points)


def test_a_record_that_does_not_replay_is_refused() -> None:
    """A record whose events break the rules is no game to judge."""
    record = heuristic_record()
    record["rounds"][0]["events"][0]["seat"] = (record["rounds"][0]["events"][0]["seat"] + 1) % 4
    with pytest.raises(RecordFault):
        decision_points(record)
