"""Worker processes that end with the processes that made them.

A worker of the agent pool blocks on its task queue, and it holds that queue's writing end
itself, so it never sees the server go: after a ``kill -9`` of the server (or of a test
process) it would wait for work forever, and so would the pool's fork server, which stays up
as long as any worker holds its "alive" pipe. :func:`end_with_parents`, called first thing in
every worker, ties the worker's life to its makers:

- **to the server** (the process that asked for it, :func:`multiprocessing.parent_process`):
  a daemon thread waits on the parent's sentinel, a pipe whose other end only the server
  holds, and ends the worker the moment the pipe closes (the server exited or died, however);
- **to the fork server** (its direct parent, on Linux): ``prctl(PR_SET_PDEATHSIG, SIGKILL)``
  kills the worker when the fork server dies, so a killed fork server takes its workers with
  it instead of leaving them to block (the pool then starts new ones).

The fork server ends by itself once the server and every worker are gone (its "alive" pipe
closes), so nothing of a pool outlives its server.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from multiprocessing.process import BaseProcess

#: ``prctl`` option: the signal a process receives when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1
#: The exit status of a worker whose server went away.
ORPHANED = 3
#: The process that imported this module: in a worker forked by the fork server (which
#: imports it beforehand), the fork server, its parent.
_LOADED_IN = os.getpid()


def end_with_parents() -> None:
    """Make this process end when the process that started it (through the fork server or
    not) is gone, and on Linux when its direct parent dies. Called first in a new worker; a
    worker whose server is already gone then exits at once.
    """
    if sys.platform.startswith("linux") and _die_with_direct_parent():
        forked_by = _LOADED_IN if os.getpid() != _LOADED_IN else None
        if forked_by is not None and os.getppid() != forked_by:  # it died before prctl took effect
            os._exit(ORPHANED)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_when_gone, args=(parent,), name="lifeline", daemon=True).start()


def _die_with_direct_parent() -> bool:
    """``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills this process when its parent
    (the thread that forked it) ends. A refusal (a seccomp filter) is no failure: the watch
    on the server still ends the worker.

    :returns: Whether the kernel took it.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    taken: bool = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    return taken


def _exit_when_gone(parent: BaseProcess) -> None:
    """Wait until the parent's sentinel closes (it exited, or was killed), then end this process
    without cleanup: nobody is left to take its results."""
    parent.join()
    os._exit(ORPHANED)


__all__ = ["ORPHANED", "end_with_parents"]
