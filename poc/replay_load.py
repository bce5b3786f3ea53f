#!/usr/bin/env python3
"""Replay load probe: does a table stay responsive while replays of 2 MiB uploads run?

Issue 33, finding 4: replays ran in threads of the server, and 20 uploads of 2 MiB at once
raised every table's ping from 3 ms to some 200 ms. This probe starts ``tichu-server`` as its
own process on loopback (the server's defaults, logging at WARNING to the console only), sits
at a table of its own and sends a ``ping`` every 100 ms (time to its ``pong``), while ``--batch``
(20) clients at once post a file of records just under 2 MiB (JSON Lines of random agents'
games, ``?index=`` its last record: the whole file is parsed and one game replayed) to
``POST /api/replay``, each again as soon as it is answered (after ``Retry-After`` when told 503,
as the replay viewer's page does), for ``--seconds``. With ``--route steps`` the records are
stored first (``tichu-import``) and the clients ask for their steps (``GET
/api/games/{id}/steps``, one game after another) instead. It reports the pings' median, 99th
percentile and maximum, a reference without the load, and the answers by status (200, or 503
when the replay processes and their queue are full).

Run: ``python -m poc.replay_load`` (about a minute; ``--route steps --batch 1`` for one
viewer of stored games). To measure another checkout's server,
put its ``src`` first: ``PYTHONPATH=/tmp/base/src python -m poc.replay_load``. Bounded in
time; loopback only; the server is stopped at the end. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import multiprocessing
import multiprocessing.queues
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

import tichu
from poc.latency import PING_EVERY, free_port, percentile
from tichu.arena.arena import Arena

#: The body's size at most: the server's bound on an upload (2 MiB).
BODY_BYTES = 2 << 20


def upload_body() -> tuple[bytes, int]:
    """A file of records (JSON Lines) of random agents' games, just under :data:`BODY_BYTES`,
    and the number of its records."""
    lines: list[bytes] = []
    size = 0
    seed = 1
    while True:
        found: list[dict[str, object]] = []
        Arena(["random"] * 4, games=4, seed=seed, workers=1, target_score=1000, records=True).run(
            on_record=found.append)
        for record in found:
            line = json.dumps(record, separators=(",", ":")).encode() + b"\n"
            if size + len(line) > BODY_BYTES:
                return b"".join(lines), len(lines)
            lines.append(line)
            size += len(line)
        seed += 1


def server_env(data_dir: str) -> dict[str, str]:
    """The server's environment: its defaults, the console log only, and the same ``tichu`` this
    probe imports (its folder first on ``PYTHONPATH``: the server runs in another working
    directory, where a relative ``PYTHONPATH`` would find another)."""
    code = str(Path(tichu.__file__).resolve().parents[1])
    return {**os.environ, "TICHU_DATA_DIR": data_dir, "TICHU_LOG_LEVEL": "WARNING", "TICHU_LOG_FILE": "0",
            "PYTHONPATH": os.pathsep.join([code, *filter(None, [os.environ.get("PYTHONPATH")])])}


def start_server(port: int, data_dir: str) -> subprocess.Popen[bytes]:
    """``tichu-server`` on loopback with the server's defaults (the console log only)."""
    server = subprocess.Popen([sys.executable, "-m", "tichu.cli.server", "--host", "127.0.0.1",
                               "--port", str(port)], env=server_env(data_dir), cwd=data_dir)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return server
        time.sleep(0.05)
    server.kill()
    raise RuntimeError("the server did not come up")


async def ping_for(ws: aiohttp.ClientWebSocketResponse, pong: asyncio.Queue[float], seconds: float) -> list[float]:
    """Ping every :data:`PING_EVERY` seconds for ``seconds``; the times to each pong (5 s at most)."""
    pings: list[float] = []
    ends = time.perf_counter() + seconds
    while time.perf_counter() < ends:
        began = time.perf_counter()
        await ws.send_str('{"type": "ping"}')
        with contextlib.suppress(TimeoutError):
            pings.append(await asyncio.wait_for(pong.get(), 5.0) - began)
        await asyncio.sleep(PING_EVERY)
    return pings


#: A request of the load: method, URL and body (``None`` for a ``GET``).
Request = tuple[str, str, bytes | None]


