"""The JSON Schema (draft 2020-12) of the protocol, derived from the message types.

Nothing here is written by hand: :func:`protocol_schema` reads the dataclasses of
:mod:`tichu.server.wire.incoming` (client → server) and the ``TypedDict``\\ s of
:mod:`tichu.server.wire.outgoing` (server → client) by typing introspection. The file
``docs/protocol.schema.json`` is its output; ``tests/server/test_wire_schema.py`` checks that
it is up to date and that real traffic matches it. Regenerate it with::

    python -m tichu.server.wire.schema > docs/protocol.schema.json

``#/$defs/ClientMessage`` is every message a client may send, ``#/$defs/ServerMessage`` every
message the server sends (:func:`direction_schema` gives either as a schema of its own).
"""

from __future__ import annotations

import dataclasses
import json
import sys
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Literal, NotRequired, Required, Union, is_typeddict

from tichu.server.wire import incoming, outgoing
from tichu.server.wire.outgoing import JsonValue, Shape, is_json_value

#: A JSON Schema (itself a JSON object).
Schema = dict[str, JsonValue]
SCHEMA_ID = "https://github.com/tichu-platform/tichu/docs/protocol.schema.json"
#: The command that writes ``docs/protocol.schema.json``.
REGENERATE = "python -m tichu.server.wire.schema > docs/protocol.schema.json"


class _Builder:
    """Collects the ``$defs`` of the classes a schema refers to."""

    def __init__(self) -> None:
        self.defs: dict[str, Schema] = {}

    def ref(self, cls: type, prefix: str) -> Schema:
        """A ``$ref`` to a class's definition (made on first use)."""
        name = f"{prefix}.{cls.__name__}"
        if name not in self.defs:
            self.defs[name] = {}  # reserved before the fields, for a class that refers to itself
            self.defs[name] = self.object_schema(cls, prefix)
        return {"$ref": f"#/$defs/{name}"}

    def object_schema(self, cls: type, prefix: str) -> Schema:
        """The schema of a dataclass or ``TypedDict``: its fields, which of them are required, no others."""
        hints = typing.get_type_hints(cls, include_extras=True)
        properties: dict[str, JsonValue] = {}
        required: list[JsonValue] = []
        if is_typeddict(cls):
            for name, hint in hints.items():  # NotRequired read from the hint: __required_keys__ misses it
                properties[name] = self.value(_strip_required(hint), prefix)  # under postponed annotations
                if typing.get_origin(hint) is not NotRequired:
                    required.append(name)
        else:
            for field in dataclasses.fields(cls):
                hint = hints[field.name]
                properties[field.name] = self.value(hint, prefix)
                has_default = field.default is not dataclasses.MISSING \
                    or field.default_factory is not dataclasses.MISSING
                if not has_default and not _admits_null(hint):
                    required.append(field.name)
        schema: Schema = {"type": "object", "description": _doc(cls)}
        schema["properties"] = properties
        if required:
            schema["required"] = required
        schema["additionalProperties"] = False
        return schema

    def value(self, hint: object, prefix: str) -> Schema:
        """The schema of a field's type."""
        if is_json_value(hint) or hint is object:  # object: a record's value, any JSON (records/parts.py)
            return {}
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin is typing.Annotated:
            shapes = [extra for extra in args[1:] if isinstance(extra, Shape)]
            if shapes:
                items: list[JsonValue] = [self.value(item, prefix) for item in shapes[0].items]
                return {"type": "array", "prefixItems": items, "items": False,
                        "minItems": len(items), "maxItems": len(items)}
            return self.value(args[0], prefix)
        if origin in (Union, types.UnionType):
            return {"anyOf": [self.value(arg, prefix) for arg in args]}
        if origin is Literal:
            return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
        if origin in (list, tuple):
            if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
                fixed: list[JsonValue] = [self.value(arg, prefix) for arg in args]
                return {"type": "array", "prefixItems": fixed, "items": False,
                        "minItems": len(fixed), "maxItems": len(fixed)}
            if origin is tuple:  # a command's list (incoming.py): bounded like the parser's
                return {"type": "array", "items": self.value(args[0], prefix), "maxItems": incoming.MAX_LIST_ITEMS}
            return {"type": "array", "items": self.value(args[0], prefix)}
        if origin in (dict, Mapping):
            if args[1] is object:
                return {"type": "object"}
            return {"type": "object", "additionalProperties": self.value(args[1], prefix)}
        if isinstance(hint, type) and (is_typeddict(hint) or dataclasses.is_dataclass(hint)):
            return self.ref(hint, prefix)
        simple = {str: "string", bool: "boolean", int: "integer", float: "number", type(None): "null"}
        if isinstance(hint, type) and hint in simple:
            return {"type": simple[hint]}
        raise TypeError(f"no JSON Schema for {hint!r}")


