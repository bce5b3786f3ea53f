"""The :class:`AgentPool`: every agent decision of a server, computed in worker processes.

An agent's decision is plain computation (a Monte Carlo search takes up to a second); run
on the event loop, or in a thread that holds the GIL, it stalls every table, ping and page
of the server. The pool sends the decision to a bounded set of worker processes instead:
the worker gets a pickled copy of the agent and the frozen
:class:`~tichu.core.views.SeatView`, runs the decision, and sends back the answer with the
agent as it is afterwards. The caller adopts that state (its random generator, its caches),
so a seeded agent decides exactly as if it had decided in this process; a decision whose
caller gave up (a stale answer) is not adopted.

The workers start on the first decision (a server that never seats an agent starts no
process), from a fork server that has the agents imported (or by ``spawn`` where there is no
fork server; never by forking the running event loop). The workers are replaced after
:data:`TASKS_PER_WORKER` decisions each, on average, so a server that runs for weeks does not
keep a worker's grown heap: the pool hands the next decisions to a new executor and lets the
old one finish its own. (Not by ``max_tasks_per_child``: Python 3.11's executor then
sometimes replaces no worker at all, and the decisions queued there wait forever.)

At most the workers' count plus :data:`QUEUED_DECISIONS` decisions are handed to the
processes at a time; further callers wait their turn on the event loop. A decision's time
budget counts from the moment it was asked for (:attr:`~tichu.agents.agent.Agent.asked_at`),
so the time it waited for a worker is spent: while many tables' agents queue, each searches
for less, and no play waits for the budgets of all the searches before it. A worker that
dies (killed, out of memory) breaks the executor: it is replaced, and the decisions it took
are run once more on the new one.

**Background work.** Work that may wait (a game's analysis, :mod:`~tichu.server.workers.analysis_runner`)
runs by :meth:`AgentPool.background` in one process of its own, from the same fork server, at the
lowest CPU priority (niceness :data:`BACKGROUND_NICE`), one call at a time, and a call is handed
to it only while no live decision is in the pool (asked for and not answered): a live decision
never waits for a worker because of it, and the system gives the live workers the cores first.
:meth:`AgentPool.release_background` lets that process go when the work is done.

Every worker ends with the server, however the server ends (:mod:`~tichu.server.workers.lifeline`);
a worker ignores SIGINT (a Ctrl+C reaches the whole process group: the server stops its
workers itself). :meth:`AgentPool.shutdown` stops every worker of the pool, those of executors
let go earlier too, with a bound on each wait (:data:`STOP_SECONDS` for idle workers to
exit, then SIGTERM, then SIGKILL); the executors' threads, which the interpreter joins at
exit, then end as well.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar, TypeVarTuple

from tichu.server.workers.lifeline import end_with_parents

log = logging.getLogger(__name__)

T = TypeVar("T")
Args = TypeVarTuple("Args")

#: Decisions handed to the processes beyond one per worker, waiting there for a free worker;
#: further callers wait on the event loop (and a caller that gives up meanwhile costs nothing).
QUEUED_DECISIONS = 32
#: Decisions a worker process makes (on average) before it is replaced by a fresh one.
TASKS_PER_WORKER = 10_000

#: Times a decision is handed to the processes at most when a worker dies or none starts.
START_ATTEMPTS = 3
#: Seconds to wait before starting workers again after a start failed (a fork server just killed).
START_PAUSE = 0.2


class _StartFailed(Exception):
    """No worker could be started for a decision (the fork server is gone); it is tried again."""

#: Seconds an idle worker gets to exit by itself at shutdown; then a busy one gets as long
#: after SIGTERM before SIGKILL, and as long again for the kill and the executor's thread.
STOP_SECONDS = 1.0
#: The niceness of the background process by default (the lowest CPU priority: a live worker,
#: and anything else the machine runs, takes the core first).
BACKGROUND_NICE = 19
#: Modules the fork server imports once, so that a new worker starts with the agents (or the
#: replays' rules and records) loaded.
PRELOAD = ["tichu.agents.registry", "tichu.server.workers.agent_pool", "tichu.server.workers.replay_pool"]


def worker_count(setting: int) -> int:
    """The workers for the ``agent_workers`` setting: itself, or for 0 one per core but one
    (at least one), which leaves a core to the event loop (a Raspberry Pi 4 gets 3).

    :param setting: ``Settings.agent_workers``.
    :returns: The number of worker processes.
    """
    if setting > 0:
        return setting
    return max(1, (os.cpu_count() or 1) - 1)


def _worker_start() -> None:
    """First thing in a new worker: end with the server (and the fork server), and leave
    SIGINT to the server, which stops its workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parents()


