"""A real server for a test: :func:`tichu.server.app.create_app` on ``127.0.0.1``, port 0.

The system picks a free port and every server gets its own data folder under the test's
``tmp_path``, so tests can run in parallel (pytest-xdist) without meeting each other. The
agents are seeded (:mod:`tests.support.agents`) through ``create_app(..., agents=...)``, so a
test's games repeat.

The server tests (:mod:`tests.support.raw_client`) and the browser tests
(:mod:`tests.support.browser`) start their servers with :class:`Servers` and one of the
settings below.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Self, TypeVar

from aiohttp import web

from tests.support.agents import seeded_agents
from tichu.records.store import GameStore
from tichu.server.app import create_app
from tichu.server.config import Settings
from tichu.server.keys import FACTORY, STORE, STORE_FILE
from tichu.server.tables.agent_seat import AgentFactory
from tichu.server.tables.factory import GameFactory
from tichu.server.tables.table import Table

#: A protocol message (protocol.md) or a game record (records.md), as parsed from JSON.
Message = dict[str, Any]
#: Seconds any single wait of a test may take before it fails (a bug must not hang the suite;
#: generous, so that a slow, loaded machine still passes: a passing test never waits it out).
WAIT = 30.0
#: Seconds between two looks while polling.
POLL = 0.02

#: What every test server has: a free port, random agents (fast; the server's default is Monte
#: Carlo), no bomb window, target score 200, seed 7, and the analysis at nice 0 (at the default
#: 19 it gets almost no CPU while other jobs keep the machine busy, and its tests wait for it).
TEST_SETTINGS: Mapping[str, Any] = {"port": 0, "bomb_window": 0.0, "target_score": 200, "seed": 7,
                                    "agent": "random", "analysis_nice": 0}
#: The server tests' defaults: also no agent delay, no hints (fast; the server's default is hints
#: on, see test_options_and_hints.py), a grace period of 0.3 s, and no practical message rate
#: limit (these tests send hundreds of refused messages back to back on purpose; the limits are
#: tested in tests/server/test_limits.py).
SERVER_TEST_SETTINGS: Mapping[str, Any] = {**TEST_SETTINGS, "agent_delay": 0.0, "grace_period": 0.3,
                                           "hints": False, "message_rate": 1e6, "message_burst": 10**6}
#: The browser tests' defaults: agents pause 0.05 s (so that the page can follow), a grace period
#: of 3 s (longer than a page reload), hints on.
BROWSER_TEST_SETTINGS: Mapping[str, Any] = {**TEST_SETTINGS, "agent_delay": 0.05, "grace_period": 3.0}


@dataclass
class LiveServer:
    """A running server (it also serves ``web/``).

    :ivar settings: Its settings.
    :ivar port: The port it listens on.
    """

    settings: Settings
    app: web.Application
    runner: web.AppRunner
    port: int
    stopped: bool = False

    @classmethod
    async def start(cls, settings: Settings, agents: AgentFactory) -> Self:
        """Serve ``create_app(settings, agents=agents)`` on ``127.0.0.1``, port 0 (a free port)."""
        app = create_app(settings, agents=agents)
        runner = web.AppRunner(app, shutdown_timeout=2.0)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        return cls(settings, app, runner, runner.addresses[0][1])

    @property
    def url(self) -> str:
        """The page's address."""
        return f"http://127.0.0.1:{self.port}/"

    @property
    def factory(self) -> GameFactory:
        """The server's game factory (white-box access for checks)."""
        return self.app[FACTORY]

    def table(self, name: str) -> Table:
        """An open table by name."""
        return self.factory.tables[name]

    def all_records(self) -> list[Message]:
        """Every game record stored, after the server's writer has written everything queued."""
        if not self.stopped:
            self.app[STORE].flush()
        path = self.settings.data_dir / STORE_FILE
        if not path.is_file():
            return []
        with GameStore(path) as store:
            return list(store.archive.records())

    def records(self, table: str, *, aborted: bool = False) -> list[Message]:
        """The game records stored for a table (finished games, or games ended early), read from
        the server's SQLite file after its writer has written everything queued."""
        return [record for record in self.all_records()
                if record.get("table") == table and bool(record.get("aborted")) == aborted]

    async def stop(self) -> None:
        """Shut the server down (``runner.cleanup()``)."""
        if not self.stopped:
            self.stopped = True
            await self.runner.cleanup()

    async def close(self) -> None:
        """Release everything the test used with this server (here: the server itself)."""
        await self.stop()


StartServer = Callable[..., Awaitable[LiveServer]]
S = TypeVar("S", bound=LiveServer)


class Servers(Generic[S]):
    """The servers one test starts: ``await servers.start(**settings)``; :meth:`close` stops them all.

    Each gets the defaults, then its own ``data_dir`` in the folder, then the overrides. All
    share one :func:`~tests.support.agents.seeded_agents` factory (one count of seeds per test).
    """

    def __init__(self, kind: type[S], folder: Path, defaults: Mapping[str, Any]) -> None:
        self.kind = kind
        self.folder = folder
        self.defaults = defaults
        self.agents = seeded_agents()
        self.started: list[S] = []

    async def start(self, agents: AgentFactory | None = None, **overrides: Any) -> S:
        """Start a server with these settings (over the defaults), and the shared seeded agents
        unless ``agents`` makes them."""
        values = {**self.defaults, "data_dir": self.folder / f"data{len(self.started)}", **overrides}
        server = await self.kind.start(Settings(**values), agents or self.agents)
        self.started.append(server)
        return server

    async def close(self) -> None:
        """Close every server started (:meth:`LiveServer.close`)."""
        for server in self.started:
            await server.close()


async def eventually(predicate: Callable[[], bool], timeout: float = WAIT) -> None:
    """Poll until ``predicate()`` holds (for server-side effects of timers)."""
    try:
        async with asyncio.timeout(timeout):
            while not predicate():
                await asyncio.sleep(POLL)
    except TimeoutError:
        raise AssertionError(f"still not true after {timeout} s") from None


def read_table_records(server: LiveServer, table: str, *, aborted: bool = False) -> list[Message]:
    """The game records the server stored for a table (:meth:`LiveServer.records`)."""
    return server.records(table, aborted=aborted)


async def wait_for_records(server: LiveServer, table: str, count: int = 1) -> list[Message]:
    """Poll until ``count`` game records of ``table`` are written; return them."""
    deadline = time.monotonic() + WAIT
    while len(records := server.records(table)) < count:
        assert time.monotonic() < deadline, f"no game record for table {table!r} within {WAIT} s"
        await asyncio.sleep(POLL)
    return records
