"""The state with every event (Issue 36; docs/server.md, "The state with every event"): each
notification of a game event carries what changed of the seat's public and private state, and a
client that only replaces those fields (:class:`tichu.client.state.TableState`) holds the state
the server holds, the one a client joining then would get. No rule is worked out on the client."""

from __future__ import annotations

import asyncio

from tests.support.live_server import Message
from tests.support.raw_client import GAME_WAIT, Client, StartServer
from tichu.client.state import TableState
from tichu.core.views import build_private_state
from tichu.server.wire.protocol import private_state_json, table_public_json


async def test_a_seat_holds_the_servers_state_at_each_of_its_turns(start_server: StartServer) -> None:
    """One client and three agents play a whole game; at each of the client's ``play`` requests
    (the table waits for it, so nothing moves) the state its reducer built from the notifications
    alone is the server's: the whole ``public_state`` (R8.1) and the seat's ``private_state`` (R8.2)."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(seed=5, target_score=300)
        client = await server.join("Ann", "sent")
        await client.send_type("start_game")
        state = TableState()
        read = 0
        checked = 0

        async def check(me: Client, request: Message) -> None:
            nonlocal read, checked
            for message in me.messages[read:me.cursor]:
                if message.get("type") == "notification":
                    state.apply(message["payload"]["event"], message["payload"]["context"])
            read = me.cursor
            if request["action"] != "play":
                return None
            table = server.table("sent")
            public = table_public_json(table.info, table.round)
            assert {key: state.public.get(key) for key in public} == public, f"request {checked}"
            assert me.seat is not None
            assert state.private == private_state_json(build_private_state(table.round, me.seat)), f"request {checked}"
            checked += 1
            return None

        await client.play(strategy=check)
        assert checked > 20, f"only {checked} turns checked"
