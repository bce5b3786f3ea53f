"""The players' statistics and ratings of the game store (docs/ratings.md, docs/server.md "History API").

Each stored game's seats have a row in ``game_players`` (:mod:`tichu.records.stats`: who played,
what they called and made), filled when the game's record is stored; the ratings
(:mod:`tichu.records.rating`) follow every game that moves them, incrementally, or from scratch
(:meth:`Statistics.rerate`) when older games are imported. A person's accuracy sums their
analysed decisions (``analysis_seats``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from tichu.records.rating import INITIAL, Outcome, apply_outcome, rate_games
from tichu.records.stats import HUMAN, game_stats
from tichu.records.store.database import IMPORT_BATCH, Database, _loads


class Accuracy(TypedDict):
    """A person's accuracy over their analysed games (:meth:`Statistics.player_accuracy`)."""

    games: int
    decisions: int
    mean_loss: float | None


class PlayerStats(TypedDict):
    """A player's statistics summed over their games, and their rating (``GET /api/players/{name}``)."""

    name: str
    kind: str
    games: int
    finished: int
    wins: int
    win_rate: float | None
    rounds: int
    tichu_calls: int
    tichu_made: int
    tichu_success: float | None
    grand_calls: int
    grand_made: int
    grand_success: float | None
    double_victories: int
    points_per_round: float | None
    bombs: int
    left: int
    rating: float
    accuracy: Accuracy


class RankedPlayer(TypedDict):
    """A line of the leaderboard (``GET /api/leaderboard``)."""

    rank: int
    name: str
    kind: str
    rating: float
    games: int
    wins: int
    left: int


class Statistics:
    """The players' rows of the stored games, their statistics and their ratings."""

    def __init__(self, database: Database) -> None:
        """:param database: The store's database."""
        self._db = database

    def add_players(self, record: Mapping[str, object]) -> None:
        """Store the seats of a record just stored (:mod:`tichu.records.stats`)."""
        self._db.executemany(f"INSERT OR REPLACE INTO game_players ({', '.join(_PLAYER_COLUMNS)}) "
                             f"VALUES ({', '.join('?' * len(_PLAYER_COLUMNS))})", _player_rows(record))

    def last_rated(self) -> tuple[str, str] | None:
        """``(started_at, id)`` of the latest game that moved ratings, or ``None``."""
        row = self._db.execute(f"SELECT started_at, id FROM games WHERE {_RATED} "
                               "ORDER BY started_at DESC, id DESC LIMIT 1").fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def rate(self, added: list[Mapping[str, object]], last: tuple[str, str] | None) -> None:
        """Bring the ratings up to date after adding records: incrementally when every new rated
        game comes after the latest one rated before, else from scratch (an import of older games).

        :param added: The records just added (their players' rows stored).
        :param last: :meth:`last_rated` before they were added.
        """
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

    def player_stats(self, key: str) -> PlayerStats | None:
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

    def player_accuracy(self, key: str) -> Accuracy:
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

    def leaderboard(self, limit: int) -> list[RankedPlayer]:
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
        games: dict[str, list[OutcomeRow]] = {}
        for game_id, *row in self._db.execute(
                "SELECT g.id, p.player_key, p.left_game, p.whole_game, g.winner, g.aborted FROM games g "
                f"JOIN game_players p ON p.game_id = g.id WHERE {_RATED} "
                "ORDER BY g.started_at, g.id, p.seat"):
            games.setdefault(str(game_id), []).append((str(row[0]), int(row[1]), int(row[2]), row[3], int(row[4])))
        ratings = rate_games(outcome for rows in games.values() if (outcome := _outcome(rows)) is not None)
        with self._db.transaction():
            self._db.execute("DELETE FROM ratings")
            self._db.executemany("INSERT INTO ratings (player_key, rating) VALUES (?, ?)", sorted(ratings.items()))

    def fill(self) -> None:
        """Fill the players' rows of every stored record, then the ratings from scratch (the
        migration to v4: :func:`fill_players`)."""
        rows = self._db.execute("SELECT record FROM games ORDER BY seq")
        while batch := rows.fetchmany(IMPORT_BATCH):
            for (text,) in batch:
                self.add_players(_loads(text))
        self.rerate()


def fill_players(database: Database, version: int) -> None:
    """What the migration to v4 adds, filled inside its transaction (v3's rows were filled here
    too, as a store at v2 goes through both): the seats of every stored record and the ratings.

    :param database: The database being migrated.
    :param version: The version just reached.
    """
    if version == 4:
        Statistics(database).fill()


#: The columns of ``game_players`` (schema v4), in the order :func:`_player_rows` gives them.
_PLAYER_COLUMNS = ("game_id", "seat", "name", "kind", "player_key", "team", "won", "rounds", "tichu_calls",
                   "tichu_made", "grand_calls", "grand_made", "double_victories", "team_points", "bombs",
                   "left_game", "whole_game")
#: The games that may move ratings: played to the end (tichu.records.stats.is_finished), or left by
#: a person (:func:`_outcome` decides).
_RATED = ("((aborted = 0 AND winner IN (20, 31)) "
          "OR id IN (SELECT game_id FROM game_players WHERE left_game = 1))")


#: A seat's row for :func:`_outcome`: player_key, left_game, whole_game, winner (``NULL`` for a
#: game without one), aborted.
OutcomeRow = tuple[str, int, int, int | None, int]


def _outcome(rows: list[OutcomeRow]) -> Outcome | None:
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
    return keys, winner if winner is not None and rated and not leavers else None, leavers


#: A ``game_players`` row, in the order of :data:`_PLAYER_COLUMNS`.
PlayerRow = tuple[object, ...]


def _player_rows(record: Mapping[str, object]) -> list[PlayerRow]:
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


def _ratio(part: float, whole: float, digits: int = 3) -> float | None:
    return None if not whole else round(part / whole, digits)


def _rating(row: tuple[float] | None) -> float:
    return round(float(row[0]) if row is not None else INITIAL, 1)
