"""The whole game's flow in the rules core (:mod:`tichu.core.flow`): the deal as chance, the
decisions made at once (R2.1, R2.3), the one order of the Tichu offers (R6.1) and of the bomb
offers (R4.3), the bomb window of seats that act by themselves, the trick's and the Dragon's
closing (R4.2, R4.5), and a game to its end (R7.4)."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.helpers import cards, dealt_round, planted_deal, playing_round
from tichu.core.cards import DECK, points_of
from tichu.core.errors import RuleViolation, Violation
from tichu.core.flow import ALL_PROMPTED, CHANCE, GameState
from tichu.core.game import Game
from tichu.core.outcomes import TurnChanged
from tichu.core.round import ANNOUNCE_GRAND, Action, ActionKind, Decision, Phase, Round
from tichu.core.ruleset import RuleSet


def _state_at(round_: Round, prompted: tuple[bool, ...] = ALL_PROMPTED) -> GameState:
    """A one-round state at the first moment of a scripted round (its offers not made yet)."""
    return GameState.within(round_, prompted=prompted, offered=False)


def _decline_offers(state: GameState) -> None:
    """Let every open call and bomb offer pass."""
    while state.decision in (Decision.TICHU, Decision.BOMB):
        seat = state.decision_seat
        assert seat is not None
        state.decline(seat)


def _flow_snapshot(state: GameState) -> dict[str, object]:
    """Everything of a state that an action may change (for 'a refusal changes nothing')."""
    round_ = state.round
    names = ["decision", "decision_seat", "_stage", "_next", "_window", "_pending", "_may_call", "round_index"]
    found = {name: copy.deepcopy(getattr(state, name)) for name in names}
    if round_ is not None:
        found["round"] = (list(round_.hands), list(round_.announcements), list(round_.events), round_.trick,
                          round_.turn, round_.trick_closed, list(round_.won))
    if state.game is not None:
        found["total"] = list(state.game.total)
    return found


def _refused(state: GameState, code: Violation, action: Action, rule: str) -> None:
    before = _flow_snapshot(state)
    with pytest.raises(RuleViolation) as caught:
        state.apply(action)
    assert caught.value.violation == code and caught.value.rule.startswith(rule), caught.value
    assert _flow_snapshot(state) == before, "a refused action changes nothing"


# -- the deal (chance) --------------------------------------------------------------------------


def test_a_game_starts_with_the_deal_as_chance_R2_1() -> None:
    state = GameState(RuleSet(), seed=7)
    assert (state.decision, state.decision_seat, state.is_chance) == (Decision.DEAL, CHANCE, True)
    assert state.legal_actions() == [] and state.open_decisions() == []
    state.deal()
    expected = Game(RuleSet(), random.Random(7)).new_round()
    assert state.round is not None and state.round.first_deal == expected.first_deal  # the seeded default
    assert (state.decision, state.decision_seat) == (Decision.GRAND_TICHU, 0)


def test_the_rules_hold_no_seed_whoever_runs_the_game_owns_it_R2_1_R8() -> None:
    """Issue 36: the deal is a chance outcome; its seed belongs to whoever runs the game, not
    to the rule set, which every seat sees (R8). The same seed deals the same rounds, given as
    a seed or as the game's shuffle source."""
    assert "seed" not in {field.name for field in dataclasses.fields(RuleSet)}
    rules = RuleSet(target_score=300, wish_optional=True)
    assert "seed" not in rules.to_json() and RuleSet.from_json({**rules.to_json(), "seed": 7}) == rules
    by_seed, by_source, other = GameState(rules, seed=7), GameState(rules, Game(rules, random.Random(7))), \
        GameState(rules, seed=8)
    for state in (by_seed, by_source, other):
        state.deal()
    assert by_seed.round is not None and by_source.round is not None and other.round is not None
    assert by_seed.round.first_deal == by_source.round.first_deal != other.round.first_deal
    assert by_seed.round.rules is rules


