"""The web edge on a real server: security headers, no versions, dev-only files, allowed origins,
no session id in the access log, and the agents' names reserved."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from urllib.parse import urlencode

import aiohttp
import pytest
from aiohttp import web

from tests.support.agents import seeded_agents
from tests.support.live_server import SERVER_TEST_SETTINGS, WAIT
from tests.support.raw_client import Server, StartServer, is_error, is_event
from tichu.server.app import create_app
from tichu.server.config import Settings
from tichu.server.guard.security import SECURITY_HEADERS, PathAccessLogger

POLICY_VIOLATION = 1008
#: Paths of a page, a script, a missing file and a refused WebSocket upgrade (no upgrade headers).
PATHS = {"index": "/", "static script": "/js/main.js", "not found": "/missing.js", "refused upgrade": "/ws"}


async def _get(server: Server, path: str, **headers: str) -> aiohttp.ClientResponse:
    async with server.session.get(f"http://127.0.0.1:{server.port}{path}", headers=headers) as response:
        await response.read()
        return response


@pytest.mark.parametrize("path", PATHS.values(), ids=PATHS.keys())
async def test_every_response_has_the_security_headers_and_no_versions(start_server: StartServer, path: str) -> None:
    """A strict CSP, nosniff, no referrer, no framing on every response, errors included; the
    ``Server`` header names no product or version."""
    server = await start_server()
    response = await _get(server, path)
    for name, value in SECURITY_HEADERS.items():
        assert response.headers.get(name) == value, f"{path}: {name}"
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe" not in csp
    assert response.headers["Server"] == "Tichu"


@pytest.mark.parametrize("path", ["/tests.html", "/js/tests.js", "/js/test-runner.js", "/css/tests.css",
                                  "/js/./tests.js"])
async def test_the_unit_test_page_is_served_in_dev_mode_only(start_server: StartServer, path: str) -> None:
    """``/tests.html`` and its files: 404 by default, 200 with ``TICHU_DEV_MODE``."""
    assert (await _get(await start_server(), path)).status == 404
    assert (await _get(await start_server(dev_mode=True), path)).status == 200


async def _upgrade_status(server: Server, origin: str | None, host: str | None = None) -> int:
    """The status of a WebSocket upgrade with this ``Origin`` (and ``Host``): 101 if it opened."""
    headers = {"Host": host} if host else {}
    query = urlencode({"player_name": "Anna", "table_name": "t"})
    try:
        ws = await server.session.ws_connect(f"http://127.0.0.1:{server.port}/ws?{query}", origin=origin,
                                             headers=headers)
    except aiohttp.WSServerHandshakeError as error:
        return error.status
    await ws.close()
    return 101


async def test_default_origins_are_the_servers_own_addresses(start_server: StartServer) -> None:
    """By default a page of this server (loopback names on its port) may connect, and a client
    without ``Origin``; another origin may not, even when it sends a matching ``Host`` (DNS
    rebinding)."""
    server = await start_server()
    port = server.port
    assert await _upgrade_status(server, None) == 101
    assert await _upgrade_status(server, f"http://127.0.0.1:{port}") == 101
    assert await _upgrade_status(server, f"http://localhost:{port}") == 101
    assert await _upgrade_status(server, f"http://evil.example:{port}", host=f"evil.example:{port}") == 403
    assert await _upgrade_status(server, f"http://127.0.0.1:{port + 1}") == 403
    assert await _upgrade_status(server, "null") == 403


async def test_the_address_the_server_was_started_with_is_an_own_origin(start_server: StartServer) -> None:
    """A concrete ``TICHU_HOST`` (with ``TICHU_PORT``) counts among the server's own addresses."""
    server = await start_server(host="10.1.2.3", port=8080)
    assert await _upgrade_status(server, "http://10.1.2.3:8080") == 101
    assert await _upgrade_status(server, "http://10.1.2.4:8080") == 403


