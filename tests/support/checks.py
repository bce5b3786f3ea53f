"""Checks of what a server sent: privacy, requests, combinations, and refusals that change nothing.

Each ``check_*`` reads every message one seat's raw :class:`~tests.support.raw_client.Client`
received during a game and fails on the first breach of protocol.md (and of the rules'
privacy, R8); :func:`expect_refused` checks that a refused message leaves the table as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.support.cards import Card, card_set, labels_set
from tests.support.live_server import Message
from tests.support.raw_client import Client, Server, is_event
from tichu.core.round import Round


def table_snapshot(server: Server, table_name: str) -> tuple[Any, ...]:
    """Everything a refused message must leave unchanged at a table (white-box)."""
    table = server.table(table_name)
    info = table.info
    round_: Round | None = table.round
    pending = tuple(peer.pending.payload["request_id"] if peer and peer.pending else None for peer in table.peers)
    seats = tuple(peer.name if peer else None for peer in table.peers)
    if round_ is None:
        return info.phase, info.host_index, tuple(info.player_names), info.is_running, seats, pending
    return (info.phase, info.host_index, tuple(info.player_names), info.is_running, seats, pending,
            round_.phase, round_.decision, round_.decision_seat, tuple(round_.hands), round_.trick,
            round_.trick_owner, round_.trick_closed, tuple(round_.announcements), round_.wish_value,
            round_.wish_open, tuple(round_.out_order), len(round_.events), tuple(round_.given),
            tuple(round_.won), round_.played)


async def expect_refused(server: Server, client: Client, table: str, message: Message | str | bytes,
                         code: int) -> Message:
    """Send a message that must be answered with exactly one ``error`` of ``code`` and change
    nothing at the table (protocol.md "Errors": a refused message never changes the game state
    and never closes the connection; the open request stays open).

    :returns: The error's payload.
    """
    before = table_snapshot(server, table)
    payload = await client.expect_error(message, code)
    assert table_snapshot(server, table) == before, f"{message!r} changed the table"
    assert not client.closed.is_set()
    return payload


#: Keys whose values hold a seat's private cards (``bombs``: of its ``private_state``, docs/server.md).
PRIVATE_KEYS = {"hand_cards", "legal_plays", "hint", "bombs", "received_schupf_cards", "given_schupf_cards", "hands"}


def walk(value: Any) -> Iterator[tuple[str, Any]]:
    """Every ``(key, value)`` pair in nested JSON objects and lists."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def check_seat_messages(client: Client, record: Message) -> int:
    """Check every message one seat received against the record; return the ``hands_revealed`` count.

    - ``hand_cards`` (notifications, requests, ``private_state``) and every ``legal_plays``,
      ``hint`` and ``bombs`` entry hold only the seat's own cards of the current round (R8.2);
      the 8 and the 14 dealt cards are exactly the seat's deal;
    - ``received_schupf_cards`` are exactly the cards pushed to this seat, ``given_schupf_cards``
      the seat's own push (R2.3, R8.2);
    - ``hands_revealed`` arrives only after the seat itself is out (R8.3);
    - ``player_played`` carries exactly the cards played, in the record's order, and
      ``out_of_turn`` only for the record's out-of-turn bombs;
    - ``public_state`` has no hand of any seat (R8.1: counts only).
    """
    seat = client.seat
    assert seat is not None
    rounds = record["rounds"]
    round_index: int | None = None
    own: frozenset[Card] = frozenset()
    out: list[int] = []
    plays: list[list[tuple[int, frozenset[Card], bool]]] = [[] for _ in rounds]
    revealed = 0
    for message in client.messages:
        payload = message.get("payload") or {}
        if is_event(message, "round_started"):
            round_index = payload["context"]["round_index"]
            data = rounds[round_index]
            deal8, rest = labels_set(data["deal"][seat]), labels_set(data["deal_rest"][seat])
            push = data["push"]
            received = [labels_set(push[(seat + 1) % 4][2]), labels_set(push[(seat + 2) % 4][1]),
                        labels_set(push[(seat + 3) % 4][0])]
            given = [labels_set(label) for label in push[seat]]
            own = deal8 | rest | frozenset().union(*received)
            out = []
        for key, value in walk(payload):
            if key not in PRIVATE_KEYS or value is None:
                continue
            assert round_index is not None or value == [], (key, message)
            if key == "hand_cards":
                assert card_set(value) <= own, (seat, message)
            elif key in ("legal_plays", "hint", "bombs"):
                assert all(card_set(play) <= own for play in value), (seat, message)
            elif key == "received_schupf_cards":
                assert [card_set([card]) for card in value] == received, (seat, message)
            elif key == "given_schupf_cards":
                assert [card_set([card]) for card in value] == given, (seat, message)
            elif key == "hands":
                assert is_event(message, "hands_revealed"), message
        if message.get("type") == "request":
            context = payload["context"]
            if payload["action"] == "announce_grand_tichu":
                assert card_set(context["hand_cards"]) == deal8
            elif payload["action"] == "schupf":
                assert card_set(context["hand_cards"]) == deal8 | rest
            elif payload["action"] == "play":
                hand = card_set(context["hand_cards"])
                assert all(card_set(play) <= hand for play in context["legal_plays"]), message
        if message.get("type") != "notification":
            continue
        event, context = payload["event"], payload["context"]
        if event == "hand_cards_dealt":
            assert card_set(context["hand_cards"]) == (deal8 if context["count"] == 8 else deal8 | rest)
        elif event == "player_out":
            out.append(context["player_index"])
        elif event == "hands_revealed":
            assert seat in out, f"seat {seat} got hands_revealed while still playing (R8.3): {message}"
            revealed += 1
        elif event == "player_played":
            assert round_index is not None
            player, cards, _ = context["turn"]
            plays[round_index].append((player, card_set(cards), context["out_of_turn"]))
        elif event == "player_joined":
            public = context.get("public_state") or {}
            assert not [key for key in public if "hand" in key and key != "count_hand_cards"], public
            if "session_id" not in context:
                assert set(context) == {"player_index", "player_name"}, context
    for index, data in enumerate(rounds):
        expected = [(event["seat"], labels_set(event.get("play", event.get("bomb", ""))), "bomb" in event)
                    for event in data["events"] if "play" in event or "bomb" in event]
        assert plays[index] == expected, f"seat {seat}, round {index}: player_played differs from the record"
    return revealed


