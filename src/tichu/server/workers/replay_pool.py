"""The threads replays run in (:mod:`tichu.server.http.replay`), and the bound on how many run at once.

Parsing a record, replaying it through the rules and encoding the answer take a core for up to a
second; they run here, never on the event loop, :data:`MAX_REPLAYS` at a time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

#: Replays that may run at once (each takes a core for up to a second); more get 503.
MAX_REPLAYS = 2


class PoolBusy(RuntimeError):
    """Every thread of the pool runs a replay already (the HTTP API answers 503)."""


class ReplayPool:
    """The threads replays run in, and the bound on how many run at once.

    :ivar limit: Replays at once at most.
    :ivar busy: Replays running now.
    """

    def __init__(self, limit: int = MAX_REPLAYS) -> None:
        self.limit = limit
        self.busy = 0
        self._executor = ThreadPoolExecutor(max(1, limit), thread_name_prefix="replay")

    async def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` in a thread of the pool.

        :raises PoolBusy: If :attr:`limit` replays run already.
        """
        if self.busy >= self.limit:
            raise PoolBusy(f"{self.limit} replays run already")
        self.busy += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, work)
        finally:
            self.busy -= 1

    def shutdown(self) -> None:
        """Stop the threads (the running replays finish unwaited for)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
