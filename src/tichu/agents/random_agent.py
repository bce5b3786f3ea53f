"""The baseline agent: uniform random legal decisions from a seeded generator."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tichu.agents.agent import Agent
from tichu.core.cards import indices_of
from tichu.core.combos import Play
from tichu.core.views import SeatView


class RandomAgent(Agent):
    """Chooses uniformly among the legal plays, pushes, wishes and recipients.

    Calls and unprompted bombs are yes/no offers made at every point where they are
    allowed; answering them with a fair coin would call Tichu nearly every round and
    games would drift below zero and never end, so they are taken with small fixed
    probabilities instead.

    :cvar GRAND_TICHU_RATE: Chance of calling Grand Tichu.
    :cvar TICHU_RATE: Chance of calling Tichu at each offer.
    :cvar BOMB_RATE: Chance of throwing a bomb at each offer.
    """

    kind = "agent:random"
    reads_table = False  # it looks at its hand only
    GRAND_TICHU_RATE = 0.02
    TICHU_RATE = 0.01
    BOMB_RATE = 0.1

    def __init__(self, name: str = "Random", seed: int | None = None) -> None:
        super().__init__(name)
        self.rng = random.Random(seed)

    def decide_grand_tichu(self, view: SeatView) -> bool:
        return self.rng.random() < self.GRAND_TICHU_RATE

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        right, partner, left = self.rng.sample(indices_of(view.hand), 3)
        return 1 << right, 1 << partner, 1 << left

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        return legal[int(self.rng.random() * len(legal))]  # randrange is slower on this hot path

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        return choices[self.rng.randrange(len(choices))]

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        return recipients[self.rng.randrange(len(recipients))]

    def decide_tichu(self, view: SeatView) -> bool:
        return self.rng.random() < self.TICHU_RATE

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        if self.rng.random() < self.BOMB_RATE:
            return bombs[self.rng.randrange(len(bombs))]
        return None