def test_any_deal_can_be_given_and_a_bad_one_is_refused_R1_1() -> None:
    rng = random.Random(3)
    deal = planted_deal(rng)
    state = GameState(RuleSet())
    _refused(state, Violation.ACTION_NOT_ALLOWED, Action(ActionKind.DEAL, 0, deal), "R2.1")  # not chance's
    bad = [(deal[0][0], deal[0][1])] * 4
    _refused(state, Violation.ACTION_NOT_ALLOWED, Action(ActionKind.DEAL, CHANCE, bad), "R1.1")
    _refused(state, Violation.ACTION_NOT_ALLOWED, Action(ActionKind.DEAL, CHANCE, [("x", 1)] * 4),  # type: ignore[arg-type]
             "R2.1")
    state.apply(Action(ActionKind.DEAL, CHANCE, deal))
    assert state.round is not None and state.round.first_deal == [first for first, _ in deal]
    _refused(state, Violation.ACTION_NOT_ALLOWED, Action(ActionKind.DEAL, CHANCE, deal), "R2.1")  # no deal due


# -- decisions made at once (R2.1, R2.3) ---------------------------------------------------------


def test_grand_tichu_answers_in_any_order_take_effect_together_R2_1() -> None:
    state = _state_at(dealt_round(["", "", "", ""]))
    assert [seat for seat, _ in state.open_decisions()] == [0, 1, 2, 3]
    state.decide_grand_tichu(2, True)
    round_ = state.round
    assert round_ is not None
    assert round_.announcements == [0, 0, 0, 0], "no seat learns another's call before deciding"
    assert all(hand.bit_count() == 8 for hand in round_.hands)
    assert (state.decision, state.decision_seat) == (Decision.GRAND_TICHU, 0)
    assert [seat for seat, _ in state.open_decisions()] == [0, 1, 3]
    _refused(state, Violation.CALL_NOT_ALLOWED, Action(ActionKind.GRAND_TICHU, 2, False), "R6.2")
    for seat in (3, 0, 1):
        state.decide_grand_tichu(seat, False)
    assert round_.announcements == [0, 0, ANNOUNCE_GRAND, 0]
    assert all(hand.bit_count() == 14 for hand in round_.hands)  # R2.2
    assert (state.decision, state.decision_seat) == (Decision.SCHUPF, 0)


def test_pushes_in_any_order_change_hands_when_the_last_is_in_R2_3() -> None:
    state = _state_at(dealt_round(["Ma", "", "", ""]))
    for seat in range(4):
        state.decide_grand_tichu(seat, False)
    round_ = state.round
    assert round_ is not None
    before = list(round_.hands)
    pushes = [tuple(1 << index for index in sorted(range(56), key=lambda i: -(hand >> i & 1))[:3]) for hand in before]
    state.push(3, pushes[3])
    assert round_.hands == before, "the cards change hands only when all four pushed"
    _refused(state, Violation.ACTION_NOT_ALLOWED, Action(ActionKind.SCHUPF, 3, pushes[3]), "R2.3")
    _refused(state, Violation.NOT_IN_HAND, Action(ActionKind.SCHUPF, 1, pushes[0]), "R2.3")
    assert [seat for seat, _ in state.open_decisions()] == [0, 1, 2]
    for seat in (1, 0, 2):
        state.push(seat, pushes[seat])
    assert round_.phase == Phase.PLAYING and all(hand.bit_count() == 14 for hand in round_.hands)
    assert round_.received(0) == (pushes[1][2], pushes[2][1], pushes[3][0])


# -- the offers of a moment (R6.1, R4.3) ---------------------------------------------------------


def _calls_offered(state: GameState, accept: tuple[int, ...] = ()) -> list[int]:
    """Answer the Tichu offers of this moment (calls for the seats in ``accept``); the seats offered."""
    offered = []
    while state.decision == Decision.TICHU:
        seat = state.decision_seat
        assert seat is not None
        offered.append(seat)
        if seat in accept:
            state.call(seat)
        else:
            state.decline(seat)
    return offered


