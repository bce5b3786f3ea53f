"""Game records (records.md, ``tichu-record/1``): the Arena's records replay through the rules, and
tampered records are reported at the right round, event and rule (:func:`tichu.records.replay`)."""

from __future__ import annotations

import copy
import importlib
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tichu.arena.arena import Arena
from tichu.core.cards import CARDS, DOG, LABELS, format_mask, indices_of, parse_mask
from tichu.core.combos import BOMB, PASS_PLAY, SINGLE, bombs_of
from tichu.core.round import Round
from tichu.core.ruleset import RuleSet
from tichu.records import event_text
from tichu.records.event_text import LABEL_CACHE
from tichu.records.record import (
    FORMAT,
    ReplayFault,
    event_action,
    game_record,
    now_iso,
    read_records,
    replay,
    write_records,
)

ROOT = Path(__file__).resolve().parents[2]

Record = dict[str, Any]


@pytest.fixture(scope="module")
def arena_records(tmp_path_factory: pytest.TempPathFactory) -> list[Record]:
    """200 games of four random agents to 1000, written by the Arena and read back from a file."""
    path = tmp_path_factory.mktemp("records") / "arena.jsonl"
    written: list[Record] = []
    Arena(["random"] * 4, games=200, seed=2026, workers=2, records=True).run(on_record=written.append)
    assert write_records(path, written) == 200
    records = list(read_records(path))
    assert records == written
    return records


@pytest.fixture()
def record(arena_records: list[Record]) -> Record:
    """A fresh copy of one record to tamper with."""
    return copy.deepcopy(arena_records[0])


# -- the Arena's records ------------------------------------------------------------------------


@pytest.mark.slow
def test_arena_records_replay_without_violation(arena_records: list[Record]) -> None:
    """Every one of 200 random games replays through the rules with no violation."""
    assert len(arena_records) == 200
    bad = [(index, str(found)) for index, record in enumerate(arena_records) if (found := replay(record))]
    assert bad == []


def test_arena_records_follow_the_format(arena_records: list[Record]) -> None:
    """records.md: 56 distinct cards dealt 8 + 6, pushes of three own cards, events with a seat and
    one known key, card points adding up to 100 (R7.2) or 200/0 on a double victory (R7.1), score
    = card points + bonus, totals and winner (R7.4)."""
    keys = {"tichu", "play", "pass", "bomb", "wish", "dragon_to"}
    doubles = 0
    for record in arena_records:
        assert record["format"] == FORMAT and isinstance(record["seed"], int)
        assert record["rules"] == {"target_score": 1000, "wish_optional": False, "tichu_before_schupf": False,
                                   "reveal_hands_when_out": True}
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", record["started_at"])
        assert [player["kind"] for player in record["players"]] == ["agent:random"] * 4
        total = [0, 0]
        for round_ in record["rounds"]:
            cards = [label for seat in range(4) for part in (round_["deal"][seat], round_["deal_rest"][seat])
                     for label in part.split()]
            assert sorted(cards) == sorted(LABELS)
            assert all(len(round_["deal"][s].split()) == 8 and len(round_["deal_rest"][s].split()) == 6
                       for s in range(4))
            for seat, push in enumerate(round_["push"]):
                hand = set(round_["deal"][seat].split()) | set(round_["deal_rest"][seat].split())
                assert len(push) == 3 and len(set(push)) == 3 and set(push) <= hand
            for event in round_["events"]:
                assert set(event) - {"seat"} <= keys and len(event) == 2 and event["seat"] in range(4)
            if round_["double_victory"]:
                doubles += 1
                assert sorted(round_["card_points"]) == [0, 200] and len(round_["out_order"]) == 2
                assert round_["out_order"][0] % 2 == round_["out_order"][1] % 2
            else:
                assert sum(round_["card_points"]) == 100 and len(set(round_["out_order"])) == 3
            assert round_["score"] == [round_["card_points"][t] + round_["bonus"][t] for t in (0, 1)]
            total = [total[0] + round_["score"][0], total[1] + round_["score"][1]]
        assert record["score"] == total and max(total) >= 1000
        assert record["winner"] == (20 if total[0] > total[1] else 31)
    assert doubles > 0


