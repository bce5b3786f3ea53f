"""Who played what (docs/ratings.md, docs/server.md "Leaving, idle seats and late joiners"):
statistics and ratings of games in which a person left, or took an agent's seat, count only
what the people played (issue 23, finding 1: after an afternoon of left games the leaderboard
showed 49 games for the agents and 1 for each person).

The records are :func:`tests.records.test_stats_and_rating.crafted`'s two rounds, with
``seat_changes`` or ``ended_by`` added as the server writes them.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.records.test_stats_and_rating import crafted
from tichu.records.rating import INITIAL, K, apply_leaving, expected
from tichu.records.stats import game_stats
from tichu.records.store import MIGRATIONS, GameStore

#: Ben (seat 2) leaves for good before the second round's first event; an agent finishes.
BEN_LEFT = [{"seat": 2, "round": 1, "event": 0, "name": "Bot 3", "kind": "agent:rule", "reason": "left"}]


def left_game(game_id: str, started_at: str, **extra: Any) -> dict[str, Any]:
    """The crafted game with Ben leaving it (his team wins it with the agent's help)."""
    return crafted(id=game_id, started_at=started_at, seat_changes=BEN_LEFT, **extra)


def test_a_person_who_left_has_only_the_rounds_they_began_and_no_result() -> None:
    anna, bot1, ben, bot3 = game_stats(left_game("g", "2026-11-26T10:00:00Z"))
    assert (ben.name, ben.kind, ben.left, ben.whole, ben.won) == ("Ben", "human", True, False, None)
    assert (ben.rounds, ben.bombs, ben.team_points) == (1, 1, 160)  # round 0's four Kings, not round 1's flush
    assert (anna.left, anna.whole, anna.won, anna.rounds) == (False, True, True, 2)  # she played it all
    assert (bot1.won, bot3.won) == (False, False)


def test_calls_and_bombs_after_a_person_left_mid_round_are_not_theirs() -> None:
    """Anna leaves after her call and her Mah Jong (event 2 of round 0): the round is one she began,
    her call is hers; round 1 is the agent's and counts for nobody."""
    record = crafted(seat_changes=[{"seat": 0, "round": 0, "event": 2, "name": "Bot 1", "kind": "agent:rule",
                                    "reason": "left"}])
    anna = game_stats(record)[0]
    assert (anna.tichu_calls, anna.tichu_made, anna.rounds, anna.left, anna.won) == (1, 1, 1, True, None)


def test_a_person_who_joined_an_agents_seat_counts_from_the_round_they_began() -> None:
    """Cleo takes Bot 1's seat before round 1: the seat is hers (a person), from round 1 on; Bot 1's
    failed Grand Tichu of round 0 is not hers, and the agent's stint counts for nobody."""
    record = crafted(seat_changes=[{"seat": 1, "round": 1, "event": 0, "name": "Cleo", "kind": "human",
                                    "reason": "joined"}])
    cleo = game_stats(record)[1]
    assert (cleo.name, cleo.key, cleo.rounds, cleo.grand_calls, cleo.whole, cleo.left) == (
        "Cleo", "Cleo", 1, 0, False, False)
    assert cleo.won is False


def test_a_game_ended_by_a_person_leaving_marks_them() -> None:
    record = crafted(aborted=True, winner=None, ended_by={"seat": 2, "name": "Ben"})
    ben = game_stats(record)[2]
    assert (ben.left, ben.won, ben.rounds) == (True, None, 2)


@given(st.lists(st.sampled_from(["A", "B", "C", "D", "E"]), min_size=4, max_size=4),
       st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True),
       st.dictionaries(st.sampled_from(["A", "B", "C", "D", "E"]), st.floats(1000, 2000)))
def test_leaving_conserves_the_sum_and_never_pays(seats: list[str], leavers: list[int],
                                                  ratings: dict[str, float]) -> None:
    """Property: a game left for good moves no points into or out of the pool, whoever left, and
    the one person who left it falls when they sat nowhere else in the game."""
    before = {key: ratings.get(key, INITIAL) for key in seats}
    after = apply_leaving(dict(before), seats, leavers)
    assert sum(after.values()) == pytest.approx(sum(before.values()))
    alone = leavers[0]
    if seats.count(seats[alone]) == 1:
        single = apply_leaving(dict(before), seats, [alone])
        assert single[seats[alone]] < before[seats[alone]]


