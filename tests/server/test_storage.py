"""The server's writer of the game store (:mod:`tichu.server.workers.store_writer`): one thread, a bounded
queue, reads after the writes queued before them, a failed write that stops nothing, and writes
the disk fails (full, read-only) held in order, within a bound, until it takes them.

The disk's faults here are SQLite's own errors raised by a write; a real full and read-only
disk under a running server is in test_disk_faults.py."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.live_server import POLL, WAIT
from tichu.records.store import GameStore
from tichu.server.workers import store_writer as storage
from tichu.server.workers.store_writer import (
    WRITE_OVERHEAD,
    StoreWriter,
    Write,
    describe,
    held_size,
    is_storage_fault,
    session_hash,
)


async def test_the_queue_is_bounded_and_a_write_beyond_it_is_dropped_and_logged(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """While the disk does not answer, at most ``max_pending`` writes wait; one more is dropped
    (and logged), never held: the server's memory stays bounded."""
    writer = StoreWriter(tmp_path / "tichu.sqlite3", max_pending=2)
    stuck, running = threading.Event(), threading.Event()

    def slow_disk(store: GameStore) -> None:
        running.set()
        stuck.wait()

    assert writer.submit(slow_disk)
    running.wait()
    assert writer.submit(lambda store: store.running.begin_game("a", "t", "now", None, {}))
    assert writer.submit(lambda store: store.running.begin_game("b", "t", "now", None, {}))
    with caplog.at_level(logging.ERROR, "tichu.server.workers.store_writer"):
        assert not writer.submit(lambda store: store.running.begin_game("c", "t", "now", None, {}))
    assert writer.dropped == 1 and "dropped writes" in caplog.text and "1 x begin_game" in caplog.text
    assert not writer.health().ok and "1 writes dropped" in writer.health().reason()
    stuck.set()
    games = await writer.read(lambda store: [game.id for game in store.running.games()])
    assert sorted(games) == ["a", "b"]
    writer.close()


