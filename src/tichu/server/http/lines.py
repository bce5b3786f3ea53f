"""Another line over HTTP: a table that plays a stored game's round on from one of its steps
(docs/server.md, "Another line"; :mod:`tichu.server.tables.lines`).

- ``POST /api/games/{id}/lines`` with ``{"after_step": n, "seat": s}``: the game as it stood after
  step ``n`` of its replay (``GET /api/games/{id}/steps``), to be played on by a person at seat
  ``s``. ``201`` with ``{"table_name": ...}``: the person joins that table (the WebSocket, as any
  table) within :data:`~tichu.server.tables.lines.LINE_TTL` seconds. ``400`` for a body that is
  not that object, ``404`` for an unknown game, ``422`` for a step after which no round is being
  played (past the record's end, or the round's last play), ``503`` when the replay processes
  are busy.

The record is replayed to the step in a replay process (:mod:`tichu.server.workers.replay_pool`);
the event loop reads the store and the body only.
"""

from __future__ import annotations

import json

from aiohttp import web

from tichu.records.positions import NoPosition
from tichu.server.http.history import MAX_ID
from tichu.server.keys import FACTORY, REPLAYS, STORE
from tichu.server.tables.lines import Line
from tichu.server.workers.replay_pool import BadRecord, PoolBusy, stored_position

#: The largest body read (the object has two small numbers).
MAX_BODY = 256


def add_routes(app: web.Application) -> None:
    """Add the route (the replay processes are ``app[REPLAYS]``: after the replay routes)."""
    app.router.add_post("/api/games/{id}/lines", post_line)


def _error(status: int, error: str, reason: str) -> web.Response:
    return web.json_response({"error": error, "reason": reason}, status=status)


async def _wanted(request: web.Request) -> tuple[int, int] | web.Response:
    """The body's step and seat, or the 400 answer."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        return _error(400, "bad_request", f"the body has at most {MAX_BODY} bytes")
    body = await request.content.read(MAX_BODY + 1)
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, ValueError):
        return _error(400, "bad_request", "the body is no JSON object")
    if len(body) > MAX_BODY or not isinstance(data, dict):
        return _error(400, "bad_request", 'the body is {"after_step": n, "seat": s}')
    step, seat = data.get("after_step"), data.get("seat")
    if not isinstance(step, int) or isinstance(step, bool) or step < 0:
        return _error(400, "bad_request", "after_step is a step's index (0 or more)")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        return _error(400, "bad_request", "seat is 0, 1, 2 or 3")
    return step, seat


async def post_line(request: web.Request) -> web.Response:
    """``POST /api/games/{id}/lines``: a table to play a stored game on from a step (the module)."""
    game_id = request.match_info["id"]
    if not game_id or len(game_id) > MAX_ID or not game_id.isprintable():
        return _error(400, "bad_request", f"a game id has 1 to {MAX_ID} printable characters")
    wanted = await _wanted(request)
    if isinstance(wanted, web.Response):
        return wanted
    step, seat = wanted
    text = await request.app[STORE].read(lambda games: games.archive.record_text(game_id))
    if text is None:
        return _error(404, "not_found", "no game with this id")
    try:
        position = await request.app[REPLAYS].run(stored_position, text, step)
    except PoolBusy:
        return _error(503, "busy", "the replay processes are busy; try again in a moment")
    except (BadRecord, NoPosition) as error:
        return _error(422, "no_position", str(error))
    table_name = request.app[FACTORY].lines.add(Line(game_id, seat, position))
    return web.json_response({"table_name": table_name}, status=201)
