"""Replay game records (JSON Lines) through the rules and report every record that breaks one.

Example: ``tichu-replay data/records/arena.jsonl`` (written by ``tichu-arena --records``). A line
that is no record (one torn by a power cut, say) is reported and skipped; a Brettspielwelt log
(``.tch``) is refused with a pointer to ``tichu-bsw-import``, which replays it. Exit status 1
if any line was skipped, or any record has a violation or a round whose card points do not add
up to 100 (double victories aside).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tichu.cli.arguments import record_file
from tichu.cli.errors import CommandParser, run_command
from tichu.records.record import json_list, json_object, read_numbered_records, replay


def main(argv: list[str] | None = None) -> int:
    """Replay the files named on the command line; print a summary."""
    parser = CommandParser("tichu-replay", __doc__)
    parser.add_argument("files", nargs="+", type=record_file, help="record files (.jsonl)")
    return run_command(parser, argv, replay_files)


def replay_files(args: argparse.Namespace) -> int:
    """Replay every record of the files; 1 if any line was skipped or broke a rule."""
    games = rounds = problems = 0
    for path in args.files:

        def unreadable(number: int, why: str, path: Path = path) -> None:
            nonlocal problems
            problems += 1
            print(f"{path}:{number}: skipped, {why}")

        for number, record in read_numbered_records(path, unreadable):
            games += 1
            violation = replay(record)
            if violation is not None:
                problems += 1
                print(f"{path}:{number} ({record.get('id')}): {violation}")
                continue
            for index, round_data in enumerate(json_list(record.get("rounds", []))):
                rounds += 1
                round_ = json_object(round_data)
                card_points = [points for points in json_list(round_["card_points"]) if isinstance(points, int)]
                if not round_["double_victory"] and sum(card_points) != 100:
                    problems += 1
                    print(f"{path}:{number} round {index}: card points {round_['card_points']} (R7.2)")
    print(f"{games} games, {rounds} rounds replayed; {problems} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
