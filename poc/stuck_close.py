#!/usr/bin/env python3
"""Stuck closes: how long does a client that does not read hold its slot after a close 1009?

Starts a server (``tichu-server`` of a checkout, its own process, loopback, a temporary data
folder; the message rate and the outbox lifted so that neither cuts the client first, the
close wait at its default unless ``--close-wait`` is given). Then, one after the other,
``--clients`` bare clients (asyncio streams, ``SO_RCVBUF`` 4 KiB) each take a seat at a table
of their own (on a server with no other connection), stop reading, send ``--messages`` refused
messages (each answered with an error they never read, until the server's buffers towards them
are full), wait a second, and send the header of a frame over 1 MiB: the server answers close
1009 and closes. The probe times the seconds from that header to the moment ``/healthz``
counts the client's connection no more (polled every 50 ms, at most ``--limit`` seconds:
issue 33, finding 3, where it was never freed). Point ``--server`` at another checkout to
compare two versions. Loopback only; nothing here is a test.

Run: ``.venv/bin/python -m poc.stuck_close``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

import aiohttp

from poc.refused_joins import free_port, wait_until_up
from poc.speed_vs_revision import tool

ROOT = Path(__file__).resolve().parents[1]
#: A message the server refuses with an error of a few hundred bytes (its cards echoed, clipped).
REFUSED = json.dumps({"type": "bomb", "payload": {"cards": [[2, 1]] * 100}}).encode()
#: The length the oversized frame's header announces: one byte over the server's hard limit.
OVERSIZED = (1 << 20) + 1


def masked_frame(opcode: int, payload: bytes) -> bytes:
    """A final, masked client frame (RFC 6455 5.3) with its payload."""
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    return header + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))


async def connections(session: aiohttp.ClientSession, base: str) -> int:
    """The server's open WebSockets (``/healthz``)."""
    async with session.get(f"{base}/healthz") as answer:
        return int((await answer.json())["connections"])


async def stuck_client(port: int, table: str, messages: int) -> asyncio.StreamWriter:
    """A client seated at ``table`` that reads nothing after the handshake and has sent
    ``messages`` refused messages.

    :returns: Its writer (the socket stays open).
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock)
    key = base64.b64encode(os.urandom(16)).decode()
    path = "/ws?" + urlencode({"player_name": "Stuck", "table_name": table})
    writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    await writer.drain()
    answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
    if not answer.startswith(b"HTTP/1.1 101"):
        raise RuntimeError(f"the server refused the client: {answer[:200]!r}")
    frame = masked_frame(0x1, REFUSED)
    for start in range(0, messages, 100):
        writer.write(frame * min(100, messages - start))
        await writer.drain()
    return writer


async def one(session: aiohttp.ClientSession, base: str, port: int, index: int,
              args: argparse.Namespace) -> float | None:
    """Seconds from one stuck client's oversized frame to its free slot (``None``: not within ``--limit``)."""
    while await connections(session, base):  # the previous client's socket, closed by the probe, going
        await asyncio.sleep(0.05)
    writer = await stuck_client(port, f"stuck-{index}", args.messages)
    await asyncio.sleep(1.0)
    if await connections(session, base) != 1:
        raise RuntimeError("the client's connection was closed before its oversized frame: lift the limits")
    writer.write(struct.pack("!BBQ", 0x81, 0x80 | 127, OVERSIZED) + os.urandom(4))
    await writer.drain()
    sent = time.monotonic()
    try:
        while await connections(session, base):
            if time.monotonic() - sent > args.limit:
                return None
            await asyncio.sleep(0.05)
        return time.monotonic() - sent
    finally:
        writer.close()


async def run(base: str, port: int, args: argparse.Namespace) -> list[float | None]:
    """Time every client in turn."""
    async with aiohttp.ClientSession() as session:
        return [await one(session, base, port, index, args) for index in range(args.clients)]


def main(argv: list[str] | None = None) -> int:
    """Run the probe and print the seconds per client."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--clients", type=int, default=5, help="stuck clients, one after the other (default 5)")
    parser.add_argument("--messages", type=int, default=30_000,
                        help="refused messages each sends before its oversized frame (default 30,000)")
    parser.add_argument("--close-wait", type=float, default=None, help="TICHU_CLOSE_WAIT (default: the server's)")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds waited for a slot at most (default 60)")
    parser.add_argument("--server", type=Path, default=ROOT, help="the checkout whose server to run")
    parser.add_argument("--python", type=Path, default=Path(sys.executable), help="the Python that runs it")
    args = parser.parse_args(argv)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        environ = {**os.environ, "PYTHONPATH": str(args.server / "src"), "TICHU_DATA_DIR": data,
                   "TICHU_MESSAGE_RATE": "1000000", "TICHU_MESSAGE_BURST": "1000000",
                   "TICHU_OUTBOX_BYTES": str(256 << 20), "TICHU_LOG_FILE": "off"}
        if args.close_wait is not None:
            environ["TICHU_CLOSE_WAIT"] = str(args.close_wait)
        server = subprocess.Popen([str(args.python), *tool(args.server, "serve", "server"), "--host", "127.0.0.1",
                                   "--port", str(port)], env=environ, cwd=data,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            asyncio.run(wait_until_up(base))
            seconds = asyncio.run(run(base, port, args))
        finally:
            server.terminate()
            server.wait(20)
    shown = ", ".join("not freed" if value is None else f"{value:.2f}" for value in seconds)
    freed = [value for value in seconds if value is not None]
    summary = (f"median {statistics.median(freed):.2f} s, max {max(freed):.2f} s" if freed else "none freed")
    print(f"server {args.server}: {len(seconds)} clients, seconds from the oversized frame to the free slot "
          f"(at most {args.limit:.0f} s watched): {shown}; {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
