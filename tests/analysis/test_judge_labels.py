"""Labels only where the judge knows (issue 34, part 4: "a decision is labelled only when its
loss is established beyond the noise of the method that judged it; a good move is never
blamed for a later move of the continuation"; "± 0" is no certainty, only ``exact`` is).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import cast

import pytest

from tests.analysis.games import heuristic_record
from tichu.analysis import THRESHOLDS, Method, decision_points, judge, label_of
from tichu.analysis.document import judgement_json
from tichu.analysis.judge import sampled_label
from tichu.cli.analyse import summary
from tichu.records.bsw import decode, import_game
from tichu.records.parts import AnalysisDocument

#: Deals of the judge's sampling.
SAMPLES = 4


def test_a_sampled_endgame_carries_no_label(shared_dir: Path) -> None:
    """Issue 34, part 4, the issue's example: the Dog of ``game_100952.tch`` (step 62), played
    while the lead comes back to its player, judged by sampling (a node budget of one) was "a
    blunder of 130 ± 0": every deal the same position, played on by one deterministic
    continuation that led a street. That "± 0" measures nothing of the method's noise, so the
    sampled judgement labels nothing and the text writes "± ?"; solved exactly, the Dog loses
    nothing."""
    record = dict(import_game(decode((shared_dir / "data" / "bsw" / "game_100952.tch").read_bytes()), "g"))
    dog = next(point for point in decision_points(record, [1]) if point.step == 62)
    sampled = judge(dog, samples=SAMPLES, endgame_nodes=1)
    assert not sampled.exact and sampled.label is None
    assert sampled.loss > 0 and sampled.loss_half_width == 0  # the continuation's verdict, no spread
    document = {"game_id": "g", "method": Method(samples=SAMPLES).to_json(), "judgements": [judgement_json(sampled)],
                "players": [{"seat": 1, "name": "P1", "decisions": 1, "mean_loss": 0.0, "given_away": 0.0,
                             "inaccuracies": 0, "mistakes": 0, "blunders": 0}]}
    text = "\n".join(summary(cast(AnalysisDocument, document)))
    assert "± ?" in text and "± 0" not in text and "exact" not in text
    exact = judge(dog, samples=SAMPLES)
    assert exact.exact and exact.loss == 0 and exact.label is None


def test_a_loss_without_spread_carries_no_label() -> None:
    """Issue 34, part 4: sampled differences that do not vary (every deal alike, one
    deterministic continuation) measure no noise: no label, however large the loss; with
    spread the loss must clear its half width."""
    point = dataclasses.replace(decision_points(heuristic_record())[0], state=None)
    assert sampled_label(point, [130.0, 130.0, 130.0, 130.0]) is None
    assert sampled_label(point, [130.0, 140.0, 120.0, 130.0]) == "blunder"
    assert sampled_label(point, [0.0, 260.0, 0.0, 260.0]) is None  # 130 ± 147: not established


@pytest.mark.parametrize("loss", [34.9, 35.0, 59.9, 60.0, 119.9, 120.0])
def test_an_exact_label_is_the_threshold_its_loss_reaches(loss: float) -> None:
    """Issue 34, part 4: an exact loss has no noise to take off: its label is the highest
    threshold it reaches."""
    expected = [name for name, least in THRESHOLDS.items() if loss >= least]
    assert label_of(loss, 0.0) == (max(expected, key=lambda name: THRESHOLDS[name]) if expected else None)

