"""``game_stored`` (docs/server.md, "Replays"; issue 35): once a game played to its end is
handed to the store, everyone at the table hears its id, after ``game_over``; a game that ended
early does not."""

from __future__ import annotations

import asyncio

from tests.support.live_server import read_table_records
from tests.support.raw_client import GAME_WAIT, StartServer, is_event


async def test_a_game_played_to_its_end_is_told_stored_with_its_records_id(start_server: StartServer) -> None:
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        ann = await server.join("Ann", "done", seed=1)
        await ann.send_type("start_game")
        await ann.play()
        stored = await ann.wait_event("game_stored")
        [record] = read_table_records(server, "done")
        assert stored == {"game_id": record["id"]}
        over = next(index for index, message in enumerate(ann.messages) if is_event(message, "game_over"))
        told = next(index for index, message in enumerate(ann.messages) if is_event(message, "game_stored"))
        assert over < told


async def test_a_game_ended_early_is_not_told_stored(start_server: StartServer) -> None:
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await server.join("Host", "early", seed=1)
        guest = await server.join("Guest", "early", seed=2)
        await host.send_type("set_options", on_leave="end")
        await guest.wait_event("options_changed", on_leave="end")
        await host.send_type("start_game")
        hosting = asyncio.create_task(host.play(until="game_ended_early"))
        await guest.play(until=None, hold=lambda request: request["action"] == "play")
        await guest.send_type("leave")
        await hosting
        await host.send_type("ping")
        await host.wait_for(lambda message: message.get("type") == "pong")
        assert not host.events("game_stored")
