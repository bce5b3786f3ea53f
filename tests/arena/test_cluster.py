"""The Arena on Ray (``--cluster``): a local Ray instance started by the test on loopback plays
the same games as one local worker, with byte-identical statistics and records (apart from the
start time and the wall time), whether the Arena connects from another process by address or
runs in a process already connected."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.extras import require
from tichu.arena.arena import Arena
from tichu.arena.runners import ClusterUnavailable, RayRunner, _check_reachable

#: Seeded and varied agents; ``heuristic:v3`` rolls out only its last five cards, so the games stay quick.
AGENTS = ["rule", "random", "heuristic:v3", "random"]


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    """A Ray instance of two CPUs on 127.0.0.1, owned by this test module's process."""
    ray = require("ray", "cluster")
    context = ray.init(address="local", num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1",
                       object_store_memory=80 * 1024 * 1024, log_to_driver=False,
                       configure_logging=False)
    try:
        yield str(context.address_info["gcs_address"])
    finally:
        ray.shutdown()


def _cli(*arguments: str) -> list[str]:
    """Run ``tichu-arena`` in its own process; its report without the wall-time line and the
    records' file name."""
    done = subprocess.run([sys.executable, "-m", "tichu.cli.arena", "--no-progress", *arguments],
                          capture_output=True, text=True, timeout=600, check=True)
    return [line for line in done.stdout.splitlines() if " games/s, " not in line and not line.startswith("records:")]


def _records(path: Path) -> list[dict[str, Any]]:
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for record in records:
        record.pop("started_at")
    return records


def test_a_run_on_the_cluster_equals_one_local_worker_byte_for_byte(ray_address: str, tmp_path: Path) -> None:
    """The command line with ``--cluster ADDRESS`` (another process, connecting by address)
    prints the same statistics and writes the same records as ``--workers 1``."""
    common = ["--games", "10", "--seed", "77", "--target", "400", "--duplicate", *AGENTS]
    local = _cli("--workers", "1", "--records", str(tmp_path / "local.jsonl"), *common)
    cluster = _cli("--cluster", ray_address, "--records", str(tmp_path / "cluster.jsonl"), *common)
    assert cluster == local
    assert any(line.startswith("games 10, rounds") for line in local)
    assert _records(tmp_path / "cluster.jsonl") == _records(tmp_path / "local.jsonl")
    assert len(_records(tmp_path / "local.jsonl")) == 10


def test_an_arena_in_a_connected_process_uses_the_connection_and_keeps_it(ray_address: str) -> None:
    """Already connected (``auto``): the same results as one worker, the early stop included,
    and the connection stays open for the caller."""
    ray = require("ray", "cluster")
    ray.init(address=ray_address, ignore_reinit_error=True, log_to_driver=False, configure_logging=False)
    records: dict[str, list[dict[str, Any]]] = {"local": [], "cluster": []}
    local = Arena(AGENTS, games=40, seed=5, workers=1, target_score=300, until_clear=True, records=True) \
        .run(on_record=records["local"].append)
    cluster = Arena(AGENTS, games=40, seed=5, cluster="auto", target_score=300, until_clear=True, records=True) \
        .run(on_record=records["cluster"].append)
    assert cluster.lines()[:-1] == local.lines()[:-1]
    assert cluster.round_diffs == local.round_diffs and cluster.games == local.games
    assert local.stopped_early == "clear" and 1 < local.games < 40  # chunks were still in flight
    for run in records.values():
        for record in run:
            record.pop("started_at")
    assert records["cluster"] == records["local"] and records["local"]
    assert ray.is_initialized()


def test_without_ray_the_command_line_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """No Ray installed: ``--cluster`` ends with exit 2 and the install command, nothing played."""
    monkeypatch.setitem(sys.modules, "ray", None)  # makes ``import ray`` fail
    with pytest.raises(ClusterUnavailable, match=r"pip install 'tichu\[cluster\]'"):
        RayRunner(len, "auto")
    run_arena = importlib.import_module("tichu.cli.arena")
    assert run_arena.main(["--cluster", "auto", "--games", "2", "--no-progress"]) == 2
    assert "tichu[cluster]" in capsys.readouterr().err


def test_an_address_where_nothing_listens_fails_at_once_with_exit_2(tmp_path: Path) -> None:
    """Ray would retry an unreachable cluster for minutes: the Arena checks the address first."""
    require("ray", "cluster")
    with pytest.raises(ClusterUnavailable, match="no Ray cluster at '127.0.0.1:1'"):
        _check_reachable("127.0.0.1:1")
    _check_reachable("auto")  # found by Ray itself
    done = subprocess.run([sys.executable, "-m", "tichu.cli.arena", "--no-progress", "--games", "2",
                           "--cluster", "127.0.0.1:1"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "no Ray cluster at '127.0.0.1:1'" in done.stderr
