"""Cards, labels and card sets as bitmasks (R1, records.md card notation).

Every card has a fixed index 0..55; a set of cards is an ``int`` with bit ``index``
set for each card it holds. Standard cards of value ``v`` (2..14) and suit ``s``
(1..4) sit at index ``4 * (v - 2) + (s - 1)``, so the four cards of one value
form one nibble; the special cards follow at 52..55.

:cvar DOG: Mask of the Dog (value 0).
:cvar MAHJONG: Mask of the Mah Jong (value 1).
:cvar DRAGON: Mask of the Dragon (value 15).
:cvar PHOENIX: Mask of the Phoenix (value 16 as an id).
:cvar DECK: Mask of all 56 cards.
:cvar VALUE_MASK: ``VALUE_MASK[v]`` is the mask of the four cards of value ``v`` (2..14).
:cvar SUIT_MASK: ``SUIT_MASK[s]`` is the mask of the 13 standard cards of suit ``s`` (1..4).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from tichu.core.errors import RuleViolation, Violation


class Card(NamedTuple):
    """One card as the ``(value, suit)`` pair of records.md.

    :ivar value: 0 Dog, 1 Mah Jong, 2..14, 15 Dragon, 16 Phoenix.
    :ivar suit: 0 for the special cards, 1 Swords, 2 Pagodas, 3 Jade, 4 Stars.
    """

    value: int
    suit: int


DOG_VALUE, MAHJONG_VALUE, DRAGON_VALUE, PHOENIX_VALUE = 0, 1, 15, 16
DOG_INDEX, MAHJONG_INDEX, DRAGON_INDEX, PHOENIX_INDEX = 52, 53, 54, 55
DOG = 1 << DOG_INDEX
MAHJONG = 1 << MAHJONG_INDEX
DRAGON = 1 << DRAGON_INDEX
PHOENIX = 1 << PHOENIX_INDEX
SPECIALS = DOG | MAHJONG | DRAGON | PHOENIX
DECK = (1 << 56) - 1

VALUE_MASK: tuple[int, ...] = tuple(0xF << (4 * (v - 2)) if 2 <= v <= 14 else 0 for v in range(17))
SUIT_MASK: tuple[int, ...] = tuple(
    sum(1 << (4 * (v - 2) + s - 1) for v in range(2, 15)) if s else 0 for s in range(5)
)

def _build_cards() -> tuple[Card, ...]:
    cards: list[Card] = []
    for index in range(52):
        cards.append(Card(index // 4 + 2, index % 4 + 1))
    cards += [Card(DOG_VALUE, 0), Card(MAHJONG_VALUE, 0), Card(DRAGON_VALUE, 0), Card(PHOENIX_VALUE, 0)]
    return tuple(cards)


#: ``CARDS[i]`` is the card at index ``i``.
CARDS: tuple[Card, ...] = _build_cards()
#: ``CARD_VALUE[i]`` is the value of the card at index ``i`` (int look-up for hot loops).
CARD_VALUE: tuple[int, ...] = tuple(card.value for card in CARDS)
#: Card points (R1.2) by index.
CARD_POINTS: tuple[int, ...] = tuple(
    {5: 5, 10: 10, 13: 10, DRAGON_VALUE: 25, PHOENIX_VALUE: -25}.get(card.value, 0) for card in CARDS
)
_INDEX_BY_CARD = {card: index for index, card in enumerate(CARDS)}

_SUIT_LETTERS = "SBGR"
_VALUE_LETTERS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
                  10: "Z", 11: "B", 12: "D", 13: "K", 14: "A"}
_SPECIAL_LABELS = {DOG_INDEX: "Hu", MAHJONG_INDEX: "Ma", DRAGON_INDEX: "Dr", PHOENIX_INDEX: "Ph"}


def _label(index: int) -> str:
    if index in _SPECIAL_LABELS:
        return _SPECIAL_LABELS[index]
    card = CARDS[index]
    return _SUIT_LETTERS[card.suit - 1] + _VALUE_LETTERS[card.value]


#: ``LABELS[i]`` is the two-letter label of the card at index ``i`` (records.md).
LABELS: tuple[str, ...] = tuple(_label(index) for index in range(56))
_INDEX_BY_LABEL = {label: index for index, label in enumerate(LABELS)}


def card_index(card: tuple[int, int]) -> int:
    """Return the index of a ``(value, suit)`` pair.

    :param card: A card or any pair of ints.
    :returns: Its index 0..55.
    :raises RuleViolation: (``UNKNOWN_CARD``) if no such card exists.
    """
    try:
        return _INDEX_BY_CARD[Card(*card)]
    except (KeyError, TypeError) as error:
        raise RuleViolation(Violation.UNKNOWN_CARD, "R1.1", f"unknown card {card!r}") from error


def mask_of(cards: Iterable[tuple[int, int]]) -> int:
    """Return the mask of some cards.

    :param cards: Cards as ``(value, suit)`` pairs.
    :returns: Their mask.
    :raises RuleViolation: ``UNKNOWN_CARD`` for a card that does not exist,
        ``DUPLICATE_CARD`` for a card given twice.
    """
    mask = 0
    for card in cards:
        bit = 1 << card_index(card)
        if mask & bit:
            raise RuleViolation(Violation.DUPLICATE_CARD, "R1.1", f"card {card!r} given twice")
        mask |= bit
    return mask


def indices_of(mask: int) -> list[int]:
    """Return the card indexes set in a mask, ascending."""
    indices = []
    while mask:
        low = mask & -mask
        indices.append(low.bit_length() - 1)
        mask ^= low
    return indices


def mask_of_indices(indices: Iterable[int]) -> int:
    """Return the mask of card indexes (the inverse of :func:`indices_of`)."""
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def cards_of(mask: int) -> list[Card]:
    """Return the cards of a mask, highest value first (the order players sort a hand in)."""
    return [CARDS[index] for index in _descending(mask)]


def _descending(mask: int) -> list[int]:
    """The card indexes of a mask by value, then suit, highest first: the Phoenix (16) and the
    Dragon (15), the standard cards by falling index (the layout orders them so), then the Mah
    Jong (1) and the Dog (0). Records and hints format many small masks, hence no sort."""
    indices = [index for index in _HIGH_SPECIALS if mask >> index & 1]
    standard = mask & _STANDARD
    while standard:
        high = standard.bit_length() - 1
        indices.append(high)
        standard ^= 1 << high
    indices += [index for index in _LOW_SPECIALS if mask >> index & 1]
    return indices


_STANDARD = (1 << 52) - 1
_HIGH_SPECIALS = (PHOENIX_INDEX, DRAGON_INDEX)
_LOW_SPECIALS = (MAHJONG_INDEX, DOG_INDEX)
#: :func:`format_mask`'s tables: the labels of the Dragon (bit 0) and the Phoenix (bit 1), of the
#: Dog (bit 0) and the Mah Jong (bit 1), and of each set of eight standard cards (index
#: ``8 * chunk + bit``), highest first.
_HIGH_LABELS = tuple(tuple(LABELS[index] for index in _HIGH_SPECIALS if bits >> index - DRAGON_INDEX & 1)
                     for bits in range(4))
_LOW_LABELS = tuple(tuple(LABELS[index] for index in _LOW_SPECIALS if bits >> index - DOG_INDEX & 1)
                    for bits in range(4))
_CHUNK_LABELS = tuple(tuple(tuple(LABELS[8 * chunk + bit] for bit in range(7, -1, -1) if byte >> bit & 1)
                            for byte in range(256)) for chunk in range(7))


def parse_mask(labels: str) -> int:
    """Return the mask of a space-separated list of labels (records.md).

    :param labels: For example ``"Ph R5 G5"``; ``""`` is the empty set.
    :returns: The mask.
    :raises RuleViolation: ``UNKNOWN_CARD`` for an unknown label, ``DUPLICATE_CARD``
        for a label given twice.
    """
    mask = 0
    for label in labels.split():
        index = _INDEX_BY_LABEL.get(label)
        if index is None:
            raise RuleViolation(Violation.UNKNOWN_CARD, "R1.1", f"unknown card label {label!r}")
        if mask >> index & 1:
            raise RuleViolation(Violation.DUPLICATE_CARD, "R1.1", f"card {label} given twice")
        mask |= 1 << index
    return mask


def parse_labels(labels: str) -> list[Card]:
    """Return the cards of a space-separated list of labels in the order given.

    :param labels: For example ``"Ph R5 G5"``.
    :returns: The cards (duplicates are kept, so that callers can refuse them).
    :raises RuleViolation: ``UNKNOWN_CARD`` for an unknown label.
    """
    cards = []
    for label in labels.split():
        index = _INDEX_BY_LABEL.get(label)
        if index is None:
            raise RuleViolation(Violation.UNKNOWN_CARD, "R1.1", f"unknown card label {label!r}")
        cards.append(CARDS[index])
    return cards


def format_mask(mask: int) -> str:
    """Return the labels of a mask, highest value first, joined by spaces.

    In the order of :func:`cards_of`, eight cards at a time from a table (a record labels every
    hand dealt and pushed, Issue 36): the Phoenix and the Dragon, the standard cards by falling
    index, the Mah Jong and the Dog."""
    labels = list(_HIGH_LABELS[mask >> PHOENIX_INDEX - 1 & 3])
    chunks = _CHUNK_LABELS
    for chunk in (6, 5, 4, 3, 2, 1, 0):
        byte = mask >> 8 * chunk & (0x0F if chunk == 6 else 0xFF)
        if byte:
            labels += chunks[chunk][byte]
    labels += _LOW_LABELS[mask >> DOG_INDEX & 3]
    return " ".join(labels)


def format_labels(cards: Iterable[tuple[int, int]]) -> str:
    """Return the labels of some cards in the order given, joined by spaces.

    :raises RuleViolation: ``UNKNOWN_CARD`` for a card that does not exist.
    """
    return " ".join(LABELS[card_index(card)] for card in cards)


def points_of(mask: int) -> int:
    """Return the card points (R1.2) of a set of cards."""
    points = 5 * (mask & _FIVES).bit_count() + 10 * (mask & _TENS_KINGS).bit_count()
    if mask & DRAGON:
        points += 25
    if mask & PHOENIX:
        points -= 25
    return points


_FIVES = VALUE_MASK[5]
_TENS_KINGS = VALUE_MASK[10] | VALUE_MASK[13]
