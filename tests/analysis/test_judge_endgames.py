"""The judge on every two-seat endgame of the games, checked against an independent solver
(issue 34, part 4: "a decision is labelled only when its loss is established beyond the
noise of the method that judged it"; its "Done means": the judge's losses and labels agree
with an independent small solver on every such position of the nine Brettspielwelt games and
of seeded Arena games).

The exact values come from :class:`~tests.support.endgames.MemoSolver`, which shares no code
with the agents' solver: live for positions of up to :data:`~tests.support.endgames.LIVE`
cards, else from ``tests/data/endgame_values.json``, which the same solver wrote once
(``tests/data/make_endgame_values.py``) and whose small positions are solved again here.
An exact judgement must give the solver's values, its loss and the loss's label; a sampled
one (a position beyond the judge's node budget) may say nothing, and must never give a label
that the exact loss does not reach.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.endgames import (
    LIVE,
    MemoSolver,
    apply_option,
    arena_points,
    bsw_points,
    cards_left,
    fingerprint,
    stored_values,
)
from tichu.agents.support.endgame import EndgameSolver
from tichu.analysis import THRESHOLDS, DecisionPoint, judge, label_of

#: Deals of the judge's sampling where it samples (a label then needs a loss clear of its noise).
SAMPLES = 4
#: The node budget of the judge's exact solves here: the analysis's own would take minutes on
#: the largest positions (docs/benchmarks.md, "Exact endgames"); beyond this one the judge
#: samples, and its labels are checked all the same. One solver judges a source's positions
#: in order, as the analysis judges a game's (``analyse_record``).
NODES = 50_000
def exact_values(points: tuple[DecisionPoint, ...]) -> list[list[int] | None]:
    """Per point the exact value of each option: solved live up to :data:`LIVE` cards (and
    checked against the stored values there), else the stored ones (``None`` for a position
    the script did not solve in its time, or did not reach)."""
    stored = stored_values()
    solver = MemoSolver()
    found = []
    for point in points:
        name = fingerprint(point)
        values = stored.get(name)
        if cards_left(point) <= LIVE:
            live = [solver.value(apply_option(point, index), point.seat) for index in range(len(point.options))]
            assert values is None or values == live, (point.round, point.step, values, live)
            values = live
        found.append(values)
    return found


def check(points: tuple[DecisionPoint, ...]) -> tuple[int, int, int]:
    """Judge every point with known exact values and check it against them: the counts judged
    exactly, judged by sampling, and left unchecked (no exact values known)."""
    exact = sampled = unknown = 0
    endgame = EndgameSolver(NODES)  # one table for the games, in their order, as the analysis judges a game
    for point, values in zip(points, exact_values(points)):
        if values is None:
            unknown += 1
            continue
        judgement = judge(point, samples=SAMPLES, endgame=endgame)
        loss = max(values) - values[point.chosen]
        if judgement.exact:
            assert judgement.means == tuple(float(value) for value in values), point.step
            assert judgement.loss == loss and judgement.label == label_of(loss, 0.0), point.step
            exact += 1
        else:
            assert judgement.label is None or loss >= THRESHOLDS[judgement.label], (point.step, judgement.label, loss)
            sampled += 1
    return exact, sampled, unknown


def test_the_judge_agrees_with_the_exact_values_on_every_brettspielwelt_endgame(shared_dir: Path) -> None:
    """Issue 34, part 4: on every two-seat decision of the nine Brettspielwelt games the
    judge's exact values, losses and labels are the independent solver's, and where it
    samples it never labels a loss the exact value does not support."""
    exact, sampled, unknown = check(bsw_points(str(shared_dir / "data" / "bsw")))
    assert unknown == 0 and exact >= 250, (exact, sampled, unknown)


def test_the_judge_agrees_with_the_exact_values_on_every_arena_endgame() -> None:
    """Issue 34, part 4: the same on every two-seat decision of seeded Arena games."""
    exact, _, unknown = check(arena_points())
    assert unknown == 0 and exact >= 20, (exact, unknown)
