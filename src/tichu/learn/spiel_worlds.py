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
- Play (R4): the other hands are drawn by the searches' one sampler
  (:func:`~tichu.agents.support.worlds.hand_sampler`, uniform) from the seat's
  :func:`~tichu.agents.support.knowledge.knowledge_of` its own view: uniformly among the deals
  that agree with the hand sizes, the cards it pushed (unless played), the Mah Jong with the
  first leader and the wish's voids of the open trick.

The cards are drawn as the expert and the analysis draw them
(:mod:`tichu.agents.support.worlds`); the world is this game with the drawn cards put in
(:meth:`~tichu.core.flow.GameState.redeal`), so it keeps the whole game's scores.

A deal in progress is not resampled: no seat decides during a deal (chance does), so OpenSpiel's
ISMCTS, which resamples at its own decisions, never asks; and what a seat would be missing then
is the rest of the deal, which chance draws anyway.
"""

from __future__ import annotations

import random

from tichu.agents.support.worlds import hand_sampler, unseen_dealt
from tichu.core.cards import indices_of
from tichu.core.round import Phase
from tichu.learn.spiel_info import view_for
from tichu.learn.spiel_position import Position


def resample(position: Position, seat: int, rng: random.Random) -> Position:
    """A world the seat cannot tell from ``position``: the same information state for it, the
    same actions if it decides (R8).

    :raises ValueError: During a deal or at the end (see the module docstring).
    """
    round_ = position.core.round
    if round_ is None or position.is_chance or position.is_terminal:
        raise ValueError("only a round being played is resampled (not a deal in progress, not the end)")
    view = view_for(position, seat)
    if round_.phase == Phase.PLAYING:
        return position.redealt(hand_sampler(view, inference=False).sample(rng))
    hands, rest = unseen_dealt(view, rng, round_.phase == Phase.GRAND_TICHU)
    if rest is not None:
        grand = [answer if other == seat or answer is None else rng.random() < 0.5
                 for other, answer in enumerate(position.grand)]
        return position.redealt(hands, rest, grand=grand)
    pushes: list[list[int]] = []
    for other in range(4):
        chosen = position.pushes[other]
        drawn = [1 << index for index in rng.sample(indices_of(hands[other]), len(chosen))]
        pushes.append(list(chosen) if other == seat else drawn)
    return position.redealt(hands, pushes=pushes)


__all__ = ["resample"]
