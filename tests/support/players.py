"""Players for engine tests: events as the protocol names them, and answers that come later.

:class:`Notice` is an event as a test reads it: the protocol's name and JSON context, made by
the server's one mapping (:func:`tichu.server.wire.protocol.event_json`), so a test can say
``Notice("player_passed", {"player_index": 2})``. :class:`AsyncPlayer` is a player whose
answers are coroutines, like a client's over the network.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from tichu.core.combos import Play
from tichu.core.views import SeatView
from tichu.engine.events import Event
from tichu.engine.player import Later, Player
from tichu.server.wire.protocol import event_json


class Notice(NamedTuple):
    """An event as the protocol shows it: its name and public context."""

    name: str
    context: dict[str, Any]


def notice_of(event: Event) -> Notice:
    """The notice of an event (its public part; no seat's private part is added)."""
    name, context = event_json(event)
    return Notice(name, dict(context))


class Listening(Player):
    """A player that records every event as a :class:`Notice`; a hook may check each as it comes.

    :ivar events: The notices, in order.
    :ivar on_notify: (Optional) Called with each notice.
    """

    listens = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.events: list[Notice] = []
        self.on_notify: Callable[[Notice], None] | None = None

    def notify(self, event: Event) -> None:
        notice = notice_of(event)
        self.events.append(notice)
        if self.on_notify:
            self.on_notify(notice)


class AsyncPlayer(Player):
    """A player that answers every question later, from a coroutine (as a client does)."""

    def grand_tichu(self, view: SeatView) -> Later[bool]:
        return Later(self.answer_grand_tichu(view))

    def schupf(self, view: SeatView) -> Later[tuple[int, int, int]]:
        return Later(self.answer_schupf(view))

    def play(self, view: SeatView, legal: Sequence[Play]) -> Later[Play]:
        return Later(self.answer_play(view, legal))

    def wish(self, view: SeatView, choices: Sequence[int]) -> Later[int]:
        return Later(self.answer_wish(view, choices))

    def give_dragon(self, view: SeatView, recipients: Sequence[int]) -> Later[int]:
        return Later(self.answer_dragon(view, recipients))

    @abstractmethod
    async def answer_grand_tichu(self, view: SeatView) -> bool:
        """Decide on Grand Tichu (R2.1)."""

    @abstractmethod
    async def answer_schupf(self, view: SeatView) -> tuple[int, int, int]:
        """Choose the three pushed cards (R2.3)."""

    @abstractmethod
    async def answer_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        """Choose a play (R4.1)."""

    @abstractmethod
    async def answer_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        """Choose the wish (R5.1)."""

    @abstractmethod
    async def answer_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        """Choose the Dragon trick's recipient (R4.5)."""
