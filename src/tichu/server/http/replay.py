"""The replay viewer's HTTP API: a stored game's steps, and the steps of an uploaded record.

- ``GET /api/games/{id}/steps``: the replay document (:func:`tichu.records.steps.replay_document`)
  of a stored game; 404 for an unknown id.
- ``POST /api/replay``: a ``tichu-record/1`` record (JSON), a file of records (JSON Lines, or a
  JSON array), or a Brettspielwelt log (``.tch``) in the body, at most :data:`MAX_BODY` bytes
  (413 over it); 400 with ``{"error": reason}`` for a body that is no record. One record: its
  replay document. Several: ``{"records": [summary, ...]}``, and ``?index=n`` picks one.

The event loop only does I/O: parsing the body, replaying the record through the rules, and
encoding (and gzipping) the answer run in a small thread pool
(:mod:`tichu.server.workers.replay_pool`), ``MAX_REPLAYS`` at a time; a request that finds them
all busy gets 503. A record that breaks a rule is no error: its
document has the steps up to the violation and the violation in ``fault``.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from aiohttp import web

from tichu.records.bsw import BswError, decode, import_game
from tichu.records.record import FORMAT
from tichu.records.steps import record_summary, replay_document
from tichu.server.keys import REPLAYS, STORE
from tichu.server.workers.replay_pool import PoolBusy, ReplayPool

T = TypeVar("T")

#: The largest body ``POST /api/replay`` reads (2 MiB: a thousand-round file of records is less).
MAX_BODY = 2 << 20
#: Records one uploaded file may hold.
MAX_RECORDS = 1000
#: Answers at least this long are gzipped when the client accepts it.
GZIP_FROM = 1024


class BadRecord(ValueError):
    """A body that holds no record (400)."""


def add_routes(app: web.Application) -> None:
    """Add the replay routes and the replay pool (the store is ``app[STORE]``).

    :param app: The application (before it starts).
    """
    app[REPLAYS] = ReplayPool()
    app.cleanup_ctx.append(_pool_context)
    app.router.add_get("/api/games/{id}/steps", game_steps)
    app.router.add_post("/api/replay", replay_upload)


async def _pool_context(app: web.Application) -> AsyncIterator[None]:
    yield
    app[REPLAYS].shutdown()


async def _run(request: web.Request, work: Callable[[], T]) -> T:
    """Run ``work`` in the replay pool.

    :raises web.HTTPServiceUnavailable: If the pool's threads are all busy.
    """
    try:
        return await request.app[REPLAYS].run(work)
    except PoolBusy:
        raise _error(web.HTTPServiceUnavailable, "too many replays at once; try again shortly") from None


def _error(kind: type[web.HTTPException], reason: str) -> web.HTTPException:
    return kind(text=json.dumps({"error": reason}), content_type="application/json")


def _too_large(size: int) -> web.HTTPException:
    text = json.dumps({"error": f"the body is over {MAX_BODY} bytes"})
    return web.HTTPRequestEntityTooLarge(MAX_BODY, size, text=text, content_type="application/json")


async def game_steps(request: web.Request) -> web.StreamResponse:
    """``GET /api/games/{id}/steps``: a stored game's replay document (404 for an unknown id)."""
    game_id = request.match_info["id"]
    record = await request.app[STORE].read(lambda games: games.get(game_id))
    if record is None:
        raise _error(web.HTTPNotFound, f"no stored game {game_id!r}")
    gzipped = _accepts_gzip(request)
    body = await _run(request, lambda: _encode(dict(replay_document(record)), gzipped))
    return _response(body, gzipped)


async def replay_upload(request: web.Request) -> web.StreamResponse:
    """``POST /api/replay``: the replay document of an uploaded record (see the module)."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise _too_large(request.content_length)
    data = bytearray()
    while len(data) <= MAX_BODY:
        chunk = await request.content.read(MAX_BODY + 1 - len(data))
        if not chunk:
            break
        data += chunk
    if len(data) > MAX_BODY:
        raise _too_large(len(data))
    index_text = request.query.get("index")
    index: int | None = None
    if index_text is not None:
        if not index_text.isdigit():
            raise _error(web.HTTPBadRequest, "index must be a number from 0")
        index = int(index_text)
    gzipped = _accepts_gzip(request)
    try:
        body = await _run(request, lambda: _encode(upload_document(bytes(data), index), gzipped))
    except BadRecord as error:
        raise _error(web.HTTPBadRequest, str(error)) from None
    return _response(body, gzipped)


def upload_document(data: bytes, index: int | None = None) -> dict[str, Any]:
    """What ``POST /api/replay`` answers for a body (runs in the pool).

    :raises BadRecord: For a body that holds no record, or an index out of range.
    """
    records = parse_records(data)
    if index is None and len(records) == 1:
        index = 0
    if index is None:
        return {"records": [{"index": number, **record_summary(record)} for number, record in enumerate(records)]}
    if index >= len(records):
        raise BadRecord(f"index {index} but the file holds {len(records)} records")
    return dict(replay_document(records[index]))


def parse_records(data: bytes) -> list[dict[str, Any]]:
    """The records of an uploaded body: one JSON record, a JSON array of them, JSON Lines, or a
    Brettspielwelt log (imported through the rules).

    :raises BadRecord: For anything else, with the reason.
    """
    text = decode(data).strip()
    if not text:
        raise BadRecord("the body is empty")
    if text[0] not in "{[":
        try:
            return [dict(import_game(text, "bsw-upload"))]
        except BswError as error:
            raise BadRecord(f"neither a record (JSON) nor a Brettspielwelt log: {error}") from None
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, dict):
        records: list[Any] = [whole]
    elif isinstance(whole, list):
        records = whole
    else:
        records = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except ValueError as error:
                raise BadRecord(f"line {number}: not JSON ({error})") from None
    if not records:
        raise BadRecord("the file holds no record")
    if len(records) > MAX_RECORDS:
        raise BadRecord(f"more than {MAX_RECORDS} records")
    for number, record in enumerate(records):
        if not isinstance(record, dict):
            raise BadRecord(f"record {number} is not a JSON object")
        if record.get("format") != FORMAT:
            raise BadRecord(f"record {number} is not a {FORMAT} record (format {record.get('format')!r})")
    return records


def _accepts_gzip(request: web.Request) -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "")


def _encode(document: dict[str, Any], gzipped: bool) -> bytes:
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
    return gzip.compress(body, 6) if gzipped and len(body) >= GZIP_FROM else body


def _response(body: bytes, gzipped: bool) -> web.Response:
    response = web.Response(body=body, content_type="application/json")
    if gzipped and body[:2] == b"\x1f\x8b":
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Cache-Control"] = "no-store"
    response.headers["Vary"] = "Accept-Encoding"
    return response
