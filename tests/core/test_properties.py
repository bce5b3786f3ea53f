"""Property tests of the rules core: whole random rounds and random card sets (R1-R7).

Random rounds are driven by seeds: each step is a random legal action of the seat to
decide, or now and then a Tichu call (R6.1), an out-of-turn bomb (R4.3) or the engine
taking a closed trick. Invariants are checked after every step. Classification and
legal plays are compared with the naive reference of ``tests/data/make_legal_counts.py``
(written from rules.md without the project's code).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.helpers import planted_deal, snapshot, state_names
from tests.data.make_legal_counts import Reading
from tests.data.make_legal_counts import legal_plays as reference_legal_plays
from tests.data.make_legal_counts import readings as reference_readings
from tests.data.make_legal_counts import trick_reading as reference_trick
from tichu.core.cards import CARDS, DECK, LABELS, PHOENIX, cards_of, format_mask, indices_of
from tichu.core.combos import (
    BOMB,
    FULLHOUSE,
    PAIR,
    PHOENIX_LEAD_RANK,
    SINGLE,
    STAIR,
    STREET,
    TRIPLE,
    Play,
    beats,
    bombs_of,
    classify_mask,
    combinations_of,
    legal_plays_from,
    weakest_first,
)
from tichu.core.errors import RuleViolation
from tichu.core.round import Action, ActionKind, Decision, Phase, Round
from tichu.core.ruleset import RuleSet

ROUNDS = settings(max_examples=100, deadline=None, database=None)
#: Refused actions are checked with deep snapshots, so fewer rounds.
SLOW_ROUNDS = settings(max_examples=20, deadline=None, database=None)
CARD_SETS = settings(max_examples=300, deadline=None, database=None)
MAX_STEPS = 3000
_KINDS = {"single": SINGLE, "pair": PAIR, "triple": TRIPLE, "stair": STAIR, "full_house": FULLHOUSE,
          "straight": STREET, "four_of_a_kind": BOMB, "straight_flush": BOMB}
seeds = st.integers(min_value=0, max_value=2**32 - 1)


# -- driving random rounds ----------------------------------------------------------------


def _new_round(seed: int) -> tuple[Round, random.Random]:
    """A round with rule variants drawn from the seed (half of them with planted bombs),
    and the rng for its actions."""
    rng = random.Random(seed)
    rules = RuleSet(wish_optional=rng.random() < 0.5, tichu_before_schupf=rng.random() < 0.5)
    if rng.random() < 0.5:
        return Round(rules=rules, deal=planted_deal(rng)), rng
    return Round(rules=rules, rng=random.Random(rng.getrandbits(32))), rng


def _try_side_action(round_: Round, rng: random.Random) -> bool:
    """Maybe call Tichu, throw a bomb out of turn, or take a closed trick; tell whether it did."""
    roll = rng.random()
    seat = rng.randrange(4)
    if roll < 0.04 and round_.can_announce(seat):
        round_.announce(seat)
        return True
    if roll < 0.3:
        bombers = [other for other in range(4) if round_.bombs_for(other)]
        if bombers:
            bomber = rng.choice(bombers)
            round_.bomb(bomber, rng.choice(round_.bombs_for(bomber))[0])
            return True
    if roll > 0.9 and round_.trick_closed and round_.decision == Decision.PLAY:
        round_.collect_trick()
        return True
    return False


def random_step(round_: Round, rng: random.Random) -> None:
    """Apply one random allowed action (see the module docstring)."""
    if round_.phase in (Phase.SCHUPF, Phase.PLAYING) and _try_side_action(round_, rng):
        return
    if round_.decision == Decision.SCHUPF:
        seat = round_.decision_seat
        assert seat is not None
        hand = round_.hands[seat]
        in_bombs = 0
        for play in combinations_of(hand):
            if play[1] == BOMB:
                in_bombs |= play[0]
        spare = indices_of(hand & ~in_bombs)  # keep bombs for R4.3 later on
        given_cards = rng.sample(spare if len(spare) >= 3 else indices_of(hand), 3)
        round_.schupf(seat, [1 << index for index in given_cards])
        return
    if round_.decision == Decision.GRAND_TICHU:
        seat = round_.decision_seat
        assert seat is not None
        round_.decide_grand_tichu(seat, rng.random() < 0.1)
        return
    actions = round_.legal_actions()
    assert actions, f"no legal action for decision {round_.decision!r}"
    round_.apply(rng.choice(actions))


def play_out(round_: Round, rng: random.Random, check: Callable[[Round], None] | None = None) -> int:
    """Play random steps until the round ends; call ``check(round_)`` after each; return the steps."""
    for steps in range(1, MAX_STEPS + 1):
        random_step(round_, rng)
        if check is not None:
            check(round_)
        if round_.is_over:
            return steps
    raise AssertionError(f"round not over after {MAX_STEPS} steps")


# -- invariants ---------------------------------------------------------------------------


def _card_places(round_: Round) -> list[int]:
    """Every place a card can be at the round's stage (R2.2, R2.3, R4)."""
    if round_.phase == Phase.GRAND_TICHU:
        return round_.hands + round_.second_deal
    if round_.phase == Phase.SCHUPF:
        return round_.hands + [sum(triple) for triple in round_.given if triple is not None]
    return round_.hands + round_.won + [round_.trick_cards]


