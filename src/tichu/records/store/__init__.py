"""Games in an embedded SQLite database: the server's memory of every game played and running.

:class:`GameStore` is one SQLite file (:mod:`~tichu.records.store.database`: its schema,
migrations and transactions) read and written by four parts, one job each:

- :mod:`~tichu.records.store.archive`: finished games (and games ended early) as their records,
  found by the history's queries, imported and exported;
- :mod:`~tichu.records.store.running`: the journal of each game while it is played and the
  lobbies kept at a stop, for a restart;
- :mod:`~tichu.records.store.statistics`: the players' statistics and ratings;
- :mod:`~tichu.records.store.analyses`: the games' analyses, queued and done.
"""

from __future__ import annotations

from tichu.records.store.analyses import ANALYSIS_STATUSES, Analyses, AnalysisRow
from tichu.records.store.archive import GameSummary
from tichu.records.store.database import CACHE_KIB, IMPORT_BATCH, MIGRATIONS
from tichu.records.store.running import Running, RunningGame
from tichu.records.store.statistics import Accuracy, PlayerStats, RankedPlayer

__all__ = ["ANALYSIS_STATUSES", "CACHE_KIB", "IMPORT_BATCH", "MIGRATIONS", "Accuracy", "AnalysisRow", "GameStore",
           "GameSummary", "PlayerStats", "RankedPlayer", "RunningGame"]


class GameStore(Running, Analyses):
    """Game records, running games, statistics and analyses in a SQLite file (one connection
    for all its parts).

    :ivar path: The database file.
    """
