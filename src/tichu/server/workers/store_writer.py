"""The server's writes to its game store, in a thread of their own.

The event loop never waits on the disk: every write to the
:class:`~tichu.records.store.GameStore` is queued to :class:`StoreWriter`, whose thread
owns the database connection and runs the writes in order, everything it finds queued in
one commit (one write when the server is quiet; under load, batches keep up with many
tables). With SQLite's WAL and ``synchronous=NORMAL`` a commit is an append to the log in
the page cache, which the system writes out in batches, kind to an SD card; a crashed
process loses nothing committed. A write of a game's actions is queued the moment the engine has applied them,
so ``kill -9`` loses at most what was still in the queue: the action in flight.

**Faults of the disk.** A write that fails because the disk is full, the database is read-only,
the disk does not answer (an I/O error) or the file is locked (:func:`is_storage_fault`) undoes
its whole batch, which the writer then *holds*, in order, with every write queued after it, and
tries again with a growing pause (:data:`RETRY_FIRST` to :data:`RETRY_MAX`) until the disk takes
it: the games go on meanwhile, and their journals stay whole and ordered. It logs the fault at
once and then once every :data:`LOG_INTERVAL` seconds, not per write; reads are answered at
once from what is on the disk. :meth:`StoreWriter.health` tells ``/healthz``, also of a disk
that does not answer at all (a batch running over :data:`STALL_AFTER` seconds).

Both the queue (:data:`MAX_PENDING_WRITES`) and the writes held (:data:`MAX_HELD_WRITES`,
:data:`MAX_HELD_BYTES`) are bounded: a disk that never comes back must not make the server hold
unbounded memory. A write beyond a bound is dropped (the newest: what is held stays ordered),
counted and named in the log (the store's method and the game, e.g. ``append_entries of game
1f3c...``); the game goes on (its journal then has a gap, its record may be missing).
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import hashlib
import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict, TypeVar

from tichu.records.store import PARTS, GameStore

log = logging.getLogger(__name__)

T = TypeVar("T")
#: Writes that may wait for the writer thread (a game writes one per action; 50 tables at
#: people's pace queue a handful).
MAX_PENDING_WRITES = 10_000
#: Writes held for a retry while the disk fails (a journal write per event with new entries:
#: hours of a home server's few tables at people's pace). A held journal write takes about
#: 0.9 KB of memory (``poc/held_writes.py``): at most about 45 MiB.
MAX_HELD_WRITES = 50_000
#: Bytes of the writes held, at most, as :func:`held_size` counts them (the JSON of what they
#: write; the memory they take is about 5 times that, ``poc/held_writes.py``): the bound for a
#: few big writes, such as games' records (tens to hundreds of KB each).
MAX_HELD_BYTES = 8 * 1024 * 1024
#: What :func:`held_size` counts for a write besides the JSON it holds (the function, its row).
WRITE_OVERHEAD = 100
#: Writes committed together at most (a bounded transaction however far behind the writer is).
MAX_BATCH = 500
#: Seconds before the first retry of a failed write, doubled after each failure up to
#: :data:`RETRY_MAX`.
RETRY_FIRST = 0.5
#: Seconds between retries at most.
RETRY_MAX = 30.0
#: Seconds a batch of writes may take before ``/healthz`` calls the disk stalled.
STALL_AFTER = 10.0
#: Seconds between two log lines about the same fault (or about dropped writes).
LOG_INTERVAL = 60.0
#: Kinds of dropped writes named in one log line at most (the others are counted together).
MAX_NAMED_DROPS = 20
#: SQLite's primary result codes of a disk that cannot take a write now but may later: busy or
#: locked (e.g. by a backup), read-only, an I/O error, full, cannot open.
_FAULT_CODES = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_READONLY,
                          sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN})
#: A write to the store, run in the writer thread.
Write = Callable[[GameStore], None]


def session_hash(session_id: str) -> str:
    """The hash a session id is stored and looked up by (the id itself is a bearer token)."""
    return hashlib.sha256(session_id.encode()).hexdigest()


def is_storage_fault(error: BaseException) -> bool:
    """Whether an error of a write is the disk's (full, read-only, I/O, locked), which a retry
    may get past, rather than the write's own (a bug, a broken constraint), which it never will."""
    return isinstance(error, sqlite3.OperationalError) and (
        getattr(error, "sqlite_errorcode", -1) & 0xFF) in _FAULT_CODES


