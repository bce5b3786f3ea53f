"""Runs every case of ``shared/vectors/*.json`` (R3, R4.1, R5) against :mod:`tichu.rules`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tichu.rules import CombinationType, beats, classify, legal_plays, parse_cards

_TYPE_NAMES = {
    "single": (CombinationType.SINGLE, None), "pair": (CombinationType.PAIR, None),
    "triple": (CombinationType.TRIPLE, None), "stair": (CombinationType.STAIR, None),
    "full_house": (CombinationType.FULLHOUSE, None), "straight": (CombinationType.STREET, None),
    "four_of_a_kind": (CombinationType.BOMB, 4), "straight_flush": (CombinationType.BOMB, 5),
}


def _cases(shared: Path, section: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for path in sorted((shared / "vectors").glob("*.json")):
        cases += json.loads(path.read_text(encoding="utf-8")).get(section, [])
    return cases


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    from tests.conftest import _find_shared

    for section in ("combinations", "legal_plays"):
        if f"{section}_case" in metafunc.fixturenames:
            shared = _find_shared()
            cases: list[dict[str, Any] | None] = list(_cases(shared, section)) if shared else []
            metafunc.parametrize(f"{section}_case", cases or [None],
                                 ids=[case["id"] for case in cases if case] or ["missing"])


def _set(labels: str) -> frozenset[tuple[int, int]]:
    return frozenset(parse_cards(labels))


def test_vectors_are_there(shared_dir: Path) -> None:
    assert _cases(shared_dir, "combinations") and _cases(shared_dir, "legal_plays")


def test_combination_vector(combinations_case: dict[str, Any] | None, shared_dir: Path) -> None:
    """R3: classification, the Phoenix single's rank (R3.6) and comparison (R3.8)."""
    assert combinations_case is not None
    case = combinations_case
    trick = None
    if case["trick"] is not None:
        previous = classify(parse_cards(case["trick_prev"])) if case.get("trick_prev") else None
        trick = classify(parse_cards(case["trick"]), previous)
        assert trick is not None
    found = classify(parse_cards(case["cards"]), trick)
    expect = case["expect"]
    if expect is None:
        assert found is None
        return
    assert found is not None
    kind, min_length = _TYPE_NAMES[expect["type"]]
    assert found.type == kind
    if min_length is not None:
        assert (found.length == 4) == (min_length == 4)
    if "length" in expect:
        assert found.length == expect["length"]
    if "rank" in expect:
        assert found.rank == expect["rank"]
    if "beats" in case:
        assert beats(found, trick) is case["beats"]


def test_legal_plays_vector(legal_plays_case: dict[str, Any] | None, shared_dir: Path) -> None:
    """R4.1 and the wish (R5.2, R5.3, R5.5): what is legal, what is not, and passing."""
    assert legal_plays_case is not None
    case = legal_plays_case
    trick = classify(parse_cards(case["trick"])) if case["trick"] else None
    plays = legal_plays(parse_cards(case["hand"]), trick, case["wish"])
    play_sets = {frozenset(play) for play in plays}
    for labels in case["expect_legal_contains"]:
        assert _set(labels) in play_sets, labels
    for labels in case["expect_legal_excludes"]:
        assert _set(labels) not in play_sets, labels
    assert (frozenset() in play_sets) is case["expect_can_pass"]
    if case["expect_must_fulfil"]:
        assert all(any(card.value == case["wish"] for card in play) for play in plays)