# -- finding places to tamper with --------------------------------------------------------------


def _states(record: Record) -> Iterator[tuple[int, int, Round, dict[str, Any]]]:
    """Every (round, event index, state before the event, event) of a record."""
    rules = RuleSet.from_json(record["rules"])
    for index, data in enumerate(record["rounds"]):
        round_ = Round(rules, deal=[(parse_mask(a), parse_mask(b)) for a, b in zip(data["deal"], data["deal_rest"])])
        for seat, called in enumerate(data["grand_tichu"]):
            round_.decide_grand_tichu(seat, called)
        for seat, labels in enumerate(data["push"]):
            round_.schupf(seat, [parse_mask(label) for label in labels])
        for event_index, event in enumerate(data["events"]):
            yield index, event_index, round_.clone(), event
            round_.apply(event_action(event))


def _find(records: list[Record], test: Callable[[int, int, Round, dict[str, Any]], Any]
          ) -> tuple[Record, int, int, Any]:
    """The first record event where ``test`` returns something truthy: (copy of record, round, event, value)."""
    for record in records:
        for round_index, event_index, state, event in _states(record):
            found = test(round_index, event_index, state, event)
            if found:
                return copy.deepcopy(record), round_index, event_index, found
    raise AssertionError("no such place in the records")


def _assert_violation(record: Record, round_index: int | None, event_index: int | None, rule: str) -> ReplayFault:
    found = replay(record)
    assert found is not None, "the tampered record was accepted"
    assert (found.round_index, found.event_index, found.rule) == (round_index, event_index, rule), str(found)
    assert str(found).startswith("record" if round_index is None else f"round {round_index}")
    return found


# -- tampered events ------------------------------------------------------------------------------


def test_play_that_does_not_beat_the_trick_R4_1(arena_records: list[Record]) -> None:
    """A single lower than the single on the table is reported as R4.1 at that event."""
    def lower_single(r: int, e: int, state: Round, event: dict[str, Any]) -> Any:
        trick = state.trick
        if "play" not in event or state.is_lead or state.wish_open or trick is None or trick[1] != SINGLE:
            return None
        hand = state.hands[event["seat"]]
        lower = [i for i in indices_of(hand) if 2 <= CARDS[i].value < trick[3]]
        return LABELS[lower[0]] if lower else None

    record, r, e, label = _find(arena_records, lower_single)
    record["rounds"][r]["events"][e]["play"] = label
    _assert_violation(record, r, e, "R4.1")


def test_cards_that_form_no_combination_R3(arena_records: list[Record]) -> None:
    """Two cards of different values are no combination (R3)."""
    def two_values(r: int, e: int, state: Round, event: dict[str, Any]) -> Any:
        if "play" not in event:
            return None
        hand = state.hands[event["seat"]]
        standard = [i for i in indices_of(hand) if 2 <= CARDS[i].value <= 14]
        for i in standard:
            for j in standard:
                if CARDS[i].value + 1 < CARDS[j].value:
                    return f"{LABELS[i]} {LABELS[j]}"
        return None

    record, r, e, labels = _find(arena_records, two_values)
    record["rounds"][r]["events"][e]["play"] = labels
    _assert_violation(record, r, e, "R3")


def test_dog_played_on_a_trick_R3_10(arena_records: list[Record]) -> None:
    """The Dog is only a lead (R3.10)."""
    def dog_on_trick(r: int, e: int, state: Round, event: dict[str, Any]) -> Any:
        return "play" in event and not state.is_lead and state.hands[event["seat"]] & DOG and not state.wish_open

    record, r, e, _ = _find(arena_records, dog_on_trick)
    record["rounds"][r]["events"][e]["play"] = "Hu"
    _assert_violation(record, r, e, "R3.10")


