"""Write ``endgame_values.json``: the exact value of every option of every two-seat decision of
the nine Brettspielwelt games (``../shared/data/bsw``) and of the seeded Arena games of
:mod:`tests.support.endgames` (issue 34, part 4).

The values come from the tests' own solver, :class:`tests.support.endgames.MemoSolver`
(alpha-beta over the flow's public, checked API with a key and a move order of its own), each
option applied by :func:`tests.support.endgames.apply_option`. The largest positions take
that solver minutes, too long for every test run, so they are solved once here and the
tests read them (``tests/analysis/test_judge_endgames.py`` solves the small ones again live
and checks them against this file). Each value is cross-checked against the agents' solver
(:class:`tichu.agents.support.endgame.EndgameSolver`, ``--nodes`` per solve, its default
budget by default): a disagreement
is printed and the script exits with status 1; a position the agents' solver does not finish
within its budget is kept with the tests' solver's values alone, and the count is printed. A
position the tests' solver does not finish within ``--seconds`` is written without values
(``null``): the tests then count it as not covered. The file is rewritten after each position,
and a run solves only the positions it does not hold yet (``--sources`` chooses the games:
runs over different sources may go side by side; a position left ``null`` is tried again).

Run from the checkout: ``PYTHONPATH=src .venv/bin/python tests/data/make_endgame_values.py
[--bsw DIR] [--nodes N] [--seconds S] [--sources bsw,arena] [--cards N]``
(``--cards``: positions with more cards left are written without values, not tried).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.support.endgames import (  # noqa: E402 (the checkout on the path first)
    VALUES,
    MemoSolver,
    apply_option,
    arena_points,
    bsw_points,
    cards_left,
    fingerprint,
)
from tichu.agents.support.endgame import EndgameSolver  # noqa: E402
from tichu.analysis.points import DecisionPoint  # noqa: E402


class TooLong(Exception):
    """A position took the tests' solver longer than allowed."""


def _too_long(*_: object) -> None:
    raise TooLong


def solved(solver: MemoSolver, point: DecisionPoint, seconds: int) -> list[int] | None:
    """The tests' solver's value of every option, ``None`` beyond ``seconds`` (its table is then
    emptied: a search cut short leaves nothing wrong in it, but nothing is kept that was not finished)."""
    signal.signal(signal.SIGALRM, _too_long)
    signal.alarm(seconds)
    try:
        return [solver.value(apply_option(point, index), point.seat) for index in range(len(point.options))]
    except TooLong:
        solver.table.clear()
        return None
    finally:
        signal.alarm(0)


def checked_values(solver: EndgameSolver, point: DecisionPoint) -> list[int | None]:
    """The agents' solver's value of each option, up to the first it cannot find in its budget."""
    found: list[int | None] = []
    for index in range(len(point.options)):
        found.append(solver.value(apply_option(point, index), point.seat))
        if found[-1] is None:
            break
    return found


def stored() -> dict[str, dict[str, object]]:
    """The positions the file holds now, by fingerprint (none without the file)."""
    if not VALUES.exists():
        return {}
    return {entry["fingerprint"]: entry for entry in json.loads(VALUES.read_text())["positions"]}


def write(entry: dict[str, object]) -> None:
    """Add one position to the file (read afresh first: runs over other sources may write it too)."""
    positions = stored()
    positions[str(entry["fingerprint"])] = entry
    ordered = sorted(positions.values(), key=lambda item: (str(item["source"]), int(str(item["index"]))))
    VALUES.write_text(json.dumps({"positions": ordered}, indent=0) + "\n")


def main() -> int:
    """Solve every position not solved yet, cross-check, write the file; 1 on a disagreement."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bsw", type=Path, default=ROOT.parent / "shared" / "data" / "bsw")
    parser.add_argument("--nodes", type=int, default=200_000)
    parser.add_argument("--seconds", type=int, default=300)
    parser.add_argument("--sources", default="bsw,arena", help="bsw, arena or both (comma-separated)")
    parser.add_argument("--cards", type=int, default=56, help="positions with more cards left are not tried")
    args = parser.parse_args()
    sys.setrecursionlimit(20_000)
    sources = args.sources.split(",")
    if "bsw" in sources and not args.bsw.is_dir():
        parser.error(f"no Brettspielwelt games at {args.bsw} (give --bsw DIR)")
    points = [("bsw", index, point) for index, point in enumerate(bsw_points(str(args.bsw))) if "bsw" in sources]
    points += [("arena", index, point) for index, point in enumerate(arena_points()) if "arena" in sources]
    mine, theirs = MemoSolver(), EndgameSolver(args.nodes)
    done = {name for name, entry in stored().items() if entry["values"] is not None}
    unchecked = disagreements = 0
    for source, index, point in points:
        if fingerprint(point) in done:
            continue
        started = time.perf_counter()
        values = solved(mine, point, args.seconds) if cards_left(point) <= args.cards else None
        seconds = time.perf_counter() - started
        started = time.perf_counter()
        checks = checked_values(theirs, point) if values is not None else [None]
        checked = time.perf_counter() - started
        if None in checks or values is None:
            unchecked += 1
        elif checks != values:
            disagreements += 1
            print(f"disagree: {source} round {point.round} step {point.step}: {values} against {checks}")
        write({"fingerprint": fingerprint(point), "source": source, "index": index, "round": point.round,
               "step": point.step, "seat": point.seat, "kind": point.kind, "cards": cards_left(point),
               "values": values})
        print(f"{source} {index} round {point.round} step {point.step}: {cards_left(point)} cards, "
              f"{len(point.options)} options, {seconds:.1f} s, the agents' solver {checked:.1f} s"
              + ("" if None not in checks else " (beyond its budget)"), flush=True)
    positions = stored().values()
    unsolved = sum(1 for position in positions if position["values"] is None)
    print(f"{len(positions)} positions in the file, {unsolved} beyond the tests' solver's time; this run: "
          f"{unchecked} not cross-checked, {disagreements} disagree")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
