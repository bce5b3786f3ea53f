"""``heuristic:v1`` keeps the first heuristic's decisions (issue 13).

``tests/data/heuristic_v1_decisions.json`` was recorded by ``tests/data/make_heuristic_v1_decisions.py``
from the heuristic before any later feature: every decision with a choice (Grand Tichu,
push, plays with more than one legal play, wish, Dragon) and every Tichu call and bomb,
in four seeded games. The same games with ``heuristic:v1`` must make the same decisions
(a different decision would also send the game elsewhere).
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from tests.scripts import load_script
from tichu.agents.heuristic_policy import DEFAULT, V1, Weights

ROOT = Path(__file__).resolve().parents[2]


def _recorder() -> ModuleType:
    return load_script("tests/data/make_heuristic_v1_decisions.py")


@pytest.mark.slow
def test_heuristic_v1_makes_the_recorded_decisions() -> None:
    golden = json.loads((ROOT / "tests" / "data" / "heuristic_v1_decisions.json").read_text(encoding="utf-8"))
    module = _recorder()
    assert golden["kind"] == "heuristic:v1" and sum(len(log) for log in golden["games"].values()) >= 200
    for seed, expected in golden["games"].items():
        got = module.record("heuristic:v1", int(seed), golden["target"])
        assert len(got) == len(expected), seed
        for number, (mine, want) in enumerate(zip(got, expected)):
            assert mine == want, f"game {seed}, decision {number}"


def test_v1_is_the_dataclass_default_and_default_differs() -> None:
    """V1 has every later feature off (the field defaults); the tuned weights differ from it."""
    assert Weights() == V1
    assert DEFAULT != V1
