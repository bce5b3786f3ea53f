"""Write ``legal_counts.json``: hands with their known numbers of legal plays ("perft" for R3-R5).

The counts come from a deliberately naive reference written here from rules.md alone,
without importing the project's rules code: every subset of the hand is tried, read as
every combination it can be (the Phoenix replaced by each value 2..14 in turn), kept if a
reading beats the trick (R3.8) and the wish allows it (R5.2, R5.3, R5.5). Slow, but easy
to check by eye, which is the point: the project's generator is fast and clever, this
one is neither.

Run from the checkout: ``.venv/bin/python tests/data/make_legal_counts.py``. It rewrites
the JSON next to it and prints every case where :func:`tichu.rules.legal_plays` disagrees
(the cross-check is the only place the project's code is used). The test
``tests/core/test_legal_counts.py`` reads the JSON only and never imports this script;
``tests/core/test_properties.py`` reuses the reference functions on random card sets.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any, NamedTuple

#: Values of the special cards (R1.1); the Phoenix has none of its own.
SPECIAL_VALUES = {"Hu": 0, "Ma": 1, "Dr": 15}
PHOENIX = "Ph"
VALUE_LETTERS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                 "Z": 10, "B": 11, "D": 12, "K": 13, "A": 14}
SUIT_LETTERS = "SBGR"
BOMB_KINDS = ("four_of_a_kind", "straight_flush")


class Reading(NamedTuple):
    """One way to read a set of cards (R3): kind name, number of cards, rank."""

    kind: str
    length: int
    rank: float


def value_of(label: str) -> int:
    """Return a card's value from its label (records.md); the Phoenix has none (-1)."""
    if label == PHOENIX:
        return -1
    if label in SPECIAL_VALUES:
        return SPECIAL_VALUES[label]
    if len(label) != 2 or label[0] not in SUIT_LETTERS or label[1] not in VALUE_LETTERS:
        raise ValueError(f"unknown card label {label!r}")
    return VALUE_LETTERS[label[1]]


def suit_of(label: str) -> str:
    """Return a standard card's suit letter."""
    return label[0]


def is_standard(label: str) -> bool:
    """Tell whether a card is one of the 52 suited cards."""
    return label != PHOENIX and label not in SPECIAL_VALUES


def _plain_readings(values: list[int], suits: list[str] | None) -> list[Reading]:
    """Read cards without a joker; ``suits`` is None when the Phoenix took part (no bomb then)."""
    count = len(values)
    counts = Counter(values)
    distinct = sorted(counts)
    found: list[Reading] = []
    if count in (2, 3) and len(distinct) == 1 and distinct[0] >= 2:
        found.append(Reading("pair" if count == 2 else "triple", count, distinct[0]))
    if count == 4 and len(distinct) == 1 and suits is not None:
        found.append(Reading("four_of_a_kind", 4, distinct[0]))
    consecutive = distinct[-1] - distinct[0] == len(distinct) - 1
    if (count >= 4 and count % 2 == 0 and all(n == 2 for n in counts.values()) and consecutive
            and distinct[0] >= 2):
        found.append(Reading("stair", count, distinct[-1]))
    if count == 5 and sorted(counts.values()) == [2, 3] and distinct[0] >= 2:
        triple_value = next(v for v, n in counts.items() if n == 3)
        found.append(Reading("full_house", 5, triple_value))
    if count >= 5 and len(distinct) == count and consecutive:
        one_suit = suits is not None and 1 not in values and len(set(suits)) == 1
        found.append(Reading("straight_flush" if one_suit else "straight", count, distinct[-1]))
    return found


def readings(cards: tuple[str, ...]) -> list[Reading]:
    """Return every reading of some cards as a combination (R3); ``[]`` if none.

    A Phoenix single is read with rank -1: its real rank depends on the trick (R3.6).
    """
    if len(cards) == 1:
        value = value_of(cards[0])
        return [Reading("single", 1, value)]
    if any(label in ("Hu", "Dr") for label in cards):
        return []  # R3.9, R3.10: never part of a combination
    naturals = [label for label in cards if label != PHOENIX]
    values = [value_of(label) for label in naturals]
    if PHOENIX not in cards:
        suits = [suit_of(label) for label in naturals if is_standard(label)]
        plain_suits = suits if len(suits) == len(naturals) else None
        found = _plain_readings(values, plain_suits)
        if plain_suits is None:
            found = [r for r in found if r.kind not in BOMB_KINDS]  # the Mah Jong is never in a bomb
        return found
    found = []
    for joker in range(2, 15):  # R3.6: the Phoenix stands for one value 2..14, never in a bomb
        found += _plain_readings(sorted(values + [joker]), None)
    return sorted(set(found))


