"""A table's game session: the engine task of one game, its journal in the store and its record.

The :class:`GameSession` starts a game (:meth:`GameSession.begin`) or goes on with one a stop
or a crash left running (:meth:`GameSession.resume`); while it runs it writes who sits where
and every change of a seat's occupant (the record's ``seat_changes``) to the store beside the
journal the engine's observer writes (:class:`~tichu.server.workers.game_journal.GameJournal`);
at its end, or when it is stopped or ended early, it stores the game's record in place of the
journal. A server that stops to start again suspends it: no record, the journal stays.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable, Mapping
from typing import Protocol

from tichu.core.views import TableSource
from tichu.engine.engine import GameEngine
from tichu.engine.player import Player
from tichu.records.journal import JournalCursor
from tichu.records.parts import EndedBy, GameRecord, SeatChange
from tichu.records.record import ended_early, game_record
from tichu.records.stats import HUMAN
from tichu.server.tables.options import StartOptions
from tichu.server.workers.game_journal import GameJournal
from tichu.server.workers.store_writer import StoreWriter

log = logging.getLogger(__name__)

#: Seat changes a game's record keeps at most: beyond them newcomers are refused (the table's
#: join), and a person coming back cancels their own leave instead of adding a change.
MAX_SEAT_CHANGES = 64


class Game(Protocol):
    """What a table's objects ask of its game (a :class:`GameSession`)."""

    @property
    def engine(self) -> GameEngine | None:
        """The engine of the running game, or ``None`` in the lobby."""

    @property
    def is_running(self) -> bool:
        """Whether a game is being played."""


