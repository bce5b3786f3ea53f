"""A client's frame is parsed once into a typed command, or refused with INVALID_MESSAGE naming the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tichu.server.codes import ErrorCode
from tichu.server.wire.incoming import (
    ANSWERS,
    MAX_LIST_ITEMS,
    Bomb,
    Chat,
    Ping,
    PlayAnswer,
    Response,
    SetOptions,
    StartGame,
    decode,
    parse_command,
)
from tichu.server.wire.protocol import ProtocolError


def refused(text: str) -> str:
    with pytest.raises(ProtocolError) as caught:
        parse_command(text)
    assert caught.value.code == ErrorCode.INVALID_MESSAGE
    return str(caught.value)


def test_frames_become_commands_with_their_values() -> None:
    assert parse_command('{"type": "ping"}') == Ping()
    assert parse_command('{"type": "start_game", "payload": null}') == StartGame()
    assert parse_command('{"type": "chat", "payload": {"text": "hi"}}') == Chat("hi")
    assert parse_command('{"type": "bomb", "payload": {"cards": [[2, 1], [2, 2]]}}') == Bomb(((2, 1), (2, 2)))
    assert parse_command('{"type": "set_options", "payload": {"hints": false, "agent": null}}') == \
        SetOptions(hints=False)
    response = parse_command(json.dumps({"type": "response", "payload": {
        "request_id": "r", "action": "play", "response_data": {"cards": [[3, 1]]}}}))
    assert response == Response("r", "play", {"cards": [[3, 1]]})
    assert isinstance(response, Response)
    assert decode(ANSWERS[response.action], response.response_data) == PlayAnswer(((3, 1),))


def test_every_refusal_names_what_was_wrong() -> None:
    assert refused('{"type": "dance"}') == "unknown message type 'dance'"
    assert refused('{"type": "chat"}') == "missing field 'text'"
    assert refused('{"type": "chat", "payload": {"text": 1}}') == "field 'text' has the wrong type"
    assert refused('{"type": "chat", "payload": {"text": "a", "x": 1}}') == "unknown field 'x'"
    assert refused('{"type": "chat", "payload": {"text": "a"}, "x": 1}') == "unknown field 'x'"
    assert refused('{"type": "set_ready", "payload": {"ready": 1}}') == "field 'ready' has the wrong type"
    assert refused('{"type": "hand_over", "payload": {"player_index": true}}') == \
        "field 'player_index' has the wrong type"
    assert refused('{"type": "bomb", "payload": {"cards": [[2, 1, 0]]}}') == "field 'cards' has the wrong type"
    assert refused('{"type": "set_options", "payload": {}}').startswith("set_options needs")
    assert refused('{"type": "chat", "payload": []}') == "payload must be an object"
    assert refused("[1]") == "a message is a JSON object"
    assert refused("nope") == "not JSON"


def test_a_list_longer_than_the_deck_is_refused_before_its_items_are_read() -> None:
    """A command's lists are bounded (no list of cards is longer than the deck, R1): one item more
    is refused as a whole, so a frame full of cards costs no check per card; the schema says so too."""
    longest = [[2, 1]] * MAX_LIST_ITEMS
    assert parse_command(json.dumps({"type": "bomb", "payload": {"cards": longest}})) == \
        Bomb(tuple((2, 1) for _ in longest))
    too_long = [[2, 1]] * (MAX_LIST_ITEMS + 1)
    assert "field 'cards' has the wrong type" in refused(json.dumps({"type": "bomb", "payload": {"cards": too_long}}))
    schema = json.loads((Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json").read_text("utf-8"))
    assert f'"maxItems": {MAX_LIST_ITEMS}' in json.dumps(schema)
