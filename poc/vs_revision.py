#!/usr/bin/env python3
"""One of our agents against the same agent as an earlier revision plays it, on duplicate deals
(issue 34: "the expert against today's expert, better, with a CI").

Run: ``PYTHONPATH=src .venv/bin/python -m poc.vs_revision --rev e5c57bf --games 200 --seed 71
montecarlo:plays`` (``--their-spec`` names the revision's agent when it differs;
``--until-clear`` stops at the first interim look where the difference is clear of zero;
``--minutes`` stops after the deal that ends past a time limit).

This tree's agent is team A, the revision's (:class:`poc.revision_agent.RevisionAgent`, its
``src/tichu`` loaded beside this tree's) team B, in one process
(:func:`poc.duplicate_deals.play_deals`): both teams' decisions alternate, so an agent with a
time budget meets the same load on either side. The report is the Arena's, then a row for
docs/agents.md's table.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
from pathlib import Path

from poc.duplicate_deals import play_deals, table_row
from poc.revision_agent import RevisionAgent, load_revision
from tichu.agents.agent import Agent
from tichu.agents.registry import make_agent


def main(argv: list[str] | None = None) -> int:
    """Run the games and print the report and the table row."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent", help="our agent (team A) as tichu-arena names it: montecarlo:plays")
    parser.add_argument("--rev", required=True, help="the earlier revision (a commit) whose agent is team B")
    parser.add_argument("--their-spec", default=None, help="team B's agent as the revision names it (default: agent)")
    parser.add_argument("--games", type=int, default=200, help="games, an even number: two per deal (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole run (default 1)")
    parser.add_argument("--target", type=int, default=1000, help="target score of a game (default 1000)")
    parser.add_argument("--until-clear", action="store_true",
                        help="stop at the first interim look where the difference is clear of zero")
    parser.add_argument("--minutes", type=float, default=None, help="stop after the deal that ends past this time")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be an even number of at least 2 (two games per deal), not {args.games}")
    theirs = args.their_spec or args.agent
    try:
        make_agent(args.agent)
    except ValueError as error:
        parser.error(str(error))
    with tempfile.TemporaryDirectory() as folder:
        package = load_revision(args.rev, Path(folder))

        def make(side: int, label: str, seed: int) -> Agent:
            if side == 0:
                return make_agent(args.agent, name=label, seed=seed)
            return RevisionAgent(package, theirs, label, seed)

        report = play_deals(make, (args.agent, f"{theirs}@{args.rev}"), args.games, args.seed, args.target,
                            args.until_clear, args.minutes)
    command = "python -m poc.vs_revision " + shlex.join(sys.argv[1:] if argv is None else argv)
    print("\n".join(report.lines()))
    print(table_row(report, f"`{theirs}` at `{args.rev}`", command))
    return 0


if __name__ == "__main__":
    sys.exit(main())
