"""The history API over real HTTP (docs/server.md "History API"): games played by clients at a
real server appear with their players, statistics and ratings; bad parameters are clear 4xx."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.live_server import Message, wait_for_records
from tests.support.raw_client import GAME_WAIT, Client, Server, Skip, StartServer, Strategy, is_event
from tichu.records.rating import INITIAL, rate_games
from tichu.records.record import read_records
from tichu.records.stats import game_stats, player_key
from tichu.records.steps import record_steps, replay_document
from tichu.records.store import GameStore
from tichu.server.keys import STORE_FILE

Record = dict[str, Any]


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

    ratings = rate_games(([player_key(p["name"], p["kind"]) for p in record["players"]], record["winner"], [])
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
    ("/api/games?people=2", 400, "people"),
    ("/api/games?offset=1.5", 400, "offset"),
    ("/api/games?offset=100000000000000000000", 400, "offset"),  # 10**20
    ("/api/games?offset=1000001", 400, "offset"),  # MAX_OFFSET + 1 (docs/server.md: 0..1,000,000)
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
    """Issue 12, Done means: "the API validates its parameters (bad paging, unknown names, huge
    limits get clear 4xx answers)", also a huge offset and one just above the documented maximum."""
    server = await start_server()
    got, body = await get(server, path)
    assert got == status
    assert body["error"] == ("bad_request" if status == 400 else "not_found") and reason in body["reason"]


async def test_the_largest_offset_documented_is_answered(start_server: StartServer) -> None:
    """Issue 12, Done means (API validation): the bound is the documented one, ``offset=1000000``
    is a page (empty here), not an error."""
    server = await start_server()
    assert await get(server, "/api/games?offset=1000000") == (
        200, {"games": [], "total": 0, "limit": 20, "offset": 1_000_000})


async def test_an_empty_server_has_no_games_and_an_empty_leaderboard(start_server: StartServer) -> None:
    server = await start_server()
    assert await get(server, "/api/games") == (200, {"games": [], "total": 0, "limit": 20, "offset": 0})
    assert await get(server, "/api/leaderboard?limit=5") == (200, {"players": [], "limit": 5})
    async with server.session.post(f"http://127.0.0.1:{server.port}/api/games") as response:
        assert response.status == 405


def calling_strategy() -> Strategy:
    """A random player who calls: Grand Tichu in the even rounds (0, 2, ...), a plain Tichu
    before the first card in the odd ones (R6.1, one call per round, R6.3)."""
    called: set[int] = set()

    async def strategy(client: Client, request: Message) -> Message | Skip | None:
        round_index = client.events("round_started")[-1]["round_index"]
        if request["action"] == "announce_grand_tichu":
            return {"announced": round_index % 2 == 0}
        if (request["action"] == "play" and round_index % 2 == 1 and round_index not in called
                and not client.played_this_round):
            called.add(round_index)
            start = len(client.messages)
            await client.send_type("announce")
            await client.wait_event("player_announced", start=start, player_index=client.seat, grand=False)
        return None

    return strategy


def expected_stats(records: list[Record], key: str) -> dict[str, Any]:
    """A player's statistics as docs/server.md defines them, counted from the records replayed
    through the rules (the steps' round ends and plays), not from the store's per-seat rows."""
    games = finished = wins = rounds = tichu = tichu_made = grand = grand_made = doubles = points = bombs = 0
    for record in records:
        steps = replay_document(record)["steps"]
        ends = [step for step in steps if step["kind"] == "round_end"]
        for seat, player in enumerate(record["players"]):
            if (player["kind"] if player["kind"].startswith("agent:") else player["name"]) != key:
                continue
            games += 1
            if not record.get("aborted"):
                finished += 1
                wins += record["winner"] == (20, 31)[seat % 2]
            for end in ends:
                rounds += 1
                first = end["out_order"][0]
                if end["calls"][seat] == 1:
                    tichu += 1
                    tichu_made += end["tichu_success"][seat] is True
                elif end["calls"][seat] == 2:
                    grand += 1
                    grand_made += end["tichu_success"][seat] is True
                doubles += end["double_victory"] and first % 2 == seat % 2
                points += end["round_score"][seat % 2]
            bombs += sum(1 for step in steps if step["seat"] == seat and step.get("combo") == "bomb")

    def rate(part: int, whole: int, digits: int = 3) -> float | None:
        return round(part / whole, digits) if whole else None

    return {"name": key, "games": games, "finished": finished, "wins": wins, "win_rate": rate(wins, finished),
            "rounds": rounds, "tichu_calls": tichu, "tichu_made": tichu_made, "tichu_success": rate(tichu_made, tichu),
            "grand_calls": grand, "grand_made": grand_made, "grand_success": rate(grand_made, grand),
            "double_victories": doubles, "points_per_round": rate(points, rounds, 1), "bombs": bombs}


