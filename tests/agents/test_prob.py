"""Tests of :mod:`tichu.agents.support.prob` against brute-force enumeration on small cases.

Each case is a hand-made :class:`~tichu.agents.support.knowledge.Knowledge` with a few unseen cards;
:func:`consistent_deals` lists every deal of them that agrees with the counts, ``must``
and ``cannot`` (written here without the library), and every deal is taken as equally
likely. The exact functions must give the brute-force probability; sampled estimates must
lie within a few standard errors of it; :class:`~tichu.agents.support.prob.DealSampler` must draw
every consistent deal equally often and never an inconsistent one. The events are
written from rules.md (R3.1-R3.9) without the project's combination code.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache, partial
from itertools import combinations
from math import sqrt

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.core.helpers import cards
from tichu.agents.support.knowledge import Knowledge, SeatFacts
from tichu.agents.support.prob import (
    EXACT_PLACEMENT_LIMIT,
    DealSampler,
    can_beat,
    estimate,
    is_exact,
    p_beats,
    p_beats_exact,
    p_holds_bomb,
    p_holds_four_of_a_kind,
    p_holds_value,
)
from tichu.core.cards import CARD_VALUE, DRAGON, MAHJONG, PHOENIX, SUIT_MASK, VALUE_MASK, format_mask, indices_of
from tichu.core.combos import BOMB, PAIR, SINGLE, STREET, TRIPLE, Play

Deal = tuple[int, int, int, int]
EXACT = 1e-9
KNOWLEDGE_CASES = settings(max_examples=120, deadline=None, database=None)
CARD_SETS = settings(max_examples=300, deadline=None, database=None)


def knowledge(hand: str, unseen: str, others: Sequence[tuple[int, str, str]], seat: int = 0) -> Knowledge:
    """A knowledge of ``seat`` (its hand) with the other seats' ``(count, must, cannot)`` in seat order."""
    own = cards(hand)
    facts: list[SeatFacts] = []
    rest = iter(others)
    for other in range(4):
        if other == seat:
            facts.append(SeatFacts(own.bit_count(), own, 0))
        else:
            count, must, cannot = next(rest)
            facts.append(SeatFacts(count, cards(must), cards(cannot)))
    return Knowledge(seat, own, cards(unseen), tuple(facts))


# -- brute force --------------------------------------------------------------------------------


@cache
def consistent_deals(know: Knowledge) -> list[Deal]:
    """Every deal of the unseen cards to the other seats that agrees with the knowledge."""
    others = [seat for seat in range(4) if seat != know.seat]
    pool = indices_of(know.unseen)
    deals: list[Deal] = []

    def deal_from(position: int, left: list[int], hands: list[int]) -> None:
        if position == len(others):
            if not left:
                deals.append((hands[0], hands[1], hands[2], hands[3]))
            return
        seat = others[position]
        facts = know.seats[seat]
        for chosen in combinations(left, facts.count):
            hand = sum(1 << index for index in chosen)
            if hand & facts.must == facts.must and not hand & facts.cannot:
                hands[seat] = hand
                deal_from(position + 1, [index for index in left if not hand >> index & 1], hands)
        hands[seat] = 0

    start = [0, 0, 0, 0]
    start[know.seat] = know.hand
    deal_from(0, pool, start)
    return deals


def brute_probability(know: Knowledge, event: Callable[[Deal], bool]) -> float:
    """The share of the consistent deals on which ``event`` holds."""
    deals = consistent_deals(know)
    assert deals, "the case must have a consistent deal"
    return sum(1 for deal in deals if event(deal)) / len(deals)


@cache
def seat_hands(know: Knowledge, seat: int) -> Counter[int]:
    """How many consistent deals give ``seat`` each of its possible hands."""
    return Counter(deal[seat] for deal in consistent_deals(know))


def brute_seat_probability(know: Knowledge, seat: int, event: Callable[[int], bool]) -> float:
    """The share of the consistent deals on which ``event(hand of seat)`` holds."""
    hands = seat_hands(know, seat)
    return sum(weight for hand, weight in hands.items() if event(hand)) / sum(hands.values())


def holds_value(hand: int, value: int, at_least: int) -> bool:
    return (hand & VALUE_MASK[value]).bit_count() >= at_least


def _any_seat_bombs(deal: Sequence[int], seats: Sequence[int]) -> bool:
    """Whether any of ``seats`` holds a bomb in ``deal``."""
    return any(any_bomb(deal[seat]) for seat in seats)


