"""The replay viewer's steps (:mod:`tichu.records.steps`): a record replayed step by step through
the rules ends with the record's score, shows every card where the rules put it, and stops at
the first violation of a tampered record."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tichu.arena.arena import Arena
from tichu.core.cards import LABELS
from tichu.records.bsw import import_file
from tichu.records.record import replay
from tichu.records.steps import MAX_STEPS, combo_of, record_steps, record_summary, replay_document

Record = dict[str, Any]
EVENT_KINDS = {"tichu": "tichu", "play": "play", "pass": "pass", "bomb": "bomb", "wish": "wish",
               "dragon_to": "dragon"}


@pytest.fixture(scope="module")
def records() -> list[Record]:
    """40 games of four random agents to 300 points."""
    found: list[Record] = []
    Arena(["random"] * 4, games=40, seed=99, workers=1, target_score=300, records=True).run(on_record=found.append)
    return found


def _check_steps(record: Mapping[str, Any], steps: Sequence[Mapping[str, Any]]) -> None:
    """The steps follow the record: one per event and stage, every card somewhere, round ends that
    agree with the record's summaries, the record's final score at the end."""
    ends = [step for step in steps if step["kind"] == "round_end"]
    assert len(ends) == len(record["rounds"])
    total = [0, 0]
    for index, (round_, end) in enumerate(zip(record["rounds"], ends)):
        total = [total[0] + round_["score"][0], total[1] + round_["score"][1]]
        assert end["score"] == total and end["round_score"] == round_["score"]
        assert end["card_points"] == round_["card_points"] and end["bonus"] == round_["bonus"]
        assert end["out_order"] == round_["out_order"]
        holding = [seat for seat, hand in enumerate(end["hands"]) if hand]
        assert holding == sorted(set(range(4)) - set(round_["out_order"]))
        if not round_["double_victory"]:
            assert len(holding) == 1
        mine = [step for step in steps if step["round"] == index]
        assert [step["kind"] for step in mine[:3]] == ["deal", "grand_tichu", "push"]
        assert [len(hand) for hand in mine[0]["hands"]] == [8] * 4
        assert [len(hand) for hand in mine[1]["hands"]] == [14] * 4
        assert mine[1]["value"] == [seat for seat, called in enumerate(round_["grand_tichu"]) if called]
        assert mine[2]["push"] == round_["push"]
        events = [step for step in mine if step["kind"] not in ("deal", "grand_tichu", "push", "trick", "round_end")]
        assert [(step["kind"], step["seat"]) for step in events] == [
            (EVENT_KINDS[next(key for key in event if key != "seat")], event["seat"]) for event in round_["events"]]
        for step in mine:
            in_hands = [card for hand in step["hands"] for card in hand]
            on_table = [card for turn in step["trick_turns"] for card in turn["cards"]]
            assert len(set(in_hands)) == len(in_hands) and not set(in_hands) & set(on_table)
            assert set(in_hands) <= set(LABELS)
            assert sum(step["won_points"]) <= 125
    assert steps[-1]["kind"] == "round_end" and steps[-1]["score"] == record["score"]
    json.dumps(steps)  # JSON-ready


def test_steps_of_arena_games_end_with_the_record_score(records: list[Record]) -> None:
    for record in records:
        steps, fault = record_steps(record)
        assert fault is None, fault
        _check_steps(record, steps)


def test_step_kinds_cover_the_game(records: list[Record]) -> None:
    kinds = {step["kind"] for record in records for step in record_steps(record)[0]}
    assert kinds >= {"deal", "grand_tichu", "push", "play", "pass", "trick", "wish", "dragon", "round_end", "bomb"}


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_steps_of_any_game_replay(seed: int) -> None:
    found: list[Record] = []
    Arena(["random", "rule", "random", "rule"], games=1, seed=seed, workers=1, target_score=200,
          records=True).run(on_record=found.append)
    steps, fault = record_steps(found[0])
    assert fault is None
    _check_steps(found[0], steps)


def test_trick_steps_show_the_trick_taken(records: list[Record]) -> None:
    """A ``trick`` step comes before the next lead: the table is empty, the taker's count grew."""
    steps, _ = record_steps(records[0])
    for before, step in zip(steps, steps[1:]):
        if step["kind"] == "trick":
            assert step["trick_turns"] == [] and step["trick_owner"] is None
            assert sorted(step["cards"]) == sorted(card for turn in before["trick_turns"] for card in turn["cards"])
            seat = step["seat"]
            assert seat is not None and step["tricks_won"][seat] == before["tricks_won"][seat] + 1
        if step["kind"] == "play" and before["kind"] == "trick":
            assert step["trick_turns"][0]["seat"] == step["seat"]


def test_a_tampered_record_stops_at_the_violation(records: list[Record]) -> None:
    record = copy.deepcopy(records[1])
    events = record["rounds"][1]["events"]
    index = next(i for i, event in enumerate(events) if "play" in event and i > 4)
    seat = events[index]["seat"]
    events[index] = {"seat": (seat + 1) % 4, "play": events[index]["play"]}
    steps, fault = record_steps(record)
    assert fault is not None and fault == replay(record)
    assert (fault.round_index, fault.event_index, fault.rule) == (1, index, "R4.1")
    assert steps[-1]["round"] == 1
    assert len([step for step in steps if step["round"] == 1 and step["kind"] not in
                ("deal", "grand_tichu", "push", "trick")]) == index
    document = replay_document(record)
    assert document["fault"] == {"round": 1, "event": index, "rule": "R4.1", "reason": fault.reason}


