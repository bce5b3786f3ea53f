"""Worlds a seat cannot tell from the real game (R8): a seat's view, the decision it faces and a
guess of what it cannot see, made into a :class:`~tichu.core.flow.GameState` of one round.

A search (the expert, the game analysis, OpenSpiel's resampling) draws what is hidden from a
seat: the other hands, at Grand Tichu also the four sets of six cards still to be dealt, and
the answers of the seats that decide at once and answered before it (:class:`Hidden`).
:func:`world_of` puts that together with the seat's :class:`~tichu.core.views.SeatView` into
a state at exactly the seat's decision: the same decision and seat, the same legal actions,
and the same view of the round for the seat (:func:`~tichu.core.views.view_of`). Every rule of
where the round stands (who is at turn, whether the trick is closed, a pending wish or Dragon
gift, the passes since the last play) is derived here from public facts, and where the offers
of the moment stand is the flow's own order (:meth:`~tichu.core.flow.GameState.at_offer`):
nothing above the core rebuilds a round by hand.

Cards won in tricks are known to the seat only as points (R8.1), so a world keeps them as
carried points (:attr:`~tichu.core.round.Round.carried_points`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from tichu.core.cards import DECK, DOG, DRAGON, indices_of, mask_of_indices
from tichu.core.flow import GameState
from tichu.core.round import Decision, Round
from tichu.core.views import SeatView, TablePhase

#: A pending answer of a seat deciding at once: a Grand Tichu call (``bool``), a push (its
#: three single-card masks, to right, partner, left) or ``None`` (not answered yet).
Answer = bool | tuple[int, int, int] | None


class Hidden(NamedTuple):
    """What a seat cannot see, as a sampler draws it (R8).

    :ivar hands: The four hands now, the seat's own included (at Grand Tichu the first eight).
    :ivar rest: At Grand Tichu (R2.1): the four sets of six cards still to be dealt; else ``None``.
    :ivar pending: At Grand Tichu and the push (R2.1, R2.3): per seat its answer given before the
        seat's own (``None`` for none); the seats before the deciding one must have answered.
    :ivar given: (Optional) In play: per seat the three cards it pushed (to right, partner, left);
        the seat knows only its own and the ones it received, the rest are empty masks if omitted.
    """

    hands: Sequence[int]
    rest: Sequence[int] | None = None
    pending: Sequence[Answer] | None = None
    given: Sequence[tuple[int, int, int]] | None = None


def world_of(view: SeatView, decision: Decision, hidden: Hidden) -> GameState:
    """A one-round state at ``view.seat``'s ``decision`` with the hidden part ``hidden``.

    The state's decision and seat are ``decision`` and ``view.seat``, its legal actions for the
    seat are the real state's, and the seat's view of its round equals ``view`` (R8). Every seat
    is offered calls and bombs, as agents are (:data:`~tichu.core.flow.ALL_PROMPTED`).

    :param view: The seat's view, made with the table (its public and private state).
    :param decision: The decision the seat faces: ``GRAND_TICHU``, ``SCHUPF``, ``TICHU``,
        ``BOMB``, ``PLAY``, ``WISH`` or ``DRAGON``.
    :param hidden: The hidden part.
    :raises ValueError: If ``hidden`` does not agree with the view (the seat's own cards, the
        hand sizes, the cards not yet seen), or the round so built is not at that decision of
        that seat.
    """
    public = view.public_state()
    seat = view.seat
    hands = list(hidden.hands)
    if len(hands) != 4 or hands[seat] != view.hand:
        raise ValueError("four hands, the seat's own as it sees it")
    counts = public.count_hand_cards
    if hands[0].bit_count() != counts[0] or hands[1].bit_count() != counts[1] \
            or hands[2].bit_count() != counts[2] or hands[3].bit_count() != counts[3]:
        raise ValueError("each hand has the size the seat sees")
    if decision == Decision.GRAND_TICHU:
        round_ = _dealt(view, hands, hidden.rest)
    elif decision == Decision.SCHUPF or public.phase == TablePhase.SCHUPF:
        round_ = _pushing(view, hands)
    else:
        round_ = _in_play(view, decision, hands, hidden.given)
    return GameState.at_offer(round_, decision, seat, hidden.pending)


def _disjoint(masks: Sequence[int]) -> int:
    """The union of ``masks``, which must not share a card."""
    union = 0
    for mask in masks:
        if union & mask:
            raise ValueError("a card in two places")
        union |= mask
    return union


def _dealt(view: SeatView, hands: list[int], rest: Sequence[int] | None) -> Round:
    """The round while Grand Tichu is decided (R2.1): the first eight cards dealt, the six to come."""
    if rest is None or len(rest) != 4 or any(part.bit_count() != 6 for part in rest):
        raise ValueError("at Grand Tichu, four sets of six cards still to deal")
    if _disjoint([*hands, *rest]) != DECK:
        raise ValueError("the hands and the cards still to deal hold the 56 cards")
    return Round(view.rules, deal=[(hands[seat], rest[seat]) for seat in range(4)])


def _pushing(view: SeatView, hands: list[int]) -> Round:
    """The round at the push (R2.3): fourteen cards each, the Grand Tichu calls known, and
    the Tichu calls made before the push (``tichu_before_schupf``)."""
    if _disjoint(hands) != DECK:
        raise ValueError("the hands hold the 56 cards")
    deal = []
    for hand in hands:
        cards = indices_of(hand)
        deal.append((mask_of_indices(cards[:8]), mask_of_indices(cards[8:])))
    round_ = Round(view.rules, deal=deal)
    calls = view.public_state().announcements
    for seat in range(4):
        round_.decide_grand_tichu(seat, calls[seat] == 2)
    for seat in range(4):
        if calls[seat] == 1:
            round_.announce(seat)
    return round_


def _in_play(view: SeatView, decision: Decision, hands: list[int],
             given: Sequence[tuple[int, int, int]] | None) -> Round:
    """The round in play: its public facts, the hands, and what the decision says of the moment
    (a Mah Jong waiting for its wish, R5.1; a Dragon's trick waiting for its gift, R4.5)."""
    public, private = view.public_state(), view.private_state()
    held, played = _disjoint(hands), public.played_cards
    if held | played != DECK or held & played:
        raise ValueError("the hands hold the cards not played")
    turns = public.trick_turns
    owner = public.trick_owner_index
    tops = [play for _, play in turns if play.cards != DOG]
    closed = bool(tops) and view.trick is None  # a seat's view shows no trick to beat once all passed (R4.2)
    dragon = closed and tops[-1].cards == DRAGON
    wish = decision == Decision.WISH
    turn = public.current_turn_index
    if turn is None:
        raise ValueError("nobody decides in this round")
    if dragon or (closed and owner is not None and not hands[owner]):
        assert owner is not None
        turn = _after(hands, owner) if not hands[owner] else owner  # R4.2: the next seat with cards leads
    round_ = Round.resume(view.rules, hands, turn=turn, announcements=public.announcements, trick_turns=turns,
                          trick_owner=owner, wish_value=public.wish_value, wish_open=public.wish_open,
                          won_points=public.points, out_order=public.out_order, played=public.played_cards)
    round_.tricks_won = list(public.tricks_won)
    round_.given = _pushes(view.seat, private.given_schupf_cards, private.received_schupf_cards, given)
    if closed:
        round_.trick_closed = True
        round_._passes = sum(1 for seat in range(4) if seat != owner and hands[seat])
        round_._dragon_pending = dragon
        if dragon and len(public.out_order) >= 3:
            round_.turn = None  # R7.2: the round ends with the gift
    elif wish:
        round_.trick_closed = False  # the Mah Jong's player is still at turn: its trick is open
        round_._passes = 0
        round_._wish_pending = True
    return round_


def _after(hands: list[int], seat: int) -> int:
    """The next seat after ``seat`` that holds cards."""
    for offset in (1, 2, 3):
        if hands[(seat + offset) % 4]:
            return (seat + offset) % 4
    raise ValueError("no other seat holds cards")


def _pushes(seat: int, own: tuple[int, int, int] | None, received: tuple[int, int, int] | None,
            given: Sequence[tuple[int, int, int]] | None) -> list[tuple[int, int, int] | None]:
    """Every seat's push (R2.3): ``given`` if known, else the seat's own and, of the others, the
    cards the seat received from them (the rest is hidden from it: empty masks)."""
    if own is None or received is None:
        raise ValueError("in play every seat has pushed")
    if given is not None:
        if len(given) != 4 or given[seat] != own:
            raise ValueError("the pushes agree with the seat's own")
        pushes: list[tuple[int, int, int] | None] = list(given)
        return pushes
    pushes = [None, None, None, None]
    pushes[seat] = own
    for offset in (1, 2, 3):
        triple = [0, 0, 0]
        triple[3 - offset] = received[offset - 1]  # the giver's card to this seat
        pushes[(seat + offset) % 4] = (triple[0], triple[1], triple[2])
    return pushes


__all__ = ["Answer", "Hidden", "world_of"]