def four_of_a_kind(hand: int) -> bool:
    """R3.7: four cards of one value."""
    return any(hand & VALUE_MASK[value] == VALUE_MASK[value] for value in range(2, 15))


def straight_flush(hand: int) -> bool:
    """R3.7: five cards of one suit with consecutive values."""
    for suit in range(1, 5):
        values = {CARD_VALUE[index] for index in indices_of(hand & SUIT_MASK[suit])}
        if any(all(value + step in values for step in range(5)) for value in range(2, 11)):
            return True
    return False


def any_bomb(hand: int) -> bool:
    return four_of_a_kind(hand) or straight_flush(hand)


def beats_without_bomb(hand: int, trick: Play) -> bool:
    """Whether a hand holds a single, pair or triple beating ``trick`` (R3.1, R3.2, R3.6, R3.8, R3.9).

    A Phoenix single on the table carries the rank of the single it was played on (x.5),
    one led ranks 1.5; the Dragon beats every single, the Phoenix every one but the Dragon.
    """
    mask, kind, _, rank = trick
    phoenix = bool(hand & PHOENIX)
    counts = {value: (hand & VALUE_MASK[value]).bit_count() for value in range(2, 15)}
    if kind == SINGLE:
        if mask == DRAGON:
            return False
        higher = any(counts[value] for value in range(2, 15) if value > rank)
        return higher or bool(hand & DRAGON) or (phoenix and mask != PHOENIX)
    size = 2 if kind == PAIR else 3
    return any(counts[value] >= size or (phoenix and counts[value] >= size - 1)
               for value in range(rank + 1, 15))


def beats(hand: int, trick: Play, bombs: bool) -> bool:
    """Reference for :func:`can_beat` on single/pair/triple tricks: bombs beat them all (R3.8)."""
    return beats_without_bomb(hand, trick) or (bombs and any_bomb(hand))


def _within(estimated: float, exact: float, samples: int, sigmas: float = 4.0) -> bool:
    error = sqrt(exact * (1 - exact) / samples)
    return abs(estimated - exact) <= sigmas * error + 1e-3


# -- plays used as tricks --------------------------------------------------------------------


def single(rank: int) -> Play:
    return Play(1 << (4 * (rank - 2)), SINGLE, 1, rank)


def pair(rank: int) -> Play:
    return Play(VALUE_MASK[rank] & 0x3 << 4 * (rank - 2), PAIR, 2, rank)


def triple(rank: int) -> Play:
    return Play(VALUE_MASK[rank] & 0x7 << 4 * (rank - 2), TRIPLE, 3, rank)


MAHJONG_SINGLE = Play(MAHJONG, SINGLE, 1, 1)
PHOENIX_LED = Play(PHOENIX, SINGLE, 1, 1)  # R3.6: 1.5
DRAGON_SINGLE = Play(DRAGON, SINGLE, 1, 15)
TRICKS: list[Play] = ([single(rank) for rank in range(2, 15)] + [pair(rank) for rank in range(2, 15)]
                      + [triple(rank) for rank in range(2, 15)]
                      + [MAHJONG_SINGLE, PHOENIX_LED, DRAGON_SINGLE]
                      + [Play(PHOENIX, SINGLE, 1, rank) for rank in (1, 5, 9, 13, 14)])


# -- the cases ---------------------------------------------------------------------------------

#: No ``cannot``: every other seat's hand is a uniform draw. The Phoenix, the Dragon and the
#: four 9s are free; seats 1 and 3 have one known card each.
FREE = knowledge("G2 R2 G3 R3 GZ", "S9 B9 G9 R9 SZ BZ SB Ph Dr S3 B5 RA",
                 [(4, "S3", ""), (4, "", ""), (4, "SZ", "")])
#: The Phoenix and the Dragon known (pushed, R2.3) to be with seats 2 and 3.
KNOWN_SPECIALS = knowledge("G2 R2 G3 R3 GZ", "S9 B9 G9 R9 SK BK GK Ph Dr S4 B4",
                           [(3, "", ""), (4, "Ph", ""), (4, "Dr BK", "")])