def test_tichu_is_offered_in_seat_order_to_seats_that_have_not_played_R6_1() -> None:
    state = _state_at(playing_round(["Ma S3", "S4", "S5", "S6"]))
    assert _calls_offered(state) == [0, 1, 2, 3]
    assert (state.decision, state.decision_seat) == (Decision.PLAY, 0)
    state.play(0, cards("Ma"))
    state.wish(0, 9)
    assert _calls_offered(state, accept=(2,)) == [1, 2, 3], "seat 0 played its first card (R6.1)"
    assert state.round is not None and state.round.announcements == [0, 0, 1, 0]
    assert _calls_offered(state) == [], "offers are made once per moment"


def test_a_call_out_of_turn_is_taken_and_leaves_the_offers_where_they_were_R6_1() -> None:
    state = _state_at(playing_round(["Ma S3", "S4", "S5", "S6"]))
    state.decline(0)
    assert (state.decision, state.decision_seat) == (Decision.TICHU, 1)
    state.call(3)  # unprompted, at any moment it is allowed
    assert (state.decision, state.decision_seat) == (Decision.TICHU, 1)
    state.decline(1)
    state.decline(2)
    assert (state.decision, state.decision_seat) == (Decision.PLAY, 0), "seat 3 called already"
    _refused(state, Violation.CALL_NOT_ALLOWED, Action(ActionKind.TICHU, 3), "R6.1")


def test_bombs_are_offered_nearest_after_the_tricks_owner_not_to_the_seat_at_turn_R4_3() -> None:
    round_ = playing_round(["Ma SK", "S2 B2 G2 R2 S9", "S3 B3 G3 R3 B9", "S4 B4 G4 R4 G9"])
    state = _state_at(round_)
    _decline_offers(state)
    state.play(0, cards("SK"))
    offered = []
    while state.decision in (Decision.TICHU, Decision.BOMB):
        seat = state.decision_seat
        assert seat is not None
        if state.decision == Decision.BOMB:
            offered.append(seat)
        state.decline(seat)
    assert offered == [2, 3], "seat 1 is at turn: it plays a bomb as its play"
    assert (state.decision, state.decision_seat) == (Decision.PLAY, 1)
    state.play(1, 0)
    offered = []
    while state.decision in (Decision.TICHU, Decision.BOMB):
        seat = state.decision_seat
        assert seat is not None
        if state.decision == Decision.BOMB:
            offered.append(seat)
        state.decline(seat)
    assert offered == [1, 3], "from seat 1 after the owner 0, the seat at turn (2) left out"


def test_a_closing_trick_offers_every_bomb_then_is_taken_R4_2_R4_3() -> None:
    round_ = playing_round(["Ma SK", "S2 B2 G2 R2", "", ""])
    state = _state_at(round_)
    _decline_offers(state)
    state.play(0, cards("SK"))
    for _ in range(3):
        _decline_offers(state)
        state.play(state.decision_seat or 0, 0)
    assert round_.trick_closed
    assert (state.decision, state.decision_seat) == (Decision.BOMB, 1)
    assert [play.cards for play in state.offered_bombs()] == [cards("S2 B2 G2 R2")]
    won = list(round_.tricks_won)
    state.decline(1)
    assert round_.tricks_won[0] == won[0] + 1 and round_.trick is None, "R4.2: taken once every offer passed"
    assert round_.turn == 0


def test_a_bomb_starts_the_offers_afresh_and_play_goes_on_after_the_bomber_R4_3() -> None:
    round_ = playing_round(["Ma SK", "S9", "S2 B2 G2 R2", ""])
    state = _state_at(round_)
    _decline_offers(state)
    state.play(0, cards("SK"))
    while state.decision == Decision.TICHU:
        state.decline(state.decision_seat or 0)
    assert (state.decision, state.decision_seat) == (Decision.BOMB, 2)
    caused = state.bomb(2, cards("S2 B2 G2 R2"))
    assert round_.trick is not None and round_.trick.cards == cards("S2 B2 G2 R2") and round_.trick_owner == 2
    assert caused == (TurnChanged(3),), "Issue 36: the bomb's outcome is the next seat's turn"
    assert (state.decision, state.decision_seat) == (Decision.TICHU, 1), "a new moment: the calls first"
    _decline_offers(state)
    assert (state.decision, state.decision_seat) == (Decision.PLAY, 3)