def test_a_wrong_score_keeps_every_step(records: list[Record]) -> None:
    record = copy.deepcopy(records[2])
    record["score"] = [1, 2]
    steps, fault = record_steps(record)
    assert fault is not None and fault.rule == "R7.3"
    _check_steps({**record, "score": records[2]["score"]}, steps)


def test_malformed_records() -> None:
    assert record_steps({"format": "other"})[1] is not None
    steps, fault = record_steps({"format": "tichu-record/1", "rounds": [{"deal": 5}]})
    assert steps == [] and fault is not None and fault.rule == "records"


def test_the_steps_are_bounded(records: list[Record]) -> None:
    steps, fault = record_steps(records[0], max_steps=50)
    assert len(steps) == 50 and fault is not None and fault.rule == "records"
    assert "50" in fault.reason
    assert MAX_STEPS >= 10_000


def test_summary_and_document(records: list[Record]) -> None:
    summary = record_summary(records[0])
    assert summary["id"] == records[0]["id"] and summary["score"] == records[0]["score"]
    assert summary["players"] == [player["name"] for player in records[0]["players"]]
    assert summary["rounds"] == len(records[0]["rounds"])
    assert record_summary({})["players"] == []
    document = replay_document(records[0])
    assert document["fault"] is None and document["player_kinds"] == ["agent:random"] * 4
    assert document["rules"]["target_score"] == 300


def test_combo_names() -> None:
    from tichu.core.cards import parse_mask
    assert combo_of(parse_mask("S7 R7")) == ("pair", 7)
    assert combo_of(parse_mask("Hu")) == ("dog", 0)
    assert combo_of(parse_mask("S7 R8")) == (None, 0)
    assert combo_of(parse_mask("S7 R7 G7 B7")) == ("bomb", 7)


def test_brettspielwelt_games_replay_step_by_step(shared_dir: Path) -> None:
    paths = sorted((shared_dir / "data" / "bsw").glob("*.tch"))
    assert paths
    for path in paths:
        record = import_file(path)
        steps, fault = record_steps(record)
        assert fault == replay(record), path.name
        if fault is None:
            _check_steps(record, steps)
        assert len([step for step in steps if step["kind"] == "round_end"]) >= 1


def test_an_aborted_games_unfinished_round_is_shown(records: list[Record]) -> None:
    """An aborted game (docs/server.md): its finished rounds, then its unfinished round as far
    as it went; the fault says the game ended early there."""
    record = copy.deepcopy(records[3])
    first, second = record["rounds"][0], record["rounds"][1]
    unfinished = {key: second[key] for key in ("deal", "deal_rest", "grand_tichu", "push")}
    unfinished["events"] = second["events"][:12]
    record.update(rounds=[first], score=first["score"], winner=None, aborted=True, unfinished_round=unfinished)
    steps, fault = record_steps(record)
    assert fault is not None and (fault.round_index, fault.rule) == (1, "R7.4")
    assert steps[-1]["round"] == 1
    events = [step for step in steps if step["round"] == 1 and step["kind"] not in
              ("deal", "grand_tichu", "push", "trick")]
    assert len(events) == 12
    assert all(step["score"] == first["score"] for step in steps if step["round"] == 1)
    unfinished["push"][2] = None  # ended during the push: the deal and the calls
    unfinished["events"] = []
    steps, fault = record_steps(record)
    assert fault is not None and fault.rule == "R7.4"
    assert [step["kind"] for step in steps if step["round"] == 1] == ["deal", "grand_tichu"]
    record["unfinished_round"] = {"deal": 3}
    steps, fault = record_steps(record)
    assert fault is not None and fault.rule == "records" and steps[-1]["round"] == 0


def test_each_step_names_who_held_the_seats_then(records: list[Record]) -> None:
    """A game someone left (docs/server.md, ``seat_changes``): the steps before the change name the
    person, the steps from it on the agent that finished for them; ``ended_by`` is passed on."""
    record = copy.deepcopy(records[0])
    record["players"][2] = {"name": "Ben", "kind": "human"}
    record["seat_changes"] = [{"seat": 2, "round": 0, "event": 3, "name": "Bot 3", "kind": "agent:random",
                               "reason": "left"}, {"seat": 9, "round": "x"}]  # a malformed entry is left out
    record["ended_by"] = {"seat": 1, "name": "Cleo"}
    document = replay_document(record)
    steps = document["steps"]
    assert document["ended_by"] == {"seat": 1, "name": "Cleo"}
    assert steps[0]["names"][2] == "Ben" and steps[-1]["names"][2] == "Bot 3"
    first_events = [step for step in steps if step["round"] == 0
                    and step["kind"] in ("tichu", "play", "pass", "bomb", "wish", "dragon")]  # one per event
    assert [step["names"][2] for step in first_events[:3]] == ["Ben"] * 3
    assert all(step["names"][2] == "Bot 3" for step in first_events[3:])
    assert all(step["names"][:2] + step["names"][3:] == steps[0]["names"][:2] + steps[0]["names"][3:]
               for step in steps)
