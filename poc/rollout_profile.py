#!/usr/bin/env python3
"""Rollouts per second, v1's against the search's that bomb and call (issue 13 part 2).

Run: ``PYTHONPATH=src python poc/rollout_profile.py --mode v1|full [--rollouts N] [--profile]``.
It deals seeded rounds, takes each to mid-round with the rollout policy (a few plays), and
finishes clones of them ``--rollouts`` times in all with
:func:`tichu.agents.support.rollout.rollout`: ``v1`` with a policy that lets every offered
bomb and call pass, ``full`` with the policy's own out-of-turn bombs and Tichu calls.
``--profile`` prints cProfile's top functions. A tree from before the game's flow lived in
the rules core (issue 22) is measured with its own rollouts: ``rollout`` and ``rollout_full``
on a :class:`~tichu.core.round.Round` (``poc/speed_vs_revision.py`` runs this script there).
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
from collections.abc import Callable

from tichu.agents.mc_agent import ROLLOUT_WEIGHTS
from tichu.agents.support import rollout as rollouts
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


def finisher(mode: str, policy: HeuristicPolicy) -> Callable[[Round], None]:
    """How this tree finishes a copy of a position in ``mode``."""
    full = mode == "full"
    if hasattr(rollouts, "GameState"):  # the flow in the rules core (issue 22)
        from tichu.core.flow import GameState

        def finish(round_: Round) -> None:
            rollouts.rollout(GameState.within(round_), policy, bombs=full, calls=full)
    else:  # before: a rollout of its own, and one more with bombs and calls
        from tichu.agents.mc_search import rollout_full  # type: ignore[attr-defined]

        def finish(round_: Round) -> None:
            if full:
                rollout_full(round_, policy, bombs=True, calls=True)
            else:
                rollouts.rollout(round_, policy)  # type: ignore[arg-type]
    return finish


def run(mode: str, count: int) -> float:
    policy = HeuristicPolicy(ROLLOUT_WEIGHTS)
    starts = positions(40, policy)
    finish = finisher(mode, policy)
    started = time.perf_counter()
    for index in range(count):
        finish(starts[index % len(starts)].clone())
    return count / (time.perf_counter() - started)


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
