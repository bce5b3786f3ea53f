#!/usr/bin/env python3
"""Calibrate Tichu and Grand Tichu calls: hand features at the call against going out first.

Plays seeded games of four agents (default ``heuristic:v1``), notes per seat and round the
features of the first eight cards (Grand Tichu) and of the fourteen cards after the push
(Tichu), and whether the seat went out first (R6: what a call needs). Prints the rate of
going out first per feature bucket, the basis of the call thresholds in ``Weights``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import sys
from collections.abc import Sequence
from typing import Any

from tichu.agents.agent import Agent, AgentPlayer
from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.heuristic_policy import hand_strength
from tichu.agents.registry import make_agent
from tichu.core.combos import Play
from tichu.core.ruleset import RuleSet
from tichu.core.views import SeatView
from tichu.engine.engine import GameEngine


class Probe(Agent):
    def __init__(self, agent: HeuristicAgent, notes: dict[tuple[int, int], dict[str, Any]], seat: int) -> None:
        super().__init__(agent.name)
        self.agent, self.notes, self.seat, self.round = agent, notes, seat, -1
        self.kind = agent.kind

    def decide_grand_tichu(self, view: SeatView) -> bool:
        self.round += 1
        self.notes[(self.round, self.seat)] = {"grand": hand_strength(view.hand, None)}
        return self.agent.decide_grand_tichu(view)

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        return self.agent.decide_schupf(view)

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        return self.agent.decide_play(view, legal)

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        return self.agent.decide_wish(view, choices)

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        return self.agent.decide_dragon(view, recipients)

    def decide_tichu(self, view: SeatView) -> bool:
        if view.hand.bit_count() == 14:
            s, knowledge, _, _ = self.agent._facts(view)
            policy = self.agent.policy
            sampled = (policy, knowledge, policy.sample_hands(knowledge))
            self.notes[(self.round, self.seat)]["tichu"] = hand_strength(view.hand, sampled)
        return self.agent.decide_tichu(view)

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        return self.agent.decide_bomb(view, bombs)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kind", default="heuristic:v1")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rows", help="write the observations (JSON Lines) here")
    args = parser.parse_args()
    rows = []
    for game in range(args.games):
        seed = args.seed * 1000 + game
        notes: dict[tuple[int, int], dict[str, Any]] = {}
        probes = []
        for seat in range(4):
            agent = make_agent(args.kind, seed=seed * 10 + seat)
            assert isinstance(agent, HeuristicAgent)
            probes.append(Probe(agent, notes, seat))
        engine = GameEngine([AgentPlayer(p) for p in probes], RuleSet(), seed=seed)
        result = asyncio.run(engine.run())
        for index, res in enumerate(result.results):
            for seat in range(4):
                note = notes.get((index, seat))
                if note and "tichu" in note and res.calls[seat] == 0:
                    rows.append((note, res.out_order[0] == seat))
    if args.rows:
        with open(args.rows, "w", encoding="utf-8") as out:
            for note, first in rows:
                out.write(json.dumps({**note, "first": first}) + "\n")
    for key in ("grand", "tichu"):
        for feature in rows[0][0][key]:
            table: dict[Any, list[int]] = collections.defaultdict(lambda: [0, 0])
            for note, first in rows:
                value = note[key][feature]
                value = round(value * 2) / 2 if isinstance(value, float) else value
                table[value][0] += int(first)
                table[value][1] += 1
            print(key, feature, " ".join(f"{v}:{a}/{n}={a / n:.0%}" for v, (a, n) in sorted(table.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
