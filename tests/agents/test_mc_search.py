"""The search over every decision's rollouts (:mod:`tichu.agents.mc_search`): rollouts that
step the game's flow, throwing the bombs out of turn (R4.3) and making the Tichu calls (R6.1)
their policy takes when offered, and whole rounds from a sampled deal."""

from __future__ import annotations

import random

import pytest

from tests.agents.test_agents import endgame, view_of
from tichu.agents.heuristic_policy import HeuristicPolicy
from tichu.agents.mc_agent import ROLLOUT_WEIGHTS, MonteCarloAgent, leads_clearly, share_lower_bound
from tichu.agents.mc_search import SEARCH, V1
from tichu.agents.support.rollout import rollout
from tichu.agents.support.worlds import WorldSampler
from tichu.core.cards import DECK, DRAGON, indices_of, parse_mask
from tichu.core.flow import GameState
from tichu.core.round import Action, ActionKind, Decision, Phase, Round
from tichu.core.ruleset import RuleSet
from tichu.core.views import TableInfo, TablePhase
from tichu.core.views import view_of as core_view_of


def _started(seed: int, policy: HeuristicPolicy) -> GameState:
    state = GameState.within(Round(RuleSet(), random.Random(seed)), offered=False)
    round_ = state.round
    assert round_ is not None
    for seat in range(4):
        state.decide_grand_tichu(seat, False)
    for seat in range(4):
        state.push(seat, policy.schupf(round_.hands[seat], False))
    return state


def test_rollouts_take_the_offered_bombs_and_calls_only_with_the_options() -> None:
    policy = HeuristicPolicy(ROLLOUT_WEIGHTS)
    kinds_full: set[ActionKind] = set()
    quiet_called = False
    for seed in range(60):
        start = _started(seed, policy)
        plain, full = start.clone(), start.clone()
        rollout(plain, policy, bombs=False, calls=False)
        rollout(full, policy, quiet_seat=0)
        assert plain.is_over and full.is_over and plain.round is not None and full.round is not None
        assert not any(action.kind in (ActionKind.BOMB, ActionKind.TICHU) for action in plain.round.events)
        kinds_full |= {action.kind for action in full.round.events}
        quiet_called |= any(action.kind == ActionKind.TICHU and action.seat == 0 for action in full.round.events)
    assert ActionKind.BOMB in kinds_full and ActionKind.TICHU in kinds_full  # R4.3, R6.1
    assert not quiet_called  # the searching seat's calls are the search's


#: The decision at which each kind of a round's events is made.
_ASKED = {ActionKind.BOMB: Decision.BOMB, ActionKind.PLAY: Decision.PLAY, ActionKind.PASS: Decision.PLAY,
          ActionKind.TICHU: Decision.TICHU, ActionKind.WISH: Decision.WISH, ActionKind.DRAGON: Decision.DRAGON}


def test_a_rollout_bombs_where_the_game_offers_nearest_after_the_tricks_owner_R4_3() -> None:
    """Every bomb a rollout throws out of turn was offered by the flow, in its order: the
    rollout has no order of its own (the same state, stepped by hand, offers the same)."""
    policy = HeuristicPolicy(ROLLOUT_WEIGHTS)
    thrown = 0
    for seed in range(80):
        state = _started(seed, policy)
        shadow = state.clone()
        rollout(state, policy)
        assert state.round is not None and shadow.round is not None
        for action in state.round.events[len(shadow.round.events):]:
            while (shadow.decision, shadow.decision_seat) != (_ASKED[action.kind], action.seat):
                assert shadow.decision in (Decision.TICHU, Decision.BOMB)
                seat = shadow.decision_seat
                assert seat is not None
                shadow.decline(seat)  # an offer the rollout's policy let pass
            shadow.apply(action)
            thrown += action.kind == ActionKind.BOMB
        assert shadow.is_over
    assert thrown


def test_a_grand_tichu_world_is_played_from_the_deal_to_the_end() -> None:
    """issue 34, part 1: a world drawn at Grand Tichu keeps the seat's first eight and deals the
    other 48 cards anew; the seat's call applied to it, a rollout answers every other Grand
    Tichu and push (R2.1, R2.3) and plays the round to its end."""
    policy = HeuristicPolicy(ROLLOUT_WEIGHTS)
    dealt = Round(RuleSet(), random.Random(5))
    view = view_of(dealt, 2)
    world = WorldSampler(view, Decision.GRAND_TICHU, policy).draw(random.Random(1))
    round_ = world.round
    assert round_ is not None and round_.hands[2] == dealt.first_deal[2]
    assert round_.hands[0] | round_.hands[1] | round_.hands[2] | round_.hands[3] | sum(round_.second_deal) == DECK
    world.apply(Action(ActionKind.GRAND_TICHU, 2, True))
    rollout(world, policy, quiet_seat=2)
    assert world.is_over and round_.phase == Phase.OVER and round_.announcements[2] == 2


