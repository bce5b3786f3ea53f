"""The interface between the :class:`~tichu.engine.GameEngine` and whoever sits at a seat."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, NamedTuple

from tichu.core.combos import Play
from tichu.engine.views import SeatView


class Event(NamedTuple):
    """A notification (protocol.md, "Notifications"): its name and public context."""

    name: str
    context: dict[str, Any]


class Player(ABC):
    """Someone who decides for one seat: a connected client (``Peer``) or an :class:`Agent`.

    The engine asks for each decision of rules.md: Grand Tichu, push, play (pass
    included), wish, Dragon recipient. Every answer is validated by the engine. Tichu
    calls and out-of-turn bombs are offered only to agents; clients send them unprompted.

    :ivar name: The name shown at the table.
    :cvar kind: ``"human"`` or ``"agent:<name>"`` (records.md ``players[].kind``).
    :cvar listens: Whether :meth:`notify` wants the table's events (the engine skips
        building them when nobody listens).
    """

    kind = "human"
    listens = True

    def __init__(self, name: str) -> None:
        self.name = name

    @abstractmethod
    async def grand_tichu(self, view: SeatView) -> bool:
        """Decide on Grand Tichu seeing 8 cards (R2.1)."""

    @abstractmethod
    async def schupf(self, view: SeatView) -> tuple[int, int, int]:
        """Choose three single-card masks to give: to the right opponent, partner, left opponent (R2.3)."""

    @abstractmethod
    async def play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        """Choose one of ``legal`` (the pass included where allowed)."""

    @abstractmethod
    async def wish(self, view: SeatView, choices: Sequence[int]) -> int:
        """Choose the wished value after playing the Mah Jong (R5.1)."""

    @abstractmethod
    async def give_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        """Choose the opponent who receives the Dragon trick (R4.5)."""

    def notify(self, event: Event) -> None:
        """Receive a table event (public context; private data is the player's to add from its view)."""

    def request_cancelled(self) -> None:
        """The open decision was overtaken by an out-of-turn bomb (R4.3); the answer is no longer wanted."""