def test_pass_under_the_wish_R5_2(arena_records: list[Record]) -> None:
    """A seat that can fulfil the open wish may not pass (R5.2)."""
    def must_fulfil(r: int, e: int, state: Round, event: dict[str, Any]) -> Any:
        if state.is_lead or not state.wish_open or state.turn != event["seat"] or "play" not in event:
            return None
        return PASS_PLAY not in state.legal_plays()

    record, r, e, _ = _find(arena_records, must_fulfil)
    record["rounds"][r]["events"][e] = {"seat": record["rounds"][r]["events"][e]["seat"], "pass": True}
    _assert_violation(record, r, e, "R5.2")


def test_card_not_in_hand_R4_1(record: Record) -> None:
    """Playing a card the seat does not hold is reported (R4.1)."""
    events = record["rounds"][0]["events"]
    index = next(i for i, event in enumerate(events) if "play" in event)
    seat = events[index]["seat"]
    round_data = record["rounds"][0]
    other = (seat + 2) % 4
    partner_card = next(label for label in round_data["deal"][other].split()
                        if all(label not in push for push in round_data["push"])
                        and label not in ("Hu", "Ma", "Dr", "Ph"))
    events[index]["play"] = partner_card
    _assert_violation(record, 0, index, "R4.1")


def test_play_out_of_turn_R4_1(record: Record) -> None:
    """A play by a seat that is not at turn is R4.1."""
    events = record["rounds"][0]["events"]
    index = next(i for i, event in enumerate(events) if "play" in event and i > 3)
    events[index]["seat"] = (events[index]["seat"] + 1) % 4
    _assert_violation(record, 0, index, "R4.1")


def test_missing_pass_makes_the_next_event_out_of_turn(record: Record) -> None:
    """Dropping a pass in the middle: the next event comes from a seat not at turn (R4.1)."""
    events = record["rounds"][0]["events"]
    index = next(i for i, event in enumerate(events)
                 if "pass" in event and i + 1 < len(events) and ("play" in events[i + 1] or "pass" in events[i + 1])
                 and events[i + 1]["seat"] != event["seat"])
    del events[index]
    _assert_violation(record, 0, index, "R4.1")


def test_missing_last_event_R7(record: Record) -> None:
    """A round whose events stop before it is over is R7 (no event index)."""
    record["rounds"][1]["events"].pop()
    _assert_violation(record, 1, None, "R7")


def test_event_after_the_round_ended(record: Record) -> None:
    """An event after the round's end is refused at that event."""
    events = record["rounds"][0]["events"]
    events.append({"seat": 0, "pass": True})
    found = replay(record)
    assert found is not None and (found.round_index, found.event_index) == (0, len(events) - 1)


def test_tichu_after_the_first_card_R6_1(arena_records: list[Record]) -> None:
    """A Tichu call after the caller's first card is R6.1."""
    record = copy.deepcopy(arena_records[0])
    events = record["rounds"][0]["events"]
    index = next(i for i, event in enumerate(events) if "play" in event)
    seat = events[index]["seat"]
    if record["rounds"][0]["grand_tichu"][seat] or any("tichu" in ev and ev["seat"] == seat for ev in events):
        pytest.skip("the first player called already")
    events.insert(index + 1, {"seat": seat, "tichu": True})
    _assert_violation(record, 0, index + 1, "R6.1")


def test_second_call_R6_3(arena_records: list[Record]) -> None:
    """A Tichu by a seat that called Grand Tichu is refused (one call per round, R6.3 via R6.1)."""
    def grand_caller(r: int, e: int, state: Round, event: dict[str, Any]) -> Any:
        callers = [seat for seat in range(4) if state.announcements[seat] == 2 and not state.has_played[seat]]
        return callers[0] + 1 if callers and e == 0 else None

    record, r, _, seat_plus_one = _find(arena_records, grand_caller)
    record["rounds"][r]["events"].insert(0, {"seat": seat_plus_one - 1, "tichu": True})
    _assert_violation(record, r, 0, "R6.1")


