#!/usr/bin/env python3
"""Latency benchmark: does one table stay responsive while the server is under agent load?

Starts ``tichu-server`` as its own process on loopback, then measures from a probe process,
for ``--seconds`` each, while one of these loads runs in another process:

- ``idle``: nothing else (the reference);
- ``abandon``: one client opens tables as fast as the server lets it, starts a game at each
  with agents in the empty seats and drops its connection (the careless user or the
  attacker of the issue: the server's table limits refuse the rest, abandoned games end
  after the grace period);
- ``montecarlo``: ``--mc-tables`` tables (20) where one bot client plays with three Monte
  Carlo agents (``TICHU_AGENT=montecarlo``, no agent delay: the agents think back to back);
- ``people``: ``--people-tables`` tables (4) where one scripted person (a bot that answers
  at once) plays with three agents of the server's default (``TICHU_AGENT`` unset: the level
  ``expert``), with the server's default agent delay (0.8 s) and bomb window (1.5 s): what
  people see. The load process reports, from its clients' logs, the time from the person's
  play (its response to a ``play`` request) to its next request, and each agent's turn (the
  time from one play or pass at the table to the next, the agent pause included), and the
  time from the table's last play or pass to each ``play`` request of the person (a finished
  trick's bomb window included), as median and 99th percentile. ``TICHU_AGENT_WORKERS`` in the
  environment reaches the server.

The probe sits alone at a table of its own and sends a ``ping`` every 100 ms (time to its
``pong``), and fetches ``GET /`` every 200 ms (time to the whole page). It reports the
median, the 99th percentile and the maximum of each.

Run: ``.venv/bin/python poc/latency.py`` (the first three loads, about a minute and a half;
``poc/latency.py --seconds 120 people`` for the people's view).
Bounded in time; loopback only; the server is stopped at the end. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import aiohttp

from tichu.client.bots import RandomBrain
from tichu.client.connection import TableClient
from tichu.client.messages import context_of, notification_of, request_of
from tichu.server.wire.incoming import Response
from tichu.server.wire.outgoing import NotificationPayload, PlayerIndex, PlayerPlayed

ROOT = Path(__file__).resolve().parents[1]

#: Seconds between two pings of the probe (within the message rate limit of 20 per second).
PING_EVERY = 0.1
#: The loads, in the order they run.
LOADS = ("idle", "abandon", "montecarlo", "people")
#: The loads run when none is named.
DEFAULT_LOADS = ("idle", "abandon", "montecarlo")
#: Seconds between two page loads of the probe.
PAGE_EVERY = 0.2


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


@dataclass
class Probe:
    """What the probe measured, in seconds."""

    pings: list[float]
    pages: list[float]
    lost_pings: int


async def probe(port: int, seconds: float, start_load: Callable[[], None]) -> Probe:
    """Sit at a table of one's own (before the load fills the server's tables), start the load,
    let it build up, then ping and load the page for ``seconds``."""
    pings: list[float] = []
    pages: list[float] = []
    lost = 0
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as session, session.ws_connect(
            f"{base}/ws?player_name=Probe&table_name=probe-{os.getpid()}") as ws:
        pong = asyncio.Queue[float]()

        async def read() -> None:
            async for frame in ws:
                if frame.type == aiohttp.WSMsgType.TEXT and '"pong"' in frame.data:
                    pong.put_nowait(time.perf_counter())

        async def load_pages() -> None:
            while True:
                began = time.perf_counter()
                async with session.get(f"{base}/") as response:
                    await response.read()
                pages.append(time.perf_counter() - began)
                await asyncio.sleep(PAGE_EVERY)

        start_load()
        await asyncio.sleep(2.0)
        reader = asyncio.create_task(read())
        pager = asyncio.create_task(load_pages())
        ends = time.perf_counter() + seconds
        while time.perf_counter() < ends:
            began = time.perf_counter()
            await ws.send_str('{"type": "ping"}')
            try:
                answered = await asyncio.wait_for(pong.get(), 5.0)
                pings.append(answered - began)
            except TimeoutError:
                lost += 1
            await asyncio.sleep(PING_EVERY)
        for task in (reader, pager):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, aiohttp.ClientError):
                await task
    return Probe(pings, pages, lost)


async def abandon_tables(port: int, seconds: float) -> tuple[int, int]:
    """Open tables as fast as allowed, start each game and drop; returns (opened, refused)."""
    opened = refused = 0
    ends = time.perf_counter() + seconds
    async with aiohttp.ClientSession() as session:
        index = 0
        while time.perf_counter() < ends:
            index += 1
            async with session.ws_connect(
                    f"http://127.0.0.1:{port}/ws?player_name=Gone&table_name=abandoned-{index}") as ws:
                first = await ws.receive_json(timeout=10)
                if first.get("type") == "error":
                    refused += 1
                    await asyncio.sleep(0.05)
                    continue
                await ws.send_str('{"type": "start_game"}')
                opened += 1
    return opened, refused


async def _play_tables(port: int, tables: int, seconds: float, prefix: str) -> list[TableClient]:
    """``tables`` tables (``<prefix>-N``), each one bot with three of the server's agents,
    played for ``seconds``; returns the bots (still connected), with what they sent and got."""
    clients = [TableClient(RandomBrain(seed=index)) for index in range(tables)]
    for index, client in enumerate(clients):
        await client.connect("127.0.0.1", port, player_name=f"Player{index}", table_name=f"{prefix}-{index}")
    runs = [asyncio.create_task(client.run(games=None, start_when=1)) for client in clients]
    await asyncio.sleep(seconds)
    for run in runs:
        run.cancel()
    await asyncio.gather(*runs, return_exceptions=True)
    return clients


async def monte_carlo_tables(port: int, tables: int, seconds: float) -> int:
    """``tables`` tables, each one bot with three Monte Carlo agents, for ``seconds``; returns
    the requests the bots answered."""
    clients = await _play_tables(port, tables, seconds, "mc")
    answered = sum(1 for client in clients for logged in client.sent if isinstance(logged.message, Response))
    for client in clients:
        with contextlib.suppress(Exception):
            await client.finish()
    return answered


@dataclass
class PeopleTimes:
    """What the ``people`` load measured, in seconds.

    :ivar to_request: From each of the person's plays to its next request.
    :ivar turns: Each agent's turn: one play or pass at the table to the next, within a trick.
    :ivar since_play: From the last play or pass at the table to each of the person's ``play``
        requests (a finished trick's bomb window included).
    :ivar answered: The requests the people answered.
    """

    to_request: list[float]
    turns: list[float]
    since_play: list[float]
    answered: int


def _since_last_play(client: TableClient) -> list[float]:
    """Seconds from the last ``player_played``/``player_passed`` the client received to each
    ``play`` request it got after one."""
    spans: list[float] = []
    last: float | None = None
    for entry in client.received:
        notification, request = notification_of(entry.message), request_of(entry.message)
        event = notification["event"] if notification is not None else None
        if event in ("player_played", "player_passed"):
            last = entry.time
        elif event == "round_started":
            last = None
        elif request is not None and request["action"] == "play" and last is not None:
            spans.append(entry.time - last)
    return spans


def _seat_of(notification: NotificationPayload) -> int:
    """The seat that played or passed."""
    if notification["event"] == "player_played":
        return cast(int, context_of(notification, PlayerPlayed)["turn"][0])  # Turn: [seat, cards, combination]
    return context_of(notification, PlayerIndex)["player_index"]


async def people_tables(port: int, tables: int, seconds: float) -> PeopleTimes:
    """``tables`` tables, each one scripted person with three default agents, for ``seconds``."""
    clients = await _play_tables(port, tables, seconds, "people")
    to_request: list[float] = []
    turns: list[float] = []
    since_play: list[float] = []
    answered = 0
    for client in clients:
        since_play += _since_last_play(client)
        asked = [(entry.time, request_of(entry.message)) for entry in client.received]
        actions = {request["request_id"]: request["action"] for _, request in asked if request is not None}
        requests = [moment for moment, request in asked if request is not None]
        for sent in client.sent:
            if not isinstance(sent.message, Response):
                continue
            answered += 1
            if actions.get(sent.message.request_id) == "play":
                later = [moment for moment in requests if moment > sent.time]
                if later:
                    to_request.append(later[0] - sent.time)
        own = client.player_index
        previous: float | None = None
        for entry in client.received:
            notification = notification_of(entry.message)
            event = notification["event"] if notification is not None else None
            if notification is not None and event in ("player_played", "player_passed"):
                seat = _seat_of(notification)
                if previous is not None and seat != own:
                    turns.append(entry.time - previous)
                previous = entry.time
            elif event is not None and event not in ("player_turn_changed", "pong", "player_announced"):
                previous = None  # a trick or round ended: the next turn starts afresh
    for client in clients:
        with contextlib.suppress(Exception):
            await client.finish()
    return PeopleTimes(to_request, turns, since_play, answered)


def _quantiles(values: list[float]) -> str:
    if not values:
        return "n=0"
    return (f"n={len(values)} median {statistics.median(values) * 1000:.0f} ms, "
            f"p99 {percentile(values, 0.99) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms")


def run_load(kind: str, port: int, seconds: float, tables: int) -> None:
    """The load of one scenario, in its own process (so that the probe's loop is not the load's)."""
    if kind == "abandon":
        opened, refused = asyncio.run(abandon_tables(port, seconds))
        print(f"  load: {opened} tables opened, started and abandoned; {refused} refused (SERVER_BUSY)")
    elif kind == "montecarlo":
        answered = asyncio.run(monte_carlo_tables(port, tables, seconds))
        print(f"  load: {tables} tables of a bot and three Monte Carlo agents; the bots answered {answered} requests")
    elif kind == "people":
        times = asyncio.run(people_tables(port, tables, seconds))
        print(f"  load: {tables} tables of a person and three default agents; "
              f"the people answered {times.answered} requests")
        print(f"  person's play -> its next request: {_quantiles(times.to_request)}")
        print(f"  an agent's turn (previous play or pass -> its play or pass): {_quantiles(times.turns)}")
        print(f"  the table's last play or pass -> the person's play request: {_quantiles(times.since_play)}")


def start_server(port: int, data_dir: str, agent: str | None) -> subprocess.Popen[bytes]:
    """``tichu-server`` on loopback with the server's defaults but the agent kind and no agent
    delay; with ``agent`` None, the server's defaults for both."""
    env = {**os.environ, "TICHU_DATA_DIR": data_dir, "TICHU_LOG_LEVEL": "WARNING"}
    for name in ("TICHU_AGENT", "TICHU_AGENT_DELAY", "TICHU_BOMB_WINDOW"):
        env.pop(name, None)
    if agent is not None:
        env.update({"TICHU_AGENT": agent, "TICHU_AGENT_DELAY": "0"})
    server = subprocess.Popen([sys.executable, "-m", "tichu.cli.server", "--host", "127.0.0.1",
                               "--port", str(port)], env=env, cwd=data_dir)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return server
        time.sleep(0.05)
    server.kill()
    raise RuntimeError("the server did not come up")


def scenario(kind: str, seconds: float, tables: int) -> Probe:
    """Start a server, run the load in a child process and the probe here; stop the server."""
    with tempfile.TemporaryDirectory() as data_dir:
        port = free_port()
        agent = {"montecarlo": "montecarlo", "people": None}.get(kind, "random")
        server = start_server(port, data_dir, agent)
        try:
            load = multiprocessing.get_context("spawn").Process(target=run_load, args=(kind, port, seconds + 2, tables))
            measured = asyncio.run(probe(port, seconds, load.start))
            load.join(timeout=seconds + 60)
            if load.is_alive():
                load.kill()
        finally:
            server.terminate()
            server.wait(timeout=30)
    return measured


def main() -> int:
    """Run the scenarios and print the probe's figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds the probe measures per load")
    parser.add_argument("--mc-tables", type=int, default=20, help="tables of Monte Carlo agents (default 20)")
    parser.add_argument("--people-tables", type=int, default=4,
                        help="tables of a person and three default agents (default 4)")
    parser.add_argument("loads", nargs="*", metavar="LOAD",
                        help="idle, abandon, montecarlo, people (default: the first three)")
    args = parser.parse_args()
    loads = args.loads or list(DEFAULT_LOADS)
    unknown = set(loads) - set(LOADS)
    if unknown:
        parser.error(f"unknown load {sorted(unknown)}; known: {', '.join(LOADS)}")
    print(f"{os.cpu_count()} cores; probe: a ping every {PING_EVERY * 1000:.0f} ms, GET / every "
          f"{PAGE_EVERY * 1000:.0f} ms, {args.seconds:.0f} s per load")
    failed = False
    for kind in loads:
        print(f"{kind}:")
        result = scenario(kind, args.seconds, args.people_tables if kind == "people" else args.mc_tables)
        ping_p99, page_p99 = percentile(result.pings, 0.99), percentile(result.pages, 0.99)
        print(f"  ping  n={len(result.pings)} median {statistics.median(result.pings) * 1000:.1f} ms, "
              f"p99 {ping_p99 * 1000:.1f} ms, max {max(result.pings) * 1000:.1f} ms, lost {result.lost_pings}")
        print(f"  page  n={len(result.pages)} median {statistics.median(result.pages) * 1000:.1f} ms, "
              f"p99 {page_p99 * 1000:.1f} ms, max {max(result.pages) * 1000:.1f} ms")
        failed |= ping_p99 > 0.05 or page_p99 > 0.2 or result.lost_pings > 0
    print("targets (ping p99 < 50 ms, page p99 < 200 ms):", "missed" if failed else "met")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
