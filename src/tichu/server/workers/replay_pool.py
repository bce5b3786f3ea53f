"""The processes replays run in (:mod:`tichu.server.http.replay`), the bound on how many run and
wait, and the work they do.

Parsing an uploaded body (2 MiB of JSON at most), replaying a record through the rules and
encoding (and gzipping) the answer take a core for up to a second. In a thread of the server
they would hold the GIL and stall every table's messages; here they run in worker processes of
their own (:data:`MAX_REPLAYS`), at a lower CPU priority (niceness :data:`REPLAY_NICE`) than
the server and the agents' workers, so a burst of replays never takes a live game's core. The
event loop hands them the raw bytes and gets back the answer's bytes: it parses nothing.

At most :data:`MAX_REPLAYS` replays run and :data:`QUEUED_REPLAYS` more wait their turn on the
event loop (an upload whose body is being read counts as waiting: :meth:`ReplayPool.admitted`);
a request beyond those raises :class:`PoolBusy` (the HTTP API answers 503 with ``Retry-After``,
before it reads a body). The processes start with the first replay, from the agent pool's fork server
(:func:`~tichu.server.workers.agent_pool.process_context`), and are let go after
:data:`IDLE_SECONDS` without a replay, which gives their memory back.

Everything a body can hold that is no record raises :class:`BadRecord` with the reason (the API
answers 400): bytes that are no text, JSON nested beyond the parser's depth, ``NaN``, numbers of
thousands of digits, strings with a lone surrogate, and the like.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import logging
import os
import signal
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import NoReturn, TypeVar, TypeVarTuple

from tichu.records.bsw import BswError, decode, import_game
from tichu.records.positions import Position, position_after
from tichu.records.record import FORMAT
from tichu.records.steps import record_summary, replay_document
from tichu.server.workers.agent_pool import process_context
from tichu.server.workers.lifeline import end_with_parents

log = logging.getLogger(__name__)

T = TypeVar("T")
Args = TypeVarTuple("Args")

#: Replays that run at once, each in a process of its own (each takes a core for up to a second).
MAX_REPLAYS = 2
#: Replays that may wait for a free process beyond those; more get :class:`PoolBusy` (503).
QUEUED_REPLAYS = 8
#: The niceness of the replay processes: below the server and the agents' workers (0), above
#: the background analysis (19).
REPLAY_NICE = 10
#: Seconds without a replay after which the processes are let go (their memory goes back).
IDLE_SECONDS = 60.0
#: Records one uploaded file may hold.
MAX_RECORDS = 1000
#: Answers at least this long are gzipped when the client accepts it.
GZIP_FROM = 1024


class PoolBusy(RuntimeError):
    """Every process runs a replay and the queue is full, or a process died (the API answers 503)."""


class BadRecord(ValueError):
    """A body that holds no record, or an index out of range (400); the message says why."""


def _worker_start() -> None:
    """First thing in a replay process: end with the server, leave SIGINT to it, and yield the
    cores to the server and the agents (a lower CPU priority)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parents()
    os.nice(REPLAY_NICE)


