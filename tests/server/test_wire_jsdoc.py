"""Issue 36: the browser's protocol typedefs (web/js/protocol-types.js) are generated from the
server's wire types, so that both sides of the socket share one set of types."""

from __future__ import annotations

import typing
from pathlib import Path

import pytest

from tichu.records import parts
from tichu.server.wire import outgoing
from tichu.server.wire.jsdoc import REGENERATE, js_type, jsdoc_text
from tichu.server.wire.outgoing import JsonValue
from tichu.server.wire.schema import protocol_schema

TYPES_FILE = Path(__file__).resolve().parents[2] / "web" / "js" / "protocol-types.js"


def test_the_committed_typedefs_are_the_generated_ones() -> None:
    """web/js/protocol-types.js is what the message types give today."""
    assert TYPES_FILE.read_text(encoding="utf-8") == jsdoc_text(), \
        f"web/js/protocol-types.js is out of date with the message types; regenerate it: {REGENERATE}"


def test_every_field_of_a_payload_is_a_property_of_its_typedef() -> None:
    """Each server payload's fields appear in its typedef, optional exactly where the protocol may
    leave them out (``NotRequired``)."""
    text = jsdoc_text()
    for context in set(outgoing.NOTIFICATIONS.values()):
        hints = typing.get_type_hints(context, include_extras=True)
        if not hints:  # an empty object: no property, and no JSDoc ``{object}`` (which is ``any``)
            assert f"@typedef {{Record<string, never>}} {context.__name__}\n" in text
            continue
        block = text.split(f"@typedef {{object}} {context.__name__}\n", 1)[1].split("*/", 1)[0]
        for name, hint in hints.items():
            label = f"[{name}]" if typing.get_origin(hint) is typing.NotRequired else name
            assert f"}} {label}\n" in block, f"{context.__name__}.{name} missing from its typedef"


def test_each_notification_narrows_by_its_event() -> None:
    """A notification's payload is a union by ``event``, so checking the event types the context."""
    text = jsdoc_text()
    for event, context in outgoing.NOTIFICATIONS.items():
        assert f" *   | {{event: '{event}', context: {context.__name__}}}\n" in text


def test_a_request_narrows_its_context_by_its_action() -> None:
    """A request's ``context`` follows its ``action`` (the schema's ``if``/``then``)."""
    request = js_type({"$ref": "#/$defs/server.RequestPayload"}, {})
    assert request == "RequestPayload"
    text = jsdoc_text()
    for action, context in outgoing.REQUESTS.items():
        assert f"action: '{action}', context: {context.__name__}," in text


@pytest.mark.parametrize(("schema", "expected"), [
    ({}, "JsonValue"),
    ({"type": "integer"}, "number"),
    ({"anyOf": [{"type": "string"}, {"type": "null"}]}, "(string|null)"),
    ({"enum": ["a", "b"]}, "('a'|'b')"),
    ({"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"}]}, "[number, number]"),
    ({"type": "array", "items": {"type": "string"}}, "Array<string>"),
    ({"type": "object"}, "{[key: string]: JsonValue}"),
    ({"type": "object", "properties": {"a": {"type": "boolean"}, "b": {"const": 1}}, "required": ["a"]},
     "{a: boolean, b?: 1}"),
])
def test_schema_types_become_jsdoc_types(schema: JsonValue, expected: str) -> None:
    """The generator's translation of each kind of schema the protocol uses."""
    defs = protocol_schema()["$defs"]
    assert isinstance(defs, dict)
    assert js_type(schema, defs) == expected


def test_the_replay_and_analysis_documents_are_typed_too() -> None:
    """The documents the replay viewer and the analysis read over HTTP (records/parts.py) have
    their typedefs beside the protocol's, with every field."""
    text = jsdoc_text()
    for document in (parts.Step, parts.AnalysisJudgement, parts.AnalysisOption, parts.AnalysisDocument):
        block = text.split(f"@typedef {{object}} {document.__name__}\n", 1)[1].split("*/", 1)[0]
        for name in typing.get_type_hints(document):
            assert f"}} {name}\n" in block or f"}} [{name}]\n" in block, f"{document.__name__}.{name} missing"
