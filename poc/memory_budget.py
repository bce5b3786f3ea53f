#!/usr/bin/env python3
"""Memory budget: the server's resident memory idle, per active table, and after the tables close.

For each agent kind (``--agents``, default ``random`` and ``heuristic``) the script starts the
real server (``tichu-server``, its own process, ``127.0.0.1``, a free port, its own temporary
data folder, ``TICHU_AGENT`` set to the kind) and reads its resident memory (``Pss`` of
``/proc/<pid>/smaps_rollup``, summed over the server and all its descendant processes: the
agents think in the agent pool's worker processes, forked from a fork server, and the
proportional size counts the pages they share once):

1. idle, a moment after the start;
2. with ``--tables`` active tables: each has one bot client (``tichu.client``, the library of
   ``tichu-client``, a ``RandomBrain`` that answers after about ``--think`` seconds) that
   starts the game at once, and three of the server's agents (they pause ``--agent-delay``
   seconds before acting, no bomb window; hints on); the games are played to a score
   no game reaches, so every table stays active; memory is sampled every half second for
   ``--seconds``, and the peak of the samples counts;
3. after the tables closed: the bots leave, the server closes each table one grace period
   later (``TICHU_GRACE_PERIOD`` is 1 s here) and gives memory back 5 s after the last one
   closed (``tichu.server.guard.memory``); read 9 s after the bots left.

Per active table = (with N tables - idle) / N. Bounded in time (about ``--seconds`` + 15 s per
kind); loopback only. Nothing here is a test.

Run: ``.venv/bin/python poc/memory_budget.py --tables 20 --seconds 30``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from tichu.client.bots import RandomBrain
from tichu.client.connection import TableClient

ROOT = Path(__file__).resolve().parents[1]

#: Seconds a dropped table is kept before it closes (the server's grace period, set short here).
GRACE = 1.0
#: Seconds from the bots' leaving to the last reading: the grace period, the table's close, the
#: server's idle clean-up 5 s after that, and a margin.
SETTLE = 9.0


def free_port() -> int:
    """A free TCP port on loopback.

    :returns: The port.
    """
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def descendants(pid: int) -> list[int]:
    """A process and all its descendants (children, grandchildren...), from ``/proc``.

    :param pid: The root process.
    :returns: ``pid`` and the ids of its living descendants.
    """
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            parents.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(parents.get(current, []))
    return found


def rss_kib(pid: int) -> int:
    """Proportional resident memory of one process (``Pss`` of ``/proc/<pid>/smaps_rollup``: a
    page shared by n processes counts 1/n in each, so the sum over the server and the agent
    pool's processes, forked from one another, counts every page once) in KiB; 0 once it is gone.

    :param pid: The process.
    :returns: The proportional set size in KiB.
    """
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    return 0


def tree_rss_mib(pid: int) -> tuple[float, int]:
    """Resident memory of a process and its descendants, summed.

    :param pid: The root process.
    :returns: The sum in MiB and the number of processes.
    """
    processes = descendants(pid)
    return sum(rss_kib(process) for process in processes) / 1024, len(processes)


@dataclass
class Budget:
    """The readings of one server (all in MiB).

    :ivar agent: The agent kind of the empty seats.
    :ivar tables: Tables active during the play.
    :ivar idle: Resident memory idle after the start.
    :ivar active: Peak of the readings with the tables active.
    :ivar after: After the tables closed and the server's idle clean-up.
    :ivar processes: Most processes seen in the server's tree.
    :ivar requests: Requests the bots answered during the play.
    :ivar open_after: Tables still open at the last reading (``/healthz``; 0 when all closed).
    """

    agent: str
    tables: int
    idle: float
    active: float
    after: float
    processes: int
    requests: int
    open_after: int

    @property
    def per_table(self) -> float:
        """(Active - idle) / tables, in MiB."""
        return (self.active - self.idle) / self.tables


async def wait_until_up(port: int, timeout: float = 30.0) -> None:
    """Wait until the server accepts connections.

    :param port: Its port on loopback.
    :param timeout: Seconds to wait at most.
    :raises RuntimeError: If it does not come up in time.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        writer.close()
        return
    raise RuntimeError("the server did not start")


async def play_and_measure(pid: int, port: int, tables: int, seconds: float, think: float) -> tuple[float, int, int]:
    """Seat one bot at each of ``tables`` tables, let them play, sample memory, then leave.

    :param pid: The server's process.
    :param port: Its port.
    :param tables: Tables to open.
    :param seconds: Seconds to play and sample.
    :param think: Mean seconds a bot waits before answering.
    :returns: The peak sampled memory (MiB), the most processes seen and the requests answered.
    """
    clients = [TableClient(RandomBrain(seed=index, think=think)) for index in range(tables)]
    for index, client in enumerate(clients):
        await client.connect("127.0.0.1", port, player_name=f"Budget {index}", table_name=f"budget-{index}")
    runs = [asyncio.create_task(client.run(start_when=1)) for client in clients]
    peak, processes = 0.0, 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(0.5)
        memory, count = tree_rss_mib(pid)
        peak, processes = max(peak, memory), max(processes, count)
    stopped = [run for run in runs if run.done()]
    if stopped:
        raise RuntimeError(f"{len(stopped)} bots stopped during the play, e.g. {stopped[0]!r}")
    requests = sum(1 for client in clients for logged in client.received if logged.message.get("type") == "request")
    for run in runs:
        run.cancel()
    await asyncio.gather(*runs, return_exceptions=True)
    await asyncio.gather(*(client.finish() for client in clients), return_exceptions=True)
    return peak, processes, requests


async def open_tables(port: int) -> int:
    """The tables the server has open, from ``/healthz``.

    :param port: Its port on loopback.
    :returns: The ``tables`` figure.
    """
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/healthz") as response:
        health = await response.json()
    return int(health["tables"])


def measure(agent: str, tables: int, seconds: float, think: float, agent_delay: float) -> Budget:
    """Start a server with ``agent`` in the empty seats and take its readings.

    :param agent: The agent kind (``TICHU_AGENT``).
    :param tables: Tables to keep active.
    :param seconds: Seconds of play.
    :param think: Mean seconds a bot waits before answering.
    :param agent_delay: Seconds the agents pause before they act (``TICHU_AGENT_DELAY``).
    :returns: The readings.
    """
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="tichu-budget-") as data:
        environ = {**os.environ, "TICHU_AGENT": agent, "TICHU_DATA_DIR": data, "TICHU_LOG_LEVEL": "WARNING",
                   "TICHU_GRACE_PERIOD": str(GRACE),
                   "TICHU_AGENT_DELAY": str(agent_delay), "TICHU_BOMB_WINDOW": "0", "TICHU_TARGET_SCORE": "1000000",
                   "TICHU_MAX_TABLES": str(max(50, 2 * tables)),
                   "TICHU_MAX_CONNECTIONS": str(max(200, 2 * tables))}
        server = subprocess.Popen([sys.executable, "-m", "tichu.cli.server", "--host", "127.0.0.1",
                                   "--port", str(port)], env=environ, cwd=data)
        try:
            asyncio.run(wait_until_up(port))
            time.sleep(2.0)
            idle, _ = tree_rss_mib(server.pid)
            active, processes, requests = asyncio.run(play_and_measure(server.pid, port, tables, seconds, think))
            time.sleep(SETTLE)
            after, _ = tree_rss_mib(server.pid)
            open_after = asyncio.run(open_tables(port))
        finally:
            server.terminate()
            server.wait(30)
    return Budget(agent, tables, idle, active, after, processes, requests, open_after)


