"""The agents' decisions in hand-made situations (rules.md R3..R7), their libraries (hand
partition, knowledge, probabilities, situations), the Monte Carlo search's sampling and
stopping, the :class:`TimedAgent` wrapper and the Arena's time statistics.

Situations are :class:`~tichu.agents.support.situation.Situation` tuples written with card labels;
where an agent needs a view, a round is built with ``Round.resume`` or ``playing_round`` and
a :class:`SeatView` is put over it.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations

import pytest

from tests.core.helpers import playing_round, run
from tichu.agents.agent import Agent
from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.heuristic_policy import WEIGHTS, HeuristicPolicy
from tichu.agents.mc_agent import ROLLOUT_WEIGHTS, MonteCarloAgent
from tichu.agents.random_agent import RandomAgent
from tichu.agents.rule_agent import RuleAgent
from tichu.agents.support.hand import partition
from tichu.agents.support.knowledge import Knowledge, SeatFacts, knowledge_of
from tichu.agents.support.policy import RulePolicy, is_top
from tichu.agents.support.prob import DealSampler, p_beats_exact, p_holds_value
from tichu.agents.support.rollout import rollout, round_value
from tichu.agents.support.situation import Situation, situation_in, situation_of
from tichu.arena.stats import TimeHistogram, clearly_nonzero
from tichu.arena.timed import TimedAgent
from tichu.core.cards import CARD_VALUE, DECK, DOG, DRAGON, MAHJONG, PHOENIX, VALUE_MASK, indices_of, parse_mask
from tichu.core.combos import BOMB, PAIR, PASS_PLAY, SINGLE, Play, classify_mask, combinations_of, legal_plays_from
from tichu.core.flow import GameState
from tichu.core.round import Decision, Round
from tichu.core.ruleset import RuleSet
from tichu.core.views import SeatView, TableInfo, TablePhase, build_private_state, build_public_state

# -- helpers ------------------------------------------------------------------------------------


def play_of(labels: str) -> Play:
    """The combination of some cards as a play (R3), read as high as it goes."""
    mask = parse_mask(labels)
    reading = classify_mask(mask)
    assert reading is not None, labels
    return Play(mask, *reading)


def situation(hand: str, *, seat: int = 0, trick: str | None = None, owner: int | None = None,
              counts: Sequence[int] | None = None, calls: Sequence[int] = (0, 0, 0, 0), played: str = "",
              wish: int = 0, trick_points: int = 0) -> Situation:
    """A situation of ``seat`` (others hold 10 cards unless ``counts`` says)."""
    mask = parse_mask(hand)
    counts = counts or tuple(mask.bit_count() if other == seat else 10 for other in range(4))
    return Situation(seat, mask, play_of(trick) if trick else None, owner, trick_points, wish, tuple(counts),
                     tuple(calls), parse_mask(played))


def legal(s: Situation) -> list[Play]:
    """The seat's legal plays in the situation (R4.1, R5.2), the pass last when allowed."""
    return legal_plays_from(combinations_of(s.hand), s.hand, s.trick, s.wish)


class Table:
    """The smallest source of a :class:`SeatView`: table facts and a round."""

    def __init__(self, round_: Round, phase: TablePhase = TablePhase.PLAYING) -> None:
        self.info = TableInfo(phase=phase)
        self.round = round_


def view_of(round_: Round, seat: int | None = None) -> SeatView:
    chosen = round_.decision_seat if seat is None else seat
    assert chosen is not None
    return SeatView.of(Table(round_), chosen)


def endgame(hands: Sequence[str], *, turn: int, trick: Sequence[tuple[int, str]] = (), out: Sequence[int] = (),
            calls: Sequence[int] = (0, 0, 0, 0)) -> Round:
    """A round in play with these hands (every other card played), resumed at ``turn``."""
    masks = [parse_mask(text) for text in hands]
    turns = [(seat, play_of(text)) for seat, text in trick]
    played = DECK & ~(masks[0] | masks[1] | masks[2] | masks[3])
    return Round.resume(RuleSet(), masks, turn=turn, announcements=calls, trick_turns=turns,
                        trick_owner=turns[-1][0] if turns else None, wish_value=0, wish_open=False,
                        won_points=(0, 0, 0, 0), out_order=out, played=played)


