"""The game store: finished games in an embedded SQLite file (WAL, versioned schema), idempotent
import and export as JSON Lines (records.md), durable across a killed process."""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib
import json
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from tichu.arena.arena import Arena
from tichu.records.parts import AnalysisDocument, AnalysisJudgement
from tichu.records.record import read_records, replay, write_records
from tichu.records.store import CACHE_KIB, MIGRATIONS, GameStore

ROOT = Path(__file__).resolve().parents[2]
Record = dict[str, Any]


def game(number: int, **extra: Any) -> Record:
    """A small record: what the store reads of it is its id, start, table, winner and abort flag."""
    return {"format": "tichu-record/1", "id": f"g{number}", "started_at": f"2026-11-24T10:{number:02d}:00+00:00",
            "table": "home", "winner": 20, "rounds": [], **extra}


@pytest.fixture(scope="module")
def arena_games() -> list[Record]:
    """Whole records of real games (the Arena's, seed 5)."""
    records: list[Record] = []
    Arena(["random"] * 4, games=3, seed=5, workers=1, records=True, target_score=300).run(on_record=records.append)
    return records


def command(name: str) -> Any:
    """A command-line tool as a module (its ``main``): ``export_games`` is ``tichu-export``."""
    return importlib.import_module(f"tichu.cli.{name}")


def test_a_new_store_is_in_wal_mode_at_the_newest_schema(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "sub" / "tichu.sqlite3")
    try:
        assert store.database.version == len(MIGRATIONS) and len(store.archive) == 0
        with closing(sqlite3.connect(store.path)) as connection:
            assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        store.close()


def _sqlite_memory_used() -> int | None:
    """Bytes SQLite holds now in this process (``sqlite3_memory_used``), or ``None`` where the
    sqlite3 module does not use a shared SQLite library this test can ask."""
    name = ctypes.util.find_library("sqlite3")
    if name is None:
        return None
    try:
        used = ctypes.CDLL(name).sqlite3_memory_used
    except (OSError, AttributeError):
        return None
    used.restype = ctypes.c_int64
    return int(used())


def test_the_page_cache_is_bounded(tmp_path: Path, arena_games: list[Record]) -> None:
    """Reading every game of a file several times its cache's bound keeps SQLite's memory
    within that bound (CACHE_KIB; SQLite's default, 2,000 KiB, filled slowly over weeks)."""
    if _sqlite_memory_used() is None:
        pytest.skip("the sqlite3 module's SQLite library cannot be asked for its memory here")
    store = GameStore(tmp_path / "tichu.sqlite3")
    try:
        store.archive.add_all({**record, "id": f"{record['id']}-{copy}"}
                              for copy in range(60) for record in arena_games)
        assert store.path.stat().st_size + (tmp_path / "tichu.sqlite3-wal").stat().st_size > 4 * CACHE_KIB * 1024
        store.close()
        store = GameStore(store.path)
        before = _sqlite_memory_used()
        assert before is not None
        assert sum(1 for _ in store.archive.records()) == 180
        for offset in range(0, 180, 20):
            store.archive.list_games(20, offset)
        grown = (_sqlite_memory_used() or 0) - before
        assert grown < (CACHE_KIB + 256) * 1024, f"SQLite grew by {grown // 1024} KiB"
    finally:
        store.close()


def test_records_are_stored_once_and_read_back_in_order(tmp_path: Path, arena_games: list[Record]) -> None:
    """A record is stored whole; one with a stored id is not added again; the order of storing
    is kept; a reopened store has them all."""
    path = tmp_path / "tichu.sqlite3"
    store = GameStore(path)
    assert [store.archive.add(record) for record in arena_games] == [True, True, True]
    assert store.archive.add(arena_games[1]) is False
    assert len(store.archive) == 3 and list(store.archive.records()) == arena_games
    assert store.archive.get(arena_games[2]["id"]) == arena_games[2] and store.archive.get("nope") is None
    store.close()
    again = GameStore(path)
    assert list(again.archive.records()) == arena_games
    assert all(replay(record) is None for record in again.archive.records())
    again.close()


