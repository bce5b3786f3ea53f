#!/usr/bin/env python3
"""One of our agents against frohlfing/tichu's ``HeuristicAgent`` in our Arena, on duplicate deals
(issue 34: "against frohlfing's heuristic", docs/agents.md's method).

Run: ``PYTHONPATH=src ../ext/fvenv/bin/python -m poc.vs_frohlfing --frohlfing ../ext/frohlfing
--games 200 --seed 7 heuristic`` (``--until-clear`` stops at the first interim look where the
difference is clear of zero, as ``tichu-arena --until-clear`` does; ``--minutes`` stops after
the deal that ends past a time limit; ``--records FILE`` writes the games' records, and two
runs of one seed, a variant of ours and the agent it changes, compare round by round with
``bin/paired_rounds.py``).

frohlfing/tichu (GPL-3.0, https://github.com/frohlfing/tichu) is no part of this project:
nothing of it is copied here; :class:`poc.frohlfing_agent.TheirCode` loads its modules from the
checkout ``--frohlfing`` names, in this process, whose Python needs their dependency
``python-dotenv``. Our agent (team A) and theirs (team B, :class:`poc.frohlfing_agent.FrohlfingAgent`)
play every deal twice with the teams' seats swapped, games to ``--target`` points, seeded as
the Arena seeds them (:func:`tichu.arena.arena.plan_games`), in one process (one core). The
report is the Arena's (:class:`tichu.arena.arena.ArenaReport`: difference per round with its 95%
interval, wins, calls, Tichu bonus, decision times), then a row for docs/agents.md's strength
table, then the adapter's self-check: their decisions and the illegal ones, by kind. The
exit status is 1 when any decision was illegal (our core refused it: the adapter then chose a
legal one, and the run does not measure their agent as it is).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TextIO

from poc.duplicate_deals import play_deals, table_row
from poc.frohlfing_agent import FrohlfingAgent, Tally, TheirCode
from tichu.agents.agent import Agent
from tichu.agents.registry import make_agent
from tichu.arena.arena import ArenaReport

#: Team B's name in the report.
THEIRS = "frohlfing:heuristic"


def play(ours: str, code: TheirCode, games: int, seed: int, target: int, until_clear: bool,
         tally: Tally, minutes: float | None = None, records: TextIO | None = None) -> ArenaReport:
    """Play ours (team A) against theirs (team B) on duplicate deals
    (:func:`poc.duplicate_deals.play_deals`, which writes the games' ``records``) and return the report."""
    def make(side: int, label: str, seed: int) -> Agent:
        return make_agent(ours, name=label, seed=seed) if side == 0 else FrohlfingAgent(code, label, seed, tally)
    return play_deals(make, (ours, THEIRS), games, seed, target, until_clear, minutes, records=records)


def tally_lines(tally: Tally) -> list[str]:
    """The adapter's self-check: their decisions and the illegal ones, by kind."""
    asked = ", ".join(f"{kind} {count}" for kind, count in sorted(tally.decisions.items()))
    illegal = sum(tally.illegal.values())
    lines = [f"their decisions: {sum(tally.decisions.values())} ({asked})",
             f"illegal decisions: {illegal}" + (f" ({dict(tally.illegal)})" if illegal else "")]
    lines += [f"  {example}" for example in tally.examples]
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run the games, print the report, the table row and the self-check; 1 if any decision was illegal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent", help="our agent (team A) as tichu-arena names it: heuristic, montecarlo:plays:n24")
    parser.add_argument("--frohlfing", type=Path, required=True, help="a checkout of frohlfing/tichu")
    parser.add_argument("--games", type=int, default=200, help="games, an even number: two per deal (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole run (default 1)")
    parser.add_argument("--target", type=int, default=1000, help="target score of a game (default 1000)")
    parser.add_argument("--until-clear", action="store_true",
                        help="stop at an interim look (each tenth of --games) once the mean difference per round "
                             "is clear of zero")
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop after the deal that ends past this many minutes of play (default: no limit)")
    parser.add_argument("--records", type=Path, default=None,
                        help="write each game's record to this file, a line each (two runs of the same seed: "
                             "bin/paired_rounds.py compares them round by round)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be an even number of at least 2 (two games per deal), not {args.games}")
    if args.minutes is not None and not args.minutes > 0:
        parser.error(f"--minutes must be positive, not {args.minutes}")
    if args.target < 1:
        parser.error(f"--target must be positive, not {args.target}")
    try:
        make_agent(args.agent)
    except ValueError as error:
        parser.error(str(error))
    try:
        code = TheirCode(args.frohlfing)
    except ImportError as error:
        parser.error(f"cannot load frohlfing/tichu: {error}")
    tally = Tally()
    with ExitStack() as stack:
        records = None if args.records is None else stack.enter_context(args.records.open("w", encoding="utf-8"))
        report = play(args.agent, code, args.games, args.seed, args.target, args.until_clear, tally, args.minutes,
                      records)
    command = "python -m poc.vs_frohlfing " + shlex.join(sys.argv[1:] if argv is None else argv)
    print("\n".join(report.lines()))
    print(table_row(report, "frohlfing's `HeuristicAgent`", command))
    print("\n".join(tally_lines(tally)))
    return 1 if tally.illegal else 0


if __name__ == "__main__":
    sys.exit(main())
