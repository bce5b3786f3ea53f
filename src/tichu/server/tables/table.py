"""A table: four seats (clients or agents), its lobby and one game at a time.

:class:`Table` is made of parts stacked one on the other, each with one job:

- :mod:`~tichu.server.tables.base`: the table's state, what a seat's view is made from, and
  telling everyone (:class:`TableBase`);
- :mod:`~tichu.server.tables.idle`: the turn clocks and seats handed to their stand-ins;
- :mod:`~tichu.server.tables.talk`: chat, reactions and readiness;
- :mod:`~tichu.server.tables.seating`: joining, coming back, the grace period, leaving;
- :mod:`~tichu.server.tables.spectating`: admitting spectators and showing them all hands;
- :mod:`~tichu.server.tables.lobby`: the host's swaps and options (:mod:`~tichu.server.tables.options`);
- this module: the table's life: a game's start, its restore after a restart or a crash
  (:meth:`Table.restore`), a stop that keeps the table (:meth:`Table.suspend`,
  :meth:`Table.reopen`) and closing. The game itself runs in the table's
  :class:`~tichu.server.tables.session.GameSession`, which writes its journal and record.
"""


from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Callable, Mapping
from typing import TypedDict

from tichu.core.errors import RuleViolation
from tichu.core.round import ActionKind
from tichu.core.ruleset import RuleSet
from tichu.engine.engine import GameEngine
from tichu.engine.player import Player
from tichu.records.journal import rebuild
from tichu.records.record import now_iso
from tichu.records.store import RunningGame
from tichu.server.codes import ErrorCode
from tichu.server.config import Settings
from tichu.server.tables.agent_seat import AgentFactory, registry_agent
from tichu.server.tables.base import TableBase
from tichu.server.tables.hints import HintRanker
from tichu.server.tables.lines import Line
from tichu.server.tables.lobby import Lobby
from tichu.server.tables.options import StartOptions, StoredOptions, TableOptions, as_number
from tichu.server.tables.spectators import Spectator
from tichu.server.wire.connection import Connection
from tichu.server.wire.peer import Peer
from tichu.server.wire.protocol import ProtocolError
from tichu.server.workers.agent_pool import AgentPool
from tichu.server.workers.store_writer import StoreWriter


class KeptOptions(StoredOptions):
    """A kept lobby's options: the stored options and whether spectators are allowed."""

    spectators: bool


class KeptLobby(TypedDict):
    """What a restart keeps of a table in its lobby (:meth:`Table.kept_lobby`); ``seats``:
    ``[seat, name, session hash]`` of each person, in the order they joined."""

    options: KeptOptions
    target_score: int
    host: int | None
    seats: list[tuple[int, str, str]]


