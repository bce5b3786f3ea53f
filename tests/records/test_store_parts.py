"""Issue 36: the game store as one object per part over one database, each part built and
tested alone over a :class:`Database` in a temporary folder (docs/architecture.md, ``store``)."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from tichu.records.parts import AnalysisDocument
from tichu.records.store import MIGRATIONS, Analyses, Archive, Database, GameStore, Running, Statistics
from tichu.records.store.statistics import fill_players

Record = dict[str, Any]


def crafted(game_id: str, started_at: str, winner: int = 20) -> Record:
    """A finished game's record with four seats and one round (what the statistics read)."""
    players = [{"name": name, "kind": "human"} for name in ("Ann", "Ben", "Cy", "Di")]
    round_ = {"grand_tichu": [False] * 4, "events": [{"seat": 2, "play": "S2 S3 S4 S5 S6"}], "out_order": [2, 0],
              "double_victory": True, "card_points": [200, 0], "bonus": [0, 0], "score": [200, 0]}
    return {"format": "tichu-record/1", "id": game_id, "started_at": started_at, "seed": None,
            "rules": {"target_score": 200}, "table": "home", "players": players, "rounds": [round_],
            "score": [200, 0], "winner": winner}


@pytest.fixture
def database(tmp_path: Path) -> Database:
    """A new database (schema at the newest version) for one part alone."""
    return Database(tmp_path / "parts.sqlite3")


def test_the_archive_alone_stores_records_and_tells_the_statistics(database: Database) -> None:
    """The archive keeps records by id (a repeat adds nothing) and its statistics part sees
    every record stored: the players' rows, and the ratings moved by a finished game."""
    statistics = Statistics(database)
    archive = Archive(database, statistics)
    assert archive.add(crafted("a", "2026-11-24T10:00:00Z")) and not archive.add(crafted("a", "2026-11-24T10:00:00Z"))
    assert len(archive) == 1 and archive.has_game("a") and archive.get("b") is None
    ann = statistics.player_stats("Ann")
    assert ann is not None and ann["games"] == 1 and ann["wins"] == 1
    assert [line["name"] for line in statistics.leaderboard(10)][:2] == ["Ann", "Cy"]


def test_a_running_game_ends_as_its_record_in_the_archive(database: Database) -> None:
    """The running part hands a game's record to the archive and forgets its journal and seats."""
    archive = Archive(database, Statistics(database))
    running = Running(database, archive)
    running.begin_game("g", "home", "2026-11-24T10:00:00Z", None, {"target_score": 1000})
    running.append_entries("g", 0, [{"deal": []}])
    running.seat_person("g", 0, "Ann", "ab" * 32)
    assert running.count() == 1 and running.games()[0].seats == {0: ("Ann", "ab" * 32)}
    running.end_game("g", crafted("g", "2026-11-24T10:00:00Z"))
    assert running.count() == 0 and running.games() == [] and archive.has_game("g")


def test_an_end_whose_record_is_refused_keeps_the_running_game(database: Database) -> None:
    """End and record are one transaction: a record the archive refuses (no id) leaves the game
    stored as running, its journal whole (docs/records.md: a fault loses no game)."""
    archive = Archive(database, Statistics(database))
    running = Running(database, archive)
    running.begin_game("g", "home", "2026-11-24T10:00:00Z", None, {})
    running.append_entries("g", 0, [{"deal": []}, {"seat": 0, "grand_tichu": False}])
    with pytest.raises(ValueError, match="needs an id"):
        running.end_game("g", {"started_at": "2026-11-24T10:00:00Z"})
    [game] = running.games()
    assert game.id == "g" and len(game.entries) == 2 and game.complete and len(archive) == 0


def test_the_analyses_alone_queue_run_and_finish(database: Database) -> None:
    """The analyses' part needs only the database: a queued game is pending until it is done."""
    analyses = Analyses(database)
    analyses.queue_analysis("g", "2026-11-24T10:00:00Z")
    analyses.start_analysis("g", 3, "2026-11-24T10:01:00Z")
    assert analyses.pending_analyses() == ["g"]
    document: AnalysisDocument = {
        "format": "tichu-analysis/1", "game_id": "g",
        "method": {"agent": "montecarlo", "samples": 8, "z": 2.0, "seed": 0, "thresholds": {}},
        "players": [], "judgements": []}
    analyses.finish_analysis("g", document, "2026-11-24T10:02:00Z")
    row = analyses.analysis("g")
    assert analyses.pending_analyses() == [] and row is not None and row.status == "done" and row.decisions == 3


def test_the_parts_share_one_transaction_in_a_batch(tmp_path: Path) -> None:
    """A batch of the store holds the writes of every part: a failure undoes all of them."""
    with GameStore(tmp_path / "t.sqlite3") as store:
        with pytest.raises(RuntimeError), store.database.batch():
            store.running.begin_game("g", "home", "2026-11-24T10:00:00Z", None, {})
            store.analyses.queue_analysis("g", "2026-11-24T10:00:00Z")
            store.archive.add(crafted("a", "2026-11-24T10:00:00Z"))
            raise RuntimeError("the disk")
        assert store.running.count() == 0 and store.analyses.pending_analyses() == [] and len(store.archive) == 0


def test_the_store_wires_the_players_backfill_into_the_migration(tmp_path: Path) -> None:
    """An old file (v2: records, no players' rows) opened by the store gets its players' rows and
    ratings filled inside the migration to v4 (:func:`fill_players`); a bare :class:`Database`
    without the hook would leave them empty."""
    path = tmp_path / "old.sqlite3"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(f"{MIGRATIONS[0]}{MIGRATIONS[1]} PRAGMA user_version = 2;")
        db.execute("INSERT INTO games (id, started_at, table_name, winner, aborted, record) VALUES (?, ?, ?, ?, ?, ?)",
                   ("a", "2026-11-24T10:00:00Z", "home", 20, 0, json.dumps(crafted("a", "2026-11-24T10:00:00Z"))))
        db.commit()
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes(path.read_bytes())
    with GameStore(path) as store:
        assert store.database.version == len(MIGRATIONS)
        assert [line["name"] for line in store.statistics.leaderboard(10)][:2] == ["Ann", "Cy"]
    with Database(copy) as bare:
        assert Statistics(bare).leaderboard(10) == []
    with Database(copy, after_migration=fill_players) as again:  # already at the newest version: nothing runs
        assert Statistics(again).leaderboard(10) == []

