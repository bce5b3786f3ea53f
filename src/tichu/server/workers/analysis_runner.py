"""Game analyses at the server: a bounded queue of stored games, analysed one at a time in the
agent pool's background process (docs/server.md, "Game analysis").

An analysis (:mod:`tichu.analysis`) judges every decision the people of a game made: the
decision points are computed from the game's record, then each point is judged by the expert's
search, one :meth:`~tichu.server.workers.agent_pool.AgentPool.background` call per point. The pool hands
such a call to its niced background process only while no live decision is asked for, so a live
table's decision always goes first, between any two points; the event loop only awaits the calls
and the store. The document (``tichu-analysis/1``) is stored with the game
(:meth:`~tichu.records.store.GameStore.finish_analysis`).

Games wait in a queue of at most :data:`MAX_QUEUED_ANALYSES`; one more is refused (the HTTP API
answers 503, a finished game of ``TICHU_ANALYSIS=all`` stays without an analysis). The store
keeps each analysis's status, so a server that stops with analyses queued or running queues them
again when it starts. While an analysis runs, its progress (points judged of all) is kept here.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from tichu.analysis import DecisionPoint, Judgement, Method, analysis_document, decision_points, judge
from tichu.records.parts import AnalysisDocument
from tichu.records.record import now_iso
from tichu.server.workers.agent_pool import AgentPool
from tichu.server.workers.store_writer import StoreWriter

log = logging.getLogger(__name__)

#: Analyses that may wait for their turn (the running one not counted); one more is refused.
MAX_QUEUED_ANALYSES = 20

#: What :meth:`AnalysisRunner.request` did: queued the game, found it queued or running
#: already, or found the queue full.
Requested = Literal["queued", "already", "full"]


@dataclass(frozen=True)
class Steps:
    """The three steps of an analysis, each run in the pool's background process (so each is a
    function the process can import, and its arguments and result pickle).

    :ivar points: The decision points of a record (:func:`tichu.analysis.decision_points`).
    :ivar judge: One point's judgement with this many sampled deals (:func:`tichu.analysis.judge`).
    :ivar document: The analysis document of a record from its judgements and the samples
        (:func:`tichu.analysis.analysis_document`).
    """

    points: Callable[[Mapping[str, object]], Sequence[DecisionPoint]]
    judge: Callable[[DecisionPoint, int], Judgement]
    document: Callable[[Mapping[str, object], list[Judgement], int], AnalysisDocument]


def points_of(record: Mapping[str, object]) -> list[DecisionPoint]:
    """The decision points of the people's seats (all four in a record without a person)."""
    return decision_points(record)


def judge_point(point: DecisionPoint, samples: int) -> Judgement:
    """One point's judgement by the expert's search over ``samples`` deals (seed 0)."""
    return judge(point, samples=samples)


def document_of(record: Mapping[str, object], judgements: list[Judgement], samples: int) -> AnalysisDocument:
    """The analysis document (``tichu-analysis/1``) of a record from its judgements."""
    return analysis_document(record, judgements, Method(samples=samples))


#: The analysis of :mod:`tichu.analysis`, as the server runs it.
ANALYSIS = Steps(points_of, judge_point, document_of)


@dataclass(frozen=True)
class Progress:
    """Where the running analysis is.

    :ivar game_id: Its game.
    :ivar done: Decision points judged.
    :ivar total: Decision points to judge (0 until they are known).
    """

    game_id: str
    done: int
    total: int


