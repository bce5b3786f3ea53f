"""Where the Arena's chunks of games are played: worker processes on this machine, or Ray.

Both runners take a chunk and hand back a way to wait for its summaries; the Arena keeps a
few chunks per worker in flight and consumes the results in game order, so a run gives the
same results whichever runner played it. Ray (``pip install tichu[cluster]``) is imported
only when a cluster is asked for; every node of the cluster needs this package installed.
"""

from __future__ import annotations

import importlib
import multiprocessing
import socket
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
        """A normal end (also an early stop): release the workers. The local pool lets the
        chunks in flight finish; Ray cancels them."""

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
    :meth:`close` unless Ray was already connected in this process; either way the tasks
    still running when the Arena stops (an early stop, an error) are cancelled.
    """

    def __init__(self, play: Callable[[J], R], address: str) -> None:
        try:
            self._ray: Any = importlib.import_module("ray")
        except ImportError as error:
            raise ClusterUnavailable("--cluster needs Ray: pip install 'tichu[cluster]'") from error
        self._owns_connection = not self._ray.is_initialized()
        if self._owns_connection:
            _check_reachable(address)
            try:
                self._ray.init(address=address, log_to_driver=False, logging_level="WARNING")
            except (ConnectionError, SystemExit) as error:  # Ray exits when it gives up on a cluster
                raise ClusterUnavailable(f"no Ray cluster at {address!r}: {error}") from error
        self.slots = max(1, int(self._ray.cluster_resources().get("CPU", 1)))
        self._remote = self._ray.remote(num_cpus=1)(play)
        self._running: set[Any] = set()

    def submit(self, job: J) -> Callable[[], R]:
        reference = self._remote.remote(job)
        self._running.add(reference)

        def result() -> R:
            self._running.discard(reference)
            found: R = self._ray.get(reference)
            return found

        return result

    def close(self) -> None:
        for reference in self._running:
            self._ray.cancel(reference, force=True)  # results nobody will read
        self._running.clear()
        if self._owns_connection:
            self._ray.shutdown()

    def abort(self) -> None:
        self.close()


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on an address where nothing listens (Ray itself retries for minutes).

    :raises ClusterUnavailable: If ``host:port`` refuses or does not answer in ``timeout`` s.
    """
    host, _, port = address.rpartition(":")
    if address == "auto" or "://" in address or not host or not port.isdigit():
        return  # "auto" and ray:// addresses: Ray finds the cluster itself
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as error:
        raise ClusterUnavailable(f"no Ray cluster at {address!r}: {error}") from error
