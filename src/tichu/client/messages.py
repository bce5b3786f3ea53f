"""The protocol's messages as the client reads and writes them (``docs/protocol.md``).

The client and the server share one set of wire types: what the server sends are the
``TypedDict``\\ s of :mod:`tichu.server.wire.outgoing`, what a client sends the dataclasses of
:mod:`tichu.server.wire.incoming`. This module is the client's edge: :func:`read_message`
reads a frame once into an :data:`~tichu.server.wire.outgoing.ServerMessage`, checked against
those types (the same ones the JSON Schema is derived from), so that the code behind it is
typed; :func:`context_of` and :func:`request_context` hand out a checked context as its type;
:func:`encode` writes a command as a frame. A key the types do not know is allowed: a newer
server may add fields (protocol.md keeps an existing message's meaning).

The table state (:mod:`tichu.client.state`), the bots (:mod:`tichu.client.bots`) and the
connection (:mod:`tichu.client.connection`) all use these names; they live here, in a module
that imports no other module of the client, so that no import cycle can arise. The connection
also sorts the server's errors by what they mean for an answered request:
:data:`REFUSAL_CODES`, :data:`CLOSED_CODES` (the codes come from :mod:`tichu.server.codes`).

>>> read_message('{"type": "pong"}')
{'type': 'pong'}
>>> read_message('{"type": "notification", "payload": {"event": "round_started", "context": {}}}')
Traceback (most recent call last):
...
tichu.client.messages.BadFrame: payload.context: missing field 'round_index'
>>> from tichu.server.wire.incoming import Bomb
>>> encode(Bomb(cards=((14, 1), (14, 2), (14, 3), (14, 4))))
'{"type": "bomb", "payload": {"cards": [[14, 1], [14, 2], [14, 3], [14, 4]]}}'
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Mapping
from typing import Any, NotRequired, Required, TypedDict, TypeVar, Union, cast, is_typeddict

from tichu.server.codes import ErrorCode
from tichu.server.wire import outgoing as out
from tichu.server.wire.incoming import (
    Command,
    DragonAnswer,
    GrandTichuAnswer,
    PlayAnswer,
    Response,
    SchupfAnswer,
    WishAnswer,
)
from tichu.server.wire.outgoing import JsonValue, NotificationPayload, RequestPayload, ServerMessage, Shape

__all__ = ["CLOSED_CODES", "REFUSAL_CODES", "Answer", "BadFrame", "JsonDict", "RawFrame", "context_of", "encode",
           "error_of", "notification_of", "read_message", "request_context", "request_of", "response"]

#: A JSON object as the table state (:mod:`tichu.client.state`) still keeps the public and private
#: state. Open only until that reducer holds ``outgoing.PublicState`` and ``outgoing.PrivateState``
#: (issue 36, the state part rewrites it); nothing else in the client uses it.
JsonDict = dict[str, Any]

#: The answer to a request, as :data:`~tichu.server.wire.incoming.ANSWERS` types it per action.
Answer = GrandTichuAnswer | SchupfAnswer | PlayAnswer | WishAnswer | DragonAnswer

#: Errors that refuse a response while its request stays open: the client answers again.
REFUSAL_CODES = frozenset({ErrorCode.UNKNOWN_CARD, ErrorCode.NOT_HAND_CARD, ErrorCode.INVALID_ACTION,
                           ErrorCode.NOT_UNIQUE_CARDS, ErrorCode.INVALID_COMBINATION, ErrorCode.INVALID_WISH,
                           ErrorCode.INVALID_DRAGON_RECIPIENT})
#: Errors after which the answered request is known to be closed.
CLOSED_CODES = frozenset({ErrorCode.INVALID_RESPONSE, ErrorCode.REQUEST_OBSOLETE})

C = TypeVar("C", bound=Mapping[str, object])


class RawFrame(TypedDict):
    """A frame that is no message of the protocol, as the client logs it: its text."""

    raw: str


class BadFrame(ValueError):
    """A frame from the server that is no message of the protocol; the message names what is
    wrong and where (``payload.context: missing field 'round_index'``)."""


#: The type of each message the server sends, by its ``type``.
_MESSAGES: dict[str, type[Mapping[str, object]]] = {
    "request": out.RequestMessage, "notification": out.NotificationMessage, "error": out.ErrorMessage,
    "pong": out.PongMessage}


def read_message(text: str) -> ServerMessage:
    """Read a frame from the server into its message, every value checked against the wire types.

    :param text: The frame's text.
    :returns: The message.
    :raises BadFrame: For text that is no JSON object, of an unknown ``type``, a notification
        whose context is not its event's (an unknown event's context may be any object), a
        request of an unknown action, or any value of the wrong type.
    """
    try:
        message = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise BadFrame("not JSON") from error
    if not isinstance(message, dict):
        raise BadFrame("not a JSON object")
    kind = _MESSAGES.get(message.get("type"))  # type: ignore[arg-type]  # any JSON value: a miss is None
    if kind is None:
        raise BadFrame(f"unknown message type {str(message.get('type'))[:40]!r}")
    _check(message, kind, "")
    return cast(ServerMessage, message)


def notification_of(message: ServerMessage | RawFrame) -> NotificationPayload | None:
    """The payload of a message if it is a ``notification``, else ``None`` (for reading the logs)."""
    return cast(out.NotificationMessage, message)["payload"] if message.get("type") == "notification" else None


def request_of(message: ServerMessage | RawFrame) -> RequestPayload | None:
    """The payload of a message if it is a ``request``, else ``None`` (for reading the logs)."""
    return cast(out.RequestMessage, message)["payload"] if message.get("type") == "request" else None


def error_of(message: ServerMessage | RawFrame) -> out.ErrorPayload | None:
    """The payload of a message if it is an ``error``, else ``None`` (for reading the logs)."""
    return cast(out.ErrorMessage, message)["payload"] if message.get("type") == "error" else None


def context_of(payload: NotificationPayload, kind: type[C]) -> C:
    """The context of a notification that :func:`read_message` read, as its event's type.

    :param payload: The notification's payload.
    :param kind: The type :data:`~tichu.server.wire.outgoing.NOTIFICATIONS` names for its event.
    :returns: The context (checked by :func:`read_message`).
    :raises TypeError: If ``kind`` is not the event's type (a mistake of the caller).
    """
    if out.NOTIFICATIONS.get(payload["event"]) is not kind:
        raise TypeError(f"the context of {payload['event']!r} is no {kind.__name__}")
    return cast(C, payload["context"])


def request_context(request: RequestPayload, kind: type[C]) -> C:
    """The context of a request that :func:`read_message` read, as its action's type.

    :param request: The request's payload.
    :param kind: The type :data:`~tichu.server.wire.outgoing.REQUESTS` names for its action.
    :returns: The context (checked by :func:`read_message`).
    :raises TypeError: If ``kind`` is not the action's type (a mistake of the caller).
    """
    if out.REQUESTS.get(request["action"]) is not kind:
        raise TypeError(f"the context of {request['action']!r} is no {kind.__name__}")
    return cast(C, request["context"])


def response(request: RequestPayload, answer: Answer) -> Response:
    """The ``response`` that answers a request.

    :param request: The request's payload.
    :param answer: The answer (its action's type).
    :returns: The command.
    """
    data = {field.name: _json(getattr(answer, field.name)) for field in dataclasses.fields(answer)}
    return Response(request_id=request["request_id"], action=request["action"], response_data=data)


def encode(command: Command) -> str:
    """Write a command as the text frame :func:`~tichu.server.wire.incoming.parse_command` reads
    back into it (a field left at ``None`` is left out; no fields, no ``payload``).

    :param command: The command.
    :returns: The frame's text.
    """
    payload = {field.name: _json(getattr(command, field.name)) for field in dataclasses.fields(command)
               if getattr(command, field.name) is not None}
    message: dict[str, JsonValue] = {"type": command.TYPE}
    if payload:
        message["payload"] = payload
    return json.dumps(message)


def _json(value: object) -> JsonValue:
    """A command's field as JSON: its tuples as lists."""
    if isinstance(value, tuple):
        return [_json(item) for item in value]
    return cast(JsonValue, value)


# -- the check ----------------------------------------------------------------------------------

#: Where the context of a payload is typed by one of its keys: the key and the types by its value.
_CONTEXTS: dict[type[object], tuple[str, Mapping[str, type[Mapping[str, object]]]]] = {
    out.NotificationPayload: ("event", out.NOTIFICATIONS), out.RequestPayload: ("action", out.REQUESTS)}
#: Each ``TypedDict``'s field types, read once (resolving the annotations costs far more than a check).
_HINTS: dict[type[object], dict[str, object]] = {}


def _check(value: object, hint: object, where: str) -> None:
    """Check a JSON value against a type of :mod:`tichu.server.wire.outgoing`.

    :param where: The value's path in the message (``payload.context.turn``; empty for the message).
    :raises BadFrame: Naming the path of the first wrong value.
    """
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if is_typeddict(hint):
        _check_object(value, cast(type[object], hint), where)
    elif origin is typing.Annotated:
        _check_annotated(value, args, where)
    elif origin in (Union, types.UnionType):
        _check_union(value, args, where)
    elif origin is list:
        if not isinstance(value, list):
            raise BadFrame(f"{where} is not a list")
        for index, item in enumerate(value):
            _check(item, args[0], f"{where}[{index}]")
    elif origin in (dict, Mapping):
        if not isinstance(value, dict):
            raise BadFrame(f"{where} is not an object")
    elif not (out.is_json_value(hint) or hint is object or _is_scalar(value, hint)):
        raise BadFrame(f"{where} has the wrong type")


def _check_object(value: object, cls: type[object], where: str) -> None:
    """Check a JSON object against a ``TypedDict``: its required keys there, each known key's
    value of its type (a notification's or request's context that of its event or action)."""
    if not isinstance(value, dict):
        raise BadFrame(f"{where or 'the message'} is not an object")
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls, include_extras=True)
    for name, hint in hints.items():
        if typing.get_origin(hint) in (NotRequired, Required):
            if name not in value:
                continue
            hint = typing.get_args(hint)[0]
        elif name not in value:
            raise BadFrame(f"{where or 'the message'}: missing field {name!r}")
        if name == "context" and cls in _CONTEXTS:
            hint = _context_type(value, cls, where)
        _check(value[name], hint, f"{where}.{name}" if where else name)


