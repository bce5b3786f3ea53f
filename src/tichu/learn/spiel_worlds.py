"""Worlds a seat cannot tell apart (R8): the hidden cards and the hidden answers drawn anew, for
OpenSpiel's ``resample_from_infostate`` (ISMCTS samples one per simulation).

What a seat cannot see depends on the phase of the round:

- Grand Tichu (R2.1): it sees its first eight cards only. The 48 others (the other seats'
  eight, and all four sets of six still to be dealt, its own included) are dealt anew,
  uniformly; the answers of the seats that decided before it are drawn anew, each call or no
  call alike likely (it cannot know them: they take effect when every seat has answered).
- The push (R2.3): it sees its 14 cards. The 42 others are dealt anew, 14 to each other seat,
  uniformly; each push a seat made before it (or the cards chosen so far by the seat pushing
  now) is drawn anew from that seat's new hand, every choice and order alike likely.
- Play (R4): the other hands are drawn by :class:`~tichu.agents.support.prob.DealSampler`
  from the seat's :func:`~tichu.agents.support.knowledge.knowledge_of` its own view: uniformly
  among the deals that agree with the hand sizes, the cards it pushed (unless played), the
  Mah Jong with the first leader and the wish's voids of the open trick.

A deal in progress is not resampled: no seat decides during a deal (chance does), so OpenSpiel's
ISMCTS, which resamples at its own decisions, never asks; and what a seat would be missing then
is the rest of the deal, which chance draws anyway.
"""

from __future__ import annotations

import random

from tichu.agents.support.knowledge import knowledge_of
from tichu.agents.support.prob import DealSampler
from tichu.core.cards import DECK, indices_of
from tichu.core.round import Phase
from tichu.learn.spiel_info import view_for
from tichu.learn.spiel_position import Position


def _cards(indices: list[int]) -> int:
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def resample(position: Position, seat: int, rng: random.Random) -> Position:
    """A world the seat cannot tell from ``position``: the same information state for it, the
    same actions if it decides (R8).

    :raises ValueError: During a deal or at the end (see the module docstring).
    """
    round_ = position.core.round
    if round_ is None or position.is_chance or position.is_terminal:
        raise ValueError("only a round being played is resampled (not a deal in progress, not the end)")
    if round_.phase == Phase.PLAYING:
        view = view_for(position, seat)
        hands = DealSampler(knowledge_of(view.public_state(), view.private_state())).sample(rng)
        return position.redealt(hands)
    own = round_.hands[seat]
    hidden = indices_of(DECK & ~own)
    rng.shuffle(hidden)
    hands = [0, 0, 0, 0]
    if round_.phase == Phase.GRAND_TICHU:
        rest = [_cards(hidden[6 * other:6 * other + 6]) for other in range(4)]
        others = hidden[24:]
        grand = [answer if other == seat or answer is None else rng.random() < 0.5
                 for other, answer in enumerate(position.grand)]
        for other in range(4):
            hands[other] = own if other == seat else _cards([others.pop() for _ in range(8)])
        return position.redealt(hands, rest, grand=grand)
    pushes: list[list[int]] = []
    for other in range(4):
        hands[other] = own if other == seat else _cards([hidden.pop() for _ in range(14)])
        chosen = position.pushes[other]
        drawn = [1 << index for index in rng.sample(indices_of(hands[other]), len(chosen))]
        pushes.append(list(chosen) if other == seat else drawn)
    return position.redealt(hands, pushes=pushes)


__all__ = ["resample"]