async def test_the_players_call_and_bomb_statistics_agree_with_the_records(start_server: StartServer) -> None:
    """Issue 12, Done means: games played by clients at the real server appear in the API "with
    correct stats". Anna calls Grand Tichu and Tichu in turns over two games; through
    ``/api/players/{name}`` her and the random agents' Tichu and Grand Tichu calls with success
    rates, double victories, average points per round and bombs equal the values counted from
    the records replayed through the rules."""
    async with asyncio.timeout(2 * GAME_WAIT):
        server = await start_server(target_score=500)  # games of several rounds
        records: list[Record] = []
        for number, table in enumerate(("calls-one", "calls-two")):
            anna = await server.join("Anna", table, seed=number + 3)
            await anna.send_type("start_game")
            await anna.play(strategy=calling_strategy())
            records += await wait_for_records(server, table)
            await anna.close()
    for key in ("Anna", "agent:random"):
        status, stats = await get(server, f"/api/players/{key}")
        assert status == 200
        assert {field: stats[field] for field in expected_stats(records, key)} == expected_stats(records, key)
    # the checks above are not empty: the seeded games have calls of both kinds, made and
    # failed, double victories and bombs
    anna = (await get(server, "/api/players/Anna"))[1]
    assert anna["tichu_calls"] > anna["tichu_made"] > 0 and anna["grand_calls"] > anna["grand_made"] > 0
    agents = (await get(server, "/api/players/agent:random"))[1]
    assert agents["bombs"] > 0 and agents["double_victories"] > 0 and agents["kind"] == "agent:random"

async def test_export_then_import_round_trips_games_stored_by_the_real_server(start_server: StartServer,
                                                                               tmp_path: Path) -> None:
    """Issue 12, Done means: "export then import round-trips", with the SQLite file a real server
    wrote: two finished games and one ended early (its table closed); ``tichu-export``
    writes them, ``tichu-import`` reads them into a fresh file; a second import adds
    nothing; a server on the fresh file answers the history API (games, records, players with
    their statistics and ratings, leaderboard) as one on the original file does."""
    async with asyncio.timeout(3 * GAME_WAIT):
        server = await start_server()
        await play_game(server, "Anna", "one", 1)
        await wait_for_records(server, "one")
        await play_game(server, "Ben", "two", 2)
        await wait_for_records(server, "two")
        cut = await server.join("Cleo", "cut", seed=3)
        await cut.send_type("start_game")
        await cut.play(until="round_over")
        await cut.play(until=None, hold=lambda request: True)
        await server.factory.close_table(server.table("cut"))  # ended early (a stop keeps games)
        await server.stop()
    [aborted] = server.records("cut", aborted=True)
    stored = server.all_records()
    assert len(stored) == 3 and aborted in stored
    exported = tmp_path / "games.jsonl"
    done = run_script("export_games", "--db", str(server.settings.data_dir / STORE_FILE), "--out", str(exported))
    assert "3 games written" in done.stdout
    assert list(read_records(exported)) == stored

    fresh = tmp_path / "fresh"
    first = run_script("import_games", "--db", str(fresh / STORE_FILE), str(exported))
    assert f"{exported}: 3 games added, 0 already stored" in first.stdout
    again = run_script("import_games", "--db", str(fresh / STORE_FILE), str(exported))
    assert f"{exported}: 0 games added, 3 already stored" in again.stdout
    with GameStore(fresh / STORE_FILE) as store:
        assert list(store.archive.records()) == stored

    original = await start_server(data_dir=server.settings.data_dir)
    expected = await history_answers(original)
    assert expected["/api/games"]["total"] == 3 and len(expected["/api/leaderboard"]["players"]) == 3
    imported = await start_server(data_dir=fresh)
    assert await history_answers(imported) == expected


async def history_answers(server: Server) -> dict[str, Any]:
    """What the history API answers about every stored game and every player of them."""
    answers: dict[str, Any] = {}
    for path in ("/api/games", "/api/leaderboard", "/api/players/Anna", "/api/players/Ben", "/api/players/Cleo",
                 "/api/players/agent:random"):
        status, answers[path] = await get(server, path)
        assert status == 200, path
    for game in answers["/api/games"]["games"]:
        status, answers[game["id"]] = await get(server, f"/api/games/{game['id']}")
        assert status == 200
    return answers


def run_script(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a command-line tool (the module ``tichu.cli.NAME``) in its own process, as a user would;
    fail with its output if it fails."""
    done = subprocess.run([sys.executable, "-m", f"tichu.cli.{name}", *args], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


async def test_a_game_ended_in_its_first_round_lists_that_round_and_its_card_points(start_server: StartServer) -> None:
    """Issue 35, finding 4: a game ended early in its first round was listed as "0 rounds, 0 : 0";
    its summary now names the round it ended in and the card points each team had taken in it,
    as a replay of the record's unfinished round says."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        cut = await server.join("Cleo", "cut", seed=3)
        await cut.send_type("start_game")
        await cut.play(until=lambda message: is_event(message, "trick_taken")
                       and message["payload"]["context"]["points"] > 0)
        await cut.play(until=None, hold=lambda request: True)
        await server.factory.close_table(server.table("cut"))
    [record] = server.records("cut", aborted=True)
    assert record["rounds"] == [] and "unfinished_round" in record
    status, page = await get(server, "/api/games")
    assert status == 200
    [summary] = page["games"]
    won = record_steps(record)[0][-1]["won_points"]
    assert summary["unfinished"] == {"round": 0, "points": [won[0] + won[2], won[1] + won[3]]}
    assert sum(summary["unfinished"]["points"]) > 0, "no card points taken in the round"
    assert summary["score"] == [0, 0] and summary["rounds"] == 0
