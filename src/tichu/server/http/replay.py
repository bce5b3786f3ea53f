"""The replay viewer's HTTP API: a stored game's steps, and the steps of an uploaded record.

- ``GET /api/games/{id}/steps``: the replay document (:func:`tichu.records.steps.replay_document`)
  of a stored game; 404 for an unknown id, 400 for an id that is none (as the history API).
- ``POST /api/replay``: a ``tichu-record/1`` record (JSON), a file of records (JSON Lines, or a
  JSON array), or a Brettspielwelt log (``.tch``) in the body, at most :data:`MAX_BODY` bytes
  (413 over it); 400 with ``{"error": reason}`` for a body that is no record. One record: its
  replay document. Several: ``{"records": [summary, ...]}``, and ``?index=n`` picks one.

The event loop only does I/O: it reads the body (or the stored record's text) and hands the
bytes to the replay processes (:mod:`tichu.server.workers.replay_pool`), which parse, replay and
encode (and gzip) the answer. ``MAX_REPLAYS`` run at once and ``QUEUED_REPLAYS`` wait (an upload
being read counts as waiting); a request beyond those gets 503 with ``Retry-After`` before its
body is read. A record that breaks a rule is no error: its
document has the steps up to the violation and the violation in ``fault``. Whatever the body or
the query holds, the answer is a 4xx with the reason, never a 500.
"""

from __future__ import annotations

import json

from aiohttp import web

from tichu.server.http.history import MAX_ID
from tichu.server.keys import REPLAYS, STORE
from tichu.server.workers.replay_pool import (
    MAX_RECORDS,
    BadRecord,
    PoolBusy,
    ReplayPool,
    stored_answer,
    upload_answer,
)

#: The largest body ``POST /api/replay`` reads (2 MiB: a thousand-round file of records is less).
MAX_BODY = 2 << 20
#: Seconds a client told 503 is asked to wait before it tries again (a replay takes up to one).
RETRY_AFTER = 2


def add_routes(app: web.Application) -> None:
    """Add the replay routes and the replay pool (the store is ``app[STORE]``).

    :param app: The application (before it starts).
    """
    app[REPLAYS] = ReplayPool()
    app.on_cleanup.append(_stop_pool)
    app.router.add_get("/api/games/{id}/steps", game_steps)
    app.router.add_post("/api/replay", replay_upload)


async def _stop_pool(app: web.Application) -> None:
    app[REPLAYS].shutdown()


def _error(kind: type[web.HTTPException], reason: str, headers: dict[str, str] | None = None) -> web.HTTPException:
    return kind(text=json.dumps({"error": reason}), content_type="application/json", headers=headers)


def _too_large(size: int) -> web.HTTPException:
    text = json.dumps({"error": f"the body is over {MAX_BODY} bytes"})
    return web.HTTPRequestEntityTooLarge(MAX_BODY, size, text=text, content_type="application/json")


def _busy() -> web.HTTPException:
    return _error(web.HTTPServiceUnavailable, "too many replays at once; try again shortly",
                  {"Retry-After": str(RETRY_AFTER)})


async def game_steps(request: web.Request) -> web.StreamResponse:
    """``GET /api/games/{id}/steps``: a stored game's replay document (404 for an unknown id)."""
    game_id = request.match_info["id"]
    if not game_id or len(game_id) > MAX_ID or not game_id.isprintable():
        raise _error(web.HTTPBadRequest, f"a game id has 1 to {MAX_ID} printable characters")
    text = await request.app[STORE].read(lambda games: games.archive.record_text(game_id))
    if text is None:
        raise _error(web.HTTPNotFound, f"no stored game {game_id!r}")
    gzipped = _accepts_gzip(request)
    try:
        body = await request.app[REPLAYS].run(stored_answer, text, gzipped)
    except PoolBusy:
        raise _busy() from None
    except BadRecord as error:
        raise _error(web.HTTPUnprocessableEntity, f"the stored game is no record: {error}") from None
    return _response(body, gzipped)


async def replay_upload(request: web.Request) -> web.StreamResponse:
    """``POST /api/replay``: the replay document of an uploaded record (see the module)."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise _too_large(request.content_length)
    index = _index(request.query.get("index"))
    pool = request.app[REPLAYS]
    gzipped = _accepts_gzip(request)
    try:
        with pool.admitted():
            data = await _read_body(request)
        body = await pool.run(upload_answer, data, index, gzipped)
    except PoolBusy:
        raise _busy() from None
    except BadRecord as error:
        raise _error(web.HTTPBadRequest, str(error)) from None
    return _response(body, gzipped)


async def _read_body(request: web.Request) -> bytes:
    """The request's body, :data:`MAX_BODY` bytes at most.

    :raises web.HTTPRequestEntityTooLarge: For a longer one (counted as it is read).
    """
    data = bytearray()
    while len(data) <= MAX_BODY:
        chunk = await request.content.read(MAX_BODY + 1 - len(data))
        if not chunk:
            break
        data += chunk
    if len(data) > MAX_BODY:
        raise _too_large(len(data))
    return bytes(data)


def _index(text: str | None) -> int | None:
    """The ``index`` query parameter: a record's number in the file, or ``None`` if absent.

    :raises web.HTTPBadRequest: For anything but ASCII digits of a number below :data:`MAX_RECORDS`
        (``²`` is a digit to ``str.isdigit`` but no number to ``int``).
    """
    if text is None:
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(MAX_RECORDS)) or int(text) >= MAX_RECORDS:
        raise _error(web.HTTPBadRequest, f"index must be a number from 0 to {MAX_RECORDS - 1}")
    return int(text)


def _accepts_gzip(request: web.Request) -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "")


def _response(body: bytes, gzipped: bool) -> web.Response:
    response = web.Response(body=body, content_type="application/json")
    if gzipped and body[:2] == b"\x1f\x8b":
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Cache-Control"] = "no-store"
    response.headers["Vary"] = "Accept-Encoding"
    return response

