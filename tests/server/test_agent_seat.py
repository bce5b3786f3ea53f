"""Agents at a server's table (:class:`ServerAgent`): every decision is computed in a worker
process of the agent pool on the frozen view; stale answers are dropped (R4.3, R8)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator

import pytest

from tests.support.pool_agents import PidAgent, SleepyAgent
from tichu.agents.agent import Agent, AgentPlayer
from tichu.agents.random_agent import RandomAgent
from tichu.core.round import Decision
from tichu.core.ruleset import RuleSet
from tichu.engine.engine import GameEngine
from tichu.server.tables.agent_seat import ServerAgent
from tichu.server.workers.agent_pool import AgentPool


@pytest.fixture
async def pool() -> AsyncIterator[AgentPool]:
    """A pool of two workers, shut down after the test."""
    made = AgentPool(2)
    yield made
    await made.shutdown()


def _asked_to_play_again(engine: GameEngine) -> bool:
    """Whether seat 0, which played before this round, is being asked for a play (no offer)."""
    round_ = engine.round
    return (round_ is not None and round_.has_played[0] and round_.decision == Decision.PLAY
            and round_.decision_seat == 0 and not round_.trick_closed and engine._awaiting == 0)


def at_server(agent: Agent, pool: AgentPool, delay: float = 0.0) -> ServerAgent:
    """An agent seated as a server seats it; people are seated when there is a delay."""
    return ServerAgent(agent, pool, delay, lambda: delay > 0)


async def test_every_decision_of_a_server_agent_runs_in_a_worker_process(pool: AgentPool) -> None:
    """At a server every decision (Grand Tichu, push, plays, offers...) is made in another process,
    and the game still ends normally (R7.4)."""
    agents = [PidAgent(f"P{seat}", seat) for seat in range(4)]
    engine = GameEngine([at_server(agent, pool) for agent in agents], RuleSet(target_score=200), seed=7)
    game = await asyncio.wait_for(engine.run(), 60)
    assert game.is_over
    made = [decision for agent in agents for decision in agent.decisions]
    assert {"grand_tichu", "schupf", "play", "tichu"} <= {kind for kind, _ in made}
    assert all(pid != os.getpid() for _, pid in made)


async def test_the_arena_engine_calls_it_directly() -> None:
    """In the Arena (:class:`AgentPlayer`) every decision is a plain call in this process."""
    agents = [PidAgent(f"P{seat}", seat) for seat in range(4)]
    await GameEngine([AgentPlayer(agent) for agent in agents], RuleSet(target_score=200), seed=7).run()
    assert {pid for agent in agents for _, pid in agent.decisions} == {os.getpid()}


async def test_a_server_game_is_the_arena_game(pool: AgentPool) -> None:
    """The agents' state comes back from the workers after each decision, so seeded agents play
    the same game at a server as in the Arena."""
    games = []
    for seat_agent in (AgentPlayer, lambda agent: at_server(agent, pool)):
        agents = [RandomAgent(f"R{seat}", seat) for seat in range(4)]
        engine = GameEngine([seat_agent(agent) for agent in agents], RuleSet(target_score=200), seed=3,
                            keep_rounds=True)
        await asyncio.wait_for(engine.run(), 60)
        games.append([round_.events for round_ in engine.rounds])
    assert games[0] == games[1]


async def test_a_play_takes_the_delay_while_people_are_seated(pool: AgentPool) -> None:
    """With people seated every play takes at least the delay (the thinking counts towards it)."""
    delay = 0.01
    agents = [PidAgent(f"P{seat}", seat) for seat in range(4)]
    engine = GameEngine([at_server(agent, pool, delay) for agent in agents], RuleSet(target_score=1), seed=7)
    began = time.monotonic()
    await asyncio.wait_for(engine.run(), 60)
    took = time.monotonic() - began
    plays = sum(kind == "play" for agent in agents for kind, _ in agent.decisions)
    assert plays > 20 and took >= plays * delay


async def test_a_change_during_the_decision_makes_its_answer_stale(pool: AgentPool) -> None:
    """When the seat's open decision is overtaken while the agent thinks (here: the seat is handed
    to a player again), the answer is dropped, the agent keeps no trace of it, and the decision is
    asked again."""
    sleepy = SleepyAgent("S", 1, nap=0.5)
    seated = at_server(sleepy, pool)
    others = [at_server(PidAgent(f"P{seat}", seat), pool) for seat in (1, 2, 3)]
    engine = GameEngine([seated, *others], RuleSet(target_score=1), seed=7)
    task = asyncio.create_task(asyncio.wait_for(engine.run(), 60))
    try:
        while not _asked_to_play_again(engine):
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.1)  # its play decision is running in a worker now
        plays_before = [kind for kind, _ in sleepy.decisions].count("play")
        state = sleepy.rng.getstate()
        engine.replace_player(0, seated)  # the open decision is asked again
        await asyncio.sleep(0.05)
        assert sleepy.rng.getstate() == state  # the stale decision is not adopted
        while [kind for kind, _ in sleepy.decisions].count("play") == plays_before:
            await asyncio.sleep(0.01)  # the decision asked again is made and adopted
        assert [kind for kind, _ in sleepy.decisions].count("play") == plays_before + 1
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
