"""``bin/paired_rounds.py``: rounds of two Arena runs with the same seed are paired by their deal."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.scripts import load_script
from tichu.arena.arena import Arena

ROOT = Path(__file__).resolve().parents[2]


def _module() -> ModuleType:
    return load_script("bin/paired_rounds.py")


def _records(path: Path, team_a: str, seed: int) -> Path:
    records: list[dict[str, Any]] = []
    arena = Arena([team_a, "random", team_a, "random"], games=4, seed=seed, workers=1, target_score=300,
                  duplicate=True, records=True)
    arena.run(on_record=records.append)
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def test_the_same_run_twice_pairs_every_round_with_no_difference(tmp_path: Path) -> None:
    module = _module()
    first = module.round_differences(_records(tmp_path / "x.jsonl", "rule", 5))
    second = module.round_differences(_records(tmp_path / "y.jsonl", "rule", 5))
    rounds, equal, mean, half = module.paired(first, second)
    assert rounds == equal == len(first) > 4
    assert mean == 0 and half == 0


def test_another_team_a_is_paired_on_the_same_deals(tmp_path: Path) -> None:
    module = _module()
    rule = module.round_differences(_records(tmp_path / "x.jsonl", "rule", 5))
    beginner = module.round_differences(_records(tmp_path / "y.jsonl", "beginner", 5))
    rounds, equal, mean, half = module.paired(rule, beginner)
    expected = [rule[key] - beginner[key] for key in rule.keys() & beginner.keys()]
    assert rounds == len(expected) > 4
    assert equal == expected.count(0)
    assert mean == pytest.approx(sum(expected) / len(expected))
    assert half > 0


def test_runs_with_different_seeds_have_nothing_to_pair(tmp_path: Path) -> None:
    module = _module()
    first = module.round_differences(_records(tmp_path / "x.jsonl", "rule", 5))
    other = module.round_differences(_records(tmp_path / "y.jsonl", "rule", 6))
    with pytest.raises(ValueError, match="same seed"):
        module.paired(first, other)
    assert module.main([str(tmp_path / "x.jsonl"), str(tmp_path / "y.jsonl")]) == 1
    assert module.main([]) == 2
