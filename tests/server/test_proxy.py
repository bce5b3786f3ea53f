"""Real clients behind a proxy (``TICHU_TRUSTED_PROXIES``; docs/raspberry-pi.md): the limits
per address act per forwarded client, behind a real Caddy set up as the Pi guide does, and
headers from a peer that is no trusted proxy are ignored.

The clients bind their sockets to different loopback addresses (127.0.0.2, 127.0.0.3, ...), as
real clients come from different addresses; Caddy, on 127.0.0.1, passes each one's address on in
``X-Forwarded-For``.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from urllib.parse import urlencode

import aiohttp
import pytest

from tests.support.extras import unavailable
from tests.support.live_server import WAIT, eventually
from tests.support.process_server import free_port
from tests.support.raw_client import Client, StartServer
from tichu.server.keys import CONNECTIONS

SERVER_BUSY = 105
TRY_AGAIN_LATER = 1013
ANNA, BOB, MALLORY = "127.0.0.2", "127.0.0.3", "127.0.0.4"
#: The Caddyfile of docs/raspberry-pi.md on loopback: plain HTTP on a free port (the TLS part is
#: Caddy's own business), no admin endpoint, Caddy's files in the test's folder.
CADDYFILE = """\
{{
    admin off
    auto_https off
    storage file_system {storage}
}}

http://127.0.0.1:{port} {{
    bind 127.0.0.1
    reverse_proxy 127.0.0.1:{upstream} {{
        {trusted}
    }}
}}
"""


class Clients:
    """WebSocket clients from chosen loopback source addresses; all closed by :meth:`close`."""

    def __init__(self) -> None:
        self.sessions: dict[str, aiohttp.ClientSession] = {}
        self.clients: list[Client] = []

    async def connect(self, port: int, source: str, player: str, table: str,
                      headers: dict[str, str] | None = None) -> Client:
        """Connect from ``source`` to ``127.0.0.1:port`` as ``player`` at ``table`` (no check of the answer)."""
        if source not in self.sessions:
            self.sessions[source] = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0)))
        query = urlencode({"player_name": player, "table_name": table})
        ws = await self.sessions[source].ws_connect(f"http://127.0.0.1:{port}/ws?{query}", headers=headers)
        client = Client(ws, player, 0)
        self.clients.append(client)
        return client

    async def join(self, port: int, source: str, player: str, table: str,
                   headers: dict[str, str] | None = None) -> Client:
        """Connect and wait for the own ``player_joined``."""
        client = await self.connect(port, source, player, table, headers)
        await client.until_joined()
        return client

    async def refused(self, port: int, source: str, player: str, table: str,
                      headers: dict[str, str] | None = None) -> None:
        """Connect: the server must answer ``SERVER_BUSY`` and close with 1013."""
        client = await self.connect(port, source, player, table, headers)
        await client.wait_error(SERVER_BUSY)
        assert await client.wait_closed() == TRY_AGAIN_LATER

    async def close(self) -> None:
        for client in self.clients:
            await client.close()
        for session in self.sessions.values():
            await session.close()


@pytest.fixture
async def clients() -> AsyncIterator[Clients]:
    made = Clients()
    yield made
    await made.close()


StartCaddy = Callable[..., Awaitable[int]]


@pytest.fixture
async def start_caddy(tmp_path: Path) -> AsyncIterator[StartCaddy]:
    """``await start_caddy(upstream_port, trusted="")``: Caddy in front of the server, on 127.0.0.1
    and a free port (returned), trusting the ``X-Forwarded-For`` of the ``trusted`` addresses (a
    proxy in front of it); stopped at the end. Skipped without the ``caddy`` program (failed with
    CI=true)."""
    program = shutil.which("caddy")
    if program is None:
        unavailable("the caddy program is not installed (apt-get install caddy)")
    processes: list[subprocess.Popen[bytes]] = []

    async def start(upstream: int, trusted: str = "") -> int:
        port = free_port()
        folder = tmp_path / f"caddy{len(processes)}"
        folder.mkdir()
        config = folder / "Caddyfile"
        config.write_text(CADDYFILE.format(storage=folder / "storage", port=port, upstream=upstream,
                                           trusted=f"trusted_proxies {trusted}" if trusted else ""))
        env = {"HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"), "XDG_CONFIG_HOME": str(folder / "config"),
               "PATH": "/usr/bin:/bin"}
        log = (folder / "caddy.log").open("wb")
        process = subprocess.Popen([program, "run", "--config", str(config), "--adapter", "caddyfile"],
                                   env=env, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        processes.append(process)
        await _until_up(process, port, folder / "caddy.log")
        return port

    yield start
    for process in processes:
        process.terminate()
        try:
            process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def _until_up(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    """Wait until Caddy passes ``/healthz`` on to the server."""
    deadline = time.monotonic() + WAIT
    async with aiohttp.ClientSession() as session:
        while True:
            assert process.poll() is None, f"caddy stopped with {process.returncode}: {log.read_text()[-2000:]}"
            try:
                async with session.get(f"http://127.0.0.1:{port}/healthz") as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            assert time.monotonic() < deadline, f"caddy did not come up: {log.read_text()[-2000:]}"
            await asyncio.sleep(0.05)


async def test_behind_caddy_the_limits_per_address_act_per_real_client(
        start_server: StartServer, start_caddy: StartCaddy, clients: Clients) -> None:
    """Behind Caddy with ``TICHU_TRUSTED_PROXIES=127.0.0.1`` (and the loopback exemption on, its
    default): Anna, over her connections and then her tables per minute, is refused; Bob, from
    another address, is not. What Anna claims in ``X-Forwarded-For`` changes nothing (Caddy
    writes the address it saw, and ``X-Forwarded-For`` comes before the ``Forwarded`` that Caddy
    passes on as it came)."""
    server = await start_server(trusted_proxies="127.0.0.1", max_connections_per_address=2, tables_per_minute=1)
    port = await start_caddy(server.port)
    await clients.join(port, ANNA, "Anna", "t")
    second = await clients.join(port, ANNA, "Anne", "t")
    await clients.refused(port, ANNA, "Ada", "t", headers={"X-Forwarded-For": "198.51.100.9",
                                                          "Forwarded": "for=198.51.100.9"})
    await clients.join(port, BOB, "Bob", "u")
    assert (server.app[CONNECTIONS].held(ANNA), server.app[CONNECTIONS].held(BOB)) == (2, 1)
    assert server.app[CONNECTIONS].held("127.0.0.1") == 0

    await second.drop()
    await eventually(lambda: server.app[CONNECTIONS].held(ANNA) == 1)
    await clients.refused(port, ANNA, "Ada", "v")
    await clients.refused(port, BOB, "Bert", "w")
    assert sorted(server.factory.tables) == ["t", "u"]
    await clients.join(port, MALLORY, "Mallory", "w")
    assert sorted(server.factory.tables) == ["t", "u", "w"]


async def test_a_proxy_in_front_of_caddy_passes_its_clients_on(
        start_server: StartServer, start_caddy: StartCaddy, clients: Clients) -> None:
    """Two proxies: 127.0.0.2 stands for one in front of Caddy, trusted by Caddy and the server,
    and its clients count each on its own; a client that reaches Caddy directly (127.0.0.3)
    counts as itself, whatever it claims."""
    server = await start_server(trusted_proxies=f"127.0.0.1, {ANNA}", max_connections_per_address=2)
    port = await start_caddy(server.port, trusted=ANNA)
    for player in ("C1", "C2"):
        await clients.join(port, ANNA, player, "t", headers={"X-Forwarded-For": "198.51.100.1"})
    await clients.refused(port, ANNA, "C3", "t", headers={"X-Forwarded-For": "198.51.100.1"})
    await clients.join(port, ANNA, "D1", "t", headers={"X-Forwarded-For": "198.51.100.2"})
    await clients.join(port, BOB, "B1", "u", headers={"X-Forwarded-For": "198.51.100.2"})
    assert [server.app[CONNECTIONS].held(address) for address in ("198.51.100.1", "198.51.100.2", BOB, ANNA)] == [
        2, 1, 1, 0]


async def test_behind_caddy_without_trusted_proxies_every_client_is_the_proxy(
        start_server: StartServer, start_caddy: StartCaddy, clients: Clients) -> None:
    """The default: the server sees only Caddy's 127.0.0.1, spared the limits per address."""
    server = await start_server(max_connections_per_address=2)
    port = await start_caddy(server.port)
    for player in ("Anna", "Anne", "Ada"):
        await clients.join(port, ANNA, player, "t")
    assert server.app[CONNECTIONS].held(ANNA) == 0 and server.app[CONNECTIONS].count == 3


