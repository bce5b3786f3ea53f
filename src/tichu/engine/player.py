"""The one port between the :class:`~tichu.engine.engine.GameEngine` and whoever sits at a seat.

The engine asks every player the same way, for each decision of rules.md: Grand Tichu
(R2.1), the push (R2.3), a play with the pass (R4.1), the wish (R5.1) and the Dragon's
recipient (R4.5); and, where the rules allow one, it offers a Tichu call (R6.1) and a bomb
out of turn (R4.3). Each question comes with a frozen :class:`~tichu.core.views.SeatView`
of the asking moment.

A player answers at once with the value, or with :class:`Later` holding an awaitable of it
(a client over the network, an agent thinking in a worker process), the offers included.
The engine awaits only a :class:`Later`, so agents that answer at once cost no await per
decision (the Arena's hot path). While it waits, a bomb thrown out of turn (and, for a
player that does not act unprompted, a Tichu call) makes the answer stale, and the
question is asked again.
Every answer is checked by the engine against what the round allows.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Sequence
from typing import Generic, TypeAlias, TypeVar

from tichu.core.combos import Play
from tichu.core.views import SeatView
from tichu.engine.events import Event

T = TypeVar("T")


class Later(Generic[T]):
    """An answer that is not there yet: the engine awaits :attr:`answer`.

    :ivar answer: What gives the answer.
    """

    __slots__ = ("answer",)

    def __init__(self, answer: Awaitable[T]) -> None:
        self.answer = answer


#: An answer now, or later.
Reply: TypeAlias = T | Later[T]


class Player(ABC):
    """Someone who decides for one seat: a connected client, an agent, a test's script.

    :ivar name: The name shown at the table.
    :cvar kind: ``"human"`` or ``"agent:<name>"`` (records.md ``players[].kind``).
    :cvar listens: Whether :meth:`notify` wants the table's events (the engine skips
        building them when nobody listens).
    :cvar reads_table: Whether its decisions read the public and private state of its
        :class:`SeatView` (the engine leaves them out otherwise, which keeps the Arena fast).
    :cvar acts_unprompted: Whether it may call Tichu or bomb at any moment through
        :meth:`~tichu.engine.engine.GameEngine.interrupt` (a client): the engine then waits
        the bomb window before a trick is taken.
    """

    kind = "human"
    listens = True
    reads_table = True
    acts_unprompted = False

    def __init__(self, name: str) -> None:
        self.name = name

    @abstractmethod
    def grand_tichu(self, view: SeatView) -> Reply[bool]:
        """Decide on Grand Tichu seeing 8 cards (R2.1)."""

    @abstractmethod
    def schupf(self, view: SeatView) -> Reply[tuple[int, int, int]]:
        """Choose three single-card masks to give: to the right opponent, partner, left opponent (R2.3)."""

    @abstractmethod
    def play(self, view: SeatView, legal: Sequence[Play]) -> Reply[Play]:
        """Choose one of ``legal`` (the pass included where allowed, R4.1)."""

    @abstractmethod
    def wish(self, view: SeatView, choices: Sequence[int]) -> Reply[int]:
        """Choose the wished value after playing the Mah Jong (R5.1)."""

    @abstractmethod
    def give_dragon(self, view: SeatView, recipients: Sequence[int]) -> Reply[int]:
        """Choose the opponent who receives the Dragon trick (R4.5)."""

    def offer_tichu(self, view: SeatView) -> Reply[bool]:
        """Whether to call Tichu now (R6.1). Not asked of a player that acts unprompted: it
        calls by itself. An answer that comes later is applied only if the seat may still call."""
        return False

    def offer_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Reply[Play | None]:
        """A bomb of ``bombs`` to throw out of turn now, or ``None`` (R4.3). Not asked of a
        player that acts unprompted: it bombs by itself. An answer that comes later is thrown
        only if nothing happened at the table meanwhile."""
        return None

    def notify(self, event: Event) -> None:
        """Receive a table event (public; a client adds its own private part)."""

    def request_cancelled(self) -> None:
        """The open decision was overtaken by an out-of-turn bomb (R4.3); the answer is no longer wanted."""
