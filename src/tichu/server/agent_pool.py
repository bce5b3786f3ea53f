"""The :class:`AgentPool`: every agent decision of a server, computed in worker processes.

An agent's decision is plain computation (a Monte Carlo search takes up to a second); run
on the event loop, or in a thread that holds the GIL, it stalls every table, ping and page
of the server. The pool sends the decision to a bounded set of worker processes instead:
the worker gets a pickled copy of the agent and the frozen
:class:`~tichu.engine.views.SeatView`, runs the decision, and sends back the answer with the
agent as it is afterwards. The caller adopts that state (its random generator, its caches),
so a seeded agent decides exactly as if it had decided in this process; a decision whose
caller gave up (a stale answer) is not adopted.

The workers start on the first decision (a server that never seats an agent starts no
process), from a fork server that has the agents imported (or by ``spawn`` where there is no
fork server; never by forking the running event loop). Each worker is replaced after
:data:`TASKS_PER_WORKER` decisions, so a server that runs for weeks does not keep a worker's
grown heap. At most the workers' count plus :data:`QUEUED_DECISIONS` decisions are handed to
the processes at a time; further callers wait their turn on the event loop. A decision's
time budget counts from the moment it was asked for
(:attr:`~tichu.agents.agent.Agent.asked_at`), so the time it waited for a worker is spent:
while many tables' agents queue, each searches for less, and no play waits for the budgets
of all the searches before it. A worker that dies (killed, out of memory) breaks the
executor: it is replaced, and the decisions it took are run once more on the new one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Decisions handed to the processes beyond one per worker, waiting there for a free worker;
#: further callers wait on the event loop (and a caller that gives up meanwhile costs nothing).
QUEUED_DECISIONS = 32
#: Decisions a worker process makes before it is replaced by a fresh one.
TASKS_PER_WORKER = 10_000
#: Modules the fork server imports once, so that a new worker starts with the agents loaded.
PRELOAD = ["tichu.agents.registry", "tichu.server.agent_pool"]


def worker_count(setting: int) -> int:
    """The workers for the ``agent_workers`` setting: itself, or for 0 one per core but one
    (at least one), which leaves a core to the event loop (a Raspberry Pi 4 gets 3).

    :param setting: ``Settings.agent_workers``.
    :returns: The number of worker processes.
    """
    if setting > 0:
        return setting
    return max(1, (os.cpu_count() or 1) - 1)


def _decide(method: Callable[..., T], args: tuple[Any, ...], asked_at: float) -> tuple[T, object]:
    """In a worker: run the decision on the agent's copy, its time budget counted from
    ``asked_at`` (the wait for this worker is spent); return the answer and that copy."""
    agent = method.__self__  # type: ignore[attr-defined]  # a bound method of the agent
    agent.asked_at = asked_at
    try:
        return method(*args), agent
    finally:
        agent.asked_at = None


class AgentPool:
    """A bounded pool of worker processes for agents' decisions (see the module docstring).

    :ivar workers: The number of worker processes.
    :ivar submitted: Decisions handed to the processes and not finished (running or queued there).
    """

    def __init__(self, workers: int, queued: int = QUEUED_DECISIONS) -> None:
        """Make the pool; no process starts before the first decision.

        :param workers: Worker processes (at least one).
        :param queued: Decisions handed to the processes beyond one per worker.
        """
        self.workers = max(1, workers)
        self._slots = asyncio.Semaphore(self.workers + queued)
        self.submitted = 0
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False

    @property
    def started(self) -> bool:
        """Whether the worker processes have been started (by a first decision)."""
        return self._executor is not None

    def _start(self) -> ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("the agent pool is shut down")
        if self._executor is None:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
            if context.get_start_method() == "forkserver":
                context.set_forkserver_preload(PRELOAD)
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context,
                                                 max_tasks_per_child=TASKS_PER_WORKER)
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
        try:
            answer, after = await self._run(loop, method, args, asked_at)
        except BrokenProcessPool:
            log.warning("agent pool: a worker died; starting new workers")
            answer, after = await self._run(loop, method, args, asked_at)  # nothing was adopted: run it again
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
            if isinstance(error, BrokenProcessPool) and executor is not None:
                self._drop(executor)
            raise
        self.submitted += 1
        future.add_done_callback(lambda _: self._release(loop))
        try:
            return await asyncio.shield(asyncio.wrap_future(future))  # see decide(): never cancel it
        except BrokenProcessPool:
            self._drop(executor)
            raise

    def _drop(self, executor: ProcessPoolExecutor) -> None:
        """Let a broken executor go (its decisions fail); the next decision starts a new one."""
        if self._executor is executor:
            self._executor = None
            executor.shutdown(wait=False, cancel_futures=True)

    def _release(self, loop: asyncio.AbstractEventLoop) -> None:
        """A decision left the processes (done, failed or cancelled): free its slot."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(self._free_slot)

    def _free_slot(self) -> None:
        self.submitted -= 1
        self._slots.release()

    def shutdown(self) -> None:
        """Stop the workers without waiting: queued decisions are cancelled, running ones
        are left to finish in their process, which then exits."""
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
            log.info("agent pool shut down")

    def release_workers(self) -> bool:
        """Let the workers exit when no decision is out (a server without tables gives their
        memory back); the next decision starts new ones.

        :returns: Whether workers were let go.
        """
        executor = self._executor
        if executor is None or self.submitted:
            return False
        self._executor = None
        executor.shutdown(wait=False)
        log.info("agent pool: workers released while no table plays")
        return True

    def processes(self) -> list[int]:
        """The process ids of the live workers (for checks)."""
        executor = self._executor
        found = getattr(executor, "_processes", None) or {}
        return [pid for pid, process in dict(found).items() if process.is_alive()]


__all__ = ["AgentPool", "QUEUED_DECISIONS", "TASKS_PER_WORKER", "worker_count"]
