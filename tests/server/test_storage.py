"""The server's writer of the game store (:mod:`tichu.server.storage`): one thread, a bounded
queue, reads after the writes queued before them, and a failed write that stops nothing."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

from tichu.records.store import GameStore
from tichu.server.storage import StoreWriter, session_hash


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
    assert writer.submit(lambda store: store.begin_game("a", "t", "now", None, {}))
    assert writer.submit(lambda store: store.begin_game("b", "t", "now", None, {}))
    with caplog.at_level(logging.ERROR, "tichu.server.storage"):
        assert not writer.submit(lambda store: store.begin_game("c", "t", "now", None, {}))
    assert writer.dropped == 1 and "1 writes dropped" in caplog.text
    stuck.set()
    games = await writer.read(lambda store: [game.id for game in store.running_games()])
    assert sorted(games) == ["a", "b"]
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
        store.begin_game("half", "t", "now", None, {})
        raise OSError("disk full")

    writer.submit(slow_disk)
    running.wait()
    with caplog.at_level(logging.ERROR, "tichu.server.storage"):
        writer.submit(lambda store: store.begin_game("before", "t", "now", None, {}))
        writer.submit(half_then_broken)
        writer.submit(lambda store: store.begin_game("after", "t", "now", None, {}))
        stuck.set()
        stored = [game.id for game in await writer.read(lambda store: store.running_games())]
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