def test_wish_out_of_range_R5_1(arena_records: list[Record]) -> None:
    """A wish of 1 (or 15) is R5.1."""
    record, r, e, _ = _find(arena_records, lambda r, e, state, event: "wish" in event)
    record["rounds"][r]["events"][e]["wish"] = 15
    _assert_violation(record, r, e, "R5.1")


def test_dragon_to_the_partner_R4_5(arena_records: list[Record]) -> None:
    """The Dragon trick goes to an opponent (R4.5)."""
    record, r, e, _ = _find(arena_records, lambda r, e, state, event: "dragon_to" in event)
    event = record["rounds"][r]["events"][e]
    event["dragon_to"] = (event["seat"] + 2) % 4
    _assert_violation(record, r, e, "R4.5")


def test_bomb_on_a_lead_R4_3(arena_records: list[Record]) -> None:
    """A bomb before the first play of a trick is R4.3."""
    def bomb_holder(r: int, e: int, state: Round, event: dict[str, Any]) -> Any:
        if e != 0:
            return None
        for seat in range(4):
            bombs = bombs_of(state.hands[seat])
            if bombs:
                return seat, format_mask(bombs[0][0])
        return None

    record, r, _, (seat, labels) = _find(arena_records, bomb_holder)
    record["rounds"][r]["events"].insert(0, {"seat": seat, "bomb": labels})
    _assert_violation(record, r, 0, "R4.3")


def test_bomb_that_does_not_beat_the_bomb_R3_8(arena_records: list[Record]) -> None:
    """A bomb thrown out of turn must beat a bomb on the table (R3.8, reported as R4.3)."""
    def lower_bomb(r: int, e: int, state: Round, event: dict[str, Any]) -> Any:
        if state.trick is None or state.trick[1] != BOMB or state.trick_closed:
            return None
        for seat in range(4):
            if seat == state.turn:
                continue
            for bomb in bombs_of(state.hands[seat]):
                if (bomb[2], bomb[3]) < (state.trick[2], state.trick[3]):
                    return seat, format_mask(bomb[0])
        return None

    record, r, e, (seat, labels) = _find(arena_records, lower_bomb)
    record["rounds"][r]["events"].insert(e, {"seat": seat, "bomb": labels})
    _assert_violation(record, r, e, "R4.3")


# -- tampered summaries -----------------------------------------------------------------------------


def test_wrong_round_score_R7(record: Record) -> None:
    """A round's score that the rules do not give is R7 at that round."""
    record["rounds"][2]["score"][0] += 5
    _assert_violation(record, 2, None, "R7")


@pytest.mark.parametrize("key", ["card_points", "bonus", "out_order", "double_victory"])
def test_wrong_round_summary_R7(record: Record, key: str) -> None:
    """Card points, bonus, out order and double victory are checked against the rules (R7)."""
    data = record["rounds"][1]
    if key == "double_victory":
        data[key] = not data[key]
    elif key == "out_order":
        data[key] = list(reversed(data[key]))
    else:
        data[key] = [data[key][1] + 5, data[key][0]]
    _assert_violation(record, 1, None, "R7")


def test_flipped_grand_tichu_changes_the_bonus_R6_2(record: Record) -> None:
    """A Grand Tichu flag that was not called makes the round's bonus wrong (R7 at that round)."""
    data = record["rounds"][0]
    seat = next(s for s in range(4) if not data["grand_tichu"][s])
    data["grand_tichu"][seat] = True
    _assert_violation(record, 0, None, "R7")


def test_wrong_game_score_R7_3(record: Record) -> None:
    """A final score that is not the rounds' sum is R7.3."""
    record["score"][1] += 10
    _assert_violation(record, None, None, "R7.3")


def test_wrong_winner_R7_4(record: Record) -> None:
    """The team with more points wins (R7.4)."""
    record["winner"] = 51 - record["winner"]
    _assert_violation(record, None, None, "R7.4")


def test_game_that_ends_too_early_R7_4(record: Record) -> None:
    """A record whose rounds stop before a team reached the target is R7.4."""
    record["rounds"] = record["rounds"][:1]
    record["score"] = list(record["rounds"][0]["score"])
    record["winner"] = 20 if record["score"][0] > record["score"][1] else 31
    _assert_violation(record, None, None, "R7.4")