class Table(Lobby):
    """One table with a name, up to four clients and a game at a time: its parts stacked, each
    adding one job (:class:`TableBase` the state; then idle seats, talk, seating, spectating and
    the host's lobby), and here the table's life: starting a game, going on with one after a
    restart, stopping, keeping and reopening a lobby."""

    def start(self, peer: Peer) -> None:
        """Start a game (host only, lobby only); agents take the empty seats.

        :raises ProtocolError: ``NOT_LOBBY_HOST``, ``GAME_ALREADY_STARTED``.
        """
        self._check_host(peer, "start_game")
        players: list[Player] = [client if client is not None else self._seat_agent(self._make_agent(seat))
                                 for seat, client in enumerate(self.peers)]
        self.info.player_names = [player.name for player in players]
        rules = RuleSet(target_score=self.target_score)
        self.social.clear()  # readiness is for one start; the clients clear it on game_started
        self._departed.clear()  # who left the lobby has no seat in the game
        starters = [[player.name, player.kind] for player in players]
        options: StartOptions = {**self.options.stored(), "starters": starters}
        engine = GameEngine(players, rules, seed=self.settings.seed, info=self.info,
                            bomb_window=self.settings.bomb_window, keep_rounds=True)
        self.session.begin(engine, str(uuid.uuid4()), now_iso(), options, self._people())
        engine.observe(self.spectators)

    @classmethod
    def for_line(cls, name: str, line: Line, settings: Settings, on_empty: Callable[[TableBase], None],
                 store: StoreWriter, *, pool: AgentPool, agents: AgentFactory = registry_agent,
                 hinter: HintRanker | None = None) -> Table:
        """Open a table for another line (:mod:`~tichu.server.tables.lines`): its first person plays
        the line's seat (:meth:`join_line`); newcomers are refused once it runs, as by default."""
        table = cls(name, settings, on_empty, store, pool=pool, agents=agents, hinter=hinter)
        table.line = line
        table.target_score = line.position.rules.target_score
        return table

    def join_line(self, player_name: str, connection: Connection) -> Peer:
        """The line's person joins: seated on the line's seat as host, the table's agents on the
        others, and the round played on from the line's position to its end; the person's
        ``player_joined`` shows the position.

        :raises ProtocolError: ``GAME_ALREADY_STARTED`` if the line has been played on already.
        """
        line = self.line
        if line is None or self.line_started:
            raise ProtocolError(ErrorCode.GAME_ALREADY_STARTED, "this line has been played", table_name=self.name)
        self.line_started = True
        peer = self._new_peer(player_name, line.seat)
        self._seat(peer)
        self._joined.append(peer)
        self.info.host_index = line.seat
        players: list[Player] = [client if client is not None else self._seat_agent(self._make_agent(seat))
                                 for seat, client in enumerate(self.peers)]
        self.info.player_names = [player.name for player in players]
        finished, round_ = line.position.rounds()
        engine = GameEngine(players, line.position.rules, info=self.info, bomb_window=self.settings.bomb_window,
                            keep_rounds=True)
        engine.resume(finished, round_)
        self.session.play_line(engine)
        engine.observe(self.spectators)
        self._connect(peer, connection)
        return peer

    def _people(self) -> list[tuple[int, str, str]]:
        """``(seat, name, session hash)`` of every person seated, as the store keeps them."""
        return [(peer.seat, peer.name, peer.session_hash) for peer in self.clients]

    @classmethod
    def restore(cls, running: RunningGame, settings: Settings, on_empty: Callable[[TableBase], None],
                store: StoreWriter, *, pool: AgentPool, agents: AgentFactory = registry_agent,
                hinter: HintRanker | None = None, on_finished: Callable[[str], None] | None = None) -> Table:
        """Rebuild a table whose game was running when the server stopped, and go on with it.

        The game's journal is replayed through the rules; its people get their seats back as
        clients that have dropped (they reconnect with their session ids within the grace
        period, or agents take over); the next deals are shuffled afresh.

        :param running: The stored game.
        :raises JournalFault: If the rules do not replay the journal (nothing is started then).
        """
        rules = RuleSet.from_json(running.rules)
        finished, unfinished = rebuild(rules, running.entries)
        table = cls(running.table_name, settings, on_empty, store, pool=pool, agents=agents, hinter=hinter,
                    on_finished=on_finished)
        table.options.restore(running.options)
        table.target_score = rules.target_score
        for seat, (name, hashed) in sorted(running.seats.items()):
            peer = table._new_peer(name, seat)
            peer.session_hash = hashed
            table.peers[seat] = peer
            table.info.player_names[seat] = name
            table._joined.append(peer)
        table.info.host_index = table._joined[0].seat if table._joined else None
        players: list[Player] = [client if client is not None else table._seat_agent(table._make_agent(seat))
                                 for seat, client in enumerate(table.peers)]
        table.info.player_names = [player.name for player in players]
        engine = GameEngine(players, rules, seed=running.seed, rng=random.Random(), info=table.info,
                            bomb_window=settings.bomb_window, keep_rounds=True)
        engine.resume(finished, unfinished)
        table.session.resume(engine, running.id, running.started_at, running.options, len(running.entries),
                             lambda cursor: cursor.follow(finished, unfinished), table._people())
        engine.observe(table.spectators)
        for peer in table.clients:
            table._hold_seat(peer)
        return table

    def interrupt(self, peer: Peer, kind: ActionKind, cards: int = 0) -> None:
        """Pass a client's Tichu call or bomb to the engine.

        :raises ProtocolError: With the protocol's code when the rules refuse it.
        """
        engine = self.engine
        if engine is None:
            code = ErrorCode.INVALID_ANNOUNCE if kind == ActionKind.TICHU else ErrorCode.INTERRUPT_DENIED
            raise ProtocolError(code, "no game is being played")
        peer.take_back()  # the person acts: a seat handed over comes back
        try:
            engine.interrupt(peer.seat, kind, cards)
        except RuleViolation as error:
            raise ProtocolError.from_violation(error, action="announce" if kind == ActionKind.TICHU else "bomb") \
                from error

    async def suspend(self) -> None:
        """The server stops to start again: keep the table instead of ending it. A running game is
        left in the store as running (its journal is written as it is played; the next start
        rebuilds it, as after a crash), a lobby with people is kept (:meth:`kept_lobby`). Every
        client and spectator hears ``SERVER_DOWN`` with a "back soon" reason; the sockets close
        (the clients come back with their session ids within the grace period)."""
        for timer in self._away.values():
            timer.cancel()
        self._away.clear()
        self._departed.clear()  # a departed person holds the table: no cycle outlives it
        if not await self.session.suspend() and self.clients:
            name, state = self.name, self.kept_lobby()
            self._store.submit(lambda store: store.keep_lobby(name, dict(state)))
        error = ProtocolError(ErrorCode.SERVER_DOWN, "the server restarts; back soon", back_soon=True)
        connections: list[Connection] = []
        listeners: list[Peer | Spectator] = [*self.clients, *self.spectators.take_all()]
        for listener in listeners:
            listener.send_error(error)
            if listener.connection is not None:
                connections.append(listener.connection)
        # together: a stop must end within seconds however many clients read slowly
        await asyncio.gather(*(connection.close() for connection in connections))

    def kept_lobby(self) -> KeptLobby:
        """What a restart keeps of a table in its lobby: its options, target score, host and the
        people's seats (name and session hash, in the order they joined)."""
        return {"options": {**self.options.stored(), "spectators": self.spectators.allowed},
                "target_score": self.target_score, "host": self.info.host_index,
                "seats": [(peer.seat, peer.name, peer.session_hash) for peer in self._joined]}

    @classmethod
    def reopen(cls, name: str, kept: Mapping[str, object], settings: Settings, on_empty: Callable[[TableBase], None],
               store: StoreWriter, *, pool: AgentPool, agents: AgentFactory = registry_agent,
               hinter: HintRanker | None = None, on_finished: Callable[[str], None] | None = None) -> Table:
        """Open a table kept in its lobby at the last stop (:meth:`kept_lobby`): its people have
        the grace period to come back with their session ids.

        :param kept: The kept state as the store read it back (JSON, checked here).
        :raises KeyError, TypeError, ValueError, IndexError: For a kept state this program cannot read.
        """
        table = cls(name, settings, on_empty, store, pool=pool, agents=agents, hinter=hinter, on_finished=on_finished)
        options, seats = kept["options"], kept["seats"]
        if not isinstance(options, Mapping) or not isinstance(seats, list):
            raise TypeError("a kept lobby's options must be an object and its seats a list")
        table.options = TableOptions(agent=str(options["agent"]), hints=bool(options["hints"]),
                                     turn_clock=as_number(options["turn_clock"]), on_leave=str(options["on_leave"]),
                                     newcomers=bool(options["newcomers"]))
        table.spectators.allowed = bool(options.get("spectators", True))
        table.target_score = int(as_number(kept["target_score"]))
        for entry in seats:
            if not isinstance(entry, list) or len(entry) != 3:
                raise ValueError(f"a kept seat must be [seat, name, session hash]: {entry!r}")
            seat, player_name, hashed = entry
            peer = table._new_peer(str(player_name), int(as_number(seat)))
            peer.session_hash = str(hashed)
            table.peers[peer.seat] = peer
            table.info.player_names[peer.seat] = peer.name
            table._joined.append(peer)
        host = kept.get("host")
        table.info.host_index = host if isinstance(host, int) and table.peers[host] is not None else \
            (table._joined[0].seat if table._joined else None)
        for peer in table.clients:
            table._hold_seat(peer)
        return table

    async def close(self, reason: ErrorCode | None = None) -> None:
        """Stop the game (its record is written as aborted) and close every client's socket."""
        for timer in self._away.values():
            timer.cancel()
        self._away.clear()
        self._departed.clear()  # a departed person holds the table: no cycle outlives it
        await self.session.stop()
        if reason is not None:
            self._broadcast_error(reason)
        for peer in self.clients:
            if peer.connection is not None:
                await peer.connection.close()
        for spectator in self.spectators.take_all():
            if spectator.connection is not None:
                await spectator.connection.close()