def assert_every_card_once(round_: Round) -> None:
    """Hands, won tricks, the open trick (and cards not yet dealt or delivered) partition the deck."""
    places = _card_places(round_)
    assert sum(place.bit_count() for place in places) == 56
    union = 0
    for place in places:
        union |= place
    assert union == DECK
    if round_.phase >= Phase.PLAYING:
        assert round_.played == DECK & ~(round_.hands[0] | round_.hands[1] | round_.hands[2] | round_.hands[3])


@ROUNDS
@given(seeds)
def test_r1_1_every_card_exactly_once_at_every_step(seed: int) -> None:
    round_, rng = _new_round(seed)
    assert_every_card_once(round_)
    play_out(round_, rng, assert_every_card_once)


def assert_caches_are_fresh(round_: Round) -> None:
    """The round's per-seat combinations and bombs, filtered as hands shrink, match a fresh count."""
    for seat in range(4):
        hand = round_.hands[seat]
        assert sorted(round_.combinations(seat)) == sorted(combinations_of(hand))
        assert round_.holds_bomb(seat) == any(play[1] == BOMB for play in combinations_of(hand))
    if round_.decision == Decision.PLAY and round_.turn is not None:
        trick = None if round_.is_lead else round_.trick
        wish = round_.wish_value if round_.wish_open else 0
        hand = round_.hands[round_.turn]
        assert round_.legal_plays() == legal_plays_from(combinations_of(hand), hand, trick, wish)


@SLOW_ROUNDS
@given(seeds)
def test_cached_combinations_match_a_fresh_computation(seed: int) -> None:
    round_, rng = _new_round(seed)
    play_out(round_, rng, assert_caches_are_fresh)


@ROUNDS
@given(seeds)
def test_r7_card_points_add_up_and_calls_are_scored(seed: int) -> None:
    """R7.1/R7.2: 100 card points (200/0 on a double victory); R6/R7.3: calls +-100/200."""
    round_, rng = _new_round(seed)
    play_out(round_, rng)
    result = round_.result()
    first = result.out_order[0]
    if result.double_victory:
        assert len(result.out_order) == 2 and result.out_order[1] == (first + 2) % 4
        assert result.card_points == ((200, 0) if first % 2 == 0 else (0, 200))
    else:
        assert len(result.out_order) == 3 and sum(result.card_points) == 100
    bonus = [0, 0]
    for seat, call in enumerate(round_.announcements):
        if call:
            bonus[seat % 2] += 100 * call * (1 if seat == first else -1)
    assert result.bonus == tuple(bonus)
    assert result.points == (result.card_points[0] + bonus[0], result.card_points[1] + bonus[1])


@ROUNDS
@given(seeds)
def test_r7_round_always_ends_and_nothing_is_left_to_do(seed: int) -> None:
    round_, rng = _new_round(seed)
    play_out(round_, rng)
    assert round_.decision == Decision.NONE and round_.legal_actions() == []
    assert all(round_.bombs_for(seat) == [] for seat in range(4))
    assert len(set(round_.out_order)) == len(round_.out_order)


