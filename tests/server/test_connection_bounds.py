"""The two time bounds of a connection (``tichu.server.wire.connection``, docs/server.md "Limits"):
every close that the client never completes (a polite one, the 1009 for a frame too large) is
cut after ``close_wait`` seconds (``TICHU_CLOSE_WAIT``), and a client that stops answering the
heartbeat's pings has its socket closed, its transport aborted when data for it is still stuck
in the buffer. Real servers, real sockets on loopback; the client is a bare socket (asyncio
streams) that completes the WebSocket handshake and then does only what each test says: it
never reads and never answers a ping or a close.

The tests hold on a slow, loaded machine (issue 33, finding 9): each waits for the state it
checks with a generous :data:`DEADLINE`, asserts no upper bound of time, and sets up what it
needs without racing a timer of the server (the heartbeat is off, or fed by the client, until
the test lets it run). The heartbeat is shortened with ``monkeypatch`` (the server reads it
when it opens a socket).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
import struct
import time
from collections.abc import AsyncIterator, Mapping
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.support.live_server import eventually
from tests.support.raw_client import Server, StartServer
from tichu.server.config import Settings
from tichu.server.keys import CONNECTIONS
from tichu.server.wire.connection import Connection
from tichu.server.wire.protocol import MAX_FRAME_HARD
from tichu.server.ws import handler as ws_handler

#: Opcodes of RFC 6455.
TEXT, CLOSE = 0x1, 0x8
#: Seconds any wait of these tests may take: long, so that a loaded machine passes too.
DEADLINE = 60.0
#: ``close_wait`` of the tests' servers (seconds).
CLOSE_WAIT = 1.0
#: A heartbeat that never fires within a test (seconds).
NO_HEARTBEAT = 3600.0
#: Messages, of :data:`STUFFING` characters each, queued for a client to fill the buffers towards it.
STUFFED, STUFFING = 4, 1 << 20


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
        answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), DEADLINE)
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
            async with asyncio.timeout(DEADLINE):
                while chunk := await self.reader.read(1 << 16):
                    data += chunk
        except ConnectionResetError:
            pass
        return data

    async def send_frame_header(self, opcode: int, length: int) -> None:
        """Send the header of a frame of ``length`` bytes, and none of its payload.

        :param opcode: The frame's opcode.
        :param length: The payload's length the header announces.
        """
        self.writer.write(struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length) + os.urandom(4))
        await self.writer.drain()

    def close(self) -> None:
        """Close the socket."""
        self.writer.close()


async def seated(server: Server, table: str) -> Connection:
    """The connection of the one client at ``table``, once it is seated.

    :param server: The server.
    :param table: The table's name.
    :returns: The client's connection.
    """
    await eventually(lambda: table in server.factory.tables and len(server.table(table).clients) == 1, DEADLINE)
    connection = server.table(table).clients[0].connection
    assert connection is not None
    return connection


async def stuck_behind(server: Server, table: str) -> tuple[Connection, asyncio.Transport]:
    """Seat the one client of ``table`` (connected with a small receive buffer, it never reads)
    and queue more for it than the buffers between the two hold, until the server's writer
    waits for the client with data stuck in the transport's own buffer.

    The server's send buffer is made small too (``SO_SNDBUF``), so that the kernel takes little;
    the data is queued by the server itself, so that filling takes no turn of the heartbeat.

    :returns: The client's connection at the server and its transport.
    """
    connection = await seated(server, table)
    transport = connection._transport
    assert transport is not None
    transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    for _ in range(STUFFED):
        connection.send("x" * STUFFING)
    await eventually(lambda: transport.get_write_buffer_size() > 0 and connection.queued > 0, DEADLINE)
    return connection, transport


async def aborted_with_nothing_sent(connection: Connection, transport: asyncio.Transport) -> None:
    """Check that the transport was aborted, dropping (never sending) what was stuck, and that
    the connection's writer task ended (cancelled, it ends at its next turn of the loop)."""
    assert transport.is_closing() and transport.get_write_buffer_size() == 0
    assert connection.queued == 0
    await eventually(connection._writer.done, DEADLINE)


async def released(server: Server) -> float:
    """Wait until the server counts no connection (the client's slot is free).

    :returns: The time (``time.monotonic``) it was seen free.
    """
    await eventually(lambda: server.app[CONNECTIONS].count == 0, DEADLINE)
    return time.monotonic()


@contextlib.asynccontextmanager
async def fed_heartbeat(client: BareClient) -> AsyncIterator[None]:
    """Keep the server's heartbeat from firing while the block runs: the client sends a frame
    every tenth of a second (the server answers it with an error, which the client never reads)."""
    async def feed() -> None:
        while True:
            await client.send({"type": "heartbeat feed"})
            await asyncio.sleep(0.1)

    feeding = asyncio.create_task(feed())
    try:
        yield
    finally:
        feeding.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await feeding


