"""Spectators (docs/server.md "Spectators"): they see the public table only, may do nothing
but leave, are bounded, can be refused by the table, and see all hands only when every
person seated allows it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from tests.support.cards import card_set, labels_set
from tests.support.checks import check_seat_messages, expect_refused, walk
from tests.support.live_server import Message, read_table_records
from tests.support.raw_client import GAME_WAIT, Client, Server, StartServer, is_event
from tichu.server.wire.incoming import CLIENT_TYPES
from tichu.server.wire.protocol import cards_json

UNAUTHORIZED, TABLE_FULL, SERVER_BUSY, TABLE_NOT_FOUND = 104, 203, 105, 202
#: Keys that hold a seat's private cards or a seat's session: a spectator never gets them.
SEAT_KEYS = {"hand_cards", "legal_plays", "hint", "received_schupf_cards", "given_schupf_cards", "private_state",
             "private_delta", "pending_request", "session_id"}


async def watch(server: Server, table: str, name: str = "watcher") -> Client:
    """Connect as a spectator and wait for ``spectate_started``."""
    client = await server.raw(urlencode({"table_name": table, "spectate": "1"}), name=name)
    await client.wait_event("spectate_started")
    return client


def check_spectator_messages(client: Client, record: Message, *, whole: bool = False) -> None:
    """Every message a spectator got holds no card of any hand: only notifications (and
    pongs), no seat's private key, no ``hands_revealed``, ``hand_cards_dealt`` with the count
    only, ``start_playing`` without received cards, ``spectator_hands`` without hands (nobody
    allowed them); and the cards of ``player_played`` are the record's plays, in order (all of them
    for a spectator that watched the ``whole`` game)."""
    rounds = record["rounds"]
    round_index: int | None = None
    plays: list[list[tuple[int, frozenset[Any]]]] = [[] for _ in rounds]
    for message in client.messages:
        assert message.get("type") in ("notification", "pong"), message
        payload = message.get("payload") or {}
        for key, value in walk(payload):
            assert key not in SEAT_KEYS, (key, message)
            if key == "hands":
                assert is_event(message, "spectator_hands"), message
                assert value is None, message
        if message.get("type") != "notification":
            continue
        event, context = payload["event"], dict(payload["context"])
        context.pop("public_delta", None)  # the public state after the event (docs/server.md)
        assert event not in ("hands_revealed", "request_cancelled"), message
        if event == "round_started":
            round_index = context["round_index"]
        elif event == "hand_cards_dealt":
            assert set(context) == {"count"}, message
        elif event == "start_playing":
            assert set(context) == {"start_player_index"}, message
        elif event == "player_played":
            assert round_index is not None
            plays[round_index].append((context["turn"][0], card_set(context["turn"][1])))
        elif event == "player_joined":
            assert set(context) == {"player_index", "player_name"}, message
        elif event == "spectate_started":
            public = context["public_state"]
            assert not [key for key in public if "hand" in key and key != "count_hand_cards"], public
            played = card_set(public["played_cards"])
            if public["is_running"]:
                round_index = public["round_index"]
                so_far = frozenset().union(*(labels_set(entry.get("play", entry.get("bomb", "")))
                                             for entry in rounds[public["round_index"]]["events"]))
                assert played <= so_far, public
    for index, data in enumerate(rounds):
        expected = [(event["seat"], labels_set(event.get("play", event.get("bomb", ""))))
                    for event in data["events"] if "play" in event or "bomb" in event]
        seen = plays[index]
        assert seen == expected or not whole, (index, seen, expected)
        # a spectator that came (or went) mid-round saw an unbroken part of the round's plays
        assert any(expected[first:first + len(seen)] == seen for first in range(len(expected) - len(seen) + 1)), \
            (index, seen, expected)


def public_state_held(client: Client) -> Message:
    """The public state a client holds at the end: the one it joined or started watching with,
    each field replaced by every later ``public_delta`` (docs/server.md, "The state with every
    event"), without the table's ``away`` and ``agent_plays_for``, which have their own messages."""
    state: Message = {}
    for message in client.messages:
        context = (message.get("payload") or {}).get("context") or {}
        if message.get("type") != "notification":
            continue
        if "public_state" in context:
            state = dict(context["public_state"])
        state.update(context.get("public_delta") or {})
    return {key: value for key, value in state.items() if key not in ("away", "agent_plays_for")}


async def test_a_spectator_sees_no_hand_card_in_a_whole_game(start_server: StartServer) -> None:
    """Two clients and two agents play a whole game; one spectator watches from the lobby to the
    end, another comes mid-game, drops and comes back (a reload): no message either gets holds a
    card of any hand; the players (who speak protocol.md alone) never hear of the spectators."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(target_score=300, seed=11)
        players = [await server.join(f"P{seat}", "open", seed=seat) for seat in range(2)]
        early = await watch(server, "open", "early")
        await players[0].send_type("start_game")
        games = [asyncio.create_task(player.play()) for player in players]
        await early.wait_event("player_played")
        late = await watch(server, "open", "late")
        await late.wait_event("player_played")
        await late.close()
        again = await watch(server, "open", "again")
        await asyncio.gather(*games)
        for spectator in (early, again):
            await spectator.wait_event("game_over")
        [record] = read_table_records(server, "open")
        check_spectator_messages(early, record, whole=True)
        for spectator in (late, again):
            check_spectator_messages(spectator, record)
        assert early.events("round_started") and early.events("player_played")
        for player in players:
            player.assert_clean()
            check_seat_messages(player, record)
            assert not player.events("spectators_changed")
        # Issue 36: the spectators get the public state as the seats do, from start and mid-game
        held = [public_state_held(client) for client in (*players, early, again)]
        assert held[0]["phase"] == "game_over" and all(state == held[0] for state in held), held


async def test_a_spectator_may_do_nothing_but_leave(start_server: StartServer) -> None:
    """Every message type but ``leave`` (and the keep-alive ``ping``) is refused with 104 and
    changes nothing, in the lobby and during a game; ``leave`` closes the socket with 1000."""
    server = await start_server()
    host = await server.join("Host", "t")
    await host.send_type("table_sync")
    spectator = await watch(server, "t")
    await host.wait_event("spectators_changed", count=1)
    payloads: dict[str, dict[str, Any]] = {
        "swap_players": {"player_index_1": 1, "player_index_2": 2}, "start_game": {},
        "set_options": {"hints": True}, "announce": {}, "bomb": {"cards": [[2, 1], [2, 2], [2, 3], [2, 4]]},
        "response": {"request_id": "x", "action": "play", "response_data": {"cards": []}},
        "table_sync": {}, "chat": {"text": "hi"}, "reaction": {"reaction": "nice"}, "set_ready": {"ready": True},
        "set_spectator_hands": {"allow": True}, "take_back": {}, "hand_over": {"player_index": 0}}
    assert set(payloads) == CLIENT_TYPES - {"leave", "ping"}
    for kind, payload in payloads.items():
        error = await expect_refused(server, spectator, "t", {"type": kind, "payload": payload}, UNAUTHORIZED)
        assert error["context"]["type"] == kind and "leave" in error["context"]["reason"]
    await expect_refused(server, spectator, "t", "not json", 101)
    await host.send_type("start_game")
    await host.play(lambda m: is_event(m, "player_played"))
    await host.play(None, hold=lambda request: request["action"] == "play")  # the table waits for the host
    await asyncio.sleep(0.05)
    for kind, payload in payloads.items():
        await expect_refused(server, spectator, "t", {"type": kind, "payload": payload}, UNAUTHORIZED)
    assert not host.events("chat_message")
    await spectator.send_type("leave")
    assert await spectator.wait_closed() == 1000
    await host.wait_event("spectators_changed", count=0)


async def test_spectators_are_bounded_and_a_table_may_refuse_them(start_server: StartServer) -> None:
    """At most ``max_spectators_per_table`` per table (203, then close) and ``max_spectators`` in
    all (105); a table that does not exist (202); the host's ``spectators: false`` closes the
    watchers with 104 and refuses new ones; ``GET /api/tables`` says all of it."""
    server = await start_server(max_spectators_per_table=2, max_spectators=3)
    host_a = await server.join("A", "a")
    host_b = await server.join("B", "b")
    await host_a.send_type("table_sync")
    first, second = await watch(server, "a"), await watch(server, "a")
    context = await host_a.wait_event("spectators_changed", count=2)
    assert context["limit"] == 2 and context["allowed"] is True
    third = await server.raw(urlencode({"table_name": "a", "spectate": "1"}))
    assert (await third.wait_error(TABLE_FULL))["context"]["table_name"] == "a"
    assert await third.wait_closed() == 1008
    await watch(server, "b")
    busy = await server.raw(urlencode({"table_name": "b", "spectate": "1"}))
    await busy.wait_error(SERVER_BUSY)
    assert await busy.wait_closed() == 1013
    nowhere = await server.raw(urlencode({"table_name": "nowhere", "spectate": "1"}))
    await nowhere.wait_error(TABLE_NOT_FOUND)
    assert await nowhere.wait_closed() == 1008
    async with server.session.get(f"http://127.0.0.1:{server.port}/api/tables") as response:
        listed = await response.json()
    assert [entry["name"] for entry in listed["tables"]] == ["a", "b"] and listed["truncated"] is False
    assert listed["tables"][0] | {"players": None} == {
        "name": "a", "players": None, "people": 1, "running": False, "phase": "lobby", "spectators": 2,
        "spectators_limit": 2, "watchable": False}
    assert listed["tables"][0]["players"] == ["A", "Bot 2", "Bot 3", "Bot 4"]
    await expect_refused(server, host_b, "b", {"type": "set_options", "payload": {"spectators": "no"}}, 101)
    await host_a.send_type("set_options", spectators=False)
    for watcher in (first, second):
        assert "no longer" in (await watcher.wait_error(UNAUTHORIZED))["context"]["reason"]
        assert await watcher.wait_closed() == 1008
    await host_a.wait_event("spectators_changed", count=0, allowed=False)
    refused = await server.raw(urlencode({"table_name": "a", "spectate": "1"}))
    assert "does not allow" in (await refused.wait_error(UNAUTHORIZED))["context"]["reason"]
    assert await refused.wait_closed() == 1008
    await host_a.send_type("set_options", spectators=True)
    await host_a.wait_event("spectators_changed", allowed=True)
    await watch(server, "a")


def _new_play(seen: set[int]) -> Callable[[Message], bool]:
    """Stop condition: a ``player_played`` not among the messages ``seen`` (by id)."""
    return lambda message: is_event(message, "player_played") and id(message) not in seen


def _hands_now(server: Server, table: str) -> list[list[list[int]]]:
    round_ = server.table(table).round
    assert round_ is not None
    return [cards_json(hand) for hand in round_.hands]


async def test_all_hands_only_when_every_person_allows(start_server: StartServer) -> None:
    """Spectators get ``spectator_hands`` with cards only while every person seated allows it
    (agents do); one person allowing is not enough, and withdrawing closes the hands again."""
    server = await start_server()
    players = [await server.join(f"P{seat}", "h", seed=seat) for seat in range(2)]
    for player in players:
        await player.send_type("table_sync")
    spectator = await watch(server, "h")
    await players[0].send_type("set_options", newcomers=True)  # Nina may join the running game
    await players[0].send_type("start_game")
    games = [asyncio.create_task(player.play(lambda m: is_event(m, "player_played"))) for player in players]
    await asyncio.gather(*games)
    start = len(spectator.messages)
    await players[0].send_type("set_spectator_hands", allow=True)
    context = await players[1].wait_event("spectators_changed", allow=[True, False, None, None])
    assert context["hands_open"] is False
    await players[1].send_type("set_spectator_hands", allow=True)
    await players[0].wait_event("spectators_changed", hands_open=True)
    _, message = await spectator.wait_for(
        lambda m: is_event(m, "spectator_hands") and m["payload"]["context"]["hands"] is not None, start=start)
    assert all(m["payload"]["context"]["hands"] is None for m in spectator.messages[start:]
               if is_event(m, "spectator_hands") and m is not message)
    hands = message["payload"]["context"]["hands"]
    assert len(hands) == 4 and sum(len(hand) for hand in hands) > 0
    now = _hands_now(server, "h")  # the agents may have played since, the hands only shrink
    assert all(card_set(later) <= card_set(sent) for later, sent in zip(now, hands, strict=True)), (now, hands)
    assert card_set(hands[players[0].seat or 0]) == frozenset(players[0].hand), "a seat's hand as its client has it"
    late = await watch(server, "h", "late")
    await late.wait_for(lambda m: is_event(m, "spectator_hands") and m["payload"]["context"]["hands"] is not None)
    start = len(spectator.messages)
    await players[1].send_type("set_spectator_hands", allow=False)
    await spectator.wait_event("spectator_hands", start=start, hands=None)
    await players[1].send_type("leave")  # an agent takes the seat: it allows
    await spectator.wait_for(lambda m: is_event(m, "spectator_hands") and m["payload"]["context"]["hands"] is not None,
                             start=start)
    start = len(spectator.messages)
    newcomer = await server.join("Nina", "h", seed=5)  # takes an agent's seat: has not allowed
    closed, _ = await spectator.wait_for(
        lambda m: is_event(m, "spectator_hands") and m["payload"]["context"]["hands"] is None, start=start)
    mark = len(spectator.messages)
    seated = [players[0], newcomer]
    old = [{id(m) for m in client.messages} for client in seated]
    await asyncio.gather(*(client.play(_new_play(seen)) for client, seen in zip(seated, old, strict=True)))
    await spectator.wait_event("player_played", start=mark)
    after = [m for m in spectator.messages[closed:] if is_event(m, "spectator_hands")]
    assert all(m["payload"]["context"]["hands"] is None for m in after), after
    assert newcomer.seat == 2  # an agent's seat nobody left: P1 may still take hers back (issue 33)


async def test_spectators_count_in_the_connection_limits(start_server: StartServer) -> None:
    """A spectator's socket is a connection like a player's: beyond ``max_connections`` the next
    one gets 105 and close 1013, before it is admitted."""
    server = await start_server(max_connections=2)
    await server.join("Host", "c")
    await watch(server, "c")
    busy = await server.raw(urlencode({"table_name": "c", "spectate": "1"}))
    assert (await busy.wait_error(SERVER_BUSY))["context"]["reason"] == "too many connections"
    assert await busy.wait_closed() == 1013
    assert len(server.table("c").spectators) == 1
