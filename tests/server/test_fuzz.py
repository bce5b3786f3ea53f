"""Malformed input at a live table (protocol.md "Messages" and "Errors").

"A frame over 64 KiB, binary data, or anything that is not such an object is answered with
INVALID_MESSAGE and the connection stays open"; "A refused message never changes the game
state and never closes the connection"; "No input, however malformed, may crash a table or
the server". Hundreds of generated malformed messages (hypothesis strategies for JSON-ish
garbage and near-miss protocol messages, plus seeded random mutations of valid answers) are
thrown at a table in the lobby and at every kind of open request of a game; each one must be
answered by exactly one ``error`` (never 100 UNKNOWN_ERROR, which means a handler raised),
change nothing, and leave the socket open; then the game is played to its end.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
from typing import Any

from hypothesis import strategies as st

from tests.support.cards import card_set
from tests.support.checks import expect_refused, table_snapshot
from tests.support.fuzz import collect_examples
from tests.support.live_server import WAIT, Message
from tests.support.raw_client import GAME_WAIT, Client, Server, StartServer, is_error

ACTIONS = ["announce_grand_tichu", "schupf", "play", "wish", "give_dragon_away"]
OPEN, STALE = "<open request id>", "<stale request id>"
#: Message types a client may send; ``leave``, ``ping`` and ``announce`` are not malformed with
#: any payload (they leave, pong, or call Tichu), so they are not thrown.
THROWN_TYPES = ["response", "bomb", "swap_players", "start_game"]

text = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | text
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(text, inner, max_size=4), max_leaves=12)
card_like = st.lists(st.integers(-3, 20), min_size=2, max_size=2) | st.tuples(st.integers(0, 16), st.booleans()) \
    | st.tuples(st.floats(0, 16), st.integers(0, 4)) | json_values
cards_like = st.lists(card_like, max_size=16) | json_values
response_data = st.fixed_dictionaries({}, optional={
    "cards": cards_like, "announced": json_values, "given_schupf_cards": cards_like,
    "wish_value": json_values, "dragon_recipient": json_values}) | json_values
response_payload = st.fixed_dictionaries({}, optional={
    "request_id": st.sampled_from([OPEN, STALE]) | json_values,
    "action": st.sampled_from(ACTIONS) | json_values,
    "response_data": response_data})

#: (category, message) pairs; a str message is sent as it is, anything else as JSON.
malformed = st.one_of(
    st.tuples(st.just("text"), text.filter(lambda t: not _is_json_object(t))),
    st.tuples(st.just("not an object"), json_values.filter(lambda v: not isinstance(v, dict))),
    st.tuples(st.just("unknown type"), st.fixed_dictionaries(
        {"type": json_values.filter(lambda t: not isinstance(t, str) or t not in THROWN_TYPES + ["leave", "ping",
                                                                                                 "announce"])},
        optional={"payload": json_values})),
    st.tuples(st.just("payload not an object"), st.fixed_dictionaries({
        "type": st.sampled_from(THROWN_TYPES),
        "payload": json_values.filter(lambda v: v is not None and not isinstance(v, dict))})),
    st.tuples(st.just("response"), st.fixed_dictionaries({"type": st.just("response"),
                                                          "payload": response_payload})),
    st.tuples(st.just("bomb"), st.fixed_dictionaries({"type": st.just("bomb")}, optional={
        "payload": st.fixed_dictionaries({}, optional={"cards": cards_like})})),
    st.tuples(st.just("lobby"), st.fixed_dictionaries({"type": st.sampled_from(["swap_players", "start_game"])},
                                                      optional={"payload": st.fixed_dictionaries({}, optional={
                                                          "player_index_1": json_values,
                                                          "player_index_2": json_values})})),
)


def is_action(action: str, request: Message) -> bool:
    """Whether a request is for this action."""
    return bool(request["action"] == action)


def _is_json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def _is_card(item: Any) -> bool:
    return (isinstance(item, list) and len(item) == 2
            and all(isinstance(part, int) and not isinstance(part, bool) for part in item))


def is_valid_answer(request: Message | None, payload: Any) -> bool:
    """Whether a ``response`` payload is a valid answer to the open request (then it is not thrown)."""
    if request is None or not isinstance(payload, dict):
        return False
    if payload.get("request_id") != request["request_id"] or payload.get("action") != request["action"]:
        return False
    data = payload.get("response_data", {})
    if not isinstance(data, dict):
        return False
    context = request["context"]
    action = request["action"]
    if action == "announce_grand_tichu":
        return isinstance(data.get("announced"), bool)
    if action in ("schupf", "play"):
        cards = data.get("given_schupf_cards" if action == "schupf" else "cards")
        if not isinstance(cards, list) or not all(_is_card(card) for card in cards):
            return False
        chosen = card_set(cards)
        if len(chosen) != len(cards):
            return False
        if action == "schupf":
            return len(cards) == 3 and chosen <= card_set(context["hand_cards"])
        return any(chosen == card_set(play) for play in context["legal_plays"])
    value = data.get("wish_value" if action == "wish" else "dragon_recipient")
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return 2 <= value <= 14 if action == "wish" else value in context["opponent_indexes"]


def concrete(message: Any, request: Message | None, stale: str) -> Any:
    """Fill the request id placeholders of a generated message."""
    if isinstance(message, dict) and message.get("type") == "response" and isinstance(message.get("payload"), dict):
        payload = dict(message["payload"])
        if payload.get("request_id") == OPEN:
            payload["request_id"] = request["request_id"] if request else stale
        elif payload.get("request_id") == STALE:
            payload["request_id"] = stale
        return {**message, "payload": payload}
    return message


def mutations(rng: random.Random, request: Message, count: int) -> list[tuple[str, Any]]:
    """Seeded random near misses: a valid answer to ``request`` with one thing broken."""
    valid = Client.random_answer(_Dummy(rng), request)  # type: ignore[arg-type]
    key = next(iter(valid))
    out: list[tuple[str, Any]] = []
    for _ in range(count):
        payload: dict[str, Any] = {"request_id": OPEN, "action": request["action"], "response_data": dict(valid)}
        choice = rng.randrange(8)
        if choice == 0:
            del payload[rng.choice(list(payload))]
        elif choice == 1:
            payload["response_data"][key] = rng.choice([None, "x", 3.5, [], {}, True, -1, 2**64])
        elif choice == 2:
            payload["action"] = rng.choice([a for a in ACTIONS if a != request["action"]] + ["", "PLAY", 5])
        elif choice == 3:
            payload["request_id"] = rng.choice([STALE, "", request["request_id"].upper(), 12, None])
        elif choice == 4:
            payload["response_data"] = {}
        elif choice == 5 and isinstance(valid[key], list):
            broken: list[Any] = [list(card) for card in valid[key]] or [[2, 1]]
            broken[rng.randrange(len(broken))] = rng.choice([[0, 1], [14, 5], [16, 16], [-1, -1], [2], "Ma"])
            payload["response_data"][key] = broken
        elif choice == 6 and isinstance(valid[key], list) and valid[key]:
            payload["response_data"][key] = valid[key] + [valid[key][0]]
        else:
            payload["response_data"] = {key: valid[key], "extra": 1, **({} if rng.random() < 0.5 else {key: None})}
        out.append(("mutation", {"type": "response", "payload": payload}))
    return out


class _Dummy:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.grand_tichu_rate = 0.5


async def throw(server: Server, client: Client, table: str, batch: list[tuple[str, Any]], stale: str,
                in_lobby: bool = False) -> int:
    """Throw a batch at the client's table; return how many were thrown."""
    thrown = 0
    for category, message in batch:
        request = client.open_request
        message = concrete(message, request, stale)
        if isinstance(message, dict):
            if message.get("type") == "response" and is_valid_answer(request, message.get("payload")):
                continue
            if in_lobby and message.get("type") in ("swap_players", "start_game"):
                continue
        frame = message if isinstance(message, str) else json.dumps(message)
        before = table_snapshot(server, table)
        answers = await client.roundtrip(frame)
        assert [answer.get("type") for answer in answers] == ["error"], (category, frame, answers)
        code = answers[0]["payload"]["code"]
        assert code != 100, f"a handler raised on {frame!r}"
        if category in ("text", "not an object", "unknown type", "payload not an object"):
            assert code == 101, (category, frame, answers)
        assert table_snapshot(server, table) == before, (category, frame)
        assert not client.closed.is_set(), (category, frame)
        if request is not None:
            assert client.open_request is request
        thrown += 1
    return thrown


