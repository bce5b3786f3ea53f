"""``bin/leftover_processes.py``, the check at the end of ``bin/test``: it finds a process a run
left behind (by the run's mark in its environment, or by its working folder), ends it with
``--kill``, and raises no false alarm for itself, the run that calls it or processes older than
the run."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.scripts import ROOT
from tests.support.processes import alive

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc (Linux)")

SCRIPT = ROOT / "bin" / "leftover_processes.py"


def _check(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), "--wait", "0.5", *arguments], capture_output=True,
                          text=True, timeout=60, check=False)


@pytest.fixture
def orphan(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A ``sleep`` started with a mark of its own in its environment and ``tmp_path`` as its
    folder (killed at the end if the check did not)."""
    mark = f"LEFTOVER_PROBE={uuid.uuid4().hex}"
    name, value = mark.split("=")
    process = subprocess.Popen(["sleep", "60"], cwd=tmp_path, env={**os.environ, name: value})
    yield process, mark
    process.kill()
    process.wait()


def test_a_marked_process_is_found_and_ended(orphan: tuple[subprocess.Popen[bytes], str]) -> None:
    """Exit 1 and the process listed; with ``--kill`` it is ended."""
    process, mark = orphan
    found = _check("--mark", mark)
    assert found.returncode == 1 and f"{process.pid} " in found.stderr and "sleep 60" in found.stderr
    assert _check("--mark", mark, "--kill").returncode == 1
    process.wait(timeout=10)
    assert not alive(process.pid)
    assert _check("--mark", mark).returncode == 0


def test_a_process_in_the_folder_counts_when_started_since(orphan: tuple[subprocess.Popen[bytes], str],
                                                           tmp_path: Path) -> None:
    """Without the mark, a process working in ``--root`` counts if it started since ``--since``
    (and is only listed, not ended: it may not be the run's)."""
    process, _ = orphan
    other = f"LEFTOVER_PROBE={uuid.uuid4().hex}"
    found = _check("--mark", other, "--root", str(tmp_path), "--since", str(time.time() - 60), "--kill")
    assert found.returncode == 1 and f"{process.pid} " in found.stderr
    assert alive(process.pid)
    assert _check("--mark", other, "--root", str(tmp_path), "--since", str(time.time() + 5)).returncode == 0


def test_no_false_alarm_for_the_check_and_the_run_that_calls_it() -> None:
    """The checkout as the folder, since now: this test's own process and its pytest run work in
    the checkout and are older or ancestors; nothing is found."""
    found = _check("--mark", f"LEFTOVER_PROBE={uuid.uuid4().hex}", "--root", str(ROOT), "--since", str(time.time()))
    assert found.returncode == 0, found.stderr
