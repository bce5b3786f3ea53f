"""Combination analysis on card masks: classify, compare, generate (R3, R4.1, R5.2).

A play is a tuple ``(mask, type, length, rank)``; the pass is :data:`PASS_PLAY`.
Ranks are integers here: a Phoenix single carries the rank of the single it was played
on, or 1 when led, which R3.6 allows because every comparison comes out as with the
half ranks (the public API in :mod:`tichu.rules` shows the ``x.5`` value).

Generation is the hot path of agents and the engine: :func:`combinations_of` lists every
combination in a hand once, and :func:`legal_plays_from` filters that list for a trick
and a wish, so a seat's list only needs filtering when its hand shrinks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import IntEnum
from itertools import combinations
from typing import NamedTuple, TypeVar

from tichu.core.cards import (
    CARD_VALUE,
    DOG,
    DRAGON,
    MAHJONG,
    PHOENIX,
    PHOENIX_INDEX,
    SPECIALS,
    SUIT_MASK,
    VALUE_MASK,
    indices_of,
)


class CombinationType(IntEnum):
    """Type of a combination (R3); ``PASS`` is the empty play."""

    PASS = 0
    SINGLE = 1
    PAIR = 2
    TRIPLE = 3
    STAIR = 4
    FULLHOUSE = 5
    STREET = 6
    BOMB = 7


PASS, SINGLE, PAIR, TRIPLE, STAIR, FULLHOUSE, STREET, BOMB = (int(t) for t in CombinationType)

T = TypeVar("T")

class Play(NamedTuple):
    """A play: the cards and the combination they form (R3); the pass is :data:`PASS_PLAY`.

    :ivar cards: The card mask (0 for the pass).
    :ivar kind: The combination type (a :class:`CombinationType` value).
    :ivar length: The number of cards (of a bomb: 4, or the straight flush's length).
    :ivar rank: The rank that decides what beats what (R3.8).
    """

    cards: int
    kind: int
    length: int
    rank: int

    def __reduce__(self) -> tuple[object, tuple[int, int, int, int]]:
        """Pickle so that the pass comes back as :data:`PASS_PLAY` itself: the rules and the
        agents tell it by identity (``legal[-1] is PASS_PLAY``), also in another process."""
        return _unpickled_play, (self.cards, self.kind, self.length, self.rank)


def _unpickled_play(cards: int, kind: int, length: int, rank: int) -> Play:
    """A pickled :class:`Play` back: the pass as :data:`PASS_PLAY`, any other as a new play."""
    return PASS_PLAY if not cards else _new_play(Play, (cards, kind, length, rank))


#: Builds a :class:`Play` from a 4-tuple without the named tuple's Python-level ``__new__``
#: (a third of the cost where hands are split into their combinations).
_new_play = tuple.__new__
#: The pass.
PASS_PLAY = Play(0, PASS, 0, 0)
#: Rank of a single Dragon (R3.9); nothing but a bomb beats it.
DRAGON_RANK = 15
#: Internal rank of a Phoenix led as a single (public 1.5, R3.6).
PHOENIX_LEAD_RANK = 1

_NATURAL_MASK = tuple(VALUE_MASK)
_NIBBLE_SHIFT = tuple(4 * (v - 2) if 2 <= v <= 14 else 0 for v in range(17))


def _fixed_plays() -> tuple[tuple[Play, ...], dict[int, Play], tuple[Play, ...]]:
    """The plays whose every instance can be made once: each single, each pair, triple and
    four of a kind by its cards (the Phoenix's included), and the Phoenix on a single of each
    rank. Splitting a hand takes them from these tables instead of building them anew."""
    singles = tuple(Play(1 << index, SINGLE, 1, PHOENIX_LEAD_RANK if index == PHOENIX_INDEX else CARD_VALUE[index])
                    for index in range(56))
    sets: dict[int, Play] = {}
    for value in range(2, 15):
        cards = [1 << index for index in range(56) if VALUE_MASK[value] >> index & 1]
        for size, kind in ((2, PAIR), (3, TRIPLE)):
            for chosen in combinations(cards, size):
                sets[sum(chosen)] = Play(sum(chosen), kind, size, value)
            for chosen in combinations(cards, size - 1):
                sets[sum(chosen) | PHOENIX] = Play(sum(chosen) | PHOENIX, kind, size, value)
        sets[VALUE_MASK[value]] = Play(VALUE_MASK[value], BOMB, 4, value)
    phoenix_on = tuple(Play(PHOENIX, SINGLE, 1, rank) for rank in range(DRAGON_RANK))
    return singles, sets, phoenix_on


_SINGLES, _SETS, _PHOENIX_ON = _fixed_plays()


def value_counts(mask: int) -> list[int]:
    """Return the number of standard cards per value 0..16 (only 2..14 can be non-zero)."""
    counts = [0] * 17
    for value in range(2, 15):
        counts[value] = (mask >> _NIBBLE_SHIFT[value] & 0xF).bit_count()
    return counts


def classify_mask(mask: int) -> tuple[int, int, int] | None:
    """Classify a set of cards as a combination (R3), reading it as high as it goes (R3.5a).

    :param mask: The cards.
    :returns: ``(type, length, rank)``, or ``None`` if the cards form no combination.
        A Phoenix single gets :data:`PHOENIX_LEAD_RANK`; :func:`legal_plays_from` and
        the round give it the rank of the single it beats.
    """
    count = mask.bit_count()
    if count == 0:
        return None
    if count == 1:
        index = mask.bit_length() - 1
        return SINGLE, 1, PHOENIX_LEAD_RANK if index == PHOENIX_INDEX else CARD_VALUE[index]
    if mask & (DOG | DRAGON):
        return None  # R3.9, R3.10: never part of a combination
    has_phoenix = bool(mask & PHOENIX)
    naturals = mask & ~SPECIALS
    counts = value_counts(naturals)
    values = [v for v in range(2, 15) if counts[v]]
    if mask & MAHJONG:
        return _classify_street(mask, [1] + values, counts, has_phoenix, count)
    if count == 2 or count == 3:
        if len(values) == 1:
            return (PAIR if count == 2 else TRIPLE), count, values[0]
        return None
    if count == 4 and not has_phoenix and len(values) == 1:
        return BOMB, 4, values[0]  # R3.7 four of a kind
    if count == 5 and len(values) == 2:
        return _classify_full_house(counts, values, has_phoenix)
    if count % 2 == 0 and len(values) == count // 2 and values[-1] - values[0] == len(values) - 1:
        singles = sum(1 for v in values if counts[v] == 1)
        if all(counts[v] <= 2 for v in values) and singles == (1 if has_phoenix else 0):
            return STAIR, count, values[-1]  # R3.3
    return _classify_street(mask, values, counts, has_phoenix, count)


def _classify_full_house(counts: list[int], values: list[int], has_phoenix: bool) -> tuple[int, int, int] | None:
    low, high = values
    pattern = (counts[low], counts[high])
    if not has_phoenix:
        if pattern == (3, 2):
            return FULLHOUSE, 5, low
        if pattern == (2, 3):
            return FULLHOUSE, 5, high
        return None
    if pattern == (2, 2):
        return FULLHOUSE, 5, high  # R3.4: the Phoenix completes the higher triple
    if pattern == (3, 1):
        return FULLHOUSE, 5, low
    if pattern == (1, 3):
        return FULLHOUSE, 5, high
    return None  # four equal cards + Phoenix is no full house (R3.4)


def _classify_street(mask: int, values: list[int], counts: list[int], has_phoenix: bool,
                     count: int) -> tuple[int, int, int] | None:
    if count < 5 or any(counts[v] > 1 for v in values):
        return None
    low, high = values[0], values[-1]
    span = high - low + 1
    if not has_phoenix:
        if span != count:
            return None
        if not mask & MAHJONG:
            for suit in range(1, 5):
                if mask & SUIT_MASK[suit] == mask:
                    return BOMB, count, high  # R3.7 straight flush
        return STREET, count, high
    if span == count:
        return STREET, count, high  # the Phoenix fills the one gap
    if span == count - 1:
        if high < 14:
            return STREET, count, high + 1  # R3.5a: the Phoenix on top reads highest
        if low > 2:
            return STREET, count, 14
    return None


def beats(play: Play, trick: Play | None) -> bool:
    """Tell whether a play beats the combination on the table (R3.8, R3.9).

    :param play: The play.
    :param trick: The combination on the table, or ``None`` on a lead.
    :returns: ``True`` if ``play`` may be played on ``trick`` as far as ranks go (a
        Phoenix single must already carry the rank of ``trick``, see :func:`phoenix_on`).
    """
    if trick is None:
        return True
    _, kind, length, rank = play
    _, trick_kind, trick_length, trick_rank = trick
    if kind == BOMB:
        if trick_kind != BOMB:
            return True
        return (length, rank) > (trick_length, trick_rank)
    if kind != trick_kind or length != trick_length:
        return False
    if play.cards == PHOENIX:
        return trick_rank < DRAGON_RANK and trick.cards != DOG
    return rank > trick_rank


def weakest_first(bombs: Iterable[Play]) -> list[Play]:
    """Bombs in the order of their strength, weakest first (R3.8: any four of a kind below any
    straight flush, a longer straight flush above a shorter one, equal lengths by rank), as
    :func:`beats` compares them: the clients offer the weakest one first without knowing the rule.
    """
    return sorted(bombs, key=lambda bomb: (bomb.length, bomb.rank))


def phoenix_on(trick: Play | None) -> Play:
    """Return the Phoenix single as played on ``trick`` (R3.6): it takes the trick's rank."""
    if trick is None or trick.kind != SINGLE:
        return Play(PHOENIX, SINGLE, 1, PHOENIX_LEAD_RANK)
    return Play(PHOENIX, SINGLE, 1, trick.rank)


def combinations_of(hand: int) -> list[Play]:
    """List every combination that can be formed from a hand, bombs included.

    Every set of cards appears once, with the reading of R3.5a. The cards of one value come
    from precomputed tables by the value's suit pattern (:data:`_VALUE_PLAYS`); stairs, full
    houses and streets are grown from them.

    :param hand: The hand's mask.
    :returns: The plays, grouped by type.
    """
    plays = [_SINGLES[index] for index in indices_of(hand & SPECIALS)]
    phoenix = hand & PHOENIX
    value_plays = _VALUE_PLAYS[1 if phoenix else 0]
    value_triples = _PHOENIX_TRIPLES if phoenix else _TRIPLES
    by_value: list[Sequence[int]] = [()] * 17
    pairs: list[Sequence[int]] = [()] * 17
    phoenix_pairs: list[Sequence[int]] = [()] * 17
    triples: list[Sequence[tuple[int, bool]]] = [()] * 17
    for value in range(2, 15):
        pattern = hand >> _NIBBLE_SHIFT[value] & 0xF
        if pattern:
            plays += value_plays[value][pattern]
            by_value[value] = _CARDS[value][pattern]
            pairs[value] = _PAIRS[value][pattern]
            triples[value] = value_triples[value][pattern]
            if phoenix:
                phoenix_pairs[value] = _PHOENIX_PAIRS[value][pattern]
    _add_stairs(plays, pairs, phoenix_pairs)
    _add_full_houses(plays, triples, pairs, phoenix_pairs)
    if hand & MAHJONG:
        by_value[1] = (MAHJONG,)
    _add_streets(plays, by_value, phoenix)
    return plays


#: Per value (0..16; only 2..14 hold cards) and suit pattern 0..15 (bit ``s - 1``: the card of
#: suit ``s`` is held), a table of what those cards make.
ByPattern = tuple[tuple[T, ...], ...]


def _by_pattern(make: Callable[[int, tuple[int, ...]], T]) -> ByPattern[T]:
    """A table of ``make(value, cards)`` for every value and suit pattern (the cards ascending)."""
    return tuple(tuple(make(value, tuple(1 << (4 * (value - 2) + suit) for suit in range(4)
                                         if 2 <= value <= 14 and pattern >> suit & 1))
                       for pattern in range(16)) for value in range(17))


def _pairs(_: int, cards: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(a | b for a, b in combinations(cards, 2))


def _plain_triples(_: int, cards: tuple[int, ...]) -> tuple[tuple[int, bool], ...]:
    """The triples of one value as ``(mask, Phoenix used)``."""
    return tuple((a | b | c, False) for a, b, c in combinations(cards, 3))


def _value_plays(value: int, cards: tuple[int, ...], phoenix: bool) -> tuple[Play, ...]:
    """Every play of one value's cards in :func:`combinations_of`'s order: singles, pairs, the
    Phoenix's pairs, triples, the Phoenix's triples, the four of a kind (R3.1, R3.2, R3.6, R3.7)."""
    pairs = _pairs(value, cards)
    sets = pairs + tuple(card | PHOENIX for card in cards) if phoenix else pairs
    triples = [triple for triple, _ in _plain_triples(value, cards)]
    if phoenix:
        triples += [pair | PHOENIX for pair in pairs]
    four = (_SETS[VALUE_MASK[value]],) if len(cards) == 4 else ()
    return tuple(_SINGLES[card.bit_length() - 1] for card in cards) + tuple(_SETS[mask] for mask in sets) \
        + tuple(_SETS[mask] for mask in triples) + four


_CARDS: ByPattern[tuple[int, ...]] = _by_pattern(lambda _, cards: cards)
_PAIRS: ByPattern[tuple[int, ...]] = _by_pattern(_pairs)
_PHOENIX_PAIRS: ByPattern[tuple[int, ...]] = _by_pattern(lambda _, cards: tuple(card | PHOENIX for card in cards))
_TRIPLES: ByPattern[tuple[tuple[int, bool], ...]] = _by_pattern(_plain_triples)
_PHOENIX_TRIPLES: ByPattern[tuple[tuple[int, bool], ...]] = _by_pattern(
    lambda value, cards: _plain_triples(value, cards) + tuple((pair | PHOENIX, True) for pair in _pairs(value, cards)))
#: The plays of one value's cards, without (``[0]``) and with (``[1]``) the Phoenix in the hand.
_VALUE_PLAYS: tuple[ByPattern[tuple[Play, ...]], ByPattern[tuple[Play, ...]]] = (
    _by_pattern(lambda value, cards: _value_plays(value, cards, False)),
    _by_pattern(lambda value, cards: _value_plays(value, cards, True)))




def _add_stairs(plays: list[Play], pairs: Sequence[Sequence[int]], phoenix_pairs: Sequence[Sequence[int]]) -> None:
    for low in range(2, 14):
        if not pairs[low] and not phoenix_pairs[low]:
            continue
        partial = [(pair, False) for pair in pairs[low]] + [(pair, True) for pair in phoenix_pairs[low]]
        for value in range(low + 1, 15):
            grown = [(mask | pair, used) for mask, used in partial for pair in pairs[value]]
            grown += [(mask | pair, True) for mask, used in partial if not used for pair in phoenix_pairs[value]]
            if not grown:
                break
            length = 2 * (value - low + 1)
            for mask, _ in grown:
                plays.append(_new_play(Play, (mask, STAIR, length, value)))
            partial = grown


def _add_full_houses(plays: list[Play], triples: Sequence[Sequence[tuple[int, bool]]], pairs: Sequence[Sequence[int]],
                     phoenix_pairs: Sequence[Sequence[int]]) -> None:
    pair_values = [value for value in range(2, 15) if pairs[value] or phoenix_pairs[value]]
    for triple_value in range(2, 15):
        for triple, triple_has_phoenix in triples[triple_value]:
            for pair_value in pair_values:
                if pair_value == triple_value:
                    continue
                # R3.4: pair + pair + Phoenix reads as the higher triple; skip the lower reading.
                if not triple_has_phoenix or pair_value < triple_value:
                    for pair in pairs[pair_value]:
                        plays.append(_new_play(Play, (triple | pair, FULLHOUSE, 5, triple_value)))
                if not triple_has_phoenix:
                    for pair in phoenix_pairs[pair_value]:
                        plays.append(_new_play(Play, (triple | pair, FULLHOUSE, 5, triple_value)))


def _add_streets(plays: list[Play], by_value: Sequence[Sequence[int]], phoenix: int) -> None:
    """Every street (R3.5) and straight flush (R3.7) of the hand, grown value by value from
    each low end: the partial streets without the Phoenix as plain masks, those with it with
    the value it stands for (the hot part of splitting a hand: few objects per street)."""
    append = plays.append
    missing_allowed = 1 if phoenix else 0
    for low in range(1, 11):
        if sum(1 for value in range(low, low + 5) if not by_value[value]) > missing_allowed:
            continue  # no street of five starts here
        plain = by_value[low]
        # the Phoenix's partials: (mask, the value it stands for); it may be the low end but the 1
        with_phoenix = [(phoenix, low)] if phoenix and low >= 2 else []
        for value in range(low + 1, 15):
            cards = by_value[value]
            grown = [mask | card for mask in plain for card in cards] if cards else []
            grown_phoenix = [(mask | card, position) for mask, position in with_phoenix for card in cards] \
                if cards and with_phoenix else []
            if phoenix:
                grown_phoenix += [(mask | phoenix, value) for mask in plain]
            if not grown and not grown_phoenix:
                break
            length = value - low + 1
            if length >= 5:
                for mask in grown:
                    # R3.7: one suit throughout (no Mah Jong) is always the bomb
                    flush = not mask & ~_SUIT_OF_CARD[(mask & -mask).bit_length() - 1]
                    append(_new_play(Play, (mask, BOMB if flush else STREET, length, value)))
                for mask, position in grown_phoenix:
                    if position != low or value == 14:  # R3.5a: else the same cards read higher
                        append(_new_play(Play, (mask, STREET, length, value)))
            plain, with_phoenix = grown, grown_phoenix


#: Per card index, the mask of its suit (0 for the special cards, which are in no flush).
_SUIT_OF_CARD = tuple(SUIT_MASK[index % 4 + 1] if index < 52 else 0 for index in range(56))


def _straight_windows(row: int) -> tuple[tuple[int, int], ...]:
    """Windows ``(low, high)`` of five or more consecutive values set in a 13-bit value row."""
    windows = []
    for low in range(2, 11):
        high = low - 1
        while high < 14 and row >> (high + 1 - 2) & 1:
            high += 1
        windows += [(low, top) for top in range(low + 4, high + 1)]
    return tuple(windows)


_WINDOWS_BY_ROW = tuple(_straight_windows(row) for row in range(1 << 13))
_SUIT_BITS = tuple(tuple(1 << (4 * (v - 2) + suit - 1) for v in range(2, 15)) for suit in range(1, 5))


def bombs_of(hand: int) -> list[Play]:
    """List the bombs in a hand (R3.7): four of a kind and straight flushes, without the rest."""
    bombs: list[Play] = []
    for value in range(2, 15):
        if hand & VALUE_MASK[value] == VALUE_MASK[value]:
            bombs.append(_new_play(Play, (VALUE_MASK[value], BOMB, 4, value)))
    for suit_bits in _SUIT_BITS:
        row = 0
        for offset, bit in enumerate(suit_bits):
            if hand & bit:
                row |= 1 << offset
        if row.bit_count() < 5:
            continue
        for low, high in _WINDOWS_BY_ROW[row]:
            mask = 0
            for value in range(low, high + 1):
                mask |= suit_bits[value - 2]
            bombs.append(_new_play(Play, (mask, BOMB, high - low + 1, high)))
    return bombs


def legal_plays_from(combos: Sequence[Play], hand: int, trick: Play | None, wish: int = 0) -> list[Play]:
    """Return every legal play at one's turn (R4.1, R5.2, R5.3), the pass included where allowed.

    :param combos: Every combination of the hand (:func:`combinations_of`).
    :param hand: The hand's mask (to know whether the wished value is held).
    :param trick: The combination on the table, or ``None`` on a lead (also after the Dog).
    :param wish: The open wish (2..14), or 0.
    :returns: The plays; :data:`PASS_PLAY` last when passing is allowed.
    """
    wish_mask = _NATURAL_MASK[wish] & hand if wish else 0
    if trick is None:
        if wish_mask:
            return [play for play in combos if play[0] & wish_mask]  # R5.2 on a lead
        return list(combos)
    trick_kind, trick_length, trick_rank = trick.kind, trick.length, trick.rank
    # The scans below read the fields by index, each at most once: on a named tuple that is
    # a third faster than by name (the engine and every rollout filter here at each turn).
    if trick_kind == BOMB:
        plays = [play for play in combos if play[1] == BOMB and (play[2], play[3]) > (trick_length, trick_rank)]
    else:
        plays = [play for play in combos
                 if ((kind := play[1]) == trick_kind and play[2] == trick_length and play[3] > trick_rank)
                 or kind == BOMB]
        if trick_kind == SINGLE and hand & PHOENIX:
            plays = [play for play in plays if play[0] != PHOENIX]
            if trick_rank < DRAGON_RANK:
                plays.append(_PHOENIX_ON[trick_rank])  # R3.6
    if wish_mask:
        fulfilling = [play for play in plays if play[0] & wish_mask]
        if fulfilling:
            return fulfilling  # R5.2, R5.3: must fulfil, bombs included, no pass
    plays.append(PASS_PLAY)
    return plays