async def test_malformed_messages_never_break_a_table(start_server: StartServer) -> None:
    """At least 200 generated malformed messages, in the lobby and at Grand Tichu, push and
    play requests, plus a frame over 64 KiB and binary frames: each gets exactly one ``error``
    (101 for anything that is not a message object of a known type), none changes the table
    or closes the socket, the open request stays open, and the game then ends normally."""
    examples = collect_examples(malformed, 360)
    rng = random.Random(2024)
    rng.shuffle(examples)
    batches = [examples[:60], examples[60:140], examples[140:220], examples[220:]]
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        anna = await server.join("Anna", "fuzz")
        thrown = await throw(server, anna, "fuzz", batches[0], "nope", in_lobby=True)
        await anna.send_type("start_game")
        in_game = 0
        stale = "nope"
        for batch, action in zip(batches[1:], ("announce_grand_tichu", "schupf", "play")):
            request = (await anna.play(until=None, hold=functools.partial(is_action, action)))["payload"]
            batch = batch + mutations(rng, request, 25)
            in_game += await throw(server, anna, "fuzz", batch, stale)
            stale = request["request_id"]
        await expect_refused(server, anna, "fuzz", json.dumps({"type": "ping", "pad": "x" * (65 * 1024)}), 101)
        await expect_refused(server, anna, "fuzz", "[" * (70 * 1024), 101)
        for data in (b"\x00\x01", json.dumps({"type": "ping"}).encode(), b""):
            await expect_refused(server, anna, "fuzz", data, 101)
        assert thrown + in_game >= 250 and in_game >= 200, (thrown, in_game)
        await anna.play()
        anna.assert_clean()


