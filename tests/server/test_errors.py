"""Every error code of protocol.md "Errors" that a client can provoke during a game.

Each refused message is answered with exactly one ``error`` of the listed code, changes
nothing at the table (a white-box snapshot of the round, the seats and the open requests),
keeps the connection open and leaves the open request open; afterwards the game is played
on to ``game_over`` (protocol.md: "A refused message never changes the game state and never
closes the connection").
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from tests.support.cards import Card, card_set, find_seed
from tests.support.checks import expect_refused
from tests.support.live_server import Message
from tests.support.raw_client import GAME_WAIT, Client, Server, StartServer, is_error, is_event, is_request

DOG, MAHJONG, DRAGON, PHOENIX = (0, 0), (1, 0), (15, 0), (16, 0)
SPECIALS = {DOG, MAHJONG, DRAGON, PHOENIX}
ALL_CARDS: list[Card] = [(value, suit) for value in range(2, 15) for suit in range(1, 5)] + sorted(SPECIALS)
FOUR_TWOS = [[2, 1], [2, 2], [2, 3], [2, 4]]


def answer(request: Message, data: Any, **overrides: Any) -> Message:
    """A ``response`` to a request with this ``response_data`` (fields overridable)."""
    payload = {"request_id": request["request_id"], "action": request["action"], "response_data": data}
    payload.update(overrides)
    return {"type": "response", "payload": payload}


def not_in_hand(hand: frozenset[Card]) -> list[int]:
    """A real card the hand does not hold."""
    return list(next(card for card in ALL_CARDS if card not in hand))


def no_combination(hand: frozenset[Card]) -> list[list[int]] | None:
    """Two cards of the hand of different values that form no combination (R3), if any."""
    plain = sorted(card for card in hand if card not in SPECIALS)
    for card in plain:
        other = next((o for o in plain if o[0] != card[0]), None)
        if other is not None:
            return [list(card), list(other)]
    return None


def first_request_id(client: Client) -> str:
    """The id of the first request this client got (closed by now)."""
    return str(next(m["payload"]["request_id"] for m in client.messages if is_request(m)))


async def test_refused_answers_to_grand_tichu_and_schupf_requests(start_server: StartServer) -> None:
    """At the Grand Tichu request: ``announce`` → 307 (R2.4: Tichu only after the push), ``bomb``
    → 305 (R4.3), another action → 300, a non-bool → 101, an unknown ``request_id`` → 310, a
    missing one → 101. At the push: a closed request's id → 310, the same card twice → 302, a
    card not in the hand → 103, no such card → 102, not three cards → 300, malformed cards →
    101. Then the requests are answered and the game ends."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        anna = await server.join("Anna", "t")
        await anna.send_type("start_game")
        grand = (await anna.play(until=None, hold=lambda request: True))["payload"]
        assert grand["action"] == "announce_grand_tichu" and len(grand["context"]["hand_cards"]) == 8

        async def refused(message: Message, code: int) -> Message:
            return await expect_refused(server, anna, "t", message, code)

        await refused({"type": "announce"}, 307)
        await refused({"type": "bomb", "payload": {"cards": FOUR_TWOS}}, 305)
        payload = await refused(answer(grand, {"announced": True}, action="schupf"), 300)
        assert payload["context"]["reason"]
        for data in ({"announced": "yes"}, {"announced": 1}, {}, {"announced": None}, [True]):
            await refused(answer(grand, data), 101)
        await refused({"type": "response", "payload": {"action": grand["action"], "response_data": {}}}, 101)
        await refused(answer(grand, {"announced": False}, request_id=uuid.uuid4().hex), 310)
        await refused(answer(grand, {"announced": False}, request_id=7), 101)

        schupf = (await anna.play(until=None, hold=lambda request: request["action"] == "schupf"))["payload"]
        hand = schupf["context"]["hand_cards"]
        assert len(hand) == 14 and grand["request_id"] not in (schupf["request_id"],)
        await refused(answer(grand, {"announced": False}), 310)
        await refused(answer(schupf, {"given_schupf_cards": [hand[0], hand[0], hand[1]]}), 302)
        await refused(answer(schupf, {"given_schupf_cards": [hand[0], hand[1],
                                                             not_in_hand(card_set(hand))]}), 103)
        await refused(answer(schupf, {"given_schupf_cards": [hand[0], hand[1], [17, 0]]}), 102)
        await refused(answer(schupf, {"given_schupf_cards": [hand[0], [5, 9], hand[1]]}), 102)
        for cards in ([hand[0], hand[1]], hand[:4], []):
            payload = await refused(answer(schupf, {"given_schupf_cards": cards}), 300)
            assert payload["context"]["reason"]
        for cards in ("cards", [hand[0], hand[1], "x"], [hand[0], hand[1], [2]], [hand[0], hand[1], [2.0, 1]],
                      None, [hand[0], hand[1], [True, 1]]):
            await refused(answer(schupf, {"given_schupf_cards": cards}), 101)
        await anna.play()
        anna.assert_clean()


