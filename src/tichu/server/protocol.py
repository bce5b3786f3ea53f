"""Messages of the WebSocket protocol (protocol.md): parsing client input, building server output.

Everything a client sends is untrusted: :func:`parse_message` and the ``*_from_json``
helpers turn it into checked values or raise :class:`ProtocolError`, which the handler
answers with an ``error`` message; nothing here changes any state.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from tichu.core.cards import card_index
from tichu.core.errors import RuleViolation, Violation
from tichu.server.codes import ErrorCode

PROTOCOL_VERSION = 1
#: Largest text frame that is read; larger ones are refused with INVALID_MESSAGE.
MAX_FRAME = 64 * 1024
#: Frames over this size close the connection (1009), as aiohttp's limit.
MAX_FRAME_HARD = 1024 * 1024
#: Message types a client may send (``set_options`` is the project's extension, docs/server.md).
CLIENT_TYPES = frozenset({"leave", "swap_players", "start_game", "set_options", "announce", "bomb", "response",
                          "ping"})

_MESSAGES = {
    ErrorCode.UNKNOWN_ERROR: "An unknown error occurred.",
    ErrorCode.INVALID_MESSAGE: "Invalid message.",
    ErrorCode.UNKNOWN_CARD: "At least one card does not exist.",
    ErrorCode.NOT_HAND_CARD: "At least one card is not in your hand.",
    ErrorCode.SERVER_DOWN: "The server is shutting down.",
    ErrorCode.SESSION_NOT_FOUND: "Session not found.",
    ErrorCode.TABLE_FULL: "The table is full.",
    ErrorCode.NAME_TAKEN: "This name is already taken at this table.",
    ErrorCode.INVALID_ACTION: "Invalid action.",
    ErrorCode.INVALID_RESPONSE: "There is no open request for this response.",
    ErrorCode.NOT_UNIQUE_CARDS: "At least two cards are the same.",
    ErrorCode.INVALID_COMBINATION: "The cards form no combination.",
    ErrorCode.NOT_YOUR_TURN: "It is not your turn.",
    ErrorCode.INTERRUPT_DENIED: "No bomb can be played now.",
    ErrorCode.INVALID_WISH: "Invalid wish.",
    ErrorCode.INVALID_ANNOUNCE: "Tichu cannot be called now.",
    ErrorCode.INVALID_DRAGON_RECIPIENT: "The Dragon trick must go to an opponent.",
    ErrorCode.ACTION_TIMEOUT: "Time is up: an agent decided for you.",
    ErrorCode.REQUEST_OBSOLETE: "This request is no longer open.",
    ErrorCode.GAME_ALREADY_STARTED: "The game has already started.",
    ErrorCode.NOT_LOBBY_HOST: "Only the host can do this.",
}
#: The error code that answers each kind of rule violation (the one place of this mapping).
VIOLATION_CODES = {
    Violation.UNKNOWN_CARD: ErrorCode.UNKNOWN_CARD,
    Violation.DUPLICATE_CARD: ErrorCode.NOT_UNIQUE_CARDS,
    Violation.NOT_IN_HAND: ErrorCode.NOT_HAND_CARD,
    Violation.NO_COMBINATION: ErrorCode.INVALID_COMBINATION,
    Violation.NOT_YOUR_TURN: ErrorCode.NOT_YOUR_TURN,
    Violation.BOMB_NOT_ALLOWED: ErrorCode.INTERRUPT_DENIED,
    Violation.CALL_NOT_ALLOWED: ErrorCode.INVALID_ANNOUNCE,
    Violation.WISH_NOT_ALLOWED: ErrorCode.INVALID_WISH,
    Violation.DRAGON_RECIPIENT: ErrorCode.INVALID_DRAGON_RECIPIENT,
    Violation.ACTION_NOT_ALLOWED: ErrorCode.INVALID_ACTION,
}
_MARKUP = re.compile(r"[<>&\"'`]")


class ProtocolError(Exception):
    """A refused client message: answered with ``error`` and otherwise ignored.

    :ivar code: The protocol error code.
    :ivar context: Details for the client (always a dict).
    """

    def __init__(self, code: ErrorCode, reason: str = "", **context: Any) -> None:
        super().__init__(reason or _MESSAGES.get(code, code.name))
        self.code = code
        self.context = dict(context)
        if reason:
            self.context.setdefault("reason", reason)

    @classmethod
    def from_violation(cls, violation: RuleViolation, **context: Any) -> ProtocolError:
        """The protocol error for a rule violation (the code of its kind, the rule and the reason)."""
        return cls(VIOLATION_CODES[violation.violation], violation.reason, rule=violation.rule, **context)


def error_message(code: ErrorCode, context: dict[str, Any] | None = None, message: str | None = None) -> dict[str, Any]:
    """An ``error`` message."""
    return {"type": "error", "payload": {"message": message or _MESSAGES.get(code, code.name), "code": int(code),
                                         "context": context or {}}}


def notification(event: str, context: dict[str, Any]) -> dict[str, Any]:
    """A ``notification`` message."""
    return {"type": "notification", "payload": {"event": event, "context": context}}


def parse_message(text: str) -> tuple[str, dict[str, Any]]:
    """Parse a client frame into its type and payload.

    :raises ProtocolError: (``INVALID_MESSAGE``) for anything but a JSON object with a known
        ``type`` and an object ``payload``.
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
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"unknown message type {str(kind)[:40]!r}")
    payload = message.get("payload", {})
    if payload is None:
        payload = {}
    if not isinstance(payload, dict):
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, "payload must be an object")
    return kind, payload


