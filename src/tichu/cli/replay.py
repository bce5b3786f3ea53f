"""Replay game records (JSON Lines) through the rules and report every record that breaks one.

Example: ``tichu-replay data/records/arena.jsonl``. A line that is no record (one
torn by a power cut, say) is reported and skipped. Exit status 1 if any line was skipped, or
any record has a violation or a round whose card points do not add up to 100 (double
victories aside).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tichu.records.record import json_list, json_object, read_records, replay


def main(argv: list[str] | None = None) -> int:
    """Replay the files named on the command line; print a summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="record files (.jsonl)")
    args = parser.parse_args(argv)
    games = rounds = problems = 0
    for path in args.files:

        def unreadable(number: int, why: str, path: Path = path) -> None:
            nonlocal problems
            problems += 1
            print(f"{path}:{number}: skipped, {why}")

        for number, record in enumerate(read_records(path, unreadable), start=1):
            games += 1
            violation = replay(record)
            if violation is not None:
                problems += 1
                print(f"{path}:{number} ({record.get('id')}): {violation}")
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
