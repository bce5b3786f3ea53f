"""What a client may send (protocol.md and docs/server.md): one frozen dataclass per message type.

A frame is read once by :func:`parse_command` into one of the :data:`Command` types, or
refused with :class:`~tichu.server.wire.protocol.ProtocolError` ``INVALID_MESSAGE`` naming what
was wrong (``missing field 'x'``, ``field 'x' has the wrong type``, ``unknown field 'x'``).
The checks are read from the dataclasses' own field types by :func:`decode`, the same types
:mod:`tichu.server.wire.schema` turns into the JSON Schema, so the parser and the schema cannot
drift apart.

The values of a ``response`` depend on its action and are decoded (:func:`decode` with an
``*Answer`` type, :data:`ANSWERS`) once the response is matched with the seat's open request,
because protocol.md answers a response to no open request with ``INVALID_RESPONSE`` and one
of another action with ``INVALID_ACTION`` whatever its values.

What the rules decide (whether a card exists, is in the hand, whether a seat index is one)
is the table's and the core's, after parsing.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from dataclasses import dataclass
from typing import ClassVar, Literal, TypeVar, Union

from tichu.server.codes import ErrorCode
from tichu.server.wire.outgoing import JsonValue, is_json_value
from tichu.server.wire.protocol import MAX_FRAME, ProtocolError, clip

#: A JSON object: a ``response``'s values before its action is known.
JsonObject = dict[str, JsonValue]
#: A card as a client gives it: ``[value, suit]``.
Card = tuple[int, int]
#: The actions of a request (protocol.md, "Requests").
RequestAction = Literal["announce_grand_tichu", "schupf", "play", "wish", "give_dragon_away"]


@dataclass(frozen=True)
class Ping:
    """``ping``: the keep-alive; answered with ``pong``."""

    TYPE: ClassVar[str] = "ping"


@dataclass(frozen=True)
class Leave:
    """``leave``: the client goes; an agent takes its seat."""

    TYPE: ClassVar[str] = "leave"


@dataclass(frozen=True)
class Response:
    """``response``: the answer to the open request ``request_id``; its values
    (``response_data``) are one of the :data:`ANSWERS` of its action."""

    TYPE: ClassVar[str] = "response"
    request_id: str
    action: str
    response_data: JsonObject = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class Announce:
    """``announce``: call Tichu (R6.1)."""

    TYPE: ClassVar[str] = "announce"


@dataclass(frozen=True)
class Bomb:
    """``bomb``: lay a bomb, in turn or out of it (R4.3)."""

    TYPE: ClassVar[str] = "bomb"
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class SwapPlayers:
    """``swap_players``: the host swaps two seats in the lobby."""

    TYPE: ClassVar[str] = "swap_players"
    player_index_1: int
    player_index_2: int


@dataclass(frozen=True)
class StartGame:
    """``start_game``: the host starts the game."""

    TYPE: ClassVar[str] = "start_game"


@dataclass(frozen=True)
class SetOptions:
    """``set_options`` (docs/server.md): the host changes at least one of the table's options."""

    TYPE: ClassVar[str] = "set_options"
    agent: str | None = None
    hints: bool | None = None
    target_score: int | None = None
    spectators: bool | None = None
    turn_clock: int | None = None
    on_leave: str | None = None
    newcomers: bool | None = None

    def __post_init__(self) -> None:
        if all(getattr(self, field.name) is None for field in dataclasses.fields(self)):
            raise ProtocolError(ErrorCode.INVALID_MESSAGE, "set_options needs agent, hints, target_score, "
                                "spectators, turn_clock, on_leave and/or newcomers")


@dataclass(frozen=True)
class TableSync:
    """``table_sync`` (docs/server.md): the client wants the lobby's, chat's and clocks' messages."""

    TYPE: ClassVar[str] = "table_sync"


@dataclass(frozen=True)
class Chat:
    """``chat`` (docs/server.md): a line of chat."""

    TYPE: ClassVar[str] = "chat"
    text: str


@dataclass(frozen=True)
class Reaction:
    """``reaction`` (docs/server.md): one of the table's reactions."""

    TYPE: ClassVar[str] = "reaction"
    reaction: str


@dataclass(frozen=True)
class SetReady:
    """``set_ready`` (docs/server.md): the seat is ready to start, or no longer."""

    TYPE: ClassVar[str] = "set_ready"
    ready: bool


@dataclass(frozen=True)
class SetSpectatorHands:
    """``set_spectator_hands`` (docs/server.md): whether spectators may see this seat's hand."""

    TYPE: ClassVar[str] = "set_spectator_hands"
    allow: bool


@dataclass(frozen=True)
class TakeBack:
    """``take_back`` (docs/server.md): the person takes the seat back from its stand-in."""

    TYPE: ClassVar[str] = "take_back"


@dataclass(frozen=True)
class HandOver:
    """``hand_over`` (docs/server.md): the host hands an idle seat to its stand-in."""

    TYPE: ClassVar[str] = "hand_over"
    player_index: int


#: Every message a client may send.
Command = (Ping | Leave | Response | Announce | Bomb | SwapPlayers | StartGame | SetOptions | TableSync | Chat
           | Reaction | SetReady | SetSpectatorHands | TakeBack | HandOver)