def describe(write: Write) -> str:
    """A write's name for the log: the store parts' methods it calls and its game, if it names one
    (``append_entries of game 1f3c...``); best effort, from the function's code."""
    code = getattr(write, "__code__", None)
    if code is None:
        return repr(write)
    methods = [name for name in code.co_names
               if not name.startswith("_") and any(hasattr(part, name) for part in PARTS)]
    name = " ".join(methods) or getattr(write, "__qualname__", "a write")
    cells = dict(zip(code.co_freevars, getattr(write, "__closure__", None) or (), strict=False))
    game = cells.get("game_id")
    return f"{name} of game {game.cell_contents}" if game is not None else name


def held_size(write: Write) -> int:
    """The bytes a held write counts for: :data:`WRITE_OVERHEAD` and the JSON of what its
    function holds (journal entries, a record, ids); run in the writer thread, only while writes
    are held."""
    size = WRITE_OVERHEAD
    for cell in getattr(write, "__closure__", None) or ():
        try:
            size += len(json.dumps(cell.cell_contents, default=str))
        except (TypeError, ValueError):  # not JSON (e.g. a cycle): counted as its repr
            size += len(repr(cell.cell_contents))
    return size


@dataclass(frozen=True)
class _Read:
    """A read queued to the writer thread (answered at once while writes are held)."""

    run: Write


class StoreHealthJson(TypedDict):
    """The ``store`` object of ``/healthz`` (docs/server.md): :class:`StoreHealth` in seconds."""

    queued: int
    held: int
    held_bytes: int
    dropped: int
    error: str | None
    failing_for: float | None
    stalled_for: float | None


@dataclass(frozen=True)
class StoreHealth:
    """What the writer tells ``/healthz``.

    :ivar queued: Writes and reads in the queue.
    :ivar held: Writes held for a retry (the disk failed them, or they came after).
    :ivar held_bytes: Their size (:func:`held_size`).
    :ivar dropped: Writes dropped since the start (a bound was full).
    :ivar error: The fault of the last failed attempt while writes are held, else ``None``.
    :ivar failing_since: Unix time of the first failure of the current fault, else ``None``.
    :ivar stalled_for: Seconds the writes under way have taken, once that is over
        :data:`STALL_AFTER` (a disk that does not answer), else ``None``.
    """

    queued: int
    held: int
    held_bytes: int
    dropped: int
    error: str | None
    failing_since: float | None
    stalled_for: float | None

    @property
    def ok(self) -> bool:
        """Whether every write was stored (nothing held, nothing dropped) and none hangs."""
        return not self.held and not self.dropped and self.error is None and self.stalled_for is None

    def to_json(self) -> StoreHealthJson:
        """The ``store`` object of ``/healthz`` (docs/server.md)."""
        return {"queued": self.queued, "held": self.held, "held_bytes": self.held_bytes, "dropped": self.dropped,
                "error": self.error,
                "failing_for": None if self.failing_since is None else round(time.time() - self.failing_since, 1),
                "stalled_for": None if self.stalled_for is None else round(self.stalled_for, 1)}

    def reason(self) -> str:
        """Why the store is degraded, in a sentence (empty when it is not)."""
        parts = []
        if self.stalled_for is not None:
            parts.append(f"the game store's disk has not answered for {self.stalled_for:.0f} s: "
                         f"{self.queued} writes queued")
        if self.held or self.error:
            parts.append(f"the game store cannot write ({self.error or 'retrying'}): {self.held} writes held")
        if self.dropped:
            parts.append(f"{self.dropped} writes dropped since the start (see the log)")
        return "; ".join(parts)


