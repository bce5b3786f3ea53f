"""The installable package (issue 26, item 4): the wheel built from this checkout, installed in
a fresh virtual environment outside the checkout, serves the page and plays a game.

The checkout is copied to a temporary folder and the wheel built there (``pip wheel``, with
the build backend from PyPI or pip's cache), so that the build writes nothing into the
checkout. The wheel is installed into a new virtual environment (aiohttp from PyPI or the
cache); its ``tichu-server`` runs with the working directory, the data folder and the
environment (no ``PYTHONPATH``) outside the checkout, so that it can only work with what the
wheel holds: the ``tichu`` package in the environment's ``site-packages`` and the page
(``web/``) as its package data. Without PyPI the test is skipped (and fails under
``CI=true``).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import time
import venv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

import tichu
from tests.support.extras import unavailable
from tests.support.process_server import free_port
from tests.support.processes import alive, descendants

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

#: What the copy of the checkout leaves out: history, environments, generated files.
IGNORED = shutil.ignore_patterns(".git", ".venv", "data", "build", "dist", "node_modules", "__pycache__",
                                 "*.egg-info", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis")
#: What pip says when it cannot reach a package index.
OFFLINE = re.compile(r"No matching distribution|Could not find a version|NewConnectionError|Network is unreachable")
#: Seconds for the server to come up, and for a game to deal its first cards.
WAIT = 60.0


@dataclass(frozen=True)
class Installed:
    """A virtual environment with the wheel installed.

    :ivar bin: Its ``bin`` folder (``python``, ``tichu-server``).
    :ivar home: A folder outside the checkout to run in.
    :ivar env: The environment to run its commands with: this one's without ``PYTHONPATH``.
    """

    bin: Path
    home: Path
    env: dict[str, str]

    def run(self, *command: str) -> str:
        """Run a command of the environment in :attr:`home`; its output (it must succeed)."""
        done = subprocess.run([str(self.bin / command[0]), *command[1:]], cwd=self.home, env=self.env,
                              capture_output=True, text=True, timeout=600, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout


def _pip(python: Path, *arguments: str, cwd: Path) -> None:
    """Run pip; skip the test when it cannot reach PyPI, fail on any other error."""
    done = subprocess.run([str(python), "-m", "pip", "--disable-pip-version-check", *arguments], cwd=cwd,
                          capture_output=True, text=True, timeout=900, check=False)
    if done.returncode != 0:
        if OFFLINE.search(done.stdout + done.stderr):
            unavailable(f"pip cannot reach a package index: {done.stderr.strip().splitlines()[-1]}")
        pytest.fail(f"pip {' '.join(arguments)} failed:\n{done.stdout}{done.stderr}")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel of this checkout, built in a copy and installed into a fresh environment."""
    tmp = tmp_path_factory.mktemp("wheel")
    assert not tmp.is_relative_to(ROOT)
    source = tmp / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=IGNORED)
    venv.EnvBuilder(with_pip=True).create(tmp / "venv")
    python = tmp / "venv" / "bin" / "python"
    _pip(python, "wheel", "--no-deps", "--wheel-dir", str(tmp / "dist"), str(source), cwd=tmp)
    wheels = list((tmp / "dist").glob("tichu-*.whl"))
    assert [wheel.name for wheel in wheels] == [f"tichu-{tichu.__version__}-py3-none-any.whl"]
    _pip(python, "install", str(wheels[0]), cwd=tmp)
    home = tmp / "home"
    home.mkdir()
    env = {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return Installed(bin=tmp / "venv" / "bin", home=home, env=env)


def test_the_wheel_holds_the_package_and_the_page(installed: Installed) -> None:
    """The environment imports ``tichu`` from its own ``site-packages``, never this checkout,
    and finds the page where the server looks for it: a copy of ``web/``."""
    found = json.loads(installed.run("python", "-c", (
        "import json, tichu, tichu.server.http.site as site; "
        "print(json.dumps([tichu.__file__, str(site.WEB_DIR), tichu.__version__]))")))
    package, web, version = Path(found[0]), Path(found[1]), found[2]
    assert "site-packages" in package.parts and not package.is_relative_to(ROOT)
    assert web == package.parent / "web" and not web.is_symlink()
    assert version == tichu.__version__
    shipped = {path.relative_to(web) for path in web.rglob("*") if path.is_file()}
    assert shipped == {path.relative_to(ROOT / "web") for path in (ROOT / "web").rglob("*") if path.is_file()}


def test_tichu_server_names_the_one_version(installed: Installed) -> None:
    """``tichu-server --version`` prints ``tichu.__version__``, which is also the wheel's."""
    assert installed.run("tichu-server", "--version").split() == ["tichu-server", tichu.__version__]


@pytest.fixture
def server(installed: Installed) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """``tichu-server`` of the environment on a free port; stopped with SIGTERM after the test,
    which fails if it or a process it started is still running 10 s later."""
    port = free_port()
    env = {**installed.env, "TICHU_HOST": "127.0.0.1", "TICHU_PORT": str(port),
           "TICHU_DATA_DIR": str(installed.home / "data"), "TICHU_LOG_FILE": "off",
           "TICHU_AGENT": "random", "TICHU_AGENT_DELAY": "0"}
    process = subprocess.Popen([str(installed.bin / "tichu-server")], cwd=installed.home, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    family: set[int] = set()
    try:
        yield port, process
        family.update(descendants(process.pid))
    finally:
        family.update(descendants(process.pid))
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            if process.stderr is not None:
                process.stderr.close()
        deadline = time.monotonic() + 10
        while (left := [pid for pid in family if alive(pid)]) and time.monotonic() < deadline:
            time.sleep(0.05)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
    assert code == 0 and left == []


async def _up(session: aiohttp.ClientSession, base: str, process: subprocess.Popen[bytes]) -> None:
    """Wait until ``/healthz`` answers (the server must not stop meanwhile)."""
    deadline = time.monotonic() + WAIT
    while True:
        assert process.poll() is None, f"tichu-server stopped with {process.returncode}"
        try:
            async with session.get(f"{base}/healthz") as response:
                if response.status == 200:
                    return
        except aiohttp.ClientError:
            pass
        assert time.monotonic() < deadline, "tichu-server did not come up"
        await asyncio.sleep(0.1)


async def _notification(socket: aiohttp.ClientWebSocketResponse, event: str) -> dict[str, Any]:
    """The context of the next notification ``event`` (messages before it are skipped)."""
    async with asyncio.timeout(WAIT):
        while True:
            message: dict[str, Any] = json.loads(await socket.receive_str())
            if message["type"] == "notification" and message["payload"]["event"] == event:
                context: dict[str, Any] = message["payload"]["context"]
                return context


async def test_tichu_server_from_the_wheel_serves_the_page_and_a_game(
        server: tuple[int, subprocess.Popen[bytes]]) -> None:
    """The page is the checkout's ``web/index.html``, its first stylesheet and script are served,
    and a person at a table starts a game: agents take the other seats and the cards are dealt."""
    port, process = server
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as session:
        await _up(session, base, process)
        async with session.get(f"{base}/") as response:
            assert response.status == 200
            page = await response.text()
        assert page == (ROOT / "web" / "index.html").read_text(encoding="utf-8")
        assets = [re.search(r'href="(css/[^"]+\.css)"', page), re.search(r'src="(js/[^"]+\.js)"', page)]
        for asset in assets:
            assert asset is not None, "the page names no stylesheet or no script"
            async with session.get(f"{base}/{asset[1]}") as response:
                assert response.status == 200
                assert await response.read() == (ROOT / "web" / asset[1]).read_bytes()
        async with session.ws_connect(f"{base}/ws?player_name=Anna&table_name=wheel") as socket:
            joined = await _notification(socket, "player_joined")
            assert joined["player_name"] == "Anna"
            await socket.send_json({"type": "start_game"})
            dealt = await _notification(socket, "hand_cards_dealt")
            assert dealt["count"] == 8 and len(dealt["hand_cards"]) == 8
