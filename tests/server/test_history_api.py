"""The history API over real HTTP (docs/server.md "History API"): games played by clients at a
real server appear with their players, statistics and ratings; bad parameters are clear 4xx."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.support.live_server import wait_for_records
from tests.support.raw_client import GAME_WAIT, Server, StartServer
from tichu.records.rating import INITIAL, rate_games
from tichu.records.stats import game_stats, player_key


async def get(server: Server, path: str) -> tuple[int, Any]:
    async with server.session.get(f"http://127.0.0.1:{server.port}{path}") as response:
        assert response.content_type == "application/json"
        return response.status, await response.json()


async def play_game(server: Server, name: str, table: str, seed: int) -> None:
    client = await server.join(name, table, seed=seed)
    await client.send_type("start_game")
    await client.play()


async def test_games_played_at_the_server_appear_with_their_stats_and_ratings(start_server: StartServer) -> None:
    """Two games (Anna, then Ben, each with three random agents): the list, the records, each
    player's sums and the ratings agree with the stored records."""
    async with asyncio.timeout(2 * GAME_WAIT):
        server = await start_server()
        await play_game(server, "Anna", "one", 1)
        [first] = await wait_for_records(server, "one")
        await play_game(server, "Ben", "two", 2)
        [second] = await wait_for_records(server, "two")
    status, page = await get(server, "/api/games")
    assert status == 200 and page["total"] == 2 and (page["limit"], page["offset"]) == (20, 0)
    newest = page["games"][0]
    assert [game["id"] for game in page["games"]] == [second["id"], first["id"]]  # newest first
    summary = next(game for game in page["games"] if game["id"] == first["id"])
    assert summary["table_name"] == "one" and summary["score"] == first["score"]
    assert summary["winner"] == first["winner"] and summary["rounds"] == len(first["rounds"])
    assert summary["aborted"] is False and summary["started_at"] == first["started_at"]
    assert summary["players"][0] == {"seat": 0, "name": "Anna", "kind": "human", "key": "Anna"}
    assert newest["players"][1]["key"] == "agent:random"

    status, record = await get(server, f"/api/games/{first['id']}")
    assert status == 200 and record == first

    status, anna = await get(server, "/api/players/Anna")
    [seat] = [s for s in game_stats(first) if s.key == "Anna"]
    assert status == 200 and anna["games"] == 1 and anna["wins"] == int(bool(seat.won))
    assert (anna["rounds"], anna["tichu_calls"], anna["grand_calls"], anna["bombs"]) == (
        seat.rounds, seat.tichu_calls, seat.grand_calls, seat.bombs)
    assert anna["points_per_round"] == round(seat.team_points / seat.rounds, 1)

    ratings = rate_games(([player_key(p["name"], p["kind"]) for p in record["players"]], record["winner"])
                         for record in sorted([first, second], key=lambda r: (r["started_at"], r["id"])))
    assert anna["rating"] == round(ratings["Anna"], 1) != INITIAL
    status, board = await get(server, "/api/leaderboard")
    assert status == 200
    assert {entry["name"]: entry["rating"] for entry in board["players"]} == {
        key: round(value, 1) for key, value in ratings.items()}
    assert [entry["rank"] for entry in board["players"]] == [1, 2, 3]
    status, robots = await get(server, "/api/players/agent:random")
    assert status == 200 and robots["games"] == 6 and robots["kind"] == "agent:random"

    status, only_ben = await get(server, "/api/games?player=Ben&limit=1")
    assert status == 200 and only_ben["total"] == 1 and only_ben["games"][0]["id"] == second["id"]
    status, later = await get(server, "/api/games?since=2999-01-01")
    assert status == 200 and later == {"games": [], "total": 0, "limit": 20, "offset": 0}
    day = first["started_at"][:10]
    status, today = await get(server, f"/api/games?since={day}&until={day}")
    assert status == 200 and today["total"] == 2
    status, paged = await get(server, "/api/games?limit=1&offset=1")
    assert status == 200 and len(paged["games"]) == 1 and paged["total"] == 2


@pytest.mark.parametrize(("path", "status", "reason"), [
    ("/api/games?limit=0", 400, "limit"),
    ("/api/games?limit=101", 400, "limit"),
    ("/api/games?limit=99999999999999999999", 400, "limit"),
    ("/api/games?limit=ten", 400, "limit"),
    ("/api/games?offset=-1", 400, "offset"),
    ("/api/games?offset=1.5", 400, "offset"),
    ("/api/games?since=yesterday", 400, "since"),
    ("/api/games?until=2026-13-40", 400, "until"),
    ("/api/games?since=2026-11-25&until=2026-11-24", 400, "since"),
    ("/api/games?player=" + "x" * 65, 400, "player"),
    ("/api/players/" + "x" * 65, 400, "name"),
    ("/api/players/Nobody", 404, "no stored game"),
    ("/api/games/no-such-game", 404, "no game"),
    ("/api/games/" + "g" * 101, 400, "game id"),
    ("/api/leaderboard?limit=1000", 400, "limit"),
])
async def test_bad_parameters_and_unknown_names_are_clear_errors(start_server: StartServer, path: str, status: int,
                                                                 reason: str) -> None:
    server = await start_server()
    got, body = await get(server, path)
    assert got == status
    assert body["error"] == ("bad_request" if status == 400 else "not_found") and reason in body["reason"]


async def test_an_empty_server_has_no_games_and_an_empty_leaderboard(start_server: StartServer) -> None:
    server = await start_server()
    assert await get(server, "/api/games") == (200, {"games": [], "total": 0, "limit": 20, "offset": 0})
    assert await get(server, "/api/leaderboard?limit=5") == (200, {"players": [], "limit": 5})
    async with server.session.post(f"http://127.0.0.1:{server.port}/api/games") as response:
        assert response.status == 405
