"""Cards as the protocol and the records write them, and the deals a seed gives.

The protocol writes a card as ``[value, suit]``, the records as a label (records.md); the
tests compare both as sets of ``(value, suit)`` tuples. :func:`find_seed` picks a server seed
whose deals set up the situation a test needs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

from tichu.core.cards import cards_of, mask_of, parse_mask
from tichu.core.game import Game
from tichu.core.ruleset import RuleSet

Card = tuple[int, int]


def card_set(cards: Iterable[Sequence[int]]) -> frozenset[Card]:
    """Protocol ``[value, suit]`` pairs as a set of tuples."""
    return frozenset((int(card[0]), int(card[1])) for card in cards)


def labels_set(labels: str) -> frozenset[Card]:
    """Record labels (records.md) as a set of ``(value, suit)`` tuples."""
    return frozenset((card.value, card.suit) for card in cards_of(parse_mask(labels)))


def mask_from_json(cards: Iterable[Sequence[int]]) -> int:
    """Protocol cards as a card mask."""
    return mask_of((int(card[0]), int(card[1])) for card in cards)


def deals_of(seed: int, rounds: int = 1) -> list[list[frozenset[Card]]]:
    """The 14 cards each seat is dealt in the first rounds of a game with ``Settings(seed=seed)``."""
    game = Game(RuleSet(), random.Random(seed))
    deals = []
    for _ in range(rounds):
        round_ = game.new_round()
        deals.append([frozenset((card.value, card.suit) for card in cards_of(first | rest))
                      for first, rest in zip(round_.first_deal, round_.second_deal)])
    return deals


def find_seed(predicate: Callable[[list[list[frozenset[Card]]]], bool], rounds: int = 1, limit: int = 20000) -> int:
    """The first seed whose deals of the first ``rounds`` rounds (14 cards per seat) satisfy ``predicate``."""
    for seed in range(limit):
        if predicate(deals_of(seed, rounds)):
            return seed
    raise AssertionError("no seed found")



def card_key(label: str) -> str:
    """A record label's card key on the page (``data-card``, ``value-suit``), e.g. ``SZ`` -> ``10-1``."""
    [card] = cards_of(parse_mask(label))
    return f"{card.value}-{card.suit}"