def test_rounds_after_the_game_ended_R7_4(record: Record) -> None:
    """R7.4: the game ends after the round in which a team reached the target; a record that goes
    on playing (here: its last round once more, with score and winner made consistent) is invalid."""
    record["rounds"].append(copy.deepcopy(record["rounds"][-1]))
    total = [sum(r["score"][t] for r in record["rounds"]) for t in (0, 1)]
    record["score"] = total
    record["winner"] = 20 if total[0] > total[1] else 31
    _assert_violation(record, len(record["rounds"]) - 1, None, "R7.4")


def test_push_not_from_the_hand_R2_3(record: Record) -> None:
    """A pushed card that the seat was not dealt is R2.3 (no event index)."""
    data = record["rounds"][0]
    foreign = next(label for label in data["deal"][1].split())
    data["push"][0][1] = foreign
    _assert_violation(record, 0, None, "R2.3")


def test_deal_with_a_card_twice_R1_1(record: Record) -> None:
    """A deal that is not the 56 cards once each is R1.1."""
    data = record["rounds"][0]
    first = data["deal"][0].split()
    first[0] = data["deal"][1].split()[0]
    data["deal"][0] = " ".join(first)
    _assert_violation(record, 0, None, "R1.1")


# -- malformed records ----------------------------------------------------------------------------


@pytest.mark.parametrize("tamper", [
    lambda r: r.update(format="tichu-record/0"),
    lambda r: r.pop("rounds"),
    lambda r: r.pop("score"),
    lambda r: r.update(rounds=None),
    lambda r: r["rounds"][0].pop("events"),
    lambda r: r["rounds"][0].pop("card_points"),
    lambda r: r["rounds"][0].update(deal=None),
], ids=["format", "no-rounds", "no-score", "rounds-null", "no-events", "no-card-points", "deal-null"])
def test_malformed_record_is_reported_as_records(record: Record, tamper: Callable[[Record], Any]) -> None:
    """A record that does not follow the format is reported with rule ``"records"``, never raised."""
    tamper(record)
    found = replay(record)
    assert found is not None and found.rule == "records", found


@pytest.mark.parametrize("event", [
    {"seat": 0, "play": "S2", "pass": True},
    {"seat": 0, "jump": True},
    {"seat": 0},
], ids=["two-keys", "unknown-key", "no-key"])
def test_malformed_event_is_reported_as_records_at_its_index(record: Record, event: dict[str, Any]) -> None:
    """An event without exactly one known key is reported at its round and index, rule ``"records"``."""
    record["rounds"][0]["events"][3] = event
    _assert_violation(record, 0, 3, "records")


@pytest.mark.parametrize("tamper", [
    lambda r: r["rounds"][0]["events"][0].update(play=5),
    lambda r: r["rounds"][0]["events"][0].update(play=["S2"]),
    lambda r: r["rounds"][0]["deal"].__setitem__(0, 5),
    lambda r: r["rounds"][0]["push"][0].__setitem__(0, 7),
    lambda r: r.update(rules=[1]),
    lambda r: r["rounds"].__setitem__(0, "round"),
    lambda r: r["rounds"][0]["events"].__setitem__(0, "play"),
], ids=["play-int", "play-list", "deal-int", "push-int", "rules-list", "round-str", "event-str"])
def test_wrong_field_types_are_reported_not_raised(record: Record, tamper: Callable[[Record], Any]) -> None:
    """Fields of the wrong JSON type make a malformed record (rule ``"records"``); replay must not
    raise (records.md: a reader reports an invalid record)."""
    tamper(record)
    try:
        found = replay(record)
    except Exception as error:  # noqa: BLE001 - the point of the test
        pytest.fail(f"replay raised {error!r} instead of reporting the record")
    assert found is not None and found.rule == "records", found


# -- building, writing and reading ------------------------------------------------------------------


