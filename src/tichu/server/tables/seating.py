"""A table's seats: who sits where, joining and coming back, the grace period of a dropped
client, leaving (docs/server.md, "Leaving, idle seats and late joiners", "Who a person is").

The first client is the host; when it leaves, the client that joined next becomes host. Seats
without a client are played by agents. A client that drops keeps its seat for the grace
period (the game waits if it must act); then an agent takes over, and the client can still
come back if nobody took the seat. A seat is given back by proof, never by name: the person
who left a seat last comes back with their session id; during a game a name alone never
receives a seat, and the names of the game's people who left stay theirs. A newcomer is
seated during a game only where the host allows it; every change of a seat's occupant is
kept for the record (:class:`~tichu.server.tables.session.GameSession`).
"""

from __future__ import annotations

import asyncio

from tichu.server.codes import ErrorCode
from tichu.server.tables.talk import Talk
from tichu.server.wire.connection import Connection
from tichu.server.wire.peer import Peer
from tichu.server.wire.protocol import PROTOCOL_VERSION, ProtocolError, notification


class Seating(Talk):
    """The seats of a :class:`~tichu.server.tables.table.Table` (a part of it)."""

    def join(self, player_name: str, connection: Connection) -> Peer:
        """Seat a new client on the first seat an agent holds; during a game only where the host
        allows newcomers, and first on a seat no person who left may take back. A name never
        gives a seat back: a person who left comes back with their session id (:meth:`reconnect`).

        :raises ProtocolError: ``NAME_TAKEN`` (a seated client's name, or during a game the name of
            a person who left it), ``TABLE_FULL``, or ``GAME_ALREADY_STARTED`` (with
            ``context.spectate``) for a newcomer at a running table closed to newcomers.
        """
        self._check_name(player_name)
        free = [seat for seat in range(4) if self.peers[seat] is None]
        if not free:
            raise ProtocolError(ErrorCode.TABLE_FULL, table_name=self.name)
        seat = self._newcomer_seat(free) if self.is_running else free[0]
        peer = self._new_peer(player_name, seat)
        self._seat(peer)
        self._joined.append(peer)
        if self.info.host_index is None:
            self.info.host_index = seat
        self._connect(peer, connection)
        return peer

    def _check_name(self, player_name: str) -> None:
        """Refuse a name a seated client has, or during a game that of a person who left it (who
        may come back with their session id: nobody else may appear under their name)."""
        wanted = player_name.casefold()
        if any(peer.name.casefold() == wanted for peer in self.clients):
            raise ProtocolError(ErrorCode.NAME_TAKEN, table_name=self.name, player_name=player_name)
        if self.is_running and any(peer.name.casefold() == wanted for peer in self._departed.values()):
            raise ProtocolError(ErrorCode.NAME_TAKEN,
                                "a person of this game left under that name; they come back with their session id",
                                table_name=self.name, player_name=player_name)

    def _newcomer_seat(self, free: list[int]) -> int:
        """The seat of a newcomer to a running game: a free seat no person who left may take back,
        else the first free seat (its person's claim goes: they get ``SESSION_EXPIRED``).

        :raises ProtocolError: ``GAME_ALREADY_STARTED`` at a table closed to newcomers, or once the
            game's seats changed hands
            :data:`~tichu.server.tables.session.MAX_SEAT_CHANGES` times.
        """
        if not self.options.newcomers:
            raise ProtocolError(ErrorCode.GAME_ALREADY_STARTED,
                                "the game has started and the table is closed to newcomers",
                                table_name=self.name, spectate=self.spectators.admits)
        if self.session.changes_full:
            raise ProtocolError(ErrorCode.GAME_ALREADY_STARTED,
                                f"this game's seats changed hands {len(self.session.seat_changes)} times; "
                                "wait for its end",
                                table_name=self.name, spectate=self.spectators.admits)
        unclaimed = [seat for seat in free if seat not in self._departed]
        return (unclaimed or free)[0]

    def reconnect(self, peer: Peer, connection: Connection) -> None:
        """Give a returning client its seat back: inside the grace period, or after it (or after it
        left) if nobody took the seat.

        :raises ProtocolError: ``SESSION_EXPIRED`` if another client took the seat.
        """
        timer = self._away.pop(peer, None)
        if timer is not None:
            timer.cancel()
        elif self.peers[peer.seat] is not peer:
            if self.peers[peer.seat] is not None:
                raise ProtocolError(ErrorCode.SESSION_EXPIRED, "another client took the seat")
            self._departed.pop(peer.seat, None)
            self._seat(peer)
            self._joined.append(peer)
            if self.info.host_index is None:
                self.info.host_index = peer.seat
        if peer.connection is not None:
            peer.connection.replace()  # one socket per seat: the old one is closed
        self._connect(peer, connection)

    def _new_peer(self, name: str, seat: int) -> Peer:
        return Peer(name, seat, self, self._make_stand_in(seat), self._pool, self.options.turn_clock,
                    hinter=self._hint, pace=self.settings.agent_delay, watcher=self)

    def _seat(self, peer: Peer) -> None:
        self.peers[peer.seat] = peer
        self.info.player_names[peer.seat] = peer.name
        if self.engine is not None:
            self.session.note_change(peer.seat, peer, "joined")
            self.engine.replace_player(peer.seat, peer)
            self.session.store_seat(peer.seat, peer.name, peer.session_hash)

    def _connect(self, peer: Peer, connection: Connection) -> None:
        peer.connection = connection
        public = {"player_index": peer.seat, "player_name": peer.name}
        for other in self.clients:
            if other is not peer:
                other.send(notification("player_joined", public))
        self.spectators.send(notification("player_joined", public))
        self.spectators.changed()  # a new person has not allowed all hands (yet)
        peer.send(notification("player_joined", {
            **public, "session_id": peer.session_id,
            "public_state": {**peer.joining_public_state(), "away": self._away_json(),
                             "agent_plays_for": self._handed_over_seats()},
            "private_state": peer.joining_private_state(),
            "pending_request": peer.pending_payload, "protocol_version": PROTOCOL_VERSION,
            "options": self.options.to_json(),
        }))

    def drop(self, peer: Peer, connection: Connection) -> None:
        """A client's socket closed without ``leave``: keep the seat for the grace period."""
        if peer.connection is not connection or self.peers[peer.seat] is not peer:
            return  # an old socket of a client that has reconnected, or already left
        peer.connection = None
        self._hold_seat(peer)

    def _hold_seat(self, peer: Peer) -> None:
        """Keep a dropped client's seat for the grace period and tell the others
        (``player_disconnected`` with the seconds until an agent takes the seat)."""
        loop = asyncio.get_running_loop()
        self._away[peer] = loop.call_later(self.settings.grace_period, self._grace_over, peer)
        self._broadcast("player_disconnected", {"player_index": peer.seat, "player_name": peer.name,
                                                "seconds": self.settings.grace_period})

    def _away_json(self) -> list[list[float]]:
        """The seats whose clients are away, with the seconds left until an agent takes them:
        ``[[seat, seconds], ...]`` (``public_state.away`` of ``player_joined``)."""
        now = asyncio.get_running_loop().time()
        return [[peer.seat, round(max(0.0, timer.when() - now), 1)] for peer, timer in self._away.items()]

    def _grace_over(self, peer: Peer) -> None:
        self._away.pop(peer, None)
        self._unseat(peer)

    def leave(self, peer: Peer) -> None:
        """A client leaves for good: an agent takes the seat at once."""
        timer = self._away.pop(peer, None)
        if timer is not None:
            timer.cancel()
        if self.peers[peer.seat] is peer:
            self._unseat(peer)

    def _unseat(self, peer: Peer) -> None:
        seat = peer.seat
        self.peers[seat] = None
        if peer in self._joined:
            self._joined.remove(peer)
        if self.info.host_index == seat:
            self.info.host_index = self._joined[0].seat if self._joined else None
        self._departed[seat] = peer  # they alone may take the seat back, with their session id
        agent = self._make_stand_in(seat)
        self.info.player_names[seat] = agent.name
        if self.engine is not None and self.options.on_leave == "end" and self.session.started(peer.session_hash):
            self._end_early(seat, peer.name)
        elif self.engine is not None:
            player = self._seat_agent(agent)
            self.session.note_change(seat, player, "left")
            self.engine.replace_player(seat, player)
            self.session.unseat(seat)
        peer.release()
        peer.connection = None  # its socket closes; the departed person keeps no buffer
        was_ready = self.social.forget(peer)
        self._broadcast("player_left", {"player_index": seat, "player_name": peer.name,
                                        "host_index": self.info.host_index, "replaced_by_agent": True})
        self.spectators.forget(peer)
        if was_ready:
            self._send_lobby_state()
        if not self.clients:
            self._on_empty(self)
