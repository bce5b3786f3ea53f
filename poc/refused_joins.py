#!/usr/bin/env python3
"""Memory over refused joins: does a server keep anything of a connection it refused?

Starts a server (``tichu-server`` of a checkout, ``bin/serve.py`` before issue 26, its own
process, loopback, the default settings but a temporary data folder), fills it to its table limit (``--tables`` clients,
each seated at a table of its own, connected to the end), then ``--parallel`` clients make
``--joins`` refused connections as fast as they can, each of one ``--kind``:

- ``table``: a join that would open a new table (``SERVER_BUSY``, the table limit);
- ``name``: a join with an empty player name (``INVALID_MESSAGE``);
- ``origin``: a join from a foreign ``Origin`` (HTTP 403, no WebSocket);
- ``busy``: a join to a full server (``TICHU_MAX_CONNECTIONS`` is set to ``--tables``).

It samples the server's resident memory (``VmRSS`` of ``/proc``) every second, from the
start through ``--after`` seconds after the last refusal, and prints a sample every
``--every`` seconds, then the start, peak, last-refusal and final figures and ``/healthz``.
Point ``--server`` at another checkout to compare two versions. Bounded in time; loopback
only. Nothing here is a test.

Run: ``.venv/bin/python -m poc.refused_joins --joins 50000``.
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


def resident_mib(pid: int) -> float:
    """A process's resident memory (``VmRSS``) in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def wait_until_up(base: str) -> None:
    """Wait until the server answers ``/healthz`` (at most 20 s)."""
    async with aiohttp.ClientSession() as session:
        for _ in range(200):
            try:
                async with session.get(f"{base}/healthz"):
                    return
            except aiohttp.ClientError:
                await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start")


async def refused(session: aiohttp.ClientSession, url: str, kind: str, index: int) -> None:
    """One refused join of ``kind``: connect, read until the server closes."""
    query = {"player_name": "" if kind == "name" else "Refused", "table_name": f"refused-{index}"}
    headers = {"Origin": "http://evil.example"} if kind == "origin" else {}
    try:
        async with session.ws_connect(url, params=query, headers=headers) as ws:
            async for message in ws:
                if message.type == aiohttp.WSMsgType.TEXT and json.loads(message.data).get("type") != "error":
                    raise RuntimeError(f"a {kind} join was not refused: {message.data[:200]}")
    except aiohttp.WSServerHandshakeError as error:
        if error.status != 403 or kind != "origin":
            raise


async def hold_seat(session: aiohttp.ClientSession, url: str, index: int, seated: asyncio.Event) -> None:
    """A client at a table of its own, reading (its reads answer the server's pings) until cancelled."""
    async with session.ws_connect(url, params={"player_name": "Holder", "table_name": f"held-{index}"}) as ws:
        async for message in ws:
            if "session_id" in json.loads(message.data).get("payload", {}).get("context", {}):
                seated.set()


async def sample(pid: int, samples: list[tuple[float, float]], start: float) -> None:
    """Append (seconds since ``start``, resident MiB) every second until cancelled."""
    while True:
        samples.append((time.monotonic() - start, resident_mib(pid)))
        await asyncio.sleep(1.0)


async def run(pid: int, base: str, args: argparse.Namespace) -> dict[str, object]:
    """Seat the holders, refuse ``--joins`` joins, wait ``--after`` s; the figures."""
    url = f"{base}/ws"
    samples: list[tuple[float, float]] = []
    async with aiohttp.ClientSession() as session:
        holders = []
        for index in range(args.tables):  # the server's table limit reached
            seated = asyncio.Event()
            holders.append(asyncio.create_task(hold_seat(session, url, index, seated)))
            await seated.wait()
        await asyncio.sleep(2.0)
        begin = time.monotonic()
        sampler = asyncio.create_task(sample(pid, samples, begin))
        start_mib = resident_mib(pid)
        next_index = 0

        async def client() -> None:
            nonlocal next_index
            async with aiohttp.ClientSession() as own:
                while next_index < args.joins:
                    next_index += 1
                    await asyncio.wait_for(refused(own, url, args.kind, next_index), 30)

        await asyncio.gather(*(client() for _ in range(args.parallel)))
        last = time.monotonic() - begin
        last_mib = resident_mib(pid)
        await asyncio.sleep(args.after)
        end_mib = resident_mib(pid)
        async with session.get(f"{base}/healthz") as answer:
            health = await answer.json()
        sampler.cancel()
        for holder in holders:
            holder.cancel()
        await asyncio.gather(*holders, return_exceptions=True)
    shown = [f"{seconds:.0f}s {mib:.1f}" for seconds, mib in samples if round(seconds) % args.every == 0]
    peak = max([mib for _, mib in samples] + [last_mib, end_mib])
    return {"start": start_mib, "peak": peak, "last_refusal": last_mib, "seconds": last, "end": end_mib,
            "healthz": health, "samples": ", ".join(shown)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--joins", type=int, default=50_000, help="refused joins (default 50,000)")
    parser.add_argument("--kind", choices=("table", "name", "origin", "busy"), default="table",
                        help="what refuses them (default: the table limit)")
    parser.add_argument("--tables", type=int, default=50, help="tables held open, the table limit (default 50)")
    parser.add_argument("--parallel", type=int, default=4, help="clients at once (default 4)")
    parser.add_argument("--after", type=float, default=30.0, help="seconds watched after the last (default 30)")
    parser.add_argument("--every", type=int, default=10, help="seconds between two printed samples (default 10)")
    parser.add_argument("--server", type=Path, default=ROOT, help="the checkout whose server to run")
    parser.add_argument("--python", type=Path, default=Path(sys.executable), help="the Python that runs it")
    args = parser.parse_args(argv)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        environ = {**os.environ, "TICHU_DATA_DIR": data, "TICHU_MAX_TABLES": str(args.tables)}
        if args.kind == "busy":
            environ["TICHU_MAX_CONNECTIONS"] = str(args.tables)
        server = subprocess.Popen([str(args.python), *tool(args.server, "serve", "server"), "--host", "127.0.0.1",
                                   "--port", str(port)], env=environ, cwd=data,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            asyncio.run(wait_until_up(base))
            figures = asyncio.run(run(server.pid, base, args))
        finally:
            server.terminate()
            server.wait(20)
    print(f"server {args.server}: {args.joins} refused joins ({args.kind}) in {figures['seconds']:.0f} s; "
          f"resident memory start {figures['start']:.1f} MiB, peak {figures['peak']:.1f} MiB, "
          f"at the last refusal {figures['last_refusal']:.1f} MiB, {args.after:.0f} s later {figures['end']:.1f} MiB; "
          f"/healthz then {figures['healthz']}")
    print(f"samples (seconds, MiB): {figures['samples']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
