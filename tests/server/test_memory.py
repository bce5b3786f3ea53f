"""Memory that comes back: a closed table leaves no object behind (a server that runs for weeks).

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
from tichu.server import factory as factory_module
from tichu.server import memory
from tichu.server.agent_seat import ServerAgent
from tichu.server.connection import Connection
from tichu.server.peer import Peer
from tichu.server.table import Table

WATCHED = (Table, GameEngine, Round, Peer, ServerAgent, Connection)


def live_objects() -> Counter[str]:
    """How many objects of the watched classes exist (tracked by the collector)."""
    return Counter(type(obj).__name__ for obj in gc.get_objects() if isinstance(obj, WATCHED))


async def test_closed_tables_leave_nothing_behind(start_server: StartServer) -> None:
    """Tables that played, that were abandoned mid-game, that stayed in the lobby and whose
    client dropped, two of them watched by a spectator: once closed, no table, engine, round,
    peer, agent or connection is left, without a garbage collection."""
    server = await start_server()
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
