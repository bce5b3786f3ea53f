"""Unprompted client actions after seat swaps: Tichu calls and out-of-turn bombs
(protocol.md "Client to server, unprompted", ``swap_players``; rules R4.3, R6.1)."""

from __future__ import annotations

import asyncio
import time

from tests.support.cards import Card, card_set, find_seed, labels_set, mask_from_json
from tests.support.checks import check_requests, check_seat_messages
from tests.support.live_server import Message, read_table_records
from tests.support.raw_client import GAME_WAIT, SKIP, Client, Skip, StartServer, is_event
from tichu.core.cards import mask_of
from tichu.core.combos import bombs_of
from tichu.server.wire.protocol import cards_json


def bomb_cards(hand: list[list[int]]) -> frozenset[Card]:
    """Every card of the hand that is part of a bomb (R3.7)."""
    cards: set[Card] = set()
    for play in bombs_of(mask_from_json(hand)):
        cards |= card_set(cards_json(play[0]))
    return frozenset(cards)


async def test_swapped_clients_call_tichu_and_bomb_in_their_new_seats(start_server: StartServer) -> None:
    """Four clients join (seats 0..3); the host swaps seats 1 and 3, then 1 and 2. Each client
    then plays in its new seat: its hands are the new seat's deal, it calls Tichu with
    ``announce`` before its first card (everyone gets ``player_announced`` with its new seat and
    ``grand: false``, R6.1), and a client holding a bomb throws it with ``bomb`` while another
    client must play: everyone gets ``player_played`` with ``out_of_turn: true`` and
    ``is_bomb: true``, the seat at turn gets ``request_cancelled`` for its request, and play goes
    on after the bomber (R4.3). The record shows the new seats, the calls and the bombs."""
    seed = find_seed(lambda deals: any(bombs_of(mask_of(deals[0][seat])) for seat in (1, 2, 3)))
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(seed=seed, target_score=300)
        host, bea, cid, dan = clients = [await server.join(name, "swap", seed=index)
                                         for index, name in enumerate(["Host", "Bea", "Cid", "Dan"])]
        await host.send_type("swap_players", player_index_1=1, player_index_2=3)
        await host.send_type("swap_players", player_index_1=1, player_index_2=2)
        for client in clients:
            await client.play(until=lambda m: is_event(m, "players_swapped", player_index_1=1, player_index_2=2))
        assert [host.seat, bea.seat, cid.seat, dan.seat] == [0, 3, 1, 2]
        assert [peer.name if peer else None for peer in server.table("swap").peers] == ["Host", "Cid", "Dan", "Bea"]
        by_seat = sorted(clients, key=lambda c: c.seat or 0)
        announced: set[int] = set()
        bombs: list[tuple[int, frozenset[Card]]] = []

        async def throw_bomb(at_turn: Client, request: Message, bomber: Client, cards: list[list[int]]) -> None:
            start_bomber, start_turn = len(bomber.messages), len(at_turn.messages)
            await bomber.send_type("bomb", cards=cards)
            played = await bomber.wait_event("player_played", start=start_bomber)
            assert played["turn"][0] == bomber.seat and card_set(played["turn"][1]) == card_set(cards)
            assert played["turn"][2][0] == "bomb" and played["is_bomb"] is True and played["out_of_turn"] is True
            assert played["trick_owner_index"] == bomber.seat
            await at_turn.wait_event("request_cancelled", start=start_turn, request_id=request["request_id"])
            round_ = server.table("swap").round
            assert round_ is not None
            if not round_.is_over and bomber.seat is not None:
                after = next(seat for seat in ((bomber.seat + k) % 4 for k in (1, 2, 3, 4)) if round_.hands[seat])
                changed = await at_turn.wait_event("player_turn_changed", start=start_turn)
                assert changed["current_turn_index"] == after
            bombs.append((bomber.seat or 0, card_set(cards)))

        async def strategy(client: Client, request: Message) -> Message | Skip | None:
            action, context = request["action"], request["context"]
            seat = client.seat
            assert seat is not None
            if action == "schupf":
                keep = bomb_cards(context["hand_cards"])
                free = [card for card in context["hand_cards"] if tuple(card) not in keep]
                if len(free) >= 3:
                    return {"given_schupf_cards": client.rng.sample(free, 3)}
                return None
            if action != "play":
                return None
            first_round = client.events("round_started")[-1]["round_index"] == 0
            if first_round and seat not in announced and not client.played_this_round:
                start = len(client.messages)
                await client.send_type("announce")
                called = await client.wait_event("player_announced", start=start, player_index=seat)
                assert (called["player_index"], called["grand"]) == (seat, False)
                assert called["public_delta"]["announcements"][seat] == 1  # Issue 36: the state sent
                announced.add(seat)
                again = await client.roundtrip({"type": "announce"})  # R6.3: one call per round
                assert [m["payload"]["code"] for m in again] == [307], again
            if context["trick_combination"] is not None and len(bombs) < 3:
                round_ = server.table("swap").round
                assert round_ is not None
                for other in by_seat:
                    if other is client or other.seat is None or (first_round and other.seat not in announced):
                        continue
                    options = round_.bombs_for(other.seat)
                    if options:
                        await throw_bomb(client, request, other, cards_json(options[0][0]))
                        return SKIP
            keep = bomb_cards(context["hand_cards"])
            plays = [play for play in context["legal_plays"] if not card_set(play) & keep] or context["legal_plays"]
            return {"cards": client.rng.choice(plays)}

        await host.send_type("start_game")
        await asyncio.gather(*(client.play(strategy=strategy) for client in clients))
        assert announced == {0, 1, 2, 3}
        assert bombs, "no client ever held a bomb while another client was at turn"
        for client in clients:
            client.assert_clean()
            calls = [c for c in client.events("player_announced")]
            assert sorted(call["player_index"] for call in calls) == [0, 1, 2, 3]
            assert all(call["grand"] is False for call in calls)
        [record] = read_table_records(server, "swap")
        assert [p["name"] for p in record["players"]] == ["Host", "Cid", "Dan", "Bea"]
        assert sorted(e["seat"] for e in record["rounds"][0]["events"] if "tichu" in e) == [0, 1, 2, 3]
        recorded = [(e["seat"], labels_set(e["bomb"])) for r in record["rounds"] for e in r["events"] if "bomb" in e]
        assert recorded == bombs
        for client in clients:
            check_seat_messages(client, record)
            assert check_requests(client) > 0


