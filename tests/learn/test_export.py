"""Training data from records: every decision of the Brettspielwelt logs and of Arena games
becomes one row whose action its mask allows, with the round's outcome, the offers of calls
and bombs the game's flow made included (a decline where the record shows none); faulty
records are refused; the command line writes the arrays."""

from __future__ import annotations

import copy
import importlib
from pathlib import Path
from typing import Any

import pytest

from tests.support.extras import require

np = require("numpy", "learn")

from tichu.agents.learning import actions  # noqa: E402
from tichu.agents.learning.observation import Question  # noqa: E402
from tichu.arena.arena import Arena  # noqa: E402
from tichu.learn.export import RecordFault, TrainingData, training_batches, training_data  # noqa: E402
from tichu.records.bsw import import_file  # noqa: E402


@pytest.fixture(scope="module")
def bsw_records(shared_dir: Path) -> list[dict[str, Any]]:
    logs = sorted((shared_dir / "data" / "bsw").glob("*.tch"))
    assert logs
    return [dict(import_file(path)) for path in logs]


def _questions(data: TrainingData) -> Any:
    return data.observation[:, 269:277].argmax(axis=1)


def _check(data: TrainingData, records: list[dict[str, Any]]) -> None:
    """The invariants of any export: one row per decision the records show, each action
    allowed by its mask, outcomes from the rounds' scores."""
    rounds = [round_ for record in records for round_ in record["rounds"]]
    events = [event for round_ in rounds for event in round_["events"]]
    questions = _questions(data)
    assert (questions == Question.GRAND_TICHU).sum() == 4 * len(rounds)  # R2.1: every seat, every round
    assert (questions == Question.PUSH).sum() == 12 * len(rounds)  # R2.3: three cards each
    assert (questions == Question.PLAY).sum() == sum("play" in event or "pass" in event for event in events)
    bomb = questions == Question.BOMB
    assert (data.action[bomb] != actions.NO).sum() == sum("bomb" in event for event in events)
    # R4.3: a bomb is offered only where the seat holds one that may land
    assert all(data.mask[row, actions.PLAY_BASE:].any() for row in np.flatnonzero(bomb))
    assert (questions == Question.WISH).sum() == sum("wish" in event for event in events)
    assert (questions == Question.DRAGON).sum() == sum("dragon_to" in event for event in events)
    tichu = questions == Question.TICHU
    assert (data.action[tichu] == actions.CALL).sum() == sum("tichu" in event for event in events)
    # R6.1: every offer of a call (the calls and the declines) comes before the seat's first card
    assert set(data.observation[tichu, :56].sum(axis=1)) == {14.0}
    assert (data.action[tichu] == actions.NO).sum() > (data.action[tichu] == actions.CALL).sum()
    grand = questions == Question.GRAND_TICHU
    assert (data.action[grand] == actions.CALL).sum() == sum(sum(round_["grand_tichu"]) for round_ in rounds)
    assert all(data.mask[row, data.action[row]] == 1 for row in range(len(data)))
    assert data.observation.shape == (len(data), 620) and data.mask.shape == (len(data), actions.SIZE)
    # Grand Tichu is decided on 8 cards, the push on 14 (R2.1, R2.3)
    assert set(data.observation[grand, :56].sum(axis=1)) == {8.0}
    assert set(data.observation[questions == Question.PUSH, :56].sum(axis=1)) == {14.0}
    first = 0
    for game, record in enumerate(records):
        scores = [round_["score"] for round_ in record["rounds"]]
        rows = np.flatnonzero(data.game == game)
        assert rows[0] == first
        first = rows[-1] + 1
        row = rows[0]  # seat 0's Grand Tichu decision in the first round
        assert data.seat[row] == 0 and data.outcome[row] == scores[0][0] - scores[0][1]


def test_the_brettspielwelt_logs_become_training_data(bsw_records: list[dict[str, Any]]) -> None:
    data = training_data(bsw_records)
    assert len(data) > 5000
    _check(data, bsw_records)
    assert (_questions(data) == Question.BOMB).sum() > 0 and (_questions(data) == Question.TICHU).sum() > 0


def test_arena_records_become_training_data() -> None:
    records: list[dict[str, Any]] = []
    Arena(["heuristic", "rule", "heuristic", "rule"], games=3, seed=12, workers=1, target_score=400,
          records=True).run(on_record=records.append)
    _check(training_data(records), records)


def test_a_record_that_does_not_replay_is_refused(bsw_records: list[dict[str, Any]]) -> None:
    broken = copy.deepcopy(bsw_records[0])
    broken["rounds"][0]["events"][3] = {"seat": 0, "play": "Dr"}
    with pytest.raises(RecordFault, match=str(broken["id"])):
        training_data([broken])
    assert len(training_data([])) == 0


def test_the_command_line_writes_the_arrays(bsw_records: list[dict[str, Any]], shared_dir: Path,
                                            tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = importlib.import_module("tichu.cli.training_data")
    out = tmp_path / "train.npz"
    assert script.main([str(shared_dir / "data" / "bsw"), "--out", str(out)]) == 0
    assert "decisions of 9 games" in capsys.readouterr().out
    with np.load(out) as arrays:
        assert set(arrays.files) == {"observation", "mask", "action", "outcome", "game", "seat"}
        assert len(arrays["action"]) == len(training_data(bsw_records))
    shards = tmp_path / "shards.npz"
    rows = len(training_data(bsw_records))
    per_file = rows // 3 + 1  # three files: two full ones and the rest
    assert script.main([str(shared_dir / "data" / "bsw"), "--out", str(shards), "--rows-per-file", str(per_file)]) == 0
    names = ["shards.npz", "shards-1.npz", "shards-2.npz"]
    assert sorted(path.name for path in tmp_path.glob("shards*.npz")) == sorted(names)
    assert "decisions of 9 games" in capsys.readouterr().out
    parts = [np.load(tmp_path / name) for name in names]
    assert [len(part["action"]) for part in parts] == [per_file, per_file, rows - 2 * per_file]
    assert np.array_equal(np.concatenate([part["action"] for part in parts]), training_data(bsw_records).action)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "tichu-record/1", "id": "x", "rounds": []}\n', encoding="utf-8")
    assert script.main([str(bad), "--out", str(tmp_path / "no.npz")]) == 1
    assert "tichu-training-data:" in capsys.readouterr().err


def test_batches_hold_at_most_their_rows_and_add_up_to_the_whole(bsw_records: list[dict[str, Any]]) -> None:
    """The bound of the export's memory: ``training_batches`` yields ``rows`` rows at most."""
    whole = training_data(bsw_records)
    batches = list(training_batches(bsw_records, rows=1000))
    assert [len(batch) for batch in batches[:-1]] == [1000] * (len(batches) - 1) and 0 < len(batches[-1]) <= 1000
    assert np.array_equal(np.concatenate([batch.observation for batch in batches]), whole.observation)
    assert np.array_equal(np.concatenate([batch.game for batch in batches]), whole.game)
    with pytest.raises(ValueError):
        next(training_batches(bsw_records, rows=0))
