"""The tuned heuristic's features (issue 13), each against the rule it serves (rules.md), and
where it differs from ``heuristic:v1`` (:data:`~tichu.agents.heuristic_policy.V1`)."""

from __future__ import annotations

import random
import time
from dataclasses import replace

from tests.agents.test_agents import endgame, legal, play_of, seeded_positions, situation, view_of
from tichu.agents.heuristic_agent import HeuristicAgent, _best_gift
from tichu.agents.heuristic_policy import (
    DEFAULT,
    ROLLOUT_CANDIDATES,
    V1,
    HeuristicPolicy,
    hand_strength,
    rollout_weights,
    tichu_score,
)
from tichu.agents.support.knowledge import Knowledge, SeatFacts
from tichu.agents.support.rollout import rollout, round_value
from tichu.core.cards import DECK, DRAGON, VALUE_MASK, parse_mask
from tichu.core.combos import BOMB, PASS_PLAY
from tichu.core.round import Decision, Round
from tichu.core.ruleset import RuleSet
from tichu.core.worlds import Hidden, world_of

STRONG = "Dr Ph SA BA RK GK SD RD GB BB S9 B8 R7 G6"  # Dragon, Phoenix, two Aces, pairs, a street
WEAK = "S2 B2 G4 R6 S8 B8 GZ RD SK B3 G3 R7 S9 Hu"


def knowledge_for(hand: str) -> Knowledge:
    mask = parse_mask(hand)
    return Knowledge(0, mask, DECK & ~mask, tuple(SeatFacts(14, mask if seat == 0 else 0, 0) for seat in range(4)))


def test_tuned_calls_tichu_with_a_strong_hand_only_R6_1() -> None:
    """R6.1: with Dragon, Phoenix, two Aces and few combinations the tuned heuristic calls
    Tichu before its first card; not with a weak hand, not after its partner called, not with
    fewer than 14 cards."""
    policy = HeuristicPolicy(DEFAULT, seed=1)
    strong = situation(STRONG, counts=(14, 14, 14, 14))
    assert policy.call_tichu(strong, knowledge_for(STRONG))
    assert not policy.call_tichu(situation(WEAK, counts=(14, 14, 14, 14)), knowledge_for(WEAK))
    assert not policy.call_tichu(situation(STRONG, counts=(14, 14, 14, 14), calls=(0, 0, 1, 0)), knowledge_for(STRONG))
    assert not policy.call_tichu(situation(STRONG, counts=(13, 14, 14, 14)), knowledge_for(STRONG))
    strong_knowledge, weak_knowledge = knowledge_for(STRONG), knowledge_for(WEAK)
    features = hand_strength(parse_mask(STRONG), (policy, strong_knowledge, policy.sample_hands(strong_knowledge)))
    weak = hand_strength(parse_mask(WEAK), (policy, weak_knowledge, policy.sample_hands(weak_knowledge)))
    assert tichu_score(features) > 0 > tichu_score(weak)


def test_tuned_calls_grand_tichu_on_strong_first_eight_R2_1() -> None:
    """R2.1: Dragon, Phoenix and an Ace among the first eight cards make a Grand Tichu for the
    tuned heuristic (v1 wanted five control cards); not after the partner's call; not on low cards."""
    tuned, v1 = HeuristicPolicy(DEFAULT, seed=1), HeuristicPolicy(V1, seed=1)
    eight = parse_mask("Dr Ph SA BK RD G9 B6 S4")
    assert tuned.call_grand_tichu(eight, (0, 0, 0, 0), 0)
    assert not v1.call_grand_tichu(eight, (0, 0, 0, 0), 0)
    assert not tuned.call_grand_tichu(eight, (0, 0, 2, 0), 0)
    assert not tuned.call_grand_tichu(parse_mask("S2 B3 G4 R6 S8 BZ RD SK"), (0, 0, 0, 0), 0)


def test_tuned_lets_a_calling_partners_trick_run_R6() -> None:
    """R6: while the partner's Tichu stands and nobody is out, the tuned heuristic does not go
    out over the partner's trick (only the caller going out first wins the call); v1 does."""
    s = situation("SK", trick="S9", owner=2, counts=(1, 5, 5, 5), calls=(0, 0, 1, 0))
    plays = legal(s)
    assert HeuristicPolicy(DEFAULT, seed=1).play(s, plays) == PASS_PLAY
    assert HeuristicPolicy(V1, seed=1).play(s, plays) == play_of("SK")
    free = situation("SK", trick="S9", owner=2, counts=(1, 5, 5, 5))
    assert HeuristicPolicy(DEFAULT, seed=1).play(free, legal(free)) == play_of("SK")


