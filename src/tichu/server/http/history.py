"""The history API: stored games, players' statistics and ratings as JSON over HTTP (docs/server.md).

- ``GET /api/games?limit=&offset=&player=&since=&until=&people=``: the games, newest first, a page
  (``people=1``: only games with a person);
- ``GET /api/games/{id}``: one game's record (records.md);
- ``GET /api/players/{name}``: a player's statistics and rating (docs/ratings.md);
- ``GET /api/leaderboard?limit=``: the players by rating.

Parameters are checked here, at the edge: a bad one is a ``400`` with ``{"error": "bad_request",
"reason": ...}``, an unknown game or player a ``404`` with ``{"error": "not_found", ...}``. The
queries run in the store's writer thread (:meth:`StoreWriter.read`), never on the event loop.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from aiohttp import web

from tichu.server.keys import STORE
from tichu.server.workers.store_writer import StoreWriter

#: Games or players per page by default, and at most.
DEFAULT_LIMIT = 20
MAX_LIMIT = 100
#: The largest offset accepted (far beyond a home server's games; bounds the work of a query).
MAX_OFFSET = 1_000_000
#: The longest player name or key (names are 1..20 characters; agent keys like
#: ``agent:montecarlo`` are a little longer) and game id accepted.
MAX_NAME = 64
MAX_ID = 100


class BadRequest(ValueError):
    """A parameter out of its bounds; the message says which and why."""


def add_routes(app: web.Application) -> None:
    """Add the routes of the history API (the store is ``app[STORE]``)."""
    app.router.add_get("/api/games", list_games)
    app.router.add_get("/api/games/{id}", get_game)
    app.router.add_get("/api/players/{name}", get_player)
    app.router.add_get("/api/leaderboard", leaderboard)


def _store(request: web.Request) -> StoreWriter:
    return request.app[STORE]


def _error(status: int, error: str, reason: str) -> web.Response:
    return web.json_response({"error": error, "reason": reason}, status=status)


def _bad(error: BadRequest) -> web.Response:
    return _error(400, "bad_request", str(error))


def parse_int(query: Any, name: str, default: int, low: int, high: int) -> int:
    """An integer query parameter within ``low..high`` (``default`` if absent).

    :raises BadRequest: For a value that is no integer or out of bounds.
    """
    raw = query.get(name)
    if raw is None or raw == "":
        return default
    digits = raw.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(raw) > 12:
        raise BadRequest(f"{name} must be an integer from {low} to {high}")
    value = int(raw)
    if not low <= value <= high:
        raise BadRequest(f"{name} must be an integer from {low} to {high}")
    return value


def parse_name(raw: str | None, name: str) -> str | None:
    """A player name or key (``None`` if absent).

    :raises BadRequest: For an empty or over-long one, or one with control characters.
    """
    if raw is None:
        return None
    if not raw or len(raw) > MAX_NAME or not raw.isprintable():
        raise BadRequest(f"{name} must be 1 to {MAX_NAME} printable characters")
    return raw


def parse_time(raw: str | None, name: str, *, end: bool = False) -> str | None:
    """An ISO 8601 date or time as the records write it (UTC, ``2026-11-22T10:00:00Z``).

    A date alone means its start, or with ``end`` the start of the next day (so that
    ``until=2026-11-22`` includes that day). A time without a zone is UTC.

    :raises BadRequest: For anything that is not an ISO date or time.
    """
    if raw is None or raw == "":
        return None
    if len(raw) > 40:
        raise BadRequest(f"{name} must be an ISO 8601 date or time")
    try:
        if len(raw) == 10:
            day = date.fromisoformat(raw)
            moment = datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(days=1 if end else 0)
        else:
            moment = datetime.fromisoformat(raw)
    except OverflowError:  # the day after 9999-12-31
        raise BadRequest(f"{name} must be a date or time between the years 1 and 9999") from None
    except ValueError:
        raise BadRequest(f"{name} must be an ISO 8601 date or time, e.g. 2026-11-22 or 2026-11-22T10:00:00Z") \
            from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        if end and len(raw) != 10:
            moment += timedelta(seconds=1)  # a time given is included
        return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except OverflowError:  # beyond the years 1 to 9999 in UTC
        raise BadRequest(f"{name} must be a date or time between the years 1 and 9999") from None


async def list_games(request: web.Request) -> web.Response:
    """``GET /api/games``: ``{games, total, limit, offset}``, newest first."""
    query = request.query
    try:
        limit = parse_int(query, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
        offset = parse_int(query, "offset", 0, 0, MAX_OFFSET)
        player = parse_name(query.get("player"), "player")
        since = parse_time(query.get("since"), "since")
        until = parse_time(query.get("until"), "until", end=True)
        people = parse_int(query, "people", 0, 0, 1) == 1
    except BadRequest as error:
        return _bad(error)
    if since is not None and until is not None and since >= until:
        return _error(400, "bad_request", "since must be before until")
    games, total = await _store(request).read(
        lambda store: store.archive.list_games(limit, offset, player, since, until, people=people))
    return web.json_response({"games": games, "total": total, "limit": limit, "offset": offset})


async def get_game(request: web.Request) -> web.Response:
    """``GET /api/games/{id}``: the record (records.md), or 404."""
    game_id = request.match_info["id"]
    if not game_id or len(game_id) > MAX_ID or not game_id.isprintable():
        return _error(400, "bad_request", f"a game id has 1 to {MAX_ID} printable characters")
    record = await _store(request).read(lambda store: store.archive.get(game_id))
    if record is None:
        return _error(404, "not_found", "no game with this id")
    return web.json_response(record)


async def get_player(request: web.Request) -> web.Response:
    """``GET /api/players/{name}``: statistics and rating, or 404."""
    try:
        name = parse_name(request.match_info["name"], "name")
    except BadRequest as error:
        return _bad(error)
    assert name is not None
    stats = await _store(request).read(lambda store: store.statistics.player_stats(name))
    if stats is None:
        return _error(404, "not_found", "no stored game has a player of this name")
    return web.json_response(stats)


async def leaderboard(request: web.Request) -> web.Response:
    """``GET /api/leaderboard``: ``{players: [{rank, name, kind, rating, games, wins}], limit}``."""
    try:
        limit = parse_int(request.query, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
    except BadRequest as error:
        return _bad(error)
    players = await _store(request).read(lambda store: store.statistics.leaderboard(limit))
    return web.json_response({"players": players, "limit": limit})
