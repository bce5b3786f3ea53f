"""A table's lobby as its host runs it: swapping seats and setting the options
(:mod:`tichu.server.tables.options`; host only, lobby only)."""

from __future__ import annotations

import logging

from tichu.server.codes import ErrorCode
from tichu.server.tables.options import check_options
from tichu.server.tables.peer import Peer
from tichu.server.tables.spectating import Spectating
from tichu.server.wire.protocol import ProtocolError, agent_name

log = logging.getLogger(__name__)


class Lobby(Spectating):
    """The host's commands of a :class:`~tichu.server.tables.table.Table` (a part of it)."""

    def _check_host(self, peer: Peer, action: str) -> None:
        if self.info.host_index != peer.seat:
            raise ProtocolError(ErrorCode.NOT_LOBBY_HOST, action=action)
        if self.is_running:
            raise ProtocolError(ErrorCode.GAME_ALREADY_STARTED, table_name=self.name)

    def swap(self, peer: Peer, first: int, second: int) -> None:
        """Swap two seats (host only, lobby only; the host's own seat stays).

        :raises ProtocolError: ``NOT_LOBBY_HOST``, ``GAME_ALREADY_STARTED``, ``INVALID_ACTION``.
        """
        self._check_host(peer, "swap_players")
        if not (0 <= first < 4 and 0 <= second < 4) or first == second:
            raise ProtocolError(ErrorCode.INVALID_ACTION, "name two different seats 0..3")
        if peer.seat in (first, second):
            raise ProtocolError(ErrorCode.INVALID_ACTION, "the host's own seat cannot move")
        self.peers[first], self.peers[second] = self.peers[second], self.peers[first]
        names = self.info.player_names
        names[first], names[second] = names[second], names[first]
        for seat in (first, second):
            moved = self.peers[seat]
            if moved is not None:
                moved.seat = seat
            else:
                names[seat] = agent_name(seat)
        self._broadcast("players_swapped", {"player_index_1": first, "player_index_2": second})
        self.spectators.changed()
        swapped = [client for client in (self.peers[first], self.peers[second]) if client is not None]
        if self.social.clear(swapped):
            self._send_lobby_state()

    def set_options(self, peer: Peer, agent: str | None = None, hints: bool | None = None,
                    target_score: int | None = None, spectators: bool | None = None, *,
                    turn_clock: int | None = None, on_leave: str | None = None,
                    newcomers: bool | None = None) -> None:
        """Change the table's options (host only, lobby only) and tell every client
        (``options_changed``). The agents take the new kind when the game starts. A change
        of any option makes everyone not ready (they agreed to other terms); the clients that
        sent ``table_sync`` then hear ``lobby_state``, as after a new target score.

        :raises ProtocolError: ``NOT_LOBBY_HOST``, ``GAME_ALREADY_STARTED``, ``INVALID_ACTION``
            for an unknown agent kind or level, a target score out of range, a turn clock not in
            :data:`~tichu.server.tables.options.TURN_CLOCKS` or an unknown ``on_leave`` (nothing changes then).
        """
        self._check_host(peer, "set_options")
        check_options(agent, target_score, turn_clock, on_leave)
        before = (self.options.agent, self.options.hints, self.target_score, self.options.turn_clock,
                  self.options.on_leave, self.options.newcomers)
        if spectators is not None:
            self.allow_spectators(spectators)
        if agent is not None and agent != self.options.agent:
            self.options.agent = agent
            for client in self.clients:
                client.stand_in = self._make_stand_in(client.seat)
        if hints is not None:
            self.options.hints = hints
        if target_score is not None:
            self.target_score = target_score
        if turn_clock is not None:
            self.options.turn_clock = turn_clock
            for client in self.clients:
                client.turn_timeout = turn_clock
        if on_leave is not None:
            self.options.on_leave = on_leave
        if newcomers is not None:
            self.options.newcomers = newcomers
        log.info("table %r: options %s, target score %d", self.name, self.options, self.target_score)
        self._broadcast("options_changed", self.options.to_json())
        changed = before != (self.options.agent, self.options.hints, self.target_score, self.options.turn_clock,
                             self.options.on_leave, self.options.newcomers)
        if (changed and self.social.clear()) or before[2] != self.target_score:
            self._send_lobby_state()
