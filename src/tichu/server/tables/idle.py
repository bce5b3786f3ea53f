"""Idle seats at a table: the turn clocks, and a person's seat handed to its stand-in agent and
taken back (docs/server.md, "Leaving, idle seats and late joiners").

A person's seat may be handed to its stand-in agent while the person is idle (two clock runs
in a row, or the host's ``hand_over`` after :data:`HAND_OVER_AFTER` seconds of silence); the
person keeps the seat and takes it back by acting.
"""

from __future__ import annotations

import logging

from tichu.server.codes import ErrorCode
from tichu.server.tables.base import TableBase
from tichu.server.tables.peer import Peer
from tichu.server.wire import outgoing as out
from tichu.server.wire.protocol import ProtocolError, notification

log = logging.getLogger(__name__)

#: Seconds a person's seat must have been waited for before the host may hand it to an agent.
HAND_OVER_AFTER = 60.0


class IdleSeats(TableBase):
    """Turn clocks and hand-overs of a :class:`~tichu.server.tables.table.Table` (a part of it)."""

    def clock_changed(self) -> None:
        """A person's request opened or closed: ``turn_clocks`` to the listening clients and the
        spectators."""
        message = notification("turn_clocks", self._clocks_json())
        for client in self.clients:
            if self.social.listens(client):
                client.send(message)
        self.spectators.send(message)

    def _clocks_json(self) -> out.TurnClocks:
        """``turn_clocks``: every person's seat that is waited for now, with its clock."""
        clocks = [clock for client in self.clients
                  if client.hand_over_reason is None and (clock := client.clock_json()) is not None]
        return {"clocks": sorted(clocks, key=lambda clock: clock["player_index"])}

    def handed_over(self, peer: Peer, reason: str | None) -> None:
        """A seat went to its stand-in (``seat_handed_over``) or its person took it back
        (``seat_taken_back``): every client and spectator hears it."""
        if self.engine is not None and self.peers[peer.seat] is peer:
            self.engine.refresh_prompted(peer.seat)  # offered calls and bombs (or not) from now on
        if reason is None:
            self._broadcast("seat_taken_back", {"player_index": peer.seat, "player_name": peer.name})
        else:
            log.info("table %r: seat %d handed to its agent (%s)", self.name, peer.seat, reason)
            self._broadcast("seat_handed_over", {"player_index": peer.seat, "player_name": peer.name, "reason": reason})
        self.clock_changed()

    def _handed_over_seats(self) -> list[int]:
        return [client.seat for client in self.clients if client.hand_over_reason is not None]

    def hand_over(self, peer: Peer, seat: int) -> None:
        """The host hands an idle person's seat to its stand-in agent (after :data:`HAND_OVER_AFTER`
        seconds of waiting for one decision); the person takes it back by acting.

        :raises ProtocolError: ``NOT_LOBBY_HOST`` for another client; ``INVALID_ACTION`` without a
            game, for a seat that is no person's, is not waited for long enough, or is handed over.
        """
        if self.info.host_index != peer.seat:
            raise ProtocolError(ErrorCode.NOT_LOBBY_HOST, action="hand_over")
        if not self.is_running:
            raise ProtocolError(ErrorCode.INVALID_ACTION, "no game is being played")
        if not 0 <= seat < 4:
            raise ProtocolError(ErrorCode.INVALID_MESSAGE, "player_index must be 0..3")
        target = self.peers[seat]
        if target is None:
            raise ProtocolError(ErrorCode.INVALID_ACTION, "an agent plays that seat already", player_index=seat)
        if target.hand_over_reason is not None:
            raise ProtocolError(ErrorCode.INVALID_ACTION, "that seat is handed over already", player_index=seat)
        waited = target.waited()
        if waited is None or waited < HAND_OVER_AFTER:
            raise ProtocolError(ErrorCode.INVALID_ACTION,
                                f"a seat can be handed over after {HAND_OVER_AFTER:g} s of waiting for it",
                                player_index=seat, waited=None if waited is None else round(waited, 1))
        target.hand_over("host")

    def take_back(self, peer: Peer) -> None:
        """The person of a handed-over seat acts again (``take_back``).

        :raises ProtocolError: ``INVALID_ACTION`` when the seat is not handed over.
        """
        if not peer.take_back():
            raise ProtocolError(ErrorCode.INVALID_ACTION, "your seat is not handed over")