async def test_headers_from_a_peer_that_is_no_trusted_proxy_are_ignored(start_server: StartServer,
                                                                       clients: Clients) -> None:
    """Mallory, not a trusted proxy, sends a new ``X-Forwarded-For`` each time: still one address."""
    server = await start_server(trusted_proxies=ANNA, max_connections_per_address=2, loopback_exempt=False)
    await clients.join(server.port, MALLORY, "M1", "t", headers={"X-Forwarded-For": "198.51.100.1"})
    await clients.join(server.port, MALLORY, "M2", "t", headers={"Forwarded": "for=198.51.100.2"})
    await clients.refused(server.port, MALLORY, "M3", "t", headers={"X-Forwarded-For": "198.51.100.3"})
    assert server.app[CONNECTIONS].held(MALLORY) == 2


async def test_a_forwarded_client_is_never_spared_as_local(start_server: StartServer, clients: Clients) -> None:
    """A client forwarded from a loopback address, and one with a malformed header (it counts as
    the proxy), is limited although the loopback exemption is on: the proxy is local, not its
    clients. A local client without a header, straight to the server, is still spared. (An
    IPv6 client is counted by its /64, issue 33 finding 6.)"""
    server = await start_server(trusted_proxies=ANNA, max_connections_per_address=1)
    await clients.join(server.port, ANNA, "A1", "t", headers={"X-Forwarded-For": "127.0.0.9"})
    await clients.refused(server.port, ANNA, "A2", "t", headers={"X-Forwarded-For": "127.0.0.9"})
    await clients.join(server.port, ANNA, "A3", "t", headers={"Forwarded": 'for="[2001:db8::1]:4711"'})
    await clients.join(server.port, ANNA, "A4", "t", headers={"X-Forwarded-For": "not an address"})
    await clients.refused(server.port, ANNA, "A5", "t", headers={"X-Forwarded-For": "neither"})
    assert [server.app[CONNECTIONS].held(address) for address in ("127.0.0.9", "2001:db8::/64", ANNA)] == [1, 1, 1]
    await clients.join(server.port, BOB, "B1", "u")
    await clients.join(server.port, BOB, "B2", "u")
    assert server.app[CONNECTIONS].held(BOB) == 0