#: Seat 1 is void of the wished 9 (R5.2): exact for seat 1 only.
VOID_ONE = knowledge("G2 R2 G3 R3 GZ", "S9 B9 G9 R9 SZ BZ SB Ph Dr S3 B5 RA",
                     [(4, "S3", "S9 B9 G9 R9"), (4, "", ""), (4, "SZ", "")])
#: Seat 2's void (S9) is inside seat 1's: seat 1's hand stays a uniform draw.
NESTED_VOIDS = knowledge("G2 R2 G3 R3 GZ", "S9 B9 G9 R9 SZ BZ SB Ph Dr S3 B5",
                         [(4, "", "S9 B9 Dr"), (4, "", "S9"), (3, "B5", "")])
#: Voids on two seats that touch each other's free cards: no seat is exact.
CROSSED_VOIDS = knowledge("G2 R2 G3 R3 GZ", "S9 B9 G9 R9 SZ BZ SB Ph Dr S3 B5 RA",
                          [(4, "", "Ph"), (4, "", "S9"), (4, "", "Dr")])
#: Another knowing seat (2), so the partner and the opponents are other seats.
SEAT_TWO = knowledge("G2 R2 G3", "S9 B9 G9 R9 S8 B8 G8 Ph Dr SA",
                     [(3, "", ""), (4, "Dr", ""), (3, "", "")], seat=2)

CASES = {"free": FREE, "known_specials": KNOWN_SPECIALS, "void_one": VOID_ONE, "nested_voids": NESTED_VOIDS,
         "crossed_voids": CROSSED_VOIDS, "seat_two": SEAT_TWO}
EXACT_SEATS = {"free": (1, 2, 3), "known_specials": (1, 2, 3), "void_one": (1,), "nested_voids": (1,),
               "crossed_voids": (), "seat_two": (0, 1, 3)}


def _exact_cases() -> list[tuple[str, int]]:
    return [(name, seat) for name, seats in EXACT_SEATS.items() for seat in seats]


@pytest.mark.parametrize("name", list(CASES))
def test_is_exact_tells_which_hands_are_uniform_draws(name: str) -> None:
    """A seat is exact when no other seat's ``cannot`` touches its free cards (never the knower)."""
    know = CASES[name]
    assert [seat for seat in range(4) if seat != know.seat and is_exact(know, seat)] == list(EXACT_SEATS[name])
    assert consistent_deals(know)


@pytest.mark.parametrize(("name", "seat"), _exact_cases())
def test_p_holds_value_equals_brute_force(name: str, seat: int) -> None:
    """R5.2 (the wish) and R3.2/R3.7 (counts of a value): every value, one to four cards."""
    know = CASES[name]
    for value in range(2, 15):
        for at_least in range(1, 5):
            expected = brute_seat_probability(know, seat, partial(holds_value, value=value, at_least=at_least))
            assert p_holds_value(know, seat, value, at_least) == pytest.approx(expected, abs=EXACT), (value, at_least)


@pytest.mark.parametrize(("name", "seat"), _exact_cases())
def test_p_holds_four_of_a_kind_equals_brute_force(name: str, seat: int) -> None:
    """R3.7: four cards of one value."""
    know = CASES[name]
    expected = brute_seat_probability(know, seat, four_of_a_kind)
    assert p_holds_four_of_a_kind(know, seat) == pytest.approx(expected, abs=EXACT)


@pytest.mark.parametrize(("name", "seat"), _exact_cases())
def test_p_beats_exact_equals_brute_force(name: str, seat: int) -> None:
    """R3.6, R3.8, R3.9: singles (the Mah Jong, the Phoenix led and played on a card, the
    Dragon), pairs and triples of every rank, beaten without bombs."""
    know = CASES[name]
    for trick in TRICKS:
        expected = brute_seat_probability(know, seat, partial(beats_without_bomb, trick=trick))
        assert p_beats_exact(know, seat, trick) == pytest.approx(expected, abs=EXACT), trick


def test_some_cases_are_not_trivial() -> None:
    """The brute-force values the cases compare are not all 0 or 1 (a guard on the cases)."""
    assert 0 < p_holds_four_of_a_kind(FREE, 2) < 1
    assert 0 < p_beats_exact(FREE, 2, single(13)) < 1  # the Ace, the Dragon or the Phoenix
    assert p_beats_exact(KNOWN_SPECIALS, 2, single(14)) == 1.0  # the known Phoenix beats the Ace
    assert p_beats_exact(KNOWN_SPECIALS, 1, single(14)) == 0.0  # both specials are elsewhere
    assert p_beats_exact(FREE, 1, DRAGON_SINGLE) == 0.0
    assert p_holds_value(VOID_ONE, 1, 9) == 0.0
    assert 0 < p_beats_exact(NESTED_VOIDS, 1, pair(9)) < 1