def check_requests(client: Client, timeout: float | None = None) -> int:
    """Check the shape of every request a seat got (protocol.md "Requests and responses").

    - ``timeout`` is the table's turn time-out (null without one);
    - on a lead ``trick_combination`` and ``trick_owner_index`` are null and ``legal_plays``
      has no ``[]``; on a trick the owner is a seat and the pass is offered unless the wish forbids it;
    - "When a notification and a request arise from one event, the notification is sent
      first": the last ``start_playing`` / ``player_turn_changed`` before a ``play`` request
      names this seat.

    :returns: The number of ``play`` requests checked.
    """
    turn: int | None = None
    plays = 0
    for message in client.messages:
        payload = message.get("payload") or {}
        if is_event(message, "start_playing"):
            turn = payload["context"]["start_player_index"]
        elif is_event(message, "player_turn_changed"):
            turn = payload["context"]["current_turn_index"]
        if message.get("type") != "request":
            continue
        assert set(payload) == {"request_id", "action", "context", "timeout"}, payload
        assert payload["timeout"] == timeout, payload
        if payload["action"] != "play":
            continue
        plays += 1
        context = payload["context"]
        assert set(context) >= {"hand_cards", "trick_combination", "trick_owner_index", "wish_value",
                                "legal_plays", "hint"}, context
        assert turn == client.seat, f"play request for seat {client.seat} but the last turn notice named {turn}"
        assert context["legal_plays"], payload
        if context["trick_combination"] is None:
            assert context["trick_owner_index"] is None and [] not in context["legal_plays"], payload
        else:
            assert context["trick_owner_index"] in (0, 1, 2, 3), payload
            assert [] in context["legal_plays"] or context["wish_value"], payload
    return plays


def check_combinations(client: Client) -> int:
    """Check the ``[type, length, rank]`` of every ``player_played`` a seat got (protocol.md
    "Messages"): the length is the number of cards, ranks are integers except a Phoenix single,
    whose rank is the previous single's rank + 0.5, or 1.5 when led (R3.6).

    :returns: The number of Phoenix singles checked.
    """
    previous: float | None = None  # rank of the single on top of the open trick
    phoenixes = 0
    for message in client.messages:
        if is_event(message, "trick_taken") or is_event(message, "round_started"):
            previous = None
        if not is_event(message, "player_played"):
            continue
        _, cards, combination = message["payload"]["context"]["turn"]
        kind, length, rank = combination
        assert kind in ("single", "pair", "triple", "stair", "fullhouse", "street", "bomb"), combination
        assert length == len(cards), (cards, combination)
        if cards == [[16, 0]]:
            assert combination == ["single", 1, 1.5 if previous is None else previous + 0.5], (previous, combination)
            phoenixes += 1
        else:
            assert isinstance(rank, int), combination
        if cards == [[0, 0]]:
            previous = None  # the Dog gives the lead away (R3.10)
        elif kind == "single":
            previous = rank
    return phoenixes