def _context_type(value: dict[str, object], cls: type[object], where: str) -> object:
    """The type of a notification's or request's context, by its event or action."""
    key, types_by = _CONTEXTS[cls]
    name = value.get(key)
    if not isinstance(name, str):
        raise BadFrame(f"{where}.{key} has the wrong type")
    if name in types_by:
        return types_by[name]
    if cls is out.RequestPayload:
        raise BadFrame(f"{where}: unknown request action {name[:40]!r}")
    return Mapping[str, object]  # a newer server's notification: any object, which the client ignores


def _check_annotated(value: object, args: tuple[object, ...], where: str) -> None:
    """Check a value against ``Annotated[X, ...]``: an array of fixed length if a :class:`Shape` says so."""
    shape = next((extra for extra in args[1:] if isinstance(extra, Shape)), None)
    if shape is None:
        _check(value, args[0], where)
        return
    if not (isinstance(value, list) and len(value) == len(shape.items)):
        raise BadFrame(f"{where} is not a list of {len(shape.items)}")
    for index, (item, hint) in enumerate(zip(value, shape.items, strict=True)):
        _check(item, hint, f"{where}[{index}]")


def _check_union(value: object, args: tuple[object, ...], where: str) -> None:
    """Check a value against a union: ``X | None`` names what is wrong inside an ``X``, a wider
    union only that the value is none of its types."""
    options = [arg for arg in args if arg is not type(None)]
    if value is None and len(options) < len(args):
        return
    if len(options) == 1:
        _check(value, options[0], where)
        return
    for option in options:
        try:
            _check(value, option, where)
        except BadFrame:
            continue
        return
    raise BadFrame(f"{where} has the wrong type")


def _is_scalar(value: object, hint: object) -> bool:
    """Whether a JSON value is of a scalar type (``bool`` is no ``int``; an ``int`` is a ``float``)."""
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    if typing.get_origin(hint) is typing.Literal:
        return value in typing.get_args(hint)
    raise TypeError(f"no JSON check for {hint!r}")
