"""Import game records (JSON Lines, records.md) into the server's database.

Example: ``tichu-import --db data/tichu.sqlite3 games.jsonl``. Games whose id is
stored already are skipped, so importing a file twice adds nothing; a line that is no
record (a torn last line, say) is reported and skipped.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tichu.records.store import GameStore


def main(argv: list[str] | None = None) -> int:
    """Import the files named on the command line; print what was added and skipped."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=Path("data/tichu.sqlite3"), help="the database file")
    parser.add_argument("files", nargs="+", type=Path, help="record files (.jsonl)")
    args = parser.parse_args(argv)
    store = GameStore(args.db)
    unreadable = 0
    try:
        for path in args.files:

            def report(number: int, why: str, path: Path = path) -> None:
                nonlocal unreadable
                unreadable += 1
                print(f"{path}:{number}: skipped, {why}")

            added, known = store.import_jsonl(path, report)
            print(f"{path}: {added} games added, {known} already stored")
    finally:
        store.close()
    return 1 if unreadable else 0


if __name__ == "__main__":
    sys.exit(main())
