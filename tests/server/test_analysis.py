"""Game analyses at the server (docs/server.md, "Game analysis"): the HTTP API's statuses and
errors, the runner (to done, stored, through a restart, the bound of its queue,
``TICHU_ANALYSIS=all``), a live decision before the next judged point, and the players' accuracy."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support import analysis as support
from tests.support.live_server import WAIT, eventually, wait_for_records
from tests.support.pool_agents import SleepyAgent
from tests.support.raw_client import Server, StartServer
from tichu.analysis import DEFAULT_SAMPLES
from tichu.records.store import GameStore
from tichu.server.config import Settings
from tichu.server.keys import ANALYSES, POOL, STORE, STORE_FILE
from tichu.server.workers.agent_pool import AgentPool
from tichu.server.workers.analysis_runner import ANALYSIS, MAX_QUEUED_ANALYSES, AnalysisRunner
from tichu.server.workers.store_writer import StoreWriter

Record = dict[str, Any]
#: Deals per judged decision in these tests (fast; the numbers are noise).
SAMPLES = 2


@pytest.fixture(scope="module")
def records() -> list[Record]:
    return support.one_round_records(3)


async def call(server: Server, method: str, path: str) -> tuple[int, Any]:
    async with server.session.request(method, f"{server.url}{path.lstrip('/')}") as response:
        assert response.content_type == "application/json"
        return response.status, await response.json()


async def add_games(server: Server, records: list[Record]) -> None:
    await server.app[STORE].read(lambda store: store.archive.add_all(records))


async def until_status(server: Server, game_id: str, *statuses: str) -> dict[str, Any]:
    """Poll ``GET .../analysis`` until its status is one of ``statuses``; return the answer."""
    async with asyncio.timeout(6 * WAIT):
        while True:
            status, answer = await call(server, "GET", f"/api/games/{game_id}/analysis")
            assert status == 200
            if answer["status"] in statuses:
                found: dict[str, Any] = answer
                return found
            await asyncio.sleep(0.05)


async def test_the_api_analyses_a_game_stores_it_and_serves_it_after_a_restart(
        start_server: StartServer, records: list[Record]) -> None:
    """none -> queued/running -> done with the document; a second POST is 200; Anna's accuracy
    counts her judged decisions; a new server on the same data serves the same document."""
    server = await start_server(analysis_samples=SAMPLES)
    await add_games(server, records[:1])
    game_id = records[0]["id"]
    assert await call(server, "GET", f"/api/games/{game_id}/analysis") == (
        200, {"status": "none", "progress": [0, 0], "analysis": None})
    status, queued = await call(server, "POST", f"/api/games/{game_id}/analysis")
    assert status == 202 and queued["status"] in ("queued", "running") and queued["analysis"] is None
    done = await until_status(server, game_id, "done", "failed")
    document = done["analysis"]
    assert done["status"] == "done" and document["format"] == "tichu-analysis/1" and document["game_id"] == game_id
    judged = document["judgements"]
    assert judged and {judgement["seat"] for judgement in judged} == {0}  # the person's seat only
    assert done["progress"] == [len(judged), len(judged)]
    assert await call(server, "POST", f"/api/games/{game_id}/analysis") == (200, done)

    status, anna = await call(server, "GET", "/api/players/Anna")
    mean = round(sum(judgement["loss"] for judgement in judged) / len(judged), 2)
    assert status == 200 and anna["accuracy"] == {"games": 1, "decisions": len(judged), "mean_loss": mean}
    status, agents = await call(server, "GET", "/api/players/agent:random")
    assert status == 200 and agents["accuracy"] == {"games": 0, "decisions": 0, "mean_loss": None}

    await server.stop()
    again = await start_server(data_dir=server.settings.data_dir, analysis_samples=SAMPLES)
    assert await call(again, "GET", f"/api/games/{game_id}/analysis") == (200, done)


async def test_the_apis_errors(start_server: StartServer, records: list[Record]) -> None:
    """404 for an unknown game, 400 for a bad id, 403 for a POST when analyses are off (a GET
    still answers)."""
    server = await start_server(analysis_samples=SAMPLES)
    for method in ("GET", "POST"):
        status, answer = await call(server, method, "/api/games/nope/analysis")
        assert status == 404 and answer["error"] == "not_found"
        status, answer = await call(server, method, f"/api/games/{'x' * 101}/analysis")
        assert status == 400 and answer["error"] == "bad_request"
    off = await start_server(analysis="off")
    await add_games(off, records[:1])
    status, answer = await call(off, "POST", f"/api/games/{records[0]['id']}/analysis")
    assert status == 403 and answer["error"] == "forbidden" and "TICHU_ANALYSIS" in answer["reason"]
    assert (await call(off, "GET", f"/api/games/{records[0]['id']}/analysis"))[1]["status"] == "none"


async def test_a_full_queue_is_503_and_a_failure_is_kept(start_server: StartServer, records: list[Record]) -> None:
    """While a live decision is out nothing is judged: with room for one waiting analysis, the
    first game runs (waits), the second waits, the third is refused with 503. A record that does
    not replay fails with a reason."""
    server = await start_server(analysis_samples=SAMPLES)
    broken = {**records[2], "id": "broken", "rounds": [{"bogus": True}]}
    await add_games(server, [*records, broken])
    server.app[ANALYSES].bound = 1
    live = asyncio.create_task(server.app[POOL].decide(SleepyAgent("Live", 1).doze, 3.0))
    await eventually(lambda: server.app[POOL].live == 1)
    first, second, third = (record["id"] for record in records)
    assert (await call(server, "POST", f"/api/games/{first}/analysis"))[0] == 202
    await eventually(lambda: server.app[ANALYSES].progress is not None)
    assert (await call(server, "POST", f"/api/games/{second}/analysis"))[0] == 202
    assert (await call(server, "POST", f"/api/games/{second}/analysis"))[0] == 202  # queued already
    status, answer = await call(server, "POST", f"/api/games/{third}/analysis")
    assert status == 503 and answer["error"] == "busy"
    assert (await call(server, "GET", f"/api/games/{third}/analysis"))[1]["status"] == "none"
    await live
    await until_status(server, second, "done")
    assert (await call(server, "POST", "/api/games/broken/analysis"))[0] == 202
    failed = await until_status(server, "broken", "failed", "done")
    assert failed["status"] == "failed" and failed["reason"] and failed["analysis"] is None


async def test_analyses_stored_as_queued_or_running_are_queued_again_on_start(
        start_server: StartServer, records: list[Record], tmp_path: Path) -> None:
    """A stop left one analysis running and one queued: the next start runs both."""
    data = tmp_path / "stopped"
    with GameStore(data / STORE_FILE) as store:
        store.archive.add_all(records[:2])
        store.analyses.queue_analysis(records[0]["id"], "2026-11-26T10:00:00Z")
        store.analyses.start_analysis(records[0]["id"], 7, "2026-11-26T10:00:01Z")
        store.analyses.queue_analysis(records[1]["id"], "2026-11-26T10:00:02Z")
    server = await start_server(data_dir=data, analysis_samples=SAMPLES)
    for record in records[:2]:
        assert (await until_status(server, record["id"], "done", "failed"))["status"] == "done"


async def test_all_analyses_every_finished_game(start_server: StartServer) -> None:
    """``TICHU_ANALYSIS=all``: a game played to its end at the server is analysed without asking."""
    server = await start_server(analysis="all", analysis_samples=SAMPLES, target_score=1)
    client = await server.join("Anna", "one", seed=3)
    await client.send_type("start_game")
    await client.play()
    [record] = await wait_for_records(server, "one")
    done = await until_status(server, record["id"], "done", "failed")
    assert done["status"] == "done" and done["analysis"]["judgements"]


async def test_the_queue_is_bounded(tmp_path: Path) -> None:
    """:data:`MAX_QUEUED_ANALYSES` games wait at most; one more is refused, one queued already is
    not queued twice."""
    writer = await asyncio.to_thread(StoreWriter, tmp_path / STORE_FILE)
    try:
        runner = AnalysisRunner(writer, AgentPool(1), ANALYSIS, SAMPLES)  # not started: nothing runs
        answers = [runner.request(f"g{index}") for index in range(MAX_QUEUED_ANALYSES)]
        assert answers == ["queued"] * MAX_QUEUED_ANALYSES
        assert runner.request("g0") == "already"
        assert runner.request("one more") == "full" and runner.status("one more") is None
    finally:
        await asyncio.to_thread(writer.close)


async def test_a_live_decision_goes_before_the_next_judged_point(tmp_path: Path, records: list[Record]) -> None:
    """While an analysis runs, a live decision (0.5 s) is asked for: no point's judgement begins
    between the moment it is asked for and its answer; the analysis then goes on to its end."""
    writer = await asyncio.to_thread(StoreWriter, tmp_path / STORE_FILE)
    pool = AgentPool(1, background_nice=0)  # at 19 a busy machine starves it between hand-over and start
    runner = AnalysisRunner(writer, pool, support.TIMED, SAMPLES)
    game_id = records[0]["id"]
    try:
        await writer.read(lambda store: store.archive.add(records[0]))
        await pool.decide(SleepyAgent("Warm", 1).doze, 0.0)  # the live worker is up
        await runner.start()
        assert runner.request(game_id) == "queued"
        await eventually(lambda: runner.progress is not None and runner.progress.done >= 1, 6 * WAIT)
        progress = runner.progress
        assert progress is not None and progress.done < progress.total, "too few points to look between"
        asked = time.monotonic()
        await pool.decide(SleepyAgent("Live", 2).doze, 0.5)
        answered = time.monotonic()
        await eventually(lambda: runner.progress is None, 6 * WAIT)
        row = await writer.read(lambda store: store.analyses.analysis(game_id))
        assert row is not None and row.status == "done" and row.document is not None
        began: list[float] = json.loads(row.document)["judged_at"]
        assert [moment for moment in began if asked < moment < answered] == []
        assert any(moment > answered for moment in began), "the analysis went on after the live decision"
    finally:
        await runner.stop()
        await pool.shutdown()
        await asyncio.to_thread(writer.close)


def test_the_settings() -> None:
    """``TICHU_ANALYSIS`` is on-request by default, one of its three modes, and the samples at
    least 1 (the method's default otherwise); anything else stops the start, naming the variable."""
    assert (Settings().analysis, Settings().analysis_samples) == ("on-request", DEFAULT_SAMPLES)
    loaded = Settings.load({"TICHU_ANALYSIS": "all", "TICHU_ANALYSIS_SAMPLES": "8"}, env_file=None)
    assert (loaded.analysis, loaded.analysis_samples) == ("all", 8)
    for wrong in ({"TICHU_ANALYSIS": "sometimes"}, {"TICHU_ANALYSIS_SAMPLES": "0"}):
        with pytest.raises(ValueError, match=next(iter(wrong))):
            Settings.load(wrong, env_file=None)
