#!/usr/bin/env python3
"""Memory of an open lobby under joins and leaves (issue 33, finding 2).

Starts a server (``tichu-server`` of a checkout, its own process, loopback, random agents),
keeps a host in the lobby of one table, and has another client join that table and leave it
(``leave``, then the socket's close) ``--cycles`` times, one after the other. It reads the
server's resident memory (``VmRSS`` of ``/proc/<pid>/status``) after a warm-up of
``--warmup`` cycles (the first joins fill caches and the allocator's arenas once) and after
the churn, and prints the growth in all and per join. Point ``--server`` at another checkout
(with its own ``.venv``) to compare two versions. Bounded in time; loopback only. Nothing
here is a test (``tests/server/test_lobby_memory.py`` counts what the server keeps).

Run: ``.venv/bin/python -m poc.lobby_churn --cycles 3000``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from poc.memory_churn import free_port, memory_mib, wait_until_up
from poc.speed_vs_revision import tool

ROOT = Path(__file__).resolve().parents[1]
#: Seconds one join and leave may take at most (a loaded machine included).
CYCLE_TIMEOUT = 30.0


async def visit(session: aiohttp.ClientSession, url: str, name: str) -> None:
    """One client's visit: join the table, wait for its own ``player_joined``, leave, wait for the close."""
    async with session.ws_connect(f"{url}?player_name={name}&table_name=lobby") as ws:
        async for message in ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            payload = json.loads(message.data).get("payload", {})
            if "session_id" in payload.get("context", {}):
                await ws.send_str(json.dumps({"type": "leave"}))
                break
        async for _ in ws:
            pass  # until the server closes the socket


async def churn(url: str, pid: int, cycles: int, warmup: int) -> tuple[float, float]:
    """Keep a host in the lobby; ``warmup`` visits, then ``cycles`` visits. The resident memory
    (MiB) after the warm-up and after the churn."""
    async with aiohttp.ClientSession() as session:
        host = await session.ws_connect(f"{url}?player_name=Host&table_name=lobby", heartbeat=10.0)
        reading = asyncio.create_task(_drain(host))
        for cycle in range(warmup):
            await asyncio.wait_for(visit(session, url, f"Warm{cycle}"), CYCLE_TIMEOUT)
        await asyncio.sleep(1.0)
        before = memory_mib(pid, "VmRSS")
        for cycle in range(cycles):
            await asyncio.wait_for(visit(session, url, f"Guest{cycle}"), CYCLE_TIMEOUT)
        await asyncio.sleep(1.0)
        after = memory_mib(pid, "VmRSS")
        reading.cancel()
        await host.close()
    return before, after


async def _drain(ws: aiohttp.ClientWebSocketResponse) -> None:
    """Read the host's messages (the others' joins and leaves) so that its socket never backs up."""
    async for _ in ws:
        pass


def main(argv: list[str] | None = None) -> int:
    """Run the churn against a fresh server and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=3000, help="joins and leaves measured (default 3000)")
    parser.add_argument("--warmup", type=int, default=200, help="joins and leaves before the first reading")
    parser.add_argument("--server", type=Path, default=ROOT, help="the checkout whose server to run")
    args = parser.parse_args(argv)
    if args.cycles < 1 or args.warmup < 0:
        parser.error("--cycles must be at least 1 and --warmup at least 0")
    port = free_port()
    python = args.server / ".venv" / "bin" / "python"
    if not python.is_file():
        python = Path(sys.executable)
    with tempfile.TemporaryDirectory() as data:
        environ = {**os.environ, "PYTHONPATH": str(args.server / "src"), "TICHU_AGENT": "random",
                   "TICHU_HINTS": "off", "TICHU_AGENT_DELAY": "0", "TICHU_DATA_DIR": data,
                   "TICHU_LOG_LEVEL": "WARNING"}
        server = subprocess.Popen([str(python), *tool(args.server, "serve", "server"), "--host", "127.0.0.1",
                                   "--port", str(port)], env=environ, cwd=data)
        try:
            asyncio.run(wait_until_up(f"http://127.0.0.1:{port}/"))
            started = time.monotonic()
            before, after = asyncio.run(churn(f"http://127.0.0.1:{port}/ws", server.pid, args.cycles, args.warmup))
            seconds = time.monotonic() - started
        finally:
            server.terminate()
            server.wait(20)
    growth = after - before
    print(f"server {args.server}: {args.cycles} joins and leaves at an open lobby in {seconds:.0f} s "
          f"(after {args.warmup} to warm up); resident memory {before:.1f} -> {after:.1f} MiB, "
          f"growth {growth:+.1f} MiB ({growth * 1024 / args.cycles:+.2f} KiB a join)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
