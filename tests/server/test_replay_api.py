"""The replay API (:mod:`tichu.server.http.replay`): a stored game's steps, uploaded records and
their bounds (404, 413, 400, 503), and the replay processes (:mod:`tichu.server.workers.replay_pool`)."""

from __future__ import annotations

import asyncio
import io
import json
import os
import time
from collections.abc import Callable
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
from tichu.server.workers import replay_pool
from tichu.server.workers.replay_pool import PoolBusy, ReplayPool

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
    assert await store.read(lambda games: games.archive.add(records[0]))
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


def wait_for_file(path: str) -> int:
    """In a replay process: wait (a minute at most) until ``path`` exists; its process id."""
    deadline = time.monotonic() + 60
    while not Path(path).exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return os.getpid()


async def _until(check: Callable[[], bool]) -> None:
    """Wait (a minute at most) until ``check()`` holds."""
    deadline = time.monotonic() + 60
    while not check():
        assert time.monotonic() < deadline, "the state did not come about within a minute"
        await asyncio.sleep(0.01)


async def test_replays_run_in_processes_of_their_own() -> None:
    """Issue 33, finding 4: a replay runs in another process than the server's (in a thread of
    the server it held the GIL: 20 replays raised every table's ping to 200 ms)."""
    pool = ReplayPool()
    try:
        assert await pool.run(os.getpid) != os.getpid()
    finally:
        pool.shutdown()


async def test_the_server_parses_and_replays_no_upload_itself(start_server: StartServer, records: list[Record],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33, finding 4: the server's process neither parses an uploaded body nor replays it
    (here it cannot: both are broken in this process); the replay processes do."""
    def broken(*_: object) -> None:
        raise AssertionError("parsed or replayed in the server's process")

    for module in (replay_pool, replay_api):
        for name in ("parse_records", "replay_document", "upload_document"):
            monkeypatch.setattr(module, name, broken, raising=False)
    monkeypatch.setattr(steps, "replay_document", broken)
    server = await start_server()
    status, document = await _post(f"{server.url}api/replay", json.dumps(records[1]))
    assert status == 200 and document["id"] == records[1]["id"]


async def test_replays_at_once_and_waiting_are_bounded(tmp_path: Path) -> None:
    """Issue 33, finding 4: ``limit`` replays run and ``queued`` wait; one more is refused at
    once (PoolBusy, the API's 503), and the ones taken all finish. Uploads admitted while their
    body is read count as waiting."""
    pool = ReplayPool(limit=1, queued=1)
    go = tmp_path / "go"
    try:
        taken = [asyncio.ensure_future(pool.run(wait_for_file, str(go))) for _ in range(2)]
        await _until(lambda: pool.busy == 1 and pool.waiting == 1)
        with pytest.raises(PoolBusy):
            await pool.run(wait_for_file, str(go))
        go.touch()
        assert len(set(await asyncio.gather(*taken)) - {os.getpid()}) >= 1
        assert pool.busy == 0 and pool.waiting == 0
        with pool.admitted(), pool.admitted():  # uploads being read count as waiting
            with pytest.raises(PoolBusy), pool.admitted():
                pass
            assert pool.admitting == 2
        assert pool.admitting == 0
    finally:
        pool.shutdown()


async def test_idle_processes_are_let_go_and_a_dead_one_is_replaced() -> None:
    """Issue 33, finding 4: the replay processes go when idle (their memory back) and start again
    with the next replay; a process that dies fails its replay with PoolBusy (503), not the pool."""
    pool = ReplayPool(idle_seconds=0.0)
    try:
        assert await pool.run(os.getpid) != os.getpid()
        await _until(lambda: not pool.started)
        with pytest.raises(PoolBusy):
            await pool.run(os._exit, 1)
        assert pool.busy == 0
        assert await pool.run(os.getpid) != os.getpid()
    finally:
        pool.shutdown()


async def test_a_full_pool_answers_503_with_retry_after(start_server: StartServer, records: list[Record]) -> None:
    """Issue 33, finding 4: a request that finds every replay process busy and the queue full
    gets 503 with ``Retry-After`` and the reason, for an upload and for a stored game's steps."""
    server = await start_server()
    assert await server.app[STORE].read(lambda games: games.archive.add(records[0]))
    pool = server.app[REPLAYS]
    pool.busy, pool.waiting = pool.limit, pool.queued
    try:
        async with aiohttp.ClientSession() as session:
            for method, url, body in (("POST", "api/replay", json.dumps(records[0])),
                                      ("GET", f"api/games/{records[0]['id']}/steps", None)):
                async with session.request(method, server.url + url, data=body) as response:
                    assert response.status == 503
                    assert int(response.headers["Retry-After"]) >= 1
                    assert "too many replays" in (await response.json())["error"]
    finally:
        pool.busy = pool.waiting = 0
