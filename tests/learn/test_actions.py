"""The action catalogue: fixed and complete (every combination of any hand has its action),
each allowed action stands for a play of its own shape, and the suits are chosen sensibly."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.extras import require

require("numpy", "learn")

from tichu.agents.learning import actions  # noqa: E402
from tichu.agents.learning.observation import Question  # noqa: E402
from tichu.core.cards import parse_mask  # noqa: E402
from tichu.core.combos import BOMB, PASS_PLAY, SINGLE, Play, combinations_of, legal_plays_from  # noqa: E402

hands = st.sets(st.integers(min_value=0, max_value=55), min_size=1, max_size=14).map(
    lambda indices: sum(1 << index for index in indices))


def test_the_catalogue_is_fixed_and_its_labels_are_unique() -> None:
    """737 actions in a documented layout (docs/learning.md); changing it breaks trained policies."""
    assert actions.SIZE == len(actions.CATALOGUE) == 737
    assert len(set(actions.CATALOGUE)) == actions.SIZE
    assert actions.CATALOGUE[actions.NO] == "no" and actions.CATALOGUE[actions.CALL] == "call"
    assert actions.CATALOGUE[actions.push_action(55)] == "push card 55"
    assert actions.CATALOGUE[actions.wish_action(0)] == "wish 0"
    assert actions.CATALOGUE[actions.wish_action(14)] == "wish 14"
    assert actions.CATALOGUE[actions.PLAY_BASE] == "single length 1 rank 0"
    assert actions.CATALOGUE[-1] == "bomb length 13 rank 14"


@settings(max_examples=300)
@given(hands)
def test_r3_every_combination_of_a_hand_has_an_action_of_its_own_shape(hand: int) -> None:
    for play in combinations_of(hand):
        action = actions.play_action(play)
        assert actions.PLAY_BASE <= action < actions.SIZE
        chosen = actions.plays_by_action([play], hand)[action]
        assert chosen is play


@settings(max_examples=300)
@given(hands, st.integers(min_value=0, max_value=3))
def test_r4_1_each_allowed_play_action_stands_for_a_legal_play_of_that_action(hand: int, pick: int) -> None:
    combos = combinations_of(hand)
    trick = None if pick == 0 or not combos else combos[pick * 7 % len(combos)]
    legal = legal_plays_from(combos, hand, trick)
    choice = actions.play_choice(legal, hand)
    assert choice.question == Question.PLAY
    assert set(choice.answers) == {actions.play_action(play) for play in legal}
    for action, play in choice.answers.items():
        assert play in legal and actions.play_action(play) == action
    assert int(choice.mask().sum()) == len(choice.answers)
    if PASS_PLAY in legal:
        assert choice.answers[actions.NO] is PASS_PLAY


def test_a_shape_is_laid_with_cards_that_break_no_bomb_where_possible() -> None:
    """A single six from a hand with the straight flush S2..S6 and another six: the six outside
    the bomb, though the bomb's six is the lower card; where every choice breaks the bomb (a
    pair of nines from four nines), the lowest cards."""
    hand = parse_mask("S2 S3 S4 S5 S6 B6")
    sixes = [play for play in combinations_of(hand) if play.length == 1 and play.rank == 6]
    assert len(sixes) == 2
    assert actions.choose_cards(sixes, hand).cards == parse_mask("B6")
    nines = parse_mask("S9 B9 G9 R9 S2")
    pairs = [play for play in combinations_of(nines) if play.length == 2]
    assert actions.choose_cards(pairs, nines).cards == min(play.cards for play in pairs)


def test_wish_dragon_and_push_actions_round_trip() -> None:
    for value in (0, *range(2, 15)):
        assert actions.wish_of(actions.wish_action(value)) == value
    for giver in range(4):
        for recipient in ((giver + 1) % 4, (giver + 3) % 4):
            assert actions.dragon_recipient(giver, actions.dragon_action(giver, recipient)) == recipient
    choice = actions.push_choice(parse_mask("S2 Ph Dr"), parse_mask("Dr"))
    assert sorted(choice.answers.values()) == sorted([parse_mask("S2"), parse_mask("Ph")])  # type: ignore[type-var]
    bombs = [Play(parse_mask("S9 B9 G9 R9"), BOMB, 4, 9)]
    assert actions.bomb_choice(bombs, parse_mask("S9 B9 G9 R9")).answers == {
        actions.NO: None, actions.play_action(bombs[0]): bombs[0]}


def test_the_pass_has_no_shape() -> None:
    assert actions.play_action(PASS_PLAY) == actions.NO
    try:
        actions.shape_of(PASS_PLAY)
    except ValueError:
        return
    raise AssertionError("the pass has a shape")


def test_random_hands_of_fourteen_keep_within_the_catalogue() -> None:
    rng = random.Random(4)
    for _ in range(500):
        hand = sum(1 << index for index in rng.sample(range(56), 14))
        for play in combinations_of(hand):
            assert actions.play_action(play) < actions.SIZE


def test_the_cache_of_play_actions_is_bounded() -> None:
    """``play_action`` remembers at most :data:`~tichu.agents.learning.actions.PLAY_ACTION_CACHE`
    plays (an environment maps every legal play at every step)."""
    single = actions.play_action(Play(1 << 5, SINGLE, 1, 3))
    for rank in range(actions.PLAY_ACTION_CACHE + 100):  # more distinct plays than it keeps
        assert actions.play_action(Play(1 << 5, SINGLE, 1, rank)) == single
    info = actions.play_action.cache_info()
    assert info.maxsize == actions.PLAY_ACTION_CACHE and info.currsize == actions.PLAY_ACTION_CACHE