def test_tuned_does_not_bomb_the_partners_winning_ace_R4_3() -> None:
    """R4.3: a bomb over the partner's Ace gains nothing; neither at its turn nor out of turn,
    even when the bomb would leave one combination."""
    s = situation("S5 B5 G5 R5 S2", trick="RA", owner=2, counts=(5, 3, 3, 3))
    policy = HeuristicPolicy(DEFAULT, seed=1)
    assert any(play.kind == BOMB for play in legal(s))
    assert policy.play(s, legal(s)) == PASS_PLAY
    assert policy.choose_bomb(s, [play_of("S5 B5 G5 R5")]) is None


def test_tuned_bombs_to_go_out_R4_3() -> None:
    """R4.3: with a bomb and one combination besides, the tuned heuristic bombs an opponent's
    trick (out of turn and at its turn): the lead then takes it out. v1 keeps the bomb."""
    s = situation("S5 B5 G5 R5 S8 B8", trick="RK", owner=1, counts=(6, 8, 8, 8))
    bomb = play_of("S5 B5 G5 R5")
    assert HeuristicPolicy(DEFAULT, seed=1).choose_bomb(s, [bomb]) == bomb
    assert HeuristicPolicy(V1, seed=1).choose_bomb(s, [bomb]) is None
    assert HeuristicPolicy(DEFAULT, seed=1).play(s, legal(s)) == bomb
    partner_called = situation("S5 B5 G5 R5 S8 B8", trick="RK", owner=1, counts=(6, 8, 8, 8), calls=(0, 0, 1, 0))
    assert HeuristicPolicy(DEFAULT, seed=1).choose_bomb(partner_called, [bomb]) is None


def test_tuned_never_passes_when_the_wish_forces_a_play_R5_2() -> None:
    """R5.2: with the wished value in hand and a single to beat below it, the pass is not legal
    and the tuned heuristic plays the wished card, also at a real seat."""
    s = situation("S7 B9 RK", trick="S3", owner=1, counts=(3, 8, 8, 8), wish=7)
    plays = legal(s)
    assert PASS_PLAY not in plays
    assert HeuristicPolicy(DEFAULT, seed=1).play(s, plays).cards & VALUE_MASK[7]
    round_ = endgame(["S7 B9 RK", "GA G2", "SD", "BD"], turn=0, trick=[(1, "S3")])
    round_.wish_value, round_.wish_open = 7, True
    plays = round_.legal_plays()
    choice = HeuristicAgent("H", 1).decide_play(view_of(round_), plays)
    assert choice.cards & VALUE_MASK[7] or PASS_PLAY in plays


def test_tuned_pushes_the_best_card_to_a_grand_tichu_partner_R2_3() -> None:
    """R2.3: after the partner's Grand Tichu the tuned heuristic pushes it its best card."""
    round_ = Round(RuleSet(), random.Random(3))
    round_.decide_grand_tichu(0, False)
    round_.decide_grand_tichu(1, False)
    round_.decide_grand_tichu(2, True)
    round_.decide_grand_tichu(3, False)
    hand = round_.hands[0]
    right, to_partner, left = HeuristicAgent("H", 1).decide_schupf(view_of(round_, 0))
    assert to_partner & hand and not (right | left) & to_partner
    assert to_partner == _best_gift(hand & ~right & ~left)
    assert _best_gift(parse_mask("Dr SA B4 G4")) == DRAGON
    assert _best_gift(parse_mask("SA BK G4 R4 S4 B4")) == parse_mask("SA")  # never a bomb's card
    assert _best_gift(parse_mask("S4 B4 G4 R4")) & parse_mask("S4 B4 G4 R4")


def test_tuned_overtakes_the_partner_only_to_go_out_R4_1() -> None:
    """R4.1: on the partner's trick the tuned heuristic plays a sure winner (no unseen card
    beats the Dragon) when one combination is left after it, and passes otherwise; not while
    the partner's Tichu stands. v1 passes."""
    s = situation("Dr S8 B8", trick="S9", owner=2, counts=(3, 5, 5, 5))
    assert HeuristicPolicy(DEFAULT, seed=1).play(s, legal(s)) == play_of("Dr")
    assert HeuristicPolicy(V1, seed=1).play(s, legal(s)) == PASS_PLAY
    two_left = situation("Dr S8 B8 G2", trick="S9", owner=2, counts=(4, 5, 5, 5))
    assert HeuristicPolicy(DEFAULT, seed=1).play(two_left, legal(two_left)) == PASS_PLAY
    called = situation("Dr S8 B8", trick="S9", owner=2, counts=(3, 5, 5, 5), calls=(0, 0, 1, 0))
    assert HeuristicPolicy(DEFAULT, seed=1).play(called, legal(called)) == PASS_PLAY
    unsure = situation("SK S8 B8", trick="S9", owner=2, counts=(3, 5, 5, 5))
    assert HeuristicPolicy(DEFAULT, seed=1).play(unsure, legal(unsure)) == PASS_PLAY


