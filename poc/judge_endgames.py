#!/usr/bin/env python3
"""How far the analysis judges two-seat endgames exactly, in what time and memory (issue 34, part 4).

Run: ``PYTHONPATH=src python -m poc.judge_endgames [--bsw DIR] [--arena-seeds 5,11,23]
[--nodes N] [--fresh] [--verbose]``.

It takes every two-seat decision of the Brettspielwelt games in ``--bsw`` and of seeded
Arena games (:func:`poc.endgame_reach.endgame_points`) and judges each exactly as the
analysis does (:func:`~tichu.analysis.judge.judge_exact`, every option solved with a node
budget of ``--nodes`` per solve), in the games' order with one solver per game, its
transposition table bounded by :data:`~tichu.agents.support.endgame.TABLE_LIMIT`, as
:func:`~tichu.analysis.document.analyse_record` judges a game (``--fresh``: a fresh solver
per decision). It prints per number of cards left the decisions, how many were judged
exactly, and the seconds per decision (median and maximum), then the process's peak
resident memory.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from collections import defaultdict
from pathlib import Path

from poc.endgame_reach import cards_left, endgame_points
from tichu.agents.support.endgame import EndgameSolver
from tichu.analysis.judge import ENDGAME_NODES, judge_exact


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bsw", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data" / "bsw")
    parser.add_argument("--arena-seeds", default="5,11,23")
    parser.add_argument("--nodes", type=int, default=ENDGAME_NODES)
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="a line per decision as it is judged")
    args = parser.parse_args()
    seeds = [int(seed) for seed in args.arena_seeds.split(",") if seed.strip()]
    points = endgame_points(args.bsw, seeds)
    by_cards: dict[int, list[tuple[bool, float]]] = defaultdict(list)
    solver = EndgameSolver(args.nodes)
    for point in points:
        assert point.state is not None
        if args.fresh:
            solver = EndgameSolver(args.nodes)
        started = time.perf_counter()
        judgement = judge_exact(point, point.state, solver)
        took = time.perf_counter() - started
        by_cards[cards_left(point)].append((judgement is not None, took))
        if args.verbose:
            print(f"round {point.round} step {point.step}: {cards_left(point)} cards, {len(point.options)} options, "
                  f"{'exact' if judgement is not None else 'beyond the budget'}, {took:.1f} s", flush=True)
    print(f"{len(points)} two-seat decisions, {args.nodes} nodes per solve, "
          f"{'a fresh solver each' if args.fresh else 'one solver per game'}")
    print("cards  decisions  exact  seconds median/max")
    for cards in sorted(by_cards):
        rows = by_cards[cards]
        seconds = [row[1] for row in rows]
        exact = sum(1 for row in rows if row[0])
        print(f"{cards:5}  {len(rows):9}  {exact:5}  {statistics.median(seconds):7.2f}/{max(seconds):.2f}", flush=True)
    exact = sum(1 for rows in by_cards.values() for row in rows if row[0])
    everything = [row[1] for rows in by_cards.values() for row in rows]
    print(f"exact {exact}/{len(everything)}; seconds median {statistics.median(everything):.2f}, "
          f"max {max(everything):.1f}, total {sum(everything):.0f}; "
          f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
