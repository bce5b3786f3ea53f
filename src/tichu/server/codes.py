"""The error codes of the WebSocket protocol (protocol.md, "Errors").

A module of its own so that the server's modules and the protocol client share the codes
without importing each other.
"""

from __future__ import annotations

from enum import IntEnum


class ErrorCode(IntEnum):
    """Error codes of the WebSocket protocol."""

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
