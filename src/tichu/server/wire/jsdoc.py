"""The protocol's JSDoc ``@typedef``\\ s for the browser, generated from its JSON Schema.

The browser (web/js, checked by ``tsc --checkJs``) types every message and payload it reads
and sends with these typedefs, so that both sides of the socket share one set of types: the
server's (:mod:`tichu.server.wire.incoming` and :mod:`tichu.server.wire.outgoing`), through
:func:`tichu.server.wire.schema.protocol_schema`; the replay and analysis documents it reads
over HTTP (:mod:`tichu.records.parts`) come the same way. Nothing here is written by hand; the file
``web/js/protocol-types.js`` is the output of :func:`jsdoc_text`, and
``tests/server/test_wire_jsdoc.py`` checks that it is up to date. Regenerate it with::

    python -m tichu.server.wire.jsdoc > web/js/protocol-types.js

Each ``$defs`` entry becomes a typedef of the same name without its ``client.``/``server.``
prefix. A schema's ``allOf`` of a base object and ``if``/``then`` cases (a request's context by
its ``action``, a response's ``response_data`` by its ``action``) becomes a union of the base
with each case's fields, so that checking ``action`` narrows the rest.
"""

from __future__ import annotations

import re
import sys

from tichu.records import parts
from tichu.server.wire.outgoing import JsonValue
from tichu.server.wire.schema import Schema, definitions, protocol_schema

#: The command that writes ``web/js/protocol-types.js``.
REGENERATE = "python -m tichu.server.wire.jsdoc > web/js/protocol-types.js"
_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
_SCALARS = {"string": "string", "integer": "number", "number": "number", "boolean": "boolean", "null": "null"}
_HEADER = f"""\
// The protocol's message and payload types (docs/protocol.md), generated from the server's
// wire types through docs/protocol.schema.json, and the replay and analysis documents
// (src/tichu/records/parts.py): do not edit. Regenerate with
//   {REGENERATE}
// Use them as `import('./protocol-types.js').PublicState` in a JSDoc type.

/**
 * Any JSON value: only where the protocol leaves a value open (narrow it before use; JSDoc
 * cannot spell a recursive type).
 * @typedef {{unknown}} JsonValue
 */
"""


def type_name(ref: str) -> str:
    """The typedef's name for a ``$defs`` key (or a ``$ref`` to it): the key without its prefix."""
    return ref.removeprefix("#/$defs/").split(".")[-1]


def js_type(schema: JsonValue, defs: Schema) -> str:
    """The TypeScript type (as JSDoc writes it) of a value with this schema.

    :param schema: The value's schema.
    :param defs: The ``$defs`` its references point into.
    """
    if not isinstance(schema, dict):
        raise TypeError(f"not a schema: {schema!r}")
    if not schema:
        return "JsonValue"
    if "$ref" in schema:
        return type_name(str(schema["$ref"]))
    if "const" in schema:
        return _literal(schema["const"])
    if "enum" in schema:
        return _union([_literal(value) for value in _list(schema["enum"])])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return _union([js_type(option, defs) for option in _list(schema[key])])
    if "allOf" in schema:
        return _union([_object(case, defs) for case in _cases(schema, defs)])
    kind = schema.get("type")
    if kind == "array":
        if "prefixItems" in schema:
            return "[" + ", ".join(js_type(item, defs) for item in _list(schema["prefixItems"])) + "]"
        return f"Array<{js_type(schema['items'], defs)}>"
    if kind == "object":
        if "properties" in schema:
            return _object(schema, defs)
        return f"{{[key: string]: {js_type(schema.get('additionalProperties', {}), defs)}}}"
    if isinstance(kind, str) and kind in _SCALARS:
        return _SCALARS[kind]
    raise TypeError(f"no JSDoc type for {schema!r}")


