"""What a seat knows about the hidden hands, from its public and private state only (R8).

:func:`knowledge_of` turns a seat's :class:`~tichu.core.views.PublicState` and
:class:`~tichu.core.views.PrivateState` into :class:`Knowledge`: the unseen cards and, for
every other seat, how many cards it holds, which cards it must hold (the cards this seat
pushed to it, unless played; the Mah Jong for the first leader while unplayed) and
which it cannot hold (the wished value after it passed up a chance to fulfil the wish,
R5.2). Sampling and probabilities (:mod:`tichu.agents.support.prob`) build on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tichu.core.cards import DOG, MAHJONG, VALUE_MASK
from tichu.core.combos import BOMB, SINGLE, Play
from tichu.core.frozen import by_fields
from tichu.core.seats import opponents, partner
from tichu.core.views import PrivateState, PublicState


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What is known about one seat's hand.

    :ivar count: Number of cards it holds.
    :ivar must: Cards it certainly holds.
    :ivar cannot: Unseen cards it certainly does not hold.
    """

    count: int
    must: int
    cannot: int

    def __reduce__(self) -> tuple[type[SeatFacts], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """A seat's knowledge of the hands.

    :ivar seat: The knowing seat.
    :ivar hand: Its own hand.
    :ivar unseen: Cards in the other hands (neither played nor its own).
    :ivar seats: :class:`SeatFacts` per seat; the own seat's ``must`` is its hand.
    """

    seat: int
    hand: int
    unseen: int
    seats: tuple[SeatFacts, ...]

    def __reduce__(self) -> tuple[type[Knowledge], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)

    def opponents(self) -> tuple[int, int]:
        """The two opponents' seats (R1.3)."""
        return opponents(self.seat)

    def partner(self) -> int:
        """The partner's seat."""
        return partner(self.seat)

    def free_for(self, seat: int) -> int:
        """Unseen cards that may be in ``seat``'s hand beyond its known ones."""
        taken = 0
        for other, facts in enumerate(self.seats):
            if other != seat:
                taken |= facts.must
        return self.unseen & ~taken & ~self.seats[seat].cannot & ~self.seats[seat].must


def knowledge_of(public: PublicState, private: PrivateState, extra_cannot: tuple[int, ...] = (0, 0, 0, 0)
                 ) -> Knowledge:
    """Collect what ``private.player_index`` knows about every hand.

    :param public: The seat's public state.
    :param private: The seat's private state.
    :param extra_cannot: (Optional) Per seat, cards it was earlier shown not to hold
        (an agent's memory of this round's deductions).
    """
    seat = private.player_index
    hand = private.hand_cards
    played = public.played_cards
    unseen = ((1 << 56) - 1) & ~played & ~hand
    must = [0, 0, 0, 0]
    must[seat] = hand
    if private.given_schupf_cards is not None and private.received_schupf_cards is not None:
        for offset, card in enumerate(private.given_schupf_cards, start=1):
            must[(seat + offset) % 4] |= card & unseen
    first_leader = _first_leader(public)
    if first_leader is not None and first_leader != seat and MAHJONG & unseen:
        must[first_leader] |= MAHJONG
    cannot = [extra & unseen for extra in extra_cannot]
    for other in wish_voids(public):
        cannot[other] |= VALUE_MASK[public.wish_value] & unseen
    cannot[seat] = 0
    seats = tuple(SeatFacts(public.count_hand_cards[other], must[other], cannot[other] & ~must[other])
                  for other in range(4))
    return Knowledge(seat, hand, unseen, seats)


def _first_leader(public: PublicState) -> int | None:
    """The seat that led the round's first trick (the Mah Jong's holder, R2.5), if still visible."""
    if any(public.tricks_won) or not public.trick_turns:
        return None
    return public.trick_turns[0][0]


def wish_voids(public: PublicState) -> set[int]:
    """Seats the open trick proves to hold no card of the open wish (R5.2).

    A seat that played on a single ranked below the wished value without a wished card
    (bombs aside: they may come out of turn), or passed on such a single, held none; so did
    a leader that led without one while the wish was open. Seats the Dog skipped did not pass.
    """
    if not public.wish_open or not public.trick_turns:
        return set()
    wish = public.wish_value
    wished = VALUE_MASK[wish]
    voids: set[int] = set()
    turns = public.trick_turns
    if not any(play.cards & MAHJONG for _, play in turns) and not turns[0][1].cards & wished:
        voids.add(turns[0][0])
    mahjong_at = next((index for index, (_, play) in enumerate(turns) if play.cards & MAHJONG), -1)
    for index in range(max(1, mahjong_at + 1), len(turns)):
        seat, play = turns[index]
        if _wish_forced(turns[index - 1][1], wish) and not play.cards & wished and play.kind != BOMB:
            voids.add(seat)  # a bomb may have come out of turn, where nothing is forced (R5.3)
    top = turns[-1][1]
    owner, turn = public.trick_owner_index, public.current_turn_index
    if top.cards != DOG and _wish_forced(top, wish) and owner is not None and turn is not None:
        seat = (owner + 1) % 4
        while seat != turn:
            if public.count_hand_cards[seat]:
                voids.add(seat)  # passed on the top single
            seat = (seat + 1) % 4
    return voids


def _wish_forced(play: Play, wish: int) -> bool:
    """Whether any card of the wished value would have been a legal single on ``play``."""
    return play.kind == SINGLE and play.rank < wish
