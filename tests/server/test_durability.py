"""A power cut or ``kill -9`` loses no game: the server stores each running game as it is
played (its deals and accepted actions, the people's seats by session hash) and, when it
starts again, rebuilds it through the rules and keeps the seats for the grace period.

These tests run the real server as a process (:mod:`tests.support.process_server`) with a
real SQLite file, and kill it with SIGKILL.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.live_server import WAIT
from tests.support.process_server import ProcessServer
from tests.support.raw_client import StartServer, is_error, is_request
from tichu.agents.agent import AgentPlayer
from tichu.agents.random_agent import RandomAgent
from tichu.core.ruleset import RuleSet
from tichu.engine.engine import GameEngine
from tichu.engine.events import Event
from tichu.records.journal import Entry, JournalCursor
from tichu.records.record import json_list, json_object, replay
from tichu.records.store import GameStore
from tichu.server.keys import STORE_FILE
from tichu.server.workers.store_writer import session_hash

#: A quick game, a grace period long enough for a restart. The agents are rule agents, which
#: decide from the view alone (no random draws): offered a Tichu call or a bomb again after
#: the restart, on the same view, they answer as before, so the person's request is the same.
GRACE = 4.0
SETTINGS = {"seed": 7, "agent": "rule", "agent_delay": 0, "bomb_window": 0, "grace_period": GRACE,
            "hints": "off", "target_score": 200, "message_rate": 1000000, "message_burst": 1000000}


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[ProcessServer]:
    """A server process with its data folder in ``tmp_path``."""
    started = ProcessServer(tmp_path / "data", SETTINGS)
    await started.start()
    yield started
    await started.close()


def _stored(server: ProcessServer) -> GameStore:
    return GameStore(server.data_dir / STORE_FILE)


async def _ended_games(server: ProcessServer, timeout: float = WAIT) -> list[dict[str, Any]]:
    """The stored records once no game is stored as running (the writer thread has written the end)."""
    async with asyncio.timeout(timeout):
        while True:
            with _stored(server) as store:
                if not store.running.games():
                    return list(store.archive.records())
            await asyncio.sleep(0.05)


async def _journal_settled(server: ProcessServer) -> None:
    """Wait until the store's journal stops growing (the writer thread has caught up)."""
    path = server.data_dir / STORE_FILE
    last = -1
    for _ in range(int(WAIT / 0.1)):
        with sqlite3.connect(path) as db:
            count = db.execute("SELECT COUNT(*) FROM running_actions").fetchone()[0]
        if count == last and count > 0:
            return
        last = count
        await asyncio.sleep(0.1)
    raise AssertionError("the journal did not settle")


@pytest.mark.slow
async def test_sigkill_in_the_middle_of_a_trick_loses_nothing(server: ProcessServer) -> None:
    """Killed (SIGKILL) while a person must answer within a trick, the server comes back: the
    client reconnects with its session id, finds its hand and the same open request, and
    finishes the game, whose record replays cleanly through the rules (R1..R7)."""
    ann = await server.connect({"player_name": "Ann", "table_name": "durable"}, "Ann")
    await ann.send_type("start_game")
    held = await ann.play(hold=lambda request: request["action"] == "play"
                          and request["context"]["trick_combination"] is not None)
    before = held["payload"]
    assert ann.session_id is not None
    await _journal_settled(server)

    with _stored(server) as store:
        [running] = store.running.games()
    assert running.seats == {ann.seat: ("Ann", session_hash(ann.session_id))}
    assert ann.session_id.encode() not in (server.data_dir / STORE_FILE).read_bytes()

    server.kill()
    await ann.close()
    await server.start()

    back = await server.connect({"session_id": ann.session_id}, "Ann", seed=2)
    joined = back.events("player_joined")[-1]
    assert joined["session_id"] == ann.session_id
    assert sorted(map(tuple, joined["private_state"]["hand_cards"])) == \
        sorted(map(tuple, before["context"]["hand_cards"]))
    pending = joined["pending_request"]
    if pending is None:  # the rebuilt engine may still be asking the agents' offers (R6.1, R4.3) first
        _, message = await back.wait_for(lambda m: is_request(m))
        pending = message["payload"]
    assert pending["action"] == "play"
    for key in ("hand_cards", "trick_combination", "trick_owner_index", "wish_value", "legal_plays"):
        assert pending["context"][key] == before["context"][key], key
    public = joined["public_state"]
    assert public["is_running"] and public["current_turn_index"] == back.seat

    over = await back.play("game_over")
    assert over["payload"]["context"]["winner"] in (20, 31)
    back.assert_clean()
    [record] = await _ended_games(server)
    assert not record.get("aborted") and record["players"][back.seat] == {"name": "Ann", "kind": "human"}
    assert replay(record) is None
    assert record["id"] == running.id