def seeded_positions(seed: int, rounds: int = 3) -> list[Round]:
    """Copies of rounds played by the rule policy at every play decision (a varied supply of
    positions), closed tricks taken first as the engine does."""
    policy = RulePolicy()
    found = []
    rng = random.Random(seed)
    for _ in range(rounds):
        round_ = Round(RuleSet(), rng)
        for seat in range(4):
            round_.decide_grand_tichu(seat, False)
        for seat in range(4):
            round_.schupf(seat, policy.schupf(round_.hands[seat], False))
        while not round_.is_over:
            at = round_.decision_seat
            assert at is not None
            if round_.decision == Decision.PLAY:
                if round_.trick_closed:
                    round_.collect_trick()
                found.append(round_.clone())
                round_.apply_legal_play(policy.play(situation_in(round_, at), round_.legal_plays()))
            elif round_.decision == Decision.WISH:
                round_.make_wish(at, policy.wish(situation_in(round_, at), round_.wish_choices(), 0))
            else:
                round_.give_dragon(at, policy.dragon(situation_in(round_, at), round_.dragon_recipients()))
    return found


# -- the rule policy (RuleAgent) -------------------------------------------------------------------


def test_rule_passes_on_the_partners_trick_R4_1() -> None:
    """R4.1: a seat may pass on its partner's trick, and the rule policy lets it run."""
    s = situation("S7 B9 G9 RK S3 B3 GD", trick="R5", owner=2)
    plays = legal(s)
    assert PASS_PLAY in plays and len(plays) > 1
    assert RulePolicy().play(s, plays) == PASS_PLAY


def test_rule_plays_when_the_wish_forbids_the_pass_R5_2() -> None:
    """R5.2: on its partner's trick with the wished value in hand, the seat must and does play it."""
    s = situation("S7 B9 G9 RK S3 B3 GD", trick="R5", owner=2, wish=7)
    plays = legal(s)
    assert PASS_PLAY not in plays
    assert RulePolicy().play(s, plays) == play_of("S7")


def test_rule_beats_an_opponent_with_a_whole_combination() -> None:
    """R4.1: on an opponent's single 5 it plays the lowest single of its plan (S7), not a card of
    its pair of 9s and not the Queen or King."""
    s = situation("S7 B9 G9 RK S3 B3 GD", trick="R5", owner=1)
    choice = RulePolicy().play(s, legal(s))
    assert choice == play_of("S7")
    assert choice in partition(s.hand).plays


def test_rule_beats_a_pair_with_a_pair_of_its_plan() -> None:
    """R3.2: on an opponent's pair it plays its lowest whole pair that beats it (9s), keeping the
    triple of Jacks whole."""
    s = situation("S9 B9 GB RB SB R3 GK BK", trick="S6 B6", owner=3)
    choice = RulePolicy().play(s, legal(s))
    assert choice == play_of("S9 B9")


def test_rule_leads_the_lowest_combination() -> None:
    """R4.1: leading with no sure winners it plays its lowest combination (the pair of 3s before
    the single 7)."""
    s = situation("S3 B3 G7 R9 SD")
    assert RulePolicy().play(s, legal(s)) == play_of("S3 B3")


def test_rule_goes_out_in_one_play() -> None:
    """R4.4: a hand that is one legal combination is played whole."""
    s = situation("S4 B4 G4 R9 S9", trick="S3 B3 G3 R2 S2", owner=1)
    assert RulePolicy().play(s, legal(s)) == play_of("S4 B4 G4 R9 S9")


def test_rule_gives_the_dragon_to_the_opponent_with_more_cards_R4_5() -> None:
    """R4.5: the Dragon trick goes to the opponent further from going out; on a tie to the one
    without a Tichu call, else to the lower seat."""
    policy = RulePolicy()
    assert policy.dragon(situation("S2", counts=(1, 3, 5, 9)), [1, 3]) == 3
    assert policy.dragon(situation("S2", seat=1, counts=(8, 1, 5, 2)), [2, 0]) == 0
    assert policy.dragon(situation("S2", counts=(1, 6, 5, 6), calls=(0, 0, 0, 1)), [1, 3]) == 1
    assert policy.dragon(situation("S2", counts=(1, 6, 5, 6), calls=(0, 1, 0, 0)), [1, 3]) == 3
    assert policy.dragon(situation("S2", counts=(1, 6, 5, 6)), [1, 3]) == 1


def test_rule_wishes_a_value_it_does_not_hold_R5_1() -> None:
    """R5.1: the wish names a value not in the hand: one pushed to an opponent if still out,
    else the highest value not held and not all gone."""
    policy = RulePolicy()
    s = situation("SA BK GK R9 S2")
    wish = policy.wish(s, list(range(2, 15)), 0)
    assert not s.hand & VALUE_MASK[wish] and wish == 12
    assert policy.wish(s, list(range(2, 15)), parse_mask("B7")) == 7  # pushed to an opponent
    assert policy.wish(s, list(range(2, 15)), parse_mask("RA")) == 12  # pushed, but held now
    gone = situation("SA BK GK R9 S2", played="SD BD GD RD")
    assert policy.wish(gone, list(range(2, 15)), 0) == 11
    assert policy.wish(s, [0, *range(2, 15)], 0) == 12  # RuleSet.wish_optional still wishes


