"""Splitting a hand into few combinations, the backbone of the rule policy.

A hand plays out in as many tricks as it has combinations it must lead or play, so the
rule-based agents plan with a partition of the hand into combinations (R3): bombs are
kept apart (they are never broken up), the rest is split by a search over the value
counts, since suits only matter for bombs. The search is memoised on the counts, so the
many hands a rollout sees share their work.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from tichu.core.cards import CARD_VALUE, DOG, DRAGON, MAHJONG, PHOENIX, VALUE_MASK
from tichu.core.combos import (
    FULLHOUSE,
    PAIR,
    PHOENIX_LEAD_RANK,
    SINGLE,
    STAIR,
    STREET,
    TRIPLE,
    Play,
    bombs_of,
    classify_mask,
)

#: Extra cost of a single below the Ace, per value below it: low singles are the hardest
#: cards to get rid of, so of two partitions with as many pieces the one with fewer and
#: higher singles wins.
SINGLE_PENALTY = 0.01
#: Hands whose partition is remembered, and value-count states of the search: enough for
#: the hands of one search decision, few megabytes on a Raspberry Pi (docs/agents.md).
PARTITION_CACHE = 4096
SOLVE_CACHE = 8192


class Piece(NamedTuple):
    """A combination of a partition before suits are chosen.

    :ivar kind: Combination type.
    :ivar length: Number of cards.
    :ivar rank: Rank as in :mod:`tichu.core.combos`.
    :ivar values: The natural values it takes, with repetition (1 for the Mah Jong).
    :ivar phoenix: Whether it takes the Phoenix.
    """

    kind: int
    length: int
    rank: int
    values: tuple[int, ...]
    phoenix: bool


class Partition(NamedTuple):
    """A hand split into combinations.

    :ivar plays: The combinations (bombs included), lowest first within each type.
    :ivar bombs: The bombs among them.
    :ivar cost: Number of combinations plus the penalty of low singles (without bombs).
    """

    plays: tuple[Play, ...]
    bombs: tuple[Play, ...]
    cost: float


@lru_cache(maxsize=PARTITION_CACHE)
def partition(hand: int) -> Partition:
    """Split a hand into few combinations (bombs apart, then a memoised search).

    Memoised by the hand: rollouts meet the same hands again and again.

    :param hand: The hand's mask.
    :returns: The partition; the Dog and the Dragon are singles of their own.
    """
    bombs = _disjoint_bombs(hand)
    bomb_cards = 0
    for bomb in bombs:
        bomb_cards |= bomb.cards
    rest = hand & ~bomb_cards
    counts = [0] * 15
    for value in range(2, 15):
        counts[value] = (rest & VALUE_MASK[value]).bit_count()
    counts[1] = 1 if rest & MAHJONG else 0
    cost, pieces = _solve(tuple(counts), bool(rest & PHOENIX))
    plays = []
    remaining = rest
    for piece in pieces:
        play = _materialise(piece, remaining)
        remaining &= ~play.cards
        plays.append(play)
    for special in (DOG, DRAGON):
        if rest & special:
            plays.append(Play(special, SINGLE, 1, CARD_VALUE[special.bit_length() - 1]))
            cost += 1
    plays.sort(key=lambda play: (play.kind, play.rank))
    return Partition(tuple(plays) + tuple(bombs), tuple(bombs), cost)


def _disjoint_bombs(hand: int) -> list[Play]:
    """The bombs to keep: longest straight flushes first, then four of a kind, no card twice."""
    chosen: list[Play] = []
    used = 0
    for bomb in sorted(bombs_of(hand), key=lambda play: (-play.length, -play.rank)):
        if not bomb.cards & used:
            chosen.append(bomb)
            used |= bomb.cards
    return chosen


def _materialise(piece: Piece, hand: int) -> Play:
    """Pick the piece's cards from the hand: the lowest suits of each value, the Phoenix if used."""
    mask = PHOENIX if piece.phoenix else 0
    for value in piece.values:
        if value == 1:
            mask |= MAHJONG
            continue
        free = hand & VALUE_MASK[value] & ~mask
        mask |= free & -free
    if piece.kind == SINGLE:
        return Play(mask, SINGLE, 1, PHOENIX_LEAD_RANK if mask == PHOENIX else piece.rank)
    reading = classify_mask(mask)
    assert reading is not None, piece
    return Play(mask, *reading)