def _background_start(niceness: int) -> None:
    """First thing in the background process: as a worker, and then a low CPU priority (by
    default the lowest, :data:`BACKGROUND_NICE`)."""
    _worker_start()
    os.nice(niceness)


def _decide(method: Callable[..., T], args: tuple[Any, ...], asked_at: float) -> tuple[T, object]:
    """In a worker: run the decision on the agent's copy, its time budget counted from
    ``asked_at`` (the wait for this worker is spent); return the answer and that copy."""
    agent = method.__self__  # type: ignore[attr-defined]  # a bound method of the agent
    agent.asked_at = asked_at
    try:
        return method(*args), agent
    finally:
        agent.asked_at = None


@dataclass(frozen=True)
class _Workers:
    """An executor's thread and worker processes, for the bounded stop and for checks.

    :ivar manager: The executor's thread (None if it never got a decision).
    :ivar processes: Its workers by process id (the executor's own dictionary: its thread
        removes a worker that exited).
    """

    manager: threading.Thread | None
    processes: dict[int, BaseProcess]

    @classmethod
    def of(cls, executor: ProcessPoolExecutor) -> _Workers:
        """Take the thread and the workers of an executor before its ``shutdown`` drops them.

        These are private attributes of ``concurrent.futures.process`` (Python 3.11 to 3.13):
        the executor has no public way to stop its workers within a bound.
        """
        manager: threading.Thread | None = getattr(executor, "_executor_manager_thread", None)
        processes: dict[int, BaseProcess] = getattr(executor, "_processes", None) or {}
        return cls(manager, processes)

    @property
    def done(self) -> bool:
        """Whether its thread and all its workers have ended."""
        return (self.manager is None or not self.manager.is_alive()) and not any(
            process.is_alive() for process in list(self.processes.values()))

    def stop(self, seconds: float) -> bool:
        """Stop the workers of an executor that was shut down: ``seconds`` for idle ones to
        exit by themselves, then SIGTERM, ``seconds`` to end, then SIGKILL; and wait for the
        thread (``seconds`` more at most). Runs in a thread of its own; never waits longer.

        :returns: Whether everything ended.
        """
        workers = list(self.processes.values())
        _join(workers, seconds)
        for process in workers:
            with contextlib.suppress(OSError, ValueError):  # already ended, or closed
                process.terminate()
        _join(workers, seconds)
        for process in workers:
            with contextlib.suppress(OSError, ValueError):
                if process.is_alive():
                    process.kill()
        _join(workers, seconds)
        if self.manager is not None:
            self.manager.join(seconds)
        return self.done


def _drop_outcome(outcome: asyncio.Future[Any]) -> None:
    """Take the outcome of a call nobody awaits any more (else asyncio logs its exception)."""
    if not outcome.cancelled():
        outcome.exception()


