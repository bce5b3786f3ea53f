"""Spectators at a table: admitting and letting go of them, whether they see all hands, and the
host's option that admits them (docs/server.md, "Spectators"); who watches is
:class:`~tichu.server.tables.spectators.Spectators`'s."""

from __future__ import annotations

import asyncio

from tichu.server.codes import ErrorCode
from tichu.server.tables.seating import Seating
from tichu.server.tables.spectators import Spectator
from tichu.server.wire.connection import Connection
from tichu.server.wire.peer import Peer
from tichu.server.wire.protocol import PROTOCOL_VERSION, ProtocolError, notification


class Spectating(Seating):
    """The spectators' door of a :class:`~tichu.server.tables.table.Table` (a part of it)."""

    def spectate(self, connection: Connection) -> Spectator:
        """Admit a spectator: it gets ``spectate_started`` (the public snapshot) and, while all
        hands are open, ``spectator_hands``; the people that listen hear ``spectators_changed``.

        :raises ProtocolError: ``UNAUTHORIZED`` when the table refuses spectators, ``TABLE_FULL``
            beyond its limit of spectators.
        """
        self.spectators.check_admits(self.name)
        spectator = Spectator(connection)
        spectator.send(notification("spectate_started", {
            "table_name": self.name,
            "public_state": {**spectator.watching(self.info, self.round), "away": self._away_json(),
                             "agent_plays_for": self._handed_over_seats()},
            "options": self.options.to_json(), "lobby_state": self._lobby_state(),
            "protocol_version": PROTOCOL_VERSION,
        }))
        self.spectators.add(spectator)
        if self.spectators.hands_open:
            spectator.send(self.spectators.hands_message())
        return spectator

    def unspectate(self, spectator: Spectator) -> None:
        """A spectator left (``leave``) or its socket closed."""
        self.spectators.remove(spectator)

    def set_spectator_hands(self, peer: Peer, allow: bool) -> None:
        """A person allows (or not) the spectators to see all four hands; they see them only
        while every person seated allows it (agents do)."""
        self.spectators.set_allow(peer, allow)

    def allow_spectators(self, allowed: bool) -> None:
        """The host's option ``spectators``: when it turns off, the spectators watching get
        ``UNAUTHORIZED`` (104) and are closed."""
        if allowed == self.spectators.allowed:
            return
        self.spectators.allowed = allowed
        if not allowed:
            error = ProtocolError(ErrorCode.UNAUTHORIZED, "the table no longer allows spectators")
            for spectator in self.spectators.take_all():
                spectator.send_error(error)
                if spectator.connection is not None:
                    task = asyncio.create_task(spectator.connection.close(1008, "spectators not allowed"))
                    self._closing_spectators.add(task)
                    task.add_done_callback(self._closing_spectators.discard)
                spectator.connection = None
        self.spectators_changed()
