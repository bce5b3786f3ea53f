"""Run agent-vs-agent games in the Arena and print the statistics.

Example: ``tichu-arena --games 1000 --seed 1 --workers 2 random random random random``
"""

from __future__ import annotations

import argparse
import sys

from tichu.agents.registry import AGENTS
from tichu.arena.arena import Arena, ProgressBar
from tichu.arena.runners import ClusterUnavailable
from tichu.arena.stats import Sprt
from tichu.cli.arguments import agent, integer
from tichu.cli.errors import USAGE, CommandError, CommandParser, run_command
from tichu.records.record import RecordWriter


def parser() -> CommandParser:
    """The command line's parser."""
    parser = CommandParser("tichu-arena", __doc__)
    parser.add_argument("agents", nargs="*", type=agent, default=["random"] * 4, metavar="AGENT",
                        help=f"four agents for seats 0..3 (team A = 0+2, team B = 1+3), or two (team A, team B); "
                             f"one of {list(AGENTS)}, montecarlo also as montecarlo:SECONDS or montecarlo:nSAMPLES, "
                             "today's before the search over every decision as montecarlo:v1[:SETTING]")
    parser.add_argument("--games", type=integer(1), default=1000, help="number of games (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole run (default 1)")
    parser.add_argument("--workers", type=integer(1), default=None, help="worker processes (default: all cores)")
    parser.add_argument("--target", type=integer(1), default=1000, help="target score of a game (default 1000)")
    parser.add_argument("--duplicate", action="store_true", help="play every deal twice with the teams' seats swapped")
    parser.add_argument("--records", metavar="FILE.jsonl", help="write every game's record (JSON Lines)")
    parser.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"),
                        help="stop early when team A is shown to be ELO1 stronger, or not ELO0 (alpha = beta = 0.05)")
    parser.add_argument("--until-clear", action="store_true",
                        help="stop at an interim look (each tenth of --games) once the mean score difference "
                             "per round is clear of zero")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--times", action="store_true",
                        help="time every decision and report the median and 99th percentile per team")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="play on a Ray cluster (host:port, or auto); needs pip install 'tichu[cluster]' "
                             "on every node; --workers is then the cluster's CPUs")
    return parser


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the command line: four agents (two stand for team A's and team B's)."""
    command = parser()
    args = command.parse_args(argv)
    _check(command, args)
    return args


def _check(command: CommandParser, args: argparse.Namespace) -> None:
    """Check what the arguments' types cannot: the number of agents, the SPRT's bounds."""
    if len(args.agents) == 2:
        args.agents = [args.agents[0], args.agents[1], args.agents[0], args.agents[1]]
    if len(args.agents) != 4:
        command.error("name four agents (or two: team A's and team B's)")
    if args.sprt and not args.sprt[0] < args.sprt[1]:
        command.error(f"--sprt needs ELO0 < ELO1, not {args.sprt[0]:g} {args.sprt[1]:g}")


def main(argv: list[str] | None = None) -> int:
    """Run the Arena; exit 0, 1 on a failure, 2 for bad arguments or when the cluster asked for is not there."""
    command = parser()

    def body(args: argparse.Namespace) -> int:
        _check(command, args)
        return run(args)

    return run_command(command, argv, body)


def run(args: argparse.Namespace) -> int:
    """Play the games and print the report."""
    sprt = Sprt(args.sprt[0], args.sprt[1]) if args.sprt else None
    arena = Arena(args.agents, games=args.games, seed=args.seed, workers=args.workers, target_score=args.target,
                  duplicate=args.duplicate, records=bool(args.records), sprt=sprt,
                  until_clear=args.until_clear, cluster=args.cluster, time_decisions=args.times)
    progress = ProgressBar(args.games, enabled=False if args.no_progress else None)
    try:
        if args.records:
            with RecordWriter(args.records) as writer:
                report = arena.run(on_record_line=writer.write_line, progress=progress)
        else:
            report = arena.run(progress=progress)
    except ClusterUnavailable as error:
        raise CommandError(str(error), USAGE) from error
    print("\n".join(report.lines()))
    if args.records:
        print(f"records: {args.records}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
