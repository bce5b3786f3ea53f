"""The two time bounds of a connection (``tichu.server.ws.connection``, docs/server.md "Limits"):
a polite close that the client never completes is cut after :data:`~tichu.server.ws.connection.CLOSE_WAIT`
seconds, and a client that stops answering the heartbeat's pings has its socket closed, its
transport aborted when data for it is still stuck in the buffer. Real servers, real sockets on
loopback; the client is a bare socket (asyncio streams) that completes the WebSocket handshake
and then does only what each test says: it never reads and never answers a ping or a close.
The bounds are shortened with ``monkeypatch`` (the server reads them when it uses them).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.support.live_server import WAIT, eventually
from tests.support.raw_client import Server, StartServer
from tichu.server.keys import CONNECTIONS
from tichu.server.ws import connection as server_connection
from tichu.server.ws import handler as ws_handler
from tichu.server.ws.connection import Connection

#: Opcodes of RFC 6455.
TEXT, CLOSE = 0x1, 0x8


def masked_frame(opcode: int, payload: bytes) -> bytes:
    """A final client frame (clients must mask, RFC 6455 5.3).

    :param opcode: The frame's opcode.
    :param payload: Its payload.
    :returns: The frame's bytes.
    """
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    return header + mask + masked


class BareClient:
    """A WebSocket client on a bare socket: it reads nothing after the handshake unless told to.

    :ivar reader: The stream's reader (left alone: the socket's receive buffer fills up).
    :ivar writer: The stream's writer.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def connect(cls, port: int, player: str, table: str, *, receive_buffer: int | None = None) -> BareClient:
        """Open the socket and complete the handshake (read up to the end of the 101 answer).

        :param port: The server's port on 127.0.0.1.
        :param player: The player's name.
        :param table: The table's name.
        :param receive_buffer: (Optional) ``SO_RCVBUF`` of the socket, set before connecting.
        :returns: The connected client.
        """
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        reader, writer = await asyncio.open_connection(sock=sock)
        key = base64.b64encode(os.urandom(16)).decode()
        path = "/ws?" + urlencode({"player_name": player, "table_name": table})
        writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        await writer.drain()
        answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WAIT)
        assert answer.startswith(b"HTTP/1.1 101"), answer
        return cls(reader, writer)

    async def send(self, message: Mapping[str, Any]) -> None:
        """Send a message as a text frame.

        :param message: The message.
        """
        self.writer.write(masked_frame(TEXT, json.dumps(message).encode()))
        await self.writer.drain()

    async def read_to_end(self) -> bytes:
        """Read until the server has closed the connection (EOF, or a reset).

        :returns: Everything read.
        """
        data = b""
        try:
            async with asyncio.timeout(WAIT):
                while chunk := await self.reader.read(1 << 16):
                    data += chunk
        except ConnectionResetError:
            pass
        return data

    def close(self) -> None:
        """Close the socket."""
        self.writer.close()


async def seated(server: Server, table: str) -> Connection:
    """The connection of the one client at ``table``, once it is seated.

    :param server: The server.
    :param table: The table's name.
    :returns: The client's connection.
    """
    await eventually(lambda: table in server.factory.tables and len(server.table(table).clients) == 1)
    connection = server.table(table).clients[0].connection
    assert connection is not None
    return connection


async def fill_server_buffer(client: BareClient, transport: asyncio.Transport) -> None:
    """Send refused messages until the server's answers, unread by the client, back up into the
    transport's own buffer (the kernel's buffers on both sides are full).

    :param client: A client connected with a small receive buffer, which never reads.
    :param transport: The server's transport of its connection.
    """
    refused = {"type": "bomb", "payload": {"cards": [[2, 1]] * 100}}  # each answered with an error
    async with asyncio.timeout(WAIT * 2):
        while transport.get_write_buffer_size() == 0:
            for _ in range(200):
                await client.send(refused)
            await asyncio.sleep(0.01)


async def stuck_behind(client: BareClient, server: Server, table: str) -> tuple[Connection, asyncio.Transport]:
    """Seat the client and fill the server's buffer towards it (:func:`fill_server_buffer`).

    :returns: The client's connection at the server and its transport.
    """
    connection = await seated(server, table)
    transport = connection._transport
    assert transport is not None
    await fill_server_buffer(client, transport)
    return connection, transport


async def aborted_with_nothing_sent(connection: Connection, transport: asyncio.Transport) -> None:
    """Check that the transport was aborted, dropping (never sending) what was stuck, and that
    the connection's writer task ended (cancelled, it ends at its next turn of the loop)."""
    assert transport.is_closing() and transport.get_write_buffer_size() == 0
    assert connection.queued == 0
    await eventually(connection._writer.done)


