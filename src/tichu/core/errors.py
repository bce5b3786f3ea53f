"""Domain errors of the rules core and the protocol's error codes.

The engine and the server map a :class:`RuleViolation` to a protocol ``error`` message
by its :class:`ErrorCode`; replay reports its ``rule``.
"""

from __future__ import annotations

from enum import IntEnum


class ErrorCode(IntEnum):
    """Error codes of the WebSocket protocol (protocol.md, "Errors")."""

    UNKNOWN_ERROR = 100
    INVALID_MESSAGE = 101
    UNKNOWN_CARD = 102
    NOT_HAND_CARD = 103
    UNAUTHORIZED = 104
    SERVER_BUSY = 105
    SERVER_DOWN = 106
    MAINTENANCE_MODE = 107
    SESSION_EXPIRED = 200
    SESSION_NOT_FOUND = 201
    TABLE_NOT_FOUND = 202
    TABLE_FULL = 203
    NAME_TAKEN = 204
    ALREADY_ON_TABLE = 205
    INVALID_ACTION = 300
    INVALID_RESPONSE = 301
    NOT_UNIQUE_CARDS = 302
    INVALID_COMBINATION = 303
    NOT_YOUR_TURN = 304
    INTERRUPT_DENIED = 305
    INVALID_WISH = 306
    INVALID_ANNOUNCE = 307
    INVALID_DRAGON_RECIPIENT = 308
    ACTION_TIMEOUT = 309
    REQUEST_OBSOLETE = 310
    GAME_ALREADY_STARTED = 400
    NOT_LOBBY_HOST = 401


class TichuError(Exception):
    """Base class of the project's domain errors."""


class RuleViolation(TichuError):
    """An action that the rules do not allow at this point; nothing was changed.

    :ivar code: The protocol error code that answers it.
    :ivar rule: The rule it breaks, as numbered in rules.md (e.g. ``"R5.2"``).
    :ivar reason: A sentence for people.
    """

    def __init__(self, code: ErrorCode, rule: str, reason: str) -> None:
        super().__init__(f"{rule}: {reason}")
        self.code = code
        self.rule = rule
        self.reason = reason