class ReplayPool:
    """The processes replays run in, and the bound on how many run and wait.

    :ivar limit: Replays that run at once at most (the processes).
    :ivar queued: Replays that may wait for a process at most.
    :ivar busy: Replays running now.
    :ivar waiting: Replays waiting for a process now.
    :ivar admitting: Requests admitted that get their input ready (:meth:`admitted`); they count
        as waiting.
    """

    def __init__(self, limit: int = MAX_REPLAYS, queued: int = QUEUED_REPLAYS,
                 idle_seconds: float = IDLE_SECONDS) -> None:
        """Make the pool; no process starts before the first replay.

        :param limit: Replays that run at once (at least one).
        :param queued: Replays that may wait beyond those.
        :param idle_seconds: Seconds without a replay before the processes are let go.
        """
        self.limit = max(1, limit)
        self.queued = max(0, queued)
        self.busy = 0
        self.waiting = 0
        self.admitting = 0
        self._idle_seconds = idle_seconds
        self._slots = asyncio.Semaphore(self.limit)
        self._executor: ProcessPoolExecutor | None = None
        self._idle: asyncio.TimerHandle | None = None

    @property
    def started(self) -> bool:
        """Whether the processes are up (a replay ran within :data:`IDLE_SECONDS`)."""
        return self._executor is not None

    async def run(self, function: Callable[[*Args], T], *args: *Args) -> T:
        """Run ``function(*args)`` in a process of the pool, after the replays before it.

        :param function: A function at a module's top level (the process imports it).
        :param args: Its arguments; they and its result must pickle.
        :returns: What it returns.
        :raises PoolBusy: If :attr:`limit` replays run and :attr:`queued` wait (or are
            admitted) already, or the process died (killed, out of memory).
        :raises BaseException: What ``function`` raised (:class:`BadRecord`...).
        """
        self._check()
        self.waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
        self.busy += 1
        self._stay()
        loop = asyncio.get_running_loop()
        try:
            future: Future[T] = self._start().submit(function, *args)
        except BaseException:
            self._free()
            raise
        future.add_done_callback(lambda _: self._finished(loop))
        try:
            return await asyncio.shield(asyncio.wrap_future(future))  # a process's work is never cut short
        except BrokenProcessPool:
            self._let_go()
            log.warning("replay pool: a process died; starting new ones with the next replay")
            raise PoolBusy("the replay's process ended") from None

    @contextlib.contextmanager
    def admitted(self) -> Iterator[None]:
        """Hold a place among the replays that wait while the caller gets the replay's input ready
        (reads an upload's body): a request the pool has no place for is refused before its body
        is read, and a :meth:`run` right after the place is left (no ``await`` between) finds it.

        :raises PoolBusy: If :attr:`limit` replays run and :attr:`queued` wait or are admitted.
        """
        self._check()
        self.admitting += 1
        try:
            yield
        finally:
            self.admitting -= 1

    def _check(self) -> None:
        """:raises PoolBusy: If the replays running, waiting and admitted fill the pool."""
        if self.busy + self.waiting + self.admitting >= self.limit + self.queued:
            raise PoolBusy(f"{self.limit} replays run and {self.queued} wait already")

    def _start(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(self.limit, mp_context=process_context(),
                                                 initializer=_worker_start)
        return self._executor

    def _stay(self) -> None:
        """A replay starts: the processes are not idle."""
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None

    def _finished(self, loop: asyncio.AbstractEventLoop) -> None:
        """A replay left its process (done, failed or broken): free its slot, on the loop."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(self._free)

    def _free(self) -> None:
        self.busy -= 1
        self._slots.release()
        if not self.busy and not self.waiting and self._executor is not None:
            self._idle = asyncio.get_running_loop().call_later(self._idle_seconds, self._let_go)

    def _let_go(self) -> None:
        """Let the processes exit once their replays are done; the next replay starts new ones."""
        self._stay()
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        """Stop the processes (running replays finish unwaited for; they end with the server)."""
        self._let_go()


def upload_answer(data: bytes, index: int | None, gzipped: bool) -> bytes:
    """What ``POST /api/replay`` answers for a body, encoded (runs in a replay process).

    :param data: The body as it came.
    :param index: The record to replay (``?index=``), or ``None``.
    :param gzipped: Whether to gzip an answer of :data:`GZIP_FROM` bytes or more.
    :raises BadRecord: For a body that holds no record, or an index out of range.
    """
    return encode(upload_document(data, index), gzipped)


def stored_answer(text: str, gzipped: bool) -> bytes:
    """The replay document of a stored game's record (its JSON text), encoded (runs in a replay
    process).

    :raises BadRecord: For a stored text that is no record (a store written by hand).
    """
    records = parse_records(text.encode())
    return encode(dict(replay_document(records[0])), gzipped)


def stored_position(text: str, step: int) -> Position:
    """The position after a step of a stored game's record (its JSON text), for another line
    (runs in a replay process).

    :raises BadRecord: For a stored text that is no record.
    :raises NoPosition: For a step the record does not reach, or after which its round is over.
    """
    return position_after(parse_records(text.encode())[0], step)


def upload_document(data: bytes, index: int | None = None) -> Mapping[str, object]:
    """The document ``POST /api/replay`` answers for a body: one record's replay document, or
    the summaries of several.

    :raises BadRecord: For a body that holds no record, or an index out of range.
    """
    records = parse_records(data)
    if index is None and len(records) == 1:
        index = 0
    if index is None:
        return {"records": [{"index": number, **record_summary(record)} for number, record in enumerate(records)]}
    if index >= len(records):
        raise BadRecord(f"index {index} but the file holds {len(records)} records")
    try:
        return dict(replay_document(records[index]))
    except RecursionError:
        raise BadRecord("the record is nested too deeply") from None


def parse_records(data: bytes) -> list[dict[str, object]]:
    """The records of an uploaded body: one JSON record, a JSON array of them, JSON Lines, or a
    Brettspielwelt log (imported through the rules). A record is JSON from outside, open until
    the replay reads it (docs/records.md): an object of the record format, nothing checked within.

    :raises BadRecord: For anything else, with the reason.
    """
    try:
        text = decode(data).strip()
    except UnicodeDecodeError:
        raise BadRecord("the body is no text (neither UTF-8 nor Windows-1252)") from None
    if not text:
        raise BadRecord("the body is empty")
    if text[0] not in "{[":
        try:
            return [dict(import_game(text, "bsw-upload"))]
        except BswError as error:
            raise BadRecord(f"neither a record (JSON) nor a Brettspielwelt log: {error}") from None
    records = _json_records(text)
    if not records:
        raise BadRecord("the file holds no record")
    if len(records) > MAX_RECORDS:
        raise BadRecord(f"more than {MAX_RECORDS} records")
    objects: list[dict[str, object]] = []
    for number, record in enumerate(records):
        if not isinstance(record, dict):
            raise BadRecord(f"record {number} is not a JSON object")
        if record.get("format") != FORMAT:
            raise BadRecord(f"record {number} is not a {FORMAT} record (format {record.get('format')!r})")
        objects.append(record)
    return objects


def _json_records(text: str) -> list[object]:
    """The values of a JSON text: one object, an array's items, or one per line (JSON Lines).

    :raises BadRecord: For a line that is no JSON, or JSON nested too deeply.
    """
    try:
        whole = _loads(text)
    except RecursionError:
        raise BadRecord("the JSON is nested too deeply") from None
    except ValueError:
        whole = None
    if isinstance(whole, dict):
        return [whole]
    if isinstance(whole, list):
        return whole
    records: list[object] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(_loads(line))
        except RecursionError:
            raise BadRecord(f"line {number}: the JSON is nested too deeply") from None
        except ValueError as error:
            raise BadRecord(f"line {number}: not JSON ({error})") from None
    return records


def _loads(text: str) -> object:
    """JSON as the standard has it: ``NaN`` and ``Infinity`` are no numbers of it.

    :raises ValueError: For text that is no JSON (``NaN`` included).
    """
    return json.loads(text, parse_constant=_no_constant)


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is no JSON number")


def encode(document: Mapping[str, object], gzipped: bool) -> bytes:
    """A document as UTF-8 JSON, gzipped if asked for and at least :data:`GZIP_FROM` bytes.

    :raises BadRecord: For a string with a lone surrogate (``"\\ud800"`` in the record's JSON:
        no UTF-8 text holds it), or a document nested too deeply.
    """
    try:
        body = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
    except UnicodeEncodeError:
        raise BadRecord("a string of the record holds a lone surrogate (an unpaired \\ud800-\\udfff)") from None
    except RecursionError:
        raise BadRecord("the record is nested too deeply") from None
    return gzip.compress(body, 6) if gzipped and len(body) >= GZIP_FROM else body
