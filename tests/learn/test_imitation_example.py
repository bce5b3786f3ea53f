"""``poc/imitation_example.py``: records of the heuristic become a fitted policy that plays
through the policy agent and beats the random agent (the learning stack end to end, small)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.scripts import load_script
from tests.support.extras import require

require("pettingzoo", "learn")

from tichu.arena.arena import Arena  # noqa: E402
from tichu.learn.export import training_data  # noqa: E402


def test_a_policy_imitating_the_heuristic_beats_the_random_agent(capsys: pytest.CaptureFixture[str]) -> None:
    example = load_script("poc/imitation_example.py")
    records: list[dict[str, Any]] = []
    Arena(["heuristic"] * 4, games=4, seed=3, workers=1, target_score=500, records=True) \
        .run(on_record=records.append)
    data = training_data(records)
    policy = example.LinearPolicy(data.observation.shape[1], data.mask.shape[1])
    losses = policy.fit(data, epochs=4, seed=3)
    assert losses[-1] < losses[0] / 1.5
    assert policy.accuracy(data) > 0.75
    mean, low, _ = example.evaluate(policy, "random", games=6, seed=4, target=500)
    assert low > 0, f"the imitation does not beat random: {mean:+.1f} per round"
    assert example.main(["--games", "2", "--epochs", "1", "--eval-games", "1", "--target", "300"]) == 0
    output = capsys.readouterr().out
    assert "heuristic games ->" in output and "the policy against rule:" in output
