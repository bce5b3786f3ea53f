"""Tests of :mod:`tichu.agents.support.knowledge`: what a seat knows about the hidden hands (R8).

The soundness check: on real rounds, at every step and for every seat, the knowledge
never contradicts the truth (each other seat holds its ``must`` cards, none of its
``cannot`` cards, and as many cards as counted), the unseen cards are exactly the cards
neither in the own hand nor played, and the cards the seat pushed (R2.3) are known to be
with their recipient until played. Scripted rounds check the wish deductions (R5.2).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.helpers import cards, planted_deal, playing_round, run
from tichu.agents.support.knowledge import Knowledge, knowledge_of, wish_voids
from tichu.agents.support.prob import DealSampler
from tichu.core.cards import DECK, DOG, MAHJONG, VALUE_MASK, format_mask, indices_of
from tichu.core.combos import BOMB, bombs_of
from tichu.core.round import Decision, Phase, Round
from tichu.core.views import PublicState, TableInfo, TablePhase, build_private_state, build_public_state

ROUNDS = settings(max_examples=60, deadline=None, database=None)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
#: The engine's table phase while a round is played; ``knowledge_of`` reads the pushed
#: cards only then (a bare ``TableInfo()`` says "lobby").
PLAYING = TableInfo(phase=TablePhase.PLAYING, is_running=True)
MAX_STEPS = 3000


def _public(round_: Round) -> PublicState:
    return build_public_state(PLAYING, round_)


def _knowledge(round_: Round, seat: int) -> Knowledge:
    return knowledge_of(_public(round_), build_private_state(round_, seat))


# -- random rounds --------------------------------------------------------------------------------


def _new_round(rng: random.Random) -> Round:
    if rng.random() < 0.5:
        return Round(deal=planted_deal(rng))
    return Round(rng=random.Random(rng.getrandbits(32)))


def _dog_under_wish(round_: Round, play_mask: int | None) -> bool:
    return play_mask == DOG and round_.wish_open


def _step(round_: Round, rng: random.Random, *, side_bombs: bool, dog_under_wish: bool) -> bool:
    """One random action; tells whether the round goes on (``False``: stopped before a play
    that the caller excluded)."""
    decision = round_.decision
    if decision == Decision.GRAND_TICHU:
        seat = round_.decision_seat
        assert seat is not None
        round_.decide_grand_tichu(seat, False)
        return True
    if decision == Decision.SCHUPF:
        seat = round_.decision_seat
        assert seat is not None
        given_cards = rng.sample(indices_of(round_.hands[seat]), 3)
        round_.schupf(seat, [1 << index for index in given_cards])
        return True
    if side_bombs and rng.random() < 0.25:
        bombers = [seat for seat in range(4) if round_.bombs_for(seat)]
        if bombers:
            bomber = rng.choice(bombers)
            round_.bomb(bomber, rng.choice(round_.bombs_for(bomber))[0])  # R4.3, out of turn
            return True
    if decision == Decision.PLAY and round_.trick_closed and rng.random() < 0.3:
        round_.collect_trick()
        return True
    actions = round_.legal_actions()
    if decision == Decision.PLAY and not dog_under_wish:
        allowed = [action for action in actions
                   if not _dog_under_wish(round_, None if action.value is None else action.number())]
        if not allowed:
            return False
        actions = allowed
    round_.apply(rng.choice(actions))
    return True


def _play_through(seed: int, check: Callable[[Round], None], *, side_bombs: bool, dog_under_wish: bool) -> int:
    """Play a random round, calling ``check`` in every state of the playing phase."""
    rng = random.Random(seed)
    round_ = _new_round(rng)
    checked = 0
    for _ in range(MAX_STEPS):
        if round_.phase == Phase.PLAYING:
            check(round_)
            checked += 1
        if round_.is_over:
            return checked
        if not _step(round_, rng, side_bombs=side_bombs, dog_under_wish=dog_under_wish):
            return checked
    raise AssertionError("the round did not end")


def _first_leader(round_: Round) -> int | None:
    if any(round_.tricks_won) or not round_.trick_turns:
        return None
    return round_.trick_turns[0][0]


def assert_knowledge_is_true(round_: Round, *, cannot: bool = True) -> None:
    """Every seat's knowledge agrees with the real hands (R8); ``cannot=False`` leaves out
    the check that no seat holds a card it is deduced not to hold."""
    hands = round_.hands
    for seat in range(4):
        knowledge = _knowledge(round_, seat)
        context = (seat, [format_mask(hand) for hand in hands], round_.trick_turns, round_.wish_value,
                   round_.wish_open)
        assert knowledge.seat == seat and knowledge.hand == hands[seat]
        assert knowledge.unseen == DECK & ~hands[seat] & ~round_.played, context
        own = knowledge.seats[seat]
        assert (own.count, own.must, own.cannot) == (hands[seat].bit_count(), hands[seat], 0)
        counted = 0
        for other in range(4):
            if other == seat:
                continue
            facts = knowledge.seats[other]
            assert facts.count == hands[other].bit_count(), context
            assert facts.must & ~knowledge.unseen == 0 and facts.cannot & ~knowledge.unseen == 0, context
            assert facts.must & ~hands[other] == 0, ("must", other, format_mask(facts.must), context)
            if cannot:
                assert facts.cannot & hands[other] == 0, ("cannot", other, format_mask(facts.cannot), context)
            assert facts.must & facts.cannot == 0
            counted += facts.count
        assert counted == knowledge.unseen.bit_count(), context
        given_cards = round_.given[seat]
        assert given_cards is not None
        for offset, card in enumerate(given_cards, start=1):
            if not card & round_.played:  # R2.3, R8.2: the recipient holds it until it is played
                assert card & knowledge.seats[(seat + offset) % 4].must, context
        leader = _first_leader(round_)
        if leader is not None and leader != seat and not round_.played & MAHJONG:
            assert knowledge.seats[leader].must & MAHJONG, context  # R2.5


def assert_samples_agree(round_: Round) -> None:
    """A deal sampled from a seat's knowledge has the unseen cards in hands of the right sizes
    and respects ``must`` and ``cannot``."""
    seat = round_.turn if round_.turn is not None else 0
    knowledge = _knowledge(round_, seat)
    sample = DealSampler(knowledge).sample(random.Random(len(round_.trick_turns)))
    assert sample[seat] == round_.hands[seat]
    union = 0
    for other in range(4):
        facts = knowledge.seats[other]
        assert sample[other].bit_count() == facts.count
        if other != seat:
            assert sample[other] & facts.must == facts.must and not sample[other] & facts.cannot
            assert not sample[other] & union
            union |= sample[other]
    assert union == knowledge.unseen


def _check_all(round_: Round) -> None:
    assert_knowledge_is_true(round_)
    assert_samples_agree(round_)


@pytest.mark.slow
@ROUNDS
@given(seeds)
def test_knowledge_never_contradicts_the_truth(seed: int) -> None:
    """R8: on random rounds (bombs at one's turn, wishes, Dragon gifts), every seat's
    knowledge is true at every step and samples from it are consistent deals."""
    _play_through(seed, _check_all, side_bombs=False, dog_under_wish=False)


@pytest.mark.slow
@ROUNDS
@given(seeds)
def test_counts_musts_and_unseen_are_true_with_side_bombs_and_dogs(seed: int) -> None:
    """R4.3, R3.10, R5.3, R8: with out-of-turn bombs and the Dog led under an open wish too,
    every seat's knowledge stays true, the ``cannot`` cards included."""
    _play_through(seed, assert_knowledge_is_true, side_bombs=True, dog_under_wish=True)


# -- scripted wish deductions (R5.2) ---------------------------------------------------------------


def _wish_eight_round() -> Round:
    """Seat 0 leads the Mah Jong and wishes 8; only seats 0 (G8) and 3 (S8 B8 R8) hold 8s."""
    round_ = playing_round(["Ma G8 S3", "B4", "S9 B9 G9", "S8 B8 R8"])
    return run(round_, "0 Ma", "0 wish 8")


def test_r5_2_a_seat_that_passed_on_a_single_below_the_wish_holds_none() -> None:
    """R5.2: seat 1 passes on the Mah Jong with 8 wished, so it holds no 8 (every other seat knows)."""
    round_ = run(_wish_eight_round(), "1 pass")
    assert round_.turn == 2
    assert wish_voids(_public(round_)) == {1}
    for seat in (0, 2, 3):
        knowledge = _knowledge(round_, seat)
        assert knowledge.seats[1].cannot == VALUE_MASK[8] & knowledge.unseen != 0
        assert all(knowledge.seats[other].cannot == 0 for other in range(4) if other != 1)
    assert_knowledge_is_true(round_)


def test_r5_2_a_seat_that_played_without_the_wish_on_a_lower_single_holds_none() -> None:
    """R5.2: seat 2 plays a 9 on the Mah Jong with 8 wished, so it held no 8."""
    round_ = run(_wish_eight_round(), "1 pass", "2 S9")
    assert wish_voids(_public(round_)) == {2}
    knowledge = _knowledge(round_, 3)
    assert knowledge.seats[2].cannot == VALUE_MASK[8] & knowledge.unseen
    assert_knowledge_is_true(round_)


def test_r5_2_a_pass_on_a_single_above_the_wish_proves_nothing() -> None:
    """R5.2: an 8 cannot beat a 9, so seat 3 (holding three 8s) passing on the 9 proves nothing."""
    round_ = run(_wish_eight_round(), "1 pass", "2 S9", "3 pass")
    assert round_.turn == 0 and round_.hands[3] & VALUE_MASK[8]
    assert wish_voids(_public(round_)) == {2}
    knowledge = _knowledge(round_, 0)
    assert knowledge.seats[3].cannot == 0
    assert knowledge.seats[2].cannot == VALUE_MASK[8] & knowledge.unseen
    assert_knowledge_is_true(round_)


def test_r5_2_a_leader_without_the_wish_holds_none() -> None:
    """R5.2: a seat that leads without the wished value while the wish is open holds none."""
    round_ = run(_wish_eight_round(), "1 pass", "2 S9", "3 pass", "0 pass", "1 pass", "2 B9")
    assert round_.trick_turns == [(2, (cards("B9"), 1, 1, 9))]
    assert 2 in wish_voids(_public(round_))
    assert _knowledge(round_, 0).seats[2].cannot == VALUE_MASK[8] & _knowledge(round_, 0).unseen
    assert_knowledge_is_true(round_)


def test_r5_4_the_wish_fulfilled_removes_every_deduction() -> None:
    """R5.4: once an 8 is played the wish is closed; the earlier passes prove nothing any more."""
    round_ = run(_wish_eight_round(), "1 pass", "2 pass", "3 S8")
    assert not round_.wish_open
    assert wish_voids(_public(round_)) == set()
    assert all(_knowledge(round_, 0).seats[other].cannot == 0 for other in range(4))


def test_r5_2_after_a_phoenix_on_the_mahjong_passing_seats_hold_no_wish() -> None:
    """R3.6/R5.2: the Phoenix on the Mah Jong ranks 1.5; an 8 would beat it, so seat 2
    passing proves it holds no 8 (and seat 1 played the Phoenix without one)."""
    round_ = playing_round(["Ma R8 S3", "Ph B4", "S9 B9 G9", "S8 B8 G8"])
    run(round_, "0 Ma", "0 wish 8", "1 Ph", "2 pass")
    assert round_.turn == 3
    assert wish_voids(_public(round_)) == {1, 2}
    knowledge = _knowledge(round_, 3)
    assert knowledge.seats[2].cannot == VALUE_MASK[8] & knowledge.unseen == cards("R8")
    assert_knowledge_is_true(round_)


def test_no_deductions_without_an_open_wish() -> None:
    round_ = playing_round(["Ma S3", "", "", ""])
    assert wish_voids(_public(round_)) == set()
    run(round_, "0 Ma", "0 wish 8")
    assert wish_voids(_public(round_)) == set()  # nobody had a turn yet


# -- pushed cards and the Mah Jong (R2.3, R2.5) ----------------------------------------------------


def test_pushed_cards_are_with_their_recipients_until_played() -> None:
    """R2.3/R8.2: each card a seat pushed is in its recipient's ``must`` while unplayed."""
    round_ = playing_round(["Ma S3 B3", "", "", ""])
    for seat in range(4):
        knowledge = _knowledge(round_, seat)
        given_cards = round_.given[seat]
        assert given_cards is not None
        for offset, card in enumerate(given_cards, start=1):
            assert knowledge.seats[(seat + offset) % 4].must & card
    assert_knowledge_is_true(round_)


def test_the_first_leader_is_known_to_hold_the_mahjong() -> None:
    """R2.5: the seat that led the first trick held the Mah Jong; unplayed, it still does."""
    round_ = run(playing_round(["Ma S3 B3", "", "", ""]), "0 S3 B3")
    for seat in (1, 2, 3):
        assert _knowledge(round_, seat).seats[0].must & MAHJONG
    assert_knowledge_is_true(round_)


def test_extra_cannot_is_kept_for_unseen_cards_of_other_seats_only() -> None:
    """An agent's earlier deductions (``extra_cannot``) count for unseen cards, never for the
    own seat nor against a seat's known cards."""
    round_ = run(playing_round(["Ma S3 B3", "", "", ""]), "0 S3 B3")
    seat = 1
    public, private = _public(round_), build_private_state(round_, seat)
    given_cards = round_.given[seat]
    assert given_cards is not None
    to_partner = given_cards[1]  # R1.3: seat 3
    extra = (cards("GA RA"), cards("SA S3"), cards("BA"), cards("SK") | to_partner)
    knowledge = knowledge_of(public, private, extra_cannot=extra)
    unseen = knowledge.unseen
    assert knowledge.seats[0].cannot == cards("GA RA") & unseen
    assert knowledge.seats[1].cannot == 0  # the own seat
    assert knowledge.seats[2].cannot == cards("BA") & unseen
    assert knowledge.seats[3].must & to_partner
    assert knowledge.seats[3].cannot == cards("SK") & unseen  # not the card pushed to it


def test_partner_opponents_and_free_cards() -> None:
    """R1.3: from seat 1, the opponents are 2 and 0, the partner 3; free cards leave out the
    other seats' known cards and the seat's own known and forbidden cards."""
    round_ = run(playing_round(["Ma S3 B3", "", "", ""]), "0 S3 B3")
    knowledge = _knowledge(round_, 1)
    assert knowledge.opponents() == (2, 0) and knowledge.partner() == 3
    for seat in (0, 2, 3):
        known_elsewhere = 0
        for other in range(4):
            if other != seat:
                known_elsewhere |= knowledge.seats[other].must
        facts = knowledge.seats[seat]
        assert knowledge.free_for(seat) == knowledge.unseen & ~known_elsewhere & ~facts.must & ~facts.cannot


# -- known bugs: deductions from seats that never had to play the wish ------------------------------


def test_the_seat_the_dog_skips_is_not_void_of_the_wish() -> None:
    """R3.10/R5.2: seat 0 leads the Dog while 14 is wished; seat 1 (holding RA) had no turn."""
    round_ = playing_round(["Ma S2 B3 G4 R5 Hu SZ BZ GZ Ph", "RA", "RZ", "SA BA GA"])
    run(round_, "0 Ma S2 B3 G4 R5", "0 wish 14", "1 pass", "2 pass", "3 pass", "0 Hu")
    assert round_.turn == 2 and round_.hands[1] & cards("RA")
    assert 1 not in wish_voids(_public(round_))
    assert_knowledge_is_true(round_)


def test_an_out_of_turn_bomber_is_not_void_of_the_wish() -> None:
    """R4.3/R5.3: seat 2 bombs the Mah Jong out of turn while 8 is wished and holds S8."""
    round_ = run(playing_round(["Ma", "S3", "S8 S5 B5 G5 R5", ""]), "0 Ma", "0 wish 8")
    assert round_.turn == 1
    round_.bomb(2, cards("S5 B5 G5 R5"))
    assert round_.trick is not None and round_.trick[1] == BOMB and bombs_of(round_.hands[2]) == []
    assert 2 not in wish_voids(_public(round_))
    assert_knowledge_is_true(round_)
