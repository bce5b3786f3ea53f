"""The judge at two-seat endgames: exact values, exact losses, labels only for real losses
(issue 34, finding 1: "two blunders of 130 ± 0", a "mistake of 60 ± 0" and inaccuracies
whose exact losses are 0 and 10, and a missed loss of 40).

The losses and labels are checked against the independent plain minimax of
:mod:`tests.support.endgames`, which applies each option through the flow's checked methods
by itself, on every two-seat decision of at most :data:`~tests.support.endgames.SMALL` cards
of the nine Brettspielwelt games and of seeded Arena games.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from tests.support.endgames import SMALL, apply_option, arena_points, bsw_points, cards_left, minimax
from tichu.analysis import THRESHOLDS, DecisionPoint, Method, decision_points, judge
from tichu.analysis.document import judgement_json
from tichu.cli.analyse import position_text, summary
from tichu.records.bsw import decode, import_game
from tichu.records.parts import AnalysisDocument
from tichu.records.steps import record_steps

#: Deals of the fallback's sampling in these tests.
SAMPLES = 4


def option_value(point: DecisionPoint, index: int) -> int:
    """The plain minimax's value of one option of a two-seat decision (applied apart from the
    judge's own way of applying it, :func:`~tests.support.endgames.apply_option`)."""
    return minimax(apply_option(point, index), point.seat)


def expected_label(loss: float) -> str | None:
    """The label the thresholds give an exact loss."""
    reached = [(least, name) for name, least in THRESHOLDS.items() if loss >= least]
    return max(reached)[1] if reached else None


def check(points: tuple[DecisionPoint, ...]) -> int:
    """Judge the small points; check each against the plain minimax. The count checked."""
    checked = 0
    for point in points:
        if cards_left(point) > SMALL:
            continue
        judgement = judge(point, samples=SAMPLES)
        values = [option_value(point, index) for index in range(len(point.options))]
        loss = max(values) - values[point.chosen]
        assert judgement.exact and judgement.samples == 0, point
        assert judgement.means == tuple(float(value) for value in values), point
        assert judgement.half_widths == (0.0,) * len(values) and judgement.loss_half_width == 0
        assert judgement.loss == loss and judgement.label == expected_label(loss), point
        if loss == 0:
            assert judgement.label is None  # a good move is never blamed
        checked += 1
    return checked


def test_the_judge_is_exact_on_the_brettspielwelt_endgames(shared_dir: Path) -> None:
    """Issue 34, finding 1: on every small two-seat decision of the nine Brettspielwelt games
    the judge's values, loss and label are the plain minimax's."""
    assert check(bsw_points(str(shared_dir / "data" / "bsw"))) >= 60


def test_the_judge_is_exact_on_arena_endgames() -> None:
    """Issue 34, finding 1: the same on the endgames of seeded Arena games."""
    assert check(arena_points()) > 0


def test_an_endgame_beyond_the_budget_is_sampled_and_not_exact(shared_dir: Path) -> None:
    """Issue 34, finding 1: a two-seat decision whose solve runs out of nodes is judged by
    sampling, and the judgement says it is not exact."""
    point = next(point for point in bsw_points(str(shared_dir / "data" / "bsw"))
                 if cards_left(point) > SMALL and point.kind == "play")
    judgement = judge(point, samples=SAMPLES, endgame_nodes=1)
    assert not judgement.exact and judgement.samples == SAMPLES and judgement.line == ()


def test_the_document_and_the_text_say_exact(shared_dir: Path) -> None:
    """Issue 34, finding 1: an exact judgement's document entry says ``exact`` and carries
    the best line; ``tichu-analyse``'s text writes "exact", never "± 0", and shows the
    position and the best line."""
    points = [point for point in bsw_points(str(shared_dir / "data" / "bsw")) if cards_left(point) <= SMALL]
    judgements = [judge(point, samples=SAMPLES) for point in points[:40]]
    lossy = [judgement for judgement in judgements if judgement.loss > 0]
    assert lossy
    entry = judgement_json(lossy[0])
    assert entry["exact"] is True and entry["loss_half_width"] == 0 and entry["line"]
    assert all(option["half_width"] == 0 for option in entry["options"])
    document = {"game_id": "endgames", "method": Method(samples=SAMPLES).to_json(),
                "judgements": [judgement_json(judgement) for judgement in lossy],
                "players": [{"seat": seat, "name": f"P{seat}", "decisions": 1, "mean_loss": 0.0, "given_away": 0.0,
                             "inaccuracies": 0, "mistakes": 0, "blunders": 0} for seat in range(4)]}
    text = "\n".join(summary(cast(AnalysisDocument, document)))
    assert "exact" in text and "± 0" not in text and "best line: seat" in text


def test_the_text_shows_the_position_of_each_listed_decision(shared_dir: Path) -> None:
    """Issue 34, finding 1: beside a listed decision, ``tichu-analyse`` shows the seat's hand,
    the trick and who is out, as they were before the decision."""
    record = dict(import_game(decode((shared_dir / "data" / "bsw" / "game_1.tch").read_bytes()), "game_1"))
    steps, _ = record_steps(record)
    point = next(point for point in bsw_points(str(shared_dir / "data" / "bsw")) if point.kind == "play")
    text = position_text(steps, point.step, point.seat, point.kind)
    before = steps[point.step - 1]
    assert text.startswith("hand " + " ".join(before["hands"][point.seat]))
    assert "out: " + ", ".join(f"seat {seat}" for seat in before["out_order"]) in text


def test_the_dog_that_brings_the_lead_back_is_no_blunder(shared_dir: Path) -> None:
    """Issue 34, finding 1, the issue's example: in ``game_100952.tch`` the Dog played while
    the lead comes back to its player (step 62) was labelled a blunder of "130 ± 0" by the
    heuristic's continuation, which then led a street. Solved exactly, the Dog loses nothing;
    the street led next (step 63) is the blunder, exactly 130; the pair after it loses nothing."""
    record = dict(import_game(decode((shared_dir / "data" / "bsw" / "game_100952.tch").read_bytes()), "g"))
    points = {point.step: point for point in decision_points(record, [1]) if 62 <= point.step <= 66}
    dog, street, pair = (judge(points[step], samples=SAMPLES) for step in (62, 63, 66))
    assert dog.exact and dog.loss == 0 and dog.label is None
    assert street.exact and street.loss == 130 and street.label == "blunder"
    assert pair.exact and pair.loss == 0 and pair.label is None
