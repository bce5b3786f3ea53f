"""The lobby, the host, keep-alive, records and shutdown (protocol.md "Client to server",
"Errors", "Connection loss"; records.md)."""

from __future__ import annotations

import asyncio

from tests.support.checks import expect_refused
from tests.support.live_server import WAIT, read_table_records
from tests.support.raw_client import GAME_WAIT, StartServer, is_event
from tichu.records.record import replay
from tichu.records.store import GameStore
from tichu.server.keys import STORE_FILE


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


async def test_a_restart_keeps_the_game_and_the_lobby(start_server: StartServer) -> None:
    """On shutdown (``runner.cleanup()``, as on SIGTERM or SIGINT) every client, in a game or in a
    lobby, gets ``error`` 106 SERVER_DOWN saying it is back soon, and its socket is closed; no
    record is written: the game stays in the store as running. Started again on the same data, the
    game goes on and the lobby is open again (its host, seats and options); both clients come back
    with their session ids, and the game is played to its end and replays."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        player = await server.join("Player", "game", seed=1)
        host = await server.join("Host", "lobby")
        await host.send_type("set_options", turn_clock=60, newcomers=True, target_score=300)
        await host.wait_event("options_changed", turn_clock=60)
        await player.send_type("start_game")
        await player.play(until=None, hold=lambda request: request["action"] == "play")
        await server.stop()
        for client in (player, host):
            await client.wait_closed()
            error = client.messages[-1]["payload"]
            assert client.messages[-1]["type"] == "error" and error["code"] == 106
            assert error["context"]["back_soon"] is True and "back soon" in error["message"]
        assert server.all_records() == [], "a restart ends no game"
        again = await start_server(data_dir=server.settings.data_dir)
        lobby = again.table("lobby")
        assert lobby.info.host_index == host.seat and not lobby.is_running
        assert (lobby.options.turn_clock, lobby.options.newcomers, lobby.target_score) == (60, True, 300)
        back_host = await again.reconnect(host, seed=3)
        assert back_host.seat == host.seat
        options = back_host.events("player_joined")[0]["options"]
        assert options["turn_clock"] == 60 and options["newcomers"] is True
        back = await again.reconnect(player, seed=2)
        assert back.events("player_joined")[0]["pending_request"] is not None
        await back.play("game_over")
        [record] = read_table_records(again, "game")
        assert replay(record) is None and record["players"][player.seat or 0]["name"] == "Player"


async def test_a_kept_lobby_this_program_cannot_read_is_left_out(start_server: StartServer) -> None:
    """A lobby kept in a shape the server cannot read (another version's) does not stop the start:
    it is logged and left out, the others open."""
    server = await start_server()
    await server.stop()
    with GameStore(server.settings.data_dir / STORE_FILE) as store:
        store.running.keep_lobby("broken", {"seats": "nonsense"})
        store.running.keep_lobby("fine", {"options": {"agent": "random", "hints": False, "turn_clock": 0,
                                              "on_leave": "agent", "newcomers": False},
                                  "target_score": 200, "host": 0, "seats": [[0, "Ann", "hash"]]})
    again = await start_server(data_dir=server.settings.data_dir)
    assert set(again.factory.tables) == {"fine"} and again.table("fine").info.player_names[0] == "Ann"
