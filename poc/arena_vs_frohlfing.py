#!/usr/bin/env python3
"""Our Arena against frohlfing/tichu's Arena, side by side: random-agent rounds per second of
each whole process, with the ratios.

Run: ``.venv/bin/python -m poc.arena_vs_frohlfing --frohlfing ../ext/frohlfing``
(``--accelerated`` adds this tree with the optional accelerator compiled).

frohlfing/tichu (GPL-3.0, https://github.com/frohlfing/tichu) is another Python implementation
of Tichu with an Arena of its own. It is no part of this project: nothing of it is copied or
imported here; the script only runs its ``bin/run_arena.py`` as an external program, from a
checkout given by its path and with its own Python (``--frohlfing-python``, by default the
``fvenv`` beside the checkout). It needs a ``data/logs`` folder in its checkout, which the
script creates when missing.

Each pair runs every contender once, the order rotating from pair to pair (so that a machine
that is busier for a while slows all alike), each as a whole process with four random agents
and one worker:

- **theirs**: ``bin/run_arena.py -n GAMES -w 1`` in their checkout; it prints its rounds as
  ``Anzahl Runden: N``;
- **ours**: this tree's ``tichu-arena --games GAMES --workers 1 --seed S`` (records
  written with ``--records``, as a user who wants them measures); it prints
  ``games N, rounds R``;
- **compiled** (``--accelerated``): the same in a copy of this tree with the accelerator
  compiled (``bin/accelerate.py --into``, :func:`poc.speed_vs_revision.compiled_copy`).

What is compared is rounds per second: the rounds a run played over the wall time of its
whole process (start-up included, as a user sees it). Their games last more rounds and take
longer, hence fewer of them (``--their-games``); the games themselves differ (their random
agents are not ours, and their runs take no seed). The ratios (ours / theirs) are printed per
pair and as medians, with the exact commands. Nothing here is a test; the figures go into
docs/benchmarks.md with the command.
"""

from __future__ import annotations

import argparse
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from poc.speed_vs_revision import compiled_copy

ROOT = Path(__file__).resolve().parents[1]

THEIR_ROUNDS_LINE = re.compile(r"^Anzahl Runden: (\d+)\s*$", re.MULTILINE)
OUR_ROUNDS_LINE = re.compile(r"games (\d+), rounds (\d+)")


@dataclass(frozen=True)
class Contender:
    """One program in the comparison.

    :ivar name: ``theirs``, ``ours`` or ``compiled``.
    :ivar command: The command line, run in ``cwd`` with ``environment`` (and nothing else of
        the caller's: no variable set in the shell changes what is measured).
    :ivar parse: Reads the rounds played from the program's standard output.
    """

    name: str
    command: list[str]
    cwd: Path
    environment: dict[str, str]
    parse: Callable[[str], int]

    def shell(self) -> str:
        """The command as one shell line (folder and environment included), to repeat it by hand."""
        variables = " ".join(f"{key}={shlex.quote(value)}" for key, value in self.environment.items()
                             if key != "PATH")
        return f"cd {shlex.quote(str(self.cwd))} && {variables} {shlex.join(self.command)}"


def their_rounds(output: str) -> int:
    """The rounds frohlfing/tichu's Arena played, from its line ``Anzahl Runden: N``.

    :raises ValueError: When the line is missing (another program, or it failed early).
    """
    found = THEIR_ROUNDS_LINE.search(output)
    if found is None:
        raise ValueError(f"no line 'Anzahl Runden: N' in frohlfing/tichu's Arena output "
                         f"(is --frohlfing the checkout of frohlfing/tichu?):\n{output}")
    return int(found.group(1))


def our_rounds(output: str) -> int:
    """The rounds our Arena played, from its line ``games N, rounds R (...)``.

    :raises ValueError: When the line is missing.
    """
    found = OUR_ROUNDS_LINE.search(output)
    if found is None:
        raise ValueError(f"no line 'games N, rounds R' in our Arena's output:\n{output}")
    return int(found.group(2))


def theirs(checkout: Path, python: Path, games: int) -> Contender:
    """frohlfing/tichu's Arena: four random agents (its default), ``games`` games, one worker."""
    return Contender("theirs", [str(python), "bin/run_arena.py", "-n", str(games), "-w", "1"], checkout,
                     {"PYTHONPATH": ".", "PATH": "/usr/bin:/bin"}, their_rounds)


def ours(name: str, tree: Path, games: int, seed: int, records: Path | None) -> Contender:
    """The Arena of ``tree`` (this one or its compiled copy): random agents, one worker."""
    command = [sys.executable, "-m", "tichu.cli.arena", "--games", str(games), "--workers", "1", "--seed", str(seed),
               "--no-progress"]
    if records is not None:
        command += ["--records", str(records)]
    return Contender(name, command + ["random"] * 4, tree, {"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin"},
                     our_rounds)