def protocol_schema() -> Schema:
    """The JSON Schema of both directions of the protocol.

    :returns: The schema, with ``ClientMessage`` and ``ServerMessage`` in its ``$defs``.
    """
    builder = _Builder()
    client: list[JsonValue] = []
    for kind, command in incoming.COMMANDS.items():
        payload = builder.ref(command, "client")
        if command is incoming.Response:
            payload = {"allOf": [payload, *_by_key(builder, "action", "response_data", incoming.ANSWERS, "client")]}
        message: Schema = {"type": "object", "properties": {"type": {"const": kind}, "payload": payload},
                           "required": ["type"], "additionalProperties": False}
        if any(_is_required(field) for field in dataclasses.fields(command)):
            message["required"] = ["type", "payload"]
        else:
            message["properties"] = {"type": {"const": kind}, "payload": {"anyOf": [payload, {"type": "null"}]}}
        client.append(message)
    server: list[JsonValue] = [builder.ref(cls, "server") for cls in typing.get_args(outgoing.ServerMessage)]
    builder.defs["server.NotificationPayload"] = {"oneOf": [
        {"type": "object", "properties": {"event": {"const": event}, "context": builder.ref(context, "server")},
         "required": ["event", "context"], "additionalProperties": False}
        for event, context in outgoing.NOTIFICATIONS.items()]}
    request = builder.defs["server.RequestPayload"]
    builder.defs["server.RequestPayload"] = {
        "allOf": [request, *_by_key(builder, "action", "context", outgoing.REQUESTS, "server")]}
    builder.defs["ClientMessage"] = {"description": "A message a client sends.", "oneOf": client}
    builder.defs["ServerMessage"] = {"description": "A message the server sends.", "oneOf": server}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
        "title": "Tichu WebSocket protocol",
        "description": f"Generated from tichu.server.wire.incoming and outgoing; regenerate: {REGENERATE}",
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": dict(sorted(builder.defs.items())),
    }


def definitions(classes: Iterable[type], prefix: str) -> Schema:
    """The schemas of some ``TypedDict``\\ s or dataclasses and of the classes they refer to, as
    :func:`protocol_schema` writes its ``$defs`` (for documents beside the protocol).

    :param classes: The classes.
    :param prefix: The prefix of their ``$defs`` keys, e.g. ``records``.
    :returns: The schemas by key, sorted.
    """
    builder = _Builder()
    for cls in classes:
        builder.ref(cls, prefix)
    return dict(sorted(builder.defs.items()))


def direction_schema(schema: Schema, direction: Literal["ClientMessage", "ServerMessage"]) -> Schema:
    """One direction of the protocol's schema as a schema of its own.

    :param schema: The schema of :func:`protocol_schema` (or as read from its file).
    :param direction: ``ClientMessage`` or ``ServerMessage``.
    :returns: A schema that accepts only messages of that direction.
    """
    return {"$schema": schema["$schema"], "$ref": f"#/$defs/{direction}", "$defs": schema["$defs"]}


def schema_text() -> str:
    """The schema as the text of ``docs/protocol.schema.json``."""
    return json.dumps(protocol_schema(), indent=2, ensure_ascii=False) + "\n"


def _by_key(builder: _Builder, key: str, field: str, types_by_value: Mapping[str, type],
            prefix: str) -> list[JsonValue]:
    """``if``/``then`` schemas: ``field`` has the type that ``key``'s value names."""
    return [{"if": {"properties": {key: {"const": value}}, "required": [key]},
             "then": {"properties": {field: builder.ref(cls, prefix)}}}
            for value, cls in types_by_value.items()]


def _strip_required(hint: object) -> object:
    """A ``TypedDict`` field's type without ``NotRequired``/``Required``."""
    return typing.get_args(hint)[0] if typing.get_origin(hint) in (NotRequired, Required) else hint


def _admits_null(hint: object) -> bool:
    return typing.get_origin(hint) in (Union, types.UnionType) and type(None) in typing.get_args(hint)


def _is_required(field: dataclasses.Field[object]) -> bool:
    return field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING


def _doc(cls: type) -> str:
    """The first line of a class's docstring."""
    return (cls.__doc__ or cls.__name__).strip().splitlines()[0]


if __name__ == "__main__":
    sys.stdout.write(schema_text())