@ROUNDS
@given(seeds, st.integers(min_value=0, max_value=200))
def test_clone_is_independent_and_replays_identically(seed: int, split: int) -> None:
    round_, rng = _new_round(seed)
    for _ in range(split):
        if round_.is_over:
            break
        random_step(round_, rng)
    copy = round_.clone()
    frozen = snapshot(copy)
    rng_state = rng.getstate()
    if not round_.is_over:
        play_out(round_, rng)
    assert snapshot(copy) == frozen, "playing the original must not change the clone"
    rng.setstate(rng_state)
    if not copy.is_over:
        play_out(copy, rng)
    assert copy.events == round_.events and copy.result() == round_.result()


@given(seeds, st.integers(min_value=0, max_value=120))
def test_clone_carries_every_attribute_and_shares_no_list(seed: int, split: int) -> None:
    """:meth:`Round.clone` names each attribute (the accelerator's compiled class has no
    ``__dict__`` to copy): one added to the round and forgotten there would be missing here."""
    round_, rng = _new_round(seed)
    for _ in range(split):
        if round_.is_over:
            break
        random_step(round_, rng)
    round_.combinations(0)
    copy = round_.clone()
    for name in state_names(round_):
        ours, theirs = getattr(round_, name), getattr(copy, name)
        assert theirs == ours, name
        if isinstance(ours, list):
            assert theirs is not ours, f"{name} is shared with the clone"


def _random_action(round_: Round, rng: random.Random) -> Action:
    """Any action of any seat, mostly with cards of its own hand; often not allowed."""
    seat = rng.randrange(4)
    hand = indices_of(round_.hands[seat]) or [rng.randrange(56)]
    mask = 0
    for index in rng.sample(hand, rng.randint(1, min(5, len(hand)))):
        mask |= 1 << index
    kind = rng.choice(list(ActionKind))
    value: object = {ActionKind.GRAND_TICHU: rng.random() < 0.5, ActionKind.SCHUPF: (mask, mask, mask),
                     ActionKind.WISH: rng.randrange(-1, 17), ActionKind.DRAGON: rng.randrange(5),
                     ActionKind.TICHU: None, ActionKind.PASS: None}.get(kind, mask)
    return Action(kind, seat, value)  # type: ignore[arg-type]  # any value, on purpose: often not allowed


@pytest.mark.slow
@SLOW_ROUNDS
@given(seeds)
def test_refused_actions_change_nothing(seed: int) -> None:
    """Every action the rules do not allow raises RuleViolation and leaves the round as it was."""
    round_, rng = _new_round(seed)
    for _ in range(MAX_STEPS):
        if round_.is_over:
            break
        for _ in range(3):
            before = snapshot(round_)
            try:
                round_.apply(_random_action(round_, rng))
            except RuleViolation:
                assert snapshot(round_) == before
            assert_every_card_once(round_)
        if not round_.is_over:
            random_step(round_, rng)
    assert round_.is_over


# -- card sets against the reference --------------------------------------------------------


def _labels_of(mask: int) -> tuple[str, ...]:
    return tuple(LABELS[index] for index in indices_of(mask))


@st.composite
def near_combinations(draw: st.DrawFn) -> int:
    """Card sets that often are combinations: cards of a few neighbouring values, maybe a special."""
    low = draw(st.integers(min_value=2, max_value=14))
    span = draw(st.integers(min_value=1, max_value=7))
    pool = [4 * (value - 2) + suit for value in range(low, min(low + span, 15)) for suit in range(4)]
    chosen = draw(st.sets(st.sampled_from(pool), min_size=1, max_size=min(10, len(pool))))
    specials = draw(st.sets(st.sampled_from([52, 53, 54, 55]), max_size=2))
    mask = 0
    for index in chosen | specials:
        mask |= 1 << index
    return mask


any_card_sets = st.sets(st.integers(min_value=0, max_value=55), min_size=1, max_size=9).map(
    lambda indices: sum(1 << index for index in indices))


def _expected_classification(mask: int) -> tuple[int, int, int] | None:
    found = reference_readings(_labels_of(mask))
    if not found:
        return None
    if mask == PHOENIX:
        return SINGLE, 1, PHOENIX_LEAD_RANK
    kinds = {_KINDS[reading.kind] for reading in found}
    assert len(kinds) == 1, f"{format_mask(mask)} reads as several types: {found}"
    best = max(found, key=lambda reading: reading.rank)
    return _KINDS[best.kind], best.length, int(best.rank)


