"""The archive of the game store: finished games (and games ended early) as their records.

A record is stored whole as its JSON (records.md); the columns beside it are for finding games
(the history's pages, by player, by time). Adding a record whose id is stored already adds
nothing, so an import can be repeated. Storing a record fills its players' statistics and
moves the ratings (:class:`~tichu.records.store.statistics.Statistics`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TypedDict

from tichu.records.parts import EndedBy, JsonObject, SeatChange
from tichu.records.record import json_list, json_object, read_numbered_records, unfinished_points, write_records
from tichu.records.stats import HUMAN, player_key
from tichu.records.store.database import IMPORT_BATCH, Database, _dumps, _loads
from tichu.records.store.statistics import Statistics


class SummaryPlayer(TypedDict):
    """A seat of a game's summary."""

    seat: int
    name: str
    kind: str
    key: str


class Unfinished(TypedDict):
    """The round an aborted game ended in: its index and the card points each team had taken in
    it (``[team 20, team 31]``)."""

    round: int
    points: list[int]


class GameSummary(TypedDict):
    """A game's line in the history (docs/server.md, ``GET /api/games``); ``score``,
    ``winner``, ``seat_changes`` and ``ended_by`` as the record has them (records.md);
    ``unfinished`` the round an aborted game ended in, or ``None``."""

    id: str
    started_at: str
    table_name: str | None
    players: list[SummaryPlayer]
    score: list[int] | None
    winner: int | None
    rounds: int
    aborted: bool
    seat_changes: list[SeatChange]
    ended_by: EndedBy | None
    unfinished: Unfinished | None


class Archive:
    """The stored records of finished games."""

    def __init__(self, database: Database, statistics: Statistics) -> None:
        """:param database: The store's database.
        :param statistics: Told of every record stored (its players' rows, the ratings).
        """
        self._db = database
        self._statistics = statistics

    def add(self, record: Mapping[str, object]) -> bool:
        """Store a game's record (records.md) unless a record with its id is stored.

        :param record: The record (a :class:`~tichu.records.parts.GameRecord`, or one read back
            from a file and not checked yet); it needs an ``id`` and a ``started_at``.
        :returns: Whether it was added.
        :raises ValueError: For a record without an id or start time.
        """
        return self.add_all([record]) == 1

    def add_all(self, records: Iterable[Mapping[str, object]]) -> int:
        """Store records in one transaction (one commit, however many), skipping stored ids.

        :param records: The records.
        :returns: How many were added.
        :raises ValueError: For a record without an id or start time; nothing is added then.
        """
        rows = [(record, _row(record)) for record in records]
        with self._db.transaction():
            last = self._statistics.last_rated()
            added = [record for record, row in rows if self._insert(record, row)]
            self._statistics.rate(added, last)
        return len(added)

    def _insert(self, record: Mapping[str, object], row: GameRow) -> bool:
        """Insert one record and its seats (:mod:`tichu.records.stats`) unless its id is stored."""
        cursor = self._db.execute("INSERT OR IGNORE INTO games (id, started_at, table_name, winner, aborted, record) "
                                  "VALUES (?, ?, ?, ?, ?, ?)", row)
        if cursor.rowcount != 1:
            return False
        self._statistics.add_players(record)
        return True

    def list_games(self, limit: int, offset: int, player: str | None = None, since: str | None = None,
                   until: str | None = None, *, people: bool = False) -> tuple[list[GameSummary], int]:
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
        where: list[str] = []
        params: list[object] = []
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

    def get(self, record_id: str) -> JsonObject | None:
        """The record with this id, or ``None``; open JSON, as any record read back (its readers,
        :func:`~tichu.records.record.replay` and the like, check it)."""
        row = self._db.execute("SELECT record FROM games WHERE id = ?", (record_id,)).fetchone()
        return None if row is None else _loads(row[0])

    def record_text(self, record_id: str) -> str | None:
        """The record with this id as the JSON text stored, or ``None`` (for a reader that parses
        it elsewhere: the server's replay processes)."""
        row = self._db.execute("SELECT record FROM games WHERE id = ?", (record_id,)).fetchone()
        return None if row is None else str(row[0])

    def has_game(self, game_id: str) -> bool:
        """Whether a record with this id is stored."""
        return self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is not None

    def __len__(self) -> int:
        row = self._db.execute("SELECT COUNT(*) FROM games").fetchone()
        return int(row[0])

    def records(self) -> Iterator[JsonObject]:
        """Every stored record, in the order they were stored (open JSON, as :meth:`get`'s)."""
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
        batch: list[Mapping[str, object]] = []
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


