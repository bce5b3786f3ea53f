#!/usr/bin/env python3
"""Benchmarks of the agents: hand plans, rollouts, and the decision times of each kind.

Run: ``.venv/bin/python poc/agent_benchmark.py`` (``--decisions N`` per agent kind). It
plays seeded games in one process, times every play decision with a choice, and prints
median, 99th percentile and maximum per kind, plus the process's peak memory. ``--kinds``
takes agent specs or levels (``--levels``: the four levels of :mod:`tichu.agents.levels`).

``--pi`` also times the Benchmarks Game's N-body program in pure Python (the same
algorithm a published Raspberry Pi 4 measurement ran, :data:`PI4_NBODY_SECONDS`) and prints
the slowdown factor of a Pi 4 against this machine and each agent's 99th percentile times
that factor (an agent with a time budget timed again with its budget divided by the factor,
:func:`pi_estimate`): an estimate, not a measurement on a Pi. The figures go into docs/benchmarks.md
and docs/agents.md; nothing here is a test.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from collections.abc import Sequence

from tichu.agents.agent import Agent
from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.heuristic_policy import HeuristicPolicy
from tichu.agents.levels import LEVELS, make_level_agent
from tichu.agents.mc_agent import ROLLOUT_WEIGHTS
from tichu.agents.support.hand import partition
from tichu.agents.support.rollout import rollout
from tichu.agents.support.situation import situation_in
from tichu.core.combos import Play
from tichu.core.flow import GameState
from tichu.core.round import Decision, Round
from tichu.core.views import SeatView, TableInfo, TablePhase


class _Table:
    """The smallest view source: a round and playing-phase facts."""

    def __init__(self, round_: Round) -> None:
        self.info = TableInfo(phase=TablePhase.PLAYING, is_running=True)
        self.round: Round | None = round_


def bench_partition(hands: int) -> float:
    """Partitions of fresh random hands per second (caches cleared first)."""
    rng = random.Random(1)
    deals = []
    for _ in range(hands):
        deck = list(range(56))
        rng.shuffle(deck)
        deals.append(sum(1 << index for index in deck[:14]))
    partition.cache_clear()
    started = time.perf_counter()
    for hand in deals:
        partition(hand)
    return hands / (time.perf_counter() - started)


def _positions(count: int, seed: int) -> list[Round]:
    """Play decisions with a choice from seeded rule-policy rounds (random pushes)."""
    rng = random.Random(seed)
    policy = HeuristicPolicy(ROLLOUT_WEIGHTS)
    found: list[Round] = []
    while len(found) < count:
        round_ = Round(rng=rng)
        for giver in range(4):
            round_.decide_grand_tichu(giver, False)
        for giver in range(4):
            cards = rng.sample([1 << index for index in range(56) if round_.hands[giver] >> index & 1], 3)
            round_.schupf(giver, cards)
        while not round_.is_over and len(found) < count:
            seat = round_.decision_seat
            assert seat is not None
            if round_.decision == Decision.PLAY:
                if round_.trick_closed:
                    round_.collect_trick()
                    continue
                legal = round_.legal_plays()
                if len(legal) > 1 and rng.random() < 0.3:
                    found.append(round_.clone())
                round_.apply_legal_play(policy.play(situation_in(round_, seat), legal))
            elif round_.decision == Decision.WISH:
                round_.make_wish(seat, 10)
            else:
                round_.give_dragon(seat, round_.dragon_recipients()[0])
    return found


def bench_rollouts(positions: Sequence[Round]) -> float:
    """Rollouts per second from the positions with the Monte Carlo agent's rollout policy."""
    policy = HeuristicPolicy(ROLLOUT_WEIGHTS)
    started = time.perf_counter()
    for position in positions:
        rollout(GameState.within(position.clone()), policy)
    return len(positions) / (time.perf_counter() - started)


def bench_decisions(kind: str, positions: Sequence[Round], budget_scale: float = 1.0) -> list[float]:
    """Seconds per play decision of a fresh agent of ``kind`` at each position; an agent with a
    time budget (``budget`` in seconds: the expert, the strong level) gets it times ``budget_scale``."""
    times = []
    for index, position in enumerate(positions):
        agent: Agent = make_level_agent(kind, seed=index)
        if isinstance(agent, HeuristicAgent) and agent.budget is not None:  # the Monte Carlo agent is one too
            agent.budget *= budget_scale
        seat = position.turn
        assert seat is not None
        legal: list[Play] = position.legal_plays()
        started = time.perf_counter()
        agent.decide_play(SeatView.of(_Table(position), seat), legal)
        times.append(time.perf_counter() - started)
    return times


#: Seconds of the Benchmarks Game's N-body in Python, 5,000,000 steps, on a Raspberry Pi 4
#: Model B (4 GB, 1.5 GHz, performance governor): 158.263 s, measured by Chaitanya Mehta,
#: https://chaitanyamehta.github.io/projects/performance-analysis-of-programming-languages
#: (CPython version not stated).
PI4_NBODY_SECONDS = 158.263
PI4_NBODY_STEPS = 5_000_000