def typedef(name: str, schema: Schema, defs: Schema) -> str:
    """One ``@typedef`` comment: an object's fields as ``@property`` lines, anything else as its type.

    :param name: The typedef's name.
    :param schema: Its schema.
    :param defs: The ``$defs`` its references point into.
    """
    lines = ["/**"]
    description = schema.get("description")
    if isinstance(description, str):
        lines.append(f" * {_comment(description)}")
    if schema.get("type") == "object" and schema.get("properties") == {}:
        lines.append(f" * @typedef {{Record<string, never>}} {name}")  # an empty {object} would be any
    elif schema.get("type") == "object" and "properties" in schema:
        lines.append(f" * @typedef {{object}} {name}")
        required = _list(schema.get("required", []))
        for field, value in _dict(schema["properties"]).items():
            label = field if field in required else f"[{field}]"
            lines.append(f" * @property {{{js_type(value, defs)}}} {label}")
    elif options := _options(schema, defs):
        lines.append(" * @typedef {(")
        lines.extend(f" *   | {option}" for option in options)
        lines.append(f" * )}} {name}")
    else:
        lines.append(f" * @typedef {{{js_type(schema, defs)}}} {name}")
    lines.append(" */")
    return "\n".join(lines)


def record_schemas() -> Schema:
    """The schemas of the documents the replay viewer and the analysis read over HTTP
    (:mod:`tichu.records.parts`, docs/server.md), as ``$defs`` beside the protocol's."""
    return definitions((parts.ReplayDocument, parts.AnalysisDocument), "records")


def jsdoc_text() -> str:
    """The text of ``web/js/protocol-types.js``: a typedef for every type of the protocol's schema
    and of the replay and analysis documents."""
    defs = {**_dict(protocol_schema()["$defs"]), **record_schemas()}
    names = [type_name(key) for key in defs]
    if len(set(names)) != len(names):
        raise ValueError(f"two types of the schema share a name: {sorted(names)}")
    typedefs = [typedef(type_name(key), _dict(schema), defs) for key, schema in defs.items()]
    return _HEADER + "\n" + "\n\n".join(typedefs) + "\n\nexport {};\n"


def _options(schema: Schema, defs: Schema) -> list[str]:
    """The types of a union's options, one per line of its typedef; none if the schema is no union."""
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return [js_type(option, defs) for option in _list(schema[key])]
    if "allOf" in schema:
        return [_object(case, defs) for case in _cases(schema, defs)]
    return []


def _object(schema: Schema, defs: Schema) -> str:
    """An object's type inline: ``{name: T, optional?: T}``."""
    required = _list(schema.get("required", []))
    fields = [f"{_key(field)}{'' if field in required else '?'}: {js_type(value, defs)}"
              for field, value in _dict(schema["properties"]).items()]
    return "{" + ", ".join(fields) + "}"


def _cases(schema: Schema, defs: Schema) -> list[Schema]:
    """An ``allOf`` of a base object (or a reference to one) and ``if``/``then`` cases as one object
    schema per case."""
    base, *cases = (_dict(part) for part in _list(schema["allOf"]))
    if "$ref" in base:
        base = _dict(defs[str(base["$ref"]).removeprefix("#/$defs/")])
    objects = []
    for case in cases:
        properties = dict(_dict(base["properties"]))
        properties.update(_dict(_dict(case["if"])["properties"]))
        properties.update(_dict(_dict(case["then"])["properties"]))
        objects.append({**base, "properties": properties})
    return objects


def _literal(value: JsonValue) -> str:
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None or isinstance(value, int | float):
        return "null" if value is None else str(value)
    raise TypeError(f"no literal type for {value!r}")


def _union(types: list[str]) -> str:
    unique = list(dict.fromkeys(types))
    return unique[0] if len(unique) == 1 else "(" + "|".join(unique) + ")"


def _key(field: str) -> str:
    return field if _IDENTIFIER.match(field) else "'" + field + "'"


def _comment(text: str) -> str:
    """A description fit for a comment: one line, no ``*/``."""
    return " ".join(text.split()).replace("*/", "*\\/")


def _dict(value: JsonValue) -> dict[str, JsonValue]:
    if not isinstance(value, dict):
        raise TypeError(f"not a JSON object: {value!r}")
    return value


def _list(value: JsonValue) -> list[JsonValue]:
    if not isinstance(value, list):
        raise TypeError(f"not a JSON array: {value!r}")
    return value


if __name__ == "__main__":
    sys.stdout.write(jsdoc_text())