async def test_allowed_origins_setting_replaces_the_default(start_server: StartServer) -> None:
    """With ``TICHU_ALLOWED_ORIGINS`` only its origins (and clients without ``Origin``) may connect;
    the refusal is 403 with the security headers."""
    server = await start_server(allowed_origins="http://192.168.1.20:8080, https://tichu.example")
    assert await _upgrade_status(server, "http://192.168.1.20:8080") == 101
    assert await _upgrade_status(server, "HTTPS://Tichu.example:443") == 101
    assert await _upgrade_status(server, None) == 101
    assert await _upgrade_status(server, f"http://127.0.0.1:{server.port}") == 403
    refused = await _get(server, "/ws", Origin="http://evil.example")
    assert refused.status == 403 and refused.headers["X-Frame-Options"] == "DENY"


def test_a_bad_allowed_origin_stops_the_server_at_start(tmp_path: Path) -> None:
    """An entry that is not an origin is a ``ValueError`` naming the setting."""
    with pytest.raises(ValueError, match="TICHU_ALLOWED_ORIGINS"):
        create_app(Settings(allowed_origins="192.168.1.20", data_dir=tmp_path))


async def _joined(ws: aiohttp.ClientWebSocketResponse) -> str:
    """Read until the own ``player_joined``; its session id."""
    async for message in ws:
        data = message.json()
        if is_event(data, "player_joined") and "session_id" in data["payload"]["context"]:
            return str(data["payload"]["context"]["session_id"])
    raise AssertionError("closed before player_joined")


async def test_a_reconnects_session_id_is_not_in_the_access_log(tmp_path: Path,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    """The access logger of ``run`` (:class:`PathAccessLogger`) writes the path without the query,
    so a reconnect's ``session_id`` (a bearer token) never reaches the log."""
    settings = Settings(**{**SERVER_TEST_SETTINGS, "data_dir": tmp_path})
    runner = web.AppRunner(create_app(settings, agents=seeded_agents()), access_log_class=PathAccessLogger)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/ws"
    caplog.set_level(logging.INFO)
    try:
        async with asyncio.timeout(WAIT), aiohttp.ClientSession() as session:
            async with session.ws_connect(f"{url}?{urlencode({'player_name': 'Anna', 'table_name': 't'})}") as first:
                session_id = await _joined(first)
            async with session.ws_connect(f"{url}?{urlencode({'session_id': session_id})}") as again:
                assert await _joined(again) == session_id
    finally:
        await runner.cleanup()
    access = [record.getMessage() for record in caplog.records if record.name == "aiohttp.access"]
    assert sum('"GET /ws"' in line for line in access) == 2, access
    assert session_id not in caplog.text
    assert "player_name" not in "\n".join(access)


RESERVED = ["Bot 2", "bot 2", "BOT 4", "\u0412ot 2", "Bot\u30002", "Bot \uff12", "\u0392\u03bf\u03c4 1", "B0t 3",
            "Bot  1", "Bot1", "\uff22\uff4f\uff54 2"]


@pytest.mark.parametrize("name", RESERVED)
async def test_agent_names_and_look_alikes_are_refused(start_server: StartServer, name: str) -> None:
    """A person may not take an agent's name or a look-alike: 101 with ``context.reason``, then
    close 1008, before any seat is taken."""
    server = await start_server()
    client = await server.raw(urlencode({"player_name": name, "table_name": "t"}))
    assert await client.wait_closed() == POLICY_VIOLATION
    assert len(client.messages) == 1 and is_error(client.messages[0], 101)
    assert "agent" in client.messages[0]["payload"]["context"]["reason"]
    assert server.factory.tables == {}


async def test_names_near_the_agents_are_accepted(start_server: StartServer) -> None:
    """Ordinary names that merely resemble a part of an agent's name join."""
    server = await start_server()
    for name in ["Bo", "Bottle", "Robot 2", "Bot 5"]:
        client = await server.join(name, f"t-{name}")
        assert client.events("player_joined")[0]["player_name"] == name