# -- not exact: the exact functions refuse ----------------------------------------------------------


@pytest.mark.parametrize(("name", "seat"), [("void_one", 2), ("void_one", 3), ("crossed_voids", 1),
                                            ("crossed_voids", 2), ("crossed_voids", 3), ("nested_voids", 2),
                                            ("free", 0), ("seat_two", 2)])
def test_exact_functions_refuse_seats_that_are_no_uniform_draw(name: str, seat: int) -> None:
    """When another seat's ``cannot`` touches the seat's free cards (or for the knowing seat
    itself), is_exact is False and the exact functions raise ValueError."""
    know = CASES[name]
    if seat != know.seat:
        assert not is_exact(know, seat)
    with pytest.raises(ValueError):
        p_holds_value(know, seat, 9)
    with pytest.raises(ValueError):
        p_holds_four_of_a_kind(know, seat)
    with pytest.raises(ValueError):
        p_beats_exact(know, seat, single(9))


def test_p_beats_exact_refuses_other_combinations() -> None:
    street = Play(cards("S3 B4 G5 R6 S7"), STREET, 5, 7)
    with pytest.raises(ValueError):
        p_beats_exact(FREE, 1, street)
    with pytest.raises(ValueError):
        p_beats_exact(FREE, 1, Play(VALUE_MASK[5], BOMB, 4, 5))


# -- the sampler ---------------------------------------------------------------------------------


def _chi_square(counts: Counter[Deal], deals: list[Deal], samples: int) -> float:
    expected = samples / len(deals)
    return sum((counts[deal] - expected) ** 2 / expected for deal in deals)


def _assert_uniform(know: Knowledge, samples: int, seed: int) -> None:
    deals = consistent_deals(know)
    allowed = set(deals)
    sampler = DealSampler(know)
    rng = random.Random(seed)
    counts: Counter[Deal] = Counter()
    for _ in range(samples):
        hands = sampler.sample(rng)
        deal = (hands[0], hands[1], hands[2], hands[3])
        assert deal in allowed, [format_mask(hand) for hand in deal]
        counts[deal] += 1
    assert set(counts) == allowed, "every consistent deal must come up"
    degrees = len(deals) - 1
    # The chi-square statistic has mean `degrees` and deviation sqrt(2 * degrees) for a uniform draw.
    assert _chi_square(counts, deals, samples) < degrees + 6 * sqrt(2 * degrees)
    expected = samples / len(deals)
    assert max(abs(count - expected) for count in counts.values()) < 6 * sqrt(expected)


def test_sampler_is_uniform_over_consistent_deals_with_a_void() -> None:
    """Seat 1 cannot hold the Dragon or the Phoenix, seat 3 not the S2 (exact placements)."""
    know = knowledge("G9 R9", "S2 B3 G4 R5 S6 Ph Dr", [(2, "", "Ph Dr"), (2, "", ""), (3, "", "S2")])
    sampler = DealSampler(know)
    assert len(sampler.constrained) == 3 and sampler.placements
    _assert_uniform(know, 30000, seed=1)


def test_sampler_is_uniform_with_must_cards() -> None:
    """Known cards stay with their seat; the rest is uniform."""
    know = knowledge("G9 R9", "S2 B3 G4 R5 S6 Ph Dr SA", [(3, "SA", "Dr"), (2, "Ph", ""), (3, "", "")])
    _assert_uniform(know, 20000, seed=2)


@pytest.mark.slow
def test_sampler_falls_back_to_rejection_and_stays_uniform() -> None:
    """More than EXACT_PLACEMENT_LIMIT constrained cards: rejection sampling, still uniform."""
    know = knowledge("G9 R9", "S2 B3 G4 R5 S6 B7 Ph Dr", [(3, "", "S2 B3 G4 R5"), (3, "", "S6 B7 Ph"),
                                                          (2, "", "")])
    sampler = DealSampler(know)
    assert len(sampler.constrained) > EXACT_PLACEMENT_LIMIT and not sampler.placements
    _assert_uniform(know, 12000, seed=3)


