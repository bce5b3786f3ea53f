"""``GET /api/tables`` (docs/server.md): which tables the login and the lobby offer to watch."""

from __future__ import annotations

import asyncio
import time

from tests.support.live_server import POLL, WAIT, Message
from tests.support.raw_client import Server, StartServer


async def _listed(server: Server) -> list[Message]:
    async with server.session.get(f"{server.url}api/tables") as response:
        listing: Message = await response.json()
    tables: list[Message] = listing["tables"]
    return tables


async def test_a_table_left_to_agents_is_not_listed(start_server: StartServer) -> None:
    """Issue 35, finding 9: agent-only lobbies lingered in "Tables to watch". Once Ada leaves her
    lobby, only agents remain there (the table waits out the grace period before it closes): it
    is no longer listed, while Ben's table, where he sits, still is."""
    server = await start_server(grace_period=60.0)
    ada = await server.join("Ada", "a")
    await server.join("Ben", "b")
    assert [table["name"] for table in await _listed(server)] == ["a", "b"]
    await ada.send_type("leave")
    deadline = time.monotonic() + WAIT
    while server.table("a").clients:
        assert time.monotonic() < deadline, "Ada's leave did not free her seat"
        await asyncio.sleep(POLL)
    assert "a" in server.factory.tables, "the table closed at once: nothing left to check"
    assert [table["name"] for table in await _listed(server)] == ["b"]
