#!/usr/bin/env python3
"""Benchmarks of the hot paths: legal plays, and random-agent rounds and games per second.

Run: ``.venv/bin/python poc/benchmark.py`` (``--quick`` for a short run). The figures go
into docs/benchmarks.md with the command that produced them; nothing here is a test.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from tichu.arena.arena import Arena
from tichu.core.cards import parse_mask
from tichu.core.combos import Play, combinations_of, legal_plays_from

#: Fixed hands: (name, hand labels, trick as (labels, type, length, rank) or None, wish).
HANDS = [
    ("ordinary lead", "Ma S3 B4 G5 R7 S8 B9 GZ RB SD BK GA Hu Dr", None, 0),
    ("pairs and Phoenix lead", "S2 B2 S3 B3 S4 G4 S5 B5 S6 B6 S7 B7 S8 Ph", None, 0),
    ("two bombs + Phoenix lead", "S5 B5 G5 R5 S9 B9 G9 R9 G2 G3 G4 G6 Ph Ma", None, 0),
    ("straight flushes + Phoenix lead", "R2 R3 R4 R5 R6 R7 B8 B9 BZ BB BD Ph SA GA", None, 0),
    ("on a single", "Ma S3 B4 G5 R7 S8 B9 GZ RB SD BK GA Ph Dr", ("R9", 1, 1, 9), 0),
    ("on a pair with wish", "S2 B2 S3 B3 S4 G4 S5 B5 S6 B6 S7 B7 S8 Ph", ("G4 R4", 2, 2, 4), 7),
    ("on a straight", "R2 R3 R4 R5 R6 R7 B8 B9 BZ BB BD Ph SA GA", ("S3 B4 G5 S6 B7", 6, 5, 7), 0),
]


def bench_legal_plays(seconds: float) -> list[tuple[str, int, float, float]]:
    """Per hand: number of legal plays, full generations per second, filter-only calls per second."""
    rows = []
    for name, labels, trick_spec, wish in HANDS:
        hand = parse_mask(labels)
        trick = None if trick_spec is None else Play(parse_mask(trick_spec[0]), *trick_spec[1:])
        count = len(legal_plays_from(combinations_of(hand), hand, trick, wish))
        full = _rate(lambda h=hand, t=trick, w=wish: legal_plays_from(combinations_of(h), h, t, w), seconds)
        combos = combinations_of(hand)
        incremental = _rate(lambda c=combos, h=hand, t=trick, w=wish: legal_plays_from(c, h, t, w), seconds)
        rows.append((name, count, full, incremental))
    return rows


def _rate(function: object, seconds: float) -> float:
    calls = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            function()  # type: ignore[operator]
        calls += 50
    return calls / (time.perf_counter() - started)


def bench_arena(games: int, workers: int) -> tuple[float, float]:
    """Random-agent games and rounds per second with this many workers."""
    report = Arena(["random"] * 4, games=games, seed=1, workers=workers).run()
    return report.games / report.elapsed, report.rounds / report.elapsed


def main() -> int:
    """Run the benchmarks and print a Markdown table of the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short runs (noisier)")
    args = parser.parse_args()
    seconds = 0.3 if args.quick else 1.0
    games = 100 if args.quick else 1000
    cores = os.cpu_count() or 1
    print(f"Python {sys.version.split()[0]}, {cores} cores\n")
    print("| hand | legal plays | generate + filter / s | filter only / s |")
    print("| --- | ---: | ---: | ---: |")
    for name, count, full, incremental in bench_legal_plays(seconds):
        print(f"| {name} | {count} | {full:,.0f} | {incremental:,.0f} |")
    print()
    single_games, single_rounds = bench_arena(games, 1)
    print(f"| Arena, random agents, {games} games | games/s | rounds/s |")
    print("| --- | ---: | ---: |")
    print(f"| 1 worker | {single_games:.1f} | {single_rounds:.0f} |")
    if cores > 1:
        multi_games, multi_rounds = bench_arena(games, cores)
        print(f"| {cores} workers | {multi_games:.1f} | {multi_rounds:.0f} |")
        print(f"\nspeed-up with {cores} workers: {multi_rounds / single_rounds:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
