"""Game analyses in the game store (docs/server.md, "Game analysis"): per game that was asked
for, its status and, once done, its document (tichu-analysis/1); per analysed seat its judged
decisions and their summed loss (read by the players' accuracy)."""

from __future__ import annotations

from dataclasses import dataclass

from tichu.records.parts import AnalysisDocument
from tichu.records.store.database import Database, _dumps

#: An analysis's statuses as stored (``none``, no row, is not stored; docs/server.md).
ANALYSIS_STATUSES = ("queued", "running", "done", "failed")


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


class Analyses:
    """The analyses' queue and results."""

    def __init__(self, database: Database) -> None:
        """:param database: The store's database."""
        self._db = database

    def analysis(self, game_id: str) -> AnalysisRow | None:
        """A game's analysis as stored, or ``None`` for a game never queued for one.

        :param game_id: The game's id.
        """
        row = self._db.execute("SELECT status, decisions, reason, document FROM analyses WHERE game_id = ?",
                               (game_id,)).fetchone()
        return None if row is None else AnalysisRow(str(row[0]), row[1], row[2], row[3])

    def queue_analysis(self, game_id: str, at: str) -> None:
        """A game's analysis is queued (again, after a failure: what it had is forgotten).

        :param game_id: The game's id (a stored record's).
        :param at: When it was asked for (records.md's time format).
        """
        with self._db.transaction():
            self._db.execute("DELETE FROM analysis_seats WHERE game_id = ?", (game_id,))
            self._db.execute("INSERT OR REPLACE INTO analyses (game_id, status, requested_at) VALUES (?, 'queued', ?)",
                             (game_id, at))

    def start_analysis(self, game_id: str, decisions: int, at: str) -> None:
        """A game's analysis runs: ``decisions`` points to judge."""
        self._set_analysis(game_id, at, status="running", started_at=at, decisions=decisions)

    def finish_analysis(self, game_id: str, document: AnalysisDocument, at: str) -> None:
        """A game's analysis is done: store its document and, per seat, the decisions judged and
        their summed loss (for
        :meth:`~tichu.records.store.statistics.Statistics.player_accuracy`)."""
        seats: dict[int, tuple[int, float]] = {}
        for judgement in document["judgements"]:
            count, total = seats.get(judgement["seat"], (0, 0.0))
            seats[judgement["seat"]] = (count + 1, total + judgement["loss"])
        with self._db.transaction():
            self._set_analysis(game_id, at, status="done", finished_at=at, reason=None, document=_dumps(document))
            self._db.execute("DELETE FROM analysis_seats WHERE game_id = ?", (game_id,))
            self._db.executemany("INSERT INTO analysis_seats (game_id, seat, decisions, total_loss) "
                                 "VALUES (?, ?, ?, ?)",
                                 [(game_id, seat, count, total) for seat, (count, total) in sorted(seats.items())])

    def fail_analysis(self, game_id: str, reason: str, at: str) -> None:
        """A game's analysis failed (e.g. its record does not replay): keep why."""
        self._set_analysis(game_id, at, status="failed", finished_at=at, reason=reason)

    def _set_analysis(self, game_id: str, at: str, **columns: str | int | None) -> None:
        """Set columns of a game's analysis row (made, requested ``at``, if its queued row is missing)."""
        names = list(columns)
        self._db.execute(f"INSERT INTO analyses (game_id, requested_at, {', '.join(names)}) "
                         f"VALUES (?, ?, {', '.join('?' * len(names))}) ON CONFLICT (game_id) DO UPDATE SET "
                         f"{', '.join(f'{name} = excluded.{name}' for name in names)}",
                         (game_id, at, *columns.values()))

    def forget_analysis(self, game_id: str) -> None:
        """A game's analysis is no longer queued (its status is ``none`` again)."""
        with self._db.transaction():
            self._db.execute("DELETE FROM analysis_seats WHERE game_id = ?", (game_id,))
            self._db.execute("DELETE FROM analyses WHERE game_id = ?", (game_id,))

    def pending_analyses(self) -> list[str]:
        """The games whose analysis is queued or was running (a stop came first), oldest request first."""
        return [str(game_id) for (game_id,) in self._db.execute(
            "SELECT game_id FROM analyses WHERE status IN ('queued', 'running') ORDER BY requested_at, rowid")]