async def test_a_close_the_client_never_completes_is_cut_after_close_wait(
        start_server: StartServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client sends ``leave`` and then never reads nor answers the server's close frame: the
    polite close (queued messages, close frame, wait for the client's close frame) is cut after
    ``close_wait`` seconds (not sooner), its transport closed, the client's slot free.
    Issue 33, finding 9: no upper bound of time is asserted."""
    monkeypatch.setattr(ws_handler, "HEARTBEAT", NO_HEARTBEAT)
    server = await start_server(close_wait=CLOSE_WAIT)
    client = await BareClient.connect(server.port, "Anna", "t")
    try:
        connection = await seated(server, "t")
        transport = connection._transport
        assert transport is not None
        started = time.monotonic()
        await client.send({"type": "leave"})
        assert await released(server) - started >= CLOSE_WAIT - 0.05  # it waited for the client
        assert transport.is_closing()
        await eventually(connection._writer.done, DEADLINE)  # cancelled; it ends at its next turn of the loop
        received = await client.read_to_end()  # the server's messages, its close frame, then EOF
        assert bytes([0x80 | CLOSE]) in received
    finally:
        client.close()


async def test_a_close_stuck_behind_unread_data_is_cut_with_the_transport_aborted(
        start_server: StartServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that never reads has data stuck towards it, then sends ``leave``: the close frame
    cannot even be sent. After ``close_wait`` the transport is aborted and what was stuck for the
    client is dropped (closing it would wait for the buffer to drain, for ever).
    Issue 33, finding 9: no upper bound of time is asserted."""
    monkeypatch.setattr(ws_handler, "HEARTBEAT", NO_HEARTBEAT)
    server = await start_server(outbox_bytes=64 << 20, close_wait=CLOSE_WAIT)
    client = await BareClient.connect(server.port, "Anna", "t", receive_buffer=4096)
    try:
        connection, transport = await stuck_behind(server, "t")
        started = time.monotonic()
        await client.send({"type": "leave"})
        assert await released(server) - started >= CLOSE_WAIT - 0.05
        await aborted_with_nothing_sent(connection, transport)
        await client.read_to_end()  # what the kernel had taken, then the end of the stream
    finally:
        client.close()


async def test_a_frame_too_large_from_a_client_that_does_not_read_frees_its_slot(
        start_server: StartServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 33, finding 3: a client stops reading, data backs up towards it, then it sends a
    frame over 1 MiB. aiohttp answers with close 1009 inside its ``receive`` and waits, without
    a bound, to send that close frame: the connection stayed counted for good. Now that close is
    cut after ``close_wait``: the transport is aborted, the slot free."""
    monkeypatch.setattr(ws_handler, "HEARTBEAT", NO_HEARTBEAT)
    server = await start_server(outbox_bytes=64 << 20, close_wait=CLOSE_WAIT)
    client = await BareClient.connect(server.port, "Anna", "t", receive_buffer=4096)
    try:
        connection, transport = await stuck_behind(server, "t")
        await client.send_frame_header(TEXT, MAX_FRAME_HARD + 1)
        await released(server)
        await aborted_with_nothing_sent(connection, transport)
        assert f"a close (1009) was not completed within {CLOSE_WAIT:g} s; cutting the connection" in caplog.messages
    finally:
        client.close()


async def test_a_client_that_stops_answering_pings_is_aborted_after_the_heartbeat_fails(
        start_server: StartServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client has data stuck towards it (its frames meanwhile keep the heartbeat from firing),
    then goes quiet: it answers no ping. One heartbeat later (plus half a heartbeat for the
    pong) the server gives up on it: its seat is dropped, and its transport is aborted, dropping
    what was stuck for it (aiohttp only closes the transport, which waits for a buffer that
    never drains). Issue 33, finding 9: no upper bound of time is asserted."""
    heartbeat = 1.0
    monkeypatch.setattr(ws_handler, "HEARTBEAT", heartbeat)
    server = await start_server(outbox_bytes=64 << 20)
    client = await BareClient.connect(server.port, "Anna", "t", receive_buffer=4096)
    try:
        async with fed_heartbeat(client):
            connection, transport = await stuck_behind(server, "t")
        quiet = time.monotonic()
        assert await released(server) - quiet >= heartbeat * 1.5 - 0.05
        assert server.table("t").clients == [] or server.table("t").clients[0].connection is None
        await aborted_with_nothing_sent(connection, transport)
    finally:
        client.close()


async def test_a_quiet_client_with_nothing_pending_is_closed_after_the_heartbeat_fails(
        start_server: StartServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that answers no ping and has nothing stuck in the buffer: the server closes its
    socket a heartbeat and a half (or later) after it went quiet, and the client sees the end of
    the stream. Issue 33, finding 9: the test takes nothing from the server that the heartbeat
    may already have closed, and asserts no upper bound of time."""
    heartbeat = 1.0
    monkeypatch.setattr(ws_handler, "HEARTBEAT", heartbeat)
    server = await start_server()
    quiet = time.monotonic()  # the client sends nothing after its handshake
    client = await BareClient.connect(server.port, "Anna", "t")
    try:
        assert await released(server) - quiet >= heartbeat * 1.5 - 0.05
        received = await client.read_to_end()  # returns at EOF: the server's side is closed
        assert b'"session_id"' in received  # it was seated: its player_joined came first
    finally:
        client.close()


@pytest.mark.parametrize("value", ["0", "-1", "soon"])
def test_a_close_wait_of_no_time_stops_the_server_naming_the_setting(value: str) -> None:
    """``TICHU_CLOSE_WAIT`` must be seconds above 0: 0 would cut every close at once (the
    client's close frame never awaited), and anything else is no number of seconds."""
    with pytest.raises(ValueError, match="TICHU_CLOSE_WAIT"):
        Settings.load({"TICHU_CLOSE_WAIT": value}, env_file=None)