def test_write_read_round_trip(tmp_path: Path, arena_records: list[Record]) -> None:
    """JSON Lines: one record per line, read back equal; append adds; blank lines are skipped."""
    path = tmp_path / "r.jsonl"
    assert write_records(path, arena_records[:3]) == 3
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3 and all(json.loads(line)["format"] == FORMAT for line in lines)
    assert list(read_records(path)) == arena_records[:3]
    assert write_records(path, arena_records[3:5], append=True) == 2
    assert list(read_records(path)) == arena_records[:5]
    assert write_records(path, arena_records[5:6]) == 1  # overwrite
    assert list(read_records(path)) == arena_records[5:6]
    path.write_text(lines[0] + "\n\n   \n" + lines[1] + "\n", encoding="utf-8")
    assert list(read_records(path)) == arena_records[:2]


def test_read_refuses_a_line_that_is_no_object(tmp_path: Path) -> None:
    """A line that is JSON but not an object is an error naming the line."""
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "tichu-record/1"}\n[1, 2]\n', encoding="utf-8")
    with pytest.raises(ValueError, match=":2:"):
        list(read_records(path))


def test_non_ascii_names_round_trip(tmp_path: Path, record: Record) -> None:
    """UTF-8: player names survive writing and reading."""
    record["players"][0]["name"] = "Jürgen 🐉"
    path = tmp_path / "utf8.jsonl"
    write_records(path, [record])
    assert "Jürgen 🐉" in path.read_text(encoding="utf-8")
    assert list(read_records(path)) == [record]


def test_game_record_from_a_round() -> None:
    """``game_record`` of a finished round: the deal, pushes, events and summary of records.md."""
    round_ = Round(RuleSet(), deal=[
        (parse_mask("Ma S2 S3 S4 S5 S6 S7 S8"), parse_mask("S9 SZ SB SD SK SA")),
        (parse_mask("Hu B2 B3 B4 B5 B6 B7 B8"), parse_mask("B9 BZ BB BD BK BA")),
        (parse_mask("Dr G2 G3 G4 G5 G6 G7 G8"), parse_mask("G9 GZ GB GD GK GA")),
        (parse_mask("Ph R2 R3 R4 R5 R6 R7 R8"), parse_mask("R9 RZ RB RD RK RA"))])
    for seat in range(4):
        round_.decide_grand_tichu(seat, seat == 3)
    for seat, suit in enumerate("SBGR"):
        round_.schupf(seat, [parse_mask(f"{suit}2"), parse_mask(f"{suit}3"), parse_mask(f"{suit}4")])
    while not round_.is_over:  # everybody plays its first legal option
        decision = round_.legal_actions()
        round_.apply(decision[0])
    built = game_record([round_], RuleSet(target_score=0), [("Anna", "human")] * 4, record_id="x", seed=77,
                        started_at="2026-11-22T10:00:00Z")
    assert built["format"] == FORMAT and built["id"] == "x" and built["seed"] == 77
    assert built["rules"]["target_score"] == 0 and "seed" not in built["rules"]
    assert built["players"] == [{"name": "Anna", "kind": "human"}] * 4
    data = built["rounds"][0]
    assert data["deal"][0] == "S8 S7 S6 S5 S4 S3 S2 Ma" and data["deal_rest"][3] == "RA RK RD RB RZ R9"
    assert data["grand_tichu"] == [False, False, False, True]
    assert data["push"][1] == ["B2", "B3", "B4"]
    assert data["events"][0] == {"seat": 0, "play": format_mask(round_.events[0].number())}
    assert built["score"] == data["score"] and built["winner"] in (20, 31)
    if built["score"][0] != built["score"][1]:
        assert replay(built) is None
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", now_iso())


