"""Where the Arena's chunks of games are played: worker processes on this machine, or Ray.

Both runners take a chunk and hand back a way to wait for its summaries; the Arena keeps a
few chunks per worker in flight and consumes the results in game order, so a run gives the
same results whichever runner played it. Ray (``pip install tichu[cluster]``) is imported
only when a cluster is asked for; every node of the cluster needs this package installed.
"""

from __future__ import annotations

import importlib
import multiprocessing
import sys
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

J = TypeVar("J")
R = TypeVar("R")
J_contra = TypeVar("J_contra", contravariant=True)
R_co = TypeVar("R_co", covariant=True)


class Runner(Protocol[J_contra, R_co]):
    """Plays chunks (jobs ``J`` with results ``R``) in parallel.

    :ivar slots: How many chunks run at once (worker processes, or the cluster's CPUs).
    """

    slots: int

    def submit(self, job: J_contra) -> Callable[[], R_co]:
        """Start a chunk; the returned function waits for its result."""

    def close(self) -> None:
        """Let the chunks in flight finish and release the workers (a normal end)."""

    def abort(self) -> None:
        """Stop at once (an error or an interrupt): chunks in flight are lost."""


class ProcessRunner(Generic[J, R]):
    """Worker processes on this machine (``fork`` on Linux, ``spawn`` elsewhere)."""

    def __init__(self, play: Callable[[J], R], workers: int) -> None:
        self.slots = workers
        self._play = play
        context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
        self._pool = context.Pool(workers)

    def submit(self, job: J) -> Callable[[], R]:
        return self._pool.apply_async(self._play, (job,)).get

    def close(self) -> None:
        """Finish normally (a terminated worker would lose its work, and its coverage data in tests)."""
        self._pool.close()
        self._pool.join()

    def abort(self) -> None:
        self._pool.terminate()
        self._pool.join()


class ClusterUnavailable(RuntimeError):
    """Ray is not installed, or no cluster answers at the address."""


class RayRunner(Generic[J, R]):
    """Chunks as Ray tasks on a cluster (``--cluster ADDRESS``, or ``auto`` for the cluster this
    machine belongs to, see ``ray start``). Connects on creation and disconnects on
    :meth:`close` unless Ray was already connected in this process.
    """

    def __init__(self, play: Callable[[J], R], address: str) -> None:
        try:
            self._ray: Any = importlib.import_module("ray")
        except ImportError as error:
            raise ClusterUnavailable("--cluster needs Ray: pip install 'tichu[cluster]'") from error
        self._owns_connection = not self._ray.is_initialized()
        if self._owns_connection:
            try:
                self._ray.init(address=address, log_to_driver=False, logging_level="WARNING")
            except ConnectionError as error:
                raise ClusterUnavailable(f"no Ray cluster at {address!r}: {error}") from error
        self.slots = max(1, int(self._ray.cluster_resources().get("CPU", 1)))
        self._remote = self._ray.remote(num_cpus=1)(play)

    def submit(self, job: J) -> Callable[[], R]:
        reference = self._remote.remote(job)
        return lambda: self._ray.get(reference)

    def close(self) -> None:
        if self._owns_connection:
            self._ray.shutdown()

    def abort(self) -> None:
        self.close()  # tasks in flight end with the driver's connection
