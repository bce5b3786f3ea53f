"""The beginner agent: the rule policy with a person's mistakes, not random ones.

It plays :class:`~tichu.agents.support.policy.RulePolicy` (split the hand into few
combinations, lead low, keep the Dragon and bombs, let the partner's tricks run) and, with
small fixed chances drawn from a seeded generator, makes the mistakes a new player makes:

- it forgets to count: decides as if no card had been played (the Dragon and Aces still
  out are not tracked, so "sure winners" are not sure);
- on a lead it sometimes plays its lowest single instead of the plan's combination;
- on an opponent's trick it sometimes beats it with its highest single (spending an Ace
  or the Dragon on a low card);
- it never throws a bomb out of turn;
- it calls Tichu impulsively with high cards (three of Dragon, Phoenix and Aces);
- rarely it pushes its highest card to an opponent, and sometimes gives the Dragon's
  trick to the wrong opponent.

It sees only its seat's view (R8), like every agent.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tichu.agents.rule_agent import RuleAgent
from tichu.core.cards import DRAGON, PHOENIX, SPECIALS, VALUE_MASK, indices_of
from tichu.core.combos import SINGLE, Play
from tichu.core.views import SeatView


def _order(index: int) -> int:
    """A card's strength for pushing: Dog and Mah Jong low, Dragon and Phoenix high."""
    return index // 4 + 2 if index < 52 else (0, 1, 17, 16)[index - 52]


class BeginnerAgent(RuleAgent):
    """The rule policy with a beginner's mistakes (see the module docstring).

    :cvar FORGET: Chance per play decision of deciding as if nothing had been played.
    :cvar LOW_LEAD: Chance per lead of leading the lowest single instead of the plan's choice.
    :cvar OVERKILL: Chance per opponent trick of beating it with the highest single.
    :cvar IMPULSIVE: Chance of calling Tichu with a 14-card hand of three high cards.
    :cvar BAD_PUSH: Chance per push of giving the highest card to an opponent.
    :cvar WRONG_DRAGON: Chance of giving the Dragon's trick to another opponent.
    :ivar rng: Seeded generator of the mistakes.
    """

    kind = "agent:beginner"
    FORGET = 0.5
    LOW_LEAD = 0.3
    OVERKILL = 0.2
    IMPULSIVE = 0.5
    BAD_PUSH = 0.1
    WRONG_DRAGON = 0.3

    def __init__(self, name: str = "Beginner", seed: int | None = None) -> None:
        super().__init__(name, seed)
        self.rng = random.Random(seed)
        self._tichu_hand: tuple[int, bool] | None = None

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        right, partner, left = super().decide_schupf(view)
        if self.rng.random() < self.BAD_PUSH:
            best = 1 << max(indices_of(view.hand), key=_order)
            if best not in (right, partner, left):
                return best, partner, left  # the Dragon (or an Ace) to the right opponent
        return right, partner, left

    def decide_tichu(self, view: SeatView) -> bool:
        hand = view.hand
        if self._tichu_hand is None or self._tichu_hand[0] != hand:
            s = self.situation(view)
            call = self.policy.tichu(s)
            if not call and hand.bit_count() == 14 and not s.calls[s.partner]:
                high = (hand & (DRAGON | PHOENIX)).bit_count() + (hand & VALUE_MASK[14]).bit_count()
                call = high >= 3 and self.rng.random() < self.IMPULSIVE
            self._tichu_hand = hand, call
        return self._tichu_hand[1]

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        if len(legal) == 1:
            return legal[0]
        s = self.situation(view)
        if self.rng.random() < self.FORGET:
            s = s._replace(played=0)
        choice = self.policy.play(s, legal)
        singles = [play for play in legal if play.kind == SINGLE and not play.cards & SPECIALS & ~DRAGON]
        if s.trick is None:
            if singles and self.rng.random() < self.LOW_LEAD:
                return min(singles, key=lambda play: play.rank)
        elif s.is_opponent(s.trick_owner) and singles and s.trick.kind == SINGLE \
                and self.rng.random() < self.OVERKILL:
            return max(singles, key=lambda play: play.rank)
        return choice

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        return self.policy.wish(self.situation(view), choices, 0)  # forgets what it pushed

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        choice = super().decide_dragon(view, recipients)
        others = [seat for seat in recipients if seat != choice]
        if others and self.rng.random() < self.WRONG_DRAGON:
            return others[0]
        return choice

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        return None  # never bombs out of turn


__all__ = ["BeginnerAgent"]
