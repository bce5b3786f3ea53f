"""Tests of :func:`tichu.agents.support.hand.partition`: a hand split into few combinations (R3).

A partition must use every card of the hand exactly once, every play in it must be the
combination its cards classify as (R3, R3.5a), bombs (R3.7) are kept whole and apart,
and on small hands without bombs it uses as few combinations as any exact cover of the
hand by :func:`tichu.core.combos.combinations_of` (brute force below).
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.core.helpers import cards
from tichu.agents.support import hand as hand_module
from tichu.agents.support.hand import PARTITION_CACHE, SINGLE_PENALTY, SOLVE_CACHE, partition
from tichu.core.cards import DOG, DRAGON, MAHJONG, PHOENIX, VALUE_MASK, format_mask
from tichu.core.combos import (
    BOMB,
    PAIR,
    PHOENIX_LEAD_RANK,
    SINGLE,
    STREET,
    bombs_of,
    classify_mask,
    combinations_of,
)

HANDS = settings(max_examples=200, deadline=None, database=None)
#: Brute-force exact covers are slower, so fewer examples.
SMALL_HANDS = settings(max_examples=250, deadline=None, database=None)
#: Hands built around one pattern, the same on every run.
FIXED_HANDS = settings(max_examples=300, deadline=None, database=None, derandomize=True)


def _mask(indices: set[int]) -> int:
    return sum(1 << index for index in indices)


#: Any hand of 1..14 cards from the whole deck.
any_hands = st.sets(st.integers(min_value=0, max_value=55), min_size=1, max_size=14).map(_mask)


@st.composite
def dense_hands(draw: st.DrawFn, max_size: int = 14) -> int:
    """Hands from a few neighbouring values and some specials: many streets, stairs, full houses."""
    low = draw(st.integers(min_value=2, max_value=12))
    span = draw(st.integers(min_value=3, max_value=8))
    pool = [4 * (value - 2) + suit for value in range(low, min(low + span, 15)) for suit in range(4)]
    specials = draw(st.sets(st.sampled_from([52, 53, 54, 55]), max_size=4))
    size = max(1, max_size - len(specials))
    chosen = draw(st.sets(st.sampled_from(pool), min_size=0, max_size=min(size, len(pool))))
    mask = _mask(chosen | specials)
    assume(mask)
    return mask


hands = st.one_of(any_hands, dense_hands())
small_hands = st.one_of(
    st.sets(st.integers(min_value=0, max_value=55), min_size=1, max_size=8).map(_mask),
    dense_hands(max_size=8),
)


def _cards_of_plays(plays: tuple[tuple[int, int, int, int], ...]) -> tuple[int, int]:
    """The union of the plays' cards and the sum of their sizes (equal sizes: no overlap)."""
    union = 0
    total = 0
    for play in plays:
        union |= play[0]
        total += play[0].bit_count()
    return union, total


@cache
def _min_cover(hand: int) -> int:
    """Brute force: the fewest combinations (``combinations_of``) covering the hand exactly."""
    combos = [play[0] for play in combinations_of(hand)]

    @cache
    def best(rest: int) -> int:
        if not rest:
            return 0
        lowest = rest & -rest
        return 1 + min(best(rest & ~mask) for mask in combos if mask & lowest and mask & rest == mask)

    return best(hand)


# -- cover: every card exactly once -----------------------------------------------------------


@HANDS
@given(hands)
def test_partition_covers_each_value_as_often_as_the_hand_holds_it(hand: int) -> None:
    """Counting by value (suits aside), the plays hold exactly the hand's cards (R1.1)."""
    plays = partition(hand).plays
    for value in range(2, 15):
        in_plays = sum((play[0] & VALUE_MASK[value]).bit_count() for play in plays)
        assert in_plays == (hand & VALUE_MASK[value]).bit_count(), (format_mask(hand), value)
    for special in (DOG, MAHJONG, DRAGON, PHOENIX):
        in_plays = sum(1 for play in plays if play[0] & special)
        assert in_plays == (1 if hand & special else 0), format_mask(hand)


@FIXED_HANDS
@given(hands)
def test_partition_uses_every_card_exactly_once(hand: int) -> None:
    """The plays' cards are the hand, with no card in two plays (R1.1)."""
    union, total = _cards_of_plays(partition(hand).plays)
    assert union == hand, format_mask(hand)
    assert total == hand.bit_count(), format_mask(hand)


