"""The client's edge (tichu.client.messages): frames read once into the server's wire types, commands
written as the server reads them (Issue 36: one set of wire types for the server and the Python client)."""

from __future__ import annotations

import json
import typing
from pathlib import Path

import pytest

from tichu.client.messages import (
    BadFrame,
    context_of,
    encode,
    notification_of,
    read_message,
    request_context,
    request_of,
    response,
)
from tichu.server.wire import incoming
from tichu.server.wire.incoming import PlayAnswer, parse_command
from tichu.server.wire.outgoing import (
    NOTIFICATIONS,
    HandContext,
    PlayerOut,
    PlayerPlayed,
    RequestPayload,
    WishContext,
)

STREAM = Path(__file__).resolve().parents[2] / "tests" / "data" / "golden_stream.txt"


def _frames() -> list[str]:
    """The frames seat 0 received during a whole game at a live server (the records after them left out)."""
    lines = [line for line in STREAM.read_text(encoding="utf-8").splitlines() if line]
    return [line for line in lines if json.loads(line).get("type") in ("request", "notification", "error", "pong")]


def test_every_frame_of_a_real_game_reads_as_its_type() -> None:
    """Real traffic (the golden stream) reads whole, and each context is its event's type."""
    frames = _frames()
    events = set()
    for frame in frames:
        message = read_message(frame)
        assert message == json.loads(frame)
        payload = notification_of(message)
        if payload is not None:
            events.add(payload["event"])
            context_of(payload, NOTIFICATIONS[payload["event"]])
    assert len(frames) > 1000 and {"player_played", "trick_taken", "round_over", "game_over"} <= events


def _notification(event: str, context: object) -> str:
    return json.dumps({"type": "notification", "payload": {"event": event, "context": context}})


TURN = [1, [[5, 1]], ["single", 1, 5]]
PLAYED = {"turn": TURN, "trick_points": 5, "trick_owner_index": 1, "is_bomb": False, "out_of_turn": False}


@pytest.mark.parametrize(("frame", "why"), [
    ("{not json", "not JSON"),
    ("[1, 2]", "not a JSON object"),
    ('{"type": "hello"}', "unknown message type 'hello'"),
    ('{"type": "notification"}', "the message: missing field 'payload'"),
    (_notification("player_out", {"player_index": 1}), "payload.context: missing field 'place'"),
    (_notification("player_out", {"player_index": True, "place": 1}), "payload.context.player_index has the wrong"),
    (_notification("player_played", {**PLAYED, "turn": [1, [[5, 1]], ["single", 1, "5"]]}),
     r"payload.context.turn\[2\]\[2\] has the wrong type"),
    (_notification("player_played", {**PLAYED, "turn": [1, [[5]], ["single", 1, 5]]}),
     r"payload.context.turn\[1\]\[0\] is not a list of 2"),
    (_notification("hands_revealed", {"hands": "all"}), "payload.context.hands is not a list"),
    (json.dumps({"type": "request", "payload": {"request_id": "r", "action": "dance", "context": {},
                                                 "timeout": None}}), "payload: unknown request action 'dance'"),
    (json.dumps({"type": "request", "payload": {"request_id": "r", "action": "wish", "context": {},
                                                 "timeout": None}}), "payload.context: missing field 'wish_values'"),
    (_notification("player_joined", {"player_index": 0, "player_name": "Ann", "pending_request": {
        "request_id": "r", "action": "schupf", "context": {"hand_cards": 3}, "timeout": 30}}),
     "payload.context.pending_request.context.hand_cards is not a list"),
    (json.dumps({"type": "error", "payload": {"message": "no", "code": "300", "context": {}}}),
     "payload.code has the wrong type"),
])
def test_a_bad_frame_is_refused_saying_what_is_wrong_where(frame: str, why: str) -> None:
    with pytest.raises(BadFrame, match=why):
        read_message(frame)


def test_a_newer_servers_additions_are_read() -> None:
    """A field the types do not know, and an event they do not know (any object as its context), are
    allowed: protocol.md lets a server add fields and events without changing a message's meaning."""
    added = notification_of(read_message(_notification("player_played", {**PLAYED, "seen": True})))
    assert added is not None and context_of(added, PlayerPlayed)["turn"] == TURN
    assert notification_of(read_message(_notification("fireworks", {"colour": "gold"}))) == {
        "event": "fireworks", "context": {"colour": "gold"}}
    with pytest.raises(BadFrame, match="payload.context is not an object"):
        read_message(_notification("fireworks", [1]))


def test_a_context_is_handed_out_only_as_its_own_type() -> None:
    payload = notification_of(read_message(_notification("player_out", {"player_index": 2, "place": 1})))
    assert payload is not None and context_of(payload, PlayerOut) == {"player_index": 2, "place": 1}
    with pytest.raises(TypeError, match="no PlayerPlayed"):
        context_of(payload, PlayerPlayed)
    sent = {"request_id": "r", "action": "wish", "context": {"wish_values": [2, 0]}, "timeout": None}
    request = request_of(read_message(json.dumps({"type": "request", "payload": sent})))
    assert request is not None and request_context(request, WishContext) == {"wish_values": [2, 0]}
    with pytest.raises(TypeError, match="no HandContext"):
        request_context(request, HandContext)


def _example(cls: type[incoming.Command]) -> incoming.Command:
    """A command of each type with a value in each field (as the schema's types say)."""
    samples: dict[object, object] = {str: "x", int: 1, bool: True}
    values: dict[str, object] = {}
    for name, hint in typing.get_type_hints(cls).items():
        if name == "TYPE":
            continue
        if name == "response_data":
            values[name] = {"cards": [[5, 1]]}
        elif name == "cards":
            values[name] = ((14, 1), (14, 2), (14, 3), (14, 4))
        else:
            values[name] = samples[next(arg for arg in (*typing.get_args(hint), hint) if arg in samples)]
    return cls(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", typing.get_args(incoming.Command))
def test_what_the_client_writes_the_server_reads_back(cls: type[incoming.Command]) -> None:
    """Each command the client may send, written by :func:`encode`, is the same command to the
    server's parser: the client writes the server's own types."""
    command = _example(cls)
    assert parse_command(encode(command)) == command


def test_an_answer_becomes_the_response_to_its_request() -> None:
    request: RequestPayload = {"request_id": "r-9", "action": "play", "timeout": None, "context": {
        "hand_cards": [[5, 1]], "trick_combination": None, "trick_owner_index": None, "wish_value": None,
        "legal_plays": [[[5, 1]], []], "hint": None}}
    answer = response(request, PlayAnswer(cards=((5, 1),)))
    assert json.loads(encode(answer)) == {"type": "response", "payload": {
        "request_id": "r-9", "action": "play", "response_data": {"cards": [[5, 1]]}}}
    read_back = parse_command(encode(answer))
    assert isinstance(read_back, incoming.Response)
    assert incoming.decode(PlayAnswer, read_back.response_data) == PlayAnswer(cards=((5, 1),))