def test_a_summary_keeps_the_seat_changes_and_ending_it_can_read(tmp_path: Path) -> None:
    """The history's summary of a stored record has its seat changes, ``ended_by`` and score as
    the record has them, and leaves out what it cannot read (a stored record is not checked)."""
    change = {"seat": 1, "round": 0, "event": 4, "name": "agent", "kind": "random", "reason": "left"}
    ended = {"seat": 2, "name": "Ben"}
    with GameStore(tmp_path / "tichu.sqlite3") as store:
        store.archive.add_all([game(1, score=[120, 80], seat_changes=[change, {"seat": "one"}, 7], ended_by=ended),
                       game(2, score=["a", 3], seat_changes="none", ended_by={"seat": 2}, winner=True)])
        second, first = store.archive.list_games(10, 0)[0]
    assert (first["seat_changes"], first["ended_by"], first["score"], first["winner"]) == ([change], ended,
                                                                                         [120, 80], 20)
    assert (second["seat_changes"], second["ended_by"], second["score"], second["winner"]) == ([], None, None, None)


def test_a_batch_with_a_record_without_id_adds_nothing(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "tichu.sqlite3")
    with pytest.raises(ValueError, match="id and a start time"):
        store.archive.add_all([game(1), {"format": "tichu-record/1"}])
    assert len(store.archive) == 0
    assert store.archive.add_all([game(1), game(2), game(1)]) == 2
    store.close()


def test_export_then_import_round_trips_and_importing_twice_adds_nothing(tmp_path: Path,
                                                                         arena_games: list[Record]) -> None:
    first = GameStore(tmp_path / "a.sqlite3")
    first.archive.add_all([*arena_games, game(7, aborted=True, winner=None)])
    assert first.archive.export_jsonl(tmp_path / "all.jsonl") == 4
    first.close()
    assert list(read_records(tmp_path / "all.jsonl"))[:3] == arena_games
    second = GameStore(tmp_path / "b.sqlite3")
    assert second.archive.import_jsonl(tmp_path / "all.jsonl") == (4, 0)
    assert second.archive.import_jsonl(tmp_path / "all.jsonl") == (0, 4)
    assert list(second.archive.records())[:3] == arena_games and len(second.archive) == 4
    second.close()


def test_an_import_reports_a_torn_line_and_takes_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "torn.jsonl"
    write_records(path, [game(1), game(2)])
    with open(path, "a", encoding="utf-8") as file:
        file.write('{"format": "tichu-rec')
    store = GameStore(tmp_path / "tichu.sqlite3")
    skipped: list[int] = []
    assert store.archive.import_jsonl(path, lambda number, why: skipped.append(number)) == (2, 0)
    assert skipped == [3]
    store.close()


def test_an_old_schema_is_migrated_and_a_newer_one_refused(tmp_path: Path) -> None:
    """A file of schema 0 (empty) gets every migration; a file from a newer program is not touched."""
    old = tmp_path / "old.sqlite3"
    sqlite3.connect(old).close()  # an empty file: schema version 0
    store = GameStore(old)
    assert store.database.version == len(MIGRATIONS) and store.archive.add(game(1))
    store.close()
    newer = tmp_path / "newer.sqlite3"
    with closing(sqlite3.connect(newer)) as connection:
        connection.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(ValueError, match="newer"):
        GameStore(newer)


