"""The committed JSON Schema of the protocol is the one the types give, and real traffic matches it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs; the tests use it only to validate
import pytest

from tichu.server.wire.incoming import parse_command
from tichu.server.wire.protocol import ProtocolError
from tichu.server.wire.schema import REGENERATE, direction_schema, protocol_schema, schema_text

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "docs" / "protocol.schema.json"


def validator(direction: Any) -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(direction_schema(schema, direction))


def test_the_committed_schema_is_the_generated_one() -> None:
    """docs/protocol.schema.json is what the message types give today (and a valid 2020-12 schema)."""
    jsonschema.Draft202012Validator.check_schema(protocol_schema())
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), \
        f"docs/protocol.schema.json is out of date with the message types; regenerate it: {REGENERATE}"


def test_every_frame_of_the_golden_stream_matches_the_server_schema() -> None:
    """Every message of tests/data/golden_stream.txt (a whole game: notifications, requests and
    errors as the server sent them) is a ServerMessage of the schema."""
    check = validator("ServerMessage")
    frames = [line for line in (ROOT / "tests" / "data" / "golden_stream.txt").read_text(encoding="utf-8")
              .splitlines() if line.startswith('{"type":')]
    assert len(frames) > 2000 and any('"event":"game_over"' in frame for frame in frames)  # the whole game
    for number, frame in enumerate(frames, start=1):
        error = jsonschema.exceptions.best_match(check.iter_errors(json.loads(frame)))
        assert error is None, f"frame {number}: {error.message} at {list(error.absolute_path)}"


#: Client frames and whether the server takes them.
CLIENT_FRAMES: list[tuple[Any, bool]] = [
    ({"type": "ping"}, True),
    ({"type": "start_game", "payload": None}, True),
    ({"type": "chat", "payload": {"text": "hi"}}, True),
    ({"type": "set_options", "payload": {"hints": True, "turn_clock": 30}}, True),
    ({"type": "bomb", "payload": {"cards": [[2, 1], [2, 2], [2, 3], [2, 4]]}}, True),
    ({"type": "response", "payload": {"request_id": "r", "action": "play", "response_data": {"cards": []}}}, True),
    ({"type": "hand_over", "payload": {"player_index": 2}}, True),
    ({"type": "chat", "payload": {}}, False),
    ({"type": "chat", "payload": {"text": 5}}, False),
    ({"type": "chat", "payload": {"text": "hi", "loud": True}}, False),
    ({"type": "chat", "payload": {"text": "hi"}, "extra": 1}, False),
    ({"type": "set_ready", "payload": {"ready": 1}}, False),
    ({"type": "swap_players", "payload": {"player_index_1": True, "player_index_2": 1}}, False),
    ({"type": "bomb", "payload": {"cards": [[2, 1, 3]]}}, False),
    ({"type": "bomb", "payload": {"cards": [[2.5, 1]]}}, False),
    ({"type": "response", "payload": {"action": "play"}}, False),
    ({"type": "response", "payload": {"request_id": "r", "action": "play", "response_data": [1]}}, False),
    ({"type": "dance"}, False),
    ({"payload": {}}, False),
]


@pytest.mark.parametrize(("frame", "valid"), CLIENT_FRAMES)
def test_the_client_schema_and_the_parser_agree(frame: Any, valid: bool) -> None:
    """A client frame is valid by the schema exactly when :func:`parse_command` takes it."""
    assert validator("ClientMessage").is_valid(frame) == valid
    if valid:
        parse_command(json.dumps(frame))
    else:
        with pytest.raises(ProtocolError):
            parse_command(json.dumps(frame))
