"""One game, one flow (issue 22): the Arena's plain loop of agents over the rules core
(:func:`~tichu.agents.driver.play_game`) plays the very games of the async engine, and the
games it played before the flow moved into the core.

``tests/data/arena_records_before_issue22.json`` holds the SHA-256 of records written by
``bin/run_arena.py`` at c468ee9, when the engine still held the order of offers itself (R4.3,
R6.1): the agents there decide as they did then, so the Arena must write the same records.
The tuned heuristic plays its two-seat endgames exactly since issue 34; the one that decided as
it did then is ``heuristic:v2`` (:data:`THEN`), whose records name it as they did.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from tichu.agents.agent import AgentPlayer
from tichu.agents.driver import play_game
from tichu.agents.registry import make_agent
from tichu.arena.arena import ChunkJob, plan_games, play_chunk
from tichu.core.ruleset import RuleSet
from tichu.engine.engine import GameEngine
from tichu.records.record import game_record

BEFORE = json.loads((Path(__file__).parents[1] / "data" / "arena_records_before_issue22.json").read_text("utf-8"))
#: The agent specs of then that decide differently today, and the spec that decides as they did.
THEN = {"heuristic": "heuristic:v2"}


def _digest(record: dict[str, Any]) -> str:
    without_time = {key: value for key, value in record.items() if key != "started_at"}
    return hashlib.sha256(json.dumps(without_time, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


@pytest.mark.slow
@pytest.mark.parametrize("run", BEFORE["runs"], ids=lambda run: "-".join(run["agents"][:2]))
def test_the_arena_writes_the_records_it_wrote_before_the_flow_moved_into_the_core(run: dict[str, Any]) -> None:
    specs = plan_games(len(run["digests"]), run["seed"], run["duplicate"])
    agents = tuple(THEN.get(agent, agent) for agent in run["agents"])
    job = ChunkJob(agents, 1000, tuple(specs), True, "2026-01-01T00:00:00Z")
    lines = [summary.record for summary in play_chunk(job)]
    assert [_digest(_named_as_then(json.loads(line))) for line in lines if line is not None] == run["digests"]


def _named_as_then(record: dict[str, Any]) -> dict[str, Any]:
    """The record with each player named by the spec of then (``heuristic-A0``, not ``heuristic:v2-A0``)."""
    for player in record["players"]:
        for then, now in THEN.items():
            if player["name"].startswith(f"{now}-"):
                player["name"] = then + player["name"][len(now):]
    return record


def _engine_record(kinds: list[str], rules: RuleSet, seed: int) -> dict[str, Any]:
    agents = [make_agent(kind, name=f"{kind}-{seat}", seed=seed + seat) for seat, kind in enumerate(kinds)]
    engine = GameEngine([AgentPlayer(agent) for agent in agents], rules, seed=seed, keep_rounds=True)
    asyncio.run(engine.run())
    return dict(game_record(engine.rounds, rules, [(agent.name, agent.kind) for agent in agents], record_id="game",
                            seed=seed, started_at="now"))


def _loop_record(kinds: list[str], rules: RuleSet, seed: int) -> dict[str, Any]:
    agents = [make_agent(kind, name=f"{kind}-{seat}", seed=seed + seat) for seat, kind in enumerate(kinds)]
    state = play_game(agents, rules, seed=seed, keep_rounds=True)
    return dict(game_record(state.rounds, rules, [(agent.name, agent.kind) for agent in agents], record_id="game",
                            seed=seed, started_at="now"))


@pytest.mark.parametrize("kinds, seed, rules", [
    (["random"] * 4, 11, RuleSet(target_score=1000)),
    (["random"] * 4, 12, RuleSet(target_score=500, tichu_before_schupf=True, wish_optional=True)),
    (["rule", "beginner", "heuristic", "random"], 13, RuleSet(target_score=300)),
    pytest.param(["heuristic", "montecarlo:n2", "heuristic:v1", "montecarlo:v1:n2"], 14,
                 RuleSet(target_score=150), marks=pytest.mark.slow),
], ids=["random", "random-variants", "mixed", "search"])
def test_the_engine_and_the_agents_loop_play_the_same_games_R4_3_R6_1(kinds: list[str], seed: int,
                                                                     rules: RuleSet) -> None:
    """Both drive the one flow of the core: every offer (R6.1 calls, R4.3 bombs nearest after the
    trick's owner), every decision made at once (R2.1, R2.3), every trick's closing the same."""
    engine = _engine_record(kinds, rules, seed)
    loop = _loop_record(kinds, rules, seed)
    assert engine["rounds"] and loop == engine
