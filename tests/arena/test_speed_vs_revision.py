"""``poc/speed_vs_revision.py``: the side-by-side benchmark against an earlier revision runs
both trees from a temporary worktree, checks that they played the same games, and cleans up."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest

from tests.scripts import ROOT, load_script


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script("poc/speed_vs_revision.py")


def _worktrees() -> str:
    return subprocess.run(["git", "-C", str(ROOT), "worktree", "list"], capture_output=True, text=True,
                          check=True).stdout


def test_a_tiny_run_against_head_prints_both_ratios_and_removes_its_worktree(
        script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    before = _worktrees()
    assert script.main(["--rev", "HEAD", "--pairs", "2", "--games", "3", "--rollouts", "30"]) == 0
    output = capsys.readouterr().out
    assert output.count("| 1 |") == 1 and output.count("| 2 |") == 1
    assert "median ratio, random-agent rounds per second" in output
    assert "median ratio, rollouts per second" in output
    assert "records identical" in output
    assert _worktrees() == before


def test_different_games_for_the_same_seed_fail_the_benchmark(
        script: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def measure(tree: Path, games: int, rollouts: int, seed: int) -> object:
        return script.Measurement(100.0, 0.0, [str(tree)])  # each tree "played" other games

    monkeypatch.setattr(script, "measure", measure)
    assert script.main(["--rev", "HEAD", "--pairs", "1", "--rollouts", "0"]) == 1
    assert "different games" in capsys.readouterr().out


def test_the_records_are_compared_without_their_start_time(script: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"id": "a", "started_at": "2026-11-24T10:00:00Z"}\n{"id": "b"}\n', encoding="utf-8")
    assert script._records(path) == [{"id": "a"}, {"id": "b"}]


def test_the_accelerated_tree_joins_with_ratios_of_its_own(
        script: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``--accelerated`` times a third tree, this one compiled in a copy; here the copy is made
    without compiling (``bin/test`` tests the compiled build), and each tree's figures are
    made up so that the ratios are known: 2x and 3x the earlier revision's."""
    copies: list[Path] = []

    @contextmanager
    def copy_without_compiling() -> Iterator[Path]:
        copies.append(ROOT)
        yield ROOT.parent

    def measure(tree: Path, games: int, rollouts: int, seed: int) -> object:
        rate = {ROOT: 200.0, ROOT.parent: 300.0}.get(tree, 100.0)
        return script.Measurement(rate, rate * 10, ["same games"])

    monkeypatch.setattr(script, "compiled_copy", copy_without_compiling)
    monkeypatch.setattr(script, "measure", measure)
    assert script.main(["--rev", "HEAD", "--pairs", "3", "--accelerated"]) == 0
    output = capsys.readouterr().out
    assert copies == [ROOT]
    assert output.count("| 100 | 200 | 2.00 | 300 | 3.00 | 1000 | 2000 | 2.00 | 3000 | 3.00 |") == 3
    assert "median ratio, random-agent rounds per second (whole process, records): 2.00x" in output
    assert "median ratio, random-agent rounds per second (whole process, records), accelerated: 3.00x" in output
    assert "median ratio, rollouts per second, accelerated: 3.00x" in output