def test_rule_agent_wish_uses_its_pushes_R5_1() -> None:
    """R5.1 at a real seat: the rule agent wishes a value it does not hold, reading its own
    pushed cards from its private state (R8.2)."""
    round_ = playing_round(["Ma S3 S4", "", "", ""])
    run(round_, "0 Ma")
    assert round_.decision == Decision.WISH
    wish = RuleAgent("Rule", 1).decide_wish(view_of(round_), round_.wish_choices())
    assert wish in round_.wish_choices() and not round_.hands[0] & VALUE_MASK[wish]


def test_rule_bombs_only_an_opponents_trick_R4_3() -> None:
    """R4.3: out of turn the rule policy bombs only a trick an opponent owns, and only when it
    matters (the owner about to go out), with its smallest bomb."""
    policy = RulePolicy()
    bombs = [play_of("S5 B5 G5 R5"), play_of("S9 B9 G9 R9")]
    urgent = (12, 1, 1, 1)
    assert policy.bomb(situation("S5 B5 G5 R5 S9 B9 G9 R9", trick="RA", owner=1, counts=urgent), bombs) == bombs[0]
    assert policy.bomb(situation("S5 B5 G5 R5 S9 B9 G9 R9", trick="RA", owner=3, counts=urgent), bombs) == bombs[0]
    assert policy.bomb(situation("S5 B5 G5 R5 S9 B9 G9 R9", trick="RA", owner=2, counts=urgent), bombs) is None
    assert policy.bomb(situation("S5 B5 G5 R5 S9 B9 G9 R9", trick="RA", owner=0, counts=urgent), bombs) is None
    assert policy.bomb(situation("S5 B5 G5 R5 S9 B9 G9 R9", trick="RA", owner=1), bombs) is None  # not urgent
    heuristic = HeuristicPolicy(seed=1)
    assert heuristic.choose_bomb(situation("S5 B5 G5 R5", trick="RA", owner=2, counts=urgent), bombs[:1]) is None
    assert heuristic.choose_bomb(situation("S5 B5 G5 R5", trick="RA", owner=1, counts=urgent), bombs[:1]) == bombs[0]


def test_rule_keeps_bombs_on_a_partners_trick_R4_3() -> None:
    """R4.3 at its turn: on the partner's trick the rule policy passes rather than bombing."""
    s = situation("S5 B5 G5 R5 S2", trick="RA", owner=2, counts=(5, 1, 1, 1))
    plays = legal(s)
    assert any(play[1] == BOMB for play in plays)
    assert RulePolicy().play(s, plays) == PASS_PLAY


STRONG = "Ph BA SD RB GZ G9 B8 S7 B6 R5 B4 G3 R2 G2"  # a 2..A street with the Phoenix and a 2


def test_rule_calls_tichu_only_before_its_first_card_R6_1() -> None:
    """R6.1: the rule policy calls Tichu on a strong hand of 14 cards, never once a card of the
    hand was played (fewer than 14), nor after its partner called (R6.3 spirit)."""
    policy = RulePolicy()
    assert policy.tichu(situation(STRONG, counts=(14, 14, 14, 14)))
    assert not policy.tichu(situation(STRONG.replace(" G2", ""), counts=(13, 14, 14, 14), played="G2"))
    assert not policy.tichu(situation(STRONG, counts=(14, 14, 14, 14), calls=(0, 0, 1, 0)))
    assert not policy.tichu(situation("S2 B2 G4 R6 S8 B8 GZ RD SK B3 G3 R7 S9 Hu", counts=(14, 14, 14, 14)))
    s13 = situation(STRONG, counts=(13, 14, 14, 14))
    knowledge = Knowledge(0, s13.hand, DECK & ~s13.hand, tuple(SeatFacts(14, 0, 0) for _ in range(4)))
    assert not HeuristicPolicy(seed=1).call_tichu(s13, knowledge)


def test_agents_offered_tichu_before_and_after_the_first_card_R6_1() -> None:
    """R6.1 at a real seat: the rule agent calls on its strong hand while it holds 14 cards and
    declines once it has played a card."""
    round_ = playing_round([STRONG.replace("G2", "Ma"), "", "", ""])  # the Mah Jong to lead
    agent = RuleAgent("Rule", 1)
    assert round_.can_announce(0)
    assert agent.decide_tichu(view_of(round_, 0))
    run(round_, "0 Ma")
    assert not agent.decide_tichu(view_of(round_, 0))


