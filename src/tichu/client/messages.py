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
from collections.abc import Callable, Mapping
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
    _check(message, kind)
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
#
# Each type is turned once into a checker, a function that returns for a value of the type and
# raises _Wrong otherwise: a frame's check then costs no typing introspection, and the path of a
# wrong value is put together only while its error rises (a frame that is right builds none).

#: A check of a JSON value against one type.
Checker = Callable[[object], None]


class _Wrong(Exception):
    """A wrong value: what is wrong (``" has the wrong type"``, ``": missing field 'x'"``) and the
    path to it, filled in by the checkers it rises through (``[".payload", ".context"]``)."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.path: list[str] = []

    def frame(self) -> BadFrame:
        """The error of the frame: the path (``payload.context.turn[2]``) and the problem."""
        return BadFrame(("".join(self.path).lstrip(".") or "the message") + self.problem)


def _check(message: dict[str, object], kind: type[Mapping[str, object]]) -> None:
    """Check a message against its type.

    :raises BadFrame: Naming the path of the first wrong value.
    """
    try:
        _checker(kind)(message)
    except _Wrong as wrong:
        raise wrong.frame() from None


#: Where the context of a payload is typed by one of its keys: the key and the types by its value.
_CONTEXTS: dict[object, tuple[str, Mapping[str, type[Mapping[str, object]]]]] = {
    out.NotificationPayload: ("event", out.NOTIFICATIONS), out.RequestPayload: ("action", out.REQUESTS)}
#: The checker of each type, made on first use.
_CHECKERS: dict[object, Checker] = {}


def _checker(hint: object) -> Checker:
    """The checker of a type of :mod:`tichu.server.wire.outgoing` (made once)."""
    found = _CHECKERS.get(hint)
    if found is None:
        found = _CHECKERS[hint] = _make_checker(hint)
    return found


def _make_checker(hint: object) -> Checker:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if out.is_json_value(hint) or hint is object:
        return _anything
    if is_typeddict(hint):
        return _object_checker(hint)
    if origin is typing.Annotated:
        shape = next((extra for extra in args[1:] if isinstance(extra, Shape)), None)
        return _checker(args[0]) if shape is None else _shape_checker(shape)
    if origin in (Union, types.UnionType):
        return _union_checker(args)
    if origin is list:
        return _list_checker(_checker(args[0]))
    if origin in (dict, Mapping):
        return _is(dict, " is not an object")
    if origin is typing.Literal:
        return _literal_checker(args)
    scalars: dict[object, tuple[type, ...]] = {int: (int,), float: (int, float), str: (str,), bool: (bool,),
                                               type(None): (type(None),)}
    if hint in scalars:  # an exact type: a bool is no int, an int is a float
        return _is(scalars[hint], " has the wrong type")
    raise TypeError(f"no JSON check for {hint!r}")


def _anything(value: object) -> None:
    """Any JSON value fits (``JsonValue``)."""


def _is(kinds: type | tuple[type, ...], problem: str) -> Checker:
    """A value of exactly one of these types (no subclass: JSON gives none)."""
    allowed = kinds if isinstance(kinds, tuple) else (kinds,)

    def check(value: object) -> None:
        if type(value) not in allowed:
            raise _Wrong(problem)
    return check


def _literal_checker(values: tuple[object, ...]) -> Checker:
    def check(value: object) -> None:
        if value not in values:
            raise _Wrong(" has the wrong type")
    return check


def _list_checker(item: Checker) -> Checker:
    def check(value: object) -> None:
        if type(value) is not list:
            raise _Wrong(" is not a list")
        for index, element in enumerate(value):
            try:
                item(element)
            except _Wrong as wrong:
                wrong.path.insert(0, f"[{index}]")
                raise
    return check


def _shape_checker(shape: Shape) -> Checker:
    """An array of fixed length whose items have these types, in order (:class:`Shape`)."""
    items = [_checker(item) for item in shape.items]

    def check(value: object) -> None:
        if type(value) is not list or len(value) != len(items):
            raise _Wrong(f" is not a list of {len(items)}")
        for index, (element, item) in enumerate(zip(value, items, strict=True)):
            try:
                item(element)
            except _Wrong as wrong:
                wrong.path.insert(0, f"[{index}]")
                raise
    return check


def _union_checker(args: tuple[object, ...]) -> Checker:
    """``X | None`` names what is wrong inside an ``X``; a wider union only that the value is none of its types."""
    nullable = type(None) in args
    options = [_checker(arg) for arg in args if arg is not type(None)]

    def check(value: object) -> None:
        if value is None and nullable:
            return
        if len(options) == 1:
            options[0](value)
            return
        for option in options:
            try:
                option(value)
            except _Wrong:
                continue
            return
        raise _Wrong(" has the wrong type")
    return check


def _object_checker(cls: object) -> Checker:
    """A JSON object of a ``TypedDict``: its required keys there, each known key's value of its type
    (a key it does not know is allowed); a notification's or request's context is its event's or action's."""
    fields: list[tuple[str, bool, Checker]] = []
    for name, hint in typing.get_type_hints(cls, include_extras=True).items():
        required = typing.get_origin(hint) not in (NotRequired, Required)
        field_hint = hint if required else typing.get_args(hint)[0]
        fields.append((name, required, _anything if name == "context" and cls in _CONTEXTS else _checker(field_hint)))

    def check(value: object) -> None:
        if type(value) is not dict:
            raise _Wrong(" is not an object")
        for name, required, field in fields:
            if name not in value:
                if required:
                    raise _Wrong(f": missing field {name!r}")
                continue
            try:
                field(value[name])
            except _Wrong as wrong:
                wrong.path.insert(0, f".{name}")
                raise
        if cls in _CONTEXTS:
            _check_context(value, cls)
    return check


def _check_context(value: dict[str, object], cls: object) -> None:
    """Check a notification's or request's context by its event or action (a newer server's event
    may carry any object, which the client ignores; an unknown action is refused)."""
    key, types_by = _CONTEXTS[cls]
    name = str(value[key])  # a string: checked as a field before
    kind = types_by.get(name)
    if kind is None and cls is out.RequestPayload:
        raise _Wrong(f": unknown request action {name[:40]!r}")
    try:
        _checker(kind if kind is not None else Mapping[str, object])(value["context"])
    except _Wrong as wrong:
        wrong.path.insert(0, ".context")
        raise
