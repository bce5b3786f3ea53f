#!/usr/bin/env python3
"""Memory after churn: does a server give its memory back once tables close?

Starts a server (``tichu-server`` of a checkout, ``bin/serve.py`` before issue 26, its own
process, loopback, random agents, a grace period of 1 s), then for ``--seconds`` keeps
``--parallel`` clients busy, each joining a new table, starting a game, waiting for its first
request and dropping the connection.
After the churn it waits until every table has closed (the grace period, then the close)
and reads the server's resident memory (Linux ``/proc``): at the start, at the peak and at
the end (after the server's clean-up when idle), with the number of joins. Point
``--server`` at another checkout to compare two versions side by side. Bounded in time;
loopback only. Nothing here is a test.

Run: ``.venv/bin/python -m poc.memory_churn --seconds 30``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from poc.speed_vs_revision import tool

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def memory_mib(pid: int, key: str) -> float:
    """A memory figure of a process in MiB (``VmRSS`` now, ``VmHWM`` the peak)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


async def join_and_drop(session: aiohttp.ClientSession, url: str, table: str) -> None:
    """One client's visit: join a new table, start the game, take the first request, drop."""
    async with session.ws_connect(f"{url}?player_name=Churn&table_name={table}") as ws:
        await ws.send_str(json.dumps({"type": "start_game"}))
        async for message in ws:
            if json.loads(message.data).get("type") == "request":
                break


async def churn(url: str, seconds: float, parallel: int) -> int:
    """Join and drop from ``parallel`` clients for ``seconds``; the number of joins."""
    deadline = time.monotonic() + seconds
    joins = 0

    async def worker(index: int) -> None:
        nonlocal joins
        async with aiohttp.ClientSession() as session:
            round_ = 0
            while time.monotonic() < deadline:
                await asyncio.wait_for(join_and_drop(session, url, f"churn-{index}-{round_}"), 30)
                joins += 1
                round_ += 1

    await asyncio.gather(*(worker(index) for index in range(parallel)))
    return joins


async def wait_until_up(url: str) -> None:
    """Wait until the server answers (at most 20 s)."""
    async with aiohttp.ClientSession() as session:
        for _ in range(200):
            try:
                async with session.get(url):
                    return
            except aiohttp.ClientError:
                await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to churn (default 30)")
    parser.add_argument("--parallel", type=int, default=8, help="clients at once (default 8)")
    parser.add_argument("--server", type=Path, default=ROOT, help="the checkout whose server to run")
    args = parser.parse_args(argv)
    port = free_port()
    python = args.server / ".venv" / "bin" / "python"
    with tempfile.TemporaryDirectory() as data:
        environ = {**os.environ, "TICHU_AGENT": "random", "TICHU_HINTS": "off", "TICHU_AGENT_DELAY": "0",
                   "TICHU_BOMB_WINDOW": "0", "TICHU_GRACE_PERIOD": "1", "TICHU_DATA_DIR": data,
                   "TICHU_LOG_LEVEL": "WARNING",
                   # the churn opens tables far faster than people do: the limits in all are raised
                   "TICHU_MAX_TABLES": "100000", "TICHU_MAX_CONNECTIONS": "100000"}
        server = subprocess.Popen([str(python), *tool(args.server, "serve", "server"), "--host", "127.0.0.1",
                                   "--port", str(port)], env=environ, cwd=data)
        try:
            asyncio.run(wait_until_up(f"http://127.0.0.1:{port}/"))
            time.sleep(1.0)
            start = memory_mib(server.pid, "VmRSS")
            joins = asyncio.run(churn(f"http://127.0.0.1:{port}/ws", args.seconds, args.parallel))
            time.sleep(9.0)  # the grace period, the tables' close, the idle clean-up (5 s), a beat
            end = memory_mib(server.pid, "VmRSS")
            peak = memory_mib(server.pid, "VmHWM")
        finally:
            server.terminate()
            server.wait(20)
    print(f"server {args.server}: {joins} joins and drops in {args.seconds:.0f} s; "
          f"resident memory start {start:.1f} MiB, peak {peak:.1f} MiB, end {end:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
