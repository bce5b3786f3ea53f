"""The expert's judgement of a decision (:func:`tichu.analysis.judge`): paired, deterministic,
and blind to the cards hidden from the judged seat (R8)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.analysis.games import heuristic_record
from tichu.analysis import THRESHOLDS, DecisionPoint, decision_points, judge
from tichu.records.steps import record_steps

#: Deals per judgement in these tests (the default is far more; these check behaviour, not numbers).
SAMPLES = 8
_EVENT_STEPS = {"tichu", "play", "pass", "bomb", "wish", "dragon"}


def test_a_judgement_is_deterministic_for_a_seed() -> None:
    """The same point, samples and seed: the same judgement; the chosen and best indices are
    options of the point, and the loss is the paired difference of their means."""
    point = next(point for point in decision_points(heuristic_record()) if point.kind == "play")
    first = judge(point, samples=SAMPLES, seed=7)
    assert judge(point, samples=SAMPLES, seed=7) == first
    assert first.samples == SAMPLES and len(first.means) == len(point.options)
    assert first.means[first.best] == max(first.means)
    assert abs(first.loss - (first.means[first.best] - first.means[point.chosen])) < 1e-9
    assert first.loss >= 0 and first.loss_half_width >= 0
    assert pickle.loads(pickle.dumps(first)) == first  # the server judges in a worker process


_POINTS = decision_points(heuristic_record())


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(range(len(_POINTS))), st.integers(0, 2**31), st.integers(2, 6))
def test_any_judgement_is_well_formed(index: int, seed: int, samples: int) -> None:
    """Whatever the decision, seed and deals: the best option has the highest mean, the loss
    is the paired mean difference, never negative, zero when the best was chosen, and a label
    only where the loss less its half width reaches a threshold."""
    point = _POINTS[index]
    judgement = judge(point, samples=samples, seed=seed)
    assert judgement.samples == (0 if judgement.exact else samples) and 0 <= judgement.best < len(point.options)
    assert judgement.means[judgement.best] == max(judgement.means)
    assert judgement.loss >= 0 and all(width >= 0 for width in judgement.half_widths)
    assert judgement.loss == pytest.approx(judgement.means[judgement.best] - judgement.means[point.chosen])
    if judgement.best == point.chosen:
        assert judgement.loss == 0 and judgement.label is None
    if judgement.label is not None:
        assert judgement.loss - judgement.loss_half_width >= THRESHOLDS[judgement.label]


def _redealt(record: dict[str, Any], point: DecisionPoint) -> dict[str, Any] | None:
    """The record cut right after ``point``'s event (an aborted game), with two unplayed cards of
    the seat's opponents swapped in the deal (cards each was dealt and kept); ``None`` if no
    such swap replays."""
    steps, _ = record_steps(record)
    events = [number for number, step in enumerate(steps) if step["round"] == point.round
              and step["kind"] in _EVENT_STEPS]
    event = events.index(point.step)
    data = record["rounds"][point.round]
    left, right = (point.seat + 1) % 4, (point.seat + 3) % 4

    def kept(seat: int) -> list[str]:
        dealt = (data["deal"][seat] + " " + data["deal_rest"][seat]).split()
        held = steps[point.step - 1]["hands"][seat]
        return [card for card in dealt if card in held and card not in data["push"][seat]]

    for mine in kept(left):
        for theirs in kept(right):
            changed = copy.deepcopy(record)
            unfinished = changed["rounds"][point.round]
            for part in ("deal", "deal_rest"):
                unfinished[part] = [" ".join(theirs if card == mine else mine if card == theirs else card
                                             for card in hand.split()) for hand in unfinished[part]]
            unfinished["events"] = unfinished["events"][:event + 1]
            for key in ("out_order", "double_victory", "card_points", "bonus", "score"):
                unfinished.pop(key, None)
            del changed["rounds"][point.round:]
            totals = [sum(r["score"][team] for r in changed["rounds"]) for team in (0, 1)]
            changed.update(rounds=changed["rounds"], unfinished_round=unfinished, aborted=True, winner=None,
                           score=totals)
            _, fault = record_steps(changed)
            if fault is not None and fault.rule == "R7.4" and fault.event_index is None:
                return changed
    return None


def test_redealing_the_hidden_cards_changes_no_judgement_R8() -> None:
    """Two cards of the judged seat's opponents, unseen by it, swapped in the deal: the point
    (its view and options) and its judgement with the same seed are identical."""
    record = heuristic_record()
    points = [point for point in decision_points(record) if point.kind == "play" and point.round == 0]
    tried = 0
    for point in reversed(points):
        changed = _redealt(record, point)
        if changed is None:
            continue
        assert record_steps(changed)[0][point.step - 1]["hands"] != record_steps(record)[0][point.step - 1]["hands"]
        again = next(other for other in decision_points(changed)
                     if (other.step, other.seat, other.kind) == (point.step, point.seat, point.kind))
        assert again == point
        assert judge(again, samples=SAMPLES, seed=3) == judge(point, samples=SAMPLES, seed=3)
        tried += 1
        if tried == 2:
            break
    assert tried == 2
