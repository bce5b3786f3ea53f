"""A client's answers to the seat's requests, checked (the client is never trusted): each turns
a ``response``'s data into the engine's answer, or raises :class:`ProtocolError` (and the request
stays open). Their values are decoded for the request's action
(:data:`~tichu.server.wire.incoming.ANSWERS`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tichu.core.combos import PASS_PLAY, Play
from tichu.core.errors import RuleViolation
from tichu.core.round import find_legal_play
from tichu.core.views import SeatView
from tichu.server.codes import ErrorCode
from tichu.server.wire.incoming import (
    DragonAnswer,
    GrandTichuAnswer,
    JsonObject,
    PlayAnswer,
    SchupfAnswer,
    WishAnswer,
    decode,
)
from tichu.server.wire.protocol import ProtocolError, cards_from_json


def check_grand_tichu(data: JsonObject) -> bool:
    """Whether the seat calls Grand Tichu (R6.2)."""
    return decode(GrandTichuAnswer, data).announced


def check_schupf(data: JsonObject, hand: int) -> tuple[int, int, int]:
    """The three cards pushed (to the right, the partner, the left), three of ``hand`` (R2.3)."""
    given = decode(SchupfAnswer, data).given_schupf_cards
    if len(given) != 3:
        raise ProtocolError(ErrorCode.INVALID_ACTION, "give exactly three cards: to right, partner, left")
    cards = [cards_from_json([card], limit=1) for card in given]
    if (cards[0] | cards[1] | cards[2]).bit_count() != 3:
        raise ProtocolError(ErrorCode.NOT_UNIQUE_CARDS, "the three cards must differ", cards=given)
    if (cards[0] | cards[1] | cards[2]) & ~hand:
        raise ProtocolError(ErrorCode.NOT_HAND_CARD, cards=given)
    return cards[0], cards[1], cards[2]


def check_play(data: JsonObject, view: SeatView, legal: Sequence[Play]) -> Play:
    """The play among ``legal`` that the cards make (a pass for none; R4, R5)."""
    cards = decode(PlayAnswer, data).cards
    mask = cards_from_json(cards)
    if not mask:
        if PASS_PLAY in legal:
            return PASS_PLAY
        raise ProtocolError(ErrorCode.INVALID_ACTION, "you cannot pass now (a lead, or the wish must be fulfilled)")
    try:
        return find_legal_play(mask, view.hand, legal, is_lead=view.trick is None, wish=view.wish)
    except RuleViolation as error:
        raise ProtocolError.from_violation(error, cards=cards) from error


def check_wish(data: JsonObject, choices: Sequence[int]) -> int:
    """The wish, one of the ``choices`` the request listed (R5.1)."""
    return _check_choice(decode(WishAnswer, data).wish_value, "wish_value", choices, ErrorCode.INVALID_WISH)


def check_dragon(data: JsonObject, recipients: Sequence[int]) -> int:
    """The Dragon's recipient, one of the opponents the request listed (R4.5)."""
    return _check_choice(decode(DragonAnswer, data).dragon_recipient, "dragon_recipient", recipients,
                         ErrorCode.INVALID_DRAGON_RECIPIENT)


def _check_choice(value: int, key: str, choices: Sequence[int], code: ErrorCode) -> int:
    if value not in choices:
        raise ProtocolError(code, f"{key} must be one of {list(choices)}", **{key: value})
    return value
