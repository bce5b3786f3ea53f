#!/usr/bin/env python3
"""How far exact endgame solving reaches (issue 34, part 2), and what it changes in the judge.

Run: ``PYTHONPATH=src python -m poc.endgame_reach [--bsw DIR] [--arena-seeds 5,11,23]
[--nodes 200000] [--judge] [--samples 64]``.

It takes every two-seat decision (:func:`~tichu.agents.support.endgame.two_seat`) of the
Brettspielwelt games in ``--bsw`` (default ``../shared/data/bsw``) and of seeded Arena games
of four heuristic agents to 1000 points, solves each with a fresh
:class:`~tichu.agents.support.endgame.EndgameSolver` of ``--nodes`` nodes, and prints per
number of cards left in the two hands: the positions, the share solved within the budget,
and the nodes and seconds of the solved ones (median and maximum).

With ``--judge`` it also judges each solved decision twice, by sampling (``--samples``
deals, the judge before exact endgames) and exactly, and counts the sampled labels the
exact losses do not support, the exact labels the sampling missed, and the sampled
"± 0" judgements.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from collections import defaultdict
from pathlib import Path

from tichu.agents.driver import play_game
from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.support.endgame import EndgameSolver
from tichu.analysis import DecisionPoint, decision_points, judge
from tichu.core.ruleset import RuleSet
from tichu.records.bsw import decode, import_game
from tichu.records.record import game_record

#: Solves beyond this many seconds are reported (a judge waits for them).
SLOW = 5.0


def endgame_points(bsw: Path, seeds: list[int]) -> list[DecisionPoint]:
    """The two-seat decisions of every seat in the Brettspielwelt logs and the seeded Arena games."""
    points: list[DecisionPoint] = []
    for path in sorted(bsw.glob("*.tch")):
        record = dict(import_game(decode(path.read_bytes()), path.stem))
        points += [point for point in decision_points(record, [0, 1, 2, 3]) if point.state is not None]
    for seed in seeds:
        rules = RuleSet(target_score=1000)
        state = play_game([HeuristicAgent(f"H{seat}", seed * 10 + seat) for seat in range(4)], rules,
                          seed=seed, keep_rounds=True)
        record = dict(game_record(state.rounds, rules, [(f"H{seat}", "agent") for seat in range(4)],
                                  record_id=f"arena-{seed}", seed=seed))
        points += [point for point in decision_points(record) if point.state is not None]
    return points


def cards_left(point: DecisionPoint) -> int:
    """The cards in the hands of a two-seat decision."""
    assert point.state is not None and point.state.round is not None
    return sum(hand.bit_count() for hand in point.state.round.hands)


def reach(points: list[DecisionPoint], nodes: int) -> list[DecisionPoint]:
    """Print the reach per cards left; the points solved."""
    by_cards: dict[int, list[tuple[bool, int, float]]] = defaultdict(list)
    solved = []
    for point in points:
        assert point.state is not None
        started = time.perf_counter()
        solution = EndgameSolver(nodes).solve(point.state, point.seat)
        by_cards[cards_left(point)].append((solution.exact, solution.nodes, time.perf_counter() - started))
        if solution.exact:
            solved.append(point)
    print(f"{len(points)} two-seat decisions, budget {nodes} nodes")
    print("cards  positions  solved  nodes median/max  seconds median/max")
    for cards in sorted(by_cards):
        rows = by_cards[cards]
        done = [row for row in rows if row[0]]
        share = f"{len(done)}/{len(rows)}"
        if done:
            node_counts = [row[1] for row in done]
            seconds = [row[2] for row in done]
            print(f"{cards:5}  {len(rows):9}  {share:>6}  {statistics.median(node_counts):8.0f}/{max(node_counts):<7}"
                  f"  {statistics.median(seconds):7.3f}/{max(seconds):.3f}")
        else:
            print(f"{cards:5}  {len(rows):9}  {share:>6}")
    total = sum(len(rows) for rows in by_cards.values())
    slow = sum(1 for rows in by_cards.values() for row in rows if row[0] and row[2] > SLOW)
    print(f"solved {len(solved)}/{total} ({100 * len(solved) / max(total, 1):.0f} %); {slow} solves above {SLOW} s")
    return solved


def compare_judges(points: list[DecisionPoint], nodes: int, samples: int) -> None:
    """Print how the sampled judge's labels compare with the exact ones."""
    unsupported = missed = zero_width = labelled = 0
    for point in points:
        sampled = judge(dataclasses.replace(point, state=None), samples=samples)  # as before exact endgames
        exact = judge(point, samples=samples, endgame_nodes=nodes)
        assert exact.exact and not sampled.exact
        labelled += exact.label is not None
        if sampled.label is not None and sampled.label != exact.label:
            unsupported += 1
        if exact.label is not None and sampled.label is None:
            missed += 1
        if sampled.loss > 0 and sampled.loss_half_width == 0:
            zero_width += 1
    print(f"judged {len(points)} solved decisions: {labelled} labelled exactly; the sampled judge "
          f"({samples} deals) gave {unsupported} labels the exact loss does not support, missed {missed}, "
          f"and showed {zero_width} losses as '± 0'", flush=True)


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bsw", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data" / "bsw")
    parser.add_argument("--arena-seeds", default="5,11,23")
    parser.add_argument("--nodes", type=int, default=200_000)
    parser.add_argument("--judge", action="store_true")
    parser.add_argument("--samples", type=int, default=64)
    args = parser.parse_args()
    seeds = [int(seed) for seed in args.arena_seeds.split(",") if seed.strip()]
    solved = reach(endgame_points(args.bsw, seeds), args.nodes)
    if args.judge:
        compare_judges(solved, args.nodes, args.samples)


if __name__ == "__main__":
    main()
