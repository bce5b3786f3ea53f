"""The lobby, the host, keep-alive, records and shutdown (protocol.md "Client to server",
"Errors", "Connection loss"; records.md)."""

from __future__ import annotations

import asyncio

from tests.support.checks import expect_refused
from tests.support.live_server import WAIT, read_table_records
from tests.support.raw_client import GAME_WAIT, StartServer, is_event
from tichu.records.record import replay


async def test_only_the_host_swaps_and_starts_and_only_in_the_lobby(start_server: StartServer) -> None:
    """``swap_players`` / ``start_game`` from a client that is not the host: 401 NOT_LOBBY_HOST;
    the host's own seat cannot move and seats must be two different 0..3: 300 INVALID_ACTION
    with ``context.reason``; after the start both are 400 GAME_ALREADY_STARTED. Nothing changes,
    and the game still ends."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await server.join("Host", "t", seed=1)
        guest = await server.join("Guest", "t", seed=2)
        assert (host.seat, guest.seat) == (0, 1)
        await expect_refused(server, guest, "t", {"type": "start_game"}, 401)
        await expect_refused(server, guest, "t", {"type": "swap_players",
                                                  "payload": {"player_index_1": 2, "player_index_2": 3}}, 401)
        for first, second in ((0, 1), (2, 0), (1, 1), (1, 4), (-1, 2)):
            payload = await expect_refused(server, host, "t", {"type": "swap_players", "payload": {
                "player_index_1": first, "player_index_2": second}}, 300)
            assert isinstance(payload["context"]["reason"], str) and payload["context"]["reason"]
        for payload in ({}, {"player_index_1": 1}, {"player_index_1": "1", "player_index_2": 2},
                        {"player_index_1": True, "player_index_2": 2}, {"player_index_1": 1.0, "player_index_2": 2}):
            await expect_refused(server, host, "t", {"type": "swap_players", "payload": payload}, 101)
        await host.send_type("start_game")
        await host.wait_event("game_started")
        await guest.wait_event("game_started")
        for client in (host, guest):
            await client.play(until=None, hold=lambda request: True)
        await expect_refused(server, host, "t", {"type": "start_game"}, 400)
        await expect_refused(server, host, "t", {"type": "swap_players",
                                                 "payload": {"player_index_1": 1, "player_index_2": 2}}, 400)
        await expect_refused(server, guest, "t", {"type": "start_game"}, 401)
        await asyncio.gather(host.play(), guest.play())
        host.assert_clean()
        guest.assert_clean()


async def test_swap_players_moves_clients_and_agents(start_server: StartServer) -> None:
    """The host swaps two seats: everybody gets ``players_swapped``, the names move, a seat left
    to an agent gets the agent's name, and a client joining later sees it in ``public_state``."""
    async with asyncio.timeout(WAIT):
        server = await start_server()
        host = await server.join("Host", "t")
        ada = await server.join("Ada", "t")
        await host.send_type("swap_players", player_index_1=1, player_index_2=3)
        for client in (host, ada):
            assert await client.wait_event("players_swapped") == {"player_index_1": 1, "player_index_2": 3}
        ada.process_until_joined()
        await ada.play(until=lambda m: is_event(m, "players_swapped"))
        assert ada.seat == 3
        bob = await server.join("Bob", "t")
        public = bob.events("player_joined")[0]["public_state"]
        assert bob.seat == 1
        assert public["player_names"] == ["Host", "Bob", "Bot 3", "Ada"]
        assert public["host_index"] == 0 and public["phase"] == "lobby" and public["is_running"] is False