def test_grand_tichu_on_controls_not_after_partner_R6_2() -> None:
    """R6.2: Grand Tichu on the first 8 cards with four or more control cards (Dragon, Phoenix,
    Aces; bombs count two), never after the partner called."""
    policy = RulePolicy()
    strong = parse_mask("Dr Ph SA BA S2 B3 G4 R6")
    weak = parse_mask("Dr SA S2 B3 G4 R6 S8 BZ")
    assert policy.grand_tichu(strong, (0, 0, 0, 0), 0)
    assert not policy.grand_tichu(strong, (0, 0, 2, 0), 0)
    assert policy.grand_tichu(strong, (0, 2, 0, 0), 0)
    assert not policy.grand_tichu(weak, (0, 0, 0, 0), 0)


def test_rule_pushes_three_cards_of_its_hand_R2_3() -> None:
    """R2.3: three different cards of the hand, the Dragon and the Phoenix kept; the partner
    gets a better card than the opponents."""
    policy = RulePolicy()
    rng = random.Random(3)
    for _ in range(50):
        hand = 0
        for index in rng.sample(range(56), 14):
            hand |= 1 << index
        right, partner, left = policy.schupf(hand, False)
        assert len({right, partner, left}) == 3
        assert all(card.bit_count() == 1 and card & hand for card in (right, partner, left))
        assert not (right | partner | left) & (DRAGON | PHOENIX)


# -- the heuristic agent ------------------------------------------------------------------------------


def test_hint_lists_every_legal_play_with_the_choice_first() -> None:
    """The hint (protocol.md ``play``) orders exactly the legal plays, each once, starting with
    the best-scored play: the one the heuristic agent with the same seed chooses without its
    rollouts and exact endgames (the agent also rolls its four best out, ``Weights.rollout_cards``;
    the hint stays as cheap as the scores)."""
    checked = 0
    scores_only = replace(WEIGHTS, rollout_cards=0, exact_nodes=0)
    for round_ in seeded_positions(5, rounds=2)[::3]:
        plays = round_.legal_plays()
        hint = HeuristicAgent("Hint", 9).hint(view_of(round_), plays)
        assert Counter(hint) == Counter(plays)
        assert hint[0] == HeuristicAgent("Hint", 9).rank_plays(view_of(round_), plays)[0][0]
        assert hint[0] == HeuristicAgent("Hint", 9, scores_only).decide_play(view_of(round_), plays)
        checked += len(plays) > 1
    assert checked >= 20


def test_heuristic_wishes_a_value_it_does_not_hold_R5_1() -> None:
    """R5.1: the heuristic wish names a value not in the hand."""
    for round_ in seeded_positions(6, rounds=3):
        seat = round_.turn
        assert seat is not None
        if not round_.hands[seat] & MAHJONG or round_.trick is not None:
            continue
        round_.apply_legal_play(next(play for play in round_.legal_plays() if play[0] == MAHJONG))
        wish = HeuristicAgent("H", 1).decide_wish(view_of(round_), round_.wish_choices())
        assert wish in range(2, 15) and not round_.hands[seat] & VALUE_MASK[wish]
        return
    raise AssertionError("no lead with the Mah Jong found")


def test_heuristic_fights_when_a_double_victory_threatens_R7_1() -> None:
    """R7.1: with an opponent out, the heuristic's scores break its triple of 9s to beat the other
    opponent's single instead of letting it run; the rule policy keeps the triple and passes.
    (The agent then rolls both out: here a close call that its sampled deals decide.)"""
    round_ = endgame(["S9 B9 G9 R2 S3 B4", "", "B8 G8 SZ BZ", "RK GD B6 G7 R8"], turn=0, trick=[(3, "S5")], out=[1])
    plays = round_.legal_plays()
    assert RuleAgent("Rule", 2).decide_play(view_of(round_), plays) == PASS_PLAY
    choice = HeuristicAgent("H", 2, replace(WEIGHTS, rollout_cards=0)).decide_play(view_of(round_), plays)
    assert choice[1] == SINGLE and choice[3] == 9


# -- the Monte Carlo agent -------------------------------------------------------------------------------


@pytest.mark.slow
def test_montecarlo_with_a_fixed_sample_count() -> None:
    """With no time budget and ``min_samples == max_samples == n`` the search samples exactly n
    deals and returns one of the legal plays; the same seed gives the same play."""
    round_ = playing_round(["Ma S3", "", "", ""])
    plays = round_.legal_plays()
    for n in (2, 5, 12):
        agent = MonteCarloAgent("MC", 4, budget=None, max_samples=n, min_samples=n)
        choice = agent.decide_play(view_of(round_), plays)
        assert choice in plays and agent.last_samples == n
        again = MonteCarloAgent("MC", 4, budget=None, max_samples=n, min_samples=n)
        assert again.decide_play(view_of(round_), plays) == choice


