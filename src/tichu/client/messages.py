"""What the client's modules share about the protocol's messages (``docs/protocol.md``).

The table state (:mod:`tichu.client.state`), the bots (:mod:`tichu.client.bots`) and the
connection (:mod:`tichu.client.connection`) all handle JSON objects, and the connection
sorts the server's errors by what they mean for an answered request. These names live here,
in a module that imports no other module of the client, so that those modules need not
import each other for them (and no import cycle can arise). The codes themselves come from
:mod:`tichu.server.codes`, the protocol's one list of them.
"""

from __future__ import annotations

from typing import Any

from tichu.server.codes import ErrorCode

__all__ = ["CLOSED_CODES", "REFUSAL_CODES", "JsonDict"]

#: A JSON object as sent or received.
JsonDict = dict[str, Any]

#: Errors that refuse a response while its request stays open: the client answers again.
REFUSAL_CODES = frozenset({ErrorCode.UNKNOWN_CARD, ErrorCode.NOT_HAND_CARD, ErrorCode.INVALID_ACTION,
                           ErrorCode.NOT_UNIQUE_CARDS, ErrorCode.INVALID_COMBINATION, ErrorCode.INVALID_WISH,
                           ErrorCode.INVALID_DRAGON_RECIPIENT})
#: Errors after which the answered request is known to be closed.
CLOSED_CODES = frozenset({ErrorCode.INVALID_RESPONSE, ErrorCode.REQUEST_OBSOLETE})