@pytest.mark.slow
async def test_a_session_not_back_within_the_grace_period_leaves_the_game_to_agents(server: ProcessServer) -> None:
    """After a restart, a person who does not come back within the grace period is replaced by
    an agent, like any dropped client; the table, then without people, is closed a grace period
    later (its game stored as aborted, or finished if the agents were quicker)."""
    ann = await server.connect({"player_name": "Ann", "table_name": "gone"}, "Ann")
    await ann.send_type("start_game")
    await ann.play(hold=lambda request: request["action"] == "play")
    await _journal_settled(server)
    server.kill()
    await ann.close()
    await server.start()
    [record] = await _ended_games(server, timeout=2 * GRACE + WAIT)
    seat = ann.seat or 0
    assert record["players"][seat] == {"name": "Ann", "kind": "human"}  # the seat is hers: she began it
    [change] = record["seat_changes"]
    assert change["seat"] == seat and change["reason"] == "left" and change["kind"].startswith("agent")
    assert record.get("aborted") or replay(record) is None


@pytest.mark.slow
async def test_a_sigterm_restart_keeps_the_games_and_the_lobbies(server: ProcessServer) -> None:
    """An update (``systemctl restart``: SIGTERM, then a new start) in the middle of a trick:
    the clients hear SERVER_DOWN "back soon", the server exits, and started again it has the game
    and the lobby back. Every client reconnects with its session id: Ann and Ben finish their
    game, whose record replays; Cleo finds her lobby as it was (host, options)."""
    ann = await server.connect({"player_name": "Ann", "table_name": "update"}, "Ann")
    ben = await server.connect({"player_name": "Ben", "table_name": "update"}, "Ben", seed=2)
    cleo = await server.connect({"player_name": "Cleo", "table_name": "waiting"}, "Cleo", seed=3)
    await cleo.send_type("set_options", on_leave="end", target_score=500)
    await cleo.wait_for(lambda m: m.get("type") == "notification" and m["payload"]["event"] == "options_changed")
    await ann.send_type("start_game")
    benning = asyncio.create_task(ben.play(until=None))
    await ann.play(hold=lambda request: request["action"] == "play"
                   and request["context"]["trick_combination"] is not None)
    await _journal_settled(server)
    assert server.terminate() == 0
    for client in (ann, cleo):
        _, down = await client.wait_for(lambda m: is_error(m, 106))
        assert down["payload"]["context"]["back_soon"] is True
    benning.cancel()
    await asyncio.gather(benning, return_exceptions=True)
    with _stored(server) as store:
        assert [game.table_name for game in store.running.games()] == ["update"]
        assert len(store.archive) == 0, "no game ended"
    await server.start()
    clients = [await server.connect({"session_id": client.session_id or ""}, client.name, seed=10 + index)
               for index, client in enumerate((ann, ben, cleo))]
    back_cleo = clients[2]
    options = back_cleo.events("player_joined")[0]["options"]
    assert options["on_leave"] == "end" and back_cleo.seat == cleo.seat
    await asyncio.gather(clients[0].play("game_over"), clients[1].play("game_over"))
    [record] = await _ended_games(server)
    assert not record.get("aborted") and replay(record) is None
    assert [player["name"] for player in record["players"]][:2] == ["Ann", "Ben"]


def _journal_of_a_game(seed: int) -> tuple[RuleSet, list[Entry]]:
    """The whole journal of a game of random agents (target 200)."""
    rules = RuleSet(target_score=200)
    engine = GameEngine([AgentPlayer(RandomAgent(f"R{seat}", seed + seat)) for seat in range(4)], rules, seed=seed)
    cursor, entries = JournalCursor(), list[Entry]()

    class Journal:
        def notify(self, event: Event) -> None:
            entries.extend(cursor.new_entries(engine.round))

    engine.observe(Journal())
    asyncio.run(engine.run())
    return rules, entries