async def test_refused_plays_wishes_and_dragon_gifts(start_server: StartServer) -> None:
    """With a deal that gives the client the Mah Jong and the Dragon: on its lead, passing → 300
    (with ``context.reason``), ``bomb`` → 305 (R4.3, no bomb on a lead), an unknown card → 102, a
    card not in the hand → 103, a card twice → 302, cards that form no combination → 303, a
    closed request's id → 310, another action → 300, malformed cards → 101. At the wish: values
    outside 2..14 (and 0, the wish being mandatory, R5.1) → 306, ``announce`` after its first card
    → 307 (R6.1), ``bomb`` → 305. On an open trick at its turn: ``bomb`` → 304 NOT_YOUR_TURN, a
    single that does not beat → 300. At the Dragon gift: a recipient that is not an opponent →
    308 (R4.5). After each refusal the same request is still open; the game then ends."""
    seed = find_seed(lambda deals: MAHJONG in deals[0][0] and all(DRAGON in deal[0] for deal in deals), rounds=3)
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(seed=seed, target_score=1000)
        anna = await server.join("Anna", "t")
        await anna.send_type("start_game")
        provoked: set[str] = set()

        async def refused(message: Message, code: int) -> Message:
            return await expect_refused(server, anna, "t", message, code)

        async def at_lead(request: Message, hand: frozenset[Card]) -> None:
            payload = await refused(answer(request, {"cards": []}), 300)
            assert payload["context"]["reason"]
            await refused({"type": "bomb", "payload": {"cards": FOUR_TWOS}}, 305)
            await refused(answer(request, {"cards": [[99, 1]]}), 102)
            await refused(answer(request, {"cards": [[0, 3]]}), 102)
            await refused(answer(request, {"cards": [not_in_hand(hand)]}), 103)
            await refused(answer(request, {"cards": [list(MAHJONG), list(MAHJONG)]}), 302)
            pair = no_combination(hand)
            assert pair is not None
            await refused(answer(request, {"cards": pair}), 303)
            await refused(answer(request, {"cards": [list(MAHJONG)]}, request_id=first_request_id(anna)), 310)
            await refused(answer(request, {"wish_value": 5}, action="wish"), 300)
            for data in ({"cards": "Ma"}, {"cards": [[1]]}, {"cards": [[1.0, 0]]}, {"cards": [[True, 0]]},
                         {"cards": [list(card) for card in ALL_CARDS[:15]]}, {}, {"cards": None}, [[1, 0]]):
                await refused(answer(request, data), 101)
            provoked.add("lead")

        async def on_trick(request: Message, hand: frozenset[Card]) -> None:
            context = request["context"]
            if "304" not in provoked:
                await refused({"type": "bomb", "payload": {"cards": FOUR_TWOS}}, 304)
                provoked.add("304")
            trick = context["trick_combination"]
            if "beat" not in provoked and trick[0] == "single":
                lower = [[value, suit] for value, suit in sorted(hand)
                         if 2 <= value < trick[2] and [[value, suit]] not in context["legal_plays"]]
                if lower:
                    payload = await refused(answer(request, {"cards": lower[:1]}), 300)
                    assert payload["context"]["reason"]
                    provoked.add("beat")
            if "dog" not in provoked and DOG in hand:
                payload = await refused(answer(request, {"cards": [list(DOG)]}), 300)
                assert payload["context"]["reason"]
                provoked.add("dog")

        async def strategy(client: Client, request: Message) -> Message | None:
            action, context = request["action"], request["context"]
            hand = card_set(context.get("hand_cards", []))
            if action == "schupf":
                return {"given_schupf_cards": client.rng.sample([c for c in context["hand_cards"]
                                                                 if tuple(c) not in SPECIALS], 3)}
            if action == "play":
                if context["trick_combination"] is None and "lead" not in provoked:
                    await at_lead(request, hand)
                elif context["trick_combination"] is not None:
                    await on_trick(request, hand)
                for preferred in ([list(MAHJONG)], [list(DRAGON)]):
                    if preferred in context["legal_plays"]:
                        return {"cards": preferred}
            elif action == "wish" and "wish" not in provoked:
                for value in (1, 15, 0, -3, 99):
                    await refused(answer(request, {"wish_value": value}), 306)
                for data in ({"wish_value": True}, {"wish_value": "5"}, {"wish_value": 5.0}, {}):
                    await refused(answer(request, data), 101)
                await refused({"type": "announce"}, 307)
                await refused({"type": "bomb", "payload": {"cards": FOUR_TWOS}}, 305)
                await refused(answer(request, {"cards": []}, action="play"), 300)
                provoked.add("wish")
            elif action == "give_dragon_away" and "dragon" not in provoked:
                seat = client.seat
                assert seat is not None and sorted(context["opponent_indexes"]) == sorted([(seat + 1) % 4,
                                                                                          (seat + 3) % 4])
                for recipient in (seat, (seat + 2) % 4, 4, -1):
                    await refused(answer(request, {"dragon_recipient": recipient}), 308)
                for data in ({"dragon_recipient": True}, {"dragon_recipient": "1"}, {}):
                    await refused(answer(request, data), 101)
                provoked.add("dragon")
            return None

        await anna.play(strategy=strategy)
        assert {"lead", "wish", "304", "beat", "dragon"} <= provoked, provoked
        anna.assert_clean()


