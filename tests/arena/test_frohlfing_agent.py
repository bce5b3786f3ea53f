"""``poc/frohlfing_agent.py``'s translation between our seat views and frohlfing/tichu's states,
checked on our own games without their code (issue 34, part C: the adapter that seats their
``HeuristicAgent`` in our Arena; the run itself needs their checkout and reports its illegal
decisions, which must be 0)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import pytest

from tests.scripts import load_script
from tichu.agents.agent import Agent
from tichu.agents.driver import play_game
from tichu.agents.registry import make_agent
from tichu.core.cards import DECK, DOG, DRAGON, MAHJONG, PHOENIX, parse_mask
from tichu.core.combos import FULLHOUSE, PASS_PLAY, SINGLE, Play, classify_mask, combinations_of
from tichu.core.ruleset import RuleSet
from tichu.core.views import SeatView


@pytest.fixture(scope="module")
def adapter() -> ModuleType:
    return load_script("poc/frohlfing_agent.py")


def test_cards_are_their_value_suit_pairs_highest_first_and_back(adapter: ModuleType) -> None:
    """Issue 34, part C: our 56 masks are their ``(value, suit)`` cards, sorted as they sort a hand."""
    assert adapter.their_cards(DOG | MAHJONG | DRAGON | PHOENIX) == [(16, 0), (15, 0), (1, 0), (0, 0)]
    assert adapter.their_cards(parse_mask("R2 SA GZ")) == [(14, 1), (10, 3), (2, 4)]
    deck = adapter.their_cards(DECK)
    assert len(deck) == 56 and deck == sorted(deck, reverse=True)
    assert adapter.our_mask(deck) == DECK
    assert adapter.our_mask([]) == 0


def test_their_answer_becomes_the_legal_play_with_its_cards(adapter: ModuleType) -> None:
    """Issue 34, part C: cards forming two combinations (the Phoenix in a full house) take their
    type and rank; cards no legal play has are no play (an illegal decision)."""
    hand = parse_mask("Ph S3 B3 S2 B2")
    legal = combinations_of(hand)
    houses = [play for play in legal if play.cards == hand]
    assert [play.kind for play in houses] == [FULLHOUSE] * len(houses)
    chosen = adapter.our_play(adapter.their_cards(hand), (FULLHOUSE, 5, 3), legal)
    assert chosen is not None and chosen.cards == hand and chosen.rank == 3
    assert adapter.our_play([(3, 1)], (SINGLE, 1, 3), legal) == Play(parse_mask("S3"), SINGLE, 1, 3)
    assert adapter.our_play([(14, 1)], (SINGLE, 1, 14), legal) is None
    assert adapter.our_play([], (0, 0, 0), [PASS_PLAY]) is PASS_PLAY


def test_a_decision_coroutine_runs_without_a_loop_and_one_that_waits_is_refused(adapter: ModuleType) -> None:
    """Issue 34, part C: their decisions are coroutines that never wait; one that waits is an error."""
    async def answer() -> int:
        return 7

    async def waits() -> int:
        await asyncio.sleep(0)
        return 7

    assert adapter.run_sync(answer()) == 7
    with pytest.raises(RuntimeError, match="waited"):
        adapter.run_sync(waits())


class Checking(Agent):
    """Plays as ``inner`` does and checks the translation at every decision: the seat at turn
    as :func:`seat_at_turn` tells it from the offers' moments, the trick and the wish."""

    def __init__(self, adapter: ModuleType, inner: Agent, seen: Counter[str]) -> None:
        super().__init__(inner.name)
        self.adapter, self.inner, self.seen = adapter, inner, seen
        self.moments = adapter.Moments()
        self.last_owner: int | None = None

    def _follow(self, view: SeatView, passes: int) -> int | None:
        public = view.public_state()
        if self.moments.key is not None and self.moments.key[0] != public.round_index:
            self.last_owner = None
        turn: int | None = self.adapter.seat_at_turn(public, view.seat, view.hand, self.last_owner, passes)
        if public.trick_owner_index is not None:
            self.last_owner = public.trick_owner_index
        return turn

    def decide_tichu(self, view: SeatView) -> bool:
        public = view.public_state()
        if public.phase == "playing":
            passes = self.moments.see(public)
            assert not self.adapter.closing(public, passes)  # no call is offered on a closing trick
            self._follow(view, passes)
        return self.inner.decide_tichu(view)

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        public = view.public_state()
        key = (public.round_index, public.trick_turns)
        passes = self.moments.passes if self.moments.key == key else 0
        turn = self._follow(view, passes)
        if view.hand.bit_count() == 14 and not public.announcements[view.seat]:
            assert turn == view.seat, (view.seat, turn, public.trick_turns, passes)
            self.seen["turn"] += 1
            self.seen["after passes" if passes else ("lead" if not public.trick_turns else "after a play")] += 1
        self._check_trick(view)
        assert self.adapter.their_wish(public, False) == (
            -1 if not public.played_cards & MAHJONG else public.wish_value if public.wish_open else 0)
        return self.inner.decide_play(view, legal)

    def _check_trick(self, view: SeatView) -> None:
        owner, cards, combination = self.adapter.their_trick(view.public_state())
        if view.trick is not None:
            assert owner == view.trick_owner
            assert combination == (view.trick.kind, view.trick.length, view.trick.rank)
            assert self.adapter.our_mask(cards) == view.trick.cards
            classified = classify_mask(view.trick.cards)
            assert classified is not None and classified[:2] == combination[:2]
            self.seen["trick"] += 1
        elif owner >= 0:
            assert combination == (SINGLE, 1, 0) and cards == [(0, 0)]  # the Dog, as their engine keeps it
            self.seen["dog"] += 1

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        assert self.adapter.their_wish(view.public_state(), True) == -1
        return self.inner.decide_wish(view, choices)

    def decide_grand_tichu(self, view: SeatView) -> bool:
        fields: dict[str, Any] = self.adapter.public_fields(view, None)
        assert fields["start_player_index"] == -1 and fields["wish_value"] == -1
        return self.inner.decide_grand_tichu(view)

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        return self.inner.decide_schupf(view)

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        return self.inner.decide_dragon(view, recipients)

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        return self.inner.decide_bomb(view, bombs)


def test_the_seat_at_turn_trick_and_wish_are_told_right_throughout_seeded_games(adapter: ModuleType) -> None:
    """Issue 34, part C: where their agent decides on a Tichu call (at its own turn with 14
    cards), the seat tells its turn from what it sees, passes included, and the trick and wish
    translate as their engine holds them, over seeded games of agents that pass often."""
    seen: Counter[str] = Counter()
    for seed in range(1, 9):
        agents: list[Agent] = [Checking(adapter, make_agent(kind, name=f"{kind}{seat}", seed=seed * 10 + seat), seen)
                               for seat, kind in enumerate(("rule", "random", "rule", "random"))]
        play_game(agents, RuleSet(target_score=400), seed=seed)
    assert seen["after passes"] > 10 and seen["lead"] > 10 and seen["after a play"] > 10
    assert seen["trick"] > 100 and seen["dog"] > 0