class GameSession:
    """The game of one table while it runs (a table has one session for its life).

    :ivar engine: The engine of the running game, or ``None`` in the lobby.
    :ivar starters: The seats' occupants ``(name, kind)`` when the game started.
    :ivar seat_changes: The record's ``seat_changes`` of the running game.
    """

    def __init__(self, table_name: str, source: TableSource, store: StoreWriter, *,
                 on_ended: Callable[[], None], on_failed: Callable[[], None],
                 on_finished: Callable[[str], None] | None = None) -> None:
        """A session with no game yet.

        :param table_name: The table's name (records and logs).
        :param source: The table's facts and round (the journal's entries are made from them).
        :param store: Writes the journal, the seats and the record.
        :param on_ended: Called when the engine task ended, however (the table goes back to its lobby).
        :param on_failed: Called when the game failed (its record is written as aborted).

        The table (``source``) and its methods ``on_ended``, ``on_failed`` and ``on_finished`` are
        held weakly: the table holds its session, and a closed table must go without a garbage
        collection.
        :param on_finished: (Optional) Told a game's id when it was played to its end and its
            record is handed to the store.
        """
        self.table_name = table_name
        self._source = weakref.ref(source)
        self._store = store
        self._on_ended = weakref.WeakMethod(on_ended)
        self._on_failed = weakref.WeakMethod(on_failed)
        self._on_finished = None if on_finished is None else weakref.WeakMethod(on_finished)
        self.engine: GameEngine | None = None
        self._task: asyncio.Task[None] | None = None
        self._journal: GameJournal | None = None
        self._started_at = ""
        self.starters: list[tuple[str, str]] = []
        self._starting_people: set[str] = set()  # the session hashes of the people who started the game
        self.seat_changes: list[SeatChange] = []
        self._kept_options: dict[str, object] = {}  # what the store keeps beside the running game's journal

    @property
    def is_running(self) -> bool:
        """Whether a game is being played."""
        return self._task is not None and not self._task.done()

    @property
    def game_id(self) -> str | None:
        """The running game's id while its journal is written, else ``None``."""
        return self._journal.game_id if self._journal is not None else None

    def begin(self, engine: GameEngine, game_id: str, started_at: str, options: StartOptions,
              people: list[tuple[int, str, str]]) -> None:
        """Store a new game and run it.

        :param engine: The game's engine, its players seated.
        :param game_id: The game's (and its record's) id.
        :param started_at: When it started (records.md).
        :param options: What the store keeps beside the journal: the table's options and the
            ``starters``.
        :param people: ``(seat, name, session hash)`` of every person seated.
        """
        self.starters = [(player.name, player.kind) for player in engine.players]
        self._starting_people = {hashed for _, _, hashed in people}
        self.seat_changes = []
        self._kept_options = kept = dict(options)
        rules, seed, name = engine.rules, engine.seed, self.table_name
        self._store.submit(lambda store: store.running.begin_game(game_id, name, started_at, seed,
                                                                  rules.to_json(), kept))
        self._run(engine, GameJournal(self._store, game_id, self._table()), started_at, people)

    def resume(self, engine: GameEngine, game_id: str, started_at: str, options: Mapping[str, object], written: int,
               follow: Callable[[JournalCursor], None], people: list[tuple[int, str, str]]) -> None:
        """Go on with a stored game (its engine resumed from the journal's rounds).

        :param options: The options stored beside the journal (with ``starters`` and
            ``seat_changes``, when it has them), as the store read them back.
        :param written: The journal's entries stored already.
        :param follow: Moves the journal's cursor past what the store holds already.
        :param people: ``(seat, name, session hash)`` of every person seated.
        """
        starters = options.get("starters")
        self.starters = [(str(name), str(kind)) for name, kind in starters] if isinstance(starters, list) \
            else [(player.name, player.kind) for player in engine.players]
        changes = options.get("seat_changes")
        self.seat_changes = [read_seat_change(change) for change in changes] if isinstance(changes, list) else []
        self._starting_people = {hashed for seat, name, hashed in people if self.starters[seat] == (name, HUMAN)}
        self._kept_options = {key: value for key, value in options.items() if key != "seat_changes"}
        journal = GameJournal(self._store, game_id, self._table(), written=written)
        follow(journal.cursor)
        self._run(engine, journal, started_at, people)

    def play_line(self, engine: GameEngine) -> None:
        """Play the round a resumed engine holds to its end and stop (another line from a stored
        game's position, docs/server.md): practice, so no journal and no record."""
        self.starters = [(player.name, player.kind) for player in engine.players]
        self._starting_people = set()
        self.seat_changes = []
        self.engine = engine
        self._journal = None
        self._task = asyncio.create_task(self._run_game(engine, engine.play_round), name=f"table {self.table_name}")

    def _run(self, engine: GameEngine, journal: GameJournal, started_at: str,
             people: list[tuple[int, str, str]]) -> None:
        """Run a game (new or resumed) with its journal, storing the people's seats first."""
        self.engine = engine
        self._journal = journal
        engine.observe(journal)
        self._started_at = started_at
        for seat, name, hashed in people:
            self.store_seat(seat, name, hashed)
        self._task = asyncio.create_task(self._run_game(engine, engine.run), name=f"table {self.table_name}")

    async def _run_game(self, engine: GameEngine, play: Callable[[], Awaitable[object]]) -> None:
        """Play (``engine.run``, or ``engine.play_round`` for a line), then write the record (none
        without a journal); a failure is logged and the game's record written as aborted."""
        try:
            await play()
            self.write_record(engine, aborted=False)
        except asyncio.CancelledError:
            raise
        except Exception:  # one table's failure must never reach another table or the server
            log.exception("table %r: the game failed", self.table_name)
            self.write_record(engine, aborted=True)
            _call(self._on_failed)
        finally:
            self.engine = None
            _call(self._on_ended)

    def _table(self) -> TableSource:
        """The table (it lives while its session is used)."""
        source = self._source()
        assert source is not None, "a session outlived its table"
        return source

    def started(self, hashed: str) -> bool:
        """Whether the person of a session (by its hash) was seated when the game started (after a
        restart: a person seated on the seat and under the name they started with)."""
        return hashed in self._starting_people

    def note_change(self, seat: int, player: Player, reason: str) -> None:
        """Remember a change of a seat's occupant during the game, where it happened (the record's
        ``seat_changes``: the round's index and how many of its events came before).

        The record stays bounded whatever the joins (docs/server.md): a change where the seat's
        last one happened (no event between) replaces it, and both go when the seat is back with
        the occupant it had before; beyond :data:`MAX_SEAT_CHANGES` changes a person coming back
        cancels their own leave (the agent's moves between count as theirs).
        """
        engine = self.engine
        if engine is None:
            return
        round_ = engine.round
        index = len(engine.rounds)
        events = len(round_.events) if round_ is not None and not round_.is_over else 0
        change: SeatChange = {"seat": seat, "round": index, "event": events, "name": player.name,
                              "kind": player.kind, "reason": reason}
        self._add_change(change)
        if self._journal is not None:
            game_id, kept = self._journal.game_id, {**self._kept_options, "seat_changes": list(self.seat_changes)}
            self._store.submit(lambda store: store.running.set_running_options(game_id, kept))

    def replace(self, seat: int, player: Player, hashed: str | None) -> None:
        """A seat of the running game changes its occupant: a person joined (``hashed``: the hash
        of its session id) or an agent took a person's place (``None``). The record keeps the
        change (:meth:`note_change`), the engine asks the new player from now on, and the store
        knows who sits there. Nothing happens without a game."""
        engine = self.engine
        if engine is None:
            return
        self.note_change(seat, player, "left" if hashed is None else "joined")
        engine.replace_player(seat, player)
        if hashed is None:
            self.unseat(seat)
        else:
            self.store_seat(seat, player.name, hashed)

    @property
    def changes_full(self) -> bool:
        """Whether the game keeps :data:`MAX_SEAT_CHANGES` seat changes (newcomers are refused)."""
        return len(self.seat_changes) >= MAX_SEAT_CHANGES

    def _add_change(self, change: SeatChange) -> None:
        """Add a seat change to :attr:`seat_changes`, coalesced as :meth:`note_change` says."""
        seat = change["seat"]
        last = next((i for i in range(len(self.seat_changes) - 1, -1, -1) if self.seat_changes[i]["seat"] == seat),
                    None)
        if last is not None:
            previous = self.seat_changes[last]
            back = self._occupant_before(last) == (change["name"], change["kind"])
            if (previous["round"], previous["event"]) == (change["round"], change["event"]):
                del self.seat_changes[last]  # nobody played between: the later change stands alone
                if back:
                    return
            elif back and change["kind"] == HUMAN and self.changes_full:
                del self.seat_changes[last]  # the person's return cancels their own leave
                return
        self.seat_changes.append(change)

    def _occupant_before(self, index: int) -> tuple[str, str]:
        """``(name, kind)`` of a seat's occupant before its change at ``index`` of :attr:`seat_changes`."""
        seat = self.seat_changes[index]["seat"]
        for earlier in reversed(self.seat_changes[:index]):
            if earlier["seat"] == seat:
                return earlier["name"], earlier["kind"]
        return self.starters[seat] if seat < len(self.starters) else ("", "")

    def store_seat(self, seat: int, name: str, hashed: str) -> None:
        """Store who sits at a seat of the running game (by the hash of the session id)."""
        if self._journal is not None:
            game_id = self._journal.game_id
            self._store.submit(lambda store: store.running.seat_person(game_id, seat, name, hashed))

    def unseat(self, seat: int) -> None:
        """Store that no person sits at a seat of the running game any more."""
        if self._journal is not None:
            game_id = self._journal.game_id
            self._store.submit(lambda store: store.running.unseat_person(game_id, seat))

    def end_early(self, seat: int, name: str) -> bool:
        """A person's leaving ends the game: it is stored as ended early by them and stopped.

        :returns: Whether a game ran (and was ended).
        """
        engine, task = self.engine, self._task
        if engine is None or task is None:
            return False
        self.write_record(engine, aborted=True, ended_by={"seat": seat, "name": name})
        task.cancel()
        return True

    async def suspend(self) -> bool:
        """The server stops to start again: stop the running game without a record (its journal
        stays in the store for the next start).

        :returns: Whether a game was running.
        """
        task = self._task
        if task is None or task.done():
            return False
        self._journal = None  # not ended: no record, the journal stays for the next start
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return True

    async def stop(self) -> None:
        """Stop the running game, if any; its record is written as aborted."""
        task, engine = self._task, self.engine
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            if engine is not None:
                self.write_record(engine, aborted=True)

    def write_record(self, engine: GameEngine, *, aborted: bool, ended_by: EndedBy | None = None) -> None:
        """Store the game's record in place of its journal; an aborted game's record has its
        finished rounds, the unfinished one as far as it went, ``winner`` null and ``aborted``.
        ``players`` are the seats' occupants when the game started and ``seat_changes`` every
        change since (docs/server.md); ``ended_by`` names the person whose leaving ended it."""
        journal = self._journal
        if journal is None:
            return  # written already
        game_id = journal.game_id
        record: GameRecord | None = None
        try:
            players = self.starters or [(player.name, player.kind) for player in engine.players]
            record = game_record(engine.rounds, engine.rules, players, record_id=game_id, seed=engine.seed,
                                 started_at=self._started_at)
            record["table"] = self.table_name
            if self.seat_changes:
                record["seat_changes"] = list(self.seat_changes)
            if aborted:
                ended_early(record, engine.round)
            if ended_by is not None:
                record["ended_by"] = ended_by
        finally:  # a record that cannot be built still ends the game's journal: it must not come back
            self._journal = None
            self._store.submit(lambda store: store.running.end_game(game_id, None if record is None else dict(record)))
        finished = None if self._on_finished is None else self._on_finished()
        if record is not None and not aborted and finished is not None:
            finished(game_id)


def _call(method: weakref.WeakMethod[Callable[[], None]]) -> None:
    """Call a method held weakly, if its object still lives."""
    bound = method()
    if bound is not None:
        bound()


def read_seat_change(value: object) -> SeatChange:
    """A seat change as the store read it back (JSON), its kinds checked.

    :raises TypeError: For a value that is no seat change.
    """
    if isinstance(value, Mapping):
        seat, round_, event = value.get("seat"), value.get("round"), value.get("event")
        name, kind, reason = value.get("name"), value.get("kind"), value.get("reason")
        if isinstance(seat, int) and isinstance(round_, int) and isinstance(event, int) \
                and isinstance(name, str) and isinstance(kind, str) and isinstance(reason, str):
            return {"seat": seat, "round": round_, "event": event, "name": name, "kind": kind, "reason": reason}
    raise TypeError(f"not a seat change: {value!r}")