@pytest.mark.parametrize("name", list(CASES))
def test_samples_respect_counts_must_and_cannot(name: str) -> None:
    know = CASES[name]
    sampler = DealSampler(know)
    rng = random.Random(4)
    allowed = set(consistent_deals(know))
    for _ in range(500):
        hands = sampler.sample(rng)
        assert tuple(hands) in allowed


def test_sampler_refuses_counts_that_do_not_match_the_unseen_cards() -> None:
    """The other seats' counts must add up to the unseen cards."""
    with pytest.raises(ValueError):
        DealSampler(knowledge("G9", "S2 B3 G4 R5", [(2, "", ""), (1, "", ""), (2, "", "")]))
    with pytest.raises(ValueError):
        DealSampler(knowledge("G9", "S2 B3 G4 R5", [(1, "", ""), (1, "", ""), (1, "", "")]))


def test_sampler_refuses_more_known_cards_than_the_count() -> None:
    with pytest.raises(ValueError):
        DealSampler(knowledge("G9", "S2 B3 G4 R5", [(1, "S2 B3", ""), (2, "", ""), (1, "", "")]))


def test_sampler_refuses_knowledge_no_deal_satisfies() -> None:
    """A card no seat may hold, or more voids than places: no consistent deal."""
    with pytest.raises(ValueError):
        DealSampler(knowledge("G9", "S2 B3 G4 R5", [(1, "", "S2"), (2, "", "S2"), (1, "", "S2")]))
    with pytest.raises(ValueError):
        DealSampler(knowledge("G9", "S2 B3 G4 R5", [(1, "", ""), (2, "", "S2 B3"), (1, "", "S2 B3")]))


def test_sampler_refuses_unsatisfiable_knowledge_with_many_constrained_cards() -> None:
    """No seat may hold S2, with seven constrained cards (the rejection path): no consistent
    deal, so the sampler should refuse the knowledge as it does on the exact path."""
    know = knowledge("G9 R9", "S2 B3 G4 R5 S6 B7 Ph Dr", [(3, "", "S2 B3 G4 R5"), (3, "", "S2 S6 B7 Ph"),
                                                          (2, "", "S2")])
    assert consistent_deals(know) == []
    with pytest.raises(ValueError):
        DealSampler(know)  # never sample() here: it would not return


# -- sampled estimates against brute force -------------------------------------------------------

#: A case with bombs in reach: four 9s and the straight flush S2-S6 (seat 1 holds five cards).
BOMBS = knowledge("G2 R2 G3 R3 GZ", "S9 B9 G9 R9 S2 S3 S4 S5 S6 Ph Dr BK",
                  [(5, "", ""), (4, "", "Dr"), (3, "", "")])


def test_estimate_agrees_with_brute_force() -> None:
    know = VOID_ONE

    def event(hands: Sequence[int]) -> bool:
        return holds_value(hands[2], 9, 2) or bool(hands[3] & PHOENIX)

    exact = brute_probability(know, event)
    estimated = estimate(DealSampler(know), event, 20000, random.Random(5))
    assert _within(estimated, exact, 20000), (estimated, exact)


@pytest.mark.parametrize(("trick", "seats", "bombs"), [
    (pair(8), (1, 3), True),
    (pair(8), (1, 3), False),
    (single(14), (2,), True),
    (triple(4), (1, 2, 3), False),
])
def test_p_beats_agrees_with_brute_force(trick: Play, seats: tuple[int, ...], bombs: bool) -> None:
    """R3.8: at least one of the seats can beat the trick, bombs counted or not."""
    know = BOMBS
    exact = brute_probability(know, lambda deal: any(beats(deal[seat], trick, bombs) for seat in seats))
    samples = 12000
    estimated = p_beats(know, seats, trick, DealSampler(know), samples, random.Random(6), bombs=bombs)
    assert _within(estimated, exact, samples), (estimated, exact)


@pytest.mark.slow
def test_p_holds_bomb_agrees_with_brute_force() -> None:
    """R3.7: four of a kind or a straight flush, in any of the seats."""
    know = BOMBS
    for seats in ((1,), (1, 2, 3)):
        exact = brute_probability(know, partial(_any_seat_bombs, seats=seats))
        assert 0 < exact < 1
        estimated = p_holds_bomb(know, seats, DealSampler(know), 10000, random.Random(7))
        assert _within(estimated, exact, 10000), (seats, estimated, exact)