def test_a_street_and_a_spare_card_of_one_value_take_different_cards() -> None:
    """S3 B4 S5 B5 G6 R7: the street 3-7 and the single 5 must be S5 and B5, one each."""
    hand = cards("S3 B4 S5 B5 G6 R7")
    union, total = _cards_of_plays(partition(hand).plays)
    assert union == hand and total == 6


# -- every play is the combination its cards form -----------------------------------------------


@HANDS
@given(hands)
def test_every_play_is_its_cards_classification(hand: int) -> None:
    """R3, R3.5a: each play's (type, length, rank) is what its cards classify as; the Phoenix
    alone is the led single of rank PHOENIX_LEAD_RANK (R3.6)."""
    for play in partition(hand).plays:
        assert play[0] and play[0] & ~hand == 0, format_mask(hand)
        assert play[1:] == classify_mask(play[0]), (format_mask(hand), format_mask(play[0]), play[1:])
        if play[0] == PHOENIX:
            assert play[1:] == (SINGLE, 1, PHOENIX_LEAD_RANK)


@HANDS
@given(hands)
def test_bombs_are_whole_disjoint_and_maximal(hand: int) -> None:
    """R3.7: the bombs are bombs of the hand, kept whole and disjoint, listed among the plays;
    every other bomb of the hand shares a card with a kept one; no other play is a bomb."""
    result = partition(hand)
    hand_bombs = bombs_of(hand)
    kept = 0
    for bomb in result.bombs:
        assert bomb in hand_bombs
        assert not bomb[0] & kept, format_mask(hand)
        kept |= bomb[0]
    assert result.plays[len(result.plays) - len(result.bombs):] == result.bombs
    for bomb in hand_bombs:
        assert bomb[0] & kept, (format_mask(hand), format_mask(bomb[0]))
    assert all(play[1] != BOMB for play in result.plays if play not in result.bombs)


@HANDS
@given(hands)
def test_four_of_a_kind_is_a_bomb_unless_a_straight_flush_takes_a_card(hand: int) -> None:
    """R3.7: four cards of one value become a bomb play, unless one of them is in a kept
    straight flush (the longer bombs are kept first)."""
    result = partition(hand)
    flushes = 0
    for bomb in result.bombs:
        if bomb[2] >= 5:
            flushes |= bomb[0]
    for value in range(2, 15):
        if hand & VALUE_MASK[value] == VALUE_MASK[value] and not VALUE_MASK[value] & flushes:
            assert (VALUE_MASK[value], BOMB, 4, value) in result.bombs, format_mask(hand)


@HANDS
@given(hands)
def test_cost_counts_the_plays_and_the_low_singles(hand: int) -> None:
    """The cost is one per non-bomb play plus SINGLE_PENALTY per value a natural single (or the
    Mah Jong) lies below the Ace; the Dog, Dragon and Phoenix singles carry no penalty."""
    result = partition(hand)
    rest = [play for play in result.plays if play not in result.bombs]
    penalty = sum(SINGLE_PENALTY * (14 - play[3]) for play in rest
                  if play[1] == SINGLE and not play[0] & (DOG | DRAGON | PHOENIX))
    assert result.cost == pytest.approx(len(rest) + penalty), format_mask(hand)


@HANDS
@given(hands)
def test_plays_are_sorted_by_type_then_rank_with_bombs_last(hand: int) -> None:
    result = partition(hand)
    rest = [play for play in result.plays if play not in result.bombs]
    assert rest == sorted(rest, key=lambda play: (play[1], play[3]))


# -- minimal number of combinations against brute force -------------------------------------


@SMALL_HANDS
@given(small_hands)
def test_partition_is_minimal_on_small_hands_without_bombs(hand: int) -> None:
    """On hands of up to 8 cards without a bomb, the partition has as few plays as the best
    exact cover by combinations (R3; the Dog and Dragon are singles of their own)."""
    assume(not bombs_of(hand))
    assert len(partition(hand).plays) == _min_cover(hand), format_mask(hand)


@FIXED_HANDS
@given(dense_hands(max_size=8).map(lambda hand: hand | PHOENIX | cards("SB BD GK RA")))
def test_partition_is_minimal_with_the_phoenix_below_an_ace_straight(hand: int) -> None:
    """The same minimality, on hands holding the Phoenix and J, Q, K, A."""
    assume(not bombs_of(hand) and hand.bit_count() <= 9)
    assert len(partition(hand).plays) == _min_cover(hand), format_mask(hand)


