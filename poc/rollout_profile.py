#!/usr/bin/env python3
"""Rollouts per second, v1's against the search's that bomb and call (issue 13 part 2).

Run: ``PYTHONPATH=src python poc/rollout_profile.py --mode v1|full [--rollouts N] [--profile]``.
It deals seeded rounds, takes each to mid-round with the rollout policy (a few plays), and
finishes clones of them ``--rollouts`` times in all: ``v1`` with
:func:`tichu.agents.mc_agent.rollout`, ``full`` with :func:`tichu.agents.mc_search.rollout_full`
(out-of-turn bombs and Tichu calls). ``--profile`` prints cProfile's top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

try:
    from tichu.agents.heuristic_policy import HeuristicPolicy
except ImportError:  # a revision from before the policy had a module of its own (speed_vs_revision.py)
    from tichu.agents.heuristic_agent import HeuristicPolicy  # type: ignore[attr-defined]
from tichu.agents.mc_agent import ROLLOUT_WEIGHTS
from tichu.agents.mc_search import rollout_full
from tichu.agents.support.rollout import rollout
from tichu.agents.support.situation import situation_in
from tichu.core.round import Decision, Round
from tichu.core.ruleset import RuleSet


def positions(count: int, policy: HeuristicPolicy) -> list[Round]:
    """Seeded rounds after the push and six plays."""
    found = []
    for seed in range(count):
        round_ = Round(RuleSet(), random.Random(seed))
        for seat in range(4):
            round_.decide_grand_tichu(seat, False)
        for seat in range(4):
            round_.schupf(seat, policy.schupf(round_.hands[seat], False))
        for _ in range(6):
            if round_.decision != Decision.PLAY:
                break
            turn = round_.decision_seat
            assert turn is not None
            round_.apply_legal_play(policy.play(situation_in(round_, turn), round_.legal_plays()))
        if round_.decision == Decision.PLAY:
            for seat in range(4):  # shared by the clones, as the agent does
                round_.combinations(seat)
                round_.holds_bomb(seat)
            found.append(round_)
    return found


def run(mode: str, rollouts: int) -> float:
    policy = HeuristicPolicy(ROLLOUT_WEIGHTS)
    starts = positions(40, policy)
    started = time.perf_counter()
    for index in range(rollouts):
        round_ = starts[index % len(starts)].clone()
        if mode == "v1":
            rollout(round_, policy)
        else:
            rollout_full(round_, policy, bombs=True, calls=True)
    return rollouts / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", choices=("v1", "full"), default="full")
    parser.add_argument("--rollouts", type=int, default=2000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        rate = run(args.mode, args.rollouts)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
    else:
        rate = run(args.mode, args.rollouts)
    print(f"{args.mode}: {rate:.0f} rollouts/s")


if __name__ == "__main__":
    main()
