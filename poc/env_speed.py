#!/usr/bin/env python3
"""The learning environment's steps per second, side by side: this tree's ``TichuEnv``, an
earlier revision's, and RLCard's Dou Dizhu environment, with the ratios.

Run: ``.venv/bin/python -m poc.env_speed --rev c468ee9`` (``--rev`` is optional; RLCard joins
when it is installed: ``pip install -e '.[bench]'``, else the script says it is skipped).

What a step costs is what a learner pays per decision, so every contender is driven as a
learner drives it, by random legal actions from a seeded :class:`random.Random`, for
``--seconds`` of whole episodes (the clock is read after each episode; resets included):

- **TichuEnv** (this tree's, and with ``--rev REV`` the revision's, checked out into a
  temporary ``git worktree`` by :func:`poc.speed_vs_revision.worktree`): four learning seats,
  ``TichuEnv(target_score=1000, max_rounds=5)``, episodes reset with seeds ``S``, ``S+1``...,
  the standard PettingZoo loop over ``env.agent_iter()`` with ``env.last()`` and a uniformly
  random index where ``info["action_mask"]`` is 1. A step is each ``env.step`` with an action
  (the ``None`` steps of finished agents are not counted). Only this public API is used, which
  every revision since the environment was added has.
- **RLCard** (``rlcard.make('doudizhu', config={'seed': S})``): ``env.reset()``, then random
  keys of ``state['legal_actions']`` until ``env.is_over()``; each ``env.step`` counts. Dou
  Dizhu is another climbing game (three players, one deck), so its steps are of a kind with
  Tichu's plays; the RLCard figure is a yardstick of a widely used library, not the same game.

Each measurement is a subprocess of its own with that tree's ``src`` first on ``PYTHONPATH``:
this script again in its hidden ``--measure tichu|rlcard`` mode, which prints
``steps/s R steps N episodes E``. Each pair runs every contender once, the order rotating from
pair to pair so that a machine that is busier for a while slows all alike; the ratios
(this / revision, this / RLCard, revision / RLCard) are printed per pair and as medians.
Nothing here is a test; the figures go into docs/benchmarks.md with the command.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import re
import statistics
import subprocess
import sys
import time
from contextlib import nullcontext
from pathlib import Path

from poc.speed_vs_revision import worktree

ROOT = Path(__file__).resolve().parents[1]

RATE_LINE = re.compile(r"^steps/s (\d+(?:\.\d+)?) steps (\d+)", re.MULTILINE)
#: The ratios printed, as (numerator, denominator) contenders.
RATIOS = (("this", "rev"), ("this", "RLCard"), ("rev", "RLCard"))


def measure_tichu(seconds: float, seed: int) -> tuple[int, int, float]:
    """Whole episodes of ``TichuEnv`` with four learning seats taking random legal actions, for
    at least ``seconds``: (steps, episodes, seconds taken). Uses the tree on ``sys.path``."""
    import numpy as np

    from tichu.learn.env import TichuEnv

    rng = random.Random(seed)
    env = TichuEnv(target_score=1000, max_rounds=5)
    steps = episodes = 0
    started = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        env.reset(seed=seed + episodes)
        for _agent in env.agent_iter():
            _observation, _reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                legal = np.flatnonzero(info["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        episodes += 1
        elapsed = time.perf_counter() - started
    env.close()
    return steps, episodes, elapsed


def measure_rlcard(seconds: float, seed: int) -> tuple[int, int, float]:
    """Whole episodes of RLCard's Dou Dizhu with random legal actions, for at least ``seconds``:
    (steps, episodes, seconds taken)."""
    import rlcard

    rng = random.Random(seed)
    env = rlcard.make("doudizhu", config={"seed": seed})
    steps = episodes = 0
    started = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        state, _player = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _player = env.step(legal[rng.randrange(len(legal))])
            steps += 1
        episodes += 1
        elapsed = time.perf_counter() - started
    return steps, episodes, elapsed


def parse_rate(output: str) -> float:
    """Steps per second from the ``--measure`` mode's line ``steps/s R steps N ...``.

    :raises ValueError: When the line is missing.
    """
    found = RATE_LINE.search(output)
    if found is None:
        raise ValueError(f"no line 'steps/s R steps N' in the measurement's output:\n{output}")
    return float(found.group(1))


def run_measure(tree: Path, kind: str, seconds: float, seed: int) -> float:
    """Steps per second of ``kind`` (``tichu`` or ``rlcard``), measured in a subprocess with
    ``tree``'s sources first on the path (and this checkout after them, for :mod:`poc`).

    :raises RuntimeError: When the subprocess fails.
    """
    command = [sys.executable, str(Path(__file__).resolve()), "--measure", kind, "--seconds", str(seconds),
               "--seed", str(seed)]
    done = subprocess.run(command, env={"PYTHONPATH": f"{tree / 'src'}{os.pathsep}{ROOT}", "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the {kind} measurement in {tree} failed (exit {done.returncode}):\n"
                           f"{done.stdout}\n{done.stderr}")
    return parse_rate(done.stdout)


def rlcard_available() -> bool:
    """Whether RLCard can be imported (the optional extra ``bench``)."""
    return importlib.util.find_spec("rlcard") is not None


def main(argv: list[str] | None = None) -> int:
    """Measure the contenders in rotating order, pair by pair, and print steps per second and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", help="also an earlier revision's TichuEnv (a commit, tag or branch)")
    parser.add_argument("--pairs", type=int, default=5, help="rounds of runs, every contender once each (default 5)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="seconds of whole episodes per measurement (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="the first episode's seed and the actions' (default 0)")
    parser.add_argument("--measure", choices=("tichu", "rlcard"), help=argparse.SUPPRESS)  # one measurement
    args = parser.parse_args(argv)
    if args.measure:
        measure = measure_tichu if args.measure == "tichu" else measure_rlcard
        steps, episodes, elapsed = measure(args.seconds, args.seed)
        print(f"steps/s {steps / elapsed:.1f} steps {steps} episodes {episodes}")
        return 0
    with (worktree(args.rev) if args.rev else nullcontext(None)) as earlier:
        contenders: list[tuple[str, str, Path]] = [("this", "tichu", ROOT)]
        if earlier is not None:
            contenders.append(("rev", "tichu", earlier))
        if rlcard_available():
            contenders.append(("RLCard", "rlcard", ROOT))
        else:
            print("RLCard is not installed (pip install -e '.[bench]'): its environment is skipped")
        print(f"this tree: {ROOT}" + (f"; earlier: {args.rev} in {earlier}" if earlier else "")
              + f"; {args.seconds:g} s of whole episodes per measurement")
        names = [name for name, _kind, _tree in contenders]
        ratios: dict[tuple[str, str], list[float]] = {(a, b): [] for a, b in RATIOS if a in names and b in names}
        labels = {"this": "this steps/s", "rev": f"{args.rev} steps/s", "RLCard": "RLCard steps/s"}
        print("| pair | " + " | ".join([labels[name] for name in names] + [f"{a}/{b}" for a, b in ratios]) + " |")
        print("| ---: " * (1 + len(names) + len(ratios)) + "|")
        for pair in range(args.pairs):
            shift = pair % len(contenders)  # each contender goes first, second... in turn
            rates = {name: run_measure(tree, kind, args.seconds, args.seed)
                     for name, kind, tree in contenders[shift:] + contenders[:shift]}
            for a, b in ratios:
                ratios[a, b].append(rates[a] / rates[b])
            cells = [f"{rates[name]:.0f}" for name in names] + [f"{found[-1]:.2f}" for found in ratios.values()]
            print(f"| {pair + 1} | {' | '.join(cells)} |", flush=True)
    print()
    for (a, b), found in ratios.items():
        print(f"median ratio, steps per second, {a} / {b}: {statistics.median(found):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
