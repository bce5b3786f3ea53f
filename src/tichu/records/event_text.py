"""A round's record events as JSON text, fast (records.md; Issue 36): the Arena writes every
event of every game, and an event as text costs less than the object the JSON encoder would
write. One of the modules the optional accelerator compiles (:mod:`tichu.accelerator`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache

from tichu.core.cards import format_mask
from tichu.core.round import Action, ActionKind

#: Plays' labels remembered (most plays are small sets that come again and again).
LABEL_CACHE = 8192
#: A play's labels (:func:`~tichu.core.cards.format_mask`), remembered.
play_labels = lru_cache(maxsize=LABEL_CACHE)(format_mask)

#: Plays' texts remembered, by card mask and seat.
PLAY_TEXT_CACHE = 16384


def _play_text(key: int) -> str:
    """The text of a play event; ``key`` is the card mask shifted left by 2, or'ed with the seat."""
    return '{"seat":' + str(key & 3) + ',"play":"' + play_labels(key >> 2) + '"}'


#: :func:`_play_text`, remembered (a key of one ``int`` costs the least to look up).
play_text = lru_cache(maxsize=PLAY_TEXT_CACHE)(_play_text)

#: Each seat's pass as the record's text, over half of a round's events.
_PASS_TEXTS = tuple(json.dumps({"seat": seat, "pass": True}, separators=(",", ":")) for seat in range(4))


def events_text(events: Iterable[Action]) -> str:
    """A round's events as the JSON text of their list, the brackets left out (the same text the
    JSON encoder writes of :func:`~tichu.records.record.event_json`'s objects).

    A pass is one of four texts and a play its seat and its cards' labels put into one text
    (remembered); the rare events (a call, a bomb, a wish, a Dragon gift) are put together
    here too, without the JSON encoder: the labels are letters, digits and spaces, which JSON
    writes as they are.

    :param events: The round's events (:attr:`~tichu.core.round.Round.events`).
    :raises ValueError: For an action that is no record event (a deal, a push, a decline).
    """
    found: list[str] = []
    passing, playing = ActionKind.PASS, ActionKind.PLAY
    passes = _PASS_TEXTS
    for action in events:
        kind, seat, value = action
        if kind is passing:
            found.append(passes[seat])
        elif kind is playing and isinstance(value, int):
            found.append(play_text(value << 2 | seat))
        else:
            found.append(_rare_text(action))
    return ",".join(found)


def _rare_text(action: Action) -> str:
    """The text of an event that is neither a pass nor a play (records.md's event objects)."""
    kind, seat = action.kind, action.seat
    if kind == ActionKind.TICHU:
        return '{"seat":' + str(seat) + ',"tichu":true}'
    if kind == ActionKind.BOMB:
        return '{"seat":' + str(seat) + ',"bomb":"' + format_mask(action.number()) + '"}'
    if kind == ActionKind.WISH:
        return '{"seat":' + str(seat) + ',"wish":' + str(action.number()) + "}"
    if kind == ActionKind.DRAGON:
        return '{"seat":' + str(seat) + ',"dragon_to":' + str(action.number()) + "}"
    if kind == ActionKind.PLAY:
        return '{"seat":' + str(seat) + ',"play":"' + play_labels(action.number()) + '"}'
    raise ValueError(f"{kind!r} is no record event")