def _first_eight(own: int, seed: int) -> Round:
    """A round dealt with ``own`` as seat 0's first eight, the other cards shuffled."""
    cards = indices_of(DECK & ~own)
    random.Random(seed).shuffle(cards)
    deal = [(own, _mask(cards[:6]))]
    cards = cards[6:]
    for seat in range(1, 4):
        deal.append((_mask(cards[14 * seat - 14:14 * seat - 6]), _mask(cards[14 * seat - 6:14 * seat])))
    return Round(RuleSet(), deal=deal)


def _mask(indices: list[int]) -> int:
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def test_the_options_in_one_place() -> None:
    assert SEARCH.rollout_extras and not V1.rollout_extras
    assert V1.describe() == "v1"


def test_the_share_of_first_outs_is_judged_by_wilsons_lower_bound() -> None:
    assert share_lower_bound(0, 0, 1.5) == 0
    assert share_lower_bound(8, 10, 1.96) == pytest.approx(0.4902, abs=1e-4)  # the textbook case
    assert share_lower_bound(4, 4, 1.5) < SEARCH.grand_first <= share_lower_bound(8, 8, 1.5)
    assert share_lower_bound(13, 16, 1.5) < SEARCH.tichu_first <= share_lower_bound(14, 16, 1.5)


def test_few_deals_leave_the_grand_tichu_call_to_the_heuristic() -> None:
    """R2.1: with four deals the search cannot judge a call (even four first-outs in four are
    too few), so the tuned heuristic's call decides; with eight the search decides. The Dragon,
    the Phoenix, four Aces and two Kings: every rollout goes out first, both call. A hand the
    heuristic calls on and eight deals refuse shows that the search, not the fallback, decided."""
    view = view_of(_first_eight(parse_mask("Dr Ph RA GA BA SA RK GK"), 3), 0)
    few = MonteCarloAgent("M", 1, budget=None, max_samples=4, min_samples=4)
    assert few.decide_grand_tichu(view) is True and few._too_few_to_call(SEARCH.grand_first)
    assert few.last_first[1] == 1.0
    enough = MonteCarloAgent("M", 1, budget=None, max_samples=8, min_samples=8)
    assert enough.decide_grand_tichu(view) is True and not enough._too_few_to_call(SEARCH.grand_first)
    view = view_of(_first_eight(parse_mask("Dr Ph RA RK GD B9 S6 R4"), 4), 0)  # the heuristic calls
    assert MonteCarloAgent("M", 1, budget=None, max_samples=4, min_samples=4).decide_grand_tichu(view) is True
    searched = MonteCarloAgent("M", 1, budget=None, max_samples=16, min_samples=16)
    assert searched.decide_grand_tichu(view) is False and not searched._too_few_to_call(SEARCH.grand_first)


def test_a_searched_branch_replaces_the_heuristics_choice_only_on_a_clear_lead() -> None:
    assert not leads_clearly([100, 100], [0, 0], 1.0)  # two deals never
    assert leads_clearly([100, 120, 90], [0, 10, 0], 1.0)
    assert not leads_clearly([300, -250, 20], [0, 0, 0], 1.0)  # ahead on average, but noise
    assert not leads_clearly([0, 10, 0], [100, 120, 90], 0.0)


def test_the_dragon_gift_of_a_seat_that_went_out_with_it_is_searched_issue_34_part_1() -> None:
    """issue 34, part 1: seat 0 goes out with the Dragon and everyone passes: it gives the trick
    away (R4.5) while the next seat holding cards is to lead (R4.2). The expert searches its
    worlds there too; before, it could not rebuild the round on a trick whose owner went out
    and the heuristic decided."""
    round_ = endgame(["Dr", "S2 S3 S4 RK", "G5 G6 GK", "B7 B8 B9 SZ BD"], turn=0)
    state = GameState.within(round_)
    state.apply(Action(ActionKind.PLAY, 0, DRAGON))
    while state.decision != Decision.DRAGON:
        seat = state.decision_seat
        assert seat is not None
        state.apply(state.fallback(seat))
    assert state.decision_seat == 0 and not round_.hands[0]
    view = core_view_of(TableInfo(phase=TablePhase.PLAYING, is_running=True), round_, 0)
    agent = MonteCarloAgent("M", 1, budget=None, max_samples=6, min_samples=6, z=100.0)
    assert agent.decide_dragon(view, round_.dragon_recipients()) in (1, 3)
    assert agent.last_samples == 6
