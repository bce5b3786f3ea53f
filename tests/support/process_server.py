"""The real server in a process of its own (``tichu-server``), for tests that kill it.

A test that checks what survives ``kill -9`` cannot run the server in its own event loop:
:class:`ProcessServer` starts ``tichu-server`` with settings in the environment, on
``127.0.0.1`` and a fixed free port (a restarted server comes back at the same address,
as on a Raspberry Pi), with its data folder under the test's ``tmp_path``. Its child processes
(the agent pool's) are noted before each signal; :meth:`ProcessServer.close` waits for them to
end and kills those that do not (tests/server/test_exit.py checks that none is left).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp

from tests.support.live_server import WAIT
from tests.support.processes import descendants, until_gone
from tests.support.raw_client import Client

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A port that is free on 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ProcessServer:
    """``tichu-server`` in a child process that a test can start, kill and start again.

    :ivar port: The port it listens on (the same after a restart).
    :ivar data_dir: Its data folder (the same after a restart).
    :ivar family: The processes seen below the server (across restarts), for the cleanup.
    """

    def __init__(self, data_dir: Path, settings: Mapping[str, Any]) -> None:
        """Prepare a server (not started).

        :param data_dir: Its data folder.
        :param settings: ``Settings`` field names and values, passed as ``TICHU_*`` variables.
        """
        self.port = free_port()
        self.data_dir = data_dir
        self.env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TICHU_DATA_DIR": str(data_dir),
                    **{f"TICHU_{name.upper()}": str(value) for name, value in settings.items()}}
        self.process: subprocess.Popen[bytes] | None = None
        self.session = aiohttp.ClientSession()
        self.clients: list[Client] = []
        self.family: set[int] = set()

    async def start(self) -> None:
        """Start the process and wait until ``/healthz`` answers."""
        self.process = subprocess.Popen([sys.executable, "-m", "tichu.cli.server", "--host", "127.0.0.1",
                                         "--port", str(self.port)], env=self.env, cwd=self.data_dir.parent,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 4 * WAIT
        while True:
            assert self.process.poll() is None, f"the server stopped with {self.process.returncode}"
            try:
                async with self.session.get(f"http://127.0.0.1:{self.port}/healthz") as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            assert time.monotonic() < deadline, "the server did not come up"
            await asyncio.sleep(0.05)

    def kill(self) -> None:
        """``kill -9``: no shutdown, no record written, nothing flushed."""
        assert self.process is not None
        self.note_family()
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=WAIT)

    @property
    def pid(self) -> int:
        """The server's process id (started)."""
        assert self.process is not None
        return self.process.pid

    def stop(self, how: signal.Signals, timeout: float = 30.0) -> tuple[int, float]:
        """Send ``how`` (SIGINT, SIGTERM) and wait for the process to end, ``timeout`` seconds at
        most (then it is killed and the test fails).

        :returns: The exit code and the seconds from the signal to the exit.
        """
        assert self.process is not None and self.process.poll() is None
        self.note_family()
        sent = time.monotonic()
        self.process.send_signal(how)
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"the server did not exit within {timeout:.0f} s of {how.name}") from None
        return code, time.monotonic() - sent

    def terminate(self) -> int:
        """SIGTERM, as a service manager stops it; returns the exit code."""
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else 0
        self.note_family()
        self.process.terminate()
        try:
            return self.process.wait(timeout=2 * WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError("the server did not stop on SIGTERM") from None

    def note_family(self) -> set[int]:
        """Note the processes below the running server (its agent pool's fork server, workers,
        resource tracker) and return them."""
        now = set(descendants(self.pid)) if self.process is not None and self.process.poll() is None else set()
        self.family |= now
        return now

    async def connect(self, query: Mapping[str, str], name: str, *, seed: int = 0) -> Client:
        """Connect a raw client and wait for its own ``player_joined``."""
        ws = await self.session.ws_connect(f"http://127.0.0.1:{self.port}/ws?{urlencode(query)}")
        client = Client(ws, name, seed)
        self.clients.append(client)
        await client.until_joined()
        return client

    async def close(self) -> None:
        """Close the clients and the session; stop the process."""
        for client in self.clients:
            await client.close()
        self.terminate()
        await self.session.close()
        for pid in await until_gone(self.family, WAIT):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
