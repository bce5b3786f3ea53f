"""Fixtures of the server tests: real servers on free ports, talked to by raw WebSocket clients.

The helpers live in :mod:`tests.support` (the server in ``live_server``, the client in
``raw_client``, the checks in ``checks``); the test modules import them from there.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.live_server import SERVER_TEST_SETTINGS, Servers
from tests.support.raw_client import Server, StartServer


@pytest.fixture
async def start_server(tmp_path: Path) -> AsyncIterator[StartServer]:
    """Start real servers on free ports: ``await start_server(**settings)``; all closed at the end,
    with their clients.

    Defaults (:data:`~tests.support.live_server.SERVER_TEST_SETTINGS`): random agents, seeded,
    and no hints (both fast; the server's defaults are Monte Carlo agents and hints on, see
    test_options_and_hints.py), no bomb window, no agent delay, grace period 0.3 s, target
    score 200, seed 7, data in ``tmp_path``.
    """
    servers = Servers(Server, tmp_path, SERVER_TEST_SETTINGS)
    yield servers.start
    await servers.close()