def require(payload: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """A payload field of the expected JSON type (``bool`` is not an ``int``).

    :raises ProtocolError: (``INVALID_MESSAGE``) if it is missing or of another type.
    """
    if key not in payload:
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"missing field {key!r}")
    value = payload[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"field {key!r} has the wrong type")
    if not isinstance(value, kinds):
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"field {key!r} has the wrong type")
    return value


def optional(payload: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """A payload field of the expected JSON type, or ``None`` when it is missing or null.

    :raises ProtocolError: (``INVALID_MESSAGE``) if it is present and of another type.
    """
    if payload.get(key) is None:
        return None
    return require(payload, key, kind)


def cards_from_json(value: Any, *, limit: int = 14) -> int:
    """The mask of a JSON list of ``[value, suit]`` pairs.

    :raises ProtocolError: ``INVALID_MESSAGE`` for a malformed list, ``UNKNOWN_CARD`` for
        a pair that is no card, ``NOT_UNIQUE_CARDS`` for a card given twice.
    """
    if not isinstance(value, list) or len(value) > limit:
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"cards are a list of at most {limit} [value, suit] pairs")
    mask = 0
    for item in value:
        if (not isinstance(item, list) or len(item) != 2
                or not all(isinstance(part, int) and not isinstance(part, bool) for part in item)):
            raise ProtocolError(ErrorCode.INVALID_MESSAGE, "a card is a [value, suit] pair of integers")
        try:
            bit = 1 << card_index((item[0], item[1]))
        except RuleViolation as error:
            raise ProtocolError(ErrorCode.UNKNOWN_CARD, error.reason, cards=value) from error
        if mask & bit:
            raise ProtocolError(ErrorCode.NOT_UNIQUE_CARDS, "a card is given twice", cards=value)
        mask |= bit
    return mask


def clean_name(raw: str | None, what: str, longest: int) -> str:
    """A player or table name: trimmed, 1..``longest`` characters, no control characters or markup.

    :raises ProtocolError: (``INVALID_MESSAGE``) naming the problem in ``context.reason``.
    """
    if raw is None:
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"{what} is missing")
    name = unicodedata.normalize("NFC", raw).strip()
    if not 1 <= len(name) <= longest:
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"{what} must have 1 to {longest} characters")
    if any(unicodedata.category(char).startswith("C") for char in name):
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"{what} must not contain control characters")
    if _MARKUP.search(name):
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"{what} must not contain < > & \" ' `")
    return name
