"""Tests of :mod:`tichu.agents.support.inference` against the exact posterior on small cases.

The cases are hand-made knowledge with six or seven unseen cards; every consistent deal is
enumerated (``consistent_deals`` of the prob tests, written without the library), weighted
with the model's likelihood written out here again (passes: 0.7 per higher single, calls:
0.6 per control card short of three), and normalised: the exact posterior. The weighted
sampler's frequencies must lie within a few standard errors of it.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from math import sqrt
from typing import Any

import pytest

from tests.agents.test_prob import consistent_deals
from tests.core.helpers import cards
from tichu.agents.support.inference import (
    CALL_FACTOR,
    PASS_FACTOR,
    Evidence,
    WeightedSampler,
    evidence_of,
    likelihood,
)
from tichu.agents.support.knowledge import Knowledge, SeatFacts
from tichu.agents.support.prob import DealSampler
from tichu.core.cards import DRAGON, PHOENIX, VALUE_MASK, indices_of
from tichu.core.combos import SINGLE, Play
from tichu.core.views import PublicState, TableInfo, TablePhase, build_public_state


def knowledge(own: int, unseen: int, counts: tuple[int, int, int], cannot: tuple[int, int, int] = (0, 0, 0)
              ) -> Knowledge:
    seats = (SeatFacts(own.bit_count(), own, 0),) + tuple(SeatFacts(count, 0, never)
                                                          for count, never in zip(counts, cannot))
    return Knowledge(0, own, unseen, seats)


def model(hands: tuple[int, ...], evidence: list[Evidence]) -> float:
    """The likelihood, written out independently of the library."""
    weight = 1.0
    for kind, seat, rank in evidence:
        hand = hands[seat]
        if kind == "pass":
            higher = sum(1 for index in indices_of(hand)
                         if (1 << index) & (DRAGON | PHOENIX)
                         or any((1 << index) & VALUE_MASK[value] for value in range(rank + 1, 15)))
            weight *= 0.7 ** higher
        else:
            controls = sum(1 for index in indices_of(hand) if (1 << index) & (DRAGON | PHOENIX | VALUE_MASK[14]))
            weight *= 0.6 ** max(0, 3 - controls)
    return weight


CASES = [
    # seat 1 passed on a 5; seat 3 called Tichu
    (knowledge(cards("R2 G2"), cards("R3 B4 S9 RB GA Dr"), (2, 2, 2)),
     [Evidence("pass", 1, 5), Evidence("call", 3, 0)]),
    # seat 2 passed on a 7 and may not hold the 3 (a wish void)
    (knowledge(cards("R2"), cards("R3 B4 S8 RK GA Ph Dr"), (3, 2, 2), (0, cards("R3"), 0)),
     [Evidence("pass", 2, 7), Evidence("pass", 1, 10)]),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_weighted_sampler_draws_the_exact_posterior(case: int) -> None:
    know, evidence = CASES[case]
    assert PASS_FACTOR == 0.7 and CALL_FACTOR == 0.6
    deals = consistent_deals(know)
    weights = [model(deal, evidence) for deal in deals]
    for deal, weight in zip(deals, weights):
        assert likelihood(list(deal), evidence) == pytest.approx(weight)
    total = sum(weights)
    sampler = WeightedSampler(DealSampler(know), evidence, tries=10_000)
    rng = random.Random(case)
    draws = 20_000
    seen: Counter[tuple[int, ...]] = Counter(tuple(sampler.sample(rng)) for _ in range(draws))
    assert set(seen) <= set(deals)
    # every card's seat: frequency within 4 standard errors of the exact posterior
    for index in indices_of(know.unseen):
        for seat in (1, 2, 3):
            exact = sum(weight for deal, weight in zip(deals, weights) if deal[seat] >> index & 1) / total
            found = sum(count for deal, count in seen.items() if deal[seat] >> index & 1) / draws
            assert abs(found - exact) <= 4 * sqrt(exact * (1 - exact) / draws) + 1e-9, (index, seat)
    # and the evidence moved the posterior: the first passing seat holds fewer higher cards
    seat, rank = evidence[0].seat, evidence[0].rank
    higher = [model((0,) * seat + (deal[seat],), [Evidence("pass", seat, rank)]) for deal in deals]
    uniform = sum(higher) / len(deals)
    posterior = sum(h * w for h, w in zip(higher, weights)) / total
    assert posterior > uniform + 0.005  # 0.7 ** higher grows as the higher cards get fewer


def test_without_evidence_the_sampler_is_the_uniform_one() -> None:
    know, _ = CASES[0]
    sampler = WeightedSampler(DealSampler(know), [])
    assert sampler.sample(random.Random(1)) == DealSampler(know).sample(random.Random(1))


def test_out_of_tries_takes_the_likeliest_deal_drawn() -> None:
    know, _ = CASES[0]
    evidence = [Evidence("pass", seat, 2) for seat in (1, 2, 3)] * 40  # every deal is most unlikely
    hands = WeightedSampler(DealSampler(know), evidence, tries=5).sample(random.Random(2))
    assert sorted(hand.bit_count() for hand in hands[1:]) == [2, 2, 2]


def _public(**fields: Any) -> PublicState:
    """A table's public state with these facts (a real one: the compiled accelerator checks types)."""
    return dataclasses.replace(build_public_state(TableInfo(phase=TablePhase.PLAYING), None), **fields)


def test_evidence_from_passes_on_an_opponents_low_single_and_calls() -> None:
    """Seat 2 passed on seat 1's 5 and seat 1 on seat 0's 10 (evidence); seat 0 (the knowing
    seat) gives none on itself, seat 2 passing on its partner's 10 none either; seat 3 called
    Tichu."""
    four, five = Play(cards("S4"), SINGLE, 1, 4), Play(cards("R5"), SINGLE, 1, 5)
    nine, ten = Play(cards("B9"), SINGLE, 1, 9), Play(cards("GZ"), SINGLE, 1, 10)
    public = _public(count_hand_cards=(10, 9, 8, 3), trick_turns=((3, four), (1, five), (3, nine), (0, ten)),
                     current_turn_index=3, trick_owner_index=0, announcements=(0, 0, 0, 1))
    found = evidence_of(public, 0)
    assert sorted(found) == sorted([Evidence("pass", 2, 5), Evidence("pass", 1, 10), Evidence("call", 3, 0)])
    few = _public(count_hand_cards=(10, 4, 8, 3), trick_turns=((0, ten),), current_turn_index=3,
                  trick_owner_index=0, announcements=(0, 0, 0, 0))
    assert evidence_of(few, 0) == []  # seat 1 holds too few cards for its pass to say much
