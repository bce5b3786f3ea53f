"""Brettspielwelt logs (``shared/data/bsw/*.tch``) as game records: parser, import, replay, rule flags."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tichu.core.cards import parse_mask
from tichu.core.round import Action, ActionKind, Decision, Round
from tichu.core.ruleset import RuleSet
from tichu.records.bsw import (
    STARTED_AT,
    BswError,
    decode,
    flags_needed,
    import_file,
    import_game,
    import_round,
    parse_cards,
    parse_log,
)
from tichu.records.record import replay

ROOT = Path(__file__).resolve().parents[2]
#: The environment of ``tichu-bsw-import`` run as a module from elsewhere: this checkout's sources.
SOURCES = {**os.environ, "PYTHONPATH": str(ROOT / "src")}

#: The flags each log needs; every log of ``shared/data/bsw`` is named here.
EXPECTED_FLAGS: dict[str, list[str]] = {
    "2417500.tch": ["wish_optional"], "2417501.tch": [], "game_1.tch": [],
    "game_100021.tch": ["wish_optional"], "game_10022.tch": ["wish_optional"],
    "game_100750.tch": ["wish_optional"], "game_10078.tch": [], "game_100920.tch": ["wish_optional"],
    "game_100952.tch": ["wish_optional"],
}

# A double victory of seats 0 and 2: Anna (Tichu) goes out with a 14-card straight and
# wishes a 7, Cleo must (R5.3) and does bomb it at her turn with the red straight flush,
# Cleo's "pass" is BSW's way of taking the trick, and her Dog is her last card.
# Ben's Grand Tichu fails: 200 + 100 for team 20, -200 for team 31.
ROUND = """\
---------------Gr.Tichukarten------------------
(0)Anna SA GK BD SB G10 B9 S8 G7
(1)Ben Dr BA SK SD GB S10 S9 G8
(2)Cleo RA RK RD RB R10 R9 R8 R7
(3)Dana Ph GA BK GD BB B10 G9 B8
---------------Startkarten------------------
(0)Anna SA GK BD SB G10 B9 S8 G7 B6 S5 R2 G2 B2 Ma
(1)Ben Dr BA SK SD GB S10 S9 G8 B7 S6 B5 R3 G3 S2
(2)Cleo RA RK RD RB R10 R9 R8 R7 R6 R5 B4 S4 B3 Hu
(3)Dana Ph GA BK GD BB B10 G9 B8 S7 G6 G5 R4 G4 S3
Grosses Tichu: (1)Ben
Schupfen:
(0)Anna gibt: Ben: B2 - Cleo: R2 - Dana: G2 -
(1)Ben gibt: Cleo: R3 - Dana: G3 - Anna: S2 -
(2)Cleo gibt: Dana: B4 - Anna: B3 - Ben: S4 -
(3)Dana gibt: Anna: G4 - Ben: S3 - Cleo: R4 -
BOMBE: (2)Cleo
---------------Rundenverlauf------------------
Tichu: (0)Anna
(0)Anna: SA GK BD SB G10 B9 S8 G7 B6 S5 G4 B3 S2 Ma
Wunsch:7
(1)Ben passt.
(2)Cleo: RA RK RD RB R10 R9 R8 R7 R6 R5 R4 R3 R2
(3)Dana passt.
(1)Ben passt.
(2)Cleo passt.
(2)Cleo: Hu
Ergebnis: 300 - -200
"""
STRAIGHT = "SA GK BD SB GZ B9 S8 G7 B6 S5 G4 B3 S2 Ma"
FLUSH = "RA RK RD RB RZ R9 R8 R7 R6 R5 R4 R3 R2"


def _edit(old: str, new: str, text: str = ROUND) -> str:
    assert old in text
    return text.replace(old, new)


def _events(text: str, rules: RuleSet | None = None) -> list[Action]:
    return import_round(parse_log(text)[0], rules or RuleSet()).events


# -- the parser on inline snippets -------------------------------------------------------


def test_cards_are_our_labels_with_10_for_z() -> None:
    assert parse_cards("R10 Ph Ma GB SD BK RA Hu Dr S2") == parse_mask("RZ Ph Ma GB SD BK RA Hu Dr S2")
    for bad in ("RZ", "X5", "R1", "R11", "Ph Ph"):
        with pytest.raises(ValueError):
            parse_cards(bad)


def test_decode_reads_utf8_and_windows_1252() -> None:
    assert decode("(2)Hägar passt.".encode()) == "(2)Hägar passt."
    assert decode("(2)Hägar passt.".encode("cp1252")) == "(2)Hägar passt."


def test_round_sections_are_parsed() -> None:
    data = parse_log(ROUND)[0]
    assert data.names == ["Anna", "Ben", "Cleo", "Dana"]
    assert data.first[3] == parse_mask("Ph GA BK GD BB BZ G9 B8")
    assert data.start[0].bit_count() == 14 and data.first[0] & ~data.start[0] == 0
    assert data.grand == [False, True, False, False]
    assert data.push[1] == (parse_mask("R3"), parse_mask("G3"), parse_mask("S2"))
    assert data.bomb_holders == (2,)
    assert [(move.kind, move.seat, move.value) for move in data.moves[:3]] == [
        ("tichu", 0, 0), ("play", 0, parse_mask(STRAIGHT)), ("wish", 0, 7)]
    assert data.result == (300, -200) and data.result_line == 28


def test_push_is_ordered_by_the_recipients_names() -> None:
    shuffled = _edit("(1)Ben gibt: Cleo: R3 - Dana: G3 - Anna: S2 -", "(1)Ben gibt: Anna: S2 - Cleo: R3 - Dana: G3 -")
    assert parse_log(shuffled)[0].push == parse_log(ROUND)[0].push


def test_a_name_left_out_is_learnt_from_the_push() -> None:
    text = _edit("(1)Ben Dr BA SK SD GB S10 S9 G8\n", "(1) Dr BA SK SD GB S10 S9 G8\n")
    text = _edit("(1)Ben Dr BA SK SD GB S10 S9 G8 B7", "(1) Dr BA SK SD GB S10 S9 G8 B7", text)
    data = parse_log(text)[0]
    assert data.names[1] == "Ben" and data.push == parse_log(ROUND)[0].push


@pytest.mark.parametrize(("old", "new", "line", "message"), [
    ("(1)Ben passt.\n(2)Cleo:", "(1)Bert passt.\n(2)Cleo:", 22, "seat 1 is 'Ben'"),
    ("Wunsch:7", "Wunsch:1", 21, "unknown wish"),
    ("(3)Dana passt.", "(3)Dana schupft.", 24, "unknown line"),
    ("(3)Dana passt.", "(3)Dana: R1", 24, "unknown card"),
    ("Ergebnis: 300 - -200\n", "", 27, "has no Ergebnis"),
    ("Dana: G3 - Anna: S2 -", "Dana: G3 - Ben: S2 -", 18, "cannot receive"),
])
def test_unreadable_lines_name_their_line(old: str, new: str, line: int, message: str) -> None:
    with pytest.raises(BswError) as raised:
        parse_log(_edit(old, new))
    assert raised.value.rule == "format" and raised.value.line == line and message in raised.value.reason


# -- the import: the round run alongside -------------------------------------------------


def test_owner_pass_is_dropped_and_a_bomb_at_turn_is_a_play() -> None:
    assert _events(ROUND) == [
        Action(ActionKind.TICHU, 0), Action(ActionKind.PLAY, 0, parse_mask(STRAIGHT)),
        Action(ActionKind.WISH, 0, 7), Action(ActionKind.PASS, 1), Action(ActionKind.PLAY, 2, parse_mask(FLUSH)),
        Action(ActionKind.PASS, 3), Action(ActionKind.PASS, 1), Action(ActionKind.PLAY, 2, parse_mask("Hu"))]


def test_a_bomb_out_of_turn_is_a_bomb() -> None:
    text = _edit("(1)Ben passt.\n(2)Cleo: RA", "(2)Cleo: RA")
    events = _events(text)
    assert events[3] == Action(ActionKind.BOMB, 2, parse_mask(FLUSH))
    assert events[4:] == [Action(ActionKind.PASS, 3), Action(ActionKind.PASS, 1),
                          Action(ActionKind.PLAY, 2, parse_mask("Hu"))]


def test_no_bomb_lands_once_the_owner_took_the_trick() -> None:
    """Ben's pass takes his trick (R4.2), so Cleo's bomb after it would lead out of turn (R4.3)."""
    play = ROUND[:ROUND.index("Tichu: (0)Anna")] + """\
