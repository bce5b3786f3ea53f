"""Games in an embedded SQLite database: the server's memory of every game played and running.

:class:`GameStore` is one SQLite file (:mod:`~tichu.records.store.database`: its schema,
migrations and transactions) read and written by four parts, one object each, every one holding
the same :class:`~tichu.records.store.database.Database` (and what it needs of another part) and
wired here; a caller uses the part it needs (``store.archive.get(game_id)``):

- :mod:`~tichu.records.store.archive`: finished games (and games ended early) as their records,
  found by the history's queries, imported and exported;
- :mod:`~tichu.records.store.running`: the journal of each game while it is played and the
  lobbies kept at a stop, for a restart;
- :mod:`~tichu.records.store.statistics`: the players' statistics and ratings;
- :mod:`~tichu.records.store.analyses`: the games' analyses, queued and done.
"""

from __future__ import annotations

from pathlib import Path
from typing import Self

from tichu.records.store.analyses import ANALYSIS_STATUSES, Analyses, AnalysisRow
from tichu.records.store.archive import Archive, GameSummary
from tichu.records.store.database import CACHE_KIB, IMPORT_BATCH, MIGRATIONS, Database
from tichu.records.store.running import Running, RunningGame
from tichu.records.store.statistics import Accuracy, PlayerStats, RankedPlayer, Statistics, fill_players

__all__ = ["ANALYSIS_STATUSES", "CACHE_KIB", "IMPORT_BATCH", "MIGRATIONS", "PARTS", "Accuracy", "Analyses",
           "AnalysisRow", "Archive", "Database", "GameStore", "GameSummary", "PlayerStats", "RankedPlayer", "Running",
           "RunningGame", "Statistics"]

#: The classes of the store's parts (what a write to the store may call).
PARTS = (Running, Archive, Statistics, Analyses)


class GameStore:
    """Game records, running games, statistics and analyses in a SQLite file (one connection
    for all its parts).

    :ivar database: The file, its schema and transactions (a batch of writes to any part is
        one ``store.database.batch()``).
    :ivar statistics: The players' statistics and ratings.
    :ivar archive: The records of the games played.
    :ivar running: The games being played and the lobbies kept at a stop.
    :ivar analyses: The games' analyses.
    """

    def __init__(self, path: str | Path) -> None:
        """Open (or create) the store's file and bring its schema up to date.

        :param path: The database file; its folder is created if missing.
        :raises ValueError: For a database written by a newer version of this program.
        """
        self.database = Database(path, after_migration=fill_players)
        self.statistics = Statistics(self.database)
        self.archive = Archive(self.database, self.statistics)
        self.running = Running(self.database, self.archive)
        self.analyses = Analyses(self.database)

    @property
    def path(self) -> Path:
        """The database file."""
        return self.database.path

    def close(self) -> None:
        """Close the database file."""
        self.database.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
