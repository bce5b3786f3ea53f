"""Connection loss and reconnect (protocol.md "Connecting", "Connection loss")."""

from __future__ import annotations

import asyncio
import time
from urllib.parse import urlencode

import pytest

from tests.support.cards import card_set, find_seed
from tests.support.live_server import WAIT, Message, read_table_records
from tests.support.raw_client import GAME_WAIT, Client, StartServer, is_error, is_event, is_request
from tichu.server.wire.protocol import cards_json


def mid_trick_play(request: Message) -> bool:
    """A ``play`` request with a combination on the table (not a lead)."""
    return request["action"] == "play" and request["context"]["trick_combination"] is not None


async def test_reconnect_with_an_open_play_request_mid_trick(start_server: StartServer) -> None:
    """A client drops (socket closed without ``leave``) while it must play on an open trick and
    reconnects with ``?session_id=``: it gets ``player_joined`` with its ``session_id``, the full
    ``public_state``, its ``private_state`` and the open request as ``pending_request`` (not sent
    again as a ``request``), answers it and finishes the game in its seat."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(grace_period=5.0)
        anna = await server.join("Anna", "drop")
        await anna.send_type("start_game")
        held = (await anna.play(until=None, hold=mid_trick_play))["payload"]
        await anna.drop()
        again = await server.reconnect(anna)
        joined = again.events("player_joined")[0]
        assert joined["session_id"] == anna.session_id and joined["player_index"] == anna.seat
        assert joined["player_name"] == "Anna" and joined["protocol_version"] == 1
        assert joined["pending_request"] == held
        public, private = joined["public_state"], joined["private_state"]
        assert public["phase"] == "playing" and public["is_running"] is True
        assert public["current_turn_index"] == anna.seat
        assert public["table_name"] == "drop" and public["player_names"][anna.seat] == "Anna"
        assert public["trick_owner_index"] == held["context"]["trick_owner_index"]
        assert public["trick_turns"][-1][2] == held["context"]["trick_combination"]
        assert public["count_hand_cards"][anna.seat] == len(held["context"]["hand_cards"])
        assert private["player_index"] == anna.seat
        assert card_set(private["hand_cards"]) == card_set(held["context"]["hand_cards"])
        assert private["received_schupf_cards"] is not None and len(private["given_schupf_cards"]) == 3
        assert not [m for m in await again.roundtrip({"type": "ping"}) if is_request(m)]
        await again.play()
        again.assert_clean()
        [record] = read_table_records(server, "drop")
        assert record["players"][anna.seat] == {"name": "Anna", "kind": "human"}


async def test_reconnect_while_another_seat_is_at_turn(start_server: StartServer) -> None:
    """A client drops while another client is at turn and reconnects within the grace period:
    ``pending_request`` is null, ``public_state`` shows the other seat at turn, nobody got
    ``player_left`` (only after the grace period), the others got a public ``player_joined``
    without the session id, and both finish the game."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(grace_period=5.0)
        ada = await server.join("Ada", "turn", seed=1)
        bob = await server.join("Bob", "turn", seed=2)
        await ada.send_type("start_game")
        ada_task = asyncio.create_task(ada.play())
        await bob.play(until=None, hold=mid_trick_play)
        ada_task.cancel()
        await asyncio.gather(ada_task, return_exceptions=True)
        assert ada.open_request is None or ada.open_request["request_id"] in ada.answered
        await ada.drop()
        again = await server.reconnect(ada, seed=3)
        joined = again.events("player_joined")[0]
        assert joined["player_index"] == ada.seat and joined["pending_request"] is None
        assert joined["public_state"]["current_turn_index"] == bob.seat
        round_ = server.table("turn").round
        assert round_ is not None and ada.seat is not None
        assert joined["private_state"]["hand_cards"] == cards_json(round_.hands[ada.seat])
        assert await bob.wait_event("player_joined", player_index=ada.seat) == {"player_index": ada.seat,
                                                                               "player_name": "Ada"}
        await asyncio.gather(bob.play(), again.play())
        assert not bob.events("player_left")
        bob.assert_clean()
        again.assert_clean()


