"""Seeded game records for the analysis tests, played by fast agents through the Arena's driver
(the heuristic with its rollouts in the endgame only, ``heuristic:v3``: the games, and the
exact values computed for their endgames in ``tests/data``, stay those of before issue 34's
rollouts at every play)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Any

from tichu.agents.agent import Agent
from tichu.agents.driver import play_game
from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.heuristic_policy import V3
from tichu.core.ruleset import RuleSet
from tichu.records.record import game_record


def record_of(agents: Sequence[Agent], seed: int, target: int, kinds: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of one game of ``agents`` (seeded shuffles, ``target`` points), its players'
    kinds replaced by ``kinds`` if given (``human`` marks a person's seat)."""
    rules = RuleSet(target_score=target)
    state = play_game(agents, rules, seed=seed, keep_rounds=True)
    players = [(agent.name, kind) for agent, kind in zip(agents, kinds or [agent.kind for agent in agents])]
    return dict(game_record(state.rounds, rules, players, record_id=f"test-{seed}", seed=seed,
                            started_at="2026-11-26T00:00:00Z"))


@cache
def _heuristic_line(seed: int, target: int) -> str:
    agents = [HeuristicAgent(f"H{seat}", seed * 10 + seat, V3) for seat in range(4)]
    return json.dumps(record_of(agents, seed, target))


def heuristic_record(seed: int = 5, target: int = 200) -> dict[str, Any]:
    """A fresh copy of a short game of four heuristic agents (an Arena record: no person)."""
    record: dict[str, Any] = json.loads(_heuristic_line(seed, target))
    return record
