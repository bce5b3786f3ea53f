#!/usr/bin/env python3
"""What the exact two-seat endgame play gains the strong and the expert level, in points per
round, measured exactly (issue 34, part 3).

Seeded 1000-point games of four ``heuristic`` agents that do not solve (``exact_nodes`` 0)
give the positions. At each of their two-seat play decisions
(:func:`tichu.agents.support.endgame.two_seat`, more than one legal play) the position is
solved with a large node budget, and each agent's choice is valued exactly: the level as it
plays now (solving within its own budget) and the same level with the solve turned off. The
loss of a choice is the position's value minus the value after it, both seats playing
perfectly from there on, which is how the levels themselves go on from a solved position.
The gain per round is the sum of the losses saved in a round; its mean over all rounds,
with a 95% interval over rounds, is what the exact play is worth.

Run: ``.venv/bin/python -m poc.exact_gain --games 40`` (``--expert`` adds the expert at a
fixed number of deals per decision, ``montecarlo:plays:n16``).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from collections import defaultdict
from collections.abc import Sequence

from tichu.agents.agent import Agent
from tichu.agents.driver import play_game
from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.heuristic_policy import WEIGHTS
from tichu.agents.mc_agent import MonteCarloAgent
from tichu.agents.mc_search import PLAYS
from tichu.agents.support.endgame import EndgameSolver
from tichu.analysis import DecisionPoint, decision_points
from tichu.core.combos import Play
from tichu.core.round import Action, Decision
from tichu.core.ruleset import RuleSet
from tichu.core.views import SeatView
from tichu.records.record import game_record

#: Nodes of the reference solve (docs/benchmarks.md "Exact endgames": most positions fit).
REFERENCE_NODES = 400_000
UNSOLVED = dataclasses.replace(WEIGHTS, exact_nodes=0)


class ExpertWithoutSolve(MonteCarloAgent):
    """The expert with its exact solve turned off: the search decides every play."""

    def exact_choice(self, view: SeatView, decision: Decision, preferred: Sequence[Action]) -> Action | None:
        return None


def positions(seed: int) -> tuple[list[DecisionPoint], int]:
    """The two-seat play decisions of one game of unsolving heuristic agents, and its rounds."""
    agents = [HeuristicAgent(f"H{seat}", seed * 10 + seat, UNSOLVED) for seat in range(4)]
    rules = RuleSet(target_score=1000)
    state = play_game(agents, rules, seed=seed, keep_rounds=True)
    record = game_record(state.rounds, rules, [(agent.name, agent.kind) for agent in agents], record_id=str(seed),
                         seed=seed, started_at="2026-11-28T00:00:00Z")
    points = [point for point in decision_points(dict(record)) if point.state is not None and point.kind == "play"
              and len(point.state.legal_plays()) > 1]
    return points, len(state.rounds)


def value_after(solver: EndgameSolver, point: DecisionPoint, play: Play) -> int | None:
    """The exact value for the deciding seat's team after ``play``."""
    assert point.state is not None
    after = point.state.clone()
    after.apply_play(play)
    return solver.value(after, point.seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--expert", action="store_true", help="also the expert (n16)")
    args = parser.parse_args()
    levels: dict[str, tuple[Agent, Agent]] = {
        "strong": (HeuristicAgent(seed=1), HeuristicAgent(seed=1, weights=UNSOLVED))}
    if args.expert:
        levels["expert"] = (MonteCarloAgent(seed=1, budget=None, max_samples=16, options=PLAYS),
                            ExpertWithoutSolve(seed=1, budget=None, max_samples=16, options=PLAYS))
    solver = EndgameSolver(REFERENCE_NODES)
    gains: dict[str, list[int]] = defaultdict(list)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # decisions, differing, unsolved
    started = time.monotonic()
    for seed in range(args.seed, args.seed + args.games):
        points, rounds = positions(seed)
        per_round: dict[str, list[int]] = {name: [0] * rounds for name in levels}
        for point in points:
            assert point.state is not None
            legal = point.state.legal_plays()
            for name, (with_solve, without) in levels.items():
                counts[name][0] += 1
                chosen, before = with_solve.decide_play(point.view, legal), without.decide_play(point.view, legal)
                if chosen == before:
                    continue
                counts[name][1] += 1
                new, old = value_after(solver, point, chosen), value_after(solver, point, before)
                if new is None or old is None:
                    counts[name][2] += 1
                    continue
                per_round[name][point.round] += new - old
        for name in levels:
            gains[name] += per_round[name]
    print(f"{args.games} games (seeds {args.seed}..{args.seed + args.games - 1}), "
          f"{time.monotonic() - started:.0f} s")
    print("| level | rounds | two-seat play decisions | choices changed | unsolved | gain per round (95% CI) |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, values in gains.items():
        mean = statistics.fmean(values)
        half = 1.96 * statistics.stdev(values) / len(values) ** 0.5
        decisions, changed, unsolved = counts[name]
        print(f"| {name} | {len(values)} | {decisions} | {changed} | {unsolved} | "
              f"{mean:+.2f} ({mean - half:+.2f} .. {mean + half:+.2f}) |")


if __name__ == "__main__":
    main()
