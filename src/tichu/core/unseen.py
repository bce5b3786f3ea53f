"""Which bombs the cards a seat has not seen could still form (R3.7, R4.3, R8.2).

A seat sees its own hand and every card played (R8.1, R8.2); every other card is *unseen*: in
another hand, or not dealt yet. Whether those cards can still hold a bomb, which may fall on
any trick at any time (R4.3), is a fact of the rules that the clients show (the browser's
card tracker) and do not work out themselves: the server sends it in the seat's private state.
Only the seat's hand and the played cards go in, so the answer tells no more than the seat
may know (R8). A seat's view carries the unseen cards as one mask (:func:`unseen_cards`, cheap:
a view is made for every decision of an agent that reads the table); the bombs are listed
from it only where a client is told them (:func:`unseen_bombs`, at the server's edge).
"""

from __future__ import annotations

from typing import NamedTuple

from tichu.core.cards import DECK, SPECIALS, SUIT_MASK, VALUE_MASK

#: The natural values 2..Ace (R1.1).
_VALUES = range(2, 15)
#: The four suits (R1.1).
_SUITS = range(1, 5)
#: The fewest cards of a straight-flush bomb (R3.7).
_MIN_STRAIGHT_FLUSH = 5


class UnseenBombs(NamedTuple):
    """The bombs a seat's unseen cards could still form (R3.7).

    :ivar four_of_a_kind: The values 2..14 whose four cards are all unseen, ascending.
    :ivar straight_flush: The suits 1..4 with five or more unseen cards of consecutive values,
        ascending.
    """

    four_of_a_kind: tuple[int, ...]
    straight_flush: tuple[int, ...]


def unseen_cards(hand: int, played: int) -> int:
    """The cards a seat has not seen: neither in its hand nor played (R8.1, R8.2).

    :param hand: The seat's hand (mask).
    :param played: Every card played this round (mask).
    :returns: The mask of the other cards (those the seat pushed included: they are in other hands).
    """
    return DECK & ~(hand | played)


def unseen_bombs(unseen: int) -> UnseenBombs:
    """The bombs the cards a seat has not seen could still form (R3.7): which values have all
    four cards unseen, and in which suits five unseen cards follow each other.

    :param unseen: The cards the seat has not seen (mask, :func:`unseen_cards`).
    :returns: The values and suits, each ascending.
    """
    unseen &= ~SPECIALS  # the Phoenix is never part of a bomb (R3.6)
    fours = tuple(value for value in _VALUES if unseen & VALUE_MASK[value] == VALUE_MASK[value])
    return UnseenBombs(fours, tuple(suit for suit in _SUITS if _has_run(unseen & SUIT_MASK[suit])))


def _has_run(suited: int) -> bool:
    """Whether the cards of one suit hold five of consecutive values (R3.7). One suit's cards sit
    four bits apart (core/cards.py), so a card and the next value's of its suit differ by ``<< 4``."""
    run = suited
    for _ in range(_MIN_STRAIGHT_FLUSH - 1):
        run &= run >> 4
    return run != 0