def is_bomb(reading: Reading) -> bool:
    """Tell whether a reading is a bomb (R3.7)."""
    return reading.kind in BOMB_KINDS


def beats(play: Reading, trick: Reading) -> bool:
    """Tell whether a reading beats the combination on the table (R3.8, R3.9)."""
    if is_bomb(play):
        if not is_bomb(trick):
            return True
        if play.kind != trick.kind:
            return play.kind == "straight_flush"
        return (play.length, play.rank) > (trick.length, trick.rank)
    if is_bomb(trick):
        return False
    return play.kind == trick.kind and play.length == trick.length and play.rank > trick.rank


def trick_reading(cards: tuple[str, ...], previous: tuple[str, ...] | None) -> Reading:
    """Read the combination on the table as played: its highest reading (R3.5a).

    :param previous: The single a Phoenix single was played on (its rank + 0.5), if any.
    """
    if cards == (PHOENIX,):
        before = trick_reading(previous, None) if previous else None
        return Reading("single", 1, before.rank + 0.5 if before else 1.5)
    found = readings(cards)
    if not found:
        raise ValueError(f"trick {cards} is no combination")
    return max(found, key=lambda r: (r.rank, r.length))


def play_readings(cards: tuple[str, ...], trick: Reading | None) -> list[Reading]:
    """Readings of a play with the Phoenix single's rank filled in (R3.6)."""
    if cards == (PHOENIX,):
        if trick is None or trick.kind != "single":
            return [Reading("single", 1, 1.5)]
        if trick.rank >= 15:
            return []  # not on the Dragon (R3.6, R3.9)
        return [Reading("single", 1, trick.rank + 0.5)]
    return readings(cards)


def is_legal_shape(cards: tuple[str, ...], trick: Reading | None) -> Reading | None:
    """Return the highest reading that may be played now (R3.5a, R4.1, R3.10), or None."""
    found = play_readings(cards, trick)
    if trick is None:
        return max(found, key=lambda r: r.rank) if found else None
    if cards == ("Hu",):
        return None  # the Dog only leads (R3.10)
    legal = [r for r in found if beats(r, trick)]
    return max(legal, key=lambda r: r.rank) if legal else None


def holds_value(cards: tuple[str, ...], value: int) -> bool:
    """Tell whether some cards include a suited card of a value (the Phoenix never counts, R5.5)."""
    return any(is_standard(label) and value_of(label) == value for label in cards)


def legal_plays(hand: tuple[str, ...], trick: Reading | None, wish: int) -> list[tuple[tuple[str, ...], str]]:
    """List every legal play at one's turn as ``(cards, kind)``; the pass is ``((), "pass")``.

    R4.1: beat the trick or pass; R5.2/R5.3: with an open wish held in the hand, a play
    containing it is due whenever one is legal (on a lead: always), bombs included.
    """
    plays: list[tuple[tuple[str, ...], str]] = []
    for size in range(1, len(hand) + 1):
        for cards in combinations(hand, size):
            reading = is_legal_shape(cards, trick)
            if reading is not None:
                plays.append((cards, reading.kind))
    if wish and holds_value(hand, wish):
        fulfilling = [play for play in plays if holds_value(play[0], wish)]
        if fulfilling or trick is None:
            return fulfilling
    if trick is not None:
        plays.append(((), "pass"))
    return plays


# -- the cases ---------------------------------------------------------------------------

