"""The analysis API: a stored game's analysis, asked for and read over HTTP (docs/server.md,
"Game analysis").

- ``POST /api/games/{id}/analysis``: queue the game's analysis. ``202`` with its status when
  queued (or queued or running already), ``200`` when it is done already; ``404`` for an unknown
  game, ``403`` when analyses are off (``TICHU_ANALYSIS=off``), ``503`` when the queue is full.
  A failed analysis is queued again.
- ``GET /api/games/{id}/analysis``: ``{"status": "none"|"queued"|"running"|"done"|"failed",
  "progress": [done, total], "analysis": document|null}`` (and ``"reason"`` when failed); ``404``
  for an unknown game. Stored analyses are served also when analyses are off.

Errors are JSON as in the history API (``{"error": ..., "reason": ...}``). The store is read in
its writer thread; a stored document is served as the text stored, never parsed on the event loop.
"""

from __future__ import annotations

import json

from aiohttp import web

from tichu.records.store import AnalysisRow
from tichu.server.http.history import MAX_ID
from tichu.server.keys import ANALYSES, SETTINGS, STORE
from tichu.server.workers.analysis_runner import AnalysisRunner, Progress


def add_routes(app: web.Application) -> None:
    """Add the routes of the analysis API (settings, store and runner are ``app[SETTINGS]``,
    ``app[STORE]`` and ``app[ANALYSES]``)."""
    app.router.add_get("/api/games/{id}/analysis", get_analysis)
    app.router.add_post("/api/games/{id}/analysis", post_analysis)


def _error(status: int, error: str, reason: str) -> web.Response:
    return web.json_response({"error": error, "reason": reason}, status=status)


def _game_id(request: web.Request) -> str | None:
    game_id = request.match_info["id"]
    return game_id if game_id and len(game_id) <= MAX_ID and game_id.isprintable() else None


async def _look_up(request: web.Request) -> tuple[str, AnalysisRow | None] | web.Response:
    """The game's id and its stored analysis, or the error response (400, 404)."""
    game_id = _game_id(request)
    if game_id is None:
        return _error(400, "bad_request", f"a game id has 1 to {MAX_ID} printable characters")
    found, row = await request.app[STORE].read(
        lambda games: (games.archive.has_game(game_id), games.analyses.analysis(game_id)))
    if not found:
        return _error(404, "not_found", "no game with this id")
    return game_id, row


def _answer(runner: AnalysisRunner, game_id: str, row: AnalysisRow | None, status: int = 200) -> web.Response:
    """The analysis's status as the API gives it: the runner's while it is queued or runs, else
    the store's."""
    known = runner.status(game_id)
    if isinstance(known, Progress):
        head: dict[str, object] = {"status": "running", "progress": [known.done, known.total]}
    elif known == "queued" or row is None:
        head = {"status": known or "none", "progress": [0, 0]}
    elif row.status == "done":
        head = {"status": "done", "progress": [row.decisions or 0, row.decisions or 0]}
    else:
        head = {"status": row.status, "progress": [0, row.decisions or 0]}
        if row.status == "failed":
            head["reason"] = row.reason
    document = row.document if head["status"] == "done" and row is not None and row.document else "null"
    text = json.dumps(head, ensure_ascii=False)[:-1] + f', "analysis": {document}}}'
    return web.Response(text=text, status=status, content_type="application/json")


async def get_analysis(request: web.Request) -> web.Response:
    """``GET /api/games/{id}/analysis``: the analysis's status and, once done, its document."""
    found = await _look_up(request)
    if isinstance(found, web.Response):
        return found
    game_id, row = found
    return _answer(request.app[ANALYSES], game_id, row)


async def post_analysis(request: web.Request) -> web.Response:
    """``POST /api/games/{id}/analysis``: queue the analysis (202), or it is done (200)."""
    if request.app[SETTINGS].analysis == "off":
        return _error(403, "forbidden", "game analysis is off at this server (TICHU_ANALYSIS=off)")
    found = await _look_up(request)
    if isinstance(found, web.Response):
        return found
    game_id, row = found
    runner = request.app[ANALYSES]
    if row is not None and row.status == "done" and runner.status(game_id) is None:
        return _answer(runner, game_id, row)
    if runner.request(game_id) == "full":
        return _error(503, "busy", f"{runner.bound} analyses wait already; try again later")
    return _answer(runner, game_id, None, status=202)
