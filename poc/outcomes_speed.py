#!/usr/bin/env python3
"""The play path and the records' own work in CPU seconds, for one tree (Issue 36).

Run it once per tree, alternating, each with that tree's ``src`` (or a compiled copy's, made
by ``bin/accelerate.py --into DIR``) first on ``PYTHONPATH``::

    PYTHONPATH=src .venv/bin/python poc/outcomes_speed.py
    PYTHONPATH=/tmp/rev/src .venv/bin/python poc/outcomes_speed.py

It prints three figures, each the CPU time of this process (:func:`time.process_time`, so that
other work on a shared machine counts less than on a wall clock):

- **core**: 60 dealt rounds played 10 times each by random legal plays through
  ``GameState.apply_play``, every offer declined (the rules core's play path alone);
- **rollouts**: ``poc.rollout_profile``'s 40 positions finished 1,500 times by its ``full``
  rollout (the heuristic policy, bombs and calls);
- **records**: 200 random-agent Arena games played with their rounds kept, then their record
  lines built (``game_record_line``), with the share of the games' own time.

Nothing here is a test; the figures go into docs/benchmarks.md with the command.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from poc.rollout_profile import finisher, positions  # noqa: E402
from tichu.agents.driver import play_game  # noqa: E402
from tichu.agents.heuristic_policy import HeuristicPolicy  # noqa: E402
from tichu.agents.mc_agent import ROLLOUT_WEIGHTS  # noqa: E402
from tichu.arena.arena import ChunkJob, _seat_agents, plan_games  # noqa: E402
from tichu.arena.stats import TimeHistogram  # noqa: E402
from tichu.core.flow import GameState  # noqa: E402
from tichu.core.round import ActionKind, Decision  # noqa: E402
from tichu.core.ruleset import RuleSet  # noqa: E402
from tichu.records.record import game_record_line  # noqa: E402


def dealt_states(count: int) -> list[GameState]:
    """Rounds dealt and pushed, at their first play (no seat calls)."""
    states = []
    for seed in range(count):
        state = GameState(RuleSet(), seed=seed)
        state.deal()
        rng = random.Random(seed)
        while state.decision != Decision.PLAY:
            seat = state.open_decisions()[0][0]
            actions = [action for action in state.legal_actions(seat)
                       if action.kind != ActionKind.TICHU and action.value is not True]
            state.apply(actions[0] if state.decision in (Decision.TICHU, Decision.BOMB) else rng.choice(actions))
        assert state.round is not None
        state.round.share_caches()
        states.append(state)
    return states


def core_seconds(states: list[GameState]) -> float:
    """Each round played 10 times by random legal plays, every offer declined."""
    rng = random.Random(1)
    started = time.process_time()
    for base in states:
        for _ in range(10):
            state = base.clone()
            round_ = state.round
            assert round_ is not None
            while not round_.is_over:
                decision, seat = state.decision, state.decision_seat
                assert seat is not None
                if decision == Decision.PLAY:
                    legal = state.legal_plays()
                    state.apply_play(legal[rng.randrange(len(legal))])
                elif decision == Decision.WISH:
                    state.wish(seat, round_.wish_choices()[0])
                elif decision == Decision.DRAGON:
                    state.give_dragon(seat, round_.dragon_recipients()[0])
                else:
                    state.decline(seat)
    return time.process_time() - started


def rollout_seconds() -> float:
    """1,500 full rollouts of the rollout profile's positions."""
    policy = HeuristicPolicy(ROLLOUT_WEIGHTS)
    starts = positions(40, policy)
    finish = finisher("full", policy)
    started = time.process_time()
    for index in range(1500):
        finish(starts[index % len(starts)].clone())
    return time.process_time() - started


def record_seconds() -> tuple[float, float]:
    """200 Arena games' own time, and the time to build their record lines."""
    specs = plan_games(200, 1, False)
    job = ChunkJob(("random",) * 4, 1000, tuple(specs), True, "t")
    games = []
    started = time.process_time()
    for spec in specs:
        agents = _seat_agents(job, spec, (TimeHistogram(), TimeHistogram()))
        rules = RuleSet(target_score=1000)
        players = [(agent.name, agent.kind) for agent in agents]
        games.append((play_game(agents, rules, seed=spec.seed, keep_rounds=True), rules, players))
    played = time.process_time() - started
    started = time.process_time()
    for index, (state, rules, players) in enumerate(games):
        game_record_line(state.rounds, rules, players, record_id=f"g{index}", started_at="t")
    return played, time.process_time() - started


def main() -> None:
    compiled = not str(sys.modules[GameState.__module__].__file__).endswith(".py")
    states = dealt_states(60)
    core_seconds(states)  # warm up
    print(f"compiled: {compiled}")
    print(f"core: {min(core_seconds(states) for _ in range(3)):.3f} s")
    print(f"rollouts: {rollout_seconds():.3f} s")
    played, records = record_seconds()
    print(f"records: {records:.3f} s for games of {played:.3f} s ({records / played:.1%})")


if __name__ == "__main__":
    main()
