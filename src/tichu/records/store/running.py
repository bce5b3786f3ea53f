"""Running games in the game store: each game's journal while it is played, and the lobbies a
stop keeps.

A running game is stored as its journal (:mod:`tichu.records.journal`: the deals and the actions
accepted so far, one row each, appended as they happen) with the people at its seats, whose
session ids are kept only as hashes (a session id is a bearer token); when the game ends, its
record replaces all that in one transaction (:meth:`Running.end_game`, through the
:class:`~tichu.records.store.archive.Archive`). A server that stops
keeps its tables in their lobby here too, to open them again at the next start.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from tichu.records.journal import Entry
from tichu.records.parts import JsonObject
from tichu.records.store.archive import Archive
from tichu.records.store.database import Database, _dumps, _loads


@dataclass(frozen=True)
class RunningGame:
    """A game that was running when the server stopped, as stored.

    :ivar id: The game's (and its future record's) id.
    :ivar table_name: The table it is played at.
    :ivar started_at: When it started (records.md).
    :ivar seed: The seed of its shuffles, or ``None``.
    :ivar rules: The record's ``rules`` object.
    :ivar options: The table's options when the game started (agent kind, hints, ...), and who
        began it (``starters``) and the seat changes since (``seat_changes``; docs/server.md).

    ``rules`` and ``options`` are open JSON as read back: the tables check them when they open
    the game again.
    :ivar entries: Its journal, in order, up to the first missing entry.
    :ivar complete: Whether no entry is missing (a write lost to a full queue or a failed
        write leaves a gap; what follows a gap is not in :attr:`entries`).
    :ivar seats: Per seat held by a person: ``(name, session hash)``.
    """

    id: str
    table_name: str
    started_at: str
    seed: int | None
    rules: JsonObject
    options: JsonObject
    entries: list[Entry]
    complete: bool
    seats: dict[int, tuple[str, str]]


class Running:
    """The games being played (their journals and seats) and the lobbies kept at a stop."""

    def __init__(self, database: Database, archive: Archive) -> None:
        """:param database: The store's database.
        :param archive: Where a game's record goes when it ends.
        """
        self._db = database
        self._archive = archive

    def count(self) -> int:
        """How many games are stored as running (journals, not records: an export leaves them out)."""
        row = self._db.execute("SELECT COUNT(*) FROM running_games").fetchone()
        return int(row[0])

    def begin_game(self, game_id: str, table_name: str, started_at: str, seed: int | None,
                   rules: Mapping[str, object], options: Mapping[str, object] | None = None) -> None:
        """Store a game that starts (its journal is empty), with the table's options."""
        self._db.execute("INSERT INTO running_games (id, table_name, started_at, seed, rules, options) "
                         "VALUES (?, ?, ?, ?, ?, ?)",
                         (game_id, table_name, started_at, seed, _dumps(rules), _dumps(options or {})))

    def set_running_options(self, game_id: str, options: Mapping[str, object]) -> None:
        """Replace what is kept beside a running game's journal (its options, who began it and the
        seat changes since: what a restart needs for the record)."""
        self._db.execute("UPDATE running_games SET options = ? WHERE id = ?", (_dumps(options), game_id))

    def append_entries(self, game_id: str, first: int, entries: Iterable[Entry]) -> None:
        """Append journal entries of a running game; ``first`` is the number of the first one
        (entries are numbered from 0 in the order they happened).

        :raises sqlite3.IntegrityError: For a number stored already (nothing is overwritten).
        """
        rows = [(game_id, first + offset, _dumps(entry)) for offset, entry in enumerate(entries)]
        with self._db.transaction():
            self._db.executemany("INSERT INTO running_actions (game_id, seq, entry) VALUES (?, ?, ?)", rows)

    def seat_person(self, game_id: str, seat: int, player_name: str, session_hash: str) -> None:
        """A person sits at a seat of a running game (with the hash of their session id)."""
        self._db.execute("INSERT OR REPLACE INTO running_seats (game_id, seat, player_name, session_hash) "
                         "VALUES (?, ?, ?, ?)", (game_id, seat, player_name, session_hash))

    def unseat_person(self, game_id: str, seat: int) -> None:
        """An agent took a seat of a running game."""
        self._db.execute("DELETE FROM running_seats WHERE game_id = ? AND seat = ?", (game_id, seat))

    def keep_lobby(self, table_name: str, state: Mapping[str, object]) -> None:
        """Keep a table that is in its lobby while the server stops (its seats, host, options)."""
        self._db.execute("INSERT OR REPLACE INTO lobbies (table_name, state) VALUES (?, ?)",
                         (table_name, _dumps(state)))

    def take_lobbies(self) -> list[tuple[str, JsonObject]]:
        """The lobbies kept at the last stop, by table name, and forget them (they are opened
        once); each state is open JSON as read back, which the tables check."""
        with self._db.transaction():
            found = [(str(name), _loads(state)) for name, state in
                     self._db.execute("SELECT table_name, state FROM lobbies ORDER BY table_name").fetchall()]
            self._db.execute("DELETE FROM lobbies")
        return found

    def end_game(self, game_id: str, record: Mapping[str, object] | None) -> None:
        """A running game ended: store its record (if any) and forget its journal and seats,
        in one transaction."""
        with self._db.transaction():
            if record is not None:
                self._archive.add(record)
            self._db.execute("DELETE FROM running_actions WHERE game_id = ?", (game_id,))
            self._db.execute("DELETE FROM running_seats WHERE game_id = ?", (game_id,))
            self._db.execute("DELETE FROM running_games WHERE id = ?", (game_id,))

    def games(self) -> list[RunningGame]:
        """Every game stored as running (a server that stopped without ending them), newest first."""
        games = []
        for game_id, table_name, started_at, seed, rules, options in self._db.execute(
                "SELECT id, table_name, started_at, seed, rules, options FROM running_games "
                "ORDER BY started_at DESC, id DESC").fetchall():
            entries: list[Entry] = []
            complete = True
            for seq, text in self._db.execute(
                    "SELECT seq, entry FROM running_actions WHERE game_id = ? ORDER BY seq", (game_id,)):
                if seq != len(entries):
                    complete = False
                    break
                entries.append(_loads(text))
            seats = {int(seat): (str(name), str(session_hash)) for seat, name, session_hash in self._db.execute(
                "SELECT seat, player_name, session_hash FROM running_seats WHERE game_id = ?", (game_id,))}
            games.append(RunningGame(game_id, table_name, started_at, seed, _loads(rules), _loads(options), entries,
                                     complete, seats))
        return games
