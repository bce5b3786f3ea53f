"""A table: four seats (clients or agents), its lobby and one game at a time.

:class:`Table` is the facade the rest of the server calls (the socket's dispatch, the factory,
the HTTP routes); it holds one object per job, each handed only what it needs, and wires them
in one place, its ``__init__`` (docs/architecture.md, "A table's objects"):

- :class:`~tichu.server.tables.seating.Seats`: who sits where, the host, who left and the grace
  period;
- :class:`~tichu.server.tables.broadcast.Broadcast`: telling the clients and the spectators;
- :class:`~tichu.server.tables.lobby.Lobby`: the host's swaps and options, the target score and
  who is ready;
- :class:`~tichu.server.tables.talk.Talk`: chat and reactions;
- :class:`~tichu.server.tables.idle.IdleClocks`: the turn clocks and seats handed to their
  stand-ins;
- :class:`~tichu.server.tables.spectators.Spectators`: who watches and whether they see all hands;
- :class:`~tichu.server.tables.session.GameSession`: the running game's engine task, journal
  and record;
- :class:`~tichu.server.tables.agent_seat.SeatAgents` and :class:`~tichu.server.tables.hints.Hints`:
  the table's agents and its hints.

What is left here is what joins them: a person's arrival and departure (what it does to the
game, who hears of it), and the table's life: a game's start, its restore after a restart or a
crash (:meth:`Table.restore`), a stop that keeps the table (:meth:`Table.suspend`,
:meth:`Table.reopen`) and closing.
"""


from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Callable, Mapping
from typing import TypedDict

from tichu.core.errors import RuleViolation
from tichu.core.round import ActionKind, Round
from tichu.core.ruleset import RuleSet
from tichu.core.views import TableInfo, TablePhase
from tichu.engine.engine import GameEngine
from tichu.engine.player import Player
from tichu.records.journal import rebuild
from tichu.records.record import now_iso
from tichu.records.store import RunningGame
from tichu.server.codes import ErrorCode
from tichu.server.config import Settings
from tichu.server.tables.agent_seat import AgentFactory, SeatAgents, registry_agent
from tichu.server.tables.broadcast import Broadcast
from tichu.server.tables.hints import HintRanker, Hints, heuristic_hinter
from tichu.server.tables.idle import IdleClocks
from tichu.server.tables.lines import Line
from tichu.server.tables.lobby import Lobby
from tichu.server.tables.options import StartOptions, StoredOptions, TableOptions, as_number
from tichu.server.tables.peer import Peer
from tichu.server.tables.seating import Seats
from tichu.server.tables.session import GameSession
from tichu.server.tables.social import Social
from tichu.server.tables.spectators import Spectator, Spectators
from tichu.server.tables.talk import Talk
from tichu.server.wire import outgoing as out
from tichu.server.wire.connection import Connection
from tichu.server.wire.protocol import (
    PROTOCOL_VERSION,
    ProtocolError,
    agent_name,
    notification,
)
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


