"""One client's WebSocket with an ordered, non-blocking outbox.

The engine and the tables call :meth:`Connection.send` synchronously; a writer task
sends the messages in order, so a slow client never stalls a table. The outbox is bounded
in bytes: a client that does not read has its connection cut (the transport aborted, so
that what is queued for it, here and in the socket's buffer, is released at once).

:class:`WebSocket` is aiohttp's WebSocket whose heartbeat stays off once it is closed and
whose every close is cut after ``close_wait`` seconds (``TICHU_CLOSE_WAIT``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Mapping

from aiohttp import WSCloseCode, web
from aiohttp.abc import AbstractStreamWriter

log = logging.getLogger(__name__)

_closing: set[asyncio.Task[bool]] = set()  # close tasks of replaced sockets, kept until done


class WebSocket(web.WebSocketResponse):
    """aiohttp's server WebSocket, without a heartbeat after it closed.

    aiohttp (3.14) cancels the heartbeat when the socket closes, but data that arrives after
    that (the client's answer to the close frame) arms it again: a timer that holds the
    socket, its request, transport and buffers for the heartbeat and a half (45 s) after the
    connection ended. Every connection the server closed (every refused one) stayed that
    long, long enough for the garbage collector to take it for long-lived, and with the
    server's collector thresholds (:func:`tichu.server.run.run`) it was never freed
    (issue 24: about 12 KB per refused join, without bound). The override depends on aiohttp's
    private ``_reset_heartbeat``: ``tests/server/test_connection_memory.py`` fails if an
    update of aiohttp brings the timer back.

    Every close, also the one aiohttp makes itself inside :meth:`receive` (close 1009 for a
    frame over ``max_msg_size``, 1002 for a broken frame), is cut after ``close_wait`` seconds,
    its transport aborted: aiohttp bounds only the wait for the client's close frame, not the
    sending of its own, which waits for ever on a client that does not read (issue 33: such a
    client kept its connection counted, and about 3 MB of buffers, for good).

    :ivar close_wait: Seconds a close may take before the connection is cut.
    """

    def __init__(self, *, close_wait: float, heartbeat: float, max_msg_size: int) -> None:
        """Set the socket up (it is opened by :meth:`prepare`).

        :param close_wait: Seconds a close may take (sending the close frame, then waiting for
            the client's) before the connection is cut.
        :param heartbeat: Seconds between two pings (aiohttp's ``heartbeat``).
        :param max_msg_size: The largest frame read; a larger one is answered with close 1009.
        """
        super().__init__(timeout=close_wait, heartbeat=heartbeat, max_msg_size=max_msg_size)
        self.close_wait = close_wait
        self._request_transport: asyncio.Transport | None = None

    async def prepare(self, request: web.BaseRequest) -> AbstractStreamWriter:
        """Open the socket (the handshake), keeping the request's transport to cut it if need be."""
        self._request_transport = request.transport
        return await super().prepare(request)

    async def close(self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True) -> bool:
        """Close the socket (aiohttp's close); abort its transport after :attr:`close_wait` seconds.

        :returns: Whether this call closed it (``False`` if it was closed before).
        """
        try:
            async with asyncio.timeout(self.close_wait):
                return await super().close(code=code, message=message, drain=drain)
        except TimeoutError:
            log.warning("a close (%d) was not completed within %g s; cutting the connection", code, self.close_wait)
            if self._request_transport is not None:
                self._request_transport.abort()
            return True

    def _reset_heartbeat(self) -> None:
        if not self.closed:
            super()._reset_heartbeat()


def encode(message: Mapping[str, object]) -> str:
    """A message as compact JSON text."""
    return json.dumps(message, separators=(",", ":"))


class Connection:
    """A client's socket and its outbox.

    :ivar ws: The WebSocket.
    :ivar closed: Whether the socket is closed or closing.
    :ivar queued: Bytes of the messages in the outbox (JSON text is ASCII: one byte a character).
    """

    def __init__(self, ws: WebSocket, transport: asyncio.Transport | None,
                 outbox_bytes: int = 1 << 20) -> None:
        """Start the writer task.

        :param ws: The prepared WebSocket (its ``close_wait`` also bounds :meth:`close`).
        :param transport: Its transport (``request.transport``), aborted when the client does not read.
        :param outbox_bytes: Bytes that may wait in the outbox.
        """
        self.ws = ws
        self.closed = False
        self.queued = 0
        self._transport = transport
        self._outbox_bytes = outbox_bytes
        self._close_code: int = WSCloseCode.GOING_AWAY
        self._close_reason = b""
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())

    def send(self, message: Mapping[str, object] | str) -> None:
        """Queue a message (a dict, or its JSON text); dropped silently once the connection is closed.

        :param message: The message.
        """
        if self.closed:
            return
        text = message if isinstance(message, str) else encode(message)
        if self.queued + len(text) > self._outbox_bytes:
            log.warning("a client does not read its messages; cutting its connection")
            self.abort()
            return
        self.queued += len(text)
        self._outbox.put_nowait(text)

    async def _write(self) -> None:
        try:
            while True:
                message = await self._outbox.get()
                if message is None:
                    break
                self.queued -= len(message)
                try:
                    await self.ws.send_str(message)
                except (ConnectionError, RuntimeError):
                    self.closed = True
                    break
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.ws.close(code=self._close_code, message=self._close_reason)
        except asyncio.CancelledError:
            # The writer is this connection's own task, cancelled when the socket is gone. It
            # ends quietly: a stored CancelledError's traceback would hold this frame, and with
            # it the connection, in a cycle with the task that only a full collection frees.
            return

    async def close(self, code: int = WSCloseCode.GOING_AWAY, reason: str = "") -> None:
        """Send what is queued, then close the socket; cut it if that takes over the socket's
        ``close_wait`` seconds.

        :param code: The close code.
        :param reason: The close reason (cut to 120 bytes).
        """
        if not self.closed:
            self.closed = True
            self._close_code = code
            self._close_reason = reason.encode()[:120]
            self._outbox.put_nowait(None)
        done, _ = await asyncio.wait({self._writer}, timeout=self.ws.close_wait)
        if not done:
            log.warning("a client does not take the close; cutting its connection")
            self.abort()

    def replace(self) -> None:
        """Close this socket because the client connected anew (its handler stops reading)."""
        self.closed = True
        self._writer.cancel()
        closing = self.ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"replaced by a new connection")
        task = asyncio.create_task(closing)
        _closing.add(task)
        task.add_done_callback(_closing.discard)

    def abandon(self) -> None:
        """Stop writing at once (the socket is gone), dropping what is queued; cut the socket
        if it still holds unsent data (a peer that does not read would keep it forever)."""
        self._stop(cut=self._transport is not None and self._transport.get_write_buffer_size() > 0)

    def abort(self) -> None:
        """Cut the connection without a close handshake, dropping everything queued for it."""
        self._stop(cut=True)

    def _stop(self, *, cut: bool) -> None:
        self.closed = True
        self._writer.cancel()
        self._outbox = asyncio.Queue()
        self.queued = 0
        if cut and self._transport is not None:
            self._transport.abort()
