#!/usr/bin/env python3
"""Record the heuristic agent's decisions in seeded games, as a golden list.

``tests/agents/test_heuristic_v1.py`` replays the same games with ``heuristic:v1`` and
requires the same decisions, so the first version of the heuristic stays reproducible
(issue 13) while the default weights change. Regenerate only when the rules core or the
engine change the games themselves:

    .venv/bin/python -m tests.data.make_heuristic_v1_decisions --out tests/data/heuristic_v1_decisions.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tichu.agents.agent import Agent, AgentPlayer
from tichu.agents.registry import make_agent
from tichu.core.combos import Play
from tichu.core.ruleset import RuleSet
from tichu.core.views import SeatView
from tichu.engine.engine import GameEngine

#: Games (seeds) and their target score: some 200 decisions with a choice, and more offers.
SEEDS = (101, 202, 303, 404)
TARGET = 300


class RecordingAgent(Agent):
    """Passes every decision to an agent and notes it (decisions with a choice only)."""

    def __init__(self, agent: Agent, log: list[list[Any]], seat_label: int) -> None:
        super().__init__(agent.name)
        self.agent, self.log, self.label = agent, log, seat_label
        self.kind = agent.kind

    def _note(self, kind: str, answer: Any) -> Any:
        self.log.append([self.label, kind, answer])
        return answer

    def decide_grand_tichu(self, view: SeatView) -> bool:
        return bool(self._note("grand", self.agent.decide_grand_tichu(view)))

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        answer = self.agent.decide_schupf(view)
        self._note("schupf", list(answer))
        return answer

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        answer = self.agent.decide_play(view, legal)
        if len(legal) > 1:
            self._note("play", answer.cards)
        return answer

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        return int(self._note("wish", self.agent.decide_wish(view, choices)))

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        return int(self._note("dragon", self.agent.decide_dragon(view, recipients)))

    def decide_tichu(self, view: SeatView) -> bool:
        answer = self.agent.decide_tichu(view)
        if answer:
            self._note("tichu", True)
        return answer

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        answer = self.agent.decide_bomb(view, bombs)
        if answer is not None:
            self._note("bomb", answer.cards)
        return answer


def record(kind: str, seed: int, target: int = TARGET) -> list[list[Any]]:
    """The decisions of four agents of ``kind`` in the game of ``seed``."""
    log: list[list[Any]] = []
    agents = [RecordingAgent(make_agent(kind, seed=seed * 10 + seat), log, seat) for seat in range(4)]
    engine = GameEngine([AgentPlayer(agent) for agent in agents], RuleSet(target_score=target), seed=seed)
    asyncio.run(engine.run())
    return log


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", default="heuristic:v1")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    games = {str(seed): record(args.kind, seed) for seed in SEEDS}
    Path(args.out).write_text(json.dumps({"kind": "heuristic:v1", "target": TARGET, "games": games}) + "\n")
    print({seed: len(log) for seed, log in games.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
