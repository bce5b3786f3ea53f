"""The side-by-side benchmarks against other implementations, as far as they run without them:
``poc/arena_vs_frohlfing.py`` (its output parsers, and its table from made-up rates) and
``poc/env_speed.py`` (its parser, one short measurement of this tree's ``TichuEnv`` and of
RLCard's Dou Dizhu, and its table from made-up rates). Nothing here times anything: the rates
only have to be positive."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.scripts import ROOT, load_script
from tests.support.extras import require


@pytest.fixture(scope="module")
def arena() -> ModuleType:
    return load_script("poc/arena_vs_frohlfing.py")


@pytest.fixture(scope="module")
def env_speed() -> ModuleType:
    return load_script("poc/env_speed.py")


# -- poc/arena_vs_frohlfing.py ------------------------------------------------------------------


def test_their_rounds_come_from_their_summary_line(arena: ModuleType) -> None:
    output = "--- Los gehts ---\nAnzahl Partien: 150\nAnzahl Runden: 2777\nGesamtzeit: 7.177 s\n"
    assert arena.their_rounds(output) == 2777


def test_their_output_without_the_rounds_line_is_a_clear_error(arena: ModuleType) -> None:
    with pytest.raises(ValueError, match="no line 'Anzahl Runden: N' in frohlfing/tichu's Arena output"):
        arena.their_rounds("Anzahl Partien: 150\nGesamtzeit: 7.177 s\n")


def test_our_rounds_come_from_the_arenas_games_line(arena: ModuleType) -> None:
    output = "Team A (seats 0+2 in normal games): random + random\ngames 300, rounds 4481 (14.94 per game)\n"
    assert arena.our_rounds(output) == 4481


def test_our_output_without_the_games_line_is_a_clear_error(arena: ModuleType) -> None:
    with pytest.raises(ValueError, match="no line 'games N, rounds R' in our Arena's output"):
        arena.our_rounds("0.1 s: 81.4 games/s, 1090.2 rounds/s\n")


def _their_checkout(folder: Path, with_python: bool = True) -> Path:
    """A stand-in for their checkout and its environment, enough for the script's checks."""
    checkout = folder / "frohlfing"
    (checkout / "bin").mkdir(parents=True)
    (checkout / "bin" / "run_arena.py").write_text("", encoding="utf-8")
    if with_python:
        (folder / "fvenv" / "bin").mkdir(parents=True)
        (folder / "fvenv" / "bin" / "python").write_text("", encoding="utf-8")
    return checkout


