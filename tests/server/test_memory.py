"""Memory that comes back: a closed table leaves no object behind, a refused connection's garbage
is swept (a server that runs for weeks).

The server raises the garbage collector's thresholds (fewer pauses under load), so objects
that only a collection could free would stay for a long time: a table, its engine, rounds,
peers and agents must be freed by reference counting alone once the table closes. The test
runs with the collector off, so anything held only by a reference cycle shows.
"""

from __future__ import annotations

import asyncio
import gc
from collections import Counter

import pytest

from tests.support.live_server import WAIT
from tests.support.raw_client import StartServer
from tichu.core.round import Round
from tichu.engine.engine import GameEngine
from tichu.server.guard import memory as memory
from tichu.server.keys import SWEEPER
from tichu.server.tables import factory as factory_module
from tichu.server.tables.agent_seat import ServerAgent
from tichu.server.tables.peer import Peer
from tichu.server.tables.table import Table
from tichu.server.wire.connection import Connection, WebSocket

WATCHED = (Table, GameEngine, Round, Peer, ServerAgent, Connection)


def live_objects() -> Counter[str]:
    """How many objects of the watched classes exist (tracked by the collector)."""
    return Counter(type(obj).__name__ for obj in gc.get_objects() if isinstance(obj, WATCHED))


async def test_closed_tables_leave_nothing_behind(start_server: StartServer) -> None:
    """Tables that played, that were abandoned mid-game, that stayed in the lobby and whose
    client dropped, two of them watched by a spectator: once closed, no table, engine, round,
    peer, agent or connection is left, without a garbage collection."""
    server = await start_server()
    sweeper = server.app[SWEEPER]  # its collections would hide a cycle: none during this test
    sweeper.quiet, sweeper.every, sweeper.young_every = 1e9, 10**9, 10**9
    gc.collect()
    before = live_objects()
    gc.disable()
    try:
        async with asyncio.timeout(WAIT * 3):
            for index in range(6):
                client = await server.join(f"P{index}", f"table {index}", seed=index)
                if index < 2:  # a spectator too: it goes with its table
                    watcher = await server.raw(f"table_name=table+{index}&spectate=1")
                    await watcher.wait_event("spectate_started")
                if index % 3 != 2:
                    await client.send_type("start_game")
                    await client.play(until="trick_taken")
                if index % 2:
                    await client.drop()
                else:
                    await client.send_type("leave")
                    await client.wait_closed()
            while server.factory.tables:
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)
            left = live_objects() - before
        assert not left, f"objects left after the tables closed: {dict(left)}"
    finally:
        gc.enable()


async def test_an_idle_server_gives_memory_back(start_server: StartServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the last table has closed and no table opened for a while, the server collects its
    garbage and returns free memory to the system; a table opened meanwhile puts that off."""
    calls: list[float] = []
    monkeypatch.setattr(factory_module, "IDLE_CLEANUP_SECONDS", 0.2)
    monkeypatch.setattr(factory_module, "release_memory", lambda: calls.append(asyncio.get_running_loop().time()))
    server = await start_server()
    async with asyncio.timeout(WAIT):
        first = await server.join("A", "one")
        await first.send_type("leave")
        while server.factory.tables:
            await asyncio.sleep(0.02)
        second = await server.join("B", "two")  # within the idle time: no clean-up yet
        await asyncio.sleep(0.3)
        assert calls == []
        await second.send_type("leave")
        while server.factory.tables:
            await asyncio.sleep(0.02)
        closed = asyncio.get_running_loop().time()
        while not calls:
            await asyncio.sleep(0.02)
    assert len(calls) == 1 and calls[0] - closed >= 0.15
    assert memory.release_memory() >= 0  # the real one runs here too


async def test_the_sweeper_sweeps_when_quiet_and_at_its_bounds() -> None:
    """A sweep comes ``quiet`` seconds after the last request ended, or at once after ``every``
    requests; the young generations are collected after every ``young_every``."""
    sweeps: list[int] = []
    young: list[int] = []
    sweeper = memory.Sweeper(quiet=0.1, every=5, young_every=2, sweep=lambda: sweeps.append(1),
                             collect_young=lambda: young.append(1))
    for _ in range(3):
        sweeper.ended()
    assert (sweeps, young) == ([], [1])
    async with asyncio.timeout(WAIT):
        while not sweeps:
            await asyncio.sleep(0.02)
    assert sweeper.ended_since == 0
    for _ in range(5):  # within the quiet time: the bound sweeps at once
        sweeper.ended()
    assert (len(sweeps), len(young), sweeper.ended_since) == (2, 3, 0)
    sweeper.ended()
    sweeper.close()  # no sweep after close
    await asyncio.sleep(0.2)
    assert len(sweeps) == 2


async def test_a_server_frees_ended_connections_by_itself(start_server: StartServer) -> None:
    """With the collector off, what refused and dropped connections leave (reference cycles of
    aiohttp's objects and the transports) is freed by the server's sweep, without a test's
    collection: only the seated client's WebSocket is left."""
    server = await start_server(max_tables=1)
    server.app[SWEEPER].quiet = 0.1
    await server.join("Host", "keep")
    gc.collect()
    gc.disable()
    try:
        async with asyncio.timeout(WAIT * 2):
            for index in range(30):
                refused = await server.raw(f"player_name=P&table_name=t{index}")
                assert await refused.wait_closed() == 1013
                await refused.close()
            for _ in range(10):
                watcher = await server.raw("table_name=keep&spectate=1")
                await watcher.wait_event("spectate_started")
                await watcher.drop()
                await watcher.close()
            while sum(isinstance(found, WebSocket) for found in gc.get_objects()) > 1:
                await asyncio.sleep(0.05)
    finally:
        gc.enable()
