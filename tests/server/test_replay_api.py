"""The replay API (:mod:`tichu.server.http.replay`): a stored game's steps, uploaded records and
their bounds (404, 413, 400, 503)."""

from __future__ import annotations

import asyncio
import io
import json
import threading
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.support.raw_client import StartServer
from tichu.arena.arena import Arena
from tichu.records import steps
from tichu.records.record import replay
from tichu.server.http import replay as replay_api
from tichu.server.http.replay import MAX_BODY
from tichu.server.keys import REPLAYS, STORE

Record = dict[str, Any]


@pytest.fixture(scope="module")
def records() -> list[Record]:
    found: list[Record] = []
    Arena(["random"] * 4, games=3, seed=11, workers=1, target_score=300, records=True).run(on_record=found.append)
    return found


async def _post(url: str, data: Any) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as session, session.post(url, data=data) as response:
        return response.status, await response.json()


async def test_a_stored_games_steps(start_server: StartServer, records: list[Record]) -> None:
    server = await start_server()
    store = server.app[STORE]
    assert await store.read(lambda games: games.add(records[0]))
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{server.url}api/games/{records[0]['id']}/steps") as response:
            assert response.status == 200
            assert response.headers["Content-Encoding"] == "gzip"  # aiohttp asks for it and unpacks it
            document = await response.json()
        assert document["id"] == records[0]["id"] and document["fault"] is None
        assert document["players"] == [player["name"] for player in records[0]["players"]]
        assert document["steps"][-1]["kind"] == "round_end"
        assert document["steps"][-1]["score"] == records[0]["score"]
        async with session.get(f"{server.url}api/games/{records[0]['id']}/steps",
                               headers={"Accept-Encoding": "identity"}) as response:
            assert "Content-Encoding" not in response.headers
            assert json.loads(await response.read()) == document
        async with session.get(f"{server.url}api/games/nope/steps") as response:
            assert response.status == 404
            assert "nope" in (await response.json())["error"]


async def test_an_uploaded_record(start_server: StartServer, records: list[Record]) -> None:
    server = await start_server()
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{server.url}api/replay", data=json.dumps(records[1])) as response:
            assert response.status == 200
            document = await response.json()
        assert document["id"] == records[1]["id"] and document["steps"][-1]["score"] == records[1]["score"]
        lines = "\n".join(json.dumps(record) for record in records) + "\n"
        async with session.post(f"{server.url}api/replay", data=lines) as response:
            listing = await response.json()
        assert [entry["id"] for entry in listing["records"]] == [record["id"] for record in records]
        assert [entry["index"] for entry in listing["records"]] == [0, 1, 2]
        async with session.post(f"{server.url}api/replay?index=2", data=lines) as response:
            assert (await response.json())["id"] == records[2]["id"]
        async with session.post(f"{server.url}api/replay?index=3", data=lines) as response:
            assert response.status == 400 and "index 3" in (await response.json())["error"]
        async with session.post(f"{server.url}api/replay?index=x", data=lines) as response:
            assert response.status == 400


async def test_a_record_that_breaks_the_rules_has_steps_and_a_fault(start_server: StartServer,
                                                                    records: list[Record]) -> None:
    server = await start_server()
    record = json.loads(json.dumps(records[0]))
    record["rounds"][0]["events"][3]["seat"] = (record["rounds"][0]["events"][3]["seat"] + 1) % 4
    status, document = await _post(f"{server.url}api/replay", json.dumps(record))
    assert status == 200
    fault = replay(record)
    assert fault is not None
    assert document["fault"] == {"round": 0, "event": fault.event_index, "rule": fault.rule, "reason": fault.reason}
    assert document["steps"] and document["steps"][-1]["round"] == 0


@pytest.mark.parametrize(("body", "reason"), [
    (b"", "empty"), (b"{not json", "not JSON"), (b"[1, 2]", "not a JSON object"),
    (b'{"format": "other"}', "not a tichu-record/1"), (b"hello", "Brettspielwelt"), (b"\n\n[]", "no record"),
])
async def test_unreadable_bodies_are_400(start_server: StartServer, body: bytes, reason: str) -> None:
    server = await start_server()
    status, document = await _post(f"{server.url}api/replay", body)
    assert status == 400 and reason in document["error"]


async def test_a_body_over_the_bound_is_413(start_server: StartServer) -> None:
    server = await start_server()
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{server.url}api/replay", data=io.BytesIO(b" " * (MAX_BODY + 1))) as response:
            assert response.status == 413

        async def chunks() -> Any:  # no Content-Length: the server counts as it reads
            for _ in range(3):
                yield b" " * (MAX_BODY // 2)

        async with session.post(f"{server.url}api/replay", data=chunks()) as response:
            assert response.status == 413
        async with session.post(f"{server.url}api/replay", data=io.BytesIO(b" " * MAX_BODY)) as response:
            assert response.status == 400  # at the bound: read, and found empty


async def test_a_brettspielwelt_log(start_server: StartServer, shared_dir: Path) -> None:
    server = await start_server()
    path = shared_dir / "data" / "bsw" / "game_1.tch"
    status, document = await _post(f"{server.url}api/replay", path.read_bytes())
    assert status == 200
    assert document["fault"] is None and document["steps"][-1]["kind"] == "round_end"


async def test_replays_at_once_are_bounded(start_server: StartServer, records: list[Record],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Over the pool's bound a request gets 503 at once; the running replays go on."""
    server = await start_server()
    pool = server.app[REPLAYS]
    release = threading.Event()
    started = threading.Event()
    real = steps.replay_document

    def slow(record: Record) -> dict[str, Any]:
        started.set()
        release.wait(10)
        return dict(real(record))

    monkeypatch.setattr(replay_api, "replay_document", slow)
    body = json.dumps(records[0])
    async with aiohttp.ClientSession() as session:
        url = f"{server.url}api/replay"
        running = [asyncio.ensure_future(session.post(url, data=body)) for _ in range(pool.limit)]
        await asyncio.to_thread(started.wait, 10)
        while pool.busy < pool.limit:
            await asyncio.sleep(0.01)
        async with session.post(url, data=body) as response:
            assert response.status == 503
            assert "too many replays" in (await response.json())["error"]
        release.set()
        for future in running:
            response = await future
            assert response.status == 200
            response.release()
    assert pool.busy == 0
