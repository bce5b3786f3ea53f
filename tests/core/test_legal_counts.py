"""Known numbers of legal plays ("perft") for the generator (R3, R4.1, R5.2, R5.3).

``tests/data/legal_counts.json`` holds hands, the trick on the table and the open wish,
with the number of legal plays (the pass counted as one play where allowed) and their
split by type. The numbers come from the brute-force reference in
``tests/data/make_legal_counts.py``; this test only reads the JSON, so a change in the
generator cannot move the expectations with it.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tichu.rules import Combination, CombinationType, classify, legal_plays, parse_cards

DATA = Path(__file__).resolve().parents[1] / "data" / "legal_counts.json"
_NAMES = {CombinationType.SINGLE: "single", CombinationType.PAIR: "pair", CombinationType.TRIPLE: "triple",
          CombinationType.STAIR: "stair", CombinationType.FULLHOUSE: "full_house",
          CombinationType.STREET: "straight"}


def _cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["cases"]
    return cases


def _trick(case: dict[str, Any]) -> Combination | None:
    """The combination on the table; a Phoenix trick gets its rank from ``trick_prev`` (R3.6)."""
    if not case["trick"]:
        return None
    previous = classify(parse_cards(case["trick_prev"])) if case["trick_prev"] else None
    trick = classify(parse_cards(case["trick"]), previous)
    assert trick is not None, f"the trick {case['trick']} is no combination"
    return trick


def _type_name(cards: list[Any], trick: Combination | None) -> str:
    """The data file's name for a play's type (bombs split as four of a kind / straight flush)."""
    if not cards:
        return "pass"
    combination = classify(cards, trick)
    assert combination is not None
    if combination.type == CombinationType.BOMB:
        return "four_of_a_kind" if combination.length == 4 else "straight_flush"
    return _NAMES[combination.type]


def test_data_file_covers_enough_hands() -> None:
    cases = _cases()
    assert len(cases) >= 30
    assert len({case["id"] for case in cases}) == len(cases)
    assert sum(1 for case in cases if len(case["hand"].split()) == 14) >= 10
    assert any(case["wish"] for case in cases) and any(case["trick"] is None for case in cases)


@pytest.mark.parametrize("case", _cases(), ids=lambda case: case["id"])
def test_legal_play_count_matches_known_count(case: dict[str, Any]) -> None:
    trick = _trick(case)
    plays = legal_plays(parse_cards(case["hand"]), trick, case["wish"])
    as_sets = [frozenset(play) for play in plays]
    assert len(as_sets) == len(set(as_sets)), "a play is listed twice"
    assert len(plays) == case["count"]
    assert (frozenset() in as_sets) is case["can_pass"]
    assert dict(Counter(_type_name(play, trick) for play in plays)) == case["by_type"]