# -- random small cases ---------------------------------------------------------------------------

#: Cards that make many combinations in few cards: three values, the specials.
POOL = [index for value in (8, 9, 10) for index in indices_of(VALUE_MASK[value])] + [52, 53, 54, 55]


@st.composite
def small_knowledge(draw: st.DrawFn) -> Knowledge:
    """A knowledge with 3..9 unseen cards, random counts, a few known and forbidden cards."""
    seat = draw(st.integers(min_value=0, max_value=3))
    unseen_cards = draw(st.lists(st.sampled_from(POOL), min_size=3, max_size=9, unique=True))
    unseen = sum(1 << index for index in unseen_cards)
    others = [other for other in range(4) if other != seat]
    cuts = sorted(draw(st.lists(st.integers(min_value=0, max_value=len(unseen_cards)), min_size=2, max_size=2)))
    counts = [cuts[0], cuts[1] - cuts[0], len(unseen_cards) - cuts[1]]
    order = draw(st.permutations(unseen_cards))
    facts: dict[int, SeatFacts] = {}
    start = 0
    for other, count in zip(others, counts):
        own_cards = order[start:start + count]  # one consistent deal, to take known cards from
        start += count
        known = draw(st.integers(min_value=0, max_value=min(2, count)))
        must = sum(1 << index for index in own_cards[:known])
        cannot = 0
        for index in unseen_cards:
            if not must >> index & 1 and draw(st.integers(min_value=0, max_value=5)) == 0:
                cannot |= 1 << index
        facts[other] = SeatFacts(count, must, cannot)
    hand = cards("S2 B2 G3")
    facts[seat] = SeatFacts(3, hand, 0)
    return Knowledge(seat, hand, unseen, tuple(facts[other] for other in range(4)))


@KNOWLEDGE_CASES
@given(small_knowledge())
def test_exact_functions_equal_brute_force_on_random_small_cases(know: Knowledge) -> None:
    assume(consistent_deals(know))
    for seat in range(4):
        if seat == know.seat or not is_exact(know, seat):
            continue

        def chance(event: Callable[[int], bool], seat: int = seat) -> float:
            return brute_seat_probability(know, seat, event)

        for value in (8, 9, 10):
            for at_least in (1, 2, 4):
                expected = chance(partial(holds_value, value=value, at_least=at_least))
                assert p_holds_value(know, seat, value, at_least) == pytest.approx(expected, abs=EXACT)
        assert p_holds_four_of_a_kind(know, seat) == pytest.approx(chance(four_of_a_kind), abs=EXACT)
        for trick in (single(8), single(9), single(14), MAHJONG_SINGLE, PHOENIX_LED, Play(PHOENIX, SINGLE, 1, 9),
                      DRAGON_SINGLE, pair(7), pair(8), pair(9), triple(8), triple(9)):
            expected = chance(partial(beats_without_bomb, trick=trick))
            assert p_beats_exact(know, seat, trick) == pytest.approx(expected, abs=EXACT), trick


@KNOWLEDGE_CASES
@given(small_knowledge(), st.integers(min_value=0, max_value=2**32 - 1))
def test_sampler_accepts_exactly_the_satisfiable_cases(know: Knowledge, seed: int) -> None:
    """With few constrained cards, DealSampler raises ValueError iff no deal is consistent;
    otherwise its samples are consistent deals."""
    deals = consistent_deals(know)
    if not deals:
        try:
            sampler = DealSampler(know)
        except ValueError:
            return
        assert len(sampler.constrained) > EXACT_PLACEMENT_LIMIT, "an unsatisfiable case must be refused"
        return  # rejection sampling would never return here
    sampler = DealSampler(know)
    rng = random.Random(seed)
    allowed = set(deals)
    for _ in range(20):
        assert tuple(sampler.sample(rng)) in allowed


@CARD_SETS
@given(st.sets(st.integers(min_value=0, max_value=55), max_size=9), st.sampled_from(TRICKS), st.booleans())
def test_can_beat_agrees_with_the_rules(indices: set[int], trick: Play, bombs: bool) -> None:
    """R3.6-R3.9: can_beat on singles, pairs and triples, with or without bombs."""
    hand = sum(1 << index for index in indices) & ~trick[0]
    assert can_beat(hand, trick, bombs=bombs) == beats(hand, trick, bombs), (format_mask(hand), trick)
