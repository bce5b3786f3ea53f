"""Telling a table's people and spectators: a notification to everyone, to the clients that
speak the extension (``table_sync``), or an error to everyone (docs/server.md).

:class:`Broadcast` knows who is there (the seats, who listens, the spectators), not why a
message goes out: the table's other objects decide that and hand it the context.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from tichu.server.codes import ErrorCode
from tichu.server.tables.peer import Peer
from tichu.server.wire import outgoing as out
from tichu.server.wire.protocol import ProtocolError, notification

#: The context of a notification every client and spectator of a table hears (:meth:`Broadcast.to_all`).
BroadcastContext = (out.SeatEvent | out.SeatHandedOver | out.PlayerDisconnected | out.PlayerLeft
                    | out.PlayersSwapped | out.TableOptions | out.LineOver | out.GameStored)
#: The context of a notification of the extension (:meth:`Broadcast.to_listeners`).
ListenersContext = out.LobbyState | out.ChatLine | out.ReactionSent | out.SpectatorsChanged | out.TurnClocks


class Seated(Protocol):
    """The clients seated at the table."""

    @property
    def clients(self) -> list[Peer]:
        """The clients seated now (connected or within their grace period)."""


class Listening(Protocol):
    """Who speaks the extension (:class:`~tichu.server.tables.social.Social`)."""

    def listens(self, who: Peer) -> bool:
        """Whether ``who`` sent ``table_sync``."""


class Audience(Protocol):
    """The table's spectators (:class:`~tichu.server.tables.spectators.Spectators`)."""

    def send(self, message: Mapping[str, object] | str) -> None:
        """Send a public message to every spectator."""

    def send_error(self, error: ProtocolError) -> None:
        """Send an error to every spectator."""


class Broadcast:
    """Sends a table's notifications to its clients and spectators."""

    def __init__(self, seats: Seated, social: Listening, spectators: Audience) -> None:
        """:param seats: The clients seated.
        :param social: Who speaks the extension.
        :param spectators: The spectators.
        """
        self._seats = seats
        self._social = social
        self._spectators = spectators

    def to_all(self, event: str, context: BroadcastContext, *, but: Peer | None = None) -> None:
        """A notification to every client (``but`` one) and every spectator (its context as
        :data:`~tichu.server.wire.outgoing.NOTIFICATIONS` names it for the event)."""
        message = notification(event, context)
        for peer in self._seats.clients:
            if peer is not but:
                peer.send(message)
        self._spectators.send(message)

    def to_listeners(self, event: str, context: ListenersContext, *, spectators: bool) -> None:
        """A notification of the extension to the clients that sent ``table_sync`` and, with
        ``spectators``, to the spectators too."""
        message = notification(event, context)
        for client in self._seats.clients:
            if self._social.listens(client):
                client.send(message)
        if spectators:
            self._spectators.send(message)

    def error(self, code: ErrorCode) -> None:
        """An error to every client and spectator (the table's game failed, or it closes)."""
        error = ProtocolError(code)
        for peer in self._seats.clients:
            peer.send_error(error)
        self._spectators.send_error(error)