class AnalysisRunner:
    """The queue of games to analyse and the task that analyses them, one at a time.

    :ivar bound: Analyses that may wait at most.
    :ivar progress: The running analysis, or ``None``.
    """

    def __init__(self, store: StoreWriter, pool: AgentPool, steps: Steps, samples: int, *,
                 bound: int = MAX_QUEUED_ANALYSES) -> None:
        """Make the runner; nothing runs before :meth:`start`.

        :param store: The game store's writer (records are read and analyses stored through it).
        :param pool: The agent pool, whose background process runs the steps.
        :param steps: The analysis's steps.
        :param samples: Deals drawn per judged decision.
        :param bound: Analyses that may wait at most.
        """
        self.bound = bound
        self.progress: Progress | None = None
        self._store = store
        self._pool = pool
        self._steps = steps
        self._samples = samples
        self._waiting: collections.deque[str] = collections.deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def status(self, game_id: str) -> Progress | Literal["queued"] | None:
        """What this runner knows of a game's analysis: its progress while it runs, ``"queued"``
        while it waits, else ``None`` (the store knows the rest)."""
        if self.progress is not None and self.progress.game_id == game_id:
            return self.progress
        return "queued" if game_id in self._waiting else None

    def request(self, game_id: str) -> Requested:
        """Queue a stored game's analysis (its status is stored as ``queued``), unless it is queued
        or running already, or the queue is full.

        :param game_id: The id of a stored game (the caller checked it).
        """
        if self.status(game_id) is not None:
            return "already"
        if len(self._waiting) >= self.bound:
            return "full"
        self._waiting.append(game_id)
        at = now_iso()
        self._store.submit(lambda store: store.analyses.queue_analysis(game_id, at))
        self._wake.set()
        return "queued"

    def game_finished(self, game_id: str) -> None:
        """A finished game was handed to the store (``TICHU_ANALYSIS=all``): queue its analysis,
        unless the queue is full (the game then stays without one; it can be asked for later).
        The store writes the record before the runner reads it: its writes run in order."""
        if self.request(game_id) == "full":
            log.info("analysis of game %s not queued: %d analyses wait already", game_id, len(self._waiting))

    async def start(self) -> None:
        """Queue again the analyses the store has as queued or running (a stop came first), the
        oldest first, up to the bound (the others are forgotten: their games can be asked for
        again), and start analysing."""
        pending = await self._store.read(lambda store: store.analyses.pending_analyses())
        for game_id in pending[:self.bound]:
            self._waiting.append(game_id)
        for game_id in pending[self.bound:]:
            self._forget(game_id)
        if pending:
            log.info("%d analyses queued again after a restart (%d forgotten: the queue is full)",
                     min(len(pending), self.bound), max(0, len(pending) - self.bound))
        self._task = asyncio.create_task(self._run(), name="analyses")

    async def stop(self) -> None:
        """Stop analysing at once (the running analysis stays stored as running and is queued
        again at the next start; the pool's shutdown stops its process)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            while not self._waiting:
                self._wake.clear()
                await self._wake.wait()
            game_id = self._waiting.popleft()
            self.progress = Progress(game_id, 0, 0)
            try:
                await self._analyse(game_id)
            except Exception as error:  # the record's or the method's: this game's analysis failed
                self._fail(game_id, str(error) or repr(error))
            finally:
                self.progress = None
                self._pool.release_background()

    def _forget(self, game_id: str) -> None:
        """Store a game's analysis as never asked for (``none``)."""
        self._store.submit(lambda store: store.analyses.forget_analysis(game_id))

    def _fail(self, game_id: str, reason: str) -> None:
        """Store a game's analysis as failed, and why."""
        log.warning("analysis of game %s failed: %s", game_id, reason)
        at = now_iso()
        self._store.submit(lambda store: store.analyses.fail_analysis(game_id, reason, at))

    async def _analyse(self, game_id: str) -> None:
        """Analyse one game and store its document."""
        record = await self._store.read(lambda store: store.archive.get(game_id))
        if record is None:
            raise LookupError("the game's record is not stored")
        points = list(await self._pool.background(self._steps.points, record))
        started = now_iso()
        self._store.submit(lambda store: store.analyses.start_analysis(game_id, len(points), started))
        self.progress = Progress(game_id, 0, len(points))
        judgements = []
        for done, point in enumerate(points, start=1):
            judgements.append(await self._pool.background(self._steps.judge, point, self._samples))
            self.progress = Progress(game_id, done, len(points))
        document = await self._pool.background(self._steps.document, record, judgements, self._samples)
        finished = now_iso()
        self._store.submit(lambda store: store.analyses.finish_analysis(game_id, document, finished))
        log.info("game %s analysed: %d decisions judged", game_id, len(points))