#: The command type of each message type.
COMMANDS: dict[str, type[Command]] = {cls.TYPE: cls for cls in typing.get_args(Command)}
#: Message types a client may send.
CLIENT_TYPES = frozenset(COMMANDS)


@dataclass(frozen=True)
class GrandTichuAnswer:
    """The ``response_data`` of ``announce_grand_tichu``: whether the seat calls Grand Tichu (R2.4)."""

    announced: bool


@dataclass(frozen=True)
class SchupfAnswer:
    """The ``response_data`` of ``schupf``: the cards to the right, the partner and the left (R2.5)."""

    given_schupf_cards: tuple[Card, ...]


@dataclass(frozen=True)
class PlayAnswer:
    """The ``response_data`` of ``play``: the cards played, none to pass."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class WishAnswer:
    """The ``response_data`` of ``wish``: the wished value (R5.1)."""

    wish_value: int


@dataclass(frozen=True)
class DragonAnswer:
    """The ``response_data`` of ``give_dragon_away``: the opponent who gets the trick (R4.5)."""

    dragon_recipient: int


#: The type of a response's values for each request action.
ANSWERS: dict[str, type[GrandTichuAnswer | SchupfAnswer | PlayAnswer | WishAnswer | DragonAnswer]] = {
    "announce_grand_tichu": GrandTichuAnswer, "schupf": SchupfAnswer, "play": PlayAnswer, "wish": WishAnswer,
    "give_dragon_away": DragonAnswer}

T = TypeVar("T")
#: The longest list a command may carry: no list of cards is longer than the deck (R1). A longer one
#: is refused before its items are checked, so that a frame's check costs little whatever it holds.
MAX_LIST_ITEMS = 56


def parse_command(text: str) -> Command:
    """Read a client's text frame into its command.

    :param text: The frame.
    :returns: The command.
    :raises ProtocolError: (``INVALID_MESSAGE``) for anything but a JSON object with a known
        ``type`` and a ``payload`` (an object, or absent or null for none) whose fields are
        those of the type.
    """
    if len(text) > MAX_FRAME // 4 and len(text.encode()) > MAX_FRAME:
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"frame over {MAX_FRAME} bytes")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, "not JSON") from error
    if not isinstance(message, dict):
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, "a message is a JSON object")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in COMMANDS:
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"unknown message type {clip(str(kind))!r}")
    for key in message:
        if key not in ("type", "payload"):
            raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"unknown field {clip(str(key))!r}")
    payload = message.get("payload")
    if payload is None:
        payload = {}
    if not isinstance(payload, dict):
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, "payload must be an object")
    return decode(COMMANDS[kind], payload)


def decode(cls: type[T], data: JsonObject) -> T:
    """The dataclass ``cls`` of a JSON object, each field checked against its type.

    A field typed ``X | None`` may be missing or null; every other field must be there; a
    field the type does not have is refused. ``bool`` is no ``int``, an ``int`` no ``float``.

    :param cls: A dataclass of this module.
    :param data: The JSON object.
    :returns: The instance.
    :raises ProtocolError: (``INVALID_MESSAGE``) naming the first wrong field.
    """
    hints, fields = _shape(cls)
    for key in data:
        if key not in fields:
            raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"unknown field {clip(key)!r}")
    values: dict[str, object] = {}
    for name, field in fields.items():
        hint = hints[name]
        if data.get(name) is None and _is_optional(hint):
            continue
        if name not in data:
            if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
                raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"missing field {name!r}")
            continue
        value = data[name]
        if not _matches(value, hint):
            raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"field {name!r} has the wrong type")
        values[name] = _frozen(value)
    return cls(**values)


#: Each command class's field types and fields (:func:`_shape`), one entry per class of this module.
_SHAPES: dict[type[object], tuple[dict[str, object], dict[str, dataclasses.Field[object]]]] = {}


def _shape(cls: type[object]) -> tuple[dict[str, object], dict[str, dataclasses.Field[object]]]:
    """A command class's field types and fields, read once: resolving the annotations (strings
    under ``from __future__ import annotations``) costs far more than checking a frame, and every
    frame a client sends is checked."""
    shape = _SHAPES.get(cls)
    if shape is None:
        fields = {field.name: field for field in dataclasses.fields(cls)}  # type: ignore[arg-type]
        shape = _SHAPES[cls] = (typing.get_type_hints(cls), fields)
    return shape


def _is_optional(hint: object) -> bool:
    """Whether a field's type admits null (then it may be missing too)."""
    return typing.get_origin(hint) in (Union, types.UnionType) and type(None) in typing.get_args(hint)


def _matches(value: object, hint: object) -> bool:
    """Whether a JSON value has a field's type (the types this module uses)."""
    if is_json_value(hint):
        return True
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType):
        return any(_matches(value, arg) for arg in args)
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    if origin is tuple:
        if not isinstance(value, list):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return len(value) <= MAX_LIST_ITEMS and all(_matches(item, args[0]) for item in value)
        return len(value) == len(args) and all(_matches(item, arg) for item, arg in zip(value, args, strict=True))
    if origin is dict:
        return isinstance(value, dict)
    raise TypeError(f"no JSON check for {hint!r}")


def _frozen(value: object) -> object:
    """A JSON value with its lists as tuples, for the frozen dataclasses (objects stay dicts)."""
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value