def test_the_export_and_import_commands(tmp_path: Path, arena_games: list[Record],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    write_records(tmp_path / "in.jsonl", arena_games)
    importer, exporter = command("import_games"), command("export_games")
    db = tmp_path / "tichu.sqlite3"
    assert importer.main(["--db", str(db), str(tmp_path / "in.jsonl")]) == 0
    assert importer.main(["--db", str(db), str(tmp_path / "in.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "3 games added, 0 already stored" in out and "0 games added, 3 already stored" in out
    assert exporter.main(["--db", str(db), "--out", str(tmp_path / "out.jsonl")]) == 0
    assert list(read_records(tmp_path / "out.jsonl")) == arena_games
    assert exporter.main(["--db", str(tmp_path / "missing.sqlite3"), "--out", str(tmp_path / "x.jsonl")]) == 1


def test_a_killed_writer_loses_no_committed_game(tmp_path: Path) -> None:
    """``kill -9`` while games are being stored: every game whose commit returned is there after
    a restart, and the file is intact (WAL)."""
    db = tmp_path / "tichu.sqlite3"
    script = (
        "import sys\n"
        "from tichu.records.store import GameStore\n"
        "store = GameStore(sys.argv[1])\n"
        "for number in range(100000):\n"
        "    store.archive.add({'id': f'g{number}', 'started_at': '2026-11-24', 'record': 'x' * 2000})\n"
        "    print(number, flush=True)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script, str(db)], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    committed = -1
    for line in child.stdout:
        committed = int(line)
        if committed >= 200:
            break
    child.send_signal(signal.SIGKILL)
    child.wait(10)
    child.stdout.close()
    store = GameStore(db)
    try:
        assert len(store.archive) >= committed + 1
        assert all(store.archive.get(f"g{number}") is not None for number in range(committed + 1))
        with closing(sqlite3.connect(db)) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        store.close()


def test_a_running_game_is_stored_as_its_journal_and_ended_by_its_record(tmp_path: Path) -> None:
    """A running game keeps its journal (in order, entries numbered from 0; a number stored
    already is refused, nothing is overwritten), its table's options and its people's seats by
    session hash; ending it stores the record and forgets the rest in one transaction."""
    with GameStore(tmp_path / "tichu.sqlite3") as store:
        store.running.begin_game("run1", "home", "2026-11-24T10:00:00Z", 7, {"target_score": 1000}, {"agent": "rule"})
        store.running.append_entries("run1", 0, [{"deal": [], "deal_rest": []}, {"seat": 0, "grand_tichu": False}])
        with pytest.raises(sqlite3.IntegrityError):
            store.running.append_entries("run1", 1, [{"seat": 0, "grand_tichu": True}])
        store.running.append_entries("run1", 2, [{"seat": 1, "grand_tichu": False}])
        store.running.seat_person("run1", 2, "Ann", "ab" * 32)
        store.running.seat_person("run1", 3, "Ben", "cd" * 32)
        store.running.unseat_person("run1", 3)
        [running] = store.running.games()
        assert (running.id, running.table_name, running.seed, running.rules, running.options) == (
            "run1", "home", 7, {"target_score": 1000}, {"agent": "rule"})
        assert running.complete and running.entries == [{"deal": [], "deal_rest": []},
                                                         {"seat": 0, "grand_tichu": False},
                                                         {"seat": 1, "grand_tichu": False}]
        assert running.seats == {2: ("Ann", "ab" * 32)}
        store.running.end_game("run1", game(1, id="run1", aborted=True, winner=None))
        assert store.running.games() == []
        assert store.archive.get("run1") == game(1, id="run1", aborted=True, winner=None)
        store.running.begin_game("run2", "home", "2026-11-24T11:00:00Z", None, {})
        store.running.end_game("run2", None)
        assert store.running.games() == [] and len(store.archive) == 1


def test_a_version_1_store_gains_the_running_games_and_keeps_its_records(tmp_path: Path) -> None:
    """A store written before running games were kept (schema 1) is migrated in place."""
    path = tmp_path / "old.sqlite3"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(MIGRATIONS[0] + "PRAGMA user_version = 1;")
        db.execute("INSERT INTO games (id, started_at, record) VALUES ('g1', 'then', '{\"id\": \"g1\"}')")
        db.commit()
    with GameStore(path) as store:
        assert store.database.version == len(MIGRATIONS) == 6
        assert store.archive.get("g1") == {"id": "g1"} and store.running.games() == []


def test_a_journal_with_a_gap_is_read_up_to_it_and_marked_incomplete(tmp_path: Path) -> None:
    """A lost write leaves a gap in the numbers: the entries after it are not read (they would
    replay out of order), and the game says so; games come newest first."""
    with GameStore(tmp_path / "tichu.sqlite3") as store:
        store.running.begin_game("old", "a", "2026-11-24T09:00:00Z", None, {})
        store.running.begin_game("new", "b", "2026-11-24T10:00:00Z", None, {})
        store.running.append_entries("old", 0, [{"n": 0}, {"n": 1}])
        store.running.append_entries("old", 3, [{"n": 3}])
        new, old = store.running.games()
        assert (new.id, new.complete, new.entries) == ("new", True, [])
        assert (old.id, old.complete, old.entries) == ("old", False, [{"n": 0}, {"n": 1}])


def test_the_whole_store_round_trips_byte_for_byte_and_a_second_import_adds_nothing(
        tmp_path: Path, arena_games: list[Record], capsys: pytest.CaptureFixture[str]) -> None:
    """A real SQLite store with finished, aborted and non-ASCII games and a running game:
    export → import into an empty store gives the same records (equal as JSON objects, in the
    same order), whose export is the same file byte for byte; importing again adds nothing;
    the running game is left out of the export and counted."""
    source = tmp_path / "source.sqlite3"
    with GameStore(source) as store:
        store.archive.add_all([*arena_games,
                               game(7, aborted=True, winner=None, table="Café ☕ <b>", unfinished_round={})])
        store.running.begin_game("running-1", "home", "2026-11-24T11:00:00Z", 3, {"target_score": 300})
        store.running.seat_person("running-1", 0, "Anna", "hash")
    importer, exporter = command("import_games"), command("export_games")
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    assert exporter.main(["--db", str(source), "--out", str(first)]) == 0
    out = capsys.readouterr().out
    assert "4 games written" in out and "1 running games left out" in out
    target = tmp_path / "target.sqlite3"
    assert importer.main(["--db", str(target), str(first)]) == 0
    assert importer.main(["--db", str(target), str(first)]) == 0
    assert "0 games added, 4 already stored" in capsys.readouterr().out
    assert exporter.main(["--db", str(target), "--out", str(second)]) == 0
    assert second.read_bytes() == first.read_bytes()
    with GameStore(source) as original, GameStore(target) as copy:
        assert list(copy.archive.records()) == list(original.archive.records()) and len(copy.archive) == 4
        assert copy.running.count() == 0 and original.running.count() == 1
        assert copy.archive.get("g7") == original.archive.get("g7")


def test_the_export_command_counts_the_running_games_it_leaves_out(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "tichu.sqlite3"
    with GameStore(db) as store:
        store.archive.add(game(1))
        store.running.begin_game("running-1", "home", "2026-11-24T11:00:00Z", 3, {"target_score": 300})
    assert command("export_games").main(["--db", str(db), "--out", str(tmp_path / "out.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "1 games written" in out and "1 running games left out" in out


def test_an_import_skips_and_reports_an_object_that_is_no_record(tmp_path: Path) -> None:
    """A JSON object without an id or start time is reported with its line and skipped; the
    records around it are stored (without a reporter the import stops there)."""
    path = tmp_path / "mixed.jsonl"
    write_records(path, [game(1), {"format": "tichu-record/1", "rounds": []}, game(2), game(1)])
    store = GameStore(tmp_path / "tichu.sqlite3")
    skipped: list[tuple[int, str]] = []
    assert store.archive.import_jsonl(path, lambda number, why: skipped.append((number, why))) == (2, 1)
    assert [number for number, _ in skipped] == [2] and "id" in skipped[0][1]
    assert [record["id"] for record in store.archive.records()] == ["g1", "g2"]
    with pytest.raises(ValueError, match=":2:"):
        GameStore(tmp_path / "other.sqlite3").archive.import_jsonl(path)
    store.close()


def test_lobbies_kept_at_a_stop_are_taken_once(tmp_path: Path) -> None:
    """A stop keeps the tables in their lobby (schema v5); the next start takes them, once."""
    with GameStore(tmp_path / "t.sqlite3") as store:
        store.running.keep_lobby("home", {"host": 0, "seats": [[0, "Ann", "h1"]]})
        store.running.keep_lobby("home", {"host": 1, "seats": [[1, "Ben", "h2"]]})  # the latest state wins
        store.running.keep_lobby("club", {"host": 2, "seats": []})
        assert store.running.take_lobbies() == [("club", {"host": 2, "seats": []}),
                                        ("home", {"host": 1, "seats": [[1, "Ben", "h2"]]})]
        assert store.running.take_lobbies() == []


def test_a_failed_write_whose_transaction_sqlite_undid_keeps_its_own_error(tmp_path: Path) -> None:
    """After some faults (a full disk, an I/O error) SQLite rolls the whole transaction back
    itself: the write's savepoint is gone, and the write's error is what comes out (the server's
    writer tells faults of the disk by it), not "no such savepoint"; the store goes on."""
    store = GameStore(tmp_path / "games.sqlite3")
    database, full = store.database, "database or disk is full"
    with pytest.raises(sqlite3.OperationalError, match=full), database.batch(), database.attempt():
        store.running.begin_game("lost", "t", "now", None, {})
        store.database.execute("ROLLBACK")  # what SQLite does itself after such a fault
        raise sqlite3.OperationalError(full)
    store.running.begin_game("kept", "t", "now", None, {})
    assert [game.id for game in store.running.games()] == ["kept"]
    store.close()


def test_a_version_5_store_gains_the_analyses_and_keeps_its_games(tmp_path: Path, arena_games: list[Record]) -> None:
    """A store written before analyses were kept (schema 5) is migrated in place: its games, their
    players and ratings stay as they were, and no game has an analysis yet."""
    path = tmp_path / "old.sqlite3"
    with GameStore(path) as store:
        store.archive.add_all(arena_games)
        statistics = store.statistics
        before = list(store.archive.records()), statistics.player_stats("agent:random"), statistics.leaderboard(10)
    with closing(sqlite3.connect(path)) as db:  # a v5 file: v6 without the analyses' tables
        db.executescript("DROP TABLE analysis_seats; DROP TABLE analyses; PRAGMA user_version = 5;")
    with GameStore(path) as store:
        assert store.database.version == len(MIGRATIONS) == 6
        statistics = store.statistics
        assert (list(store.archive.records()), statistics.player_stats("agent:random"),
                statistics.leaderboard(10)) == before
        assert store.analyses.analysis(arena_games[0]["id"]) is None and store.analyses.pending_analyses() == []


def test_an_analysis_goes_from_queued_to_done_and_counts_for_the_persons_accuracy(
        tmp_path: Path, arena_games: list[Record]) -> None:
    """queued -> running -> done (or failed, with a reason); the pending ones come oldest request
    first; a done analysis's losses count for the person at the seat, not for agents."""
    first, second, third = ({**record, "players": [{"name": "Anna", "kind": "human"}, *record["players"][1:]]}
                            for record in arena_games)
    with GameStore(tmp_path / "tichu.sqlite3") as store:
        store.archive.add_all([first, second, third])
        store.analyses.queue_analysis(second["id"], "2026-11-26T10:00:00Z")
        store.analyses.queue_analysis(first["id"], "2026-11-26T10:00:01Z")
        store.analyses.queue_analysis(third["id"], "2026-11-26T10:00:02Z")
        store.analyses.start_analysis(second["id"], 3, "2026-11-26T10:00:03Z")
        assert store.analyses.pending_analyses() == [second["id"], first["id"], third["id"]]
        document: AnalysisDocument = {
            "format": "tichu-analysis/1", "game_id": second["id"],
            "method": {"agent": "montecarlo", "samples": 8, "z": 2.0, "seed": 0, "thresholds": {}},
            "players": [], "judgements": [_judgement(0, 10.0), _judgement(0, 0.0), _judgement(1, 4.0)]}
        store.analyses.finish_analysis(second["id"], document, "2026-11-26T10:01:00Z")
        store.analyses.fail_analysis(first["id"], "round 1 does not replay", "2026-11-26T10:02:00Z")
        done, failed = store.analyses.analysis(second["id"]), store.analyses.analysis(first["id"])
        assert done is not None and (done.status, done.decisions, done.reason) == ("done", 3, None)
        assert done.document is not None and json.loads(done.document) == document
        assert failed is not None and (failed.status, failed.reason, failed.document) == (
            "failed", "round 1 does not replay", None)
        assert store.analyses.pending_analyses() == [third["id"]]
        assert store.statistics.player_accuracy("Anna") == {"games": 1, "decisions": 2, "mean_loss": 5.0}
        anna = store.statistics.player_stats("Anna")
        assert anna is not None and anna["accuracy"] == store.statistics.player_accuracy("Anna")
        assert store.statistics.player_accuracy("agent:random") == {"games": 0, "decisions": 0, "mean_loss": None}
        store.analyses.forget_analysis(third["id"])
        assert store.analyses.analysis(third["id"]) is None and store.analyses.pending_analyses() == []


def _judgement(seat: int, loss: float) -> AnalysisJudgement:
    """A judged decision of a seat with this loss (the rest as any judgement has it)."""
    return {"step": 0, "round": 0, "seat": seat, "kind": "play", "options": [], "best": 0, "chosen": 0,
            "loss": loss, "loss_half_width": 0.0, "label": None, "advantage": 0.0, "samples": 8}