def test_tuned_leads_a_low_single_to_a_partner_with_one_card_R7_1() -> None:
    """R7.1: with the partner on one card and no opponent on one, the tuned heuristic leads its
    lowest single, even from a pair (the partner may go out on it); v1 leads its pair. The switch
    is off in the tuned weights (no gain in the Arena, docs/agents.md "Tuning runs")."""
    feeding = replace(DEFAULT, feed_partner=True)
    s = situation("S4 B4 S9 RK", counts=(4, 5, 1, 6))
    assert HeuristicPolicy(feeding, seed=1).play(s, legal(s)) == play_of("S4")
    assert HeuristicPolicy(V1, seed=1).play(s, legal(s)) == play_of("S4 B4")
    threatened = situation("S4 B4 S9 RK", counts=(4, 1, 1, 6))
    assert HeuristicPolicy(feeding, seed=1).play(threatened, legal(threatened)) != play_of("S4")


def test_takes_the_trick_with_a_sure_winner_to_go_out_R8_1() -> None:
    """R8.1: with the Dragon, the Phoenix and two Aces played, the tuned heuristic (``sure_out``)
    takes the opponent's Jack with its Ace (no unseen card beats it) and then leads the King to
    go out; without the switch it plays the King, which the unseen Ace may beat. Not with two
    beatable cards left."""
    s = situation("SA SK", trick="SB", owner=1, played="Dr Ph GA RA")
    assert HeuristicPolicy(DEFAULT, seed=1).play(s, legal(s)) == play_of("SA")
    assert HeuristicPolicy(replace(DEFAULT, sure_out=False), seed=1).play(s, legal(s)) == play_of("SK")
    two = situation("SA SK S3", trick="SB", owner=1, played="Dr Ph GA RA")
    assert HeuristicPolicy(DEFAULT, seed=1).play(two, legal(two)) == play_of("SK")


def test_bombs_to_run_sure_winners_out_R4_3() -> None:
    """R4.3: with ``sure_out`` (tuned) a bomb takes the opponent's trick when the rest is a sure
    Ace (the Dragon and Phoenix played) and one low single: the lead runs the Ace, then the last
    card. Without the switch the heuristic bombs only when one combination is left."""
    s = situation("S5 B5 G5 R5 SA S3", trick="RK", owner=1, counts=(6, 8, 8, 8), played="Dr Ph")
    bomb = play_of("S5 B5 G5 R5")
    assert HeuristicPolicy(DEFAULT, seed=1).choose_bomb(s, [bomb]) == bomb
    assert HeuristicPolicy(replace(DEFAULT, sure_out=False), seed=1).choose_bomb(s, [bomb]) is None
    assert HeuristicPolicy(V1, seed=1).choose_bomb(s, [bomb]) is None


def test_guards_the_partners_trick_from_an_opponent_on_one_card_R4_4() -> None:
    """R4.4: with ``guard_partner_trick`` (tuned) the heuristic overtakes the partner's 9 with the
    Dragon (no unseen card beats it) while an opponent holds one card and could go out on the
    9; it lets the trick run when no opponent is that close, when the partner's play is sure
    (the Ace with the Dragon in hand and the Phoenix played) or while the partner's Tichu stands."""
    guard = DEFAULT
    s = situation("Dr S4 B4 G6 R7", trick="S9", owner=2, counts=(5, 1, 6, 6))
    assert HeuristicPolicy(guard, seed=1).play(s, legal(s)) == play_of("Dr")
    assert HeuristicPolicy(replace(DEFAULT, guard_partner_trick=False), seed=1).play(s, legal(s)) == PASS_PLAY
    assert HeuristicPolicy(V1, seed=1).play(s, legal(s)) == PASS_PLAY
    far = situation("Dr S4 B4 G6 R7", trick="S9", owner=2, counts=(5, 3, 6, 6))
    assert HeuristicPolicy(guard, seed=1).play(far, legal(far)) == PASS_PLAY
    ace = situation("Dr S4 B4 G6 R7", trick="SA", owner=2, counts=(5, 1, 6, 6), played="Ph")
    assert HeuristicPolicy(guard, seed=1).play(ace, legal(ace)) == PASS_PLAY
    called = situation("Dr S4 B4 G6 R7", trick="S9", owner=2, counts=(5, 1, 6, 6), calls=(0, 0, 1, 0))
    assert HeuristicPolicy(guard, seed=1).play(called, legal(called)) == PASS_PLAY