def run(contender: Contender) -> float:
    """Run ``contender`` as a whole process and return its rounds per second (wall time of the process).

    :raises RuntimeError: When the program fails.
    """
    started = time.perf_counter()
    done = subprocess.run(contender.command, cwd=contender.cwd, env=contender.environment, capture_output=True,
                          text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{contender.name} failed (exit {done.returncode}): {contender.shell()}\n"
                           f"{done.stdout}\n{done.stderr}")
    return contender.parse(done.stdout) / elapsed


def default_python(checkout: Path) -> Path | None:
    """frohlfing/tichu's Python: ``fvenv/bin/python`` beside the checkout, if it exists."""
    candidate = checkout.parent / "fvenv" / "bin" / "python"
    return candidate if candidate.exists() else None


def revision_of(checkout: Path) -> str:
    """The commit checked out in ``checkout`` (short), or ``(not a git checkout)``."""
    done = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True)
    return done.stdout.strip() if done.returncode == 0 else "(not a git checkout)"


def main(argv: list[str] | None = None) -> int:
    """Run the contenders in rotating order, pair by pair, and print rounds per second and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frohlfing", type=Path, required=True, help="the checkout of frohlfing/tichu")
    parser.add_argument("--frohlfing-python", type=Path,
                        help="the Python of its environment (default: FROHLFING/../fvenv/bin/python)")
    parser.add_argument("--games", type=int, default=300, help="games per run of our Arena (default 300)")
    parser.add_argument("--their-games", type=int, default=150,
                        help="games per run of their Arena (default 150: their games last longer)")
    parser.add_argument("--pairs", type=int, default=5, help="rounds of runs, every contender once each (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="our Arena's seed (default 1; theirs takes none)")
    parser.add_argument("--accelerated", action="store_true",
                        help="also time this tree with the optional accelerator (bin/accelerate.py) compiled")
    parser.add_argument("--records", action="store_true", help="our runs write records (default: none)")
    args = parser.parse_args(argv)
    checkout = args.frohlfing.resolve()
    if not (checkout / "bin" / "run_arena.py").is_file():
        parser.error(f"--frohlfing {checkout}: no bin/run_arena.py there")
    python = args.frohlfing_python or default_python(checkout)
    if python is None:
        parser.error(f"no {checkout.parent / 'fvenv' / 'bin' / 'python'}: give --frohlfing-python")
    (checkout / "data" / "logs").mkdir(parents=True, exist_ok=True)  # their Arena logs there
    ratios: dict[str, list[float]] = {"ours": [], "compiled": []}
    with (compiled_copy() if args.accelerated else nullcontext(None)) as compiled, \
            tempfile.TemporaryDirectory(prefix="tichu-vs-frohlfing-") as scratch:
        records = Path(scratch) / "records.jsonl" if args.records else None
        contenders = [theirs(checkout, python, args.their_games), ours("ours", ROOT, args.games, args.seed, records)]
        if compiled is not None:
            contenders.append(ours("compiled", compiled, args.games, args.seed, records))
        print(f"theirs: frohlfing/tichu {revision_of(checkout)} in {checkout}; ours: {ROOT}"
              + (f"; compiled copy: {compiled}" if compiled is not None else ""))
        extra = " compiled | ratio |" if compiled is not None else ""
        print(f"| pair | theirs rounds/s | ours | ratio |{extra}")
        print("| ---: " * (4 + (2 if compiled is not None else 0)) + "|")
        for pair in range(args.pairs):
            shift = pair % len(contenders)  # each contender goes first, second... in turn
            rates = {contender.name: run(contender) for contender in contenders[shift:] + contenders[:shift]}
            cells = []
            for name in ratios:
                if name in rates:
                    ratios[name].append(rates[name] / rates["theirs"])
                    cells.append(f"{rates[name]:.0f} | {ratios[name][-1]:.2f}")
            print(f"| {pair + 1} | {rates['theirs']:.0f} | {' | '.join(cells)} |", flush=True)
        print()
        for name, label in (("ours", "ours / theirs"), ("compiled", "ours accelerated / theirs")):
            if ratios[name]:
                print(f"median ratio, random-agent rounds per second (whole process), {label}: "
                      f"{statistics.median(ratios[name]):.2f}x")
        print()
        print(f"commands ({'our records written' if records else 'no records'}; "
              f"pairs: {args.pairs}, the order rotating):")
        for contender in contenders:
            print(f"  {contender.name}: {contender.shell()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
