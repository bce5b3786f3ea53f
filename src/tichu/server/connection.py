"""One client's WebSocket with an ordered, non-blocking outbox.

The engine and the tables call :meth:`Connection.send` synchronously; a writer task
sends the messages in order, so a slow client never stalls a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from aiohttp import WSCloseCode, web

log = logging.getLogger(__name__)

_closing: set[asyncio.Task[bool]] = set()  # close tasks of replaced sockets, kept until done

#: Messages queued for one client before it counts as unreachable and is closed.
MAX_OUTBOX = 2000


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON text."""
    return json.dumps(message, separators=(",", ":"))


class Connection:
    """A client's socket and its outbox.

    :ivar ws: The WebSocket.
    :ivar closed: Whether the socket is closed or closing.
    """

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.closed = False
        self._close_code: int = WSCloseCode.GOING_AWAY
        self._close_reason = b""
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message (a dict, or its JSON text); dropped silently once the connection is closed."""
        if self.closed:
            return
        if self._outbox.qsize() >= MAX_OUTBOX:
            log.warning("a client does not read its messages; closing its connection")
            self.closed = True
            self._outbox.put_nowait(None)
            return
        self._outbox.put_nowait(message if isinstance(message, str) else encode(message))

    async def _write(self) -> None:
        try:
            while True:
                message = await self._outbox.get()
                if message is None:
                    break
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
        """Send what is queued, then close the socket."""
        if not self.closed:
            self.closed = True
            self._close_code = code
            self._close_reason = reason.encode()[:120]
            self._outbox.put_nowait(None)
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer

    def replace(self) -> None:
        """Close this socket because the client connected anew (its handler stops reading)."""
        self.closed = True
        self._writer.cancel()
        closing = self.ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"replaced by a new connection")
        task = asyncio.create_task(closing)
        _closing.add(task)
        task.add_done_callback(_closing.discard)

    def abandon(self) -> None:
        """Stop writing at once (the socket is gone)."""
        self.closed = True
        self._writer.cancel()
