"""Helpers of the analysis tests at the server: short records with a person, and steps that note
when each point was judged (importable by the pool's background process)."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tichu.analysis import DecisionPoint, Judgement
from tichu.arena.arena import Arena
from tichu.records.parts import AnalysisDocument
from tichu.server.workers.analysis_runner import ANALYSIS, Steps

Record = dict[str, Any]


def one_round_records(count: int, seed: int = 11, person: str = "Anna") -> list[Record]:
    """``count`` one-round games of four random agents (a target score of 1), seat 0 of each
    played by the person ``person`` as far as the record says: the analysis judges that seat."""
    found: list[Record] = []
    Arena(["random"] * 4, games=count, seed=seed, workers=1, target_score=1, records=True).run(on_record=found.append)
    for record in found:
        record["players"][0] = {"name": person, "kind": "human"}
    return found


@dataclass(frozen=True)
class TimedJudgement(Judgement):
    """A judgement with ``time.monotonic()`` as it began (one clock for every process).

    :ivar began: When the judgement began.
    """

    began: float = 0.0


class TimedDocument(AnalysisDocument):
    """The analysis document with the times the points' judgements began."""

    judged_at: list[float]


def timed_judge(point: DecisionPoint, samples: int) -> Judgement:
    """The real judgement, noting when it began (:class:`TimedJudgement`)."""
    began = time.monotonic()
    return TimedJudgement(**vars(ANALYSIS.judge(point, samples)), began=began)


def timed_document(record: Mapping[str, object], judged: list[Judgement], samples: int) -> AnalysisDocument:
    """The real document, with the times the points' judgements began (``judged_at``)."""
    document = ANALYSIS.document(record, judged, samples)
    timed: TimedDocument = {**document, "judged_at": [judgement.began for judgement in judged
                                                      if isinstance(judgement, TimedJudgement)]}
    return timed


#: The analysis's steps, noting when each point's judgement began.
TIMED: Steps = Steps(ANALYSIS.points, timed_judge, timed_document)


def page_round(value: float) -> int:
    """A value rounded as the page rounds it (``Math.round``: halves up)."""
    return math.floor(value + 0.5)


def value_text(option: Mapping[str, Any], exact: bool) -> str:
    """An option's value as the analysis page writes it: ``+96 ± 93``, ``−219 exact``."""
    mean = page_round(option["mean"])
    sign = "+" if mean > 0 else ("\u2212" if mean < 0 else "")
    return f"{sign}{abs(mean)} " + ("exact" if exact else f"± {page_round(option['half_width'])}")
