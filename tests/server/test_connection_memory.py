"""No growth per connection (issue 24): a refused or dropped connection leaves nothing behind.

Thousands of WebSockets are refused — at the table limit, at the connection limit, for a bad
name, for a bad ``Origin`` — and hundreds are accepted and then dropped (spectators, and a
player who reconnects with its session). After the garbage collector, the server's objects
(counted by type) and its Python memory (``sys.getallocatedblocks``) are where they were
after a first warm-up batch of each kind, within a small constant (bounded caches of aiohttp
and yarl fill during the warm-up). A leak of one object per connection shows as hundreds.

The clients run in the test's process too: what they leave is counted as well (they leave
nothing once closed). Not counted: log records, which pytest keeps for its report of the test
(the server's own handlers, console and file, keep none).
"""

from __future__ import annotations

import asyncio
import gc
import sys
from collections import Counter
from collections.abc import Awaitable, Callable
from urllib.parse import urlencode

import aiohttp

from tests.support.live_server import WAIT
from tests.support.raw_client import Server, StartServer
from tichu.server.keys import CONNECTIONS

#: Refused connections of each kind in the measured batch (then half as many spectators and a
#: twentieth as many player reconnects that drop).
REFUSED = 1000
#: Connections under way at once.
PARALLEL = 8
#: How much any type's count may differ from the warm-up's (a leak is one per connection).
TYPE_SLACK = 40
#: Types not counted: pytest keeps each log record of a test (a refusal at the connection limit logs one).
NOT_COUNTED = frozenset({"LogRecord"})
#: How many more memory blocks the process may hold than after the warm-up (a leak of one
#: refused connection is over a hundred blocks).
BLOCK_SLACK = 20_000


def object_counts() -> Counter[str]:
    """The objects the collector tracks, by type, after a full collection."""
    gc.collect()
    return Counter(kind for kind in (type(found).__qualname__ for found in gc.get_objects()) if kind not in NOT_COUNTED)


async def visit(session: aiohttp.ClientSession, url: str, query: dict[str, str],
                headers: dict[str, str] | None = None) -> int | None:
    """Open a WebSocket and read until the server closes it; the close code (``None``: refused
    before the upgrade, e.g. 403 for the origin)."""
    try:
        async with session.ws_connect(f"{url}?{urlencode(query)}", headers=headers or {}) as ws:
            async for _ in ws:
                pass
            return ws.close_code
    except aiohttp.WSServerHandshakeError as error:
        assert error.status == 403, error
        return None


async def spectate_and_drop(session: aiohttp.ClientSession, url: str) -> None:
    """Watch the table ``keep`` until the spectator's first message, then drop."""
    async with session.ws_connect(f"{url}?{urlencode({'table_name': 'keep', 'spectate': '1'})}") as ws:
        await ws.receive()


async def reconnect_and_drop(session: aiohttp.ClientSession, url: str, session_id: str) -> None:
    """Take a seat back with its session id, then drop at its ``player_joined``."""
    async with session.ws_connect(f"{url}?{urlencode({'session_id': session_id})}") as ws:
        while "session_id" not in (await ws.receive_json()).get("payload", {}).get("context", {}):
            pass


async def in_parallel(count: int, visit_one: Callable[[int], Awaitable[object]]) -> None:
    """Run ``visit_one(0..count-1)``, :data:`PARALLEL` at a time."""
    gate = asyncio.Semaphore(PARALLEL)

    async def gated(index: int) -> None:
        async with gate:
            await visit_one(index)

    async with asyncio.timeout(WAIT * 6):
        await asyncio.gather(*(gated(index) for index in range(count)))


async def refused_and_dropped(server: Server, session: aiohttp.ClientSession, count: int, session_id: str) -> None:
    """``count`` connections refused at the table limit, for a bad name and for a bad origin;
    ``count // 2`` spectators and ``count // 20`` reconnects with ``session_id`` that drop."""
    url = f"http://127.0.0.1:{server.port}/ws"

    async def table_limit(index: int) -> None:
        assert await visit(session, url, {"player_name": "P", "table_name": f"new {index % 10}"}) == 1013

    async def bad_name(index: int) -> None:
        assert await visit(session, url, {"player_name": "", "table_name": "keep"}) == 1008

    async def bad_origin(index: int) -> None:
        assert await visit(session, url, {"player_name": "P", "table_name": "keep"},
                           {"Origin": "http://evil.example"}) is None

    await in_parallel(count, table_limit)
    await in_parallel(count, bad_name)
    await in_parallel(count, bad_origin)
    await in_parallel(count // 2, lambda _: spectate_and_drop(session, url))
    for _ in range(count // 20):
        await reconnect_and_drop(session, url, session_id)


async def busy(server: Server, session: aiohttp.ClientSession, count: int) -> None:
    """``count`` connections refused at the connection limit (the server is full)."""
    url = f"http://127.0.0.1:{server.port}/ws"

    async def connection_limit(index: int) -> None:
        assert await visit(session, url, {"player_name": "P", "table_name": "keep"}) == 1013

    await in_parallel(count, connection_limit)


async def settled(server: Server, open_connections: int) -> None:
    """Wait until the server counts only the connections the test holds open."""
    async with asyncio.timeout(WAIT):
        while server.app[CONNECTIONS].count != open_connections:
            await asyncio.sleep(0.02)


async def assert_flat(before: Counter[str], blocks: int) -> None:
    """Poll until no type has grown by more than :data:`TYPE_SLACK` since ``before`` and the
    process holds at most :data:`BLOCK_SLACK` more memory blocks than ``blocks`` (a loaded machine
    may take a while to close the last sockets: the wait is long, the bound is not)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 3 * WAIT
    while True:
        grown = {kind: count for kind, count in (object_counts() - before).items() if count > TYPE_SLACK}
        more_blocks = sys.getallocatedblocks() - blocks
        if not grown and more_blocks <= BLOCK_SLACK:
            return
        if loop.time() > deadline:
            raise AssertionError(f"after the garbage collector, objects kept: {grown}; {more_blocks} more blocks")
        await asyncio.sleep(0.1)


async def test_refused_and_dropped_connections_leave_nothing(start_server: StartServer) -> None:
    """Thousands of refused connections (each kind) and hundreds of dropped ones: the server's
    objects by type and its memory stay where they were after the warm-up."""
    server = await start_server(max_tables=1, max_connections=1 + PARALLEL, grace_period=60.0)
    host = await server.join("Host", "keep")
    guest = await server.join("Guest", "keep")
    await guest.drop()
    assert guest.session_id is not None
    async with aiohttp.ClientSession() as session:
        await refused_and_dropped(server, session, 20, guest.session_id)  # warm-up: imports, bounded caches
        object_counts()  # its first run fills caches of its own (the ABCs' isinstance caches)
        await settled(server, 1)
        before, blocks = object_counts(), sys.getallocatedblocks()
        await refused_and_dropped(server, session, REFUSED, guest.session_id)
        await settled(server, 1)
        host.messages.clear()  # the test's own: the guest's comings and goings, as the host heard them
        host.cursor = 0
        await assert_flat(before, blocks)

        for _ in range(PARALLEL):  # now the server is full: every other connection is refused
            watcher = await server.raw("table_name=keep&spectate=1")
            await watcher.wait_event("spectate_started")
        await busy(server, session, 20)
        await settled(server, 1 + PARALLEL)
        before, blocks = object_counts(), sys.getallocatedblocks()
        await busy(server, session, REFUSED)
        await settled(server, 1 + PARALLEL)
        await assert_flat(before, blocks)
