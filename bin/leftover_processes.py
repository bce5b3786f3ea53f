#!/usr/bin/env python3
"""List the processes a run left behind, and fail if there is one (Linux, from ``/proc``).

A run (``bin/test``, ``poc/chaos.py``) puts a mark in its environment, ``NAME=TOKEN``; every
process it starts inherits the mark, even one that has lost its parent since. This script
waits up to ``--wait`` seconds for the marked processes to end, then lists those still
running (pid, age, working folder, command line), ends them with SIGKILL if ``--kill``, and
exits with 1. With ``--root`` it also lists processes started since ``--since`` (seconds since
the epoch) whose command line or working folder lies in that folder (a process started with
an environment of its own). It never counts itself, its ancestors (the run that calls it),
zombies or kernel threads.

Run: ``bin/leftover_processes.py --mark TICHU_TEST_RUN=1234 --root . --since 1700000000``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")


@dataclass(frozen=True)
class Found:
    """A process still running: its id, age in seconds, working folder and command line."""

    pid: int
    age: float
    cwd: str
    command: str
    marked: bool


def _ancestors() -> set[int]:
    """This process and every process above it."""
    found, pid = set(), os.getpid()
    while pid > 0 and pid not in found:
        found.add(pid)
        try:
            pid = int((PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            break
    return found


def _boot_time() -> float:
    for line in (PROC / "stat").read_text().splitlines():
        if line.startswith("btime "):
            return float(line.split()[1])
    raise RuntimeError("no btime in /proc/stat")


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def scan(mark: bytes, root: str | None, since: float) -> list[Found]:
    """The running processes that carry ``mark`` in their environment, or (with ``root``) were
    started since ``since`` with their command line or working folder in ``root``."""
    skip, boot, ticks, now = _ancestors(), _boot_time(), os.sysconf("SC_CLK_TCK"), time.time()
    found = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit() or int(entry.name) in skip:
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            raw_command = (entry / "cmdline").read_bytes()
            environment = (entry / "environ").read_bytes()
            cwd = os.readlink(entry / "cwd")
        except (OSError, IndexError):
            continue  # gone meanwhile, or not ours to read
        if fields[0] == "Z" or not raw_command:
            continue
        command = raw_command.replace(b"\0", b" ").decode(errors="replace").strip()
        started = boot + int(fields[19]) / ticks
        marked = mark in environment.split(b"\0")
        in_root = root is not None and started >= since and (
            _inside(cwd, root) or any(_inside(word, root) for word in command.split()))
        if marked or in_root:
            found.append(Found(int(entry.name), now - started, cwd, command, marked))
    return found


def main(argv: list[str] | None = None) -> int:
    """Wait for the run's processes to end; list those left, and fail if there is one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mark", required=True, help="NAME=TOKEN that the run's processes have in their environment")
    parser.add_argument("--root", help="a folder: processes started in it, or running from it, count too")
    parser.add_argument("--since", type=float, default=0.0, help="with --root: only processes started since then")
    parser.add_argument("--wait", type=float, default=10.0, help="seconds to wait for them to end (default 10)")
    parser.add_argument("--kill", action="store_true", help="end the marked processes left (SIGKILL)")
    args = parser.parse_args(argv)
    if not PROC.joinpath("self", "environ").exists():
        print("leftover_processes: no /proc here; the check is skipped")
        return 0
    root = str(Path(args.root).resolve()) if args.root else None
    deadline = time.monotonic() + args.wait
    while (left := scan(args.mark.encode(), root, args.since)) and time.monotonic() < deadline:
        time.sleep(0.2)
    if not left:
        return 0
    print(f"leftover_processes: {len(left)} processes of the run still running {args.wait:.0f} s after it:",
          file=sys.stderr)
    for process in sorted(left, key=lambda found: found.pid):
        print(f"  {process.pid} (up {process.age:.0f} s, in {process.cwd}): {process.command[:300]}", file=sys.stderr)
        if args.kill and process.marked:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGKILL)
    if args.kill:
        print("leftover_processes: the marked ones were ended (SIGKILL)", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