def test_montecarlo_with_a_single_sample() -> None:
    """One sample per decision is a valid setting: the search plays the heuristic's first
    candidates on one deal and returns a legal play."""
    round_ = playing_round(["Ma S3", "", "", ""])
    plays = round_.legal_plays()
    agent = MonteCarloAgent("MC", 4, budget=None, max_samples=1, min_samples=1)
    assert agent.decide_play(view_of(round_), plays) in plays
    assert agent.last_samples == 1


def test_montecarlo_budget_counts_from_when_the_decision_was_asked() -> None:
    """A decision asked for long ago (``asked_at``: it waited for a server's worker) has spent its
    budget: it searches one deal and answers; asked now, the same budget allows the full search."""
    round_ = playing_round(["Ma S3", "", "", ""])
    plays = round_.legal_plays()
    waited = MonteCarloAgent("MC", 4, budget=30.0, max_samples=6, min_samples=6)
    waited.asked_at = time.monotonic() - 60.0
    assert waited.decide_play(view_of(round_), plays) in plays
    assert waited.last_samples == 1
    fresh = MonteCarloAgent("MC", 4, budget=30.0, max_samples=6, min_samples=6)
    fresh.asked_at = time.monotonic()
    assert fresh.decide_play(view_of(round_), plays) in plays
    assert fresh.last_samples == 6


def test_montecarlo_starts_no_deal_that_would_end_past_its_budget() -> None:
    """The stopping rule's clock: with an hour of the budget left, the search goes on after a
    deal that took a second, and stops after one that took two hours (the next would end past
    the budget, which on a slow machine made a decision last a deal longer than its budget)."""
    agent = MonteCarloAgent("MC", 1, budget=3600.0)
    deadline = time.monotonic() + 3600.0
    undecided: list[list[int]] = [[0], [0]]
    assert not agent._enough(1, deadline, undecided, [0.0, 0.0], last_deal=1.0)
    assert agent._enough(1, deadline, undecided, [0.0, 0.0], last_deal=7200.0)
    assert agent._enough(1, time.monotonic() - 1.0, undecided, [0.0, 0.0])


def test_montecarlo_stops_once_one_play_clearly_leads() -> None:
    """The stopping rule: seat 0's partner is out; seat 0 can go out with its pair of 9s on an
    opponent's pair of 5s (a double victory, R7.1: +200) or pass (the opponent with one card
    then leads and goes out). The search stops after ``min_samples``, long before ``max_samples``,
    and goes out."""
    round_ = endgame(["S9 B9", "S2 B2 G3 R4 S6 G7 R8 BZ GB RD GK", "", "R3"], turn=0, trick=[(3, "S5 B5")], out=[2])
    plays = round_.legal_plays()
    assert plays == [play_of("S9 B9"), PASS_PLAY]
    agent = MonteCarloAgent("MC", 1, budget=None, max_samples=100, min_samples=4)
    assert agent.decide_play(view_of(round_), plays) == play_of("S9 B9")
    assert 4 <= agent.last_samples < 100


def test_montecarlo_single_play_needs_no_search() -> None:
    """With one legal play there is nothing to search: it is returned."""
    round_ = endgame(["S9", "S2 B2 G3", "", "R3"], turn=0, trick=[(3, "SA")], out=[2])
    plays = round_.legal_plays()
    assert plays == [PASS_PLAY]
    assert MonteCarloAgent("MC", 1, budget=None).decide_play(view_of(round_), plays) == PASS_PLAY


def test_rollout_ends_rounds_and_round_value_is_per_team_R7() -> None:
    """``rollout`` plays any position to the end (R7); ``round_value`` is the seat's team's points
    minus the others', the same for partners and opposite for opponents."""
    policy = HeuristicPolicy(ROLLOUT_WEIGHTS)
    for round_ in seeded_positions(7, rounds=2)[::10]:
        state = GameState.within(round_)
        rollout(state, policy)
        assert state.is_over and round_.is_over
        points = round_.result().points
        for seat in range(4):
            expected = points[seat % 2] - points[1 - seat % 2]
            assert round_value(state, seat) == expected
        assert round_value(state, 0) == round_value(state, 2) == -round_value(state, 1) == -round_value(state, 3)


# -- situations, knowledge, probabilities ---------------------------------------------------------------


def test_situation_of_a_view_is_the_situation_in_the_round_R8() -> None:
    """At a play decision the situation built from the seat's public and private states (R8.1,
    R8.2) equals the one read directly from the round (what rollouts use)."""
    for round_ in seeded_positions(8, rounds=2):
        seat = round_.turn
        assert seat is not None
        view = view_of(round_)
        assert situation_of(view.public_state(), view.private_state()) == situation_in(round_, seat)
    s = situation("S2")
    assert s.partner == 2 and s.is_opponent(1) and s.is_opponent(3)
    assert not s.is_opponent(0) and not s.is_opponent(2) and not s.is_opponent(None)


