"""The server always exits, and leaves no process behind (docs/server.md, "Agents", "Shutdown").

Each test runs the real server as a process (``tichu-server``,
:mod:`tests.support.process_server`) with its agent pool, brings it into a state, and stops
it: SIGINT and SIGTERM end it within 10 s, with exit code 0 (a clean stop, not the exit
guard's forced exit), in every state — idle, while an agent decides, after the pool's workers
were killed, after its fork server was killed — and none of its processes is left 10 s
later. After SIGKILL of the server, its pool's processes end by themselves.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.process_server import ROOT, ProcessServer
from tests.support.processes import alive, cpu_seconds, fork_servers, pool_workers, until_gone
from tests.support.raw_client import Client
from tichu.server.guard.exit_guard import EXIT_SECONDS, FORCED_EXIT

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")]

#: The bound of the issue: the process ends within this many seconds of the signal (the exit
#: guard forces it, with :data:`FORCED_EXIT`, before; a test checks the exit code, not the time).
EXIT_BOUND = 10.0
#: How long a test waits for processes to be gone (generous: a loaded machine is slow to reap).
GONE_WAIT = 60.0
#: Random agents that take a little time, so that a game goes on while the test acts.
SETTINGS = {"seed": 7, "agent": "random", "agent_delay": 0.05, "bomb_window": 0, "grace_period": 5,
            "hints": "off", "target_score": 5000, "agent_workers": 1,
            "message_rate": 1000000, "message_burst": 1000000}

Start = Callable[..., Awaitable[ProcessServer]]


@pytest.fixture
async def start(tmp_path: Path) -> AsyncIterator[Start]:
    """Start server processes: ``await start(**settings)``; each is stopped and its processes
    ended at the end (:meth:`ProcessServer.close`)."""
    servers: list[ProcessServer] = []

    async def start_server(**settings: Any) -> ProcessServer:
        server = ProcessServer(tmp_path / f"data{len(servers)}", {**SETTINGS, **settings})
        servers.append(server)
        await server.start()
        return server

    yield start_server
    for server in servers:
        await server.close()


async def _eventually(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.05)
    assert predicate(), what


async def _game(server: ProcessServer) -> tuple[Client, asyncio.Task[Any]]:
    """A person at a table of three agents, playing at random in a task (cancelled at the end)."""
    client = await server.connect({"player_name": "Ann", "table_name": "t"}, "Ann")
    await client.send_type("start_game")
    playing = asyncio.create_task(client.play())
    await _eventually(lambda: bool(pool_workers(server.pid)), 30, "the agent pool started no worker")
    return client, playing


async def _stops_cleanly(server: ProcessServer, how: signal.Signals) -> None:
    """``how`` ends the server with code 0 (not the exit guard's :data:`FORCED_EXIT`: the stop
    needed no forcing within its bound), and every process it had is gone after it."""
    family = server.note_family()
    code, seconds = server.stop(how)
    assert code == 0, f"exit code {code} after {how.name} ({seconds:.1f} s)"
    assert not await until_gone(family, GONE_WAIT), "processes of the server outlived it"


@pytest.fixture(params=[signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def how(request: pytest.FixtureRequest) -> signal.Signals:
    """Each stop test with Ctrl+C's signal and with systemd's."""
    signal_: signal.Signals = request.param
    return signal_


def test_the_exit_guard_leaves_room_for_a_clean_stop() -> None:
    """The forced exit comes before the bound, and only after the steps' own bounds."""
    assert 5.0 < EXIT_SECONDS < EXIT_BOUND


def test_the_exit_guard_ends_a_process_that_would_wait_forever() -> None:
    """A thread that never ends holds the interpreter's exit; armed, the guard ends the process
    with :data:`FORCED_EXIT` once its time is up."""
    script = ("import threading, time\n"
              "from tichu.server.guard import exit_guard\n"
              "exit_guard.arm(0.5)\n"
              "threading.Thread(target=time.sleep, args=(60,)).start()\n")
    done = subprocess.run([sys.executable, "-c", script], env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
                          capture_output=True, text=True, timeout=GONE_WAIT, check=False)
    assert done.returncode == FORCED_EXIT  # the thread's 60 s sleep would have ended it with 0
    assert "did not exit within" in done.stderr


async def test_an_idle_server_exits(start: Start, how: signal.Signals) -> None:
    """No table, no agent pool process."""
    server = await start()
    await _stops_cleanly(server, how)


async def test_a_server_exits_while_an_agent_decides(start: Start, how: signal.Signals) -> None:
    """Agents that search for 30 s a decision: the server stops within the bound while its worker
    computes (a worker that has used a second of CPU is deciding)."""
    server = await start(agent="montecarlo:30", agent_delay=0)
    _, playing = await _game(server)
    try:
        await _eventually(lambda: any(cpu_seconds(pid) >= 1.0 for pid in pool_workers(server.pid)), 60,
                          "no worker decided for a second")
        await _stops_cleanly(server, how)
    finally:
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)


async def test_a_server_exits_while_it_analyses_a_game(start: Start, how: signal.Signals) -> None:
    """A one-round game analysed as it ends (``TICHU_ANALYSIS=all``) with so many deals per point
    that a judgement takes long: the server stops within the bound while the pool's background
    process computes (a process of the pool that has used a second of CPU)."""
    server = await start(analysis="all", analysis_samples=100_000, target_score=1, analysis_nice=0)
    _, playing = await _game(server)
    try:
        await _eventually(lambda: any(cpu_seconds(pid) >= 1.0 for pid in pool_workers(server.pid)), 60,
                          "no analysis computed for a second")
        await _stops_cleanly(server, how)
    finally:
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)


async def test_a_server_exits_after_its_workers_died(start: Start, how: signal.Signals) -> None:
    """The pool's workers killed (out of memory, an operator) just before the stop."""
    server = await start()
    _, playing = await _game(server)
    try:
        workers = pool_workers(server.pid)
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        assert not await until_gone(workers, GONE_WAIT)
        await _stops_cleanly(server, how)
    finally:
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)


async def test_a_server_exits_after_its_fork_server_died(start: Start, how: signal.Signals) -> None:
    """The pool's fork server killed: its workers end with it (they would wait for work
    forever), and the server still stops within the bound."""
    server = await start()
    _, playing = await _game(server)
    try:
        [fork_server] = fork_servers(server.pid)
        workers = pool_workers(server.pid)
        os.kill(fork_server, signal.SIGKILL)
        assert not await until_gone([fork_server, *workers], GONE_WAIT), "the workers outlived their fork server"
        await _stops_cleanly(server, how)
    finally:
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)


async def test_nothing_of_the_pool_outlives_a_killed_server(start: Start) -> None:
    """``kill -9`` of the server while its agents play: its fork server, workers and
    multiprocessing's resource tracker have all ended 10 s later."""
    server = await start()
    _, playing = await _game(server)
    try:
        family = server.note_family()
        assert fork_servers(server.pid) and pool_workers(server.pid)
        server.kill()
        left = await until_gone(family, GONE_WAIT)
        assert not left, f"still running 10 s after the server's SIGKILL: {left}"
        assert not any(alive(pid) for pid in family)
    finally:
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)
