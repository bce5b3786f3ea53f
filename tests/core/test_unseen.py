"""Issue 36: which bombs a seat's unseen cards could still form (R3.7, R4.3) comes from the rules
core (``core/unseen.py``), not from the browser's card tracker; only the seat's hand and the
played cards go in (R8.1, R8.2)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tichu.core.cards import DECK, SUIT_MASK, VALUE_MASK, mask_of, parse_mask
from tichu.core.combos import bombs_of
from tichu.core.unseen import UnseenBombs, unseen_bombs, unseen_cards

ALL_VALUES = tuple(range(2, 15))
ALL_SUITS = (1, 2, 3, 4)


def test_at_the_start_every_bomb_the_own_hand_leaves_is_unseen() -> None:
    """R3.7: holding an Ace, the Phoenix and a 2 leaves no four Aces or 2s out; every suit still
    has five in a row unseen."""
    hand = mask_of([(14, 1), (16, 0), (2, 3)])
    assert unseen_bombs(unseen_cards(hand, 0)) == UnseenBombs(tuple(range(3, 14)), ALL_SUITS)


def test_played_cards_and_the_own_hand_both_count_as_seen() -> None:
    """R3.7, R8.1, R8.2: a 7 played and a 7 held leave no four 7s; an 8 untouched is still a bomb."""
    played = mask_of([(15, 0), (0, 0), (14, 2), (7, 1), (9, 3)])
    hand = mask_of([(1, 0), (14, 3), (7, 4)])
    bombs = unseen_bombs(unseen_cards(hand, played))
    assert bombs.four_of_a_kind == (2, 3, 4, 5, 6, 8, 10, 11, 12, 13)
    assert bombs.straight_flush == ALL_SUITS


def test_a_straight_flush_needs_five_unseen_in_a_row() -> None:
    """R3.7: Swords 6 played and Swords 10 held leave runs 2-5, 7-9, J-A: none of five; with the
    Swords Queen held instead, 7..J are five in a row."""
    assert unseen_bombs(unseen_cards(mask_of([(10, 1)]), mask_of([(6, 1)]))).straight_flush == (2, 3, 4)
    assert unseen_bombs(unseen_cards(mask_of([(12, 1)]), mask_of([(6, 1)]))).straight_flush == ALL_SUITS


def test_nothing_is_unseen_once_every_card_is_seen() -> None:
    """R3.7: with the whole deck seen, no bomb is left; the unseen cards are the rest of the deck."""
    hand = parse_mask("SA BA GA RA")
    assert unseen_bombs(unseen_cards(hand, DECK & ~hand)) == UnseenBombs((), ())
    assert unseen_cards(hand, 0) == DECK & ~hand


@st.composite
def seen_cards(draw: st.DrawFn) -> tuple[int, int]:
    """A seat's hand and the played cards: two disjoint random sets of the deck."""
    owner = draw(st.lists(st.sampled_from((0, 1, 2)), min_size=56, max_size=56))
    hand = sum(1 << index for index, who in enumerate(owner) if who == 1)
    played = sum(1 << index for index, who in enumerate(owner) if who == 2)
    return hand, played


@given(seen_cards())
def test_the_unseen_bombs_are_the_bombs_the_unseen_cards_hold(seen: tuple[int, int]) -> None:
    """R3.7: the values and suits listed are exactly those of the bombs the core finds
    (``bombs_of``) among the cards neither held nor played."""
    hand, played = seen
    bombs = bombs_of(DECK & ~(hand | played))
    fours = sorted(value for value in ALL_VALUES if any(bomb.cards == VALUE_MASK[value] for bomb in bombs))
    suits = sorted(suit for suit in ALL_SUITS
                   if any(bomb.length >= 5 and bomb.cards & SUIT_MASK[suit] for bomb in bombs))
    assert unseen_bombs(unseen_cards(hand, played)) == UnseenBombs(tuple(fours), tuple(suits))


@given(seen_cards(), st.integers(min_value=0, max_value=55))
def test_seeing_one_more_card_never_adds_a_bomb(seen: tuple[int, int], index: int) -> None:
    """R3.7, R8: a card played more takes bombs away or leaves them; the answer depends on the seen
    cards only, not on which of them the seat holds."""
    hand, played = seen
    before = unseen_bombs(unseen_cards(hand, played))
    after = unseen_bombs(unseen_cards(hand, played | (1 << index) & ~hand))
    assert set(after.four_of_a_kind) <= set(before.four_of_a_kind)
    assert set(after.straight_flush) <= set(before.straight_flush)
    assert unseen_bombs(unseen_cards(0, hand | played)) == before