def main(argv: list[str] | None = None) -> int:
    """Measure each agent kind and print the table.

    :param argv: The arguments (default: ``sys.argv[1:]``).
    :returns: The exit code.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help="active tables (default 20)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of play per kind (default 30)")
    parser.add_argument("--think", type=float, default=0.3, help="mean seconds a bot takes to answer (default 0.3)")
    parser.add_argument("--agent-delay", type=float, default=0.1,
                        help="seconds the agents pause before acting (default 0.1; the server's own is 0.8)")
    parser.add_argument("--agents", default="random,heuristic",
                        help="comma-separated agent kinds of the empty seats (default random,heuristic)")
    args = parser.parse_args(argv)
    # The random bots bomb at random moments; the server refuses the late ones (304, 305), and the
    # client library logs each refusal as a warning: noise here.
    logging.getLogger("tichu.client.connection").setLevel(logging.ERROR)
    budgets = [measure(agent.strip(), args.tables, args.seconds, args.think, args.agent_delay)
               for agent in args.agents.split(",")]
    command = shlex.join([".venv/bin/python", "poc/memory_budget.py", *(sys.argv[1:] if argv is None else argv)])
    print(f"command: {command}")
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores; "
          "memory = Pss of the server and its children (shared pages counted once)")
    print()
    print("| agents | tables | idle | with the tables (peak) | per active table | after close (tables open) "
          "| processes | requests answered |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for budget in budgets:
        print(f"| {budget.agent} | {budget.tables} | {budget.idle:.1f} MiB | {budget.active:.1f} MiB "
              f"| {budget.per_table:.2f} MiB | {budget.after:.1f} MiB ({budget.open_after}) | {budget.processes} "
              f"| {budget.requests:,} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