async def test_a_disk_that_does_not_answer_is_told_after_a_while(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that hangs (a stalled disk) makes health degraded once it took longer than
    :data:`~tichu.server.workers.store_writer.STALL_AFTER`, with the writes waiting behind it; ok after."""
    monkeypatch.setattr(storage, "STALL_AFTER", 0.05)
    writer = StoreWriter(tmp_path / "tichu.sqlite3")
    stuck, running = threading.Event(), threading.Event()

    def slow_disk(store: GameStore) -> None:
        running.set()
        stuck.wait()

    writer.submit(slow_disk)
    running.wait()
    writer.submit(lambda store: store.running.begin_game("a", "t", "now", None, {}))
    await _until(lambda: writer.health().stalled_for is not None)
    health = writer.health()
    assert not health.ok and health.queued == 1 and "has not answered for" in health.reason()
    stuck.set()
    await _until(lambda: writer.health().ok)
    writer.close()


async def test_writes_queued_together_commit_together_and_a_failed_one_alone_is_undone(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """What the writer finds queued is one transaction; a write that fails inside it is rolled
    back to its savepoint and logged, and the others of the batch are stored."""
    writer = StoreWriter(tmp_path / "tichu.sqlite3")
    stuck, running = threading.Event(), threading.Event()

    def slow_disk(store: GameStore) -> None:
        running.set()
        stuck.wait()

    def half_then_broken(store: GameStore) -> None:
        store.running.begin_game("half", "t", "now", None, {})
        raise OSError("disk full")

    writer.submit(slow_disk)
    running.wait()
    with caplog.at_level(logging.ERROR, "tichu.server.workers.store_writer"):
        writer.submit(lambda store: store.running.begin_game("before", "t", "now", None, {}))
        writer.submit(half_then_broken)
        writer.submit(lambda store: store.running.begin_game("after", "t", "now", None, {}))
        stuck.set()
        stored = [game.id for game in await writer.read(lambda store: store.running.games())]
    assert sorted(stored) == ["after", "before"]
    assert "a write to the game store failed" in caplog.text
    writer.close()
    writer.close()  # closing twice is harmless


def test_a_store_that_cannot_be_opened_fails_at_once(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(OSError):
        StoreWriter(tmp_path / "file" / "tichu.sqlite3")


def test_session_hashes_are_sha256_hex_and_never_the_id() -> None:
    hashed = session_hash("3f2c0d9e-0000-4000-8000-000000000000")
    assert len(hashed) == 64 and "3f2c0d9e" not in hashed


def _disk_full() -> sqlite3.OperationalError:
    """SQLite's own "database or disk is full" (a database limited to two pages)."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (x)")
    db.execute("PRAGMA max_page_count = 2")
    try:
        db.execute("INSERT INTO t VALUES (?)", ("x" * 100_000,))
    except sqlite3.OperationalError as error:
        return error
    finally:
        db.close()
    raise AssertionError("the database took the row")


class Disk:
    """A disk that is full until :attr:`full` is cleared: a write through :meth:`append` fails
    with SQLite's error then, after it stored its row (which the fault must undo)."""

    def __init__(self) -> None:
        self.full = True
        self.attempts = 0

    def append(self, game_id: str, seq: int) -> Write:
        def write(store: GameStore) -> None:
            store.running.append_entries(game_id, seq, [{"seq": seq}])
            if self.full:
                self.attempts += 1
                raise _disk_full()
        return write


def _append(game_id: str, seq: int) -> Write:
    return lambda store: store.running.append_entries(game_id, seq, [{"seq": seq}])


async def _until(check: Callable[[], bool]) -> None:
    async with asyncio.timeout(WAIT):
        while not check():
            await asyncio.sleep(POLL)


async def test_writes_the_disk_fails_are_held_in_order_and_stored_when_it_has_room(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A full disk: the batch is undone and held with what comes after, retried, and stored in
    order once there is room; health says so meanwhile and is ok after."""
    writer = StoreWriter(tmp_path / "tichu.sqlite3", retry=(0.01, 0.05))
    disk = Disk()
    with caplog.at_level(logging.WARNING, "tichu.server.workers.store_writer"):
        writer.submit(lambda store: store.running.begin_game("g", "t", "now", None, {}))
        writer.submit(disk.append("g", 0))
        for seq in range(1, 50):
            writer.submit(_append("g", seq))
        await _until(lambda: disk.attempts >= 3)
        health = writer.health()
        assert not health.ok and health.held == 51 and "database or disk is full" in (health.error or "")
        assert "database or disk is full" in health.reason()
        stored = await writer.read(lambda store: store.running.games())  # answered from the disk
        assert stored == []
        disk.full = False
        await _until(lambda: writer.health().ok)
    [game] = await writer.read(lambda store: store.running.games())
    assert game.complete and [entry["seq"] for entry in game.entries] == list(range(50))
    assert writer.health().to_json() == {"queued": 0, "held": 0, "held_bytes": 0, "dropped": 0, "error": None,
                                         "failing_for": None, "stalled_for": None}
    assert "the game store writes again" in caplog.text
    writer.close()


async def test_a_fault_is_logged_at_once_and_then_once_a_minute_not_per_attempt(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    writer = StoreWriter(tmp_path / "tichu.sqlite3", retry=(0.001, 0.001))
    disk = Disk()
    with caplog.at_level(logging.ERROR, "tichu.server.workers.store_writer"):
        writer.submit(lambda store: store.running.begin_game("g", "t", "now", None, {}))
        writer.submit(disk.append("g", 0))
        await _until(lambda: disk.attempts >= 50)
    assert caplog.text.count("the game store cannot write (database or disk is full)") == 1
    disk.full = False
    await _until(lambda: writer.health().ok)
    writer.close()


async def test_the_writes_held_are_bounded_and_what_is_dropped_is_named(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Beyond ``max_held`` the newest writes are dropped (what is held stays ordered), counted and
    named by method and game; health stays degraded after the disk is back."""
    writer = StoreWriter(tmp_path / "tichu.sqlite3", max_held=3, retry=(0.01, 0.01))
    disk = Disk()
    game_id = "g"
    with caplog.at_level(logging.ERROR, "tichu.server.workers.store_writer"):
        writer.submit(lambda store: store.running.begin_game(game_id, "t", "now", None, {}))
        writer.submit(disk.append(game_id, 0))
        await _until(lambda: disk.attempts >= 1)
        writer.submit(lambda store: store.running.append_entries(game_id, 1, [{"seq": 1}]))
        for seq in (2, 3):
            writer.submit(_append(game_id, seq))
        await _until(lambda: writer.dropped == 2)
        assert writer.health().held == 3
        disk.full = False
        await _until(lambda: writer.health().held == 0)
    writer.close()
    drops = [record.getMessage() for record in caplog.records if "dropped writes" in record.getMessage()]
    assert drops == ["the game store dropped writes (its bound is full; 1 since the start): "  # at once
                     "1 x append_entries of game g",
                     "the game store dropped writes (its bound is full; 2 since the start): "  # when the disk is back
                     "1 x append_entries of game g"]
    health = writer.health()
    assert health.dropped == 2 and not health.ok and "2 writes dropped" in health.reason()
    with GameStore(tmp_path / "tichu.sqlite3") as store:
        [game] = store.running.games()
    assert [entry["seq"] for entry in game.entries] == [0, 1]


async def test_the_bytes_held_are_bounded_too(tmp_path: Path) -> None:
    """A few big writes (games' records) fill the bytes held before their count does."""
    record = {"id": "r", "rounds": ["x" * 1000]}

    def store_record(store: GameStore) -> None:
        store.archive.add(record)

    size = held_size(store_record)
    assert 1000 < size - WRITE_OVERHEAD < 1100
    writer = StoreWriter(tmp_path / "tichu.sqlite3", max_held_bytes=3 * size, retry=(0.01, 0.01))
    disk = Disk()
    writer.submit(lambda store: store.running.begin_game("g", "t", "now", None, {}))
    writer.submit(disk.append("g", 0))
    await _until(lambda: disk.attempts >= 1)
    for _ in range(4):
        writer.submit(store_record)
    await _until(lambda: writer.dropped == 2)
    health = writer.health()
    assert health.held == 4 and health.held_bytes <= 3 * size
    disk.full = False
    await _until(lambda: writer.health().held == 0)
    assert writer.health().held_bytes == 0
    writer.close()


async def test_closing_while_the_disk_fails_tries_once_more_and_logs_what_is_lost(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    writer = StoreWriter(tmp_path / "tichu.sqlite3", retry=(60.0, 60.0))
    disk = Disk()
    writer.submit(lambda store: store.running.begin_game("g", "t", "now", None, {}))
    writer.submit(disk.append("g", 0))
    await _until(lambda: disk.attempts >= 1)
    with caplog.at_level(logging.ERROR, "tichu.server.workers.store_writer"):
        await asyncio.wait_for(asyncio.to_thread(writer.close), WAIT)  # not after the 60 s pause
    assert disk.attempts == 2 and "2 writes it could not store" in caplog.text


def test_faults_of_the_disk_are_told_from_faults_of_the_write(tmp_path: Path) -> None:
    """Full, read-only: retried; a broken constraint: never."""
    assert is_storage_fault(_disk_full())
    GameStore(tmp_path / "tichu.sqlite3").close()
    read_only = sqlite3.connect(f"file:{tmp_path / 'tichu.sqlite3'}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as raised:
        read_only.execute("DELETE FROM games")
    read_only.close()
    assert "readonly" in str(raised.value) and is_storage_fault(raised.value)
    assert not is_storage_fault(sqlite3.IntegrityError("UNIQUE constraint failed"))
    assert not is_storage_fault(sqlite3.OperationalError("no such table: x"))
    assert not is_storage_fault(OSError("disk full"))


def test_a_write_is_named_by_its_store_method_and_game() -> None:
    game_id = "1f3c"
    assert describe(lambda store: store.running.end_game(game_id, None)) == "end_game of game 1f3c"
    assert describe(lambda store: store.running.begin_game("x", "t", "now", None, {})) == "begin_game"