def bench_nbody(steps: int) -> float:
    """Seconds for ``steps`` steps of the Benchmarks Game's N-body simulation (pure Python,
    the five Jovian bodies, dt 0.01), as in its Python program."""
    pi, days = 3.14159265358979323, 365.24
    solar = 4 * pi * pi
    bodies: list[tuple[list[float], list[float], float]] = [
        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], solar),
        ([4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01],
         [1.66007664274403694e-03 * days, 7.69901118419740425e-03 * days, -6.90460016972063023e-05 * days],
         9.54791938424326609e-04 * solar),
        ([8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01],
         [-2.76742510726862411e-03 * days, 4.99852801234917238e-03 * days, 2.30417297573763929e-05 * days],
         2.85885980666130812e-04 * solar),
        ([1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01],
         [2.96460137564761618e-03 * days, 2.37847173959480950e-03 * days, -2.96589568540237556e-05 * days],
         4.36624404335156298e-05 * solar),
        ([1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01],
         [2.68067772490389322e-03 * days, 1.62824170038242295e-03 * days, -9.51592254519715870e-05 * days],
         5.15138902046611451e-05 * solar),
    ]
    pairs = [(bodies[i], bodies[j]) for i in range(5) for j in range(i + 1, 5)]
    started = time.perf_counter()
    dt = 0.01
    for _ in range(steps):
        for ([x1, y1, z1], v1, m1), ([x2, y2, z2], v2, m2) in pairs:
            dx, dy, dz = x1 - x2, y1 - y2, z1 - z2
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** -1.5)
            b1m, b2m = m1 * mag, m2 * mag
            v1[0] -= dx * b2m
            v1[1] -= dy * b2m
            v1[2] -= dz * b2m
            v2[0] += dx * b1m
            v2[1] += dy * b1m
            v2[2] += dz * b1m
        for r, [vx, vy, vz], _m in bodies:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz
    return time.perf_counter() - started


def pi_estimate(kind: str, positions: Sequence[Round], p99: float, factor: float) -> float:
    """The 99th percentile of a decision here as it would be on a Pi 4: times ``factor``. An
    agent with a time budget (wall time: on a slower core it does less work within it) is timed
    again with its budget divided by ``factor``, which leaves it here the work a Pi's core does
    within the whole budget; those times then scale by the factor."""
    agent = make_level_agent(kind)
    if not isinstance(agent, HeuristicAgent) or agent.budget is None:
        return p99 * factor
    return _quantile(bench_decisions(kind, positions, budget_scale=1 / factor), 0.99) * factor


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    """Run the benchmarks and print Markdown tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200, help="play decisions per agent kind (default 200)")
    parser.add_argument("--kinds", nargs="*", default=["rule", "heuristic", "montecarlo:n16", "montecarlo"],
                        help="agent specs or levels")
    parser.add_argument("--levels", action="store_true", help="time the four levels instead of --kinds")
    parser.add_argument("--pi", type=int, default=0, metavar="STEPS",
                        help="also time N-body for STEPS steps and estimate a Raspberry Pi 4's times")
    args = parser.parse_args()
    if args.levels:
        args.kinds = list(LEVELS)
    factor = 0.0
    if args.pi:
        seconds = bench_nbody(args.pi)
        factor = (PI4_NBODY_SECONDS / PI4_NBODY_STEPS) / (seconds / args.pi)
        print(f"N-body, {args.pi:,} steps: {seconds:.2f} s here; a Pi 4 took {PI4_NBODY_SECONDS} s for "
              f"{PI4_NBODY_STEPS:,}: Pi 4 slowdown factor {factor:.1f} (an estimate)\n")
    print(f"Python {sys.version.split()[0]}\n")
    print(f"hand partitions of fresh hands: {bench_partition(2000):,.0f}/s")
    positions = _positions(args.decisions, seed=1)
    print(f"rollouts from mid-round positions: {bench_rollouts(positions):,.0f}/s\n")
    pi_header = " Pi 4 estimate of the 99th percentile |" if factor else ""
    print("| agent | play decisions | median | 99th percentile | maximum |" + pi_header)
    print("| --- | ---: | ---: | ---: | ---: |" + (" ---: |" if factor else ""))
    for kind in args.kinds:
        times = bench_decisions(kind, positions)
        p99 = _quantile(times, 0.99)
        print(f"| {kind} | {len(times)} | {_quantile(times, 0.5) * 1e3:.1f} ms | "
              f"{p99 * 1e3:.1f} ms | {max(times) * 1e3:.1f} ms |"
              + (f" {pi_estimate(kind, positions, p99, factor) * 1e3:.0f} ms |" if factor else ""))
    if args.pi:
        seconds = bench_nbody(args.pi)
        print(f"\nN-body again after the agents: {seconds:.2f} s, factor "
              f"{(PI4_NBODY_SECONDS / PI4_NBODY_STEPS) / (seconds / args.pi):.1f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak resident memory of this process: {peak:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
