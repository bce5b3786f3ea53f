"""An agent at a server's table: the engine's player port, paced for people and the event loop.

In the Arena an agent answers at once (:class:`~tichu.agents.agent.AgentPlayer`). At a
server the same agent plays :class:`~tichu.engine.player.Later`: it pauses before a play
while people sit at the table, so they can follow it, and lets the server's other tables
run first; an agent that searches (:attr:`~tichu.agents.agent.Agent.thinks_long`) thinks in a
worker thread meanwhile, on its frozen view, and its thinking counts towards the pause. An
interrupt during the pause or the search makes the answer stale: the engine asks again.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence

from tichu.agents.agent import Agent, AgentPlayer
from tichu.core.combos import Play
from tichu.engine.player import Later
from tichu.engine.views import SeatView


class ServerAgent(AgentPlayer):
    """An agent seated at a server's table: it answers like any agent, but plays later.

    :ivar agent: The agent that decides.
    :ivar delay: Seconds a play takes at least while people are seated.
    """

    def __init__(self, agent: Agent, delay: float, people_seated: Callable[[], bool]) -> None:
        """Seat an agent.

        :param agent: The agent.
        :param delay: Seconds a play takes at least while people are seated.
        :param people_seated: Tells whether a client sits at the table now.
        """
        super().__init__(agent)
        self.delay = delay
        self._people_seated = people_seated
        self._thinking = threading.Lock()  # a stale search may still run: one search at a time

    def play(self, view: SeatView, legal: Sequence[Play]) -> Later[Play]:
        return Later(self._play(view, legal))

    async def _play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        """Pause (at least a turn of the event loop), deciding meanwhile in a worker thread
        if the agent searches.

        :returns: The agent's play.
        """
        pause = self.delay if self._people_seated() else 0.0
        if not self.agent.thinks_long:
            await asyncio.sleep(pause)
            return self.agent.decide_play(view, legal)
        loop = asyncio.get_running_loop()
        started = loop.time()
        play = await asyncio.to_thread(self._search, view, legal)
        left = pause - (loop.time() - started)
        if left > 0:
            await asyncio.sleep(left)
        return play

    def _search(self, view: SeatView, legal: Sequence[Play]) -> Play:
        with self._thinking:
            return self.agent.decide_play(view, legal)
