"""Agents for the tests of the agent pool: importable by the pool's worker processes.

A worker unpickles the agent it decides for, so the agent's class must live in a module
that a fresh process can import (not in a test module). Each agent records, in its own
state, the process that made each decision; the server adopts the state after a decision,
so the test reads the records from the agent it made.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.random_agent import RandomAgent
from tichu.core.combos import Play
from tichu.core.views import SeatView


class PidAgent(RandomAgent):
    """A random agent that notes ``(decision, process id)`` for every decision it makes.

    :ivar decisions: The decisions made, in order, with the process that made each.
    """

    def __init__(self, name: str = "Pid", seed: int | None = None) -> None:
        super().__init__(name, seed)
        self.decisions: list[tuple[str, int]] = []

    def _note(self, decision: str) -> None:
        self.decisions.append((decision, os.getpid()))

    def decide_grand_tichu(self, view: SeatView) -> bool:
        self._note("grand_tichu")
        return super().decide_grand_tichu(view)

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        self._note("schupf")
        return super().decide_schupf(view)

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        self._note("play")
        return super().decide_play(view, legal)

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        self._note("wish")
        return super().decide_wish(view, choices)

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        self._note("dragon")
        return super().decide_dragon(view, recipients)

    def decide_tichu(self, view: SeatView) -> bool:
        self._note("tichu")
        return super().decide_tichu(view)

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        self._note("bomb")
        return super().decide_bomb(view, bombs)


class SleepyAgent(PidAgent):
    """A :class:`PidAgent` whose play decisions block their process for ``nap`` seconds.

    :ivar nap: Seconds each play decision sleeps (``time.sleep``, holding its process).
    :ivar marker: (Optional) A file each play decision creates before it sleeps, so that a test
        sees that one is under way.
    """

    def __init__(self, name: str = "Sleepy", seed: int | None = None, nap: float = 1.0,
                 marker: str | None = None) -> None:
        super().__init__(name, seed)
        self.nap = nap
        self.marker = marker

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        if self.marker is not None:
            Path(self.marker).touch()
        time.sleep(self.nap)
        return super().decide_play(view, legal)

    def doze(self, seconds: float) -> int:
        """Sleep, count the call in the agent's state and return the process id (for the pool's tests).

        :param seconds: How long to sleep.
        :returns: The process that slept.
        """
        time.sleep(seconds)
        self.decisions.append(("doze", os.getpid()))
        return os.getpid()


class PidHinter(HeuristicAgent):
    """The server's hint ranker, noting the process of every hint.

    :ivar hinted_in: The process of each hint, in order.
    """

    def __init__(self) -> None:
        super().__init__("Hint", 1)
        self.hinted_in: list[int] = []

    def hint(self, view: SeatView, legal: Sequence[Play]) -> list[Play]:
        self.hinted_in.append(os.getpid())
        return super().hint(view, legal)


class ClockAgent(PidAgent):
    """A :class:`PidAgent` that tells when its decision was asked for and when it ran."""

    def clocks(self) -> tuple[float | None, float]:
        """The decision's :attr:`~tichu.agents.agent.Agent.asked_at` and ``time.monotonic()`` as it runs."""
        return self.asked_at, time.monotonic()



class NapAgent(SleepyAgent):
    """An agent whose :meth:`rest` holds its worker and tells when it ended there."""

    def rest(self, seconds: float) -> float:
        """Sleep ``seconds``; return ``time.monotonic()`` at the end (one clock for every process)."""
        time.sleep(seconds)
        return time.monotonic()


def stamp() -> float:
    """``time.monotonic()`` where it runs (for the pool's background process)."""
    return time.monotonic()


def niceness() -> int:
    """The niceness of the process it runs in."""
    return os.nice(0)


class BoldAgent(RandomAgent):
    """A random agent that calls Grand Tichu and Tichu whenever it is offered them: beside it a
    stand-in that calls nothing shows (docs/server.md, "The stand-in's rules")."""

    GRAND_TICHU_RATE = 1.0
    TICHU_RATE = 1.0
