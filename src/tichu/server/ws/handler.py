"""The WebSocket at ``/ws``: a client is seated (or reconnected, or admitted as a spectator),
then its frames are read, limited in rate and handed to :func:`~tichu.server.ws.dispatch.dispatch`
until it goes; every refused message is answered with an ``error`` (protocol.md).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from aiohttp import WSCloseCode, WSMsgType, web

from tichu.server.codes import ErrorCode
from tichu.server.config import Settings
from tichu.server.guard.limits import TokenBucket, limit_key
from tichu.server.keys import CONNECTIONS, FACTORY, FORWARDED, ORIGINS, SETTINGS
from tichu.server.tables.factory import GameFactory
from tichu.server.tables.peer import Peer
from tichu.server.tables.table import Table
from tichu.server.wire.connection import Connection, WebSocket
from tichu.server.wire.incoming import Leave, parse_command
from tichu.server.wire.protocol import (
    MAX_FRAME_HARD,
    ProtocolError,
    clean_name,
    clean_player_name,
    error_message,
)
from tichu.server.ws.dispatch import dispatch
from tichu.server.ws.spectate import serve_spectator, wants_to_spectate

log = logging.getLogger(__name__)

#: Seconds between the WebSocket pings aiohttp sends; a client that has not answered one with a
#: pong half this time later counts as gone (its socket is closed, see :func:`_serve`).
HEARTBEAT = 30.0

async def websocket_handler(request: web.Request) -> web.StreamResponse:
    """Connect a client (new seat or reconnect), then route its messages until it goes."""
    if not request.app[ORIGINS].allows(request):
        raise web.HTTPForbidden(text="cross-origin WebSocket refused")
    settings, counter = request.app[SETTINGS], request.app[CONNECTIONS]
    address = limited_address(request, settings)
    ws = WebSocket(close_wait=settings.close_wait, heartbeat=HEARTBEAT, max_msg_size=MAX_FRAME_HARD)
    await ws.prepare(request)
    connection = Connection(ws, request.transport, settings.outbox_bytes)
    if not counter.acquire(address):
        log.warning("connection from %s refused: %d open from there, %d in all", address, counter.held(address),
                    counter.count)
        await _refuse(connection, ProtocolError(ErrorCode.SERVER_BUSY, "too many connections"))
        return ws
    try:
        if wants_to_spectate(request.query):
            await serve_spectator(request.app[FACTORY], settings, request.query, connection)
        else:
            await _serve(request.app[FACTORY], settings, address, request.query, connection)
    finally:
        counter.release(address)
    return ws


def limited_address(request: web.Request, settings: Settings) -> str | None:
    """The key a client's limits per address count under (:func:`~tichu.server.guard.limits.limit_key`):
    the socket's peer, or behind a trusted proxy the client it forwards
    (:mod:`tichu.server.guard.forwarded`); ``None`` for a loopback client spared the limits.
    """
    client = request.app[FORWARDED].resolve(request.remote or "", request.headers.getall("X-Forwarded-For", []),
                                            request.headers.getall("Forwarded", []))
    return limit_key(client, settings.loopback_exempt, settings.ipv6_prefix)


async def _refuse(connection: Connection, error: ProtocolError) -> None:
    """Answer a client that gets no seat with the error, then close (1013 when busy, else 1008)."""
    connection.send(error_message(error.code, error.context, str(error)))
    code = WSCloseCode.TRY_AGAIN_LATER if error.code == ErrorCode.SERVER_BUSY else WSCloseCode.POLICY_VIOLATION
    await connection.close(code, str(error))


async def _serve(factory: GameFactory, settings: Settings, address: str | None, query: Mapping[str, str],
                 connection: Connection) -> None:
    """Seat a client, then route its messages (at most ``message_rate`` a second) until it goes."""
    try:
        table, peer = _connect(factory, query, connection, address)
    except ProtocolError as error:
        await _refuse(connection, error)
        return
    bucket = TokenBucket(settings.message_rate, settings.message_burst)
    ws, left, flooded = connection.ws, False, False
    try:
        async for message in ws:
            if peer.connection is not connection:
                break  # the client connected anew; this socket is being closed
            if not bucket.take():
                peer.send(error_message(ErrorCode.SERVER_BUSY, {"reason": "too many messages"}))
                flooded = bucket.flooded_for() >= settings.flood_close
                if flooded:
                    log.warning("table %r: seat %d sends too fast; closing its connection", table.name, peer.seat)
                    break
                continue
            if message.type == WSMsgType.TEXT:
                left = _handle(table, peer, message.data)
                if left:
                    break
            elif message.type == WSMsgType.BINARY:
                peer.send(error_message(ErrorCode.INVALID_MESSAGE, {"reason": "binary frames are not read"}))
            else:
                break
    finally:
        if left:
            table.leave(peer)
            await connection.close(WSCloseCode.OK)
        elif flooded:
            table.drop(peer, connection)
            await connection.close(WSCloseCode.POLICY_VIOLATION, "too many messages")
        else:
            table.drop(peer, connection)
            connection.abandon()


def _connect(factory: GameFactory, query: Mapping[str, str], connection: Connection,
             address: str | None) -> tuple[Table, Peer]:
    session_id = query.get("session_id")
    if session_id is not None:
        return factory.reconnect(session_id, connection)
    table_name = clean_name(query.get("table_name"), "table_name", 40)
    player_name = clean_player_name(query.get("player_name"))
    return factory.join(table_name, player_name, connection, address)


def _handle(table: Table, peer: Peer, text: str) -> bool:
    """Handle one text frame; return whether the client left. Never raises."""
    try:
        command = parse_command(text)
        if isinstance(command, Leave):
            return True
        dispatch(table, peer, command)
    except ProtocolError as error:
        peer.send_error(error)
    except Exception:  # nothing a client sends may break its table or the server
        log.exception("table %r: a message from seat %d failed", table.name, peer.seat)
        peer.send(error_message(ErrorCode.UNKNOWN_ERROR))
    return False