async def test_deeply_nested_and_oversized_input(start_server: StartServer) -> None:
    """Deep nesting (a JSON recursion bomb under 64 KiB) gets 101; a frame over 1 MiB may close
    the socket with 1009 (protocol.md) but must not break the table: another client still plays."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        anna = await server.join("Anna", "t")
        bob = await server.join("Bob", "t")
        deep = '{"type": "response", "payload": ' + "[" * 30000 + "]" * 30000 + "}"
        await expect_refused(server, anna, "t", deep, 101)
        await expect_refused(server, anna, "t", '{"type": "bomb", "payload": {"cards": ' + "[" * 20000 + "]" * 20000
                             + "}}", 101)
        start = len(anna.messages)
        await anna.ws.send_str("x" * (1024 * 1024 + 10))
        await anna.wait_for(lambda m: is_error(m, 101), start=start, timeout=WAIT, or_closed=True)
        if anna.closed.is_set():
            assert anna.close_code == 1009
        await anna.ws.close()
        await bob.wait_event("player_left", timeout=WAIT)
        await bob.send_type("start_game")
        await bob.play()
        bob.assert_clean()



async def test_a_frame_over_64_kib_is_refused_even_with_few_characters(start_server: StartServer) -> None:
    """protocol.md: "A frame over 64 KiB ... is answered with INVALID_MESSAGE". 64 KiB are bytes: a
    ``ping`` padded to 90 KB of UTF-8 with 30,000 three-byte characters is such a frame and must
    get 101, not ``pong``."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        anna = await server.join("Anna", "t")
        frame = json.dumps({"type": "ping", "pad": "\u20ac" * 30000}, ensure_ascii=False)
        assert len(frame.encode()) > 64 * 1024 > len(frame)
        await expect_refused(server, anna, "t", frame, 101)