def test_a_torn_line_is_reported_and_skipped(tmp_path: Path, arena_records: list[Record]) -> None:
    """A power cut can tear the last line of a JSON Lines file: a reader told of unreadable lines
    reports it (with its number) and reads every whole record; one that is not told stops
    with an error naming the line."""
    path = tmp_path / "torn.jsonl"
    write_records(path, arena_records[:2])
    with open(path, "a", encoding="utf-8") as file:
        file.write('[1, 2]\n{"format": "tichu-rec')
    skipped: list[tuple[int, str]] = []
    assert list(read_records(path, lambda number, why: skipped.append((number, why)))) == arena_records[:2]
    assert [number for number, _ in skipped] == [3, 4]
    assert skipped[0][1] == "not a record object" and skipped[1][1].startswith("not JSON")
    with pytest.raises(ValueError, match=":3: not a record object"):
        list(read_records(path))


def test_replay_command_goes_on_after_a_torn_line(tmp_path: Path, arena_records: list[Record],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``tichu-replay`` replays the whole records of a file with a torn last line,
    reports the line and exits with 1."""
    command = importlib.import_module("tichu.cli.replay")
    path = tmp_path / "torn.jsonl"
    write_records(path, arena_records[:3])
    with open(path, "a", encoding="utf-8") as file:
        file.write('{"format": "tichu-rec')
    assert command.main([str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:4: skipped, not JSON" in out and "3 games" in out and "1 problems" in out


def test_the_play_label_cache_is_bounded_and_labels_like_format_mask() -> None:
    """Records label plays through a cache of :data:`~tichu.records.event_text.LABEL_CACHE` masks at most, with the same
    labels as :func:`format_mask` (records.md order)."""
    labels = event_text.play_labels
    labels.cache_clear()
    masks = [(1 << a) | (1 << b) for a in range(56) for b in range(a + 1, 56)] * 2
    masks += list(range(1, LABEL_CACHE + 100))
    for mask in masks:
        assert labels(mask) == format_mask(mask)
    info = labels.cache_info()
    assert info.maxsize == LABEL_CACHE and info.currsize <= LABEL_CACHE and info.hits >= 1540


def test_a_record_line_is_the_json_of_the_record_and_its_cache_is_bounded() -> None:
    """The Arena writes ``game_record_line``: the very text ``record_line(game_record(...))``
    gives, for games with every kind of event (calls, bombs, wishes, Dragon gifts), and player
    names that JSON must escape; every pass's and play's text is the JSON of its event (Issue
    36: the events are written as text)."""
    from tichu.agents.driver import play_game
    from tichu.agents.registry import make_agent
    from tichu.core.round import Action, ActionKind
    from tichu.records.record import event_json, game_record, game_record_line, record_line

    kinds: set[ActionKind] = set()
    for seed in range(12):
        agents = [make_agent("random", name=f'R"{seat}\\ü\n', seed=seed * 4 + seat) for seat in range(4)]
        state = play_game(agents, RuleSet(target_score=300), seed=seed, keep_rounds=True)
        players = [(agent.name, agent.kind) for agent in agents]
        record = game_record(state.rounds, state.rules, players, record_id=f"g{seed}", seed=seed, started_at="t")
        line = game_record_line(state.rounds, state.rules, players, record_id=f"g{seed}", seed=seed, started_at="t")
        assert line == record_line(record) and json.loads(line) == record
        kinds |= {action.kind for round_ in state.rounds for action in round_.events}
    assert kinds == {ActionKind.TICHU, ActionKind.PLAY, ActionKind.PASS, ActionKind.BOMB, ActionKind.WISH,
                     ActionKind.DRAGON}
    plays = [Action(ActionKind.PLAY, seat, (1 << index) | (1 << (55 - index))) for seat in range(4)
             for index in range(56)]
    rare = [Action(ActionKind.TICHU, 2), Action(ActionKind.BOMB, 1, 0b1111 << 8), Action(ActionKind.WISH, 0, 14),
            Action(ActionKind.WISH, 3, 0), Action(ActionKind.DRAGON, 1, 2)]
    events = [*plays, *(Action(ActionKind.PASS, seat) for seat in range(4)), *rare]
    assert event_text.events_text(events) == ",".join(record_line(event_json(action)) for action in events)
    with pytest.raises(ValueError, match="no record event"):
        event_text.events_text([Action(ActionKind.DECLINE, 0)])