async def test_games_that_cannot_go_on_are_stored_as_aborted_and_the_others_go_on(
        tmp_path: Path, start_server: StartServer) -> None:
    """At start, of two games stored as running at one table the newer goes on; a journal with
    a gap (a lost write) and one the rules refuse (R4.1: a seat not at turn) are stored as
    aborted records with their rounds as far as they replay; the server starts either way."""
    seed = 3
    rules, entries = await asyncio.to_thread(_journal_of_a_game, seed)
    cut = next(index for index, entry in enumerate(entries) if "play" in entry) + 5
    wrong = dict(entries[cut], seat=(int(str(entries[cut]["seat"])) + 1) % 4)
    data = tmp_path / "restored"
    with GameStore(data / STORE_FILE) as store:
        for game_id, table_name, started, journal in (
                ("older", "t", "2026-11-24T09:00:00Z", entries[:cut]),
                ("newer", "t", "2026-11-24T10:00:00Z", entries[:cut]),
                ("gap", "g", "2026-11-24T10:00:00Z", entries[:cut]),
                ("refused", "r", "2026-11-24T10:00:00Z", [*entries[:cut], wrong])):
            store.running.begin_game(game_id, table_name, started, seed, rules.to_json(),
                             {"agent": "random", "hints": False})
            store.running.append_entries(game_id, 0, journal)
            store.running.seat_person(game_id, 0, "Ann", "ab" * 32)
        store.running.append_entries("gap", cut + 1, [entries[cut + 1]])
    server = await start_server(data_dir=data, grace_period=5.0)
    assert set(server.factory.tables) == {"t"}
    table = server.table("t")
    assert table.is_running and [peer.name for peer in table.clients] == ["Ann"]
    records = {record["id"]: record for record in server.all_records()}
    assert set(records) == {"older", "gap", "refused"}
    for record in records.values():
        assert record["aborted"] is True and record["winner"] is None
        assert record["players"][0] == {"name": "Ann", "kind": "human"}
        assert record["unfinished_round"]["events"], "the rounds as far as they replay"
    assert len(records["refused"]["unfinished_round"]["events"]) == len(records["gap"]["unfinished_round"]["events"])
    with GameStore(data / STORE_FILE) as store:
        assert [game.id for game in store.running.games()] == ["newer"]


@pytest.mark.slow
async def test_a_person_who_left_before_a_crash_stays_named_on_the_seat(server: ProcessServer) -> None:
    """Ben leaves (an agent finishes for him), then the server is killed: the stored running game
    keeps who began each seat and the seat change, so the record written after the restart names
    Ben on his seat and the agent as his substitute (docs/server.md, "Leaving, idle seats")."""
    ann = await server.connect({"player_name": "Ann", "table_name": "left"}, "Ann")
    ben = await server.connect({"player_name": "Ben", "table_name": "left"}, "Ben", seed=2)
    await ann.send_type("start_game")
    anning = asyncio.create_task(ann.play(until=lambda m: m.get("type") == "notification"
                                          and m["payload"]["event"] == "player_left"))
    await ben.play(hold=lambda request: request["action"] == "play")
    await ben.send_type("leave")
    await anning
    await ann.play(hold=lambda request: request["action"] == "play"
                   and request["context"]["trick_combination"] is not None)
    await _journal_settled(server)
    with _stored(server) as store:
        [running] = store.running.games()
    assert json_list(running.options["starters"])[ben.seat or 0] == ["Ben", "human"]
    assert [json_object(change)["reason"] for change in json_list(running.options["seat_changes"])] == ["left"]
    server.kill()
    await ann.close()
    await server.start()
    assert ann.session_id is not None
    back = await server.connect({"session_id": ann.session_id}, "Ann", seed=3)
    await back.play("game_over")
    [record] = await _ended_games(server)
    assert record["players"][ben.seat or 0] == {"name": "Ben", "kind": "human"}
    [change] = record["seat_changes"]
    assert change["seat"] == ben.seat and change["reason"] == "left" and change["kind"] == "agent:rule"
    assert replay(record) is None