def test_the_leaver_loses_what_a_loss_costs_and_the_others_are_not_rated(tmp_path: Path) -> None:
    with GameStore(tmp_path / "t.sqlite3") as store:
        store.archive.add(left_game("g1", "2026-11-26T10:00:00Z"))
        ben, anna = store.statistics.player_stats("Ben"), store.statistics.player_stats("Anna")
        assert ben is not None and anna is not None
        loss = K * expected(INITIAL, INITIAL)
        assert ben["rating"] == INITIAL - loss and (ben["games"], ben["finished"], ben["left"]) == (1, 0, 1)
        assert anna["rating"] == INITIAL and (anna["finished"], anna["wins"]) == (1, 1)  # counted, not rated
        assert store.statistics.player_stats("agent:rule") is None, "the substitute's moves count for nobody"
        board = {entry["name"]: entry for entry in store.statistics.leaderboard(10)}
        assert board["agent:random"]["rating"] == board["agent:heuristic"]["rating"] == INITIAL + loss / 2
        assert (board["Ben"]["games"], board["Ben"]["left"], board["Ben"]["wins"]) == (1, 1, 0)
        before = store.statistics.leaderboard(10)
        store.statistics.rerate()
        assert store.statistics.leaderboard(10) == before


def test_after_an_afternoon_of_left_games_the_leaderboard_ranks_people_by_what_they_played(
        tmp_path: Path) -> None:
    """Anna plays three games to their end and wins them; Ben leaves three games, which agents
    finish and win. Anna leads; Ben, who left, is below the start; no agent gains a game it did not
    play from its start."""
    with GameStore(tmp_path / "t.sqlite3") as store:
        for index in range(3):
            store.archive.add(crafted(id=f"won{index}", started_at=f"2026-11-26T1{index}:00:00Z",
                              players=[{"name": "Anna", "kind": "human"}, {"name": "Bot 1", "kind": "agent:random"},
                                       {"name": "Bot 2", "kind": "agent:rule"},
                                       {"name": "Bot 3", "kind": "agent:heuristic"}]))
            store.archive.add(left_game(f"left{index}", f"2026-11-26T1{index}:30:00Z"))
        board = store.statistics.leaderboard(10)
        names = [entry["name"] for entry in board]
        assert names[0] == "Anna" and names.index("Ben") == len(names) - 1
        ben = next(entry for entry in board if entry["name"] == "Ben")
        assert ben["rating"] < INITIAL and (ben["games"], ben["left"], ben["wins"]) == (3, 3, 0)
        rule = store.statistics.player_stats("agent:rule")
        assert rule is not None and rule["games"] == 3, "only the games agent:rule began"
        games, total = store.archive.list_games(20, 0, player="Ben")
        assert total == 3 and all(game["seat_changes"] == BEN_LEFT for game in games)


def test_the_history_filters_games_with_people_and_names_who_ended_one(tmp_path: Path) -> None:
    agents = [{"name": f"Bot {seat + 1}", "kind": "agent:random"} for seat in range(4)]
    with GameStore(tmp_path / "t.sqlite3") as store:
        store.archive.add(crafted(id="bots", players=agents))
        store.archive.add(crafted(id="ended", started_at="2026-11-26T12:00:00Z", aborted=True, winner=None,
                          ended_by={"seat": 2, "name": "Ben"}))
        assert store.archive.list_games(20, 0)[1] == 2
        games, total = store.archive.list_games(20, 0, people=True)
        assert total == 1 and games[0]["id"] == "ended" and games[0]["ended_by"] == {"seat": 2, "name": "Ben"}
        assert games[0]["seat_changes"] == []


def test_a_version_3_store_learns_who_left_its_games(tmp_path: Path) -> None:
    """The migration to v4 computes the seats again from the records (a game left by Ben, stored
    by a server of v3, where it rated as a game) and rates from scratch."""
    path = tmp_path / "old.sqlite3"
    with closing(sqlite3.connect(path)) as db:
        db.executescript("".join(MIGRATIONS[:3]) + "PRAGMA user_version = 3;")
        db.execute("INSERT INTO games (id, started_at, winner, record) VALUES ('g1', '2026-11-26T10:00:00Z', 20, ?)",
                   (json.dumps(left_game("g1", "2026-11-26T10:00:00Z")),))
        db.commit()
    with GameStore(path) as store:
        assert store.database.version == len(MIGRATIONS) == 6
        ben = store.statistics.player_stats("Ben")
        assert ben is not None and ben["left"] == 1 and ben["rating"] == INITIAL - K / 2