async def test_a_close_the_client_never_completes_is_cut_after_close_wait(
        start_server: StartServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client sends ``leave`` and then never reads nor answers the server's close frame: the
    polite close (queued messages, close frame, wait for the client's close frame) is cut after
    ``CLOSE_WAIT`` seconds, its transport aborted, not after aiohttp's own 10 s close timeout."""
    close_wait = 1.0
    monkeypatch.setattr(server_connection, "CLOSE_WAIT", close_wait)
    server = await start_server()
    client = await BareClient.connect(server.port, "Anna", "t")
    try:
        connection = await seated(server, "t")
        transport = connection._transport
        assert transport is not None
        started = time.monotonic()
        await client.send({"type": "leave"})
        await eventually(lambda: connection.closed)
        assert not transport.is_closing()  # the close frame is out; the server waits for the client's
        await eventually(lambda: server.app[CONNECTIONS].count == 0)
        elapsed = time.monotonic() - started
        assert close_wait <= elapsed < close_wait + 2.0, elapsed
        assert transport.is_closing()
        await eventually(connection._writer.done)  # cancelled; it ends at its next turn of the loop
        received = await client.read_to_end()  # the server's messages, its close frame, then EOF
        assert bytes([0x80 | CLOSE]) in received
    finally:
        client.close()


async def test_a_close_stuck_behind_unread_data_is_cut_with_the_transport_aborted(
        start_server: StartServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that never reads fills the server's buffer, then sends ``leave``: the close frame
    cannot even be sent. After ``CLOSE_WAIT`` the transport is aborted and what was stuck for the
    client is dropped (closing it would wait for the buffer to drain, forever)."""
    close_wait = 1.0
    monkeypatch.setattr(server_connection, "CLOSE_WAIT", close_wait)
    server = await start_server(outbox_bytes=64 << 20)
    client = await BareClient.connect(server.port, "Anna", "t", receive_buffer=4096)
    try:
        connection, transport = await stuck_behind(client, server, "t")
        started = time.monotonic()
        await client.send({"type": "leave"})
        await eventually(lambda: server.app[CONNECTIONS].count == 0)
        elapsed = time.monotonic() - started
        assert close_wait <= elapsed < close_wait + 2.0, elapsed
        await aborted_with_nothing_sent(connection, transport)
        await client.read_to_end()  # what the kernel had taken, then the end of the stream
    finally:
        client.close()


async def test_a_client_that_stops_answering_pings_is_aborted_after_the_heartbeat_fails(
        start_server: StartServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client fills the server's socket buffer with answers it never reads, then goes quiet: it
    answers no ping. One heartbeat later (plus half a heartbeat for the pong) the server gives up
    on it: its seat is dropped, and its transport is aborted, dropping what was stuck for it
    (aiohttp only closes the transport, which waits for a buffer that never drains)."""
    heartbeat = 1.0
    monkeypatch.setattr(ws_handler, "HEARTBEAT", heartbeat)
    server = await start_server(outbox_bytes=64 << 20)
    client = await BareClient.connect(server.port, "Anna", "t", receive_buffer=4096)
    try:
        connection, transport = await stuck_behind(client, server, "t")
        quiet = time.monotonic()
        assert server.app[CONNECTIONS].count == 1
        await eventually(lambda: server.app[CONNECTIONS].count == 0)
        elapsed = time.monotonic() - quiet
        assert elapsed < heartbeat * 1.5 + 2.0, elapsed
        assert server.table("t").clients == [] or server.table("t").clients[0].connection is None
        await aborted_with_nothing_sent(connection, transport)
    finally:
        client.close()


async def test_a_quiet_client_with_nothing_pending_is_closed_after_the_heartbeat_fails(
        start_server: StartServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that answers no ping and has nothing stuck in the buffer: the server closes its
    socket one heartbeat and a half after it went quiet, and the client sees the end of the stream."""
    heartbeat = 1.0
    monkeypatch.setattr(ws_handler, "HEARTBEAT", heartbeat)
    server = await start_server()
    quiet = time.monotonic()  # the client sends nothing after its handshake
    client = await BareClient.connect(server.port, "Anna", "t")
    try:
        connection = await seated(server, "t")
        await eventually(lambda: server.app[CONNECTIONS].count == 0)
        assert heartbeat * 1.5 - 0.05 <= time.monotonic() - quiet < heartbeat * 1.5 + 2.0
        assert connection._transport is not None and connection._transport.is_closing()
        await client.read_to_end()  # returns at EOF: the server's side is closed
    finally:
        client.close()