(0)Anna: Ma
Wunsch:7
(1)Ben: B7
(2)Cleo passt.
(3)Dana passt.
(0)Anna passt.
(1)Ben passt.
(2)Cleo: R6 R5 R4 R3 R2
Ergebnis: 0 - 0
"""
    with pytest.raises(BswError) as raised:
        _events(play)
    assert raised.value.rule == "R4.3" and raised.value.line == 26


def test_ergebnis_is_checked_against_our_scoring() -> None:
    with pytest.raises(BswError) as raised:
        _events(_edit("Ergebnis: 300 - -200", "Ergebnis: 100 - 0"))
    assert raised.value.rule == "R7" and raised.value.line == 28 and "(300, -200)" in raised.value.reason


def test_bombe_names_the_bomb_holders_after_the_push() -> None:
    with pytest.raises(BswError) as raised:
        _events(_edit("BOMBE: (2)Cleo", "BOMBE: (1)Ben"))
    assert raised.value.line == 1 and "held by (2,)" in raised.value.reason


def test_a_missing_wish_is_wish_0_and_needs_wish_optional() -> None:
    text = _edit("Wunsch:7\n", "")
    assert _events(text, RuleSet(wish_optional=True))[2] == Action(ActionKind.WISH, 0, 0)
    with pytest.raises(BswError) as raised:
        _events(text)
    assert raised.value.rule == "R5.1" and raised.value.line == 20


def test_a_game_becomes_a_record_that_replays() -> None:
    record = import_game(ROUND * 4, "bsw-test")
    assert replay(record) is None
    assert record["id"] == "bsw-test" and record["started_at"] == STARTED_AT and record["seed"] is None
    assert record["players"] == [{"name": name, "kind": "human"} for name in ("Anna", "Ben", "Cleo", "Dana")]
    assert record["score"] == [1200, -800] and record["winner"] == 20
    assert flags_needed(record["rules"]) == []
    assert flags_needed(import_game(_edit("Wunsch:7\n", "") * 4, "bsw-test")["rules"]) == ["wish_optional"]


def test_errors_of_a_game_name_round_and_line() -> None:
    with pytest.raises(BswError) as raised:
        import_game(ROUND + _edit("Ergebnis: 300 - -200", "Ergebnis: 0 - 0"), "bsw-test")
    assert raised.value.round_index == 1 and raised.value.line == 28 + 28
    assert str(raised.value).startswith("round 1, line 56: R7:")


# -- the logs of shared/data/bsw ---------------------------------------------------------


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    from tests.conftest import _find_shared

    if "bsw_log" in metafunc.fixturenames:
        shared = _find_shared()
        logs = sorted((shared / "data" / "bsw").glob("*.tch")) if shared else []
        metafunc.parametrize("bsw_log", logs or [None], ids=[path.name for path in logs] or ["missing"])


def _record(bsw_log: Path | None) -> dict[str, Any]:
    """The log's record (imported once per run; tests do not change it)."""
    assert bsw_log is not None
    return _import_log(bsw_log)


