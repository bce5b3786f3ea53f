"""The analysis document (``tichu-analysis/1``), :func:`tichu.analysis.analyse_record`, the
labels' rule, and ``tichu-analyse`` on a record file and on a Brettspielwelt log."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.analysis.games import heuristic_record
from tichu.analysis import FORMAT, KINDS, THRESHOLDS, analyse_record, label_of
from tichu.records.parts import AnalysisDocument
from tichu.records.record import write_records
from tichu.records.steps import record_steps

#: Few deals: these tests check the shape, not the numbers.
SAMPLES = 4
LABELS = (None, "inaccuracy", "mistake", "blunder")


def _check_document(document: AnalysisDocument, record: dict[str, Any]) -> None:
    """Every field of the contract, with its type and its consistency."""
    steps, _ = record_steps(record)
    assert document["format"] == FORMAT and document["game_id"] == record["id"]
    method = document["method"]
    assert method["agent"] == "montecarlo" and method["samples"] == SAMPLES and method["z"] == 1.96
    assert method["thresholds"] == dict(THRESHOLDS)
    judgements = document["judgements"]
    for judgement in judgements:
        assert judgement["kind"] in KINDS and isinstance(judgement["exact"], bool)
        assert judgement["samples"] == (0 if judgement["exact"] else SAMPLES)  # issue 34: exact endgames
        assert isinstance(judgement["line"], list) and (judgement["exact"] or not judgement["line"])
        if judgement["exact"]:
            assert judgement["loss_half_width"] == 0 and all(option["half_width"] == 0
                                                             for option in judgement["options"])
        assert steps[judgement["step"]]["round"] == judgement["round"]
        options = judgement["options"]
        assert len(options) >= 2 and judgement["best"] == 0 and 0 <= judgement["chosen"] < len(options)
        means = [option["mean"] for option in options]
        assert means == sorted(means, reverse=True)
        assert all(isinstance(option["text"], str) and option["text"] and isinstance(option["cards"], list)
                   and option["half_width"] >= 0 for option in options)
        assert judgement["loss"] >= 0 and judgement["loss_half_width"] >= 0
        assert judgement["label"] in LABELS
        assert judgement["label"] == label_of(judgement["loss"], judgement["loss_half_width"])
        if judgement["chosen"] == 0:
            assert judgement["loss"] == 0
    for player in document["players"]:
        mine = [judgement for judgement in judgements if judgement["seat"] == player["seat"]]
        assert player["decisions"] == len(mine) > 0
        assert player["given_away"] == pytest.approx(sum(judgement["loss"] for judgement in mine), abs=0.1 * len(mine))
        assert player["mean_loss"] == pytest.approx(player["given_away"] / len(mine), abs=0.1)
        assert (player["inaccuracies"], player["mistakes"], player["blunders"]) == tuple(
            sum(judgement["label"] == label for judgement in mine) for label in ("inaccuracy", "mistake", "blunder"))
    json.dumps(document, allow_nan=False)


def test_the_document_of_a_record_follows_the_contract() -> None:
    """Seat 0's decisions of an Arena record: every field as the contract says; the progress is
    told after each decision; the same seed gives the same document."""
    record = heuristic_record()
    told: list[tuple[int, int]] = []
    document = analyse_record(record, seats=[0], samples=SAMPLES, seed=1,
                              progress=lambda done, total: told.append((done, total)))
    _check_document(document, record)
    assert [player["seat"] for player in document["players"]] == [0]
    assert told == [(done, len(document["judgements"])) for done in range(1, len(document["judgements"]) + 1)]
    assert analyse_record(record, seats=[0], samples=SAMPLES, seed=1) == document


def test_advantage_is_the_score_before_plus_the_chosen_mean_for_team_20() -> None:
    """``advantage``: team 20 minus team 31 after the choice (a team 31 seat's mean counts against)."""
    record = heuristic_record()
    document = analyse_record(record, seats=[1], samples=SAMPLES)
    steps, _ = record_steps(record)
    for judgement in document["judgements"]:
        before = steps[judgement["step"]]["score"]
        chosen = judgement["options"][judgement["chosen"]]["mean"]
        assert judgement["advantage"] == pytest.approx(before[0] - before[1] - chosen, abs=0.11)


@given(st.floats(0, 500), st.floats(0, 200), st.floats(0, 300))
def test_labels_grow_with_the_loss_and_never_within_the_noise(loss: float, width: float, more: float) -> None:
    """A label only once ``loss - half_width`` reaches a threshold; more loss never a milder
    label, more noise never a harsher one."""
    order = {label: rank for rank, label in enumerate(LABELS)}
    label = label_of(loss, width)
    assert label is None or loss - width >= THRESHOLDS[label]
    assert order[label_of(loss + more, width)] >= order[label]
    assert order[label_of(loss, width + more)] <= order[label]


@given(st.floats(0, 100))
def test_a_higher_threshold_labels_no_more(raise_by: float) -> None:
    """Raising every threshold never makes a label harsher."""
    order = {label: rank for rank, label in enumerate(LABELS)}
    higher = {name: least + raise_by for name, least in THRESHOLDS.items()}
    for loss in range(0, 200, 7):
        assert order[label_of(loss, 5.0, higher)] <= order[label_of(loss, 5.0)]


def test_bin_analyse_on_a_record_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The Arena's JSON Lines: the summary per player and the document written."""
    analyse = importlib.import_module("tichu.cli.analyse")
    records = tmp_path / "games.jsonl"
    write_records(records, [heuristic_record(), heuristic_record(seed=6)])
    out = tmp_path / "analysis.json"
    assert analyse.main([str(records), "--index", "1", "--seats", "0,2", "--samples", str(SAMPLES),
                         "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "game test-6" in printed and "seat 0 H0" in printed and "seat 2 H2" in printed
    document = json.loads(out.read_text(encoding="utf-8"))
    _check_document(document, heuristic_record(seed=6))
    server_export = tmp_path / "export.json"
    server_export.write_text(json.dumps([heuristic_record()]), encoding="utf-8")
    assert analyse.main([str(server_export), "--seats", "3", "--samples", "2"]) == 0
    assert "seat 3 H3" in capsys.readouterr().out


def test_bin_analyse_on_a_brettspielwelt_log(shared_dir: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A ``.tch`` log of ../shared: imported, every seat a person's, judged (here seat 1 only)."""
    analyse = importlib.import_module("tichu.cli.analyse")
    out = tmp_path / "bsw.json"
    assert analyse.main([str(shared_dir / "data" / "bsw" / "game_1.tch"), "--seats", "1", "--samples", "2",
                         "--json", str(out)]) == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["game_id"] == "bsw-game_1" and [player["seat"] for player in document["players"]] == [1]
    assert "seat 1" in capsys.readouterr().out


def test_bin_analyse_refuses_a_file_without_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A JSON file that holds no record: a message and exit status 1."""
    analyse = importlib.import_module("tichu.cli.analyse")
    path = tmp_path / "nothing.json"
    path.write_text("42", encoding="utf-8")
    assert analyse.main([str(path)]) == 1
    assert "neither a record" in capsys.readouterr().err


def test_a_seat_two_people_held_has_an_entry_per_person() -> None:
    """A person at seat 1 who left after round 0 and another who took the seat: the document
    has one player entry each, named as the replay names them (``seat_changes``)."""
    record = heuristic_record()
    record["players"][1].update(name="Ann", kind="human")
    record["seat_changes"] = [{"seat": 1, "round": 1, "event": 0, "name": "Bob", "kind": "human",
                               "reason": "joined"}]
    document = analyse_record(record, samples=2)
    entries = {(player["seat"], player["name"]): player["decisions"] for player in document["players"]}
    steps, _ = record_steps(record)
    rounds = {name: {j["round"] for j in document["judgements"] if steps[j["step"]]["names"][1] == name}
              for name in ("Ann", "Bob")}
    assert set(entries) == {(1, "Ann"), (1, "Bob")}
    assert rounds["Ann"] == {0} and rounds["Bob"] == set(range(1, len(record["rounds"])))
    assert sum(entries.values()) == len(document["judgements"])