FULL_STRAIGHT = "Ma S2 B3 G4 R5 S6 B7 G8 R9 SZ BB GD RK SA"
SEVEN_PAIRS = "S2 B2 S3 B3 S4 B4 S5 B5 S6 B6 S7 B7 S8 B8"
PAIRS_PHOENIX = "S2 B2 S3 B3 S5 B5 S6 B6 S8 B8 S9 Ph Hu Dr"
TWO_BOMBS = "S7 B7 G7 R7 S9 B9 G9 R9 Ph S8 B8 Ma Hu Dr"
FLUSH_AND_FOUR = "G3 G4 G5 G6 G7 G8 S5 B5 R5 Ph Ma S2 RA Dr"
MAHJONG_PHOENIX = "Ma S2 B3 G4 R6 S7 B8 Ph GZ RD SK BA Hu Dr"
FULL_HOUSES = "S3 B3 G3 S4 B4 R4 Ph S9 B9 SK BK GK Hu Dr"
THREE_BOMBS = "S2 B2 G2 R2 S3 S4 S5 S6 SA BA GA RA Ph Dr"
STAIRS_PHOENIX = "S2 B2 S3 B3 S4 S5 B5 S6 B6 S7 Ph Hu Dr RA"

#: ``(id, hand, trick or None, card the Phoenix trick was played on or None, wish)``.
CASES: list[tuple[str, str, str | None, str | None, int]] = [
    # leads (R4.1): every combination, no pass
    ("lead-straight-mahjong-to-ace", FULL_STRAIGHT, None, None, 0),
    ("lead-seven-pairs-two-flushes", SEVEN_PAIRS, None, None, 0),
    ("lead-pairs-phoenix-dog-dragon", PAIRS_PHOENIX, None, None, 0),
    ("lead-two-bombs-phoenix", TWO_BOMBS, None, None, 0),
    ("lead-straight-flush-and-four-phoenix", FLUSH_AND_FOUR, None, None, 0),
    ("lead-mahjong-straights-phoenix", MAHJONG_PHOENIX, None, None, 0),
    ("lead-full-houses-phoenix", FULL_HOUSES, None, None, 0),
    ("lead-three-bombs-phoenix", THREE_BOMBS, None, None, 0),
    ("lead-specials-only", "Hu Ma Dr Ph", None, None, 0),
    ("lead-pair-and-phoenix", "S5 B5 Ph", None, None, 0),
    ("lead-single-dragon", "Dr", None, None, 0),
    ("lead-phoenix-fills-straight-ends", "SZ BB GD RK Ph S9 BA", None, None, 0),
    # singles, the Phoenix and the Dragon (R3.6, R3.9, R3.10)
    ("single-ace-two-bombs", TWO_BOMBS, "RA", None, 0),
    ("single-dragon-only-bombs", TWO_BOMBS, "Dr", None, 0),
    ("single-low-three-bombs", THREE_BOMBS, "G9", None, 0),
    ("single-on-led-phoenix", "Ma S2 Dr Hu B9", "Ph", None, 0),
    ("single-on-phoenix-over-king", "SK BA Dr Ma S4", "Ph", "GK", 0),
    ("single-on-mahjong-phoenix-dog", "Hu Ph S2 Dr", "Ma", None, 0),
    ("single-pass-only", "S2 S3 Hu", "SA", None, 0),
    # pairs, triples, stairs, full houses, straights (R3.2-R3.5)
    ("pair-low-flush-and-four", FLUSH_AND_FOUR, "G2 R2", None, 0),
    ("pair-on-fours-phoenix", PAIRS_PHOENIX, "G4 R4", None, 0),
    ("triple-on-sixes", TWO_BOMBS, "S6 B6 G6", None, 0),
    ("stair-four-on-seven-pairs", SEVEN_PAIRS, "G5 R5 G6 R6", None, 0),
    ("stair-six-phoenix-fills-gaps", STAIRS_PHOENIX, "G2 R2 G3 R3 G4 R4", None, 0),
    ("stair-six-none-higher", PAIRS_PHOENIX, "G2 R2 G3 R3 G4 R4", None, 0),
    ("full-house-on-twos", FULL_HOUSES, "S2 B2 G2 R5 G5", None, 0),
    ("full-house-two-pairs-phoenix-high", "S5 B5 S6 B6 Ph S9 B9", "G6 R6 S6 G2 R2", None, 0),
    ("straight-five-on-full-straight", FULL_STRAIGHT, "B3 G4 S5 B6 G7", None, 0),
    ("straight-five-mahjong-hand-phoenix", MAHJONG_PHOENIX, "B3 G4 S5 B6 S7", None, 0),
    ("straight-seven-none-higher", MAHJONG_PHOENIX, "S2 G3 S4 B5 G6 S7 G8", None, 0),
    ("straight-phoenix-on-top-beats-king", "SZ BB GD RK Ph S9 BA", "S8 B9 GZ RB SD", None, 0),
    # bombs on bombs (R3.8)
    ("bomb-four-on-two-bombs", TWO_BOMBS, "S4 B4 G4 R4", None, 0),
    ("bomb-straight-flush-on-three-bombs", THREE_BOMBS, "B2 B3 B4 B5 B6", None, 0),
    ("bomb-flush-on-seven-pairs", SEVEN_PAIRS, "G9 GZ GB GD GK", None, 0),
    # the wish (R5.2, R5.3, R5.5)
    ("wish-lead-held", FULL_STRAIGHT, None, None, 8),
    ("wish-lead-not-held-phoenix", "S2 Hu Ph", None, None, 8),
    ("wish-lead-bomb-and-flush", "S8 B8 G8 R8 S9 SZ SB SD", None, None, 8),
    ("wish-single-must", "B8 S9 Ph R8 G8 Hu", "S7", None, 8),
    ("wish-single-only-bomb", "S8 B8 G8 R8 S2 Ph", "SK", None, 8),
    ("wish-pair-with-phoenix", "R8 Ph S3 B3", "S5 B5", None, 8),
    ("wish-held-cannot-beat", "S8 SA Ph", "RK", None, 8),
    ("wish-straight-with-phoenix", "S4 B5 G6 R8 Ph SK", "S3 B4 G5 R6 S7", None, 8),
    ("wish-dragon-bomb-forced", "S8 B8 G8 R8 Ph", "Dr", None, 8),
    ("wish-two-bombs-on-low-single", TWO_BOMBS, "S3", None, 9),
    ("wish-full-hand-on-pair", FULL_HOUSES, "S2 B2", None, 9),
]


