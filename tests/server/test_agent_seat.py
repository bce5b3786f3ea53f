"""Agents at a server's table (:class:`ServerAgent`): searching agents decide in a worker thread
on their frozen view, stale answers are dropped (R4.3, R8)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence

from tichu.agents.agent import Agent, AgentPlayer
from tichu.agents.random_agent import RandomAgent
from tichu.core.combos import Play
from tichu.core.ruleset import RuleSet
from tichu.engine.engine import GameEngine
from tichu.engine.views import SeatView
from tichu.server.agent_seat import ServerAgent


def at_server(agent: Agent) -> ServerAgent:
    """An agent seated as a server seats it, with nobody to wait for."""
    return ServerAgent(agent, 0.0, lambda: False)


class SlowThinker(RandomAgent):
    """A random agent that reports the threads of its play decisions and can be held at its
    first one until the test releases it."""

    thinks_long = True

    def __init__(self, name: str, seed: int, hold_first: bool = False) -> None:
        super().__init__(name, seed)
        self.threads: list[str] = []
        self.asked: list[tuple[int, int]] = []
        self.thinking = threading.Event()
        self.release = threading.Event()
        if not hold_first:
            self.release.set()

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        self.threads.append(threading.current_thread().name)
        self.asked.append((view.seat, view.hand))
        self.thinking.set()
        assert self.release.wait(5), "the test never released the decision"
        return super().decide_play(view, legal)


async def _wait_for(event: threading.Event) -> None:
    for _ in range(500):
        if event.is_set():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the agent never started thinking")


def test_a_searching_agent_decides_off_the_event_loop() -> None:
    """At a server every play decision of a long-thinking agent runs in a worker thread, and
    the game still ends normally (R7.4)."""
    thinker = SlowThinker("T", 1)
    players = [at_server(agent) for agent in (thinker, RandomAgent("B", 2), RandomAgent("C", 3), RandomAgent("D", 4))]
    engine = GameEngine(players, RuleSet(target_score=200, seed=7))
    game = asyncio.run(engine.run())
    assert game.is_over
    main = threading.main_thread().name
    assert thinker.threads and all(name != main for name in thinker.threads)


def test_the_arena_engine_calls_it_directly() -> None:
    """In the Arena (:class:`AgentPlayer`) the decision is a plain call on the running thread."""
    thinker = SlowThinker("T", 1)
    players = [AgentPlayer(agent) for agent in (thinker, RandomAgent("B", 2), RandomAgent("C", 3),
                                                RandomAgent("D", 4))]
    asyncio.run(GameEngine(players, RuleSet(target_score=200, seed=7)).run())
    assert set(thinker.threads) == {threading.main_thread().name}


def test_a_change_during_the_search_makes_its_answer_stale() -> None:
    """When the seat's open decision is overtaken while the agent searches (here: the seat
    is handed to a player again), the answer is dropped and the decision asked again."""
    async def scenario() -> SlowThinker:
        thinker = SlowThinker("T", 1, hold_first=True)
        seated = at_server(thinker)
        engine = GameEngine([seated] * 4, RuleSet(target_score=200, seed=7))
        task = asyncio.create_task(engine.run())
        await _wait_for(thinker.thinking)
        seat = engine.round.decision_seat if engine.round else None
        assert seat is not None
        engine.replace_player(seat, seated)
        thinker.release.set()
        await asyncio.wait_for(task, 30)
        return thinker

    thinker = asyncio.run(scenario())
    assert thinker.asked[0] == thinker.asked[1]  # the same seat and hand: the decision was asked again