@functools.cache
def _import_log(path: Path) -> dict[str, Any]:
    return dict(import_file(path))


def test_every_log_is_named(shared_dir: Path) -> None:
    assert sorted(path.name for path in (shared_dir / "data" / "bsw").glob("*.tch")) == sorted(EXPECTED_FLAGS)


def test_log_imports_and_replays(bsw_log: Path | None, shared_dir: Path) -> None:
    record = _record(bsw_log)
    assert replay(record) is None


def test_every_round_scores_the_ergebnis(bsw_log: Path | None, shared_dir: Path) -> None:
    record = _record(bsw_log)
    assert bsw_log is not None
    lines = re.findall(r"^Ergebnis: (-?\d+) - (-?\d+)", decode(bsw_log.read_bytes()), re.MULTILINE)
    assert [round_["score"] for round_ in record["rounds"]] == [[int(a), int(b)] for a, b in lines]  # none skipped


def test_log_names_the_flags_it_needs(bsw_log: Path | None, shared_dir: Path) -> None:
    record = _record(bsw_log)
    assert bsw_log is not None
    assert flags_needed(record["rules"]) == EXPECTED_FLAGS[bsw_log.name]


def test_wish_optional_is_needed(bsw_log: Path | None, shared_dir: Path) -> None:
    """Without the flag the first Mah Jong without a ``Wunsch`` line breaks R5.1 (the wish is mandatory)."""
    record = _record(bsw_log)
    no_wish = [(index, number) for index, round_ in enumerate(record["rounds"])
               for number, event in enumerate(round_["events"]) if event.get("wish") == 0]
    assert bsw_log is not None
    assert bool(no_wish) == ("wish_optional" in EXPECTED_FLAGS[bsw_log.name])
    violation = replay({**record, "rules": RuleSet().to_json()})
    if no_wish:
        assert violation is not None
        assert (violation.round_index, violation.event_index, violation.rule) == (*no_wish[0], "R5.1")
    else:
        assert violation is None


