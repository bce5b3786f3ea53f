"""The game store's database: one SQLite file, its schema and migrations, and its transactions.

One file (``data/tichu.sqlite3`` at a server), no other service. The database runs in WAL
mode with ``synchronous=NORMAL``: a commit is a sequential append to the write-ahead log
(kind to an SD card), and a power cut loses at most the last commits, never the file. Its
page cache is bounded (:data:`CACHE_KIB`): the operating system caches the file as well. The
schema is versioned with ``PRAGMA user_version`` and brought up to date by the migrations in
:data:`MIGRATIONS` when a store is opened.

A store is used from one thread at a time (the server gives it a writer thread of its own,
so that the event loop never waits on the disk). Each part of the store
(:class:`~tichu.records.store.GameStore`) holds the one :class:`Database` and reads and writes
through it: its statements, and its transactions, which nest (a part's transaction inside a
:meth:`Database.batch` or another part's joins it).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Self

from tichu.records.parts import JsonObject

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


class Database:
    """The SQLite file every part of the store reads and writes (:class:`~tichu.records.store.GameStore`).

    :ivar path: The database file.
    """

    def __init__(self, path: str | Path, after_migration: AfterMigration | None = None) -> None:
        """Open (or create) the database and bring its schema up to date.

        :param path: The database file; its folder is created if missing.
        :param after_migration: (Optional) Python run after each migration step, inside its
            transaction, with the version reached: what fills the rows a step adds
            (:func:`~tichu.records.store.statistics.fill_players`, wired by the store). Without it
            a file older than v4 would keep its players' rows empty.
        :raises ValueError: For a database written by a newer version of this program.
        """
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._depth = 0  # open transactions of :meth:`transaction` (a batch holds the others)
        self._after_migration = after_migration
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        self._migrate()

    def execute(self, sql: str, parameters: Sequence[object] = ()) -> sqlite3.Cursor:
        """Run one statement (in the transaction open, if any)."""
        return self._db.execute(sql, parameters)

    def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> sqlite3.Cursor:
        """Run one statement per row."""
        return self._db.executemany(sql, rows)

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
                self._fill(target + 1)
                self._db.execute(f"PRAGMA user_version = {target + 1}")
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    def _fill(self, version: int) -> None:
        """Run :attr:`_after_migration` for ``version`` inside the migration's transaction (its
        own transactions join it)."""
        if self._after_migration is None:
            return
        self._depth += 1
        try:
            self._after_migration(self, version)
        finally:
            self._depth -= 1

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction (one commit) around several writes, e.g. whatever a writer thread
        found queued; the writes' own transactions join it."""
        with self.transaction():
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
    def transaction(self) -> Iterator[None]:
        """One transaction around a part's writes that must stand or fall together; inside a
        :meth:`batch` (or another transaction) it joins that one."""
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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


#: What the store runs after a migration step (:class:`Database`'s ``after_migration``).
AfterMigration = Callable[[Database, int], None]


def _dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _loads(text: str) -> JsonObject:
    """A JSON object the store wrote (a record, a journal entry, a game's rules or options, a
    lobby), read back as open JSON: the store checks only that it is an object, its readers
    check the rest (:func:`~tichu.records.record.replay`, :mod:`tichu.records.stats`).

    :raises ValueError: For text that is no JSON object.
    """
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"not a JSON object: {text:.80}")
    return data

