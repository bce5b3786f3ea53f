"""Record today's Monte Carlo decisions on seeded positions (the ``montecarlo:v1`` golden file).

Run once from the code before the search over every decision (issue 13 part 2) was added:

    .venv/bin/python -m tests.data.make_mc_v1_golden tests/data/mc_v1_golden.json

It reuses the decision points of the R8 test's seeded games (``tests/agents/test_agent_r8.py``)
and asks a fresh ``montecarlo:n4`` agent (seed 7) at a seeded selection of them; the test
``test_montecarlo_v1_makes_todays_decisions`` asks ``montecarlo:v1:n4`` the same and compares.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from collections.abc import Sequence
from typing import Any

from tests.agents.test_agent_r8 import KINDS, PHASE_NAMES, V1_TABLES, Point, Table, _record_games, decide
from tichu.agents.registry import make_agent
from tichu.core.combos import Play
from tichu.core.views import SeatView

#: Decision points per kind in the golden file.
CAPS = {"grand": 6, "schupf": 6, "play": 30, "wish": 6, "dragon": 6, "tichu": 10, "bomb": 10}


def golden_indices(points: Sequence[Point]) -> list[int]:
    """Indices of the chosen points (plays with at least three legal plays, so the search runs)."""
    rng = random.Random(2024)
    chosen: list[int] = []
    for kind in KINDS:
        of_kind = [index for index, point in enumerate(points) if point.kind == kind
                   and (kind != "play" or len(point.round.legal_plays()) > 2)]
        chosen += sorted(rng.sample(of_kind, min(CAPS[kind], len(of_kind))))
    return chosen


def encode(answer: Any) -> Any:
    """A decision as JSON: a play by its cards, a push as a list."""
    if isinstance(answer, Play):
        return answer.cards
    if isinstance(answer, tuple):
        return list(answer)
    return answer


def answers(points: Sequence[Point], kind: str) -> list[dict[str, Any]]:
    """The decisions of a fresh agent of ``kind`` (seed 7) at the golden points."""
    found = []
    for index in golden_indices(points):
        point = points[index]
        info = dataclasses.replace(point.info, phase=PHASE_NAMES[point.round.phase])
        view = SeatView.of(Table(info, point.round), point.seat)
        answer = decide(make_agent(kind, seed=7), point.kind, view, point.round.clone())
        found.append({"index": index, "kind": point.kind, "answer": encode(answer)})
    return found


def main(path: str) -> None:
    points = _record_games(V1_TABLES)
    with open(path, "w", encoding="utf-8") as file:
        json.dump({"agent": "montecarlo:n4", "points": answers(points, "montecarlo:n4")}, file, indent=0)
        file.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/mc_v1_golden.json")
