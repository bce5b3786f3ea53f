#!/usr/bin/env python3
"""Benchmarks of the agents: hand plans, rollouts, and the decision times of each kind.

Run: ``.venv/bin/python poc/agent_benchmark.py`` (``--decisions N`` per agent kind). It
plays seeded games in one process, times every play decision with a choice, and prints
median, 99th percentile and maximum per kind, plus the process's peak memory. The figures
go into docs/benchmarks.md and docs/agents.md; nothing here is a test.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from tichu.agents.agent import Agent  # noqa: E402
from tichu.agents.heuristic_agent import HeuristicPolicy  # noqa: E402
from tichu.agents.mc_agent import ROLLOUT_WEIGHTS, rollout  # noqa: E402
from tichu.agents.registry import make_agent  # noqa: E402
from tichu.agents.support.hand import partition  # noqa: E402
from tichu.agents.support.situation import situation_in  # noqa: E402
from tichu.core.combos import Play  # noqa: E402
from tichu.core.round import Decision, Round  # noqa: E402
from tichu.engine.views import SeatView, TableInfo, TablePhase  # noqa: E402


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
        rollout(position.clone(), policy)
    return len(positions) / (time.perf_counter() - started)


def bench_decisions(kind: str, positions: Sequence[Round]) -> list[float]:
    """Seconds per play decision of a fresh agent of ``kind`` at each position."""
    times = []
    for index, position in enumerate(positions):
        agent: Agent = make_agent(kind, seed=index)
        seat = position.turn
        assert seat is not None
        legal: list[Play] = position.legal_plays()
        started = time.perf_counter()
        agent.decide_play(SeatView.of(_Table(position), seat), legal)
        times.append(time.perf_counter() - started)
    return times


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    """Run the benchmarks and print Markdown tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200, help="play decisions per agent kind (default 200)")
    parser.add_argument("--kinds", nargs="*", default=["rule", "heuristic", "montecarlo:n16", "montecarlo"])
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}\n")
    print(f"hand partitions of fresh hands: {bench_partition(2000):,.0f}/s")
    positions = _positions(args.decisions, seed=1)
    print(f"rollouts from mid-round positions: {bench_rollouts(positions):,.0f}/s\n")
    print("| agent | play decisions | median | 99th percentile | maximum |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind in args.kinds:
        times = bench_decisions(kind, positions)
        print(f"| {kind} | {len(times)} | {_quantile(times, 0.5) * 1e3:.1f} ms | "
              f"{_quantile(times, 0.99) * 1e3:.1f} ms | {max(times) * 1e3:.1f} ms |")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak resident memory of this process: {peak:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