def test_every_contender_runs_once_a_pair_and_the_medians_are_ours_over_theirs(
        arena: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Made-up rates (theirs 100, ours 300, compiled 500 rounds/s) give known ratios; the copy
    with the accelerator is made without compiling (bin/test tests the compiled build)."""
    checkout = _their_checkout(tmp_path)
    runs: list[str] = []

    def run(contender: Any) -> float:  # the script's Contender
        runs.append(contender.name)
        return {"theirs": 100.0, "ours": 300.0, "compiled": 500.0}[contender.name]

    @contextmanager
    def copy_without_compiling() -> Iterator[Path]:
        yield tmp_path / "compiled"

    monkeypatch.setattr(arena, "run", run)
    monkeypatch.setattr(arena, "compiled_copy", copy_without_compiling)
    assert arena.main(["--frohlfing", str(checkout), "--pairs", "3", "--games", "7", "--their-games", "5",
                       "--accelerated", "--records"]) == 0
    output = capsys.readouterr().out
    assert runs == ["theirs", "ours", "compiled", "ours", "compiled", "theirs", "compiled", "theirs", "ours"]
    assert output.count("| 100 | 300 | 3.00 | 500 | 5.00 |") == 3
    assert "median ratio, random-agent rounds per second (whole process), ours / theirs: 3.00x" in output
    assert "median ratio, random-agent rounds per second (whole process), ours accelerated / theirs: 5.00x" in output
    assert f"cd {checkout} && PYTHONPATH=. {tmp_path / 'fvenv' / 'bin' / 'python'} bin/run_arena.py -n 5 -w 1" in output
    assert "-m tichu.cli.arena --games 7 --workers 1 --seed 1 --no-progress --records " in output
    assert (checkout / "data" / "logs").is_dir()  # their Arena needs it


def test_without_their_python_the_script_asks_for_it(
        arena: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    checkout = _their_checkout(tmp_path, with_python=False)
    with pytest.raises(SystemExit):
        arena.main(["--frohlfing", str(checkout)])
    assert "give --frohlfing-python" in capsys.readouterr().err


# -- poc/env_speed.py -------------------------------------------------------------------------


def test_the_rate_comes_from_the_measure_line(env_speed: ModuleType) -> None:
    assert env_speed.parse_rate("steps/s 1234.5 steps 6789 episodes 12\n") == 1234.5
    with pytest.raises(ValueError, match="no line 'steps/s R steps N'"):
        env_speed.parse_rate("Traceback (most recent call last):\n")


def test_this_trees_environment_steps_in_a_measurement_of_its_own(env_speed: ModuleType) -> None:
    """The hidden ``--measure tichu`` mode in a subprocess on this tree, as the benchmark runs it."""
    require("pettingzoo", "learn")
    assert env_speed.run_measure(ROOT, "tichu", 1.0, 0) > 0


def test_rlcards_doudizhu_steps_in_a_measurement_of_its_own(env_speed: ModuleType) -> None:
    require("rlcard", "bench")
    assert env_speed.run_measure(ROOT, "rlcard", 1.0, 0) > 0


def test_the_pairs_rotate_and_print_every_ratio_with_its_median(
        env_speed: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Made-up rates: this tree 4000 steps/s, the revision 1000, RLCard 2000; the revision's
    worktree is stood in for by another folder."""
    earlier = ROOT.parent
    runs: list[tuple[Path, str]] = []

    @contextmanager
    def no_worktree(revision: str) -> Iterator[Path]:
        yield earlier

    def run_measure(tree: Path, kind: str, seconds: float, seed: int) -> float:
        runs.append((tree, kind))
        return 2000.0 if kind == "rlcard" else {ROOT: 4000.0, earlier: 1000.0}[tree]

    monkeypatch.setattr(env_speed, "worktree", no_worktree)
    monkeypatch.setattr(env_speed, "run_measure", run_measure)
    monkeypatch.setattr(env_speed, "rlcard_available", lambda: True)
    assert env_speed.main(["--rev", "abc1234", "--pairs", "2", "--seconds", "0.5"]) == 0
    output = capsys.readouterr().out
    assert runs == [(ROOT, "tichu"), (earlier, "tichu"), (ROOT, "rlcard"),
                    (earlier, "tichu"), (ROOT, "rlcard"), (ROOT, "tichu")]
    assert "| pair | this steps/s | abc1234 steps/s | RLCard steps/s | this/rev | this/RLCard | rev/RLCard |" in output
    assert output.count("| 4000 | 1000 | 2000 | 4.00 | 2.00 | 0.50 |") == 2
    assert "median ratio, steps per second, this / rev: 4.00x" in output
    assert "median ratio, steps per second, this / RLCard: 2.00x" in output
    assert "median ratio, steps per second, rev / RLCard: 0.50x" in output


def test_without_rlcard_the_script_says_it_is_skipped(
        env_speed: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(env_speed, "run_measure", lambda tree, kind, seconds, seed: 100.0)
    monkeypatch.setattr(env_speed, "rlcard_available", lambda: False)
    assert env_speed.main(["--pairs", "1"]) == 0
    output = capsys.readouterr().out
    assert "RLCard is not installed (pip install -e '.[bench]'): its environment is skipped" in output
    assert "| 1 | 100 |" in output and "median" not in output
