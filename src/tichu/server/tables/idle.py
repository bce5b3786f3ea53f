"""Idle seats at a table: the turn clocks, and a person's seat handed to its stand-in agent and
taken back (docs/server.md, "Leaving, idle seats and late joiners").

A person's seat may be handed to its stand-in agent while the person is idle (two clock runs
in a row, or the host's ``hand_over`` after :data:`HAND_OVER_AFTER` seconds of silence); the
person keeps the seat and takes it back by acting. :class:`IdleClocks` is every peer's
:class:`~tichu.server.tables.peer.SeatWatcher`.
"""

from __future__ import annotations

import logging

from tichu.core.views import TableInfo
from tichu.server.codes import ErrorCode
from tichu.server.tables.broadcast import Broadcast
from tichu.server.tables.peer import Peer
from tichu.server.tables.seating import Seats
from tichu.server.tables.session import Game
from tichu.server.wire import outgoing as out
from tichu.server.wire.protocol import ProtocolError

log = logging.getLogger(__name__)

#: Seconds a person's seat must have been waited for before the host may hand it to an agent.
HAND_OVER_AFTER = 60.0


class IdleClocks:
    """The turn clocks of a table's people and their seats handed over."""

    def __init__(self, table_name: str, info: TableInfo, seats: Seats, broadcast: Broadcast, game: Game) -> None:
        """:param table_name: The table's name (the log).
        :param info: The table's facts (who is host).
        :param seats: Who sits where.
        :param broadcast: Tells the clients and spectators.
        :param game: The table's game (whose engine offers calls and bombs to a seat handed over).
        """
        self.table_name = table_name
        self._info = info
        self._seats = seats
        self._broadcast = broadcast
        self._game = game

    def clock_changed(self) -> None:
        """A person's request opened or closed: ``turn_clocks`` to the listening clients and the
        spectators."""
        self._broadcast.to_listeners("turn_clocks", self.clocks_json(), spectators=True)

    def clocks_json(self) -> out.TurnClocks:
        """``turn_clocks``: every person's seat that is waited for now, with its clock."""
        clocks = [clock for client in self._seats.clients
                  if client.hand_over_reason is None and (clock := client.clock_json()) is not None]
        return {"clocks": sorted(clocks, key=lambda clock: clock["player_index"])}

    def handed_over(self, peer: Peer, reason: str | None) -> None:
        """A seat went to its stand-in (``seat_handed_over``) or its person took it back
        (``seat_taken_back``): every client and spectator hears it."""
        engine = self._game.engine
        if engine is not None and self._seats.peers[peer.seat] is peer:
            engine.refresh_prompted(peer.seat)  # offered calls and bombs (or not) from now on
        if reason is None:
            self._broadcast.to_all("seat_taken_back", {"player_index": peer.seat, "player_name": peer.name})
        else:
            log.info("table %r: seat %d handed to its agent (%s)", self.table_name, peer.seat, reason)
            self._broadcast.to_all("seat_handed_over",
                                   {"player_index": peer.seat, "player_name": peer.name, "reason": reason})
        self.clock_changed()

    def handed_over_seats(self) -> list[int]:
        """The seats handed over to their stand-ins (``public_state.agent_plays_for``)."""
        return [client.seat for client in self._seats.clients if client.hand_over_reason is not None]

    def hand_over(self, peer: Peer, seat: int) -> None:
        """The host hands an idle person's seat to its stand-in agent (after :data:`HAND_OVER_AFTER`
        seconds of waiting for one decision); the person takes it back by acting.

        :raises ProtocolError: ``NOT_LOBBY_HOST`` for another client; ``INVALID_ACTION`` without a
            game, for a seat that is no person's, is not waited for long enough, or is handed over.
        """
        if self._info.host_index != peer.seat:
            raise ProtocolError(ErrorCode.NOT_LOBBY_HOST, action="hand_over")
        if not self._game.is_running:
            raise ProtocolError(ErrorCode.INVALID_ACTION, "no game is being played")
        if not 0 <= seat < 4:
            raise ProtocolError(ErrorCode.INVALID_MESSAGE, "player_index must be 0..3")
        target = self._seats.peers[seat]
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

    @staticmethod
    def take_back(peer: Peer) -> None:
        """The person of a handed-over seat acts again (``take_back``).

        :raises ProtocolError: ``INVALID_ACTION`` when the seat is not handed over.
        """
        if not peer.take_back():
            raise ProtocolError(ErrorCode.INVALID_ACTION, "your seat is not handed over")
