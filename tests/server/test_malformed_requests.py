"""Malformed input to every HTTP API route: a 4xx with the reason, and no ERROR in the log
(issue 33, finding 5)."""

from __future__ import annotations

import json
import logging
import random

import aiohttp
import pytest

from tests.support.raw_client import StartServer
from tichu.records.record import FORMAT

#: A record's start that any body below completes.
RECORD = f'{{"format": "{FORMAT}", '

#: Bodies for ``POST /api/replay`` (with a query) that hold no record, and what the reason says.
UPLOADS = [
    pytest.param("?index=%C2%B2", b"{}", "index", id="superscript-two-index"),
    pytest.param("?index=" + "1" * 5000, b"{}", "index", id="index-of-5000-digits"),
    pytest.param("?index=-1", b"{}", "index", id="negative-index"),
    pytest.param("", b"[" * 100_000, "nested too deeply", id="100000-brackets"),
    pytest.param("", b'{"a": ' * 100_000, "nested too deeply", id="deeply-nested-object"),
    pytest.param("", random.Random(33).randbytes(4096), "no text", id="random-bytes"),
    pytest.param("", (RECORD + '"id": "\\ud800"}').encode(), "lone surrogate", id="lone-surrogate"),
    pytest.param("", (RECORD + '"score": [NaN, 0]}').encode(), "NaN", id="nan"),
    pytest.param("", (RECORD + '"score": [Infinity, 0]}').encode(), "Infinity", id="infinity"),
    pytest.param("", (RECORD + '"score": [' + "9" * 5000 + ", 0]}").encode(), "not JSON", id="huge-number"),
    pytest.param("", b"", "empty", id="empty"),
    pytest.param("", b"a=1&b=2", "Brettspielwelt", id="a-form"),
    pytest.param("", b"\xff\xfe{\x00}\x00", "", id="utf-16"),
]

#: ``GET`` paths of the other routes with malformed ids or queries.
PATHS = [
    pytest.param("api/games/" + "a" * 200 + "/steps", id="long-id-steps"),
    pytest.param("api/games/%00/steps", id="control-id-steps"),
    pytest.param("api/games/" + "a" * 200, id="long-id-game"),
    pytest.param("api/games/" + "a" * 200 + "/analysis", id="long-id-analysis"),
    pytest.param("api/players/%00", id="control-name"),
    pytest.param("api/players/" + "a" * 200, id="long-name"),
    pytest.param("api/games?offset=--5", id="double-minus-offset"),
    pytest.param("api/games?limit=%C2%B2", id="superscript-limit"),
    pytest.param("api/games?since=0001-01-01T00:00:00%2B01:00", id="since-before-year-1"),
    pytest.param("api/games?until=9999-12-31", id="until-after-year-9999"),
    pytest.param("api/games?until=9999-12-31T23:59:59", id="until-time-after-year-9999"),
    pytest.param("api/leaderboard?limit=" + "9" * 5000, id="limit-of-5000-digits"),
]


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{record.name}: {record.getMessage()}" for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.mark.parametrize(("query", "body", "reason"), UPLOADS)
async def test_a_malformed_upload_is_400_with_the_reason(start_server: StartServer, caplog: pytest.LogCaptureFixture,
                                                         query: str, body: bytes, reason: str) -> None:
    """Issue 33, finding 5: five of these were a 500 with an ERROR traceback each (a few thousand
    rotated the whole log away); each is a 400 with the reason now, and logs no ERROR."""
    caplog.set_level(logging.WARNING)
    server = await start_server()
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    async with aiohttp.ClientSession() as session, \
            session.post(f"{server.url}api/replay{query}", data=body, headers=form) as response:
        assert response.status == 400
        assert reason in json.loads(await response.read())["error"]
    assert _errors(caplog) == []


@pytest.mark.parametrize("path", PATHS)
async def test_a_malformed_id_or_query_is_400(start_server: StartServer, caplog: pytest.LogCaptureFixture,
                                              path: str) -> None:
    """Issue 33, finding 5: the other routes' malformed ids and queries are a 400 with the
    reason (``--5``, a time before the year 1 or after 9999 were a 500)."""
    caplog.set_level(logging.WARNING)
    server = await start_server()
    async with aiohttp.ClientSession() as session, session.get(server.url + path) as response:
        assert response.status == 400
        assert (await response.json())["reason" if "steps" not in path else "error"]
    assert _errors(caplog) == []


@pytest.mark.parametrize("path", ["api/games/" + "a" * 9000 + "/steps", "api/replay?index=" + "1" * 9000])
async def test_a_request_line_over_8_kib_is_400_without_an_error_logged(
        start_server: StartServer, caplog: pytest.LogCaptureFixture, path: str) -> None:
    """Issue 33, finding 5: aiohttp refuses a request line over 8 KiB (400) before any route sees
    it, and logged each at ERROR with a traceback; now at most a WARNING line."""
    caplog.set_level(logging.WARNING)
    server = await start_server()
    async with aiohttp.ClientSession() as session:
        for _ in range(3):
            async with session.get(server.url + path) as response:
                assert response.status == 400
                assert "8190" in await response.text()
    assert _errors(caplog) == []
    assert not [record for record in caplog.records if record.exc_info]