async def test_drop_longer_than_grace_period_an_agent_finishes(start_server: StartServer) -> None:
    """A client with an open request drops for longer than the grace period: only then the
    others get ``player_left`` with ``replaced_by_agent: true`` (and the new ``host_index``),
    an agent takes the seat and its open decision, and the game reaches ``game_over``."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(grace_period=0.3)
        ada = await server.join("Ada", "gone", seed=1)
        bob = await server.join("Bob", "gone", seed=2)
        await ada.send_type("start_game")
        bob_task = asyncio.create_task(bob.play(until="player_left"))
        await ada.play(until=None, hold=mid_trick_play)
        dropped = time.monotonic()
        await ada.drop()
        left = (await bob_task)["payload"]["context"]
        assert time.monotonic() - dropped >= 0.25
        assert left == {"player_index": ada.seat, "player_name": "Ada", "host_index": bob.seat,
                        "replaced_by_agent": True}
        await bob.play()
        bob.assert_clean()
        [record] = read_table_records(server, "gone")
        assert record["players"][ada.seat] == {"name": "Ada", "kind": "human"}
        [change] = record["seat_changes"]
        assert change["seat"] == ada.seat and change["reason"] == "left" and change["kind"].startswith("agent:")


async def test_reconnect_after_grace_period_gets_the_seat_back(start_server: StartServer) -> None:
    """After the grace period an agent holds the seat, but a reconnect with the session id
    still returns it ("inside or after the grace period ... unless another client took it"),
    with the full state, and the client finishes the game in its seat."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(grace_period=0.3)
        ada = await server.join("Ada", "back", seed=1)
        bob = await server.join("Bob", "back", seed=2)
        await ada.send_type("start_game")
        bob_task = asyncio.create_task(bob.play(until="player_left"))
        await ada.play(until=None, hold=mid_trick_play)
        await ada.drop()
        await bob_task
        bob.tolerate_reissue = True  # the known silent re-issue (see the test below)
        again = await server.reconnect(ada, seed=3)
        joined = again.events("player_joined")[0]
        assert joined["player_index"] == ada.seat and joined["session_id"] == ada.session_id
        assert joined["public_state"]["player_names"][ada.seat] == "Ada"
        await asyncio.gather(bob.play(), again.play())
        [record] = read_table_records(server, "back")
        assert record["players"][ada.seat] == {"name": "Ada", "kind": "human"}
        again.assert_clean()


@pytest.mark.parametrize("trigger", ["leave", "join", "reconnect_after_grace"])
async def test_a_seat_changing_hands_does_not_drop_another_seats_request_silently(
        start_server: StartServer, trigger: str) -> None:
    """While Bob has an open ``play`` request, another seat changes hands (Ada sends ``leave``;
    a new client joins an agent's seat; Ada reconnects after her grace period). Bob's request
    must not be dropped without notice: it stays open, or Bob gets ``request_cancelled`` for it
    before a new ``request`` (protocol.md "Requests and responses": a ``response`` to anything
    but the open request gets REQUEST_OBSOLETE, so a client must always know which one is open).
    """
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(grace_period=0.3)
        ada = await server.join("Ada", "quiet", seed=1)
        bob = await server.join("Bob", "quiet", seed=2)
        await ada.send_type("set_options", newcomers=True)  # Cid may join the running game
        await ada.send_type("start_game")
        players = [bob]
        if trigger == "reconnect_after_grace":
            bob_task = asyncio.create_task(bob.play(until="player_left"))
            await ada.play(until=None, hold=mid_trick_play)
            await ada.drop()
            await bob_task
            held = (await bob.play(until=None, hold=lambda request: True))["payload"]
            mark = len(bob.messages)
            players.append(await server.reconnect(ada, seed=3))
        else:
            ada_task = asyncio.create_task(ada.play())
            held = (await bob.play(until=None, hold=lambda request: request["action"] == "play"))["payload"]
            ada_task.cancel()
            await asyncio.gather(ada_task, return_exceptions=True)
            mark = len(bob.messages)
            if trigger == "leave":
                await ada.send_type("leave")
                await bob.wait_event("player_left", player_index=ada.seat)
            else:
                players += [ada, await server.join("Cid", "quiet", seed=4)]
                await bob.wait_event("player_joined", player_name="Cid")
        await asyncio.sleep(0.2)  # let the engine react to the seat change
        await bob.roundtrip({"type": "ping"})
        answers = bob.messages[mark:]
        requests = [m["payload"]["request_id"] for m in answers if is_request(m)]
        first_request = next((i for i, m in enumerate(answers) if is_request(m)), len(answers))
        cancelled = [m["payload"]["context"]["request_id"] for m in answers[:first_request]
                     if is_event(m, "request_cancelled")]
        assert not requests or cancelled == [held["request_id"]], (
            f"{trigger}: Bob's open request {held['request_id']} was replaced by {requests} "
            "without request_cancelled")
        await asyncio.gather(*(player.play() for player in players))