def _random_hands(seed: int, count: int) -> list[int]:
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        hand = 0
        for index in rng.sample(range(56), rng.randint(1, 14)):
            hand |= 1 << index
        hands.append(hand)
    return hands


def test_partition_plays_are_combinations_of_the_hand() -> None:
    """The plan's plays are combinations (R3) of the hand's cards whose values, taken together,
    are exactly the hand's; bombs are kept whole and apart (R3.7)."""
    for hand in _random_hands(11, 300):
        plan = partition(hand)
        values: Counter[int] = Counter()
        for play in plan.plays:
            assert play[0] and not play[0] & ~hand
            reading = classify_mask(play[0])
            assert reading is not None and reading[0] == play[1] and reading[1] == play[2]
            values.update(CARD_VALUE[index] for index in indices_of(play[0]))
        assert values == Counter(CARD_VALUE[index] for index in indices_of(hand))
        assert set(plan.bombs) <= set(plan.plays) and all(bomb[1] == BOMB for bomb in plan.bombs)
        in_bombs = 0
        for bomb in plan.bombs:
            assert not bomb[0] & in_bombs
            in_bombs |= bomb[0]
    assert partition(parse_mask("S5 B5 G5 R5 S2")).bombs == (play_of("S5 B5 G5 R5"),)


def test_partition_plays_are_disjoint_and_cover_the_hand() -> None:
    """The plan splits the hand: its plays are disjoint and together are the whole hand (a street
    and a spare card of one of its values take different cards of that value)."""
    plan = partition(parse_mask("S3 B4 G5 S6 G6 B7"))
    assert {play[0] for play in plan.plays} == {parse_mask("G6"), parse_mask("S3 B4 G5 S6 B7")} \
        or {play[0] for play in plan.plays} == {parse_mask("S6"), parse_mask("S3 B4 G5 G6 B7")}
    for hand in _random_hands(11, 300):
        covered = 0
        for play in partition(hand).plays:
            assert not play[0] & covered
            covered |= play[0]
        assert covered == hand


def test_is_top_counts_the_unseen_cards() -> None:
    """A single is top when no unseen card beats it (R3.9: the Dragon beats the Phoenix)."""
    unseen = DECK & ~parse_mask("SA BA GA RA Dr Ph")
    assert is_top(play_of("SA"), unseen)
    assert not is_top(play_of("SK"), unseen | parse_mask("RA"))
    assert not is_top(play_of("SA"), unseen | DRAGON)
    assert is_top(play_of("Dr"), DECK)
    assert is_top(play_of("SA BA"), unseen)
    assert not is_top(play_of("SK BK"), unseen | PHOENIX | parse_mask("RA"))


def _endgame_knowledge() -> Knowledge:
    """Seat 0 knows: seats 1 and 3 hold 3 cards each, seat 2 none, among six unseen cards;
    seat 1 must hold SA (pushed to it) and cannot hold the 8s (wish void, R5.2)."""
    unseen = parse_mask("SA S8 B8 G2 R2 Dr")
    return Knowledge(0, parse_mask("S3"), unseen, (
        SeatFacts(1, parse_mask("S3"), 0), SeatFacts(3, parse_mask("SA"), parse_mask("S8 B8")),
        SeatFacts(0, 0, 0), SeatFacts(3, 0, 0)))


def _consistent_deals(knowledge: Knowledge) -> list[tuple[int, ...]]:
    free = knowledge.unseen & ~knowledge.seats[1].must
    deals: list[tuple[int, ...]] = []
    for picked in combinations(indices_of(free), 2):
        seat1 = knowledge.seats[1].must | sum(1 << index for index in picked)
        if seat1 & knowledge.seats[1].cannot:
            continue
        deals.append((knowledge.hand, seat1, 0, knowledge.unseen & ~seat1))
    return deals


def test_deal_sampler_draws_every_consistent_deal_evenly_R8() -> None:
    """Sampled deals keep the known cards, the counts and the voids, and every consistent deal
    comes up about equally often (seeded; loose bounds)."""
    knowledge = _endgame_knowledge()
    deals = _consistent_deals(knowledge)
    assert len(deals) == 3  # G2 R2 Dr taken two at a time
    sampler = DealSampler(knowledge)
    rng = random.Random(12)
    counts = Counter(tuple(sampler.sample(rng)) for _ in range(3000))
    assert set(counts) == set(deals)
    assert all(800 <= count <= 1200 for count in counts.values()), counts


def test_deal_sampler_refuses_inconsistent_knowledge() -> None:
    """Counts that do not add up to the unseen cards are refused with ``ValueError``."""
    knowledge = _endgame_knowledge()
    broken = Knowledge(0, knowledge.hand, knowledge.unseen, (knowledge.seats[0], SeatFacts(4, parse_mask("SA"), 0),
                                                              knowledge.seats[2], knowledge.seats[3]))
    with pytest.raises(ValueError):
        DealSampler(broken)