def _piece_cost(piece: Piece) -> float:
    if piece.kind == SINGLE and not piece.phoenix:
        return 1 + SINGLE_PENALTY * (14 - piece.rank)
    return 1.0


@lru_cache(maxsize=SOLVE_CACHE)
def _solve(counts: tuple[int, ...], phoenix: bool) -> tuple[float, tuple[Piece, ...]]:
    """Cheapest partition of the natural cards (and Mah Jong) given by ``counts``.

    Every piece is chosen when its lowest value is the lowest value left, so each
    partition is reached once per order of equal choices.
    """
    low = next((value for value in range(1, 15) if counts[value]), 0)
    if not low:
        if phoenix:
            return 1.0, (Piece(SINGLE, 1, PHOENIX_LEAD_RANK, (), True),)
        return 0.0, ()
    best: tuple[float, tuple[Piece, ...]] | None = None
    for piece, used_phoenix in _pieces_from(counts, phoenix, low):
        rest = list(counts)
        for value in piece.values:
            rest[value] -= 1
        cost, pieces = _solve(tuple(rest), phoenix and not used_phoenix)
        cost += _piece_cost(piece)
        if best is None or cost < best[0]:
            best = cost, (piece, *pieces)
    assert best is not None
    return best


def _pieces_from(counts: tuple[int, ...], phoenix: bool, low: int) -> list[tuple[Piece, bool]]:
    """The combinations whose lowest value is ``low``, with whether they take the Phoenix."""
    options: list[tuple[Piece, bool]] = [(Piece(SINGLE, 1, low, (low,), False), False)]
    have = counts[low]
    if low >= 2:
        for size, kind in ((2, PAIR), (3, TRIPLE)):
            if have >= size:
                options.append((Piece(kind, size, low, (low,) * size, False), False))
            elif phoenix and have == size - 1:
                options.append((Piece(kind, size, low, (low,) * (size - 1), True), True))
        options += _full_houses(counts, phoenix, low)
        options += _stairs(counts, phoenix, low)
    options += _streets(counts, phoenix, low)
    return options


def _full_houses(counts: tuple[int, ...], phoenix: bool, low: int) -> list[tuple[Piece, bool]]:
    options = []
    have = counts[low]
    for other in range(low + 1, 15):
        there = counts[other]
        for triple_value, pair_value in ((low, other), (other, low)):
            triple_have = have if triple_value == low else there
            pair_have = there if triple_value == low else have
            need_phoenix = max(0, 3 - triple_have) + max(0, 2 - pair_have)
            if need_phoenix > (1 if phoenix else 0) or min(triple_have, pair_have) < 1 or triple_have < 2:
                continue
            values = (triple_value,) * min(3, triple_have) + (pair_value,) * min(2, pair_have)
            options.append((Piece(FULLHOUSE, 5, triple_value, values, need_phoenix == 1), need_phoenix == 1))
    return options


def _stairs(counts: tuple[int, ...], phoenix: bool, low: int) -> list[tuple[Piece, bool]]:
    options = []
    values: tuple[int, ...] = ()
    used_phoenix = False
    for value in range(low, 15):
        have = counts[value]
        if have >= 2:
            values += (value, value)
        elif have == 1 and phoenix and not used_phoenix:
            values += (value,)
            used_phoenix = True
        else:
            break
        if value > low:
            options.append((Piece(STAIR, 2 * (value - low + 1), value, values, used_phoenix), used_phoenix))
    return options


def _streets(counts: tuple[int, ...], phoenix: bool, low: int) -> list[tuple[Piece, bool]]:
    """Straights from ``low``: each gap may be filled by the Phoenix once, also at the top."""
    options = []
    partial: list[tuple[tuple[int, ...], bool]] = [((low,), False)]
    for value in range(low + 1, 15):
        grown: list[tuple[tuple[int, ...], bool]] = []
        for values, used in partial:
            if counts[value]:
                grown.append((values + (value,), used))
            if phoenix and not used:
                grown.append((values, True))
        if not grown:
            break
        length = value - low + 1
        if length >= 5:
            for values, used in grown:
                options.append((Piece(STREET, length, value, values, used), used))
        partial = grown
    if phoenix and low >= 3 and all(counts[value] for value in range(low, 15)) and 14 - low + 2 >= 5:
        # The Phoenix below an Ace-high run (on top it would read higher, R3.5a, but nothing is above the Ace).
        options.append((Piece(STREET, 14 - low + 2, 14, tuple(range(low, 15)), True), True))
    return options