class StoreWriter:
    """The one thread that writes (and, at start, reads) the game store.

    :ivar path: The database file.
    :ivar dropped: Writes dropped because the queue or the writes held were full.
    """

    def __init__(self, path: str | Path, max_pending: int = MAX_PENDING_WRITES, max_held: int = MAX_HELD_WRITES,
                 max_held_bytes: int = MAX_HELD_BYTES, retry: tuple[float, float] | None = None,
                 log_interval: float = LOG_INTERVAL) -> None:
        """Open the store in a thread of its own.

        :param path: The database file (created with its folder if missing).
        :param max_pending: Writes that may wait in the queue before more are dropped.
        :param max_held: Writes that may be held for a retry before more are dropped.
        :param max_held_bytes: Bytes (:func:`held_size`) that may be held before more are dropped.
        :param retry: Seconds before the first retry, and between retries at most (default
            :data:`RETRY_FIRST`, :data:`RETRY_MAX`).
        :param log_interval: Seconds between two log lines about a fault or about drops.
        :raises OSError: If the file cannot be opened; ``ValueError`` for a newer schema.
        """
        self.path = Path(path)
        self.dropped = 0
        self._max_held = max_held
        self._max_held_bytes = max_held_bytes
        self._retry = retry or (RETRY_FIRST, RETRY_MAX)
        self._log_interval = log_interval
        self._stopping = False
        self._queue: queue.Queue[Write | _Read | None] = queue.Queue(max_pending)
        self._held: collections.deque[tuple[Write, int]] = collections.deque()  # with their sizes
        self._held_bytes = 0
        self._lock = threading.Lock()  # guards the counts below, read by the event loop
        self._error: str | None = None
        self._failing_since: float | None = None
        self._busy_since: float | None = None  # when the writes under way began (monotonic)
        self._drops: collections.Counter[str] = collections.Counter()  # since the last log line
        self._drops_logged_at = -float("inf")
        self._logged_at = -float("inf")  # the last log line about a fault
        opened: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._run, args=(opened,), name="game store", daemon=True)
        self._thread.start()
        opened.result()

    def health(self) -> StoreHealth:
        """Whether every write is stored, or what is held and why (for ``/healthz``)."""
        with self._lock:
            busy = None if self._busy_since is None else time.monotonic() - self._busy_since
            return StoreHealth(self._queue.qsize(), len(self._held), self._held_bytes, self.dropped, self._error,
                               self._failing_since, busy if busy is not None and busy > STALL_AFTER else None)

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
                    self._store(store, batch)
                finally:
                    for _ in batch:
                        self._queue.task_done()
                if self._held:
                    self._retry_held(store)
        finally:
            if self._held:
                log.error("the game store stops with %d writes it could not store (%s): they are lost",
                          len(self._held), self._error)
            self._log_drops(force=True)
            store.close()
            self._queue.task_done()

    def _store(self, store: GameStore, batch: list[Write | _Read]) -> None:
        """Run a batch in one transaction; on a fault of the disk, hold its writes (in order)
        and answer its reads that had not run from the disk."""
        fault = self._attempt(store, [item.run if isinstance(item, _Read) else item for item in batch])
        if fault is None:
            return
        error, ran = fault
        for item in batch:
            if not isinstance(item, _Read):
                self._hold(item)
        self._fault(error)
        for item in batch[ran:]:
            if isinstance(item, _Read):
                item.run(store)

    def _attempt(self, store: GameStore, writes: list[Write]) -> tuple[BaseException, int] | None:
        """Run writes in one transaction, each in a savepoint of its own (a write that fails for
        itself is undone alone and logged).

        :returns: ``None`` when committed; else the fault of the disk that undid them all, and
            how many had run before it.
        """
        ran = 0
        self._busy_since = time.monotonic()
        try:
            with store.database.batch():
                for write in writes:
                    try:
                        with store.database.attempt():
                            write(store)
                    except Exception as error:
                        if is_storage_fault(error):
                            raise
                        log.exception("a write to the game store failed: %s", describe(write))
                    ran += 1
        except Exception as error:
            if is_storage_fault(error):
                return error, ran
            log.exception("a batch of %d writes to the game store failed", len(writes))
        finally:
            self._busy_since = None
        return None

    def _retry_held(self, store: GameStore) -> None:
        """Until every held write is stored (or the writer stops): wait, taking what is queued
        meanwhile (writes are held behind the others, reads answered from the disk), and try the
        oldest held writes again, pausing longer after each failure; once the disk takes them,
        store the others without a pause (what is queued then waits in the queue, behind them)."""
        delay = self._retry[0]
        self._wait(store, delay)
        while self._held:
            chunk = [self._held[index][0] for index in range(min(MAX_BATCH, len(self._held)))]
            fault = self._attempt(store, chunk)
            if fault is None:
                with self._lock:
                    for _ in chunk:
                        self._held_bytes -= self._held.popleft()[1]
                    if not self._held:
                        self._recovered()
                if not self._held:
                    self._log_drops(force=True)  # the rest of the outage's drops
                continue
            self._fault(fault[0])
            if self._stopping:
                return
            delay = min(delay * 2, self._retry[1])
            self._wait(store, delay)

    def _wait(self, store: GameStore, delay: float) -> None:
        """Take what is queued for ``delay`` seconds (or until the close marker): hold the
        writes, answer the reads."""
        until = time.monotonic() + delay
        while not self._stopping and (left := until - time.monotonic()) > 0:
            try:
                item = self._queue.get(timeout=left)
            except queue.Empty:
                return
            try:
                if item is None:
                    self._stopping = True  # one last attempt, then stop
                elif isinstance(item, _Read):
                    item.run(store)
                else:
                    self._hold(item)
            finally:
                if item is not None:
                    self._queue.task_done()

    def _hold(self, write: Write) -> None:
        """Hold a write behind the others, or drop it if a bound of the writes held is full."""
        size = held_size(write)
        with self._lock:
            if len(self._held) < self._max_held and self._held_bytes + size <= self._max_held_bytes:
                self._held.append((write, size))
                self._held_bytes += size
                return
        self._drop(write)

    def _fault(self, error: BaseException) -> None:
        """Note a failed attempt: logged at once for a new fault, then once a minute."""
        now = time.time()
        with self._lock:
            if self._failing_since is None:
                self._failing_since = now
                self._logged_at = -float("inf")
            self._error = str(error)
            held = len(self._held)
        if now - self._logged_at >= self._log_interval:
            self._logged_at = now
            log.error("the game store cannot write (%s) for %.0f s: the games go on, %d writes held to retry "
                      "(%d dropped since the start)", error, now - (self._failing_since or now), held, self.dropped)
        self._log_drops()

    def _recovered(self) -> None:
        """Every held write is stored (called with the lock held)."""
        log.warning("the game store writes again after %.0f s (%s): every held write is stored",
                    time.time() - (self._failing_since or time.time()), self._error)
        self._error = None
        self._failing_since = None

    def _drop(self, write: Write) -> None:
        """Count and name a write dropped because a bound is full (logged once a minute)."""
        with self._lock:
            self.dropped += 1
            name = describe(write)
            if name in self._drops or len(self._drops) < MAX_NAMED_DROPS:
                self._drops[name] += 1
            else:
                self._drops["other writes"] += 1
        self._log_drops()

    def _log_drops(self, force: bool = False) -> None:
        """Log the writes dropped since the last such line, at most once a minute (now with ``force``)."""
        now = time.monotonic()
        with self._lock:
            if not self._drops or (not force and now - self._drops_logged_at < self._log_interval):
                return
            self._drops_logged_at = now
            named = ", ".join(f"{count} x {name}" for name, count in self._drops.items())
            self._drops.clear()
            total = self.dropped
        log.error("the game store dropped writes (its bound is full; %d since the start): %s", total, named)

    def _next_batch(self) -> list[Write | _Read] | None:
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
            self._drop(write)
            return False
        return True

    async def read(self, query: Callable[[GameStore], T]) -> T:
        """Run a read in the writer thread, after the writes queued before it (waiting, off the
        event loop, for room in the queue); while writes are held (a fault of the disk), at once
        and from what is on the disk.

        :returns: What ``query`` returns.
        """
        answer: concurrent.futures.Future[T] = concurrent.futures.Future()

        def run(store: GameStore) -> None:
            try:
                answer.set_result(query(store))
            except Exception as error:
                answer.set_exception(error)

        await asyncio.to_thread(self._queue.put, _Read(run))
        return await asyncio.wrap_future(answer)

    def flush(self) -> None:
        """Wait (in the calling thread) until every queued write is done: stored, dropped, or held
        for a retry."""
        self._queue.join()

    def close(self) -> None:
        """Finish the queued writes and close the store (blocks; call it in a thread). Writes held
        for a fault of the disk are tried once more, then logged as lost."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
