"""The observation vector of learning agents: what one seat knows (R8), as fixed-size numbers.

It is built from a :class:`~tichu.core.views.SeatView` only, the seat's frozen snapshot with
its public and private state, so it can hold nothing the seat may not see. Seats are
relative: 0 is the seat itself, 1 the next seat, 2 the partner, 3 the seat before. Layout
(:data:`SIZE` numbers, each in ``[-2, 2]``; docs/learning.md):

====================  ==========================================================
``0 .. 55``           own hand (1 per card, records.md index order)
``56 .. 111``         cards chosen so far in this push (R2.3)
``112 .. 167``        cards played so far this round, by anyone
``168 .. 223``        the combination to beat (none on a lead)
``224 .. 231``        its type, one-hot (0 none .. 7 bomb)
``232``, ``233``      its length / 14, its rank / 16
``234 .. 237``        who played it (relative seat), one-hot
``238 .. 241``        cards in each hand / 14
``242 .. 249``        per seat: called Tichu, called Grand Tichu
``250 .. 253``        per seat: out of the round
``254 .. 268``        the open wish, one-hot over 0 (none) and 2 .. 14
``269 .. 276``        the question, one-hot (:class:`Question`)
``277``               points in the open trick / 100
``278 .. 281``        card points each seat has taken / 100
``282``, ``283``      the game's score of own team and of the other / 1000 (clipped)
``284 .. 451``        the cards this seat pushed to seat 1, 2 and 3 (56 each, R2.3)
``452 .. 619``        the cards it received from seat 1, 2 and 3 (56 each)
====================  ==========================================================
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
import numpy.typing as npt

from tichu.core.round import ANNOUNCE_GRAND, ANNOUNCE_TICHU
from tichu.core.seats import team_of
from tichu.core.views import SeatView

SIZE = 620


class Question(IntEnum):
    """What a seat is asked (one-hot in the observation); ``NONE`` for a seat not asked."""

    NONE = 0
    GRAND_TICHU = 1
    PUSH = 2
    PLAY = 3
    TICHU = 4
    BOMB = 5
    WISH = 6
    DRAGON = 7


def _card_rows(masks: tuple[int, ...]) -> npt.NDArray[np.float32]:
    """Card masks as consecutive rows of 56 numbers (1 per card held, records.md index order),
    all of them in one step of numpy (an observation is made at every step of an environment)."""
    rows = 0
    for row, mask in enumerate(masks):
        rows |= mask << 56 * row
    raw = rows.to_bytes(7 * len(masks), "little")
    return np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little").astype(np.float32)


def observe(view: SeatView, question: Question = Question.NONE, pushed: int = 0) -> npt.NDArray[np.float32]:
    """The observation of a seat's view.

    :param view: A view made with the table (public and private state).
    :param question: What the seat is asked now.
    :param pushed: The cards chosen so far in this push.
    :returns: :data:`SIZE` float32 numbers.
    """
    public = view.public_state()
    seat = view.seat
    order = [(seat + offset) % 4 for offset in range(4)]
    vector = np.zeros(SIZE, dtype=np.float32)
    trick = view.trick
    vector[0:224] = _card_rows((view.hand, pushed, public.played_cards, trick.cards if trick is not None else 0))
    if trick is not None:
        vector[224 + trick.kind] = 1.0
        vector[232] = trick.length / 14
        vector[233] = trick.rank / 16
        if view.trick_owner is not None:
            vector[234 + order.index(view.trick_owner)] = 1.0
    else:
        vector[224] = 1.0
    for relative, other in enumerate(order):
        vector[238 + relative] = public.count_hand_cards[other] / 14
        vector[242 + 2 * relative] = float(public.announcements[other] == ANNOUNCE_TICHU)
        vector[243 + 2 * relative] = float(public.announcements[other] == ANNOUNCE_GRAND)
        vector[250 + relative] = float(other in public.out_order)
        vector[278 + relative] = public.points[other] / 100
    vector[254 + (public.wish_value if public.wish_open else 0)] = 1.0
    vector[269 + question] = 1.0
    vector[277] = public.trick_points / 100
    team = team_of(seat)
    vector[282] = min(2.0, max(-2.0, public.total[team] / 1000))
    vector[283] = min(2.0, max(-2.0, public.total[1 - team] / 1000))
    private = view.private_state()
    given, received = private.given_schupf_cards, private.received_schupf_cards
    if given is not None or received is not None:  # to (from) the right opponent, the partner, the left
        vector[284:620] = _card_rows((given or (0, 0, 0)) + (received or (0, 0, 0)))
    return vector
