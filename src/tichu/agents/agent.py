"""Agents: players that decide by computation, synchronously, from a frozen seat view (R8).

An :class:`Agent` answers every question at once and is offered a Tichu call and a bomb
wherever the rules allow one (it cannot act unprompted). :class:`AgentPlayer` adapts an
agent to the engine's one :class:`~tichu.engine.player.Player` port; the server wraps
agents its own way (worker processes, pauses) on the same port.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from tichu.core.combos import Play
from tichu.core.views import SeatView
from tichu.engine.player import Player


class Agent(ABC):
    """Decides for a seat from a :class:`SeatView` snapshot: the same answers in any thread or process.

    An agent pickles (a server decides on a copy in a worker process and takes the copy's
    state back), so its state is plain data: no locks, files or open generators.

    :ivar name: The name shown at the table.
    :cvar kind: ``"agent:<name>"`` (records.md ``players[].kind``).
    :cvar reads_table: Whether it reads the view's public and private state (a view without
        them is cheaper to make; :class:`~tichu.agents.random_agent.RandomAgent` needs none).
    :ivar asked_at: When the decision being made was asked for, by ``time.monotonic()`` (one
        clock for all processes of a machine). A server's agent pool sets it, so that a time
        budget counts from the request and a decision that waited for a free worker thinks
        only for what is left; ``None``: a budget counts from the decision's start.
    """

    kind = "agent"
    reads_table = True
    asked_at: float | None = None

    def __init__(self, name: str) -> None:
        self.name = name

    @abstractmethod
    def decide_grand_tichu(self, view: SeatView) -> bool:
        """Decide on Grand Tichu (R2.1)."""

    @abstractmethod
    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        """Choose the three pushed cards: to the right opponent, partner, left opponent (R2.3)."""

    @abstractmethod
    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        """Choose a play from ``legal`` (R4.1)."""

    @abstractmethod
    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        """Choose the wish (R5.1)."""

    @abstractmethod
    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        """Choose the Dragon trick's recipient (R4.5)."""

    def decide_tichu(self, view: SeatView) -> bool:
        """Decide whether to call Tichu now (R6.1)."""
        return False

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        """Choose a bomb to throw out of turn now, or ``None`` (R4.3)."""
        return None


class AgentPlayer(Player):
    """An agent at a seat of the engine: every answer comes at once (a server seats agents as
    :class:`~tichu.server.tables.agent_seat.ServerAgent`, whose answers come later, from a worker process).

    :ivar agent: The agent that decides.
    """

    listens = False

    def __init__(self, agent: Agent) -> None:
        super().__init__(agent.name)
        self.agent = agent
        self.kind = agent.kind
        self.reads_table = agent.reads_table

    def grand_tichu(self, view: SeatView) -> bool:
        return self.agent.decide_grand_tichu(view)

    def schupf(self, view: SeatView) -> tuple[int, int, int]:
        return self.agent.decide_schupf(view)

    def play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        return self.agent.decide_play(view, legal)

    def wish(self, view: SeatView, choices: Sequence[int]) -> int:
        return self.agent.decide_wish(view, choices)

    def give_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        return self.agent.decide_dragon(view, recipients)

    def offer_tichu(self, view: SeatView) -> bool:
        return self.agent.decide_tichu(view)

    def offer_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        return self.agent.decide_bomb(view, bombs)