def test_rollouts_choose_the_best_mean_of_the_scored_candidates_R8() -> None:
    """At every play (``rollout_cards`` 14, the default) the play is the one of the four
    best-scored ones whose rollouts on the decision's sampled deals (from the seat's knowledge
    only, R8) score best for its team (R7); recomputed here candidate by candidate, at hands
    of every size. Without the switch the best-scored play stands."""
    assert DEFAULT.rollout_cards == 14
    searched = changed = large = 0
    for round_ in seeded_positions(21, rounds=6)[::4]:
        seat = round_.decision_seat
        assert seat is not None
        if len(round_.legal_plays()) < 2:
            continue
        view = view_of(round_, seat)
        agent = HeuristicAgent("H", 3, DEFAULT)
        choice = agent.decide_play(view, round_.legal_plays())
        deals = agent.policy.sampled_deals()
        plain = HeuristicAgent("H", 3, replace(DEFAULT, rollout_cards=0))
        ranked = [play for play, _ in plain.rank_plays(view, round_.legal_plays())][:ROLLOUT_CANDIDATES]
        assert plain.decide_play(view, round_.legal_plays()) == ranked[0]
        if len(ranked) < 2 or agent.exact_play(view, round_.legal_plays(), ranked) is not None:
            continue
        values = []
        for play in ranked:
            total = 0
            for hands in deals:
                trial = world_of(view, Decision.PLAY, Hidden(hands))
                trial.apply_play(play)
                rollout(trial, HeuristicPolicy(rollout_weights(DEFAULT)), bombs=False, calls=False)
                total += round_value(trial, seat)
            values.append(total)
        best = max(range(len(ranked)), key=lambda index: (values[index], -index))
        assert choice == ranked[best]
        searched += 1
        changed += best != 0
        large += round_.hands[seat].bit_count() > 5
    assert searched >= 10 and changed >= 1 and large >= 5


def test_rollouts_only_up_to_rollout_cards() -> None:
    """With more cards in hand than ``rollout_cards`` (5, ``heuristic:v3``) the best-scored
    play stands, rollouts or not; at five cards or fewer the rollouts decide as above."""
    endgame_only = replace(DEFAULT, rollout_cards=5)
    compared = 0
    for round_ in seeded_positions(21, rounds=6)[::4]:
        seat = round_.decision_seat
        assert seat is not None
        if len(round_.legal_plays()) < 2 or round_.hands[seat].bit_count() <= 5:
            continue
        view = view_of(round_, seat)
        plain = HeuristicAgent("H", 3, replace(DEFAULT, rollout_cards=0))
        assert HeuristicAgent("H", 3, endgame_only).decide_play(view, round_.legal_plays()) == \
            plain.decide_play(view, round_.legal_plays())
        compared += 1
    assert compared >= 10


def test_a_budget_that_ran_out_rolls_out_one_deal_R8() -> None:
    """With its :attr:`HeuristicAgent.budget` spent (here: asked 10 s ago, as a server's worker
    pool counts the wait, ``Agent.asked_at``), the rollouts stop after the first sampled deal:
    the play is the candidate best on that deal alone, recomputed here; with the budget left
    the agent plays as without one."""
    checked = differs = 0
    for round_ in seeded_positions(21, rounds=6)[::4]:
        seat = round_.decision_seat
        assert seat is not None
        legal_plays = round_.legal_plays()
        view = view_of(round_, seat)
        plain = HeuristicAgent("H", 3, replace(DEFAULT, rollout_cards=0))
        ranked = [play for play, _ in plain.rank_plays(view, legal_plays)][:ROLLOUT_CANDIDATES]
        unbounded = HeuristicAgent("H", 3, DEFAULT)
        if len(ranked) < 2 or unbounded.exact_play(view, legal_plays, ranked) is not None:
            continue
        late = HeuristicAgent("H", 3, DEFAULT, budget=0.4)
        late.asked_at = time.monotonic() - 10
        choice = late.decide_play(view, legal_plays)
        first = late.policy.sampled_deals()[0]
        values = []
        for play in ranked:
            trial = world_of(view, Decision.PLAY, Hidden(first))
            trial.apply_play(play)
            rollout(trial, HeuristicPolicy(rollout_weights(DEFAULT)), bombs=False, calls=False)
            values.append(round_value(trial, seat))
        assert choice == ranked[max(range(len(ranked)), key=lambda index: (values[index], -index))]
        unbounded_choice = unbounded.decide_play(view, legal_plays)
        assert HeuristicAgent("H", 3, DEFAULT, budget=60).decide_play(view, legal_plays) == unbounded_choice
        checked += 1
        differs += choice != unbounded_choice
        if checked >= 12:
            break
    assert checked >= 12 and differs >= 1
