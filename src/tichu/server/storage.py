"""The server's writes to its game store, in a thread of their own, and each game's journal.

The event loop never waits on the disk: every write to the
:class:`~tichu.records.store.GameStore` is queued to :class:`StoreWriter`, whose thread
owns the database connection and runs the writes in order, everything it finds queued in
one commit (one write when the server is quiet; under load, batches keep up with many
tables). With SQLite's WAL and ``synchronous=NORMAL`` a commit is an append to the log in
the page cache, which the system writes out in batches, kind to an SD card; a crashed
process loses nothing committed. A write of a game's actions is queued the moment the engine has applied them,
so ``kill -9`` loses at most what was still in the queue: the action in flight.

The queue is bounded (:data:`MAX_PENDING_WRITES`): a disk that stops answering must not
make the server hold unbounded memory. A write that finds the queue full is dropped and
logged; the game goes on (its record may then lack the end).

:class:`GameJournal` follows one game at a table (an observer of its engine) and queues its
journal entries (:mod:`tichu.records.journal`) as they happen.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import logging
import queue
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from tichu.engine.events import Event
from tichu.engine.views import TableSource
from tichu.records.journal import JournalCursor
from tichu.records.store import GameStore

log = logging.getLogger(__name__)

T = TypeVar("T")
#: Writes that may wait for the writer thread (a game writes one per action; 50 tables at
#: people's pace queue a handful).
MAX_PENDING_WRITES = 10_000
#: Writes committed together at most (a bounded transaction however far behind the writer is).
MAX_BATCH = 500
#: A write to the store, run in the writer thread.
Write = Callable[[GameStore], None]


def session_hash(session_id: str) -> str:
    """The hash a session id is stored and looked up by (the id itself is a bearer token)."""
    return hashlib.sha256(session_id.encode()).hexdigest()


class StoreWriter:
    """The one thread that writes (and, at start, reads) the game store.

    :ivar path: The database file.
    :ivar dropped: Writes dropped because the queue was full.
    """

    def __init__(self, path: str | Path, max_pending: int = MAX_PENDING_WRITES) -> None:
        """Open the store in a thread of its own.

        :param path: The database file (created with its folder if missing).
        :param max_pending: Writes that may wait before more are dropped.
        :raises OSError: If the file cannot be opened; ``ValueError`` for a newer schema.
        """
        self.path = Path(path)
        self.dropped = 0
        self._stopping = False
        self._queue: queue.Queue[Write | None] = queue.Queue(max_pending)
        opened: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._run, args=(opened,), name="game store", daemon=True)
        self._thread.start()
        opened.result()

    def _run(self, opened: concurrent.futures.Future[None]) -> None:
        try:
            store = GameStore(self.path)
        except BaseException as error:
            opened.set_exception(error)
            return
        opened.set_result(None)
        try:
            while (batch := self._next_batch()) is not None:
                try:
                    with store.batch():
                        for write in batch:
                            try:
                                with store.attempt():
                                    write(store)
                            except Exception:  # one failed write must not stop the others
                                log.exception("a write to the game store failed")
                except Exception:
                    log.exception("a batch of %d writes to the game store failed", len(batch))
                finally:
                    for _ in batch:
                        self._queue.task_done()
        finally:
            store.close()
            self._queue.task_done()

    def _next_batch(self) -> list[Write] | None:
        """The writes queued now (waiting for one), up to :data:`MAX_BATCH`; ``None`` to stop
        (the close marker, which comes after every write queued before it)."""
        if self._stopping:
            return None
        first = self._queue.get()
        if first is None:
            return None
        batch = [first]
        while len(batch) < MAX_BATCH:
            try:
                write = self._queue.get_nowait()
            except queue.Empty:
                break
            if write is None:
                self._stopping = True  # stop after this batch
                break
            batch.append(write)
        return batch

    def submit(self, write: Write) -> bool:
        """Queue a write (never waits).

        :returns: Whether it was queued (``False``: the queue was full, the write is dropped).
        """
        try:
            self._queue.put_nowait(write)
        except queue.Full:
            self.dropped += 1
            if self.dropped == 1 or self.dropped % 1000 == 0:
                log.error("the game store falls behind: %d writes dropped", self.dropped)
            return False
        return True

    async def read(self, query: Callable[[GameStore], T]) -> T:
        """Run a read in the writer thread, after the writes queued before it (waiting, off the
        event loop, for room in the queue).

        :returns: What ``query`` returns.
        """
        answer: concurrent.futures.Future[T] = concurrent.futures.Future()

        def run(store: GameStore) -> None:
            try:
                answer.set_result(query(store))
            except Exception as error:
                answer.set_exception(error)

        await asyncio.to_thread(self._queue.put, run)
        return await asyncio.wrap_future(answer)

    def flush(self) -> None:
        """Wait (in the calling thread) until every queued write is done."""
        self._queue.join()

    def close(self) -> None:
        """Finish the queued writes and close the store (blocks; call it in a thread)."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()


class GameJournal:
    """Writes one game of a table down as it is played: an observer of its engine.

    :ivar game_id: The game's id (its record's id at the end).
    """

    def __init__(self, writer: StoreWriter, game_id: str, table: TableSource, written: int = 0) -> None:
        """Follow a game.

        :param writer: The store's writer.
        :param game_id: The game's id (stored with :meth:`GameStore.begin_game` before).
        :param table: The game's table (its round is read after each event).
        :param written: Entries stored already (a game that goes on after a restart).
        """
        self.game_id = game_id
        self.cursor = JournalCursor()
        self._writer = writer
        self._table = table
        self._written = written

    def notify(self, event: Event) -> None:
        """After each event, queue what the round has newly accepted."""
        entries = self.cursor.new_entries(self._table.round)
        if entries:
            first, game_id = self._written, self.game_id
            self._written += len(entries)
            self._writer.submit(lambda store: store.append_entries(game_id, first, entries))
