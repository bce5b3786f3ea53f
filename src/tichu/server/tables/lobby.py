"""A table's lobby: the host, its swaps and options (:mod:`tichu.server.tables.options`; host
only, lobby only), the target score and who is ready (docs/server.md, "Table chat, reactions,
readiness and the target score").

Readiness is advice to the host; only clients that sent ``table_sync`` hear ``lobby_state``
and only their readiness counts (:class:`~tichu.server.tables.social.Social` keeps it).
"""

from __future__ import annotations

import logging

from tichu.core.views import TableInfo
from tichu.server.codes import ErrorCode
from tichu.server.tables.agent_seat import SeatAgents
from tichu.server.tables.broadcast import Broadcast
from tichu.server.tables.options import TableOptions, check_options
from tichu.server.tables.peer import Peer
from tichu.server.tables.seating import Seats
from tichu.server.tables.session import Game
from tichu.server.tables.social import TARGET_SCORE_MAX, TARGET_SCORE_MIN, Social
from tichu.server.tables.spectators import Spectators
from tichu.server.wire import outgoing as out
from tichu.server.wire.protocol import ProtocolError, notification

log = logging.getLogger(__name__)


class Lobby:
    """The host's commands and the readiness of a table's people.

    :ivar target_score: The score the next game (or the running one) is played to.
    """

    def __init__(self, table_name: str, target_score: int, *, info: TableInfo, options: TableOptions, seats: Seats,
                 social: Social[Peer], broadcast: Broadcast, spectators: Spectators, agents: SeatAgents,
                 game: Game) -> None:
        """:param table_name: The table's name (refusals, the log).
        :param target_score: The target score to start with (the server's setting).
        :param info: The table's facts (who is host).
        :param options: The table's options, changed here.
        :param seats: Who sits where (swapped here).
        :param social: Who listens and who is ready.
        :param broadcast: Tells the clients and spectators.
        :param spectators: The spectators (the option that admits them).
        :param agents: Makes the people's stand-ins anew when the agent kind changes.
        :param game: The table's game (the lobby's commands wait for its end).
        """
        self.table_name = table_name
        self.target_score = target_score
        self._info = info
        self._options = options
        self._seats = seats
        self._social = social
        self._broadcast = broadcast
        self._spectators = spectators
        self._agents = agents
        self._game = game

    def check_host(self, peer: Peer, action: str) -> None:
        """Whether ``peer`` may run the lobby now (host only, lobby only).

        :raises ProtocolError: ``NOT_LOBBY_HOST``, ``GAME_ALREADY_STARTED``.
        """
        if self._info.host_index != peer.seat:
            raise ProtocolError(ErrorCode.NOT_LOBBY_HOST, action=action)
        if self._game.is_running:
            raise ProtocolError(ErrorCode.GAME_ALREADY_STARTED, table_name=self.table_name)

    def swap(self, peer: Peer, first: int, second: int) -> None:
        """Swap two seats (host only, lobby only; the host's own seat stays).

        :raises ProtocolError: ``NOT_LOBBY_HOST``, ``GAME_ALREADY_STARTED``, ``INVALID_ACTION``.
        """
        self.check_host(peer, "swap_players")
        if not (0 <= first < 4 and 0 <= second < 4) or first == second:
            raise ProtocolError(ErrorCode.INVALID_ACTION, "name two different seats 0..3")
        if peer.seat in (first, second):
            raise ProtocolError(ErrorCode.INVALID_ACTION, "the host's own seat cannot move")
        moved = self._seats.swap(first, second)
        self._broadcast.to_all("players_swapped", {"player_index_1": first, "player_index_2": second})
        self._spectators.changed()
        if self._social.clear(moved):
            self.send_state()

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
        self.check_host(peer, "set_options")
        check_options(agent, target_score, turn_clock, on_leave)
        options = self._options
        before = (options.agent, options.hints, self.target_score, options.turn_clock, options.on_leave,
                  options.newcomers)
        if spectators is not None:
            self._spectators.allow(spectators)
        if agent is not None and agent != options.agent:
            options.agent = agent
            for client in self._seats.clients:
                client.stand_in = self._agents.stand_in(client.seat)
        if hints is not None:
            options.hints = hints
        if target_score is not None:
            self.target_score = target_score
        if turn_clock is not None:
            options.turn_clock = turn_clock
            for client in self._seats.clients:
                client.turn_timeout = turn_clock
        if on_leave is not None:
            options.on_leave = on_leave
        if newcomers is not None:
            options.newcomers = newcomers
        log.info("table %r: options %s, target score %d", self.table_name, options, self.target_score)
        self._broadcast.to_all("options_changed", options.to_json())
        changed = before != (options.agent, options.hints, self.target_score, options.turn_clock,
                             options.on_leave, options.newcomers)
        if (changed and self._social.clear()) or before[2] != self.target_score:
            self.send_state()

    # -- readiness ------------------------------------------------------------------------------

    def sync(self, peer: Peer) -> None:
        """A client speaks the extension: from now on it hears ``lobby_state`` and its readiness
        counts. It gets ``lobby_state`` (all listening clients do when it is new: its seat's
        readiness goes from null to false)."""
        if self._social.subscribe(peer):
            self.send_state()
        else:
            peer.send(notification("lobby_state", self.state()))

    def set_ready(self, peer: Peer, ready: bool) -> None:
        """Say whether the client is ready to start (lobby only); the listening clients hear
        ``lobby_state`` when that changed. Readiness is advice to the host: ``start_game`` keeps
        its meaning (docs/server.md).

        :raises ProtocolError: ``GAME_ALREADY_STARTED`` during a game.
        """
        if self._game.is_running:
            raise ProtocolError(ErrorCode.GAME_ALREADY_STARTED, table_name=self.table_name)
        if self._social.set_ready(peer, ready):
            self.send_state()

    def leave(self, peer: Peer) -> None:
        """A person left the table: its readiness and chat rate go (the listeners hear
        ``lobby_state`` if it was ready)."""
        if self._social.forget(peer):
            self.send_state()

    def state(self) -> out.LobbyState:
        """``lobby_state``: the target score (and its range) and per seat whether its client is
        ready (``null``: an agent, or a client that never sent ``table_sync``)."""
        ready = [None if client is None else self._social.ready(client) for client in self._seats.peers]
        return {"target_score": self.target_score, "target_score_range": [TARGET_SCORE_MIN, TARGET_SCORE_MAX],
                "ready": ready}

    def send_state(self) -> None:
        """``lobby_state`` to the listening clients and the spectators."""
        self._broadcast.to_listeners("lobby_state", self.state(), spectators=True)