async def load_loop(requests: list[Request], clients: int, until: float, statuses: collections.Counter[int]) -> None:
    """``clients`` at once, each sending the next of ``requests`` as soon as the last is answered
    (after ``Retry-After`` seconds when told 503, as the replay viewer's page would), until ``until``."""
    async with aiohttp.ClientSession() as session:
        async def client(first: int) -> None:
            number = first
            while time.perf_counter() < until:
                method, url, body = requests[number % len(requests)]
                number += 1
                async with session.request(method, url, data=body, headers={"Accept-Encoding": "gzip"}) as response:
                    await response.read()
                    statuses[response.status] += 1
                    retry = float(response.headers.get("Retry-After", 0))
                await asyncio.sleep(retry)

        await asyncio.gather(*(client(first) for first in range(clients)))


def run_load(requests: list[Request], clients: int, seconds: float,
             answers: multiprocessing.queues.Queue[dict[int, int]]) -> None:
    """In the load's process (apart from the probe's, whose pings it would delay): the requests
    for ``seconds``; the answers by status go to ``answers``."""
    statuses: collections.Counter[int] = collections.Counter()
    asyncio.run(load_loop(requests, clients, time.perf_counter() + seconds, statuses))
    answers.put(dict(statuses))


async def measure(port: int, requests: list[Request], clients: int, seconds: float) -> None:
    """Ping without load for a reference, then under the load; print both."""
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as session, session.ws_connect(
            f"{base}/ws?player_name=Probe&table_name=probe-{os.getpid()}") as ws:
        pong = asyncio.Queue[float]()

        async def read() -> None:
            async for frame in ws:
                if frame.type == aiohttp.WSMsgType.TEXT and '"pong"' in frame.data:
                    pong.put_nowait(time.perf_counter())

        reader = asyncio.create_task(read())
        await asyncio.sleep(1.0)
        idle = await ping_for(ws, pong, min(10.0, seconds))
        context = multiprocessing.get_context("spawn")
        answers: multiprocessing.queues.Queue[dict[int, int]] = context.Queue()
        load = context.Process(target=run_load, args=([(method, base + url, body) for method, url, body in requests],
                                                      clients, seconds + 1.0, answers))
        load.start()
        await asyncio.sleep(1.0)
        loaded = await ping_for(ws, pong, seconds)
        statuses = await asyncio.to_thread(answers.get, True, 120)
        await asyncio.to_thread(load.join, 30)
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader
    for name, pings in (("no load", idle), (f"{clients} clients at once", loaded)):
        print(f"  {name}: ping n={len(pings)} median {statistics.median(pings) * 1000:.1f} ms, "
              f"p99 {percentile(pings, 0.99) * 1000:.1f} ms, max {max(pings) * 1000:.1f} ms")
    print(f"  answers: {dict(sorted(statuses.items()))}")
    print("target (ping p99 < 50 ms under load):", "met" if percentile(loaded, 0.99) < 0.05 else "missed")


def import_records(body: bytes, data_dir: str) -> list[str]:
    """Store the upload's records in the server's store (``tichu-import``); their ids."""
    path = Path(data_dir) / "records.jsonl"
    path.write_bytes(body)
    subprocess.run([sys.executable, "-m", "tichu.cli.import_games", "--db", str(Path(data_dir) / "tichu.sqlite3"),
                    str(path)], check=True, env=server_env(data_dir), stdout=subprocess.DEVNULL)
    return [json.loads(line)["id"] for line in body.splitlines()]


def main() -> int:
    """Build the upload, start the server, measure, stop the server."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds under load (default 30)")
    parser.add_argument("--batch", type=int, default=20, help="clients at once (default 20)")
    parser.add_argument("--route", choices=("upload", "steps"), default="upload",
                        help="upload: POST /api/replay; steps: GET /api/games/{id}/steps of the stored records")
    args = parser.parse_args()
    body, records = upload_body()
    print(f"{os.cpu_count()} cores; records: {len(body)} bytes, {records} records; "
          f"server from {Path(tichu.__file__).parent}; {args.route}")
    with tempfile.TemporaryDirectory() as data_dir:
        requests: list[Request] = [("POST", f"/api/replay?index={records - 1}", body)]
        if args.route == "steps":
            requests = [("GET", f"/api/games/{game_id}/steps", None) for game_id in import_records(body, data_dir)]
        port = free_port()
        server = start_server(port, data_dir)
        try:
            asyncio.run(measure(port, requests, args.batch, args.seconds))
        finally:
            server.terminate()
            server.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