async def test_a_client_bombs_in_the_bomb_window(start_server: StartServer) -> None:
    """protocol.md "The bomb window": with clients seated, after the last pass the trick is not
    collected for ``bomb_window`` seconds, and a client's ``bomb`` may still land on it (R4.3:
    "also after the last pass until the trick is taken"): ``player_played`` with ``out_of_turn:
    true`` arrives before any ``trick_taken`` for that trick, and play goes on after the bomber."""
    window = 0.25
    seed = find_seed(lambda deals: any(bombs_of(mask_of(deals[0][seat])) for seat in range(4)))
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(seed=seed, target_score=200, bomb_window=window)
        clients = [await server.join(name, "window", seed=index) for index, name in enumerate("ABCD")]
        thrown: list[tuple[Client, int]] = []
        switched: list[float] = []

        async def strategy(client: Client, request: Message) -> Message | None:
            context = request["context"]
            keep = bomb_cards(context.get("hand_cards", []))
            if request["action"] == "schupf":
                free = [card for card in context["hand_cards"] if tuple(card) not in keep]
                return {"given_schupf_cards": client.rng.sample(free, 3)} if len(free) >= 3 else None
            if request["action"] == "play":
                plays = [p for p in context["legal_plays"] if not card_set(p) & keep] or context["legal_plays"]
                return {"cards": client.rng.choice(plays)}
            return None

        async def watch() -> None:
            while not thrown:
                table = server.table("window")
                round_ = table.round
                if round_ is not None and round_.trick_closed and not round_.is_over:
                    for client in clients:
                        options = round_.bombs_for(client.seat or 0)
                        if options:
                            thrown.append((client, len(client.messages)))
                            await client.send_type("bomb", cards=cards_json(options[0][0]))
                            await client.wait_event("trick_taken", start=thrown[0][1])
                            assert table.engine is not None
                            table.engine.bomb_window = 0.0  # the rest of the game at full speed
                            switched.append(time.monotonic())
                            return
                await asyncio.sleep(0.01)

        await clients[0].send_type("start_game")
        watcher = asyncio.create_task(watch())
        await asyncio.gather(*(client.play(until="round_over", strategy=strategy) for client in clients))
        assert watcher.done(), "no client held a bomb when a trick was closed in round 0"
        await watcher
        bomber, start = thrown[0]
        index, message = await bomber.wait_for(lambda m: is_event(m, "player_played") or is_event(m, "trick_taken"),
                                               start=start)
        played = message["payload"]["context"]
        assert is_event(message, "player_played"), f"the trick was taken before the bomb landed: {message}"
        assert played["turn"][0] == bomber.seat and played["out_of_turn"] is True and played["is_bomb"] is True
        last_pass = max(i for i in range(index) if is_event(bomber.messages[i], "player_passed"))
        assert not [m for m in bomber.messages[last_pass:index] if is_event(m, "trick_taken")]
        checked = 0
        for client in clients:  # R4.3: each trick closed by passes is collected only after the window
            for i, m in enumerate(client.messages):
                if not is_event(m, "trick_taken") or client.times[i] >= switched[0]:
                    continue
                before = [j for j in range(i) if is_event(client.messages[j], "player_passed")
                          or is_event(client.messages[j], "player_played")]
                if before and is_event(client.messages[before[-1]], "player_passed"):
                    assert client.times[i] - client.times[before[-1]] >= window * 0.8
                    checked += 1
        assert checked > 0
        await asyncio.gather(*(client.play(strategy=strategy) for client in clients))
        for client in clients:
            client.assert_clean()
