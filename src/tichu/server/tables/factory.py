"""The :class:`GameFactory`: opens tables on first join, finds sessions, closes empty tables,
and rebuilds the tables whose games were running when the server stopped."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence

from tichu.core.ruleset import RuleSet
from tichu.records.journal import JournalFault, replay_journal
from tichu.records.parts import GameRecord
from tichu.records.record import ended_early, game_record
from tichu.records.store import RunningGame
from tichu.server.codes import ErrorCode
from tichu.server.config import Settings
from tichu.server.guard.limits import OpeningWindow
from tichu.server.guard.memory import release_memory
from tichu.server.tables.agent_seat import AgentFactory, registry_agent
from tichu.server.tables.hints import HintRanker, heuristic_hinter
from tichu.server.tables.lines import PendingLines
from tichu.server.tables.peer import Peer
from tichu.server.tables.spectators import Spectator
from tichu.server.tables.table import Table
from tichu.server.wire.connection import Connection
from tichu.server.wire.protocol import ProtocolError, agent_name
from tichu.server.workers.agent_pool import AgentPool
from tichu.server.workers.store_writer import StoreWriter, session_hash

log = logging.getLogger(__name__)

#: Seconds without any table after which the server gives memory back (:mod:`tichu.server.guard.memory`).
IDLE_CLEANUP_SECONDS = 5.0


class GameFactory:
    """All tables of the server, by name, and the clients' sessions (by the hashes of their ids).

    :ivar tables: Open tables by name.
    """

    def __init__(self, settings: Settings, store: StoreWriter, pool: AgentPool, *,
                 agents: AgentFactory = registry_agent,
                 hinters: Callable[[Settings], HintRanker] = heuristic_hinter,
                 on_finished: Callable[[str], None] | None = None) -> None:
        """Start without tables.

        :param settings: The server's settings.
        :param store: Writes the tables' games to the server's store.
        :param pool: Where the agents' decisions are computed, for every table.
        :param agents: Makes the agents of empty seats, for every table.
        :param hinters: Makes each table's hint ranker.
        :param on_finished: (Optional) Told the id of every game played to its end, once its record
            is handed to the store (``TICHU_ANALYSIS=all`` queues its analysis).
        """
        self.settings = settings
        self._store = store
        self._agents = agents
        self._pool = pool
        self._hinters = hinters
        self._on_finished = on_finished
        self.tables: dict[str, Table] = {}
        self._sessions: dict[str, tuple[Table, Peer]] = {}
        self._closing: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._idle_cleanup: asyncio.TimerHandle | None = None
        self._openings = OpeningWindow(settings.tables_per_minute)
        self.lines = PendingLines()

    def join(self, table_name: str, player_name: str, connection: Connection,
             address: str | None = None) -> tuple[Table, Peer]:
        """Seat a client at a table, opening the table if it does not exist.

        :param table_name: The table's name.
        :param player_name: The client's name.
        :param connection: The client's connection.
        :param address: The client's address (for the limit of tables it opens per minute); ``None``
            for a client exempt from it.
        :returns: The table and the client's seat.
        :raises ProtocolError: ``NAME_TAKEN`` or ``TABLE_FULL``; ``SERVER_BUSY`` for a new table
            beyond ``max_tables``, or beyond ``tables_per_minute`` for the address.
        """
        table = self.tables.get(table_name)
        if table is None:
            if len(self.tables) >= self.settings.max_tables:
                raise ProtocolError(ErrorCode.SERVER_BUSY, "too many tables are open")
            if address is not None and not self._openings.allow(address):
                raise ProtocolError(ErrorCode.SERVER_BUSY, "too many tables opened from this address")
            line = self.lines.take(table_name)
            if line is not None:
                table = self.tables[table_name] = Table.for_line(
                    table_name, line, self.settings, self._table_empty, self._store, pool=self._pool,
                    agents=self._agents, hinter=self._hinters(self.settings))
            else:
                table = self.tables[table_name] = Table(
                    table_name, self.settings, self._table_empty, self._store, pool=self._pool, agents=self._agents,
                    hinter=self._hinters(self.settings), on_finished=self._on_finished)
            log.info("table %r opened", table_name)
        self._keep_open(table)
        peer = table.join_line(player_name, connection) if table.line is not None and not table.line_started \
            else table.join(player_name, connection)
        self._forget_sessions(table)
        self._sessions[peer.session_hash] = (table, peer)
        log.info("table %r: %r joined at seat %d", table_name, player_name, peer.seat)
        return table, peer

    def spectate(self, table_name: str, connection: Connection) -> tuple[Table, Spectator]:
        """Admit a spectator to an open table (it does not open one, nor keep one open).

        :raises ProtocolError: ``TABLE_NOT_FOUND``; ``SERVER_BUSY`` beyond ``max_spectators`` in
            all; the table's refusals (:meth:`Table.spectate`).
        """
        table = self.tables.get(table_name)
        if table is None:
            raise ProtocolError(ErrorCode.TABLE_NOT_FOUND, "no such table", table_name=table_name)
        if sum(len(open_table.spectators) for open_table in self.tables.values()) >= self.settings.max_spectators:
            raise ProtocolError(ErrorCode.SERVER_BUSY, "too many spectators on this server")
        spectator = table.spectate(connection)
        log.info("table %r: a spectator came (%d watching)", table_name, len(table.spectators))
        return table, spectator

    def reconnect(self, session_id: str, connection: Connection) -> tuple[Table, Peer]:
        """Give a client with a known session its seat back.

        :raises ProtocolError: ``SESSION_NOT_FOUND`` for an unknown or expired session (or one whose
            person may not come back: :meth:`Table.knows`), ``SESSION_EXPIRED`` if another client
            took the seat.
        """
        found = self._sessions.get(session_hash(session_id))
        if found is None or self.tables.get(found[0].name) is not found[0] or not found[0].knows(found[1]):
            raise ProtocolError(ErrorCode.SESSION_NOT_FOUND, session_id=session_id)
        table, peer = found
        peer.session_id = session_id  # a seat rebuilt after a restart knew only the hash
        self._keep_open(table)
        table.reconnect(peer, connection)
        self._forget_sessions(table)
        log.info("table %r: %r reconnected at seat %d", table.name, peer.name, peer.seat)
        return table, peer

    def _forget_sessions(self, table: Table) -> None:
        """Forget the sessions of a table's people who may not come back (:meth:`Table.knows`): after
        each join and return at most eight a table (four seated, four who left), whatever the
        joins; those a game's start or end let go wait for the table's next join or its close."""
        for key in [key for key, (owner, peer) in self._sessions.items() if owner is table and not table.knows(peer)]:
            del self._sessions[key]

    def restore(self, games: list[RunningGame]) -> None:
        """Rebuild the tables of games that were running when the server stopped
        (:meth:`Table.restore`, newest game first); their people have the grace period to come
        back. A game that cannot go on — a table taken by a newer game, a journal with a gap
        or one the rules refuse, any failure — is stored as aborted, with its rounds as far as
        they replay, and the others go on."""
        for running in games:
            try:
                if running.table_name in self.tables:
                    self._abort_stored(running, "a newer game of its table goes on")
                    continue
                if not running.complete:
                    self._abort_stored(running, f"entry {len(running.entries)} of its journal is missing")
                    continue
                table = Table.restore(running, self.settings, self._table_empty, self._store, pool=self._pool,
                                      agents=self._agents, hinter=self._hinters(self.settings),
                                      on_finished=self._on_finished)
            except Exception as error:  # one game's failure must not stop the server (nor the other games)
                self._abort_stored(running, str(error) if isinstance(error, JournalFault) else repr(error))
                continue
            self.tables[table.name] = table
            for peer in table.clients:
                self._sessions[peer.session_hash] = (table, peer)
            if not table.clients:
                self._table_empty(table)
            log.info("table %r: game %s goes on after a restart (%d people away)", table.name, running.id,
                     len(table.clients))

    def reopen_lobbies(self, lobbies: Sequence[tuple[str, Mapping[str, object]]]) -> None:
        """Open the tables kept in their lobby at the last stop (:meth:`Table.reopen`); their
        people have the grace period to come back. A kept lobby this program cannot read is
        logged and left out; a table a rebuilt game holds already keeps its game."""
        for name, kept in lobbies:
            if name in self.tables:
                continue
            try:
                table = Table.reopen(name, kept, self.settings, self._table_empty, self._store, pool=self._pool,
                                     agents=self._agents, hinter=self._hinters(self.settings),
                                     on_finished=self._on_finished)
            except (KeyError, TypeError, ValueError, IndexError) as error:
                log.error("table %r: its lobby cannot be opened again (%r)", name, error)
                continue
            self.tables[name] = table
            for peer in table.clients:
                self._sessions[peer.session_hash] = (table, peer)
            if not table.clients:
                self._table_empty(table)
            log.info("table %r: its lobby is open again after a restart (%d people away)", name, len(table.clients))

    def _abort_stored(self, running: RunningGame, reason: str) -> None:
        """Store a running game that cannot go on as aborted: its rounds as far as the rules
        replay its journal (or, if even that fails, end it without a record)."""
        log.error("table %r: game %s cannot go on after the restart (%s); stored as aborted", running.table_name,
                  running.id, reason)
        record: GameRecord | None = None
        try:
            rules = RuleSet.from_json(running.rules)
            rebuilt = replay_journal(rules, running.entries)
            kind = str(running.options.get("agent", self.settings.agent))
            players = [(running.seats[seat][0], "human") if seat in running.seats
                       else (agent_name(seat), self._agents(kind, agent_name(seat)).kind) for seat in range(4)]
            record = game_record(rebuilt.finished, rules, players, record_id=running.id, seed=running.seed,
                                 started_at=running.started_at)
            record["table"] = running.table_name
            ended_early(record, rebuilt.unfinished)
        except Exception:
            log.exception("table %r: game %s has no record", running.table_name, running.id)
            record = None
        stored = None if record is None else dict(record)
        self._store.submit(lambda store: store.running.end_game(running.id, stored))

    def _keep_open(self, table: Table) -> None:
        if self._idle_cleanup is not None:
            self._idle_cleanup.cancel()
            self._idle_cleanup = None
        timer = self._closing.pop(table.name, None)
        if timer is not None:
            timer.cancel()

    def _table_empty(self, table: Table) -> None:
        """The last client left: close the table after the grace period unless someone comes."""
        loop = asyncio.get_running_loop()
        self._closing[table.name] = loop.call_later(self.settings.grace_period, self._close_later, table)

    def _close_later(self, table: Table) -> None:
        self._closing.pop(table.name, None)
        current = self.tables.get(table.name)
        if current is not table or current is None or current.clients:
            return
        task = asyncio.create_task(self.close_table(current))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close_table(self, table: Table, reason: ErrorCode | None = None) -> None:
        """Close a table: stop its game (writing its record) and forget its sessions."""
        if self.tables.get(table.name) is table:
            del self.tables[table.name]
        for key in [key for key, (owner, _) in self._sessions.items() if owner is table]:
            del self._sessions[key]
        await table.close(reason)
        log.info("table %r closed", table.name)
        if not self.tables and self._idle_cleanup is None:
            loop = asyncio.get_running_loop()
            self._idle_cleanup = loop.call_later(IDLE_CLEANUP_SECONDS, self._clean_up_when_idle)

    def _clean_up_when_idle(self) -> None:
        """No table for a while: give memory back (the agent pool's workers exit, a full
        collection, free heap to the system)."""
        self._idle_cleanup = None
        if not self.tables:
            self._pool.release_workers()
            release_memory()

    async def shutdown(self) -> None:
        """The server stops (SIGTERM, SIGINT): keep every table for the next start
        (:meth:`Table.suspend`: running games stay in the store to be rebuilt, lobbies with people
        are kept), tell every client ``SERVER_DOWN`` ("back soon") and close the sockets."""
        for timer in self._closing.values():
            timer.cancel()
        self._closing.clear()
        if self._idle_cleanup is not None:
            self._idle_cleanup.cancel()
            self._idle_cleanup = None
        tables = list(self.tables.values())
        self.tables.clear()
        self._sessions.clear()
        results = await asyncio.gather(*(table.suspend() for table in tables), return_exceptions=True)
        for table, result in zip(tables, results, strict=True):
            if isinstance(result, BaseException):
                log.error("table %r: not kept for the restart (%r)", table.name, result)