class Table:
    """One table with a name, up to four clients and a game at a time: the facade over its
    objects (the module's docstring names them).

    :ivar name: The table's name.
    :ivar settings: The server's settings.
    :ivar info: Facts shared with the engine and shown in ``public_state``.
    :ivar options: The agent kind of empty seats, whether hints are given, the turn clock...
    :ivar line: The stored game's position this table plays on from (another line,
        :mod:`~tichu.server.tables.lines`), or ``None`` for a table of whole games.
    :ivar line_started: Whether the line's round has been played on (it is played once).
    """

    def __init__(self, name: str, settings: Settings, on_empty: Callable[[Table], None], store: StoreWriter, *,
                 pool: AgentPool,
                 agents: AgentFactory = registry_agent, hinter: HintRanker | None = None,
                 on_finished: Callable[[str], None] | None = None) -> None:
        """Open a table: its objects, wired.

        :param name: The table's name.
        :param settings: The server's settings (the options start from them).
        :param on_empty: Called when the last client has left.
        :param store: Writes the games to the server's store.
        :param pool: Where the agents' decisions and the hints are computed.
        :param agents: Makes the agents of empty seats (tests seed them).
        :param hinter: Ranks the legal plays of a ``play`` request (default: :func:`heuristic_hinter`).
        :param on_finished: (Optional) Told a game's id when it was played to its end and its
            record is handed to the store.
        """
        self.name = name
        self.settings = settings
        self.line: Line | None = None
        self.line_started = False
        self._on_empty = on_empty
        self._on_finished = on_finished
        self._store = store
        self._pool = pool
        self.info = TableInfo(table_name=name, player_names=[agent_name(seat) for seat in range(4)])
        self.options = TableOptions(agent=settings.agent, hints=settings.hints, turn_clock=settings.turn_timeout)
        self.social: Social[Peer] = Social()
        self.seats = Seats(name, self.info, settings.grace_period)
        self.spectators = Spectators(settings.max_spectators_per_table, self)
        self.broadcast = Broadcast(self.seats, self.social, self.spectators)
        self.session = GameSession(name, self, store, on_ended=self._game_ended, on_failed=self._game_failed,
                                   on_finished=self._game_stored)
        self.agents = SeatAgents(agents, pool, settings.agent_delay, self.options, self.seats.followed)
        self.hints = Hints(pool, hinter or heuristic_hinter(settings), self.options, name)
        self.clocks = IdleClocks(name, self.info, self.seats, self.broadcast, self.session)
        self.talk = Talk(self.social, self.broadcast, self.session)
        self.lobby = Lobby(name, settings.target_score, info=self.info, options=self.options, seats=self.seats,
                           social=self.social, broadcast=self.broadcast, spectators=self.spectators,
                           agents=self.agents, game=self.session)

    # -- what the table's objects and callers read --------------------------------------------

    @property
    def engine(self) -> GameEngine | None:
        """The engine of the running game, or ``None`` in the lobby."""
        return self.session.engine

    @property
    def round(self) -> Round | None:
        """The round being played, or ``None``."""
        return self.engine.round if self.engine else None

    @property
    def is_running(self) -> bool:
        """Whether a game is being played."""
        return self.session.is_running

    @property
    def peers(self) -> list[Peer | None]:
        """The client at each seat, or ``None`` where an agent plays."""
        return self.seats.peers

    @property
    def clients(self) -> list[Peer]:
        """The clients seated now (connected or within their grace period)."""
        return self.seats.clients

    @property
    def target_score(self) -> int:
        """The score the next game (or the running one) is played to."""
        return self.lobby.target_score

    @target_score.setter
    def target_score(self, score: int) -> None:
        self.lobby.target_score = score

    def knows(self, peer: Peer) -> bool:
        """Whether ``peer`` may come back with its session id (:meth:`Seats.knows`)."""
        return self.seats.knows(peer)

    # -- the socket's commands, each to the object whose job it is -------------------------------

    def sync(self, peer: Peer) -> None:
        """A client speaks the extension: from now on it hears chat, reactions and readiness, and
        its readiness counts. It gets ``lobby_state`` (all listening clients do when it is new),
        ``chat_history`` (the last lines), ``spectators_changed`` and, during a game, ``turn_clocks``."""
        self.lobby.sync(peer)
        peer.send(notification("chat_history", self.talk.history()))
        peer.send(notification("spectators_changed", self.spectators.state(self.peers)))
        if self.is_running:
            peer.send(notification("turn_clocks", self.clocks.clocks_json()))

    def chat(self, peer: Peer, raw: str) -> None:
        """A chat text (:meth:`Talk.chat`)."""
        self.talk.chat(peer, raw)

    def react(self, peer: Peer, reaction: str) -> None:
        """A quick reaction (:meth:`Talk.react`)."""
        self.talk.react(peer, reaction)

    def set_ready(self, peer: Peer, ready: bool) -> None:
        """Whether a client is ready to start (:meth:`Lobby.set_ready`)."""
        self.lobby.set_ready(peer, ready)

    def swap(self, peer: Peer, first: int, second: int) -> None:
        """The host swaps two seats (:meth:`Lobby.swap`)."""
        self.lobby.swap(peer, first, second)

    def set_options(self, peer: Peer, agent: str | None = None, hints: bool | None = None,
                    target_score: int | None = None, spectators: bool | None = None, *,
                    turn_clock: int | None = None, on_leave: str | None = None,
                    newcomers: bool | None = None) -> None:
        """The host changes the table's options (:meth:`Lobby.set_options`)."""
        self.lobby.set_options(peer, agent, hints, target_score, spectators, turn_clock=turn_clock,
                               on_leave=on_leave, newcomers=newcomers)

    def hand_over(self, peer: Peer, seat: int) -> None:
        """The host hands an idle person's seat to its stand-in (:meth:`IdleClocks.hand_over`)."""
        self.clocks.hand_over(peer, seat)

    def take_back(self, peer: Peer) -> None:
        """The person of a handed-over seat acts again (:meth:`IdleClocks.take_back`)."""
        self.clocks.take_back(peer)

    def set_spectator_hands(self, peer: Peer, allow: bool) -> None:
        """A person allows (or not) the spectators to see all four hands; they see them only
        while every person seated allows it (agents do)."""
        self.spectators.set_allow(peer, allow)

    def spectators_changed(self) -> None:
        """``spectators_changed`` to the listening clients and the spectators."""
        self.broadcast.to_listeners("spectators_changed", self.spectators.state(self.peers), spectators=True)

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

    # -- people coming and going -------------------------------------------------------------------

    def join(self, player_name: str, connection: Connection) -> Peer:
        """Seat a new client on the first seat an agent holds; during a game only where the host
        allows newcomers, and first on a seat no person who left may take back. A name never
        gives a seat back: a person who left comes back with their session id (:meth:`reconnect`).

        :raises ProtocolError: ``NAME_TAKEN`` (a seated client's name, or during a game the name of
            a person who left it), ``TABLE_FULL``, or ``GAME_ALREADY_STARTED`` (with
            ``context.spectate``) for a newcomer at a running table closed to newcomers.
        """
        self.seats.check_name(player_name, self.is_running)
        free = self.seats.free()
        seat = self._newcomer_seat(free) if self.is_running else free[0]
        peer = self._new_peer(player_name, seat)
        self.seats.take(peer)
        self.session.replace(seat, peer, peer.session_hash)
        self._connect(peer, connection)
        return peer

    def _newcomer_seat(self, free: list[int]) -> int:
        """The seat of a newcomer to a running game (:meth:`Seats.unclaimed`).

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
        return self.seats.unclaimed(free)

    def reconnect(self, peer: Peer, connection: Connection) -> None:
        """Give a returning client its seat back: inside the grace period, or after it (or after it
        left) if nobody took the seat.

        :raises ProtocolError: ``SESSION_EXPIRED`` if another client took the seat.
        """
        if not self.seats.back(peer) and self.peers[peer.seat] is not peer:
            if self.peers[peer.seat] is not None:
                raise ProtocolError(ErrorCode.SESSION_EXPIRED, "another client took the seat")
            self.seats.retake(peer)
            self.session.replace(peer.seat, peer, peer.session_hash)
        if peer.connection is not None:
            peer.connection.replace()  # one socket per seat: the old one is closed
        self._connect(peer, connection)

    def _new_peer(self, name: str, seat: int) -> Peer:
        return Peer(name, seat, self, self.agents.stand_in(seat), self._pool, self.options.turn_clock,
                    hinter=self.hints.hint, pace=self.settings.agent_delay, watcher=self.clocks)

    def _connect(self, peer: Peer, connection: Connection) -> None:
        """A client is (back) at its seat: the others hear ``player_joined``, it gets its own
        with the whole state."""
        peer.connection = connection
        public: out.SeatEvent = {"player_index": peer.seat, "player_name": peer.name}
        self.broadcast.to_all("player_joined", public, but=peer)
        self.spectators.changed()  # a new person has not allowed all hands (yet)
        peer.send(notification("player_joined", {
            **public, "session_id": peer.session_id, "public_state": self._public_state(peer.joining_public_state()),
            "private_state": peer.joining_private_state(),
            "pending_request": peer.pending_payload, "protocol_version": PROTOCOL_VERSION,
            "options": self.options.to_json(),
        }))

    def _public_state(self, table_state: out.PublicState) -> out.PublicState:
        """``public_state`` for a client joining or a spectator coming: the table's (what every
        seat sees, who passed since the last play), who is away and which seats are handed over."""
        return {**table_state, "away": self.seats.away_json(), "agent_plays_for": self.clocks.handed_over_seats()}

    def drop(self, peer: Peer, connection: Connection) -> None:
        """A client's socket closed without ``leave``: keep the seat for the grace period."""
        if peer.connection is not connection or self.peers[peer.seat] is not peer:
            return  # an old socket of a client that has reconnected, or already left
        peer.connection = None
        self._hold_seat(peer)

    def _hold_seat(self, peer: Peer) -> None:
        """Keep a dropped client's seat for the grace period and tell the others
        (``player_disconnected`` with the seconds until an agent takes the seat)."""
        self.seats.hold(peer, self._unseat)
        self.broadcast.to_all("player_disconnected", {"player_index": peer.seat, "player_name": peer.name,
                                                      "seconds": self.settings.grace_period})

    def leave(self, peer: Peer) -> None:
        """A client leaves for good: an agent takes the seat at once."""
        self.seats.back(peer)
        if self.peers[peer.seat] is peer:
            self._unseat(peer)

    def _unseat(self, peer: Peer) -> None:
        """A person's seat goes to an agent: its game goes on with the agent (or ends, by the
        table's ``on_leave``), everyone hears ``player_left``, and an empty table is told."""
        seat = peer.seat
        agent = self.agents.stand_in(seat)
        self.seats.unseat(peer, agent.name)
        if self.engine is not None and self.options.on_leave == "end" and self.session.started(peer.session_hash):
            self._end_early(seat, peer.name)
        elif self.engine is not None:
            self.session.replace(seat, self.agents.player(agent), None)
        peer.release()
        peer.connection = None  # its socket closes; the departed person keeps no buffer
        self.broadcast.to_all("player_left", {"player_index": seat, "player_name": peer.name,
                                              "host_index": self.info.host_index, "replaced_by_agent": True})
        self.spectators.forget(peer)
        self.lobby.leave(peer)
        if not self.clients:
            self._on_empty(self)

    def _end_early(self, seat: int, name: str) -> None:
        """A person's leaving ends the game (``on_leave`` ``"end"``): it is stored as ended early by
        them, every client hears ``game_ended_early``, and the table goes back to its lobby."""
        if self.session.end_early(seat, name):
            self.broadcast.to_all("game_ended_early", {"player_index": seat, "player_name": name})

    # -- spectators ----------------------------------------------------------------------------

    def spectate(self, connection: Connection) -> Spectator:
        """Admit a spectator: it gets ``spectate_started`` (the public snapshot) and, while all
        hands are open, ``spectator_hands``; the people that listen hear ``spectators_changed``.

        :raises ProtocolError: ``UNAUTHORIZED`` when the table refuses spectators, ``TABLE_FULL``
            beyond its limit of spectators.
        """
        self.spectators.check_admits(self.name)
        spectator = Spectator(connection)
        spectator.send(notification("spectate_started", {
            "table_name": self.name, "public_state": self._public_state(spectator.watching(self.info, self.round)),
            "options": self.options.to_json(), "lobby_state": self.lobby.state(),
            "protocol_version": PROTOCOL_VERSION,
        }))
        self.spectators.add(spectator)
        if self.spectators.hands_open:
            spectator.send(self.spectators.hands_message())
        return spectator

    def unspectate(self, spectator: Spectator) -> None:
        """A spectator left (``leave``) or its socket closed."""
        self.spectators.remove(spectator)

    # -- the game --------------------------------------------------------------------------------

    def start(self, peer: Peer) -> None:
        """Start a game (host only, lobby only); agents take the empty seats.

        :raises ProtocolError: ``NOT_LOBBY_HOST``, ``GAME_ALREADY_STARTED``.
        """
        self.lobby.check_host(peer, "start_game")
        players = self._players()
        rules = RuleSet(target_score=self.target_score)
        self.social.clear()  # readiness is for one start; the clients clear it on game_started
        self.seats.forget_departed()  # who left the lobby has no seat in the game
        starters = [[player.name, player.kind] for player in players]
        options: StartOptions = {**self.options.stored(), "starters": starters}
        engine = GameEngine(players, rules, seed=self.settings.seed, info=self.info,
                            bomb_window=self.settings.bomb_window, keep_rounds=True)
        self.session.begin(engine, str(uuid.uuid4()), now_iso(), options, self._people())
        engine.observe(self.spectators)

    def _players(self) -> list[Player]:
        """The game's players: the clients at their seats, agents at the others (their names
        shown in ``public_state``)."""
        players: list[Player] = [client if client is not None else self.agents.player(self.agents.agent(seat))
                                 for seat, client in enumerate(self.peers)]
        self.info.player_names = [player.name for player in players]
        return players

    def _people(self) -> list[tuple[int, str, str]]:
        """``(seat, name, session hash)`` of every person seated, as the store keeps them."""
        return [(peer.seat, peer.name, peer.session_hash) for peer in self.clients]

    def _game_ended(self) -> None:
        """The game's task ended (played, stopped or failed): the table is a lobby again."""
        self.info.phase = TablePhase.LOBBY
        self.info.is_running = False
        self.info.player_names = [peer.name if peer else agent_name(seat) for seat, peer in enumerate(self.peers)]
        self.seats.forget_departed()  # the game's seats are nobody's now: the lobby is open to every name
        if self.line is not None:
            line = self.line
            self.broadcast.to_all("line_over", {"game_id": line.game_id, "step": line.position.step,
                                                "seat": line.seat})

    def _game_stored(self, game_id: str) -> None:
        """A game was played to its end and its record handed to the store: everyone at the table
        hears ``game_stored`` (its replay and analysis are a click away), and the server is told."""
        self.broadcast.to_all("game_stored", {"game_id": game_id})
        if self._on_finished is not None:
            self._on_finished(game_id)

    def _game_failed(self) -> None:
        """The game failed (logged, its record written as aborted): everyone hears ``UNKNOWN_ERROR``."""
        self.broadcast.error(ErrorCode.UNKNOWN_ERROR)

    # -- the table's life ----------------------------------------------------------------------

    @classmethod
    def for_line(cls, name: str, line: Line, settings: Settings, on_empty: Callable[[Table], None],
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
        self.seats.take(peer)
        self.info.host_index = line.seat
        finished, round_ = line.position.rounds()
        engine = GameEngine(self._players(), line.position.rules, info=self.info,
                            bomb_window=self.settings.bomb_window, keep_rounds=True)
        engine.resume(finished, round_)
        self.session.play_line(engine)
        engine.observe(self.spectators)
        self._connect(peer, connection)
        return peer

    @classmethod
    def restore(cls, running: RunningGame, settings: Settings, on_empty: Callable[[Table], None],
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
            table.seats.take(peer)
        engine = GameEngine(table._players(), rules, seed=running.seed, rng=random.Random(), info=table.info,
                            bomb_window=settings.bomb_window, keep_rounds=True)
        engine.resume(finished, unfinished)
        table.session.resume(engine, running.id, running.started_at, running.options, len(running.entries),
                             lambda cursor: cursor.follow(finished, unfinished), table._people())
        engine.observe(table.spectators)
        for peer in table.clients:
            table._hold_seat(peer)
        return table

    async def suspend(self) -> None:
        """The server stops to start again: keep the table instead of ending it. A running game is
        left in the store as running (its journal is written as it is played; the next start
        rebuilds it, as after a crash), a lobby with people is kept (:meth:`kept_lobby`). Every
        client and spectator hears ``SERVER_DOWN`` with a "back soon" reason; the sockets close
        (the clients come back with their session ids within the grace period)."""
        self.seats.let_go()  # a departed person holds the table: no cycle outlives it
        if not await self.session.suspend() and self.clients:
            name, state = self.name, self.kept_lobby()
            self._store.submit(lambda store: store.running.keep_lobby(name, dict(state)))
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
                "seats": [(peer.seat, peer.name, peer.session_hash) for peer in self.seats.joined]}

    @classmethod
    def reopen(cls, name: str, kept: Mapping[str, object], settings: Settings, on_empty: Callable[[Table], None],
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
        table.options.restore({key: options[key] for key in ("agent", "hints", "turn_clock", "on_leave", "newcomers")})
        table.spectators.allowed = bool(options.get("spectators", True))
        table.target_score = int(as_number(kept["target_score"]))
        for entry in seats:
            if not isinstance(entry, list) or len(entry) != 3:
                raise ValueError(f"a kept seat must be [seat, name, session hash]: {entry!r}")
            seat, player_name, hashed = entry
            peer = table._new_peer(str(player_name), int(as_number(seat)))
            peer.session_hash = str(hashed)
            table.seats.take(peer)
        host = kept.get("host")
        if isinstance(host, int) and table.peers[host] is not None:
            table.info.host_index = host
        for peer in table.clients:
            table._hold_seat(peer)
        return table

    async def close(self, reason: ErrorCode | None = None) -> None:
        """Stop the game (its record is written as aborted) and close every client's socket."""
        self.seats.let_go()  # a departed person holds the table: no cycle outlives it
        await self.session.stop()
        if reason is not None:
            self.broadcast.error(reason)
        for peer in self.clients:
            if peer.connection is not None:
                await peer.connection.close()
        for spectator in self.spectators.take_all():
            if spectator.connection is not None:
                await spectator.connection.close()
