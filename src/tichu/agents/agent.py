"""Base class of AI players: synchronous decisions, also for Tichu calls and bombs."""

from __future__ import annotations

from collections.abc import Sequence

from tichu.core.combos import Play
from tichu.engine.player import Player
from tichu.engine.views import SeatView


class Agent(Player):
    """A player whose decisions are computed at once.

    The engine calls the ``decide_*`` methods directly (no await on the hot path); the
    async methods of :class:`Player` wrap them for callers that do not know the kind.
    Agents cannot act unprompted, so the engine offers them a Tichu call and a bomb at
    every point where one is allowed (:meth:`decide_tichu`, :meth:`decide_bomb`).
    """

    kind = "agent"
    listens = False
    #: Whether its play decisions search for long (up to a second); a server's engine then
    #: runs them in a worker thread.
    thinks_long = False

    def decide_grand_tichu(self, view: SeatView) -> bool:
        """Decide on Grand Tichu (R2.1)."""
        raise NotImplementedError

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        """Choose the three pushed cards (R2.3)."""
        raise NotImplementedError

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        """Choose a play from ``legal``."""
        raise NotImplementedError

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        """Choose the wish (R5.1)."""
        raise NotImplementedError

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        """Choose the Dragon trick's recipient (R4.5)."""
        raise NotImplementedError

    def decide_tichu(self, view: SeatView) -> bool:
        """Decide whether to call Tichu now (R6.1)."""
        return False

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        """Choose a bomb to throw out of turn now, or ``None`` (R4.3)."""
        return None

    async def grand_tichu(self, view: SeatView) -> bool:
        return self.decide_grand_tichu(view)

    async def schupf(self, view: SeatView) -> tuple[int, int, int]:
        return self.decide_schupf(view)

    async def play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        return self.decide_play(view, legal)

    async def wish(self, view: SeatView, choices: Sequence[int]) -> int:
        return self.decide_wish(view, choices)

    async def give_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        return self.decide_dragon(view, recipients)
