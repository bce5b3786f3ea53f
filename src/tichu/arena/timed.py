"""An agent wrapper that measures how long each decision takes (for the Arena's report)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from tichu.agents.agent import Agent
from tichu.arena.stats import TimeHistogram
from tichu.core.combos import Play
from tichu.core.views import SeatView


class TimedAgent(Agent):
    """Passes every decision to the wrapped agent and counts the duration of those the engine
    asks for (Grand Tichu, push, play, wish, Dragon) in a histogram; forced plays (one legal
    play) and the Tichu and bomb offers made at every turn pass through untimed.

    :ivar agent: The wrapped agent.
    :ivar times: Where the durations go.
    """

    def __init__(self, agent: Agent, times: TimeHistogram) -> None:
        super().__init__(agent.name)
        self.agent = agent
        self.kind = agent.kind
        self.reads_table = agent.reads_table
        self.times = times

    def decide_grand_tichu(self, view: SeatView) -> bool:
        started = time.perf_counter()
        answer = self.agent.decide_grand_tichu(view)
        self.times.add(time.perf_counter() - started)
        return answer

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        started = time.perf_counter()
        answer = self.agent.decide_schupf(view)
        self.times.add(time.perf_counter() - started)
        return answer

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        if len(legal) == 1:
            return self.agent.decide_play(view, legal)  # forced: nothing to decide
        started = time.perf_counter()
        answer = self.agent.decide_play(view, legal)
        self.times.add(time.perf_counter() - started)
        return answer

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        started = time.perf_counter()
        answer = self.agent.decide_wish(view, choices)
        self.times.add(time.perf_counter() - started)
        return answer

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        started = time.perf_counter()
        answer = self.agent.decide_dragon(view, recipients)
        self.times.add(time.perf_counter() - started)
        return answer

    def decide_tichu(self, view: SeatView) -> bool:
        return self.agent.decide_tichu(view)  # an offer at every turn, not a decision asked for

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        return self.agent.decide_bomb(view, bombs)  # likewise
