"""Issue 36: applying an action returns what it caused, as typed outcomes (core/outcomes.py),
and the outcomes account for everything that happened in a game (rules.md R4.2, R4.5, R5.4,
R7.1, R7.3, R7.4)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.helpers import cards
from tichu.core.cards import points_of
from tichu.core.combos import Play, classify_mask
from tichu.core.flow import GameState
from tichu.core.outcomes import (
    TURN_TO,
    GameEnded,
    Outcome,
    PlayerOut,
    RoundEnded,
    TrickTaken,
    TurnChanged,
    WishFulfilled,
    WishMade,
)
from tichu.core.round import ActionKind, Decision, Round
from tichu.core.ruleset import RuleSet


def _play(labels: str) -> Play:
    mask = cards(labels)
    combination = classify_mask(mask)
    assert combination is not None
    return Play(mask, *combination)


def _endgame(hands: Sequence[str], *, turn: int, trick: Sequence[tuple[int, str]] = (), wish: int = 0,
             out: Sequence[int] = ()) -> GameState:
    """A one-round state in play from a small position, every offer of its moment made."""
    turns = [(seat, _play(labels)) for seat, labels in trick]
    round_ = Round.resume(RuleSet(), [cards(hand) for hand in hands], turn=turn, announcements=[0, 0, 0, 0],
                          trick_turns=turns, trick_owner=turns[-1][0] if turns else None, wish_value=wish,
                          wish_open=wish != 0, won_points=[0, 0, 0, 0], out_order=list(out), played=0)
    return GameState.within(round_)


def test_a_play_that_only_passes_the_turn_causes_a_shared_outcome_R4_1() -> None:
    """Issue 36: the rollouts' hot path allocates nothing for a plain play: its outcome is the
    next seat's turn, one shared tuple per seat."""
    state = _endgame(["SK S3", "S5 B5", "S6 B6", "S7 B7"], turn=0)
    caused = state.apply_play(_play("SK"))
    assert caused == (TurnChanged(1),) and caused is TURN_TO[1]


def test_the_last_pass_takes_the_trick_nobody_can_bomb_R4_2() -> None:
    state = _endgame(["SK S3", "S5 B5", "S6 B6", "S7 B7"], turn=0)
    state.play(0, cards("SK"))
    assert state.play(1, 0) == (TurnChanged(2),)
    assert state.play(2, 0) == (TurnChanged(3),)
    assert state.play(3, 0) == (TurnChanged(0), TrickTaken(0, 10, None), TurnChanged(0))


def test_the_last_card_puts_the_seat_out_in_its_place_R7_1() -> None:
    state = _endgame(["S3", "S5 B5", "S6 B6", "S7 B7"], turn=0)
    assert state.play(0, cards("S3")) == (PlayerOut(0, 1), TurnChanged(1))


def test_a_play_with_the_wished_value_fulfils_the_wish_R5_4() -> None:
    state = _endgame(["S3 G3", "S5 B9", "S6 B6", "S7 B7"], turn=1, trick=[(0, "Ma")], wish=5)
    assert state.play(1, cards("S5")) == (WishFulfilled(), TurnChanged(2))


def test_the_mah_jong_wish_is_told_with_the_next_seat_at_turn_R5_1() -> None:
    state = _endgame(["Ma G3", "S5 B9", "S6 B6", "S7 B7"], turn=0)
    assert state.play(0, cards("Ma")) == ()
    assert state.decision == Decision.WISH
    assert state.wish(0, 9) == (WishMade(9), TurnChanged(1))


def test_the_dragons_trick_given_away_names_its_recipient_R4_5() -> None:
    state = _endgame(["Dr S3", "S5 B5", "S6 B6", "S7 B7"], turn=0)
    state.play(0, cards("Dr"))
    for seat in (1, 2, 3):
        state.play(seat, 0)
    assert state.decision == Decision.DRAGON
    assert state.give_dragon(0, 3) == (TrickTaken(0, 25, 3), TurnChanged(0))


def test_the_third_seat_out_ends_the_round_with_its_result_R7_3() -> None:
    state = _endgame(["", "", "S6", "S7 B7"], turn=2, out=[0, 1])
    round_ = state.round
    assert round_ is not None
    caused = state.play(2, cards("S6"))
    assert caused == (PlayerOut(2, 3), TrickTaken(2, 0, None), RoundEnded(round_.result()))


def _random_game(seed: int, prompted: Sequence[bool]) -> tuple[GameState, list[list[Outcome]]]:
    """A whole game of random legal actions through :meth:`GameState.apply`; the outcomes per
    round. No seat calls: random calls lose more than they win, and the game would not end."""
    rng = random.Random(seed)
    state = GameState(RuleSet(target_score=300), seed=seed, prompted=prompted, keep_rounds=True)
    per_round: list[list[Outcome]] = []
    while not state.is_over:
        if state.is_chance:
            per_round.append(list(state.deal()))
            continue
        seat, _ = state.open_decisions()[0]
        actions = [action for action in state.legal_actions(seat)
                   if action.kind != ActionKind.TICHU and action.value is not True]
        per_round[-1] += state.apply(rng.choice(actions))
    return state, per_round


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([(True, True, True, True), (True, False, True, False),
                                               (False, False, False, False)]))
def test_the_outcomes_account_for_every_trick_every_seat_out_and_every_result(
        seed: int, prompted: tuple[bool, bool, bool, bool]) -> None:
    """Issue 36: played through ``GameState.apply``, a game's outcomes name every trick taken
    and the points it carried to whom (R4.2, R4.5), every seat out in its place (R7.1), every
    wish fulfilled at most once (R5.4), each round's result (R7.3) and the game's end (R7.4), as
    the rounds' final states have them."""
    state, per_round = _random_game(seed, prompted)
    game = state.game
    assert game is not None and len(per_round) == len(state.rounds) == len(game.results)
    for round_, caused in zip(state.rounds, per_round, strict=True):
        taken = [outcome for outcome in caused if isinstance(outcome, TrickTaken)]
        assert len(taken) == sum(round_.tricks_won)
        won = [0, 0, 0, 0]
        for trick in taken:
            receiver = trick.winner if trick.dragon_recipient is None else trick.dragon_recipient
            assert receiver is not None
            won[receiver] += trick.points
        assert won == [points_of(mask) for mask in round_.won]
        outs = [outcome for outcome in caused if isinstance(outcome, PlayerOut)]
        assert [out.seat for out in outs] == round_.out_order[:len(outs)]
        assert [out.place for out in outs] == list(range(1, len(outs) + 1))
        wishes = [outcome for outcome in caused if isinstance(outcome, WishMade) and outcome.value]
        assert sum(isinstance(outcome, WishFulfilled) for outcome in caused) <= len(wishes)
        ended = [outcome for outcome in caused if isinstance(outcome, RoundEnded)]
        assert ended == [RoundEnded(round_.result())]
    ends = [outcome for caused in per_round for outcome in caused if isinstance(outcome, GameEnded)]
    assert ends == [GameEnded((game.total[0], game.total[1]), game.winner)]
    assert isinstance(per_round[-1][-1], GameEnded)