def _summary(record: Mapping[str, object], table_name: str | None, aborted: bool) -> GameSummary:
    """A game's line in the history (docs/server.md, ``GET /api/games``), from a stored record;
    what it does not have, or has in another shape, is left out (a record is stored whatever
    its rounds hold)."""
    players = record.get("players")
    rounds = record.get("rounds")
    winner = record.get("winner")
    return {"id": str(record.get("id")), "started_at": str(record.get("started_at")), "table_name": table_name,
            "players": [_summary_player(seat, player) for seat, player in
                        enumerate(players if isinstance(players, list) else []) if isinstance(player, dict)],
            "score": _score(record.get("score")),
            "winner": winner if isinstance(winner, int) and not isinstance(winner, bool) else None,
            "rounds": len(rounds) if isinstance(rounds, list) else 0, "aborted": aborted,
            "seat_changes": _seat_changes(record.get("seat_changes")), "ended_by": _ended_by(record.get("ended_by")),
            "unfinished": _unfinished(record) if aborted else None}


def _unfinished(record: Mapping[str, object]) -> Unfinished | None:
    """The round an aborted game ended in, with the card points taken in it (issue 35, finding 4),
    or ``None`` when the record has no unfinished round it can replay."""
    points = unfinished_points(record)
    rounds = record.get("rounds")
    if points is None:
        return None
    return {"round": len(rounds) if isinstance(rounds, list) else 0, "points": points}


def _summary_player(seat: int, player: Mapping[str, object]) -> SummaryPlayer:
    name, kind = str(player.get("name", "")), str(player.get("kind", ""))
    return {"seat": seat, "name": name, "kind": kind, "key": player_key(name, kind)}


def _seat_changes(value: object) -> list[SeatChange]:
    """A record's ``seat_changes`` (docs/server.md), without the entries it cannot read."""
    changes: list[SeatChange] = []
    for item in json_list(value) if isinstance(value, list) else []:
        change = json_object(item) if isinstance(item, dict) else {}
        seat, round_, event = change.get("seat"), change.get("round"), change.get("event")
        name, kind, reason = change.get("name"), change.get("kind"), change.get("reason")
        if (isinstance(seat, int) and isinstance(round_, int) and isinstance(event, int) and isinstance(name, str)
                and isinstance(kind, str) and isinstance(reason, str)):
            changes.append({"seat": seat, "round": round_, "event": event, "name": name, "kind": kind,
                            "reason": reason})
    return changes


def _ended_by(value: object) -> EndedBy | None:
    """A record's ``ended_by`` (docs/server.md), or ``None`` if it has none it can read."""
    if not isinstance(value, dict):
        return None
    seat, name = json_object(value).get("seat"), json_object(value).get("name")
    return {"seat": seat, "name": name} if isinstance(seat, int) and isinstance(name, str) else None


def _score(value: object) -> list[int] | None:
    """A record's ``score``, or ``None`` if it is no list of points."""
    if not isinstance(value, list):
        return None
    points = [item for item in value if isinstance(item, int) and not isinstance(item, bool)]
    return points if len(points) == len(value) else None


#: A ``games`` row: id, started_at, table_name, winner, aborted, record (its JSON).
GameRow = tuple[str, str, str | None, int | None, int, str]


def _row(record: Mapping[str, object]) -> GameRow:
    record_id, started_at = record.get("id"), record.get("started_at")
    if not isinstance(record_id, str) or not record_id or not isinstance(started_at, str):
        raise ValueError("a stored record needs an id and a start time (records.md)")
    table = record.get("table")
    winner = record.get("winner")
    return (record_id, started_at, table if isinstance(table, str) else None,
            winner if isinstance(winner, int) else None, 1 if record.get("aborted") else 0,
            _dumps(record))
