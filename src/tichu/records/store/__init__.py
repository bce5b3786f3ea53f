"""Games in an embedded SQLite database: the server's memory of every game played and running.

One file (``data/tichu.sqlite3`` at a server), no other service. Finished games (and games
ended early, ``aborted``) are stored as their records. A running game is stored as its
journal (:mod:`tichu.records.journal`: the deals and the actions accepted so far, one row
each, appended as they happen) with the people at its seats, whose session ids are kept only
as hashes (a session id is a bearer token); when the game ends, its record replaces all that
in one transaction. The database runs in WAL
mode with ``synchronous=NORMAL``: a commit is a sequential append to the write-ahead log
(kind to an SD card), and a power cut loses at most the last commits, never the file. Its
page cache is bounded (:data:`CACHE_KIB`): the operating system caches the file as well. The
schema is versioned with ``PRAGMA user_version`` and brought up to date by the migrations in
:data:`MIGRATIONS` when a store is opened. A record is stored whole as its JSON
(records.md); the columns beside it are for finding games. Adding a record whose id is
stored already adds nothing, so an import can be repeated.

A store is used from one thread at a time (the server gives it a writer thread of its own,
so that the event loop never waits on the disk).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tichu.records.journal import Entry
from tichu.records.rating import INITIAL, Outcome, apply_outcome, rate_games
from tichu.records.record import read_numbered_records, write_records
from tichu.records.stats import HUMAN, game_stats, player_key

#: Records added per transaction by an import: few commits (each one a write to the card),
#: and a bounded memory whatever the file's size.
IMPORT_BATCH = 500
#: The connection's page cache in KiB (SQLite's default is 2,000). The cache fills as the file
#: grows and queries touch its pages, and never gives memory back: a server that stores games
#: for weeks held a little more every minute until it reached the bound (docs/benchmarks.md,
#: the soak). Reads beyond it come from the operating system's cache of the file.
CACHE_KIB = 512
#: The schema, one script per version: ``MIGRATIONS[n]`` brings version ``n`` to ``n + 1``.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        started_at TEXT NOT NULL,
        table_name TEXT,
        winner INTEGER,
        aborted INTEGER NOT NULL DEFAULT 0,
        record TEXT NOT NULL
    );
    CREATE INDEX games_started_at ON games (started_at);
    """,
    """
    CREATE TABLE running_games (
        id TEXT PRIMARY KEY,
        table_name TEXT NOT NULL,
        started_at TEXT NOT NULL,
        seed INTEGER,
        rules TEXT NOT NULL,
        options TEXT NOT NULL
    );
    CREATE TABLE running_actions (
        game_id TEXT NOT NULL REFERENCES running_games (id),
        seq INTEGER NOT NULL,
        entry TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE running_seats (
        game_id TEXT NOT NULL REFERENCES running_games (id),
        seat INTEGER NOT NULL,
        player_name TEXT NOT NULL,
        session_hash TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    """,
    # v3: each game's seats with their statistics (tichu.records.stats), for fast filters by
    # player and per-player sums, and the ratings (tichu.records.rating); filled from the stored
    # records by :func:`_backfill_players` after v4's script (which adds columns it fills).
    """
    CREATE TABLE game_players (
        game_id TEXT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        player_key TEXT NOT NULL,
        team INTEGER NOT NULL,
        won INTEGER,
        rounds INTEGER NOT NULL,
        tichu_calls INTEGER NOT NULL,
        tichu_made INTEGER NOT NULL,
        grand_calls INTEGER NOT NULL,
        grand_made INTEGER NOT NULL,
        double_victories INTEGER NOT NULL,
        team_points INTEGER NOT NULL,
        bombs INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX game_players_key ON game_players (player_key);
    CREATE INDEX game_players_name ON game_players (name);
    CREATE TABLE ratings (
        player_key TEXT PRIMARY KEY,
        rating REAL NOT NULL
    ) WITHOUT ROWID;
    """,
    # v4: whether a seat's player left the game for good, and whether it held the seat through the
    # whole game (docs/ratings.md, "Who played what"); the rows are computed again from the records
    # and the ratings from scratch by :func:`_backfill_players`, in the same transaction.
    """
    ALTER TABLE game_players ADD COLUMN left_game INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE game_players ADD COLUMN whole_game INTEGER NOT NULL DEFAULT 1;
    CREATE INDEX game_players_kind ON game_players (kind);
    """,
    # v5: the tables in their lobby when the server stopped (names, seats by session hash, host,
    # options), to open them again when it starts (docs/server.md, "Restarts").
    """
    CREATE TABLE lobbies (
        table_name TEXT PRIMARY KEY,
        state TEXT NOT NULL
    ) WITHOUT ROWID;
    """,
    # v6: the analyses of stored games (docs/server.md, "Game analysis"): one row per game that was
    # asked for, with its status and, once done, its document (tichu-analysis/1); and per analysed
    # seat its judged decisions and their summed loss, for the players' accuracy.
    """
    CREATE TABLE analyses (
        game_id TEXT NOT NULL UNIQUE REFERENCES games (id),
        status TEXT NOT NULL,
        requested_at TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT,
        decisions INTEGER,
        reason TEXT,
        document TEXT
    );
    CREATE INDEX analyses_status ON analyses (status);
    CREATE TABLE analysis_seats (
        game_id TEXT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        decisions INTEGER NOT NULL,
        total_loss REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    """,
)
#: An analysis's statuses as stored (``none``, no row, is not stored; docs/server.md).
ANALYSIS_STATUSES = ("queued", "running", "done", "failed")


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
    :ivar entries: Its journal, in order, up to the first missing entry.
    :ivar complete: Whether no entry is missing (a write lost to a full queue or a failed
        write leaves a gap; what follows a gap is not in :attr:`entries`).
    :ivar seats: Per seat held by a person: ``(name, session hash)``.
    """

    id: str
    table_name: str
    started_at: str
    seed: int | None
    rules: dict[str, Any]
    options: dict[str, Any]
    entries: list[Entry]
    complete: bool
    seats: dict[int, tuple[str, str]]


@dataclass(frozen=True)
class AnalysisRow:
    """A game's analysis as stored.

    :ivar status: One of :data:`ANALYSIS_STATUSES`.
    :ivar decisions: The decision points to judge, once known (from ``running`` on).
    :ivar reason: Why it failed (``failed``), else ``None``.
    :ivar document: The analysis document's JSON text (``done``), else ``None``; kept as text,
        so that it is served without being parsed again.
    """

    status: str
    decisions: int | None
    reason: str | None
    document: str | None


class GameStore:
    """Game records in a SQLite file.

    :ivar path: The database file.
    """

    def __init__(self, path: str | Path) -> None:
        """Open (or create) the store and bring its schema up to date.

        :param path: The database file; its folder is created if missing.
        :raises ValueError: For a database written by a newer version of this program.
        """
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._depth = 0  # open transactions of :meth:`_transaction` (a batch holds the others)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        self._migrate()

    @property
    def version(self) -> int:
        """The schema version of the file."""
        row = self._db.execute("PRAGMA user_version").fetchone()
        return int(row[0])

    def _migrate(self) -> None:
        version = self.version
        if version > len(MIGRATIONS):
            raise ValueError(f"{self.path}: schema version {version} is newer than this program's "
                             f"({len(MIGRATIONS)})")
        for target in range(version, len(MIGRATIONS)):
            try:  # one transaction per step: a failed step leaves the file as it was
                self._db.executescript(f"BEGIN IMMEDIATE; {MIGRATIONS[target]}")
                if target + 1 in _AFTER_MIGRATION:
                    _AFTER_MIGRATION[target + 1](self)
                self._db.execute(f"PRAGMA user_version = {target + 1}")
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    def add(self, record: dict[str, Any]) -> bool:
        """Store a game's record (records.md) unless a record with its id is stored.

        :param record: The record; it needs an ``id`` and a ``started_at``.
        :returns: Whether it was added.
        :raises ValueError: For a record without an id or start time.
        """
        return self.add_all([record]) == 1

    def add_all(self, records: Iterable[dict[str, Any]]) -> int:
        """Store records in one transaction (one commit, however many), skipping stored ids.

        :param records: The records.
        :returns: How many were added.
        :raises ValueError: For a record without an id or start time; nothing is added then.
        """
        rows = [(record, _row(record)) for record in records]
        with self._transaction():
            last = self._last_rated()
            added = [record for record, row in rows if self._insert(record, row)]
            self._rate(added, last)
        return len(added)

    def _insert(self, record: dict[str, Any], row: tuple[str, str, str | None, int | None, int, str]) -> bool:
        """Insert one record and its seats (:mod:`tichu.records.stats`) unless its id is stored."""
        cursor = self._db.execute("INSERT OR IGNORE INTO games (id, started_at, table_name, winner, aborted, record) "
                                  "VALUES (?, ?, ?, ?, ?, ?)", row)
        if cursor.rowcount != 1:
            return False
        self._db.executemany(f"INSERT OR REPLACE INTO game_players ({', '.join(_PLAYER_COLUMNS)}) "
                             f"VALUES ({', '.join('?' * len(_PLAYER_COLUMNS))})", _player_rows(record))
        return True

    def _last_rated(self) -> tuple[str, str] | None:
        """``(started_at, id)`` of the latest game that moved ratings, or ``None``."""
        row = self._db.execute(f"SELECT started_at, id FROM games WHERE {_RATED} "
                               "ORDER BY started_at DESC, id DESC LIMIT 1").fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def _rate(self, added: list[dict[str, Any]], last: tuple[str, str] | None) -> None:
        """Bring the ratings up to date after adding records: incrementally when every new rated
        game comes after the latest one rated before, else from scratch (an import of older games)."""
        outcomes = {str(record["id"]): outcome for record in added
                    if (outcome := self._outcome(str(record["id"]))) is not None}
        new = sorted((str(record["started_at"]), str(record["id"])) for record in added
                     if str(record["id"]) in outcomes)
        if not new:
            return
        if last is not None and new[0] <= last:
            self.rerate()
            return
        involved = {key for seats, _, _ in outcomes.values() for key in seats}
        ratings = {str(key): float(value) for key, value in self._db.execute(
            f"SELECT player_key, rating FROM ratings WHERE player_key IN ({', '.join('?' * len(involved))})",
            sorted(involved))}
        for _, game_id in new:
            apply_outcome(ratings, outcomes[game_id])
        self._db.executemany("INSERT OR REPLACE INTO ratings (player_key, rating) VALUES (?, ?)",
                             sorted(ratings.items()))

    def _outcome(self, game_id: str) -> Outcome | None:
        """What a stored game does to the ratings (docs/ratings.md), or ``None`` if nothing."""
        rows = self._db.execute(
            "SELECT p.player_key, p.left_game, p.whole_game, g.winner, g.aborted FROM game_players p "
            "JOIN games g ON g.id = p.game_id WHERE p.game_id = ? ORDER BY p.seat", (game_id,)).fetchall()
        return _outcome(rows)

    # -- history: games, players, ratings (docs/server.md, "History API") ---------------------

    def list_games(self, limit: int, offset: int, player: str | None = None, since: str | None = None,
                   until: str | None = None, *, people: bool = False) -> tuple[list[dict[str, Any]], int]:
        """Stored games, newest first (``started_at``, then the order of storing), a page of them.

        :param limit: Games per page.
        :param offset: Games skipped.
        :param player: (Optional) Only games with a seat of this name or player key.
        :param since: (Optional) Only games started at or after this time (records.md's format).
        :param until: (Optional) Only games started before this time.
        :param people: Only games with at least one person.
        :returns: The page's summaries (id, started_at, table_name, players, score, winner,
            rounds, aborted, seat_changes, ended_by) and how many games match in all.
        """
        where, params = [], []  # type: list[str], list[Any]
        if people:
            where.append(f"id IN (SELECT game_id FROM game_players WHERE kind = '{HUMAN}')")
        if player is not None:
            where.append("id IN (SELECT game_id FROM game_players WHERE player_key = ? OR name = ?)")
            params += [player, player]
        if since is not None:
            where.append("started_at >= ?")
            params.append(since)
        if until is not None:
            where.append("started_at < ?")
            params.append(until)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        total = int(self._db.execute(f"SELECT COUNT(*) FROM games {clause}", params).fetchone()[0])
        games = [_summary(_loads(text), table_name, bool(aborted)) for text, table_name, aborted in self._db.execute(
            f"SELECT record, table_name, aborted FROM games {clause} ORDER BY started_at DESC, seq DESC "
            "LIMIT ? OFFSET ?", [*params, limit, offset])]
        return games, total

    def player_stats(self, key: str) -> dict[str, Any] | None:
        """A player's statistics summed over their games, and their rating (docs/ratings.md).

        :param key: The player key (a person's name, an agent's kind such as ``agent:random``).
        :returns: The statistics, or ``None`` for a key in no stored game.
        """
        row = self._db.execute(
            "SELECT COUNT(*), COUNT(won), TOTAL(won), TOTAL(rounds), TOTAL(tichu_calls), TOTAL(tichu_made), "
            "TOTAL(grand_calls), TOTAL(grand_made), TOTAL(double_victories), TOTAL(team_points), TOTAL(bombs), "
            "MIN(kind), TOTAL(left_game) FROM game_players WHERE player_key = ?", (key,)).fetchone()
        if not row[0]:
            return None
        games, finished, wins, rounds, tichu, tichu_made, grand, grand_made, doubles, points, bombs, kind, left = row
        rating = self._db.execute("SELECT rating FROM ratings WHERE player_key = ?", (key,)).fetchone()
        return {"name": key, "kind": kind, "games": int(games), "finished": int(finished), "wins": int(wins),
                "win_rate": _ratio(wins, finished), "rounds": int(rounds),
                "tichu_calls": int(tichu), "tichu_made": int(tichu_made), "tichu_success": _ratio(tichu_made, tichu),
                "grand_calls": int(grand), "grand_made": int(grand_made), "grand_success": _ratio(grand_made, grand),
                "double_victories": int(doubles), "points_per_round": _ratio(points, rounds, 1),
                "bombs": int(bombs), "left": int(left), "rating": _rating(rating),
                "accuracy": self.player_accuracy(key)}

    def player_accuracy(self, key: str) -> dict[str, Any]:
        """A person's accuracy over their analysed games: the decisions judged at their seats and
        the mean loss per decision (expected points; docs/agents.md). Agents' keys get none.

        :param key: The player key (a person's name).
        :returns: ``{"games": n, "decisions": n, "mean_loss": x}`` (``mean_loss`` ``None`` without
            a judged decision).
        """
        games, decisions, loss = self._db.execute(
            "SELECT COUNT(DISTINCT a.game_id), TOTAL(a.decisions), TOTAL(a.total_loss) FROM analysis_seats a "
            "JOIN game_players p ON p.game_id = a.game_id AND p.seat = a.seat "
            f"WHERE p.player_key = ? AND p.kind = '{HUMAN}' AND a.decisions > 0", (key,)).fetchone()
        return {"games": int(games), "decisions": int(decisions), "mean_loss": _ratio(loss, decisions, 2)}

    def leaderboard(self, limit: int) -> list[dict[str, Any]]:
        """The rated players, best first (rating, then player key): name, kind, rating, games (the
        finished games played to the end and those left), wins, left."""
        return [{"rank": rank, "name": key, "kind": kind, "rating": _rating((rating,)), "games": int(games + left),
                 "wins": int(wins), "left": int(left)}
                for rank, (key, rating, kind, games, wins, left) in enumerate(self._db.execute(
                    "SELECT r.player_key, r.rating, MIN(p.kind), COUNT(p.won), TOTAL(p.won), TOTAL(p.left_game) "
                    "FROM ratings r "
                    "JOIN game_players p ON p.player_key = r.player_key GROUP BY r.player_key "
                    "ORDER BY r.rating DESC, r.player_key LIMIT ?", (limit,)), start=1)]

    def rerate(self) -> None:
        """Recompute every rating from scratch: the games that move ratings in the order of
        ``started_at``, then id (docs/ratings.md)."""
        games: dict[str, list[tuple[Any, ...]]] = {}
        for game_id, *row in self._db.execute(
                "SELECT g.id, p.player_key, p.left_game, p.whole_game, g.winner, g.aborted FROM games g "
                f"JOIN game_players p ON p.game_id = g.id WHERE {_RATED} "
                "ORDER BY g.started_at, g.id, p.seat"):
            games.setdefault(str(game_id), []).append(tuple(row))
        ratings = rate_games(outcome for rows in games.values() if (outcome := _outcome(rows)) is not None)
        with self._transaction():
            self._db.execute("DELETE FROM ratings")
            self._db.executemany("INSERT INTO ratings (player_key, rating) VALUES (?, ?)", sorted(ratings.items()))

    def get(self, record_id: str) -> dict[str, Any] | None:
        """The record with this id, or ``None``."""
        row = self._db.execute("SELECT record FROM games WHERE id = ?", (record_id,)).fetchone()
        return None if row is None else _loads(row[0])

    def __len__(self) -> int:
        row = self._db.execute("SELECT COUNT(*) FROM games").fetchone()
        return int(row[0])

    def records(self) -> Iterator[dict[str, Any]]:
        """Every stored record, in the order they were stored."""
        for (text,) in self._db.execute("SELECT record FROM games ORDER BY seq"):
            yield _loads(text)

    def export_jsonl(self, path: str | Path) -> int:
        """Write every record to a JSON Lines file (replacing it).

        :returns: How many were written.
        """
        return write_records(path, self.records())

    def import_jsonl(self, path: str | Path, on_unreadable: Callable[[int, str], None] | None = None
                     ) -> tuple[int, int]:
        """Add the records of a JSON Lines file, :data:`IMPORT_BATCH` to a transaction; stored
        ids are skipped, so importing a file twice adds nothing the second time (also a file
        that repeats an id: the first line with it counts). The records keep the file's order.

        :param path: The file.
        :param on_unreadable: (Optional) Told of each line that is no record (not JSON, not an
            object, no ``id`` or ``started_at``), which is then skipped; without it such a line
            stops the import with ``ValueError`` (the batches before it are stored).
        :returns: How many records were added, and how many were stored already.
        """
        added = read = 0
        batch: list[dict[str, Any]] = []
        for number, record in read_numbered_records(path, on_unreadable):
            try:
                _row(record)
            except ValueError as error:
                if on_unreadable is None:
                    raise ValueError(f"{path}:{number}: {error}") from error
                on_unreadable(number, str(error))
                continue
            batch.append(record)
            if len(batch) == IMPORT_BATCH:
                added += self.add_all(batch)
                read += len(batch)
                batch = []
        added += self.add_all(batch)
        read += len(batch)
        return added, read - added

    def running_count(self) -> int:
        """How many games are stored as running (journals, not records: an export leaves them out)."""
        row = self._db.execute("SELECT COUNT(*) FROM running_games").fetchone()
        return int(row[0])

    # -- running games ------------------------------------------------------------------------

    def begin_game(self, game_id: str, table_name: str, started_at: str, seed: int | None,
                   rules: dict[str, Any], options: dict[str, Any] | None = None) -> None:
        """Store a game that starts (its journal is empty), with the table's options."""
        self._db.execute("INSERT INTO running_games (id, table_name, started_at, seed, rules, options) "
                         "VALUES (?, ?, ?, ?, ?, ?)",
                         (game_id, table_name, started_at, seed, _dumps(rules), _dumps(options or {})))

    def set_running_options(self, game_id: str, options: dict[str, Any]) -> None:
        """Replace what is kept beside a running game's journal (its options, who began it and the
        seat changes since: what a restart needs for the record)."""
        self._db.execute("UPDATE running_games SET options = ? WHERE id = ?", (_dumps(options), game_id))

    def append_entries(self, game_id: str, first: int, entries: Iterable[Entry]) -> None:
        """Append journal entries of a running game; ``first`` is the number of the first one
        (entries are numbered from 0 in the order they happened).

        :raises sqlite3.IntegrityError: For a number stored already (nothing is overwritten).
        """
        rows = [(game_id, first + offset, _dumps(entry)) for offset, entry in enumerate(entries)]
        with self._transaction():
            self._db.executemany("INSERT INTO running_actions (game_id, seq, entry) VALUES (?, ?, ?)", rows)

    def seat_person(self, game_id: str, seat: int, player_name: str, session_hash: str) -> None:
        """A person sits at a seat of a running game (with the hash of their session id)."""
        self._db.execute("INSERT OR REPLACE INTO running_seats (game_id, seat, player_name, session_hash) "
                         "VALUES (?, ?, ?, ?)", (game_id, seat, player_name, session_hash))

    def unseat_person(self, game_id: str, seat: int) -> None:
        """An agent took a seat of a running game."""
        self._db.execute("DELETE FROM running_seats WHERE game_id = ? AND seat = ?", (game_id, seat))

    # -- analyses (docs/server.md, "Game analysis") ---------------------------------------------

    def analysis(self, game_id: str) -> AnalysisRow | None:
        """A game's analysis as stored, or ``None`` for a game never queued for one.

        :param game_id: The game's id.
        """
        row = self._db.execute("SELECT status, decisions, reason, document FROM analyses WHERE game_id = ?",
                               (game_id,)).fetchone()
        return None if row is None else AnalysisRow(str(row[0]), row[1], row[2], row[3])

    def has_game(self, game_id: str) -> bool:
        """Whether a record with this id is stored."""
        return self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is not None

    def queue_analysis(self, game_id: str, at: str) -> None:
        """A game's analysis is queued (again, after a failure: what it had is forgotten).

        :param game_id: The game's id (a stored record's).
        :param at: When it was asked for (records.md's time format).
        """
        with self._transaction():
            self._db.execute("DELETE FROM analysis_seats WHERE game_id = ?", (game_id,))
            self._db.execute("INSERT OR REPLACE INTO analyses (game_id, status, requested_at) VALUES (?, 'queued', ?)",
                             (game_id, at))

    def start_analysis(self, game_id: str, decisions: int, at: str) -> None:
        """A game's analysis runs: ``decisions`` points to judge."""
        self._set_analysis(game_id, at, status="running", started_at=at, decisions=decisions)

    def finish_analysis(self, game_id: str, document: dict[str, Any], at: str) -> None:
        """A game's analysis is done: store its document and, per seat, the decisions judged and
        their summed loss (for :meth:`player_accuracy`)."""
        seats: dict[int, tuple[int, float]] = {}
        for judgement in document.get("judgements") or []:
            seat, loss = judgement.get("seat"), judgement.get("loss")
            if isinstance(seat, int) and isinstance(loss, int | float):
                count, total = seats.get(seat, (0, 0.0))
                seats[seat] = (count + 1, total + float(loss))
        with self._transaction():
            self._set_analysis(game_id, at, status="done", finished_at=at, reason=None, document=_dumps(document))
            self._db.execute("DELETE FROM analysis_seats WHERE game_id = ?", (game_id,))
            self._db.executemany("INSERT INTO analysis_seats (game_id, seat, decisions, total_loss) "
                                 "VALUES (?, ?, ?, ?)",
                                 [(game_id, seat, count, total) for seat, (count, total) in sorted(seats.items())])

    def fail_analysis(self, game_id: str, reason: str, at: str) -> None:
        """A game's analysis failed (e.g. its record does not replay): keep why."""
        self._set_analysis(game_id, at, status="failed", finished_at=at, reason=reason)

    def _set_analysis(self, game_id: str, at: str, **columns: Any) -> None:
        """Set columns of a game's analysis row (made, requested ``at``, if its queued row is missing)."""
        names = list(columns)
        self._db.execute(f"INSERT INTO analyses (game_id, requested_at, {', '.join(names)}) "
                         f"VALUES (?, ?, {', '.join('?' * len(names))}) ON CONFLICT (game_id) DO UPDATE SET "
                         f"{', '.join(f'{name} = excluded.{name}' for name in names)}",
                         (game_id, at, *columns.values()))

    def forget_analysis(self, game_id: str) -> None:
        """A game's analysis is no longer queued (its status is ``none`` again)."""
        with self._transaction():
            self._db.execute("DELETE FROM analysis_seats WHERE game_id = ?", (game_id,))
            self._db.execute("DELETE FROM analyses WHERE game_id = ?", (game_id,))

    def pending_analyses(self) -> list[str]:
        """The games whose analysis is queued or was running (a stop came first), oldest request first."""
        return [str(game_id) for (game_id,) in self._db.execute(
            "SELECT game_id FROM analyses WHERE status IN ('queued', 'running') ORDER BY requested_at, rowid")]

    def keep_lobby(self, table_name: str, state: dict[str, Any]) -> None:
        """Keep a table that is in its lobby while the server stops (its seats, host, options)."""
        self._db.execute("INSERT OR REPLACE INTO lobbies (table_name, state) VALUES (?, ?)",
                         (table_name, _dumps(state)))

    def take_lobbies(self) -> list[tuple[str, dict[str, Any]]]:
        """The lobbies kept at the last stop, by table name, and forget them (they are opened
        once)."""
        with self._transaction():
            found = [(str(name), _loads(state)) for name, state in
                     self._db.execute("SELECT table_name, state FROM lobbies ORDER BY table_name").fetchall()]
            self._db.execute("DELETE FROM lobbies")
        return found

    def end_game(self, game_id: str, record: dict[str, Any] | None) -> None:
        """A running game ended: store its record (if any) and forget its journal and seats,
        in one transaction."""
        with self._transaction():
            if record is not None:
                last = self._last_rated()
                if self._insert(record, _row(record)):
                    self._rate([record], last)
            self._db.execute("DELETE FROM running_actions WHERE game_id = ?", (game_id,))
            self._db.execute("DELETE FROM running_seats WHERE game_id = ?", (game_id,))
            self._db.execute("DELETE FROM running_games WHERE id = ?", (game_id,))

    def running_games(self) -> list[RunningGame]:
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

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction (one commit) around several writes, e.g. whatever a writer thread
        found queued; the writes' own transactions join it."""
        with self._transaction():
            yield

    @contextlib.contextmanager
    def attempt(self) -> Iterator[None]:
        """A write inside a :meth:`batch` that is undone alone if it fails (a savepoint)."""
        self._db.execute("SAVEPOINT attempt")
        try:
            yield
        except BaseException:
            if self._db.in_transaction:  # SQLite itself rolls back all after some faults (a full disk)
                self._db.execute("ROLLBACK TO attempt")
                self._db.execute("RELEASE attempt")
            raise
        self._db.execute("RELEASE attempt")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        if self._depth:  # within a batch: its commit is the one
            yield
            return
        self._depth += 1
        try:
            self._db.execute("BEGIN")
            try:
                yield
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # also after a failed COMMIT: never stay inside
                    self._db.execute("ROLLBACK")
                raise
        finally:
            self._depth -= 1

    def close(self) -> None:
        """Close the database file."""
        self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


#: The columns of ``game_players`` (schema v4), in the order :func:`_player_rows` gives them.
_PLAYER_COLUMNS = ("game_id", "seat", "name", "kind", "player_key", "team", "won", "rounds", "tichu_calls",
                   "tichu_made", "grand_calls", "grand_made", "double_victories", "team_points", "bombs",
                   "left_game", "whole_game")
#: The games that may move ratings: played to the end (tichu.records.stats.is_finished), or left by
#: a person (:func:`_outcome` decides).
_RATED = ("((aborted = 0 AND winner IN (20, 31)) "
          "OR id IN (SELECT game_id FROM game_players WHERE left_game = 1))")


def _outcome(rows: list[tuple[Any, ...]]) -> Outcome | None:
    """A game's :data:`~tichu.records.rating.Outcome` from its four ``(player_key, left_game,
    whole_game, winner, aborted)`` rows: its leavers' loss if a person left it, the game itself if
    it was played to its end by the four who began it, else nothing."""
    if len(rows) != 4:
        return None
    keys = [str(row[0]) for row in rows]
    leavers = [seat for seat, row in enumerate(rows) if row[1]]
    winner, aborted = rows[0][3], rows[0][4]
    rated = not aborted and winner in (20, 31) and all(row[2] for row in rows)
    if not leavers and not rated:
        return None
    return keys, int(winner) if rated and not leavers else None, leavers


def _player_rows(record: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The ``game_players`` rows of a record; none for a record whose players or rounds cannot
    be read (it is stored, but counts for nobody)."""
    try:
        seats = game_stats(record)
    except ValueError:
        return []
    return [(record["id"], seat.seat, seat.name, seat.kind, seat.key, seat.team,
             None if seat.won is None else int(seat.won), seat.rounds, seat.tichu_calls, seat.tichu_made,
             seat.grand_calls, seat.grand_made, seat.double_victories, seat.team_points, seat.bombs,
             int(seat.left), int(seat.whole))
            for seat in seats]


def _summary(record: dict[str, Any], table_name: str | None, aborted: bool) -> dict[str, Any]:
    """A game's line in the history (docs/server.md, ``GET /api/games``)."""
    players: list[Any] = record["players"] if isinstance(record.get("players"), list) else []
    rounds: list[Any] = record["rounds"] if isinstance(record.get("rounds"), list) else []
    return {"id": record.get("id"), "started_at": record.get("started_at"), "table_name": table_name,
            "players": [{"seat": seat, "name": str(player.get("name", "")), "kind": str(player.get("kind", "")),
                         "key": player_key(str(player.get("name", "")), str(player.get("kind", "")))}
                        for seat, player in enumerate(players) if isinstance(player, dict)],
            "score": record.get("score"), "winner": record.get("winner"), "rounds": len(rounds), "aborted": aborted,
            "seat_changes": record.get("seat_changes") or [], "ended_by": record.get("ended_by")}


def _ratio(part: float, whole: float, digits: int = 3) -> float | None:
    return None if not whole else round(part / whole, digits)


def _rating(row: tuple[Any, ...] | None) -> float:
    return round(float(row[0]) if row is not None else INITIAL, 1)


def _backfill_players(store: GameStore) -> None:
    """Migration to v4 (v3's rows were filled here too, as a store at v2 goes through both): the
    seats of every stored record, then the ratings from scratch."""
    rows = store._db.execute("SELECT record FROM games ORDER BY seq")
    while batch := rows.fetchmany(IMPORT_BATCH):
        for (text,) in batch:
            store._db.executemany(f"INSERT OR REPLACE INTO game_players ({', '.join(_PLAYER_COLUMNS)}) "
                                  f"VALUES ({', '.join('?' * len(_PLAYER_COLUMNS))})", _player_rows(_loads(text)))
    store._depth += 1  # inside the migration's transaction
    try:
        store.rerate()
    finally:
        store._depth -= 1


#: Python run after a migration's script, inside its transaction, by the version it reaches.
_AFTER_MIGRATION: dict[int, Callable[[GameStore], None]] = {4: _backfill_players}


def _row(record: dict[str, Any]) -> tuple[str, str, str | None, int | None, int, str]:
    record_id, started_at = record.get("id"), record.get("started_at")
    if not isinstance(record_id, str) or not record_id or not isinstance(started_at, str):
        raise ValueError("a stored record needs an id and a start time (records.md)")
    table = record.get("table")
    winner = record.get("winner")
    return (record_id, started_at, table if isinstance(table, str) else None,
            winner if isinstance(winner, int) else None, 1 if record.get("aborted") else 0,
            _dumps(record))


def _dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _loads(text: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(text)
    return record