@pytest.mark.parametrize("labels", ["Ph SB BD GK RA", "Ph GZ SB BD GK RA", "Ph S9 GZ SB BD GK RA"])
def test_phoenix_at_the_bottom_of_an_ace_high_straight(labels: str) -> None:
    """R3.5/R3.6: Ph J Q K A is the straight 10-A (the Phoenix as the 10): one play."""
    hand = cards(labels)
    assert _min_cover(hand) == 1
    assert partition(hand).plays == ((hand, STREET, hand.bit_count(), 14),)


# -- examples ---------------------------------------------------------------------------------


def test_clean_street_and_pair() -> None:
    """R3.5 + R3.2: S3 B4 G5 R6 S7 + SK BK is one street and one pair."""
    result = partition(cards("S3 B4 G5 R6 S7 SK BK"))
    assert result.plays == ((cards("SK BK"), PAIR, 2, 13), (cards("S3 B4 G5 R6 S7"), STREET, 5, 7))
    assert result.bombs == ()
    assert result.cost == pytest.approx(2.0)


def test_phoenix_fills_the_gap_of_a_street() -> None:
    """R3.6: S3 B4 Ph R6 S7 is one straight 3-7 with the Phoenix as the 5."""
    hand = cards("S3 B4 Ph R6 S7")
    assert partition(hand).plays == ((hand, STREET, 5, 7),)


def test_phoenix_on_top_of_a_street_reads_highest() -> None:
    """R3.5a: S3 B4 G5 R6 + Ph is the straight 3-7 (the Phoenix as the 7)."""
    hand = cards("S3 B4 G5 R6 Ph")
    assert partition(hand).plays == ((hand, STREET, 5, 7),)


def test_mahjong_starts_a_street() -> None:
    """R3.5: the Mah Jong is the 1 at the bottom of a straight."""
    hand = cards("Ma S2 B3 G4 R5")
    assert partition(hand).plays == ((hand, STREET, 5, 5),)


def test_dog_and_dragon_are_singles_of_their_own() -> None:
    """R3.9, R3.10: the Dog and the Dragon never join a combination."""
    result = partition(cards("Hu Dr S7 B7"))
    assert set(result.plays) == {(DOG, SINGLE, 1, 0), (DRAGON, SINGLE, 1, 15), (cards("S7 B7"), PAIR, 2, 7)}
    assert result.cost == pytest.approx(3.0)


def test_four_of_a_kind_is_kept_as_a_bomb() -> None:
    """R3.7: the four 9s stay a bomb even though a full house could use three of them."""
    result = partition(cards("S9 B9 G9 R9 S4 B4"))
    assert result.bombs == ((VALUE_MASK[9], BOMB, 4, 9),)
    assert result.plays == ((cards("S4 B4"), PAIR, 2, 4), (VALUE_MASK[9], BOMB, 4, 9))
    assert result.cost == pytest.approx(1.0)  # bombs are not counted


def test_straight_flush_is_kept_whole_before_a_four_of_a_kind() -> None:
    """R3.7/R3.8: the straight flush 2-6 of Swords is kept; the 5s then are no bomb."""
    hand = cards("S2 S3 S4 S5 S6 B5 G5 R5")
    result = partition(hand)
    assert result.bombs == ((cards("S2 S3 S4 S5 S6"), BOMB, 5, 6),)
    assert result.plays[-1] == result.bombs[0]
    assert [play[1:] for play in result.plays[:-1]] == [(3, 3, 5)]  # the triple of 5s


def test_phoenix_alone_is_the_led_single() -> None:
    assert partition(PHOENIX).plays == ((PHOENIX, SINGLE, 1, PHOENIX_LEAD_RANK),)


def test_the_partition_caches_are_bounded() -> None:
    """The memoised partitions and search states stay within their bounds (a Raspberry Pi's
    memory), however many hands are split."""
    rng = random.Random(9)
    for _ in range(PARTITION_CACHE + 200):
        partition(sum(1 << index for index in rng.sample(range(56), 8)))
    for cached, bound in ((partition, PARTITION_CACHE), (hand_module._solve, SOLVE_CACHE)):
        info = cached.cache_info()
        assert info.maxsize == bound and info.currsize <= bound
    assert partition.cache_info().currsize == PARTITION_CACHE