def test_the_dragons_trick_is_offered_to_bombs_then_given_away_R4_5() -> None:
    round_ = playing_round(["Ma Dr", "", "S2 B2 G2 R2", ""])
    state = _state_at(round_)
    _decline_offers(state)
    state.play(0, cards("Dr"))
    for _ in range(3):
        _decline_offers(state)
        if state.decision == Decision.PLAY:
            state.play(state.decision_seat or 0, 0)
    assert (state.decision, state.decision_seat) == (Decision.BOMB, 2)
    state.decline(2)
    assert (state.decision, state.decision_seat) == (Decision.DRAGON, 0)
    assert [action.value for action in state.legal_actions()] == [1, 3]
    state.give_dragon(0, 3)
    assert round_.won[3] & cards("Dr")


# -- seats that act by themselves: no offers, the bomb window -------------------------------------


def test_seats_that_act_by_themselves_are_offered_nothing_and_form_the_bomb_window_R4_3() -> None:
    round_ = playing_round(["Ma SK", "S2 B2 G2 R2", "", ""])
    state = _state_at(round_, prompted=(True, False, True, False))
    offered = []
    while state.decision == Decision.TICHU:
        offered.append(state.decision_seat)
        state.decline(state.decision_seat or 0)
    assert offered == [0, 2]
    state.play(0, cards("SK"))
    for _ in range(3):
        assert state.decision != Decision.BOMB, "seat 1's bomb is not offered: it throws it by itself"
        _decline_offers(state)
        state.play(state.decision_seat or 0, 0)
    assert round_.trick_closed and state.in_window()
    assert state.open_decisions() == [(1, Decision.BOMB), (3, Decision.BOMB)], "nearest after owner 0, not the owner"
    state.decline(3)
    assert state.open_decisions() == [(1, Decision.BOMB)]
    state.decline(1)
    assert round_.trick is None and not state.in_window()


def test_a_bomb_by_a_seat_that_acts_by_itself_may_come_at_any_moment_the_rules_allow_R4_3() -> None:
    round_ = playing_round(["Ma SK", "S2 B2 G2 R2", "", ""])
    state = _state_at(round_, prompted=(True, False, True, True))
    _decline_offers(state)
    _refused(state, Violation.BOMB_NOT_ALLOWED, Action(ActionKind.BOMB, 1, cards("S2 B2 G2 R2")), "R4.3")  # a lead
    state.play(0, cards("SK"))
    assert state.decision == Decision.TICHU  # seat 2 and 3 are offered their calls
    _refused(state, Violation.NOT_YOUR_TURN, Action(ActionKind.BOMB, 1, cards("S2 B2 G2 R2")), "R4.3")  # at turn
    _decline_offers(state)
    state.play(1, 0)
    state.bomb(1, cards("S2 B2 G2 R2"))  # while seat 2 is asked
    assert round_.trick_owner == 1 and round_.turn == 2


def test_no_bomb_window_once_the_round_is_decided_R7_2() -> None:
    """Three seats out, the last one's Dragon on top: the trick goes to the Dragon's gift at
    once, no seat may bomb it (R7.2), and no window waits for anybody."""
    round_ = playing_round(["Ma Dr", "", "S2 B2 G2 R2", ""])
    round_.hands[0] = cards("Dr")  # seat 0 holds only the Dragon, seats 1 and 3 are out
    round_.hands[1] = round_.hands[3] = 0
    round_.out_order[:] = [1, 3]
    state = _state_at(round_, prompted=(True, False, False, False))
    _decline_offers(state)
    state.play(0, cards("Dr"))
    assert round_.out_order == [1, 3, 0]
    assert (state.decision, state.decision_seat) == (Decision.DRAGON, 0) and not state.in_window()


# -- strictness and the fallback ----------------------------------------------------------------