def test_under_the_flags_the_rules_are_otherwise_unchanged(bsw_log: Path | None, shared_dir: Path) -> None:
    """Along every round, the default rules allow the same as the log's rules, but the wish 0.

    A round is followed up to its first ``wish: 0`` (which only the flag allows); a round
    without one must end alike under the default rules.
    """
    record = _record(bsw_log)
    flagged = RuleSet.from_json(record["rules"])
    compared = 0
    for round_data in record["rounds"]:
        pair = [_pushed(round_data, flagged), _pushed(round_data, RuleSet())]
        for event in round_data["events"]:
            lifted = set()
            if flagged.wish_optional and pair[0].decision == Decision.WISH:
                lifted = {Action(ActionKind.WISH, event["seat"], 0)}
            assert _options(pair[0]) == _options(pair[1]) | lifted
            compared += 1
            if event.get("wish") == 0:
                break
            for round_ in pair:
                round_.apply(_action(event))
        else:
            assert pair[1].is_over and pair[1].result() == pair[0].result()
    assert compared


def _pushed(data: dict[str, Any], rules: RuleSet) -> Round:
    round_ = Round(rules, deal=[(parse_mask(first), parse_mask(rest))
                                for first, rest in zip(data["deal"], data["deal_rest"])])
    for seat in range(4):
        round_.decide_grand_tichu(seat, data["grand_tichu"][seat])
    for seat in range(4):
        round_.schupf(seat, [parse_mask(card) for card in data["push"][seat]])
    return round_


def _options(round_: Round) -> set[Any]:
    """Everything any seat may do now: the decision's actions, calls and bombs."""
    options: set[Any] = set(round_.legal_actions()) | {round_.decision}
    for seat in range(4):
        options |= {("tichu", seat)} if round_.can_announce(seat) else set()
        options |= {("bomb", seat, play[0]) for play in round_.bombs_for(seat)}
    return options


def _action(event: dict[str, Any]) -> Action:
    seat = event["seat"]
    if "play" in event:
        return Action(ActionKind.PLAY, seat, parse_mask(event["play"]))
    if "bomb" in event:
        return Action(ActionKind.BOMB, seat, parse_mask(event["bomb"]))
    if "wish" in event:
        return Action(ActionKind.WISH, seat, event["wish"])
    if "dragon_to" in event:
        return Action(ActionKind.DRAGON, seat, event["dragon_to"])
    return Action(ActionKind.TICHU if "tichu" in event else ActionKind.PASS, seat)


def test_cli_imports_replays_and_writes(shared_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "bsw.jsonl"
    done = subprocess.run([sys.executable, "-m", "tichu.cli.bsw_import", str(shared_dir / "data" / "bsw"),
                           "--out", str(out)], capture_output=True, text=True, check=False, cwd=tmp_path, env=SOURCES)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert sum(line.endswith("replays") for line in lines) == len(EXPECTED_FLAGS)
    assert any("10 rounds, flags: wish_optional, replays" in line for line in lines)
    assert len(out.read_text(encoding="utf-8").splitlines()) == len(EXPECTED_FLAGS)


def test_cli_fails_on_a_bad_log(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tch"
    bad.write_text(_edit("Ergebnis: 300 - -200", "Ergebnis: 0 - 0"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "tichu.cli.bsw_import", str(bad)],
                          capture_output=True, text=True, check=False, cwd=tmp_path, env=SOURCES)
    assert done.returncode == 1
    assert "import failed: round 0, line 28: R7: Ergebnis (0, 0) but the rules give (300, -200)" in done.stdout
