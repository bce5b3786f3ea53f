"""The stand-in (:class:`~tichu.agents.stand_in.StandIn`; docs/server.md "The stand-in's rules",
issue 35): it plays as its agent does but calls neither Grand Tichu (R2.1) nor Tichu (R6.1)."""

from __future__ import annotations

import asyncio
import pickle

from tests.support.pool_agents import BoldAgent
from tichu.agents.agent import AgentPlayer
from tichu.agents.stand_in import StandIn
from tichu.core.ruleset import RuleSet
from tichu.engine.engine import GameEngine


def _calls_per_round(stand_ins: bool) -> list[tuple[int, ...]]:
    """Each round's calls in a seeded game of bold agents, bare or as stand-ins."""
    players = []
    for seat in range(4):
        agent = BoldAgent(f"B{seat}", seed=seat)
        players.append(AgentPlayer(StandIn(agent) if stand_ins else agent))
    engine = GameEngine(players, RuleSet(target_score=300), seed=5, keep_rounds=True)
    asyncio.run(engine.run())
    return [round_.result().calls for round_ in engine.rounds]


def test_a_stand_in_calls_nothing_where_its_agent_calls_whenever_offered() -> None:
    """R2.1, R6.1: bold agents call in every round; the same agents as stand-ins never do, and
    the game is still played to its end (R7.4)."""
    bold, standing_in = _calls_per_round(False), _calls_per_round(True)
    assert bold and all(any(calls) for calls in bold)
    assert standing_in and all(calls == (0, 0, 0, 0) for calls in standing_in)


def test_a_stand_in_is_its_agent_for_the_record_and_pickles_for_the_pool() -> None:
    """Its name and kind are its agent's (records.md ``players[].kind``); a worker process gets a
    pickled copy, and the agent's time budget counts from when the stand-in was asked."""
    stand_in = StandIn(BoldAgent("Bot 2", seed=1))
    assert (stand_in.name, stand_in.kind, stand_in.reads_table) == ("Bot 2", "agent:random", False)
    copy = pickle.loads(pickle.dumps(stand_in))
    copy.asked_at = 12.5
    assert copy._deciding().asked_at == 12.5
