"""The compact facts a policy decides from, read from a seat's view or from a simulated round.

A real agent builds its :class:`Situation` from its :class:`~tichu.core.views.SeatView`
(public and private state only, R8); a search agent's rollouts build one from the
:class:`~tichu.core.round.Round` of a sampled deal, where every hand is the sampler's
guess. Either way a policy sees the same few fields.
"""

from __future__ import annotations

from typing import NamedTuple

from tichu.core.cards import DECK, DOG, points_of
from tichu.core.combos import Play
from tichu.core.round import Round
from tichu.core.seats import is_opponent, partner
from tichu.core.views import PrivateState, PublicState


class Situation(NamedTuple):
    """What a seat knows when it decides.

    :ivar seat: The deciding seat.
    :ivar hand: Its hand.
    :ivar trick: The combination to beat, ``None`` on a lead.
    :ivar trick_owner: Who played it (``None`` on a lead).
    :ivar trick_points: Card points lying in the open trick.
    :ivar wish: The open wish (0 if none).
    :ivar counts: Cards in hand per seat.
    :ivar calls: Per seat 0, 1 Tichu, 2 Grand Tichu.
    :ivar played: Every card played this round.
    """

    seat: int
    hand: int
    trick: Play | None
    trick_owner: int | None
    trick_points: int
    wish: int
    counts: tuple[int, ...]
    calls: tuple[int, ...]
    played: int

    @property
    def unseen(self) -> int:
        """The cards this seat has not seen: neither played nor in its hand (the others'
        hands between them, R8.1)."""
        return DECK & ~self.played & ~self.hand

    @property
    def partner(self) -> int:
        """The partner's seat."""
        return partner(self.seat)

    def is_opponent(self, seat: int | None) -> bool:
        """Whether ``seat`` plays for the other team."""
        return seat is not None and is_opponent(self.seat, seat)


def situation_of(public: PublicState, private: PrivateState) -> Situation:
    """The situation of ``private.player_index`` from its states (R8)."""
    trick: Play | None = None
    owner = None
    if public.trick_turns:
        top = public.trick_turns[-1][1]
        if top.cards and top.kind and public.trick_owner_index is not None and top.cards != DOG:
            trick, owner = top, public.trick_owner_index
    return Situation(private.player_index, private.hand_cards, trick, owner, public.trick_points,
                     public.wish_value if public.wish_open else 0, public.count_hand_cards,
                     public.announcements, public.played_cards)


#: Builds a :class:`Situation` from its fields without the named tuple's Python-level
#: ``__new__``: rollouts make one for every play.
_new_situation = tuple.__new__


def situation_in(round_: Round, seat: int) -> Situation:
    """The situation of ``seat`` in a (simulated) round, read directly (a rollout's hot path:
    no generator, no keyword construction)."""
    hands = round_.hands
    if round_.trick is None or round_.trick_closed:
        trick = owner = None
    else:
        trick, owner = round_.trick, round_.trick_owner
    return _new_situation(Situation, (
        seat, hands[seat], trick, owner, points_of(round_.trick_cards),
        round_.wish_value if round_.wish_open else 0,
        (hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count(), hands[3].bit_count()),
        tuple(round_.announcements), round_.played))

