"""A seat that is out sees every hand (R8.3) but cannot tell its partner: issue 33, finding 7 (three
chat lines with the opponents' cards reached a still-playing partner).

Until the round ends the seat that is out sends quick reactions only; a chat line is refused
with ``UNAUTHORIZED`` and reaches nobody (docs/server.md, "Table chat, reactions, readiness and
the target score").
"""

from __future__ import annotations

import asyncio

from tests.support.live_server import Message
from tests.support.raw_client import Client, Server, StartServer, is_event

UNAUTHORIZED = 104
#: Seconds a test waits at most for a state (a slow, loaded machine included).
DEADLINE = 60.0


def out_mid_round(server: Server, table: str) -> bool:
    """Whether a person's seat (0 or 2) is out of a round that goes on."""
    round_ = server.table(table).round
    return round_ is not None and not round_.is_over and any(seat in round_.out_order for seat in (0, 2))


async def synced(server: Server, name: str, table: str, seed: int) -> Client:
    """A client that joined and sent ``table_sync``."""
    client = await server.join(name, table, seed=seed)
    await client.send_type("table_sync")
    await client.wait_event("chat_history", timeout=DEADLINE)
    return client


async def test_a_seat_that_is_out_only_reacts_until_the_round_ends(start_server: StartServer) -> None:
    """Issue 33, finding 7: Anna and Ben are partners; the first of them out of a round that goes on
    sees every hand, and its chat line is refused (104, with the reactions) and reaches nobody; its
    quick reaction goes out; the partner still playing may chat. After the round the chat is open."""
    async with asyncio.timeout(DEADLINE * 3):
        server = await start_server(target_score=10000)
        anna = await synced(server, "Anna", "fair", 1)
        ben = await synced(server, "Ben", "fair", 2)
        await anna.send_type("swap_players", player_index_1=1, player_index_2=2)
        await ben.wait_event("players_swapped", timeout=DEADLINE)
        await anna.send_type("start_game")

        def stalled(request: Message) -> bool:
            """Hold the partner's next request while the other is out: the round waits for it."""
            return out_mid_round(server, "fair")

        playing = {client: asyncio.create_task(client.play(until="hands_revealed", hold=stalled,
                                                           timeout=DEADLINE * 2)) for client in (anna, ben)}
        await asyncio.wait(playing.values(), return_when=asyncio.FIRST_COMPLETED)
        round_ = server.table("fair").round
        assert round_ is not None and out_mid_round(server, "fair")
        out, other = (anna, ben) if anna.seat in round_.out_order else (ben, anna)
        await playing[out]
        held = await playing[other]
        assert held["type"] == "request", "the partner still playing is asked while the other is out"
        await out.flush()  # the round waits for the held request: nothing more comes to the seat that is out
        assert out.events("hands_revealed"), "R8.3: the seat that is out sees every hand"

        error = await out.expect_error({"type": "chat", "payload": {"text": "Ben holds the dragon"}}, UNAUTHORIZED)
        assert "reactions" in error["context"] and "out" in error["message"]
        await out.send_type("reaction", reaction="nice")
        await other.wait_event("reaction", timeout=DEADLINE, reaction="nice")
        await other.send_type("chat", text="still playing")
        await out.wait_event("chat_message", timeout=DEADLINE, text="still playing")
        assert not [m for m in (*other.messages, *out.messages)
                    if is_event(m, "chat_message", text="Ben holds the dragon")]

        mark = len(out.messages)
        await other.play(until="round_over", timeout=DEADLINE * 2)
        await out.wait_event("round_over", start=mark, timeout=DEADLINE)
        await out.send_type("chat", text="well played")
        await other.wait_event("chat_message", timeout=DEADLINE, text="well played")
