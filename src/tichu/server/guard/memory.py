"""Giving memory back (a server that runs for weeks on a Pi).

A closed table's objects are freed by reference counting; what a full collection alone
frees (cyclic garbage of sockets and requests) and what the C allocator keeps of freed
memory are given back by :func:`release_memory`: a full collection, then ``malloc_trim``
where the C library has it (glibc on Linux). It runs once the server has had no table for a
while, and after connections ended (:class:`Sweeper`).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
from collections.abc import Callable

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

log = logging.getLogger(__name__)

#: Seconds without a request ending after which the server sweeps (:class:`Sweeper`).
SWEEP_QUIET = 5.0
#: Requests that may end between two sweeps: one more and the server sweeps at once.
SWEEP_EVERY = 1000
#: Requests that may end between two collections of the young generations (:class:`Sweeper`).
YOUNG_EVERY = 50


def _trimmer() -> ctypes._NamedFuncPointer | None:
    """glibc's ``malloc_trim``, or ``None`` where the C library has none."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None


_MALLOC_TRIM = _trimmer()


def release_memory() -> int:
    """Collect all generations and return free heap memory to the operating system.

    :returns: The number of unreachable objects the collection found.
    """
    found = gc.collect()
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)
    log.debug("idle: %d unreachable objects collected, free memory returned", found)
    return found


class Sweeper:
    """Frees what ended requests and connections leave to the garbage collector, within a bound.

    Each connection is a reference cycle (aiohttp's request, protocol and WebSocket; the 3.11
    transport references itself), freed only by the collector. The server's raised collector
    thresholds (:func:`tichu.server.run.run`) almost never collect the oldest generation, and a
    connection that lived a few seconds (a game's, a browser's kept-alive one) ends there: kept
    until the server had no table for a while, without bound on a server that always has one.
    And a short connection's garbage, young, waited for 50,000 new objects (the threshold of
    the youngest generation): a pile that the C allocator does not give back once freed (a
    few survivors keep its arenas). So here the young generations are collected after every
    :data:`YOUNG_EVERY` requests (cheap: only what is new since), and the sweep
    (:func:`release_memory`) runs :data:`SWEEP_QUIET` seconds after the last request ended,
    or at once when :data:`SWEEP_EVERY` have ended since the last sweep; at most that many
    requests' garbage waits.

    :ivar ended_since: Requests ended since the last sweep.
    """

    def __init__(self, quiet: float = SWEEP_QUIET, every: int = SWEEP_EVERY, young_every: int = YOUNG_EVERY,
                 sweep: Callable[[], object] = release_memory,
                 collect_young: Callable[[], object] = lambda: gc.collect(1)) -> None:
        """Start with nothing to sweep.

        :param quiet: Seconds without a request ending before a sweep.
        :param every: Requests ended after which a sweep comes at once.
        :param young_every: Requests ended between two collections of the young generations.
        :param sweep: Frees all garbage (a test passes a counter).
        :param collect_young: Collects the young generations (a test passes a counter).
        """
        self.quiet = quiet
        self.every = every
        self.young_every = young_every
        self._sweep_now = sweep
        self._collect_young = collect_young
        self.ended_since = 0
        self._timer: asyncio.TimerHandle | None = None

    def ended(self) -> None:
        """A request ended (its connection may live on, or close a moment later)."""
        self.ended_since += 1
        if self._timer is not None:
            self._timer.cancel()
        if self.ended_since >= self.every:
            self._sweep()
            return
        if self.ended_since % self.young_every == 0:
            self._collect_young()
        self._timer = asyncio.get_running_loop().call_later(self.quiet, self._sweep)

    def _sweep(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.ended_since = 0
        self._sweep_now()

    def close(self) -> None:
        """Stop: no sweep after this (the server shuts down)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def sweep_after(sweeper: Sweeper) -> Middleware:
    """A middleware that tells the :class:`Sweeper` of every request that
    ended (a WebSocket's ends with its connection; a refused one, an HTTP error included)."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        finally:
            sweeper.ended()

    return middleware
