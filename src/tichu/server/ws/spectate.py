"""The WebSocket of a spectator (``/ws?table_name=T&spectate=1``, docs/server.md "Spectators").

A spectator has no seat and no session: it is admitted to an open table, reads the table's
public messages, and may send nothing but ``leave`` (and ``ping``, the keep-alive of
protocol.md, which changes nothing and is answered with ``pong``). Every other message (after the same
parsing and rate limit as a player's) is answered with ``UNAUTHORIZED`` (104) and changes
nothing; the socket stays open. A spectator that reloads simply joins again.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from aiohttp import WSCloseCode, WSMsgType

from tichu.server.codes import ErrorCode
from tichu.server.config import Settings
from tichu.server.guard.limits import TokenBucket
from tichu.server.tables.factory import GameFactory
from tichu.server.tables.spectators import Spectator
from tichu.server.wire.connection import Connection
from tichu.server.wire.incoming import Leave, Ping, parse_command
from tichu.server.wire.protocol import PONG, ProtocolError, clean_name, error_message

log = logging.getLogger(__name__)

#: Values of the ``spectate`` query parameter that ask to watch.
SPECTATE_VALUES = frozenset({"1", "true", "yes"})


def wants_to_spectate(query: Mapping[str, str]) -> bool:
    """Whether a WebSocket's query asks to watch (``spectate=1``)."""
    return str(query.get("spectate", "")).lower() in SPECTATE_VALUES


def refusal(kind: str) -> ProtocolError:
    """The error that answers a spectator's message other than ``leave``."""
    return ProtocolError(ErrorCode.UNAUTHORIZED, "spectators may send nothing but leave", type=kind)


async def serve_spectator(factory: GameFactory, settings: Settings, query: Mapping[str, str],
                          connection: Connection) -> None:
    """Admit a spectator, then read its messages until it leaves or its socket closes.

    :param factory: The server's tables.
    :param settings: The server's settings (the message rate).
    :param query: The WebSocket's query parameters (``table_name``).
    :param connection: The spectator's connection (counted in the server's connection limits).
    """
    try:
        table_name = clean_name(query.get("table_name"), "table_name", 40)
        table, spectator = factory.spectate(table_name, connection)
    except ProtocolError as error:
        connection.send(error_message(error.code, error.context, str(error)))
        code = WSCloseCode.TRY_AGAIN_LATER if error.code == ErrorCode.SERVER_BUSY else WSCloseCode.POLICY_VIOLATION
        await connection.close(code, str(error))
        return
    bucket = TokenBucket(settings.message_rate, settings.message_burst)
    left = flooded = False
    try:
        async for message in connection.ws:
            if spectator.connection is not connection:
                break  # the table closed or stopped admitting spectators
            if not bucket.take():
                spectator.send(error_message(ErrorCode.SERVER_BUSY, {"reason": "too many messages"}))
                flooded = bucket.flooded_for() >= settings.flood_close
                if flooded:
                    break
                continue
            if message.type == WSMsgType.TEXT:
                left = _handle(spectator, message.data)
                if left:
                    break
            elif message.type == WSMsgType.BINARY:
                spectator.send(error_message(ErrorCode.INVALID_MESSAGE, {"reason": "binary frames are not read"}))
            else:
                break
    finally:
        table.unspectate(spectator)
        if left:
            await connection.close(WSCloseCode.OK)
        elif flooded:
            await connection.close(WSCloseCode.POLICY_VIOLATION, "too many messages")
        else:
            connection.abandon()


def _handle(spectator: Spectator, text: str) -> bool:
    """Handle one frame of a spectator; return whether it left. Never raises."""
    try:
        command = parse_command(text)
        if isinstance(command, Leave):
            return True
        if isinstance(command, Ping):
            spectator.send(PONG)  # the keep-alive of protocol.md changes nothing
            return False
        raise refusal(command.TYPE)
    except ProtocolError as error:
        spectator.send_error(error)
    except Exception:  # nothing a spectator sends may break the server
        log.exception("a spectator's message failed")
        spectator.send(error_message(ErrorCode.UNKNOWN_ERROR))
    return False