def process_context() -> multiprocessing.context.BaseContext:
    """How the pool (and the replay pool, :mod:`~tichu.server.workers.replay_pool`) starts
    processes: from a fork server that has :data:`PRELOAD` imported, or by ``spawn`` where there
    is none (never by forking the running event loop). One fork server serves both pools."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if context.get_start_method() == "forkserver":
        context.set_forkserver_preload(PRELOAD)
    return context


def _join(processes: list[BaseProcess], seconds: float) -> None:
    """Wait for the processes to end, ``seconds`` at most for all of them."""
    deadline = time.monotonic() + seconds
    for process in processes:
        with contextlib.suppress(ValueError):  # closed
            process.join(max(0.0, deadline - time.monotonic()))


class AgentPool:
    """A bounded pool of worker processes for agents' decisions (see the module docstring).

    :ivar workers: The number of worker processes.
    :ivar submitted: Decisions handed to the processes and not finished (running or queued there).
    :ivar live: Live decisions asked for and not yet answered (waiting for a slot included).
    """

    def __init__(self, workers: int, queued: int = QUEUED_DECISIONS, *, background_nice: int = BACKGROUND_NICE) -> None:
        """Make the pool; no process starts before the first decision.

        :param workers: Worker processes (at least one).
        :param queued: Decisions handed to the processes beyond one per worker.
        :param background_nice: The niceness of the background process (``TICHU_ANALYSIS_NICE``).
        """
        self.workers = max(1, workers)
        self._background_nice = background_nice
        self._slots = asyncio.Semaphore(self.workers + queued)
        self.submitted = 0
        self._executor: ProcessPoolExecutor | None = None
        self._handed = 0  # decisions handed to the current executor
        self._leaving: list[_Workers] = []  # executors let go whose workers may still run
        self._closed = False
        self.live = 0
        self._quiet = asyncio.Event()  # set while no live decision is asked for
        self._quiet.set()
        self._background: ProcessPoolExecutor | None = None

    @property
    def started(self) -> bool:
        """Whether the worker processes have been started (by a first decision)."""
        return self._executor is not None

    def _start(self) -> ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("the agent pool is shut down")
        if self._executor is None:
            context = process_context()
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_worker_start)
            self._handed = 0
            log.info("agent pool: up to %d worker processes (%s)", self.workers, context.get_start_method())
        return self._executor

    async def decide(self, method: Callable[..., T], *args: Any, pause: float = 0.0) -> T:
        """Run an agent's decision in a worker and adopt the agent's state after it.

        If the caller is cancelled first, the answer and the state are dropped. A caller
        still waiting for a slot never reaches the processes; a decision already handed to
        them runs to its end there, unused (cancelling it could leave Python 3.11's process
        pool hanging should a worker die next: it then fails the cancelled decision).

        :param method: A bound decision method of an agent (``agent.decide_play``); the agent
            and ``args`` must pickle.
        :param args: The decision's arguments (a frozen seat view, the legal plays...).
        :param pause: Seconds the decision takes at least (its computing time counts): the
            agent's state is adopted only at the end, so an answer that turns stale during
            the pause leaves the agent as it was.
        :returns: The decision's answer.
        :raises BaseException: What the decision raised.
        """
        agent = method.__self__  # type: ignore[attr-defined]  # checked by the worker anyway
        loop = asyncio.get_running_loop()
        started, asked_at = loop.time(), time.monotonic()
        self.live += 1
        self._quiet.clear()
        try:
            for attempt in range(1, START_ATTEMPTS + 1):
                try:
                    answer, after = await self._run(loop, method, args, asked_at)
                    break
                except (BrokenProcessPool, _StartFailed) as error:  # nothing was adopted: run it again
                    if attempt == START_ATTEMPTS:
                        raise
                    log.warning("agent pool: %s; starting new workers", "a worker died" if isinstance(
                        error, BrokenProcessPool) else f"no worker started ({error.__cause__!r})")
                    if isinstance(error, _StartFailed):
                        await asyncio.sleep(START_PAUSE)  # a fork server just killed is noticed a moment later
        finally:
            self.live -= 1
            if not self.live:
                self._quiet.set()
        left = pause - (loop.time() - started)
        if left > 0:
            await asyncio.sleep(left)
        vars(agent).update(vars(after))
        return answer

    async def _run(self, loop: asyncio.AbstractEventLoop, method: Callable[..., T],
                   args: tuple[Any, ...], asked_at: float) -> tuple[T, object]:
        """Hand a decision to the processes once a slot is free and await its answer and agent.

        :raises BrokenProcessPool: When a worker died (killed, out of memory); the broken
            executor is dropped first, so that the next decision starts new workers.
        """
        await self._slots.acquire()
        executor = None
        try:
            executor = self._start()
            future = executor.submit(_decide, method, args, asked_at)
        except BaseException as error:
            self._slots.release()
            if isinstance(error, (BrokenProcessPool, OSError, EOFError)) and executor is not None:
                self._let_go(executor, cancel=True)
            if isinstance(error, (OSError, EOFError)):  # the fork server is gone (killed): start anew
                raise _StartFailed from error
            raise
        self.submitted += 1
        self._handed += 1
        if self._handed >= self.workers * TASKS_PER_WORKER:
            self._let_go(executor, cancel=False)  # fresh workers for the next decisions
        future.add_done_callback(lambda _: self._release(loop))
        try:
            return await asyncio.shield(asyncio.wrap_future(future))  # see decide(): never cancel it
        except BrokenProcessPool:
            self._let_go(executor, cancel=True)
            raise

    async def background(self, function: Callable[[*Args], T], *args: *Args) -> T:
        """Run work that may wait (a step of an analysis) in the background process, at the
        lowest CPU priority, once no live decision is asked for; calls run one at a time, in the
        order they came (the caller awaits each). A decision asked for while it runs gets its
        worker as always.

        A caller cancelled meanwhile gets nothing; a call already handed to the process runs to
        its end there (see :meth:`decide`), or until :meth:`shutdown` stops the process.

        :param function: A function the process can import (its module's top level).
        :param args: Its arguments; they and its result must pickle.
        :returns: What ``function`` returns.
        :raises BaseException: What it raised; ``RuntimeError`` once the pool is shut down.
        """
        attempt = 1
        while True:
            try:
                return await self._run_background(function, args)
            except (BrokenProcessPool, _StartFailed) as error:  # nothing came of it: run it again
                if attempt == START_ATTEMPTS:
                    raise
                attempt += 1
                log.warning("agent pool: %s; starting a new background process", "the background process died"
                            if isinstance(error, BrokenProcessPool) else f"none started ({error.__cause__!r})")
                if isinstance(error, _StartFailed):
                    await asyncio.sleep(START_PAUSE)

    async def _run_background(self, function: Callable[[*Args], T], args: tuple[*Args]) -> T:
        """Hand a call to the background process once no live decision is asked for, and await it.

        :raises BrokenProcessPool: When the process died (it is let go first).
        :raises _StartFailed: When no process could be started (the fork server is gone).
        """
        while self.live:  # a decision asked for since the event was set also goes first
            await self._quiet.wait()
        executor = self._start_background()
        try:
            future = executor.submit(function, *args)
        except (BrokenProcessPool, OSError, EOFError) as error:
            self._let_go_background(cancel=True)
            raise _StartFailed from error
        outcome = asyncio.wrap_future(future)
        try:
            return await asyncio.shield(outcome)
        except asyncio.CancelledError:  # nobody wants the outcome (a stop): it is not worth a warning
            outcome.add_done_callback(_drop_outcome)
            raise
        except BrokenProcessPool:
            self._let_go_background(cancel=True)
            raise

    def _start_background(self) -> ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("the agent pool is shut down")
        if self._background is None:
            self._background = ProcessPoolExecutor(1, mp_context=process_context(), initializer=_background_start,
                                                   initargs=(self._background_nice,))
        return self._background

    def _let_go_background(self, *, cancel: bool) -> None:
        """Let the background process go (broken, or its work done); the next call starts a new one."""
        executor, self._background = self._background, None
        if executor is not None:
            self._leaving = [leaving for leaving in self._leaving if not leaving.done]
            self._leaving.append(_Workers.of(executor))
            executor.shutdown(wait=False, cancel_futures=cancel)

    def release_background(self) -> None:
        """Let the background process exit once its call is done (its memory goes back; the next
        :meth:`background` call starts a fresh one)."""
        self._let_go_background(cancel=False)

    def _let_go(self, executor: ProcessPoolExecutor, *, cancel: bool) -> None:
        """Let an executor go (broken, spent, or idle); the next decision starts a new one.
        Its workers end when its decisions are done, or at once if ``cancel`` (a broken
        executor); :meth:`shutdown` stops them should they still run then.
        """
        if self._executor is not executor:
            return
        self._executor = None
        self._leaving = [leaving for leaving in self._leaving if not leaving.done]
        self._leaving.append(_Workers.of(executor))
        executor.shutdown(wait=False, cancel_futures=cancel)

    def _release(self, loop: asyncio.AbstractEventLoop) -> None:
        """A decision left the processes (done, failed or cancelled): free its slot."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(self._free_slot)

    def _free_slot(self) -> None:
        self.submitted -= 1
        self._slots.release()

    async def shutdown(self) -> None:
        """Stop every worker of the pool, within a bound: queued decisions are cancelled,
        running ones are stopped (after :data:`STOP_SECONDS` for idle workers to exit by
        themselves: SIGTERM, then SIGKILL after as long again), and the executors' threads end.
        The waits run in a thread, off the event loop."""
        self._closed = True
        if self._executor is not None:
            self._let_go(self._executor, cancel=True)
        self._let_go_background(cancel=True)
        leaving, self._leaving = self._leaving, []
        if not leaving:
            return
        ended = await asyncio.gather(*(asyncio.to_thread(one.stop, STOP_SECONDS) for one in leaving))
        if all(ended):
            log.info("agent pool shut down")
        else:
            log.error("agent pool: %d of %d executors still had a worker or a thread after the stop",
                      ended.count(False), len(ended))

    def release_workers(self) -> bool:
        """Let the workers exit when no decision is out (a server without tables gives their
        memory back); the next decision starts new ones.

        :returns: Whether workers were let go.
        """
        executor = self._executor
        if executor is None or self.submitted:
            return False
        self._let_go(executor, cancel=False)
        log.info("agent pool: workers released while no table plays")
        return True

    def processes(self) -> list[int]:
        """The process ids of the live workers, those of executors let go included (for checks)."""
        executors = [*self._leaving, *(_Workers.of(executor) for executor in (self._executor, self._background)
                                       if executor is not None)]
        return [pid for workers in executors for pid, process in list(workers.processes.items())
                if process.is_alive()]


__all__ = ["AgentPool", "BACKGROUND_NICE", "QUEUED_DECISIONS", "STOP_SECONDS", "TASKS_PER_WORKER", "process_context",
           "worker_count"]
