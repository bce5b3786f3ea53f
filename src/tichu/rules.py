"""The stable public API of the rules (rules.md R1, R3, R4.1, R5): cards, combinations, legal plays.

Cards are ``(value, suit)`` tuples (:class:`Card`), labels follow records.md. Inside,
the rules core works on bitmasks (:mod:`tichu.core.cards`, :mod:`tichu.core.combos`);
this module translates. Documented in ``docs/rules-api.md``.

>>> format_cards(parse_cards("Ph R5 G5"))
'Ph R5 G5'
>>> classify(parse_cards("Ph R5 G5"))
Combination(type=<CombinationType.TRIPLE: 3>, length=3, rank=5)
>>> classify(parse_cards("Ph"), classify(parse_cards("RA")))
Combination(type=<CombinationType.SINGLE: 1>, length=1, rank=14.5)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from tichu.core.cards import DOG, PHOENIX, Card, cards_of, format_labels, mask_of, parse_labels, points_of
from tichu.core.combos import (
    BOMB,
    DRAGON_RANK,
    SINGLE,
    CombinationType,
    Play,
    classify_mask,
    combinations_of,
    legal_plays_from,
)
from tichu.core.errors import RuleViolation

__all__ = ["Card", "Combination", "CombinationType", "beats", "card_points", "classify", "format_cards",
           "legal_plays", "parse_cards"]


class Combination(NamedTuple):
    """Type, length and rank of a combination (R3).

    :ivar type: The :class:`CombinationType`.
    :ivar length: The number of cards.
    :ivar rank: An ``int``, except a Phoenix single: the previous single's rank + 0.5,
        or 1.5 when led (R3.6).
    """

    type: CombinationType
    length: int
    rank: int | float


def parse_cards(labels: str) -> list[Card]:
    """Parse space-separated card labels (records.md) in the order given.

    :param labels: For example ``"SZ RA Ph"``; ``""`` gives ``[]``.
    :returns: The cards.
    :raises RuleViolation: For an unknown label.
    """
    return parse_labels(labels)


def format_cards(cards: Iterable[tuple[int, int]]) -> str:
    """Format cards as labels joined by single spaces, in the order given.

    :raises RuleViolation: For a pair that is no card.
    """
    return format_labels(cards)


def card_points(cards: Iterable[tuple[int, int]]) -> int:
    """Return the card points of some cards (R1.2).

    :raises RuleViolation: For an unknown card or a card given twice.
    """
    return points_of(mask_of(cards))


def classify(cards: Sequence[tuple[int, int]], trick: Combination | None = None) -> Combination | None:
    """Classify cards as a combination (R3), read as high as the cards allow (R3.5a).

    :param cards: The cards.
    :param trick: (Optional) The combination on the table; it gives a Phoenix single its
        rank (R3.6).
    :returns: The combination, or ``None`` if the cards are none (also for a card given
        twice or a card that does not exist).
    """
    try:
        mask = mask_of(cards)
    except RuleViolation:
        return None
    found = classify_mask(mask)
    if found is None:
        return None
    kind, length, rank = found
    if mask == PHOENIX:
        return Combination(CombinationType.SINGLE, 1, _phoenix_rank(trick))
    return Combination(CombinationType(kind), length, rank)


def _phoenix_rank(trick: Combination | None) -> float:
    if trick is not None and trick.type == CombinationType.SINGLE and 1 <= trick.rank < DRAGON_RANK:
        return int(trick.rank) + 0.5
    return 1.5


def beats(combination: Combination, trick: Combination | None) -> bool:
    """Tell whether a combination beats the one on the table (R3.8, R3.9, R3.10).

    :param combination: The combination to play.
    :param trick: The combination on the table, or ``None`` on a lead.
    :returns: ``True`` if it is higher (a bomb beats every non-bomb).
    """
    if trick is None:
        return True
    if combination.type == CombinationType.BOMB:
        if trick.type != CombinationType.BOMB:
            return True
        return (combination.length, combination.rank) > (trick.length, trick.rank)
    return (combination.type == trick.type and combination.length == trick.length
            and combination.rank > trick.rank)


def legal_plays(hand: Iterable[tuple[int, int]], trick: Combination | None = None,
                wish: int | None = None) -> list[list[Card]]:
    """List every legal play at one's turn (R3, R4.1, R5), ``[]`` (pass) last where allowed.

    :param hand: The hand.
    :param trick: (Optional) The combination on the table; ``None`` or the Dog mean a lead.
    :param wish: (Optional) The open wish value 2..14 (R5.2); ``None`` or 0 for none.
    :returns: One card list per play, each sorted highest value first.
    :raises RuleViolation: For an unknown card or a card given twice in the hand.
    """
    mask = mask_of(hand)
    plays = legal_plays_from(combinations_of(mask), mask, _internal_trick(trick), wish or 0)
    return [cards_of(play.cards) for play in plays]


def _internal_trick(trick: Combination | None) -> Play | None:
    if trick is None or (trick.type == CombinationType.SINGLE and trick.rank == 0):
        return None  # after the Dog the partner leads (R3.10)
    is_phoenix = trick.type == CombinationType.SINGLE and trick.rank != int(trick.rank)
    kind = int(trick.type)
    return Play(PHOENIX if is_phoenix else DOG if kind == SINGLE and trick.rank == 0 else 0,
                BOMB if kind == BOMB else kind, trick.length, int(trick.rank))
