"""An open lobby keeps nothing per join once the client left: issue 33, finding 2 (about 20 KiB
per join and leave stayed until the table closed).

The check counts what the server keeps (sessions, seats, readiness, chat rates, consents), not
memory or time: ``poc/lobby_churn.py`` measures the resident memory (docs/benchmarks.md).
"""

from __future__ import annotations

import asyncio

from tests.support.raw_client import Server, StartServer
from tichu.server.tables.social import CHAT_HISTORY

#: Seconds a test waits at most for a state (a slow, loaded machine included).
DEADLINE = 60.0
#: Joins and leaves of the churn: far more than any bound below.
CYCLES = 40


def kept(server: Server, table: str) -> dict[str, int]:
    """How many of each per-client record the factory and the table keep."""
    open_table = server.table(table)
    return {"sessions": len(server.factory._sessions), "joined": len(open_table.seats.joined),
            "ready": len(open_table.social._ready),
            "chat rates": len(open_table.social._buckets), "consents": len(open_table.spectators._allowing),
            "chat lines": len(open_table.social.log)}


async def test_joins_and_leaves_at_an_open_lobby_keep_nothing(start_server: StartServer) -> None:
    """Issue 33, finding 2: a host keeps a lobby open; another client joins, syncs, chats, says it is
    ready and leaves, :data:`CYCLES` times: every record stays within its bound (four seats, four
    who left, eight sessions, the chat history), whatever the number of joins."""
    async with asyncio.timeout(DEADLINE * 2):
        server = await start_server(message_rate=1000.0, message_burst=1000)
        host = await server.join("Host", "lobby", seed=1)
        for cycle in range(CYCLES):
            guest = await server.join(f"Guest{cycle}", "lobby", seed=cycle)
            await guest.send_type("table_sync")
            await guest.send_type("chat", text=f"hello {cycle}")
            await guest.send_type("set_ready", ready=True)
            await guest.wait_event("chat_message", timeout=DEADLINE, text=f"hello {cycle}")
            await guest.send_type("leave")
            await guest.wait_closed(timeout=DEADLINE)
            await guest.close()
            server.clients.remove(guest)
        counts = kept(server, "lobby")
        assert counts["sessions"] <= 8, counts
        assert counts["joined"] == 1, counts
        assert counts["ready"] <= 4 and counts["chat rates"] <= 4 and counts["consents"] <= 4, counts
        assert counts["chat lines"] <= CHAT_HISTORY, counts
        assert server.table("lobby").peers[host.seat or 0] is not None