def test_exact_probabilities_match_counting_deals() -> None:
    """``p_holds_value`` and ``p_beats_exact`` equal the share of consistent deals (each equally
    likely) in which the event holds."""
    knowledge = Knowledge(0, parse_mask("S3"), parse_mask("SA BA G2 R2 Dr B9"), (
        SeatFacts(1, parse_mask("S3"), 0), SeatFacts(3, 0, 0), SeatFacts(0, 0, 0), SeatFacts(3, 0, 0)))
    deals = [sum(1 << index for index in picked) for picked in combinations(indices_of(knowledge.unseen), 3)]
    share = sum(1 for hand in deals if hand & VALUE_MASK[14]) / len(deals)
    assert p_holds_value(knowledge, 1, 14) == pytest.approx(share)
    share = sum(1 for hand in deals if (hand & VALUE_MASK[14]).bit_count() >= 2) / len(deals)
    assert p_holds_value(knowledge, 1, 14, at_least=2) == pytest.approx(share)
    share = sum(1 for hand in deals if hand & (VALUE_MASK[14] | DRAGON)) / len(deals)
    assert p_beats_exact(knowledge, 1, play_of("RK")) == pytest.approx(share)
    share = sum(1 for hand in deals if (hand & VALUE_MASK[14]).bit_count() == 2) / len(deals)
    assert p_beats_exact(knowledge, 1, play_of("SK BK")) == pytest.approx(share)


def test_knowledge_of_a_seat_R8() -> None:
    """The knowledge of a seat in play: its hand, the unseen cards, every hand's count, the
    cards it pushed that are not played (R8.2), the Mah Jong with the first leader (R2.5)."""
    round_ = playing_round(["Ma S3 S4", "", "", ""])
    run(round_, "0 S3")
    public = build_public_state(TableInfo(phase=TablePhase.PLAYING), round_)
    knowledge = knowledge_of(public, build_private_state(round_, 1))
    assert knowledge.hand == round_.hands[1]
    assert knowledge.unseen == DECK & ~round_.played & ~round_.hands[1]
    given = round_.given[1]
    assert given is not None
    for offset, card in enumerate(given, start=1):
        assert knowledge.seats[(1 + offset) % 4].must & card
    assert knowledge.seats[0].must & MAHJONG
    assert [facts.count for facts in knowledge.seats] == [hand.bit_count() for hand in round_.hands]
    assert knowledge.opponents() == (2, 0) and knowledge.partner() == 3



def test_knowledge_before_the_pushed_cards_arrive_R2_3() -> None:
    """R2.3: while the pushed cards are on their way they are in no hand, so nothing is known
    to be in another seat's hand yet."""
    round_ = Round(RuleSet(), random.Random(5))
    for seat in range(4):
        round_.decide_grand_tichu(seat, False)
    round_.schupf(0, [1 << index for index in indices_of(round_.hands[0])[:3]])
    private = build_private_state(round_, 0)
    assert private.given_schupf_cards is not None and private.received_schupf_cards is None
    knowledge = knowledge_of(build_public_state(TableInfo(phase=TablePhase.SCHUPF), round_), private)
    assert [facts.must for facts in knowledge.seats[1:]] == [0, 0, 0]
    assert knowledge.hand == round_.hands[0] and knowledge.hand.bit_count() == 11


# -- TimedAgent ------------------------------------------------------------------------------------------


class Fixed(Agent):
    """Answers every decision with fixed values and counts the calls."""

    kind = "agent:fixed"

    def __init__(self) -> None:
        super().__init__("Fixed")
        self.calls: Counter[str] = Counter()

    def decide_grand_tichu(self, view: SeatView) -> bool:
        self.calls["grand"] += 1
        return True

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        self.calls["schupf"] += 1
        return 1, 2, 4

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        self.calls["play"] += 1
        return legal[-1]

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        self.calls["wish"] += 1
        return choices[1]

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        self.calls["dragon"] += 1
        return recipients[0]

    def decide_tichu(self, view: SeatView) -> bool:
        self.calls["tichu"] += 1
        return True

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        self.calls["bomb"] += 1
        return bombs[0]


