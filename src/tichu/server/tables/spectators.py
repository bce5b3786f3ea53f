"""Spectators: clients that watch a table without a seat (``/ws?table_name=T&spectate=1``).

A spectator receives the public part of everything that happens at the table and nothing
else (R8.1): its snapshot on joining (``spectate_started``, with ``public_state`` and no
``private_state``), the table's broadcasts (``player_joined``, ``player_left``...), and every
event of the engine in its public form (``hand_cards_dealt {count}`` without cards,
``start_playing`` without received cards, never ``hands_revealed``) with the public state after
it (``public_delta``, as a seat gets it: :mod:`tichu.server.wire.deltas`). It may send nothing but
``leave``; anything else is refused with ``UNAUTHORIZED`` (104) and changes nothing.

All four hands are shown to spectators (``spectator_hands``) only while every person seated
at the table allows it (``set_spectator_hands``; agents count as allowing).

The people at the table that speak the extension (``table_sync``) hear how many watch
(``spectators_changed``); clients of protocol.md alone never do.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Iterable, Mapping
from typing import Protocol

from tichu.core.round import Round
from tichu.core.views import TableInfo
from tichu.engine.events import Event, HandCardsDealt, HandsRevealed, PlayerPlayed, RoundStarted, StartPlaying
from tichu.server.codes import ErrorCode
from tichu.server.tables.peer import Peer
from tichu.server.wire import outgoing as out
from tichu.server.wire.connection import Connection, encode
from tichu.server.wire.deltas import Told, public_now
from tichu.server.wire.protocol import (
    ProtocolError,
    cards_json,
    error_message,
    event_text,
    notification,
    table_public_json,
)

#: Message types of the table's engine events after which the hands may have changed.
_HAND_EVENTS = (HandCardsDealt, StartPlaying, PlayerPlayed, RoundStarted)


class Spectator:
    """One watching client: its connection and the public state it was last sent (no seat, no
    session).

    :ivar connection: The socket, or ``None`` once it is gone.
    """

    def __init__(self, connection: Connection) -> None:
        self.connection: Connection | None = connection
        self.told = Told()

    def watching(self, info: TableInfo, round_: Round | None) -> out.PublicState:
        """The table's ``public_state`` for ``spectate_started``: the events after it carry what
        changes of it."""
        state = table_public_json(info, round_)
        self.told.start(state)
        return state

    def send(self, message: Mapping[str, object] | str) -> None:
        """Queue a message if still connected (the outbox is bounded like a player's)."""
        if self.connection is not None:
            self.connection.send(message)

    def send_error(self, error: ProtocolError) -> None:
        """Answer a refused message."""
        self.send(error_message(error.code, error.context, str(error)))


class Watched(Protocol):
    """The table the spectators watch (held weakly: no reference cycle keeps a closed table)."""

    @property
    def info(self) -> TableInfo:
        """The table's facts."""

    @property
    def round(self) -> Round | None:
        """The round being played, or ``None``."""

    @property
    def clients(self) -> list[Peer]:
        """The clients seated now."""

    def spectators_changed(self) -> None:
        """Tell the listening clients and the spectators ``spectators_changed``."""


class Spectators:
    """The spectators of one table; an observer of its engine (public events only).

    :ivar watchers: The spectators, in the order they came.
    :ivar limit: The most spectators the table admits.
    :ivar allowed: Whether the table admits spectators at all (a host option).
    """

    def __init__(self, limit: int, table: Watched) -> None:
        """Start without spectators.

        :param limit: The most spectators the table admits.
        :param table: The table (its round for ``spectator_hands``, its people, and whom to
            tell of a change); held weakly.
        """
        self.watchers: list[Spectator] = []
        self.limit = limit
        self.allowed = True
        self._table = weakref.ref(table)
        self._allowing: set[Peer] = set()
        self._open = False  # whether the spectators were last told the hands are open
        self._closing: set[asyncio.Task[None]] = set()  # sockets closing after the table stopped admitting

    def __len__(self) -> int:
        return len(self.watchers)

    # -- joining and leaving --------------------------------------------------------------------

    @property
    def admits(self) -> bool:
        """Whether one more spectator would be admitted now (the table's setting and its bound)."""
        return self.allowed and len(self.watchers) < self.limit

    def check_admits(self, table_name: str) -> None:
        """Whether one more spectator may come.

        :raises ProtocolError: ``UNAUTHORIZED`` when the table refuses spectators,
            ``TABLE_FULL`` when it has :attr:`limit` already.
        """
        if not self.allowed:
            raise ProtocolError(ErrorCode.UNAUTHORIZED, "this table does not allow spectators", table_name=table_name)
        if len(self.watchers) >= self.limit:
            raise ProtocolError(ErrorCode.TABLE_FULL, f"this table has {self.limit} spectators already",
                                table_name=table_name, spectators=self.limit)

    def add(self, spectator: Spectator) -> None:
        """Admit a spectator (checked with :meth:`check_admits` first)."""
        self.watchers.append(spectator)
        self.changed()

    def remove(self, spectator: Spectator) -> None:
        """A spectator left or its socket closed."""
        if spectator in self.watchers:
            self.watchers.remove(spectator)
            spectator.connection = None
            self.changed()

    def take_all(self) -> list[Spectator]:
        """Remove every spectator (the table closes or stops admitting them); returns them."""
        gone, self.watchers = self.watchers, []
        return gone

    def allow(self, allowed: bool) -> None:
        """The host's option ``spectators``: when it turns off, the spectators watching get
        ``UNAUTHORIZED`` (104) and are closed; the table's listeners hear ``spectators_changed``."""
        if allowed == self.allowed:
            return
        self.allowed = allowed
        if not allowed:
            error = ProtocolError(ErrorCode.UNAUTHORIZED, "the table no longer allows spectators")
            for spectator in self.take_all():
                spectator.send_error(error)
                if spectator.connection is not None:
                    task = asyncio.create_task(spectator.connection.close(1008, "spectators not allowed"))
                    self._closing.add(task)
                    task.add_done_callback(self._closing.discard)
                spectator.connection = None
        table = self._table()
        if table is not None:
            table.spectators_changed()

    # -- what they see --------------------------------------------------------------------------

    def send(self, message: Mapping[str, object] | str) -> None:
        """Send a public message (one of the table's broadcasts) to every spectator."""
        if not self.watchers:
            return
        text = message if isinstance(message, str) else encode(message)
        for spectator in self.watchers:
            spectator.send(text)

    def send_error(self, error: ProtocolError) -> None:
        """Send an error to every spectator (the table's game failed, or it closes)."""
        for spectator in self.watchers:
            spectator.send_error(error)

    def notify(self, event: Event) -> None:
        """An engine event (the engine's observer): its public form to every spectator, with
        the public state after it (what changed of it for each), then the hands if they are
        open and may have changed. ``hands_revealed`` (R8.3) is a seat's private message and
        never reaches a spectator."""
        table = self._table()
        if not self.watchers or isinstance(event, HandsRevealed) or table is None:
            return
        now = public_now(event, table)
        for spectator in self.watchers:
            spectator.send(event_text(event, None, spectator.told.changes(now)))
        if isinstance(event, _HAND_EVENTS) and self.hands_open:
            self.send(self.hands_message())

    # -- all hands open -------------------------------------------------------------------------

    def set_allow(self, peer: Peer, allow: bool) -> None:
        """A person allows (or no longer allows) spectators to see all hands."""
        if allow:
            self._allowing.add(peer)
        else:
            self._allowing.discard(peer)
        self.changed()

    def forget(self, peer: Peer) -> None:
        """A person left its seat (an agent, which allows, takes it)."""
        self._allowing.discard(peer)
        self.changed()

    def allows(self, peer: Peer) -> bool:
        """Whether a person allows spectators to see all hands."""
        return peer in self._allowing

    @property
    def hands_open(self) -> bool:
        """Whether every person seated allows all hands to be shown (agents allow)."""
        table = self._table()
        return table is not None and all(peer in self._allowing for peer in table.clients)

    def hands_message(self) -> Mapping[str, object]:
        """``spectator_hands``: ``{hands}``, the four hands (seat 0..3) while they are open and a
        round is dealt, else null."""
        table = self._table()
        round_ = table.round if table is not None else None
        hands = [cards_json(hand) for hand in round_.hands] if round_ is not None and self.hands_open else None
        return notification("spectator_hands", {"hands": hands})

    def state(self, seats: Iterable[Peer | None]) -> out.SpectatorsChanged:
        """``spectators_changed``'s context: ``{count, limit, allowed, hands_open, allow}``
        (``allow`` per seat: whether its person allows all hands; null for an agent)."""
        return {"count": len(self.watchers), "limit": self.limit, "allowed": self.allowed,
                "hands_open": self.hands_open,
                "allow": [None if peer is None else peer in self._allowing for peer in seats]}

    def changed(self) -> None:
        """Something spectators-related changed: tell the table's listeners and the
        spectators; open or close the hands for the spectators when that changed."""
        now_open = self.hands_open
        if now_open != self._open:
            self._open = now_open
            self.send(self.hands_message())
        table = self._table()
        if table is not None:
            table.spectators_changed()
