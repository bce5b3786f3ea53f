"""Export every game of the server's database to a JSON Lines file of records (records.md).

Example: ``tichu-export --db data/tichu.sqlite3 --out games.jsonl``. Every finished
game and every game ended early (``aborted``) is written, in the order it was stored;
``tichu-import`` reads the file back into the same records. Games still running are
left out (and counted): their journals name the people by the hashes of their session ids,
which stay on the server, and they become records when they end (also at the next start of
a server that stopped with them).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tichu.cli.errors import CommandError, CommandParser, run_command
from tichu.records.store import GameStore


def main(argv: list[str] | None = None) -> int:
    """Write the store's records to the file; print how many."""
    parser = CommandParser("tichu-export", __doc__)
    parser.add_argument("--db", type=Path, default=Path("data/tichu.sqlite3"), help="the database file")
    parser.add_argument("--out", type=Path, required=True, help="the JSON Lines file to write")
    return run_command(parser, argv, export)


def export(args: argparse.Namespace) -> int:
    """Export every stored game that ended."""
    if not args.db.is_file():
        raise CommandError(f"no database at {args.db}")
    store = GameStore(args.db)
    try:
        count = store.archive.export_jsonl(args.out)
        running = store.running.count()
    finally:
        store.close()
    print(f"{count} games written to {args.out}")
    if running:
        print(f"{running} running games left out (they are written as records when they end)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
