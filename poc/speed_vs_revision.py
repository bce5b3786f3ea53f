#!/usr/bin/env python3
"""This tree's engine against an earlier revision's, side by side: random-agent rounds per
second and rollouts per second, with the ratios (issue 14's speed targets).

Run: ``.venv/bin/python poc/speed_vs_revision.py --rev 6d2a3f6`` (the commit before issue 14).

The revision is checked out into a temporary ``git worktree`` (removed at the end). Each pair
runs both trees in turn, the order alternating from pair to pair, so that a machine that is
busier for a while slows both alike:

- **Arena**: ``tichu-arena`` (``bin/run_arena.py`` before issue 26) of each tree, random
  agents, one worker, records written, the whole process timed (start-up included, as a user
  sees it). The same seed must give the same games in both trees: the records are compared
  (apart from the start time), and a difference stops the benchmark, since a speed-up must not change a single decision.
- **Rollouts**: this tree's ``poc/rollout_profile.py --mode full`` run against each tree's
  ``src``: seeded mid-round positions finished by the Monte Carlo agent's rollout (bombs and
  calls), timed in the process around the rollouts only.

With ``--accelerated`` a third tree joins: this one copied with the optional accelerator
compiled (``bin/accelerate.py --into``), and the pairs rotate the order of the three.

The ratios (this tree / the revision) are printed per pair and as medians. Nothing here is a
test; the figures go into docs/benchmarks.md with the command.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUNDS_LINE = re.compile(r"games (\d+), rounds (\d+)")
ROLLOUT_LINE = re.compile(r"full: (\d+) rollouts/s")


@dataclass(frozen=True)
class Measurement:
    """One tree's figures in one pair.

    :ivar rounds_per_second: Random-agent rounds per second of the whole Arena process.
    :ivar rollouts_per_second: Rollouts per second (0 when not measured).
    :ivar records: The Arena's records without their start times, for the comparison.
    """

    rounds_per_second: float
    rollouts_per_second: float
    records: list[object]


@contextmanager
def worktree(revision: str) -> Iterator[Path]:
    """Check ``revision`` out into a temporary worktree, and remove it afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="tichu-rev-"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--quiet", "--detach", str(folder), revision],
                   check=True)
    try:
        yield folder
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)], check=True)


def tool(tree: Path, script: str, module: str) -> list[str]:
    """The arguments after ``python`` that run a command-line tool of ``tree``: its
    ``bin/SCRIPT.py`` in a revision from before the package had entry points (issue 26), else
    the module ``tichu.cli.MODULE`` (with ``tree/src`` on ``PYTHONPATH``)."""
    script_path = tree / "bin" / f"{script}.py"
    return [str(script_path)] if script_path.is_file() else ["-m", f"tichu.cli.{module}"]


def _records(path: Path) -> list[object]:
    """The records of a run, without the start time (the one field that differs)."""
    found: list[object] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        record.pop("started_at", None)
        found.append(record)
    return found


def measure(tree: Path, games: int, rollouts: int, seed: int) -> Measurement:
    """Run the Arena of ``tree`` as a whole process, then the rollouts against its sources."""
    environment = {"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin"}
    with tempfile.TemporaryDirectory() as scratch:
        records = Path(scratch) / "records.jsonl"
        command = [sys.executable, *tool(tree, "run_arena", "arena"), "--games", str(games), "--workers", "1",
                   "--seed", str(seed), "--records", str(records), "--no-progress"] + ["random"] * 4
        started = time.perf_counter()
        output = subprocess.run(command, env=environment, capture_output=True, text=True, check=True).stdout
        elapsed = time.perf_counter() - started
        found = ROUNDS_LINE.search(output)
        if found is None:
            raise RuntimeError(f"no rounds line in the Arena's output:\n{output}")
        rounds = int(found.group(2))
        kept = _records(records)
    rate = 0.0
    if rollouts:
        output = subprocess.run([sys.executable, str(ROOT / "poc" / "rollout_profile.py"), "--mode", "full",
                                 "--rollouts", str(rollouts)],
                                env=environment, capture_output=True, text=True, check=True).stdout
        match = ROLLOUT_LINE.search(output)
        if match is None:
            raise RuntimeError(f"no rollout rate in the output:\n{output}")
        rate = float(match.group(1))
    return Measurement(rounds / elapsed, rate, kept)