async def test_host_handover_when_the_host_leaves(start_server: StartServer) -> None:
    """When the host leaves (``leave``), an agent takes its seat at once and ``player_left``
    carries the new ``host_index`` (the client that joined next); the new host may start."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await server.join("Host", "t", seed=1)
        ada = await server.join("Ada", "t", seed=2)
        bob = await server.join("Bob", "t", seed=3)
        await host.send_type("leave")
        assert await host.wait_closed() == 1000
        expected = {"player_index": 0, "player_name": "Host", "host_index": 1, "replaced_by_agent": True}
        for client in (ada, bob):
            assert await client.wait_event("player_left") == expected
        await expect_refused(server, bob, "t", {"type": "start_game"}, 401)
        cid = await server.join("Cid", "t", seed=4)
        public = cid.events("player_joined")[0]["public_state"]
        assert cid.seat == 0 and public["host_index"] == 1
        await ada.send_type("start_game")
        await asyncio.gather(ada.play(), bob.play(), cid.play())


async def test_after_game_over_the_table_returns_to_the_lobby(start_server: StartServer) -> None:
    """After ``game_over`` the table is a lobby again: a joining client sees ``phase: lobby``, the
    host may swap and ``start_game`` again, and each game's record is written to
    the server's store and replays without a rule violation (records.md)."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await server.join("Host", "t", seed=1)
        await host.send_type("start_game")
        first = (await host.play())["payload"]["context"]
        late = await server.join("Late", "t", seed=2)
        public = late.events("player_joined")[0]["public_state"]
        assert public["phase"] == "lobby" and public["is_running"] is False
        assert public["player_names"] == ["Host", "Late", "Bot 3", "Bot 4"]
        await host.send_type("swap_players", player_index_1=1, player_index_2=2)
        await late.wait_event("players_swapped")
        await host.send_type("start_game")
        second, _ = await asyncio.gather(host.play(), late.play())
        records = read_table_records(server, "t")
        assert [record["score"] for record in records] == [first["total"], second["payload"]["context"]["total"]]
        assert [p["name"] for p in records[1]["players"]] == ["Host", "Bot 2", "Late", "Bot 4"]
        for record in records:
            assert record["format"] == "tichu-record/1" and record["seed"] == 7 and record["table"] == "t"
            assert replay(record) is None
        host.assert_clean()
        late.assert_clean()


async def test_ping_gets_pong(start_server: StartServer) -> None:
    """``ping`` (with or without a payload) is answered by ``{"type": "pong"}``, in the lobby and
    during a game, and changes nothing."""
    async with asyncio.timeout(WAIT):
        server = await start_server()
        host = await server.join("Host", "t")
        for message in ({"type": "ping"}, {"type": "ping", "payload": {}}, {"type": "ping", "payload": None}):
            start = len(host.messages)
            await host.send(message)
            await host.wait_for(lambda m: m == {"type": "pong"}, start=start)
        await host.send_type("start_game")
        await host.play(until=None, hold=lambda request: True)
        start = len(host.messages)
        await host.send({"type": "ping"})
        await host.wait_for(lambda m: m == {"type": "pong"}, start=start)


async def test_game_messages_in_the_lobby_are_refused(start_server: StartServer) -> None:
    """Without a game: ``response`` → 301 INVALID_RESPONSE (no open request), ``bomb`` → 305
    INTERRUPT_DENIED, ``announce`` → 307 INVALID_ANNOUNCE; the lobby is unchanged."""
    async with asyncio.timeout(WAIT):
        server = await start_server()
        host = await server.join("Host", "t")
        await expect_refused(server, host, "t", {"type": "response", "payload": {
            "request_id": "x", "action": "play", "response_data": {"cards": []}}}, 301)
        await expect_refused(server, host, "t", {"type": "bomb", "payload": {"cards": [[2, 1], [2, 2], [2, 3],
                                                                                      [2, 4]]}}, 305)
        await expect_refused(server, host, "t", {"type": "announce"}, 307)


async def test_shutdown_sends_106_and_writes_an_aborted_record(start_server: StartServer) -> None:
    """On server shutdown (``runner.cleanup()``) every client, in a game or in a lobby, gets
    ``error`` 106 SERVER_DOWN and its socket is closed; the running game's record is written
    as aborted (stored with ``aborted: true``, no winner)."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(target_score=10000)
        player = await server.join("Player", "game", seed=1)
        idle = await server.join("Idle", "lobby")
        await player.send_type("start_game")
        await player.play(until="round_over")
        await player.play(until=None, hold=lambda request: True)
        await server.stop()
        for client in (player, idle):
            await client.wait_closed()
            assert client.messages[-1]["type"] == "error" and client.messages[-1]["payload"]["code"] == 106
        [record] = read_table_records(server, "game", aborted=True)
        assert record["aborted"] is True and record["winner"] is None and len(record["rounds"]) == 1
        assert read_table_records(server, "game") == []
