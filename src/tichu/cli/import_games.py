"""Import game records (JSON Lines, records.md) into the server's database.

Example: ``tichu-import --db data/tichu.sqlite3 games.jsonl``. Games whose id is
stored already are skipped, so importing a file twice adds nothing; a line that is no
record (a torn last line, say) is reported and skipped.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tichu.cli.arguments import record_file
from tichu.cli.errors import CommandParser, run_command
from tichu.records.store import GameStore


def main(argv: list[str] | None = None) -> int:
    """Import the files named on the command line; print what was added and skipped."""
    parser = CommandParser("tichu-import", __doc__)
    parser.add_argument("--db", type=Path, default=Path("data/tichu.sqlite3"), help="the database file")
    parser.add_argument("files", nargs="+", type=record_file, help="record files (.jsonl)")
    return run_command(parser, argv, import_files)


def import_files(args: argparse.Namespace) -> int:
    """Import every file into the store; 1 if a line was skipped."""
    store = GameStore(args.db)
    unreadable = 0
    try:
        for path in args.files:

            def report(number: int, why: str, path: Path = path) -> None:
                nonlocal unreadable
                unreadable += 1
                print(f"{path}:{number}: skipped, {why}")

            added, known = store.archive.import_jsonl(path, report)
            print(f"{path}: {added} games added, {known} already stored")
    finally:
        store.close()
    return 1 if unreadable else 0


if __name__ == "__main__":
    sys.exit(main())
