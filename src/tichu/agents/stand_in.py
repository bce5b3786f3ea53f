"""A stand-in: an agent deciding for a person who is away or has left, without betting for them.

A person's absence must neither cost their partner a lost Tichu (100 points) or Grand Tichu
(200 points) nor hand them, should they come back, a call they never made; so a stand-in plays
the person's cards as its agent would, pushes, wishes, gives the Dragon and throws bombs, but
declines every Tichu and Grand Tichu call (R6.1, R2.1). A call the person made before they went
stays theirs: it is part of the round, not a decision of the stand-in (docs/server.md, "The
stand-in's rules").
"""

from __future__ import annotations

from collections.abc import Sequence

from tichu.agents.agent import Agent
from tichu.core.combos import Play
from tichu.core.views import SeatView


class StandIn(Agent):
    """Decides as :attr:`agent` does, except that it calls neither Tichu nor Grand Tichu.

    :ivar agent: The agent whose play it makes (its kind is the stand-in's kind, for the record).
    """

    def __init__(self, agent: Agent) -> None:
        """Stand in with ``agent``'s play.

        :param agent: The agent that decides everything but the calls.
        """
        super().__init__(agent.name)
        self.agent = agent
        self.kind = agent.kind
        self.reads_table = agent.reads_table

    def _deciding(self) -> Agent:
        """The agent, asked when the stand-in was (a time budget counts from then)."""
        self.agent.asked_at = self.asked_at
        return self.agent

    def decide_grand_tichu(self, view: SeatView) -> bool:
        """Never: a Grand Tichu is the person's bet (R2.1)."""
        return False

    def decide_tichu(self, view: SeatView) -> bool:
        """Never: a Tichu is the person's bet (R6.1)."""
        return False

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        return self._deciding().decide_schupf(view)

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        return self._deciding().decide_play(view, legal)

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        return self._deciding().decide_wish(view, choices)

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        return self._deciding().decide_dragon(view, recipients)

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        return self._deciding().decide_bomb(view, bombs)