PUBLIC_KEYS = {"table_name", "player_names", "host_index", "is_running", "phase", "round_index",
               "current_turn_index", "count_hand_cards", "announcements", "wish_value", "trick_turns",
               "trick_owner_index", "trick_points", "points", "out_order", "played_cards", "round_scores", "total"}
PRIVATE_KEYS = {"player_index", "hand_cards", "given_schupf_cards", "received_schupf_cards"}


async def test_a_client_joins_a_running_game_in_an_agent_seat(start_server: StartServer) -> None:
    """A client joining a running game takes a seat an agent held ("A client takes a seat held by
    an agent"): its ``player_joined`` carries every ``public_state`` and ``private_state`` field of
    protocol.md, consistent with the table (its hand is the seat's hand, the hand counts and
    played cards add up to 56), and it plays the game to its end in that seat."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await server.join("Host", "run", seed=1)
        lobby = host.events("player_joined")[0]
        assert set(lobby["public_state"]) >= PUBLIC_KEYS and set(lobby["private_state"]) >= PRIVATE_KEYS
        assert lobby["public_state"]["phase"] == "lobby" and lobby["private_state"]["hand_cards"] == []
        await host.send_type("set_options", newcomers=True)  # the host lets newcomers in during the game
        await host.send_type("start_game")
        await host.play(until=None, hold=mid_trick_play)
        host.tolerate_reissue = True  # the known silent re-issue (see the test above)
        late = await server.join("Late", "run", seed=2)
        joined = late.events("player_joined")[0]
        public, private = joined["public_state"], joined["private_state"]
        assert set(public) >= PUBLIC_KEYS and set(private) >= PRIVATE_KEYS
        assert late.seat == 1 and joined["pending_request"] is None and joined["protocol_version"] == 1
        assert public["is_running"] is True and public["phase"] == "playing"
        assert public["player_names"][:2] == ["Host", "Late"] and public["host_index"] == 0
        assert public["current_turn_index"] == host.seat
        round_ = server.table("run").round
        assert round_ is not None
        assert private["hand_cards"] == cards_json(round_.hands[1])
        assert public["count_hand_cards"] == [hand.bit_count() for hand in round_.hands]
        assert sum(public["count_hand_cards"]) + len(public["played_cards"]) == 56
        assert len(private["given_schupf_cards"]) == 3 and len(private["received_schupf_cards"]) == 3
        await asyncio.gather(host.play(), late.play())
        [record] = read_table_records(server, "run")
        assert record["players"][1]["kind"].startswith("agent:")  # the seat's occupant at the start
        [change] = record["seat_changes"]
        assert change["seat"] == 1 and change["name"] == "Late" and change["kind"] == "human"
        assert change["reason"] == "joined" and change["round"] == 0 and change["event"] > 0


async def test_a_session_has_one_socket_at_a_time(start_server: StartServer) -> None:
    """protocol.md: "one WebSocket per seat". A second connection with the session id while the
    first socket is still open either is refused (an ``error``, then close) and the first keeps
    the seat, or takes the seat over and the server closes the first socket (which gets no
    messages any more, so it must not be able to act for the seat either)."""
    async with asyncio.timeout(WAIT):
        server = await start_server()
        first = await server.join("Anna", "twice")
        assert first.session_id is not None
        second = await server.raw(urlencode({"session_id": first.session_id}), name="second")
        _, answer = await second.wait_for(lambda m: True)
        if is_error(answer):
            await second.wait_closed()
            assert [m["type"] for m in await first.roundtrip({"type": "ping"})] == []
            return
        assert answer["payload"]["context"]["player_index"] == first.seat
        try:
            await first.wait_closed()
        except AssertionError:
            await first.send_type("start_game")
            await asyncio.sleep(0.2)
            started = server.table("twice").is_running
            raise AssertionError("the replaced socket stays open" + (
                " and still acts for the seat: its start_game started the game" if started else "")) from None


async def test_pending_request_timeout_is_the_seconds_left(start_server: StartServer) -> None:
    """protocol.md: a request's ``timeout`` "is the seconds left"; ``pending_request`` is the open
    request on reconnect, so its ``timeout`` counts down the time already spent."""
    async with asyncio.timeout(WAIT):
        server = await start_server(turn_timeout=3.0, grace_period=5.0)
        anna = await server.join("Anna", "clock")
        await anna.send_type("start_game")
        held = (await anna.play(until=None, hold=lambda request: True))["payload"]
        assert held["timeout"] == 3.0
        await anna.drop()
        await asyncio.sleep(1.0)
        again = await server.reconnect(anna)
        pending = again.events("player_joined")[0]["pending_request"]
        assert pending["request_id"] == held["request_id"]
        assert pending["timeout"] is not None and pending["timeout"] <= 2.3, pending["timeout"]


MAHJONG, DRAGON = [1, 0], [15, 0]


async def prefer_specials(client: Client, request: Message) -> Message | None:
    """Keep the Mah Jong and the Dragon in the push and play them whenever allowed."""
    context = request["context"]
    if request["action"] == "schupf":
        free = [card for card in context["hand_cards"] if card not in (MAHJONG, DRAGON)]
        return {"given_schupf_cards": client.rng.sample(free, 3)}
    if request["action"] == "play":
        for preferred in ([MAHJONG], [DRAGON]):
            if preferred in context["legal_plays"]:
                return {"cards": preferred}
    return None


@pytest.mark.parametrize("action", ["announce_grand_tichu", "schupf", "wish", "give_dragon_away"])
async def test_reconnect_with_each_kind_of_open_request(start_server: StartServer, action: str) -> None:
    """Whatever request is open when a client drops (Grand Tichu, push, wish, Dragon gift), the
    reconnect returns it as ``pending_request`` with the same id and context, the public state
    names the seat as the one to decide where the round is being played, and the answer sent on
    the new socket is taken: the game goes on to its end."""
    seed = find_seed(lambda deals: (1, 0) in deals[0][0] and all((15, 0) in deal[0] for deal in deals), rounds=3)
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(seed=seed, target_score=1000, grace_period=5.0)
        anna = await server.join("Anna", "kinds")
        await anna.send_type("start_game")
        held = await anna.play(until="game_over", hold=lambda request: request["action"] == action,
                               strategy=prefer_specials)
        assert held["type"] == "request", f"no {action} request came in a whole game"
        await anna.drop()
        again = await server.reconnect(anna)
        joined = again.events("player_joined")[0]
        assert joined["pending_request"] == held["payload"]
        if action in ("wish", "give_dragon_away"):
            assert joined["public_state"]["current_turn_index"] == anna.seat
        await again.play(strategy=prefer_specials)
        again.assert_clean()


async def test_the_others_see_a_dropped_seat_with_the_seconds_until_an_agent_takes_it(
        start_server: StartServer) -> None:
    """A client whose socket drops is announced to the others (``player_disconnected`` with
    ``seconds``: the grace period); a client that joins meanwhile finds it in
    ``public_state.away`` with the seconds left; when it comes back the others get its
    ``player_joined``, and ``away`` is empty again."""
    async with asyncio.timeout(WAIT):
        server = await start_server(grace_period=5.0)
        ann = await server.join("Ann", "away")
        ben = await server.join("Ben", "away")
        await ben.drop()
        dropped = await ann.wait_event("player_disconnected")
        assert dropped == {"player_index": ben.seat, "player_name": "Ben", "seconds": 5.0}
        cid = await server.join("Cid", "away")
        [[seat, seconds]] = cid.events("player_joined")[0]["public_state"]["away"]
        assert seat == ben.seat and 0 < seconds <= 5.0
        back = await server.reconnect(ben)
        assert back.events("player_joined")[0]["public_state"]["away"] == []
        await ann.wait_event("player_joined", player_index=ben.seat)