def test_a_decision_not_open_to_the_seat_is_refused_and_changes_nothing_R4_1() -> None:
    state = _state_at(playing_round(["Ma S3", "S4", "S5", "S6"]))
    _refused(state, Violation.NOT_YOUR_TURN, Action(ActionKind.PLAY, 0, cards("Ma")), "R4.1")  # offers first
    _refused(state, Violation.ACTION_NOT_ALLOWED, Action(ActionKind.DECLINE, 2), "R4.3")  # seat 0 is offered
    _decline_offers(state)
    _refused(state, Violation.NOT_YOUR_TURN, Action(ActionKind.PLAY, 1, cards("S4")), "R4.1")
    _refused(state, Violation.WISH_NOT_ALLOWED, Action(ActionKind.WISH, 0, 5), "R5.1")
    _refused(state, Violation.DRAGON_RECIPIENT, Action(ActionKind.DRAGON, 0, 1), "R4.5")


def test_the_fallback_declines_passes_or_plays_the_first_option() -> None:
    state = _state_at(playing_round(["Ma S3", "S4", "S5", "S6"]))
    assert state.fallback(0) == Action(ActionKind.DECLINE, 0)
    with pytest.raises(RuleViolation):
        state.fallback(2)
    _decline_offers(state)
    first = state.fallback(0)
    assert first.kind == ActionKind.PLAY and first.value == state.legal_plays()[0].cards  # no pass on a lead
    state.apply(first)


# -- copies and sampled worlds ----------------------------------------------------------------


def test_a_clone_goes_its_own_way() -> None:
    state = GameState(RuleSet(target_score=300), seed=4)
    state.deal()
    other = state.clone()
    for seat in range(4):
        state.decide_grand_tichu(seat, seat == 1)
    assert other.round is not None and other.round.phase == Phase.GRAND_TICHU
    assert other.open_decisions() == [(seat, Decision.GRAND_TICHU) for seat in range(4)]
    for seat in range(4):
        other.decide_grand_tichu(seat, seat == 1)
    assert other.round.hands == (state.round.hands if state.round else None)


def test_redeal_keeps_the_history_and_swaps_the_hidden_cards() -> None:
    round_ = playing_round(["Ma SK", "S2 B2 G2 R2", "", ""])
    state = _state_at(round_)
    _decline_offers(state)
    state.play(0, cards("SK"))
    hands = list(round_.hands)
    with pytest.raises(ValueError, match="size"):
        state.redeal([hands[1], hands[0], hands[2], hands[3]])  # 14 cards where 13 are
    with pytest.raises(ValueError, match="same cards"):
        state.redeal([hands[0], hands[1], hands[2], hands[3] & (hands[3] - 1) | cards("SK")])  # a played card
    swapped = [hands[0], hands[3], hands[2], hands[1]]
    other = state.redeal(swapped)
    assert other.round is not None and other.round.hands == swapped and round_.hands == hands
    assert other.round.events == round_.events
    assert (other.decision, other.decision_seat) == (state.decision, state.decision_seat)
    assert [play.cards for play in other.round.combinations(1)] != [play.cards for play in round_.combinations(1)]


# -- whole games ---------------------------------------------------------------------------------


def _random_action(state: GameState, rng: random.Random) -> Action:
    seat, kind = rng.choice(state.open_decisions())
    if kind == Decision.SCHUPF:
        round_ = state.round
        assert round_ is not None
        chosen = rng.sample([1 << index for index in range(56) if round_.hands[seat] >> index & 1], 3)
        return Action(ActionKind.SCHUPF, seat, tuple(chosen))
    actions = state.legal_actions(seat)
    if kind in (Decision.TICHU, Decision.GRAND_TICHU) and rng.random() < 0.9:
        return actions[0]
    return rng.choice(actions)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.booleans(), min_size=4, max_size=4),
       st.booleans(), st.booleans())
