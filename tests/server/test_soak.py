"""The soak benchmark's 3-minute version (issue 24, item 5): :mod:`poc.soak` against a real
server process, with bots, drops, garbage, floods, refused joins, spectators, API readers, a
SIGTERM restart and a kill; memory, descriptors, threads, asyncio tasks and the database must be
flat over the last two thirds, and every finished game must replay. Its server process is two
minutes old when the measured span begins (a restart and a kill come first), so its memory may
vary by 10 MiB there; the 30-minute run (docs/benchmarks.md) is judged by the issue's 5 MiB."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_three_minutes_of_a_month_stay_flat() -> None:
    done = subprocess.run([sys.executable, "-m", "poc.soak", "--duration", "180", "--tables", "4",
                           "--every", "5", "--sigterm-at", "0.05", "--kill-at", "0.1", "--memory-slack", "10"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
