"""OpenSpiel's ISMCTS against our agents on duplicate deals, with the Arena's statistics.

Example: ``tichu-spiel-arena --pairs 4 --target 500 --simulations 100 rule heuristic``
(needs the extra ``spiel``: ``pip install 'tichu[spiel]'``, in a checkout ``pip install -e '.[spiel]'``;
docs/agents.md, "OpenSpiel's ISMCTS against our agents"). OpenSpiel is imported only to play, so
``--help`` and the argument checks work without it.
Team A is the bot (``ismcts:nSIMULATIONS``), team B the agent named; each pair of games plays the
same deals with the teams' seats swapped.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING

from tichu.agents.registry import AGENTS
from tichu.arena.arena import ArenaReport, GameSummary, summarize_game
from tichu.arena.stats import TimeHistogram
from tichu.cli.arguments import agent, integer, number
from tichu.cli.errors import CommandError, CommandParser, missing_extra, run_command

if TYPE_CHECKING:
    from tichu.learn.spiel_match import MatchGame


def parser() -> CommandParser:
    """The command line's parser."""
    parser = CommandParser("tichu-spiel-arena", __doc__)
    parser.add_argument("opponents", nargs="+", type=agent, metavar="AGENT",
                        help=f"our agents to play, each in turn; one of {list(AGENTS)}")
    parser.add_argument("--pairs", type=integer(1), default=2, help="duplicate pairs of games per opponent (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals, the bot and the agents (default 1)")
    parser.add_argument("--target", type=integer(1), default=1000, help="target score of a game (default 1000)")
    parser.add_argument("--max-rounds", type=integer(1), default=50,
                        help="a game ends after this many rounds (default 50)")
    parser.add_argument("--simulations", type=integer(1), default=50,
                        help="ISMCTS simulations per decision (default 50)")
    parser.add_argument("--uct-c", type=number(0), default=150.0,
                        help="UCT's exploration constant in points (default 150)")
    parser.add_argument("--rollouts", type=integer(1), default=1,
                        help="rollouts to the round's end per evaluation (default 1)")
    return parser


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the command line."""
    return parser().parse_args(argv)


def summary(game: MatchGame) -> tuple[GameSummary, bool]:
    """The game as the Arena's summary with the bot as team A; whether it stopped without a winner
    (counted then for the team ahead, the agent's on a tie)."""
    times = (TimeHistogram(), TimeHistogram())
    for side, durations in ((0, game.bot_times), (1, game.agent_times)):
        for seconds in durations:
            times[side].add(seconds)
    bot_team = 1 if game.swapped else 0
    winner = game.winner_team
    if winner is None:
        totals = [sum(result.points[team] for result in game.results) for team in (0, 1)]
        winner = bot_team if totals[bot_team] > totals[1 - bot_team] else 1 - bot_team
    return summarize_game(game.index, game.results, game.swapped, winner, times), game.winner_team is None


def run(opponent: str, args: argparse.Namespace) -> list[str]:
    """Play the bot against one opponent; the report's lines.

    :raises CommandError: Without OpenSpiel (the extra ``spiel``), naming how to install it.
    """
    try:
        from tichu.learn.spiel_match import BotSettings, play_match
    except ImportError as error:
        raise CommandError(missing_extra("spiel", error)) from error
    settings = BotSettings(args.simulations, args.uct_c, args.rollouts)
    report = ArenaReport((settings.label(), opponent, settings.label(), opponent))
    started = time.perf_counter()

    def progress(game: MatchGame) -> None:
        print(f"game {game.index + 1}/{2 * args.pairs} against {opponent}: {len(game.results)} rounds, "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)

    truncated = 0
    for game in play_match(opponent, pairs=args.pairs, seed=args.seed, target_score=args.target,
                           max_rounds=args.max_rounds, settings=settings, on_game=progress):
        counted, stopped = summary(game)
        report.add(counted)
        truncated += stopped
    report.elapsed = time.perf_counter() - started
    lines = report.lines()
    if truncated:
        lines.append(f"{truncated} games stopped after {args.max_rounds} rounds without a winner")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Play the bot against each opponent in turn and print the report of each."""
    return run_command(parser(), argv, play_all)


def play_all(args: argparse.Namespace) -> int:
    """Play every opponent in turn."""
    for opponent in args.opponents:
        print("\n".join(run(opponent, args)) + "\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