def case_record(case_id: str, hand: str, trick: str | None, previous: str | None, wish: int) -> dict[str, Any]:
    """Compute one JSON case with the reference."""
    hand_cards = tuple(hand.split())
    if len(set(hand_cards)) != len(hand_cards):
        raise ValueError(f"{case_id}: a card twice in the hand")
    table = trick_reading(tuple(trick.split()), tuple(previous.split()) if previous else None) if trick else None
    plays = legal_plays(hand_cards, table, wish)
    by_kind = Counter(kind for _, kind in plays)
    return {"id": case_id, "hand": hand, "trick": trick, "trick_prev": previous, "wish": wish,
            "count": len(plays), "can_pass": by_kind["pass"] == 1,
            "by_type": dict(sorted(by_kind.items()))}


def project_count(record: dict[str, Any]) -> int:
    """Count the legal plays with the project's :func:`tichu.rules.legal_plays` (the cross-check)."""
    from tichu.rules import classify, parse_cards
    from tichu.rules import legal_plays as project_legal_plays

    trick = None
    if record["trick"]:
        previous = classify(parse_cards(record["trick_prev"])) if record["trick_prev"] else None
        trick = classify(parse_cards(record["trick"]), previous)
    return len(project_legal_plays(parse_cards(record["hand"]), trick, record["wish"]))


def main() -> int:
    """Write the JSON and report disagreements with the project; return the number of them."""
    records = [case_record(*case) for case in CASES]
    path = Path(__file__).with_name("legal_counts.json")
    data = {
        "format": "tichu-legal-counts/1",
        "about": ("Known numbers of legal plays (the pass counted as one play where allowed) "
                  "for hands on a trick (labels, or null for a lead) under an open wish (0 none). "
                  "trick_prev is the single a Phoenix trick was played on. Written by "
                  "make_legal_counts.py from a brute-force reading of rules.md R3-R5."),
        "cases": records,
    }
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    disagreements = 0
    for record in records:
        found = project_count(record)
        if found != record["count"]:
            disagreements += 1
            print(f"{record['id']}: reference {record['count']}, project {found}")
    print(f"{len(records)} cases written to {path}; {disagreements} disagreements")
    return disagreements


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
