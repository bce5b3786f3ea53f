#!/usr/bin/env python3
"""Load benchmark: many tables of ``tichu-client`` bots against one server on loopback.

Starts ``tichu-server`` as its own process (zero bomb window and agent delay), then plays
``--tables`` tables with four random bots each at once, one game per table. Reports the
server's CPU time per game, its resident memory (peak), and the median and 99th
percentile time from a client's response to the next request at its table.

Run: ``.venv/bin/python poc/load_test.py --tables 100``. Bounded: every game has a time
limit, and the server is stopped at the end. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tichu.client.bots import RandomBrain
from tichu.client.connection import TableClient, run_bot
from tichu.client.messages import request_of
from tichu.records.store import GameStore
from tichu.server.keys import STORE_FILE
from tichu.server.wire.incoming import Response

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_kib(pid: int, key: str) -> int:
    """A memory figure of a process in KiB (``VmRSS`` now, ``VmHWM`` the peak)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def latencies(clients: list[TableClient]) -> list[float]:
    """Seconds from each response sent at a table to the next request received there."""
    events: list[tuple[float, str]] = []
    for client in clients:
        events += [(logged.time, "response") for logged in client.sent if isinstance(logged.message, Response)]
        events += [(logged.time, "request") for logged in client.received if request_of(logged.message)]
    events.sort()
    waits = []
    last_response: float | None = None
    for moment, kind in events:
        if kind == "response":
            last_response = moment
        elif last_response is not None:
            waits.append(moment - last_response)
            last_response = None
    return waits


async def play_table(port: int, index: int, think: float, limit: float) -> list[TableClient]:
    """Four bots at one table; the first is the host and starts once all four are there."""
    table = f"load-{index}"
    host = run_bot("127.0.0.1", port, f"bot{index}-0", table, brain=RandomBrain(seed=4 * index, think=think),
                   start_when=4)
    await asyncio.sleep(0.05)
    others = [run_bot("127.0.0.1", port, f"bot{index}-{seat}", table,
                      brain=RandomBrain(seed=4 * index + seat, think=think)) for seat in (1, 2, 3)]
    return list(await asyncio.wait_for(asyncio.gather(host, *others), limit))


async def run_load(port: int, tables: int, think: float, limit: float) -> tuple[list[list[TableClient]], float]:
    """Play all tables at once; return their clients and the wall time."""
    started = time.perf_counter()
    results = await asyncio.gather(*(play_table(port, index, think, limit) for index in range(tables)),
                                   return_exceptions=True)
    elapsed = time.perf_counter() - started
    finished = [result for result in results if isinstance(result, list)]
    failures = [result for result in results if not isinstance(result, list)]
    if failures:
        print(f"{len(failures)} tables failed, e.g. {failures[0]!r}")
    return finished, elapsed


def main() -> int:
    """Start the server, run the load, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="tables playing at once (default 100)")
    parser.add_argument("--think", type=float, default=0.0, help="seconds each bot waits before answering")
    parser.add_argument("--target", type=int, default=1000, help="target score of each game (default 1000)")
    parser.add_argument("--limit", type=float, default=900.0, help="seconds a table may take at most")
    args = parser.parse_args()
    gc.freeze()  # the bots' own collection pauses would count as the server's latency
    gc.set_threshold(50_000, 50, 1000)
    port = free_port()
    with tempfile.TemporaryDirectory() as data_dir:
        env = {**os.environ, "TICHU_BOMB_WINDOW": "0", "TICHU_AGENT_DELAY": "0", "TICHU_LOG_LEVEL": "WARNING",
               "TICHU_DATA_DIR": data_dir, "TICHU_TARGET_SCORE": str(args.target),
               # more tables and connections than a Pi's defaults allow (docs/server.md, "Limits"),
               # and no rate limit shaping the figures; per address, loopback is exempt
               "TICHU_MAX_CONNECTIONS": str(8 * args.tables), "TICHU_MAX_TABLES": str(2 * args.tables),
               "TICHU_MESSAGE_RATE": "1000", "TICHU_MESSAGE_BURST": "1000"}
        server = subprocess.Popen([sys.executable, "-m", "tichu.cli.server", "--host", "127.0.0.1",
                                   "--port", str(port)], env=env, cwd=data_dir)
        try:
            _wait_for_port(port)
            idle_rss = memory_kib(server.pid, "VmRSS")
            cpu_before = cpu_seconds(server.pid)
            clients_before = cpu_seconds(os.getpid())
            finished, elapsed = asyncio.run(run_load(port, args.tables, args.think, args.limit))
            cpu = cpu_seconds(server.pid) - cpu_before
            clients_cpu = cpu_seconds(os.getpid()) - clients_before
            peak_rss = memory_kib(server.pid, "VmHWM")
        finally:
            server.terminate()
            server.wait(timeout=30)
        store = GameStore(Path(data_dir) / STORE_FILE)
        games = sum(1 for record in store.archive.records() if not record.get("aborted"))
        store.close()
    waits = sorted(wait for clients in finished for wait in latencies(clients))
    p99 = waits[min(len(waits) - 1, int(0.99 * len(waits)))] if waits else float("nan")
    print(f"tables {args.tables} x 4 bots, think {args.think} s, target {args.target}: "
          f"{len(finished)} tables finished, {games} games recorded, {elapsed:.1f} s wall")
    print(f"server CPU {cpu:.1f} s in all ({cpu / elapsed:.0%} of a core), {cpu / max(games, 1) * 1000:.0f} ms "
          f"per game; the bots' process {clients_cpu:.1f} s ({clients_cpu / elapsed:.0%} of a core)")
    print(f"server memory: {idle_rss / 1024:.1f} MiB idle, {peak_rss / 1024:.1f} MiB peak resident")
    print(f"response -> next request: median {statistics.median(waits) * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms over {len(waits)} requests")
    return 0


def _wait_for_port(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError("the server did not start")


if __name__ == "__main__":
    sys.exit(main())