@CARD_SETS
@given(any_card_sets)
def test_cards_of_and_format_mask_sort_by_value_then_suit_highest_first(mask: int) -> None:
    """The record's order of a card set (records.md): by value, then suit, highest first."""
    expected = sorted(indices_of(mask), key=lambda index: (-CARDS[index].value, -CARDS[index].suit))
    assert cards_of(mask) == [CARDS[index] for index in expected]
    assert format_mask(mask) == " ".join(LABELS[index] for index in expected)


@given(st.one_of(near_combinations(), any_card_sets))
def test_r3_classify_mask_agrees_with_brute_force(mask: int) -> None:
    assert classify_mask(mask) == _expected_classification(mask), format_mask(mask)


@CARD_SETS
@given(st.one_of(near_combinations(), any_card_sets))
def test_r3_combinations_of_lists_each_subset_once_as_classified(mask: int) -> None:
    """Every combination of a hand appears once, with the classification of its cards."""
    combos = combinations_of(mask)
    masks = [play[0] for play in combos]
    assert len(masks) == len(set(masks)), format_mask(mask)
    for play in combos:
        assert play[1:] == classify_mask(play[0]), format_mask(play[0])
    subsets = [sub for sub in _subsets(mask) if classify_mask(sub) is not None]
    assert sorted(subsets) == sorted(masks)


def _subsets(mask: int) -> list[int]:
    """Every non-empty subset of a mask."""
    found = []
    sub = mask
    while sub:
        found.append(sub)
        sub = (sub - 1) & mask
    return found


@st.composite
def hand_trick_wish(draw: st.DrawFn) -> tuple[int, Play | None, int]:
    """A hand of up to 9 cards, a combination from the other cards (or a lead), a wish."""
    indices = draw(st.lists(st.integers(min_value=0, max_value=55), min_size=1, max_size=9, unique=True))
    hand = sum(1 << index for index in indices)
    trick: Play | None = None
    if draw(st.booleans()):
        other = draw(near_combinations()) & ~hand
        tricks = [play for play in combinations_of(other) if play[0] != 1 << 52]  # never a Dog trick
        if tricks:
            trick = draw(st.sampled_from(tricks))
            if trick[0] == PHOENIX:  # a Phoenix played on a single of rank 1..14 (R3.6)
                trick = Play(PHOENIX, SINGLE, 1, draw(st.integers(min_value=1, max_value=14)))
    wish = draw(st.sampled_from([0, 0, *range(2, 15)]))
    return hand, trick, wish


@CARD_SETS
@given(hand_trick_wish())
def test_r4_1_r5_legal_plays_agree_with_brute_force(case: tuple[int, Play | None, int]) -> None:
    hand, trick, wish = case
    found = {play[0] for play in legal_plays_from(combinations_of(hand), hand, trick, wish)}
    table = reference_trick(_labels_of(trick[0]), None) if trick else None
    if trick is not None and trick[0] == PHOENIX:
        table = Reading("single", 1, trick[3] + 0.5)
    expected = {sum(1 << LABELS.index(label) for label in cards)
                for cards, _ in reference_legal_plays(_labels_of(hand), table, wish)}
    assert found == expected, (format_mask(hand), trick and format_mask(trick[0]), wish)


def test_bombs_weakest_first_is_the_order_beats_uses() -> None:
    """R3.8: ``weakest_first`` orders every bomb of the deck (13 fours, 180 straight flushes) as
    :func:`beats` compares them: each beats every one listed before it and none listed after
    (four of a kind below a straight flush, longer flushes above shorter ones, equal lengths by
    rank; bombs of equal strength in different suits beat neither way)."""
    every = bombs_of(sum(1 << index for index in range(52)))
    ordered = weakest_first(every)
    assert len(ordered) == 193 and sorted(ordered) == sorted(every)
    for earlier, later in itertools.combinations(ordered, 2):
        assert not beats(earlier, later)
        assert beats(later, earlier) == ((later.length, later.rank) != (earlier.length, earlier.rank))