async def test_refused_messages_of_a_seat_that_is_not_at_turn(start_server: StartServer) -> None:
    """While another client must play on an open trick: a ``response`` with no open request →
    301 INVALID_RESPONSE, one to the seat's own closed request → 310 REQUEST_OBSOLETE; a ``bomb``
    of cards that are no bomb → 305, of a card not in the hand → 103, of no such card → 102, of a
    card twice → 302, without cards → 101. The other client's request stays open."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        ada = await server.join("Ada", "t", seed=1)
        bob = await server.join("Bob", "t", seed=2)
        await ada.send_type("start_game")
        ada_task = asyncio.create_task(ada.play())
        await bob.play(until=None, hold=lambda r: r["action"] == "play" and r["context"]["trick_combination"])
        ada_task.cancel()
        await asyncio.gather(ada_task, return_exceptions=True)
        await ada.roundtrip({"type": "ping"})
        while ada.cursor < len(ada.messages):
            ada.process(ada.messages[ada.cursor])
            ada.cursor += 1
        hand = sorted(ada.hand)
        last = [m["payload"] for m in ada.messages if is_request(m)][-1]

        async def refused(message: Message, code: int) -> Message:
            return await expect_refused(server, ada, "t", message, code)

        await refused(answer(last, {"cards": []}, request_id=uuid.uuid4().hex), 301)
        await refused(answer(last, {"cards": []}), 310)
        await refused({"type": "bomb", "payload": {"cards": [list(hand[0])]}}, 305)
        await refused({"type": "bomb", "payload": {"cards": [not_in_hand(frozenset(hand))]}}, 103)
        await refused({"type": "bomb", "payload": {"cards": [[15, 2]]}}, 102)
        await refused({"type": "bomb", "payload": {"cards": [list(hand[0]), list(hand[0])]}}, 302)
        await refused({"type": "bomb", "payload": {}}, 101)
        await refused({"type": "bomb", "payload": {"cards": {"value": 2}}}, 101)
        await asyncio.gather(ada.play(), bob.play())
        ada.assert_clean()
        bob.assert_clean()


async def test_action_timeout_309(start_server: StartServer) -> None:
    """With a turn time-out (a table setting) a client that does not answer gets ``error`` 309
    ACTION_TIMEOUT, an agent decides for it (at a play request: a ``player_played``/``player_passed``
    of its seat follows), a late answer gets 310 REQUEST_OBSOLETE, and the game goes on to its end."""
    async with asyncio.timeout(GAME_WAIT):
        server: Server = await start_server(turn_timeout=0.5)
        anna = await server.join("Anna", "t")
        await anna.send_type("start_game")
        grand = (await anna.play(until=None, hold=lambda request: True))["payload"]
        assert grand["timeout"] == 0.5
        timeout = await anna.wait_error(309)
        assert timeout["context"]["action"] == "announce_grand_tichu"
        await anna.wait_for(lambda m: is_request(m, "schupf"))
        await expect_refused(server, anna, "t", answer(grand, {"announced": False}), 310)
        held = (await anna.play(until=None, hold=lambda request: request["action"] == "play"))["payload"]
        start = len(anna.messages)
        await anna.wait_error(309, start=start)
        seat = anna.seat
        await anna.wait_for(lambda m: is_event(m, "player_played") and m["payload"]["context"]["turn"][0] == seat
                            or is_event(m, "player_passed", player_index=seat), start=start)
        # the agents play on; once Anna is asked again the table waits for her and stands still
        await anna.wait_for(lambda m: is_request(m) and m["payload"]["request_id"] != held["request_id"],
                            start=start)
        await expect_refused(server, anna, "t", answer(held, {"cards": held["context"]["legal_plays"][0]}), 310)
        await anna.play()
        assert len([m for m in anna.messages if is_error(m, 309)]) >= 2
        anna.assert_clean()