@contextmanager
def compiled_copy() -> Iterator[Path]:
    """This tree copied into a temporary folder with the accelerator compiled there
    (``bin/accelerate.py --into``), removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="tichu-compiled-") as folder:
        subprocess.run([sys.executable, str(ROOT / "bin" / "accelerate.py"), "--into", folder], check=True)
        yield Path(folder)


def _ratio_cells(now: float, then: float) -> str:
    return f"{now:.0f} | {now / then:.2f}" if then else f"{now:.0f} | -"


def main(argv: list[str] | None = None) -> int:
    """Measure the trees in rotating order, pair by pair, and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", required=True, help="the earlier revision (a commit, tag or branch)")
    parser.add_argument("--pairs", type=int, default=5, help="pairs of runs (default 5)")
    parser.add_argument("--games", type=int, default=300, help="random-agent games per Arena run (default 300)")
    parser.add_argument("--rollouts", type=int, default=3000, help="rollouts per run, 0 to skip (default 3000)")
    parser.add_argument("--seed", type=int, default=1, help="the Arena's seed (default 1)")
    parser.add_argument("--accelerated", action="store_true",
                        help="also time this tree with the optional accelerator (bin/accelerate.py) compiled")
    args = parser.parse_args(argv)
    ratios: dict[str, list[float]] = {"arena": [], "rollouts": [], "arena compiled": [], "rollouts compiled": []}
    with worktree(args.rev) as earlier, (compiled_copy() if args.accelerated else nullcontext(None)) as compiled:
        trees = [ROOT, earlier] + ([compiled] if compiled else [])
        print(f"this tree: {ROOT}; earlier: {args.rev} in {earlier}"
              + (f"; compiled copy: {compiled}" if compiled else ""))
        extra = " compiled | ratio |" if compiled else ""
        print(f"| pair | rounds/s then | now | ratio |{extra} rollouts/s then | now | ratio |{extra}")
        print("| ---: " * (7 + (4 if compiled else 0)) + "|")
        for pair in range(args.pairs):
            shift = pair % len(trees)  # each tree goes first, second... in turn
            order = trees[shift:] + trees[:shift]
            results = {tree: measure(tree, args.games, args.rollouts, args.seed) for tree in order}
            then = results[earlier]
            if any(result.records != then.records for result in results.values()):
                print("the trees played different games for the same seed: not a pure speed-up")
                return 1
            arena_cells, rollout_cells = [], []
            for name, tree in [("", ROOT)] + ([(" compiled", compiled)] if compiled else []):
                result = results[tree]
                ratios["arena" + name].append(result.rounds_per_second / then.rounds_per_second)
                arena_cells.append(_ratio_cells(result.rounds_per_second, then.rounds_per_second))
                if args.rollouts:
                    ratios["rollouts" + name].append(result.rollouts_per_second / then.rollouts_per_second)
                rollout_cells.append(_ratio_cells(result.rollouts_per_second, then.rollouts_per_second))
            print(f"| {pair + 1} | {then.rounds_per_second:.0f} | {' | '.join(arena_cells)} | "
                  f"{then.rollouts_per_second:.0f} | {' | '.join(rollout_cells)} |", flush=True)
    print()
    for key, label in (("arena", "random-agent rounds per second (whole process, records)"),
                       ("rollouts", "rollouts per second")):
        for name in ("", " compiled"):
            if ratios[key + name]:
                print(f"median ratio, {label}{', accelerated' if name else ''}: "
                      f"{statistics.median(ratios[key + name]):.2f}x")
    print("the same games in every tree: records identical apart from the start time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