def test_timed_agent_forwards_and_times_the_asked_decisions() -> None:
    """Every decision goes to the wrapped agent and its answer comes back; the five the engine
    asks for (Grand Tichu, push, play, wish, Dragon) are counted in the histogram, forced plays
    and the Tichu and bomb offers made at every turn are not."""
    inner, times = Fixed(), TimeHistogram()
    timed = TimedAgent(inner, times)
    assert timed.name == "Fixed" and timed.kind == "agent:fixed"
    view = SeatView.of(Table(playing_round(["Ma", "", "", ""])), 0)
    bomb = play_of("S5 B5 G5 R5")
    assert timed.decide_grand_tichu(view) is True
    assert timed.decide_schupf(view) == (1, 2, 4)
    assert timed.decide_play(view, [play_of("S2"), PASS_PLAY]) == PASS_PLAY
    assert timed.decide_wish(view, [2, 3, 4]) == 3
    assert timed.decide_dragon(view, [1, 3]) == 1
    assert times.total == 5
    assert timed.decide_tichu(view) is True
    assert timed.decide_bomb(view, [bomb]) == bomb
    assert timed.decide_play(view, [PASS_PLAY]) == PASS_PLAY  # forced: nothing decided
    assert times.total == 5
    assert inner.calls == Counter(grand=1, schupf=1, play=2, wish=1, dragon=1, tichu=1, bomb=1)


def test_timed_agent_plays_like_the_agent_it_wraps() -> None:
    """Wrapped, a seeded agent decides exactly as unwrapped."""
    for round_ in seeded_positions(9, rounds=1)[::5]:
        plays = round_.legal_plays()
        plain = RandomAgent("R", 3).decide_play(view_of(round_), plays)
        assert TimedAgent(RandomAgent("R", 3), TimeHistogram()).decide_play(view_of(round_), plays) == plain


# -- TimeHistogram and clearly_nonzero --------------------------------------------------------------------


@pytest.mark.parametrize("seconds", [2e-6, 3.3e-5, 0.0004, 0.00123, 0.017, 0.25, 1.0, 7.5, 42.0])
def test_time_histogram_quantile_within_12_percent(seconds: float) -> None:
    """A duration comes back from the quantiles within 12% (the documented resolution)."""
    histogram = TimeHistogram()
    for _ in range(10):
        histogram.add(seconds)
    for q in (0.0, 0.5, 1.0):
        assert abs(histogram.quantile(q) / seconds - 1) < 0.12


def test_time_histogram_quantiles_and_merge() -> None:
    """Quantiles pick the bucket holding the q-th duration; merging adds the counts; an empty
    histogram answers 0; durations out of range land in the first or last bucket."""
    assert TimeHistogram().quantile(0.5) == 0.0 and TimeHistogram().total == 0
    fast, slow = TimeHistogram(), TimeHistogram()
    for _ in range(90):
        fast.add(0.001)
    for _ in range(10):
        slow.add(0.5)
    both = TimeHistogram()
    both.merge(fast)
    both.merge(slow)
    assert both.total == 100 and both.counts == [a + b for a, b in zip(fast.counts, slow.counts)]
    assert both.quantile(0.5) == pytest.approx(0.001, rel=0.12)
    assert both.quantile(0.9) == pytest.approx(0.001, rel=0.12)
    assert both.quantile(0.95) == pytest.approx(0.5, rel=0.12)
    assert both.quantile(0.99) == pytest.approx(0.5, rel=0.12)
    assert fast.total == 90  # merging leaves the source alone
    edges = TimeHistogram()
    edges.add(0.0)
    edges.add(1e-9)
    edges.add(1e6)
    assert edges.counts[0] == 2 and edges.counts[-1] == 1
    assert edges.quantile(0.0) < 2e-6 and edges.quantile(1.0) > 50


def test_clearly_nonzero() -> None:
    """Whether a mean differs from 0 by more than z standard errors (Pocock's 2.555 by default)."""
    assert not clearly_nonzero([])
    assert not clearly_nonzero([5.0])
    assert clearly_nonzero([3.0, 3.0, 3.0])
    assert not clearly_nonzero([0.0, 0.0, 0.0])
    assert not clearly_nonzero([1.0, -1.0] * 50)
    assert clearly_nonzero([1.0, 2.0] * 50) and clearly_nonzero([-1.0, -2.0] * 50)
    values = [0.0, 2.0] * 8  # mean 1, standard error sqrt(16/15 / 16) = 0.258: z 3.87
    assert clearly_nonzero(values) and not clearly_nonzero(values, z=4.0)
    assert clearly_nonzero(values, z=3.8)
    assert math.isclose(sum(values) / len(values), 1.0)


def test_dog_and_mahjong_partition_and_control_cards() -> None:
    """Special cards in the plan: the Dog and the Dragon are singles of their own (R3.10, R3.9),
    the Mah Jong may start a street (R3.5)."""
    plan = partition(parse_mask("Hu Dr Ma S2 B3 G4 R5"))
    assert (DOG, SINGLE, 1, 0) in plan.plays and (DRAGON, SINGLE, 1, 15) in plan.plays
    assert play_of("Ma S2 B3 G4 R5") in plan.plays
    assert PAIR not in {play[1] for play in plan.plays}
