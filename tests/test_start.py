"""``bin/start``, the README's main command: it serves the page with the options the README
documents (issue: ``bin/start --host H --port P`` always failed, its arguments were read as
pip extras by ``bin/_venv.sh``)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.process_server import free_port

ROOT = Path(__file__).resolve().parents[1]


def _installed() -> bool:
    return any((ROOT / ".venv").glob(".installed-*"))


@pytest.mark.skipif(not _installed() and os.environ.get("CI") != "true",
                    reason="no .venv installed by bin/test or bin/start here (bin/start would create one)")
def test_bin_start_with_host_and_port_serves_the_page(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "TICHU_DATA_DIR": str(tmp_path / "data"), "TICHU_LOG_FILE": "off"}
    server = subprocess.Popen(["bash", str(ROOT / "bin" / "start"), "--host", "127.0.0.1", "--port", str(port)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.stderr.read().decode() if server.stderr else server.returncode
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                    page = response.read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline, "bin/start did not serve the page"
                time.sleep(0.2)
        assert response.status == 200 and "<html" in page.lower()
    finally:
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=30)
        if server.stderr is not None:
            server.stderr.close()
    assert code == 0
