"""Processes of the machine as the tests see them, from ``/proc`` (Linux): a server's children,
its agent pool's fork server and workers, whether they still run.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterable
from pathlib import Path

PROC = Path("/proc")


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state first), or None if gone."""
    try:
        return (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie, ended but not yet reaped, does not)."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def parent_of(pid: int) -> int | None:
    """The parent process id, or None if the process is gone."""
    fields = _stat(pid)
    return int(fields[1]) if fields is not None else None


def command_line(pid: int) -> str:
    """The command line, its arguments joined by spaces ("" if gone or a kernel thread)."""
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds the process has used (0 if gone)."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The running processes whose parent is ``pid``."""
    found = []
    for entry in PROC.iterdir():
        if entry.name.isdigit() and parent_of(int(entry.name)) == pid and alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def descendants(pid: int) -> list[int]:
    """The running processes below ``pid``: children, their children, and so on."""
    found: list[int] = []
    todo = [pid]
    while todo:
        below = children(todo.pop())
        found += below
        todo += below
    return found


def fork_servers(server: int) -> list[int]:
    """The multiprocessing fork servers that ``server`` started (its agent pool's)."""
    return [pid for pid in children(server) if "multiprocessing.forkserver" in command_line(pid)]


def pool_workers(server: int) -> list[int]:
    """The agent pool's worker processes of ``server`` (the children of its fork servers)."""
    return [pid for fork_server in fork_servers(server) for pid in children(fork_server)]


async def until_gone(pids: Iterable[int], timeout: float) -> list[int]:
    """Wait until none of the processes runs, ``timeout`` seconds at most.

    :returns: Those still running then (empty when all ended in time).
    """
    waiting = list(pids)
    deadline = time.monotonic() + timeout
    while (waiting := [pid for pid in waiting if alive(pid)]) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return waiting
