"""Giving memory back when the server is idle (a server that runs for weeks on a Pi).

A closed table's objects are freed by reference counting; what a full collection alone
frees (cyclic garbage of sockets and requests) and what the C allocator keeps of freed
memory are given back here, once the server has had no table for a while: a full
collection, then ``malloc_trim`` where the C library has it (glibc on Linux).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging

log = logging.getLogger(__name__)


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