def test_random_games_follow_the_rules_to_their_end_R7(seed: int, prompted: list[bool], before_schupf: bool,
                                                       optional_wish: bool) -> None:
    """Whatever the open decisions are answered with (and whatever seats of their own accord
    call or bomb), every state names a decision with actions, every round's events replay
    through the rules, card points add up to 100 (R1.2, R7.2) and the game ends (R7.4)."""
    rng = random.Random(seed)
    rules = RuleSet(target_score=300, tichu_before_schupf=before_schupf, wish_optional=optional_wish)
    state = GameState(rules, seed=seed, prompted=prompted, keep_rounds=True)
    for _ in range(20_000):
        if state.is_over:
            break
        if state.is_chance:
            state.deal(planted_deal(rng))
            continue
        assert state.open_decisions() and all(state.legal_actions(seat) for seat, _ in state.open_decisions())
        state.apply(_random_action(state, rng))
        for seat in range(4):
            if state.round is None or state.is_chance or state.is_over or state.prompted[seat]:
                continue
            if state.can_call(seat) and rng.random() < 0.05:
                state.call(seat)
            bombs = [bomb for bomb in state.bombs_now(seat) if bomb.cards]
            round_ = state.round
            at_turn = round_.decision == Decision.PLAY and seat == round_.turn and not round_.trick_closed
            if bombs and not at_turn and rng.random() < 0.2:
                state.bomb(seat, rng.choice(bombs).cards)
    assert state.is_over, "the game ended (R7.4)"
    game = state.game
    assert game is not None and len(state.rounds) == len(game.results)
    for round_, result in zip(state.rounds, game.results):
        again = Round(round_.rules, deal=list(zip(round_.first_deal, round_.second_deal)))
        for seat in range(4):
            again.decide_grand_tichu(seat, round_.announcements[seat] == ANNOUNCE_GRAND)
        for seat in range(4):
            triple = round_.given[seat]
            assert triple is not None
            again.schupf(seat, triple)
        for event in round_.events:
            again.apply(event)
        assert again.is_over and again.result() == result
        if not result.double_victory:
            assert sum(result.card_points) == 100
    assert points_of(DECK) == 100


def test_redeal_during_grand_tichu_may_move_cards_between_hands_and_what_is_still_to_deal_R2_1() -> None:
    """A seat deciding on Grand Tichu sees its eight cards only: a world of its may hand the
    others any of the 48 other cards, now or in the six still to come."""
    state = GameState(RuleSet(), seed=9)
    state.deal()
    state.decide_grand_tichu(0, True)
    round_ = state.round
    assert round_ is not None
    hands, rest = list(round_.hands), list(round_.second_deal)
    low_rest, low_hand = rest[1] & -rest[1], hands[2] & -hands[2]  # swap a card of seat 2's eight and seat 1's six
    new_hands = [hands[0], hands[1], hands[2] ^ low_hand ^ low_rest, hands[3]]
    new_rest = [rest[0], rest[1] ^ low_rest ^ low_hand, rest[2], rest[3]]
    other = state.redeal(new_hands, new_rest)
    assert other.round is not None and other.round.hands == new_hands and other.round.second_deal == new_rest
    assert other.open_decisions() == state.open_decisions(), "seat 0's answer stays held back"
    with pytest.raises(ValueError, match="two places"):
        state.redeal(new_hands, [rest[0], rest[1], rest[2] | low_hand, rest[3] & (rest[3] - 1)])
    for seat in (1, 2, 3):
        other.decide_grand_tichu(seat, False)
    assert other.round.hands[1] == hands[1] | new_rest[1] and other.round.announcements[0] == ANNOUNCE_GRAND


def test_a_clone_carries_every_attribute_and_shares_no_list() -> None:
    """``GameState.clone`` names each attribute (a compiled class has no ``__dict__``): none is
    missed, and none of the lists is shared with the original."""
    from tests.core.helpers import state_names

    state = GameState(RuleSet(target_score=300), seed=6, prompted=(True, False, True, False), keep_rounds=True)
    rng = random.Random(6)
    for _ in range(400):  # into a game: a round finished, offers and a window under way
        if state.is_chance:
            state.deal()
        else:
            state.apply(_random_action(state, rng))
    other = state.clone()
    names = state_names(state)  # type: ignore[arg-type]
    assert {"decision", "_stage", "_window", "_may_call", "_pending", "rounds", "round"} <= set(names)
    for name in names:
        mine, theirs = getattr(state, name), getattr(other, name)
        if name in ("round", "game", "_booked"):
            continue
        assert mine == theirs, name
        if isinstance(mine, list):
            assert mine is not theirs, f"{name} is shared"
    assert other.round is not state.round and other.game is not state.game
    assert state.round is not None and other.round is not None and other.round.hands == state.round.hands
