"""Per-game statistics (:mod:`tichu.records.stats`) and ratings (:mod:`tichu.records.rating`),
and the store's seats, sums and ratings built from them (schema v3)."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tichu.arena.arena import Arena
from tichu.records.rating import INITIAL, K, Outcome, apply_game, expected, rate_games
from tichu.records.stats import game_stats, is_finished, player_key
from tichu.records.store import MIGRATIONS, GameStore

Record = dict[str, Any]
PLAYERS = [{"name": "Anna", "kind": "human"}, {"name": "Bot 1", "kind": "agent:random"},
           {"name": "Ben", "kind": "human"}, {"name": "Bot 3", "kind": "agent:heuristic"}]


def crafted(**extra: Any) -> Record:
    """Two rounds whose counts are known: Anna calls Tichu and goes out first, then Ben and Anna
    win a double victory; Bot 1 calls Grand Tichu and fails; a bomb out of turn (Bot 3) and one
    at its turn (Ben, four Kings) are played."""
    return {"format": "tichu-record/1", "id": "c1", "started_at": "2026-11-24T10:00:00Z", "seed": None,
            "rules": {"target_score": 200}, "players": PLAYERS, "table": "home",
            "rounds": [
                {"grand_tichu": [False, True, False, False],
                 "events": [{"seat": 0, "tichu": True}, {"seat": 0, "play": "Ma"}, {"seat": 0, "wish": 0},
                            {"seat": 3, "bomb": "S5 B5 G5 R5"}, {"seat": 2, "play": "SK BK GK RK"},
                            {"seat": 1, "play": "Ph R5"}],
                 "out_order": [0, 3, 1], "double_victory": False, "card_points": [60, 40],
                 "bonus": [100, -200], "score": [160, -160]},
                {"grand_tichu": [False, False, False, False], "events": [{"seat": 2, "play": "S2 S3 S4 S5 S6"}],
                 "out_order": [2, 0], "double_victory": True, "card_points": [200, 0], "bonus": [0, 0],
                 "score": [200, 0]},
            ],
            "score": [360, -160], "winner": 20, **extra}


@pytest.fixture(scope="module")
def arena_games() -> list[Record]:
    """Whole records of real games (the Arena's, seed 11)."""
    records: list[Record] = []
    Arena(["random", "heuristic", "random", "heuristic"], games=4, seed=11, workers=1, records=True,
          target_score=300).run(on_record=records.append)
    return records


def test_the_stats_of_a_crafted_game_count_calls_bombs_and_double_victories() -> None:
    anna, bot1, ben, bot3 = game_stats(crafted())
    assert (anna.key, bot1.key, ben.key, bot3.key) == ("Anna", "agent:random", "Ben", "agent:heuristic")
    assert (anna.team, bot1.team, anna.won, bot1.won) == (20, 31, True, False)
    assert (anna.tichu_calls, anna.tichu_made, bot1.grand_calls, bot1.grand_made) == (1, 1, 1, 0)
    assert (bot3.bombs, ben.bombs, anna.bombs, bot1.bombs) == (1, 2, 0, 0)  # four Kings and a straight flush
    assert (anna.double_victories, ben.double_victories, bot1.double_victories) == (1, 1, 0)
    assert (anna.rounds, anna.team_points, bot1.team_points) == (2, 360, -160)


def test_an_aborted_game_counts_its_rounds_but_wins_nothing() -> None:
    record = crafted(aborted=True, winner=None)
    assert not is_finished(record)
    assert {seat.won for seat in game_stats(record)} == {None}


def test_a_record_without_players_is_no_stats() -> None:
    with pytest.raises(ValueError):
        game_stats({"id": "x", "rounds": []})
    assert player_key("Bot 2", "agent:montecarlo") == "agent:montecarlo" and player_key("Anna", "human") == "Anna"


def test_the_stats_of_real_games_agree_with_their_records(arena_games: list[Record]) -> None:
    """Every seat's counts, from real records: calls against the events, the points against the score."""
    for record in arena_games:
        stats = game_stats(record)
        assert [seat.kind for seat in stats] == [player["kind"] for player in record["players"]]
        assert [seat.team_points for seat in stats] == [record["score"][seat % 2] for seat in range(4)]
        for seat in stats:
            assert seat.won == (record["winner"] == seat.team)
            assert seat.rounds == len(record["rounds"])
            calls = sum(1 for round_ in record["rounds"] for event in round_["events"]
                        if event["seat"] == seat.seat and event.get("tichu"))
            grand = sum(1 for round_ in record["rounds"] if round_["grand_tichu"][seat.seat])
            assert (seat.tichu_calls, seat.grand_calls) == (calls, grand)
            assert seat.tichu_made <= seat.tichu_calls and seat.grand_made <= seat.grand_calls
            assert seat.bombs >= sum(1 for round_ in record["rounds"] for event in round_["events"]
                                     if event["seat"] == seat.seat and "bomb" in event)


def test_elo_on_team_averages_by_hand() -> None:
    """Even teams: the winners gain K/2 each, the losers lose as much; a stronger winner gains less."""
    ratings = apply_game({}, ["a", "b", "c", "d"], 20)
    assert ratings == {"a": INITIAL + K / 2, "c": INITIAL + K / 2, "b": INITIAL - K / 2, "d": INITIAL - K / 2}
    again = apply_game(dict(ratings), ["a", "b", "c", "d"], 20)
    assert again["a"] - ratings["a"] == pytest.approx(K * (1 - expected(ratings["a"], ratings["b"])))
    assert again["a"] - ratings["a"] < K / 2
    assert expected(1900, 1500) == pytest.approx(1 / (1 + 10 ** (-1)))
    with pytest.raises(ValueError):
        apply_game({}, ["a", "b", "c", "d"], 0)


keys = st.sampled_from(["Anna", "Ben", "Cleo", "Dan", "agent:random", "agent:montecarlo"])
games: st.SearchStrategy[list[Outcome]] = st.lists(
    st.tuples(st.lists(keys, min_size=4, max_size=4), st.sampled_from([20, 31]), st.just([])),
    max_size=30)


@given(games, st.lists(keys, min_size=4, max_size=4), st.sampled_from([20, 31]))
def test_every_game_conserves_the_sum_and_lifts_the_winners(history: list[Outcome], seats: list[str],
                                                           winner: int) -> None:
    """Property: a game moves no rating points into or out of the pool, and a player who sits
    only on the winning team rises (one only on the losing team falls)."""
    before = rate_games(history)
    for key in seats:
        before.setdefault(key, INITIAL)
    after = apply_game(dict(before), seats, winner)
    assert sum(after.values()) == pytest.approx(sum(before.values()))
    winners = {key for seat, key in enumerate(seats) if (seat % 2 == 0) == (winner == 20)}
    losers = {key for seat, key in enumerate(seats) if (seat % 2 == 0) != (winner == 20)}
    for key in winners - losers:
        assert after[key] > before[key]
    for key in losers - winners:
        assert after[key] < before[key]


def test_the_store_sums_stats_and_rates_in_order_whatever_the_order_of_adding(
        tmp_path: Path, arena_games: list[Record]) -> None:
    """Incremental ratings (games added in time order) equal ratings from scratch (older games
    imported later); the sums are the per-game stats added up."""
    dated = [{**record, "started_at": f"2026-11-24T10:0{number}:00Z"} for number, record in enumerate(arena_games)]
    with GameStore(tmp_path / "a.sqlite3") as in_order, GameStore(tmp_path / "b.sqlite3") as shuffled:
        for record in dated:
            in_order.archive.add(record)
        shuffled.archive.add_all(dated[2:])
        shuffled.archive.add_all(dated[:2])
        board = in_order.statistics.leaderboard(10)
        assert board == shuffled.statistics.leaderboard(10)
        expected_ratings = rate_games(([player_key(p["name"], p["kind"]) for p in record["players"]], record["winner"],
                                       []) for record in dated)
        assert {entry["name"]: entry["rating"] for entry in board} == {
            key: round(value, 1) for key, value in expected_ratings.items()}
        stats = in_order.statistics.player_stats("agent:heuristic")
        assert stats is not None and in_order.statistics.player_stats("nobody") is None
        seats = [seat for record in dated for seat in game_stats(record) if seat.key == "agent:heuristic"]
        assert stats["games"] == len(seats) == 2 * len(dated)
        assert stats["wins"] == sum(1 for seat in seats if seat.won)
        assert stats["tichu_calls"] == sum(seat.tichu_calls for seat in seats)
        assert stats["rounds"] == sum(seat.rounds for seat in seats)
        assert stats["points_per_round"] == round(sum(s.team_points for s in seats) / stats["rounds"], 1)


def test_list_games_filters_and_pages(tmp_path: Path) -> None:
    with GameStore(tmp_path / "t.sqlite3") as store:
        store.archive.add(crafted())
        store.archive.add(crafted(id="c2", started_at="2026-11-25T10:00:00Z",
                          players=[{**PLAYERS[0], "name": "Cleo"}, *PLAYERS[1:]]))
        store.archive.add({"id": "odd", "started_at": "2026-11-23T10:00:00Z"})  # no players: listed, counts for nobody
        games, total = store.archive.list_games(20, 0)
        assert [game["id"] for game in games] == ["c2", "c1", "odd"] and total == 3
        assert games[1]["players"][1] == {"seat": 1, "name": "Bot 1", "kind": "agent:random", "key": "agent:random"}
        assert (games[1]["rounds"], games[1]["score"], games[1]["winner"], games[1]["aborted"]) == (2, [360, -160], 20,
                                                                                                  False)
        assert store.archive.list_games(1, 1)[0][0]["id"] == "c1"
        assert [g["id"] for g in store.archive.list_games(20, 0, player="Anna")[0]] == ["c1"]
        assert store.archive.list_games(20, 0, player="agent:random")[1] == 2
        assert [g["id"] for g in store.archive.list_games(20, 0, since="2026-11-24T00:00:00Z",
                                                  until="2026-11-25T00:00:00Z")[0]] == ["c1"]


def test_a_version_2_store_gains_the_seats_and_ratings_of_its_records(tmp_path: Path) -> None:
    """The migration to v3 back-fills ``game_players`` and the ratings from the stored records."""
    path = tmp_path / "old.sqlite3"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(MIGRATIONS[0] + MIGRATIONS[1] + "PRAGMA user_version = 2;")
        db.execute("INSERT INTO games (id, started_at, winner, record) VALUES ('c1', '2026-11-24T10:00:00Z', 20, ?)",
                   (json.dumps(crafted()),))
        db.execute("INSERT INTO games (id, started_at, record) VALUES ('junk', 'then', '{\"id\": \"junk\"}')")
        db.commit()
    with GameStore(path) as store:
        assert store.database.version == len(MIGRATIONS) == 6
        anna = store.statistics.player_stats("Anna")
        assert anna is not None and anna["games"] == 1 and anna["wins"] == 1 and anna["tichu_made"] == 1
        assert anna["rating"] == INITIAL + K / 2
        assert store.statistics.player_stats("agent:random") is not None
        assert store.archive.get("junk") == {"id": "junk"}


def test_an_aborted_game_is_listed_and_counted_but_moves_no_rating(tmp_path: Path) -> None:
    with GameStore(tmp_path / "t.sqlite3") as store:
        store.archive.add(crafted(aborted=True, winner=None))
        store.running.end_game("c2", crafted(id="c2", started_at="2026-11-24T11:00:00Z"))  # as the server stores one
        anna = store.statistics.player_stats("Anna")
        assert anna is not None and (anna["games"], anna["finished"], anna["wins"]) == (2, 1, 1)
        assert anna["rating"] == INITIAL + K / 2 and anna["rounds"] == 4
        games, total = store.archive.list_games(20, 0)
        assert total == 2 and [game["aborted"] for game in games] == [False, True]
        store.statistics.rerate()
        assert store.statistics.player_stats("Anna") == anna
