"""Import Brettspielwelt Tichu logs (.tch) as game records and replay them through the rules.

Example: ``tichu-bsw-import ../shared/data/bsw --out data/records/bsw.jsonl``

Prints per file the rounds imported, the rule flags the game needs and any violation
(a line the rules do not allow, or a record that does not replay); exits 1 if there is
one. Only records that replay are written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tichu.cli.arguments import existing_path
from tichu.cli.errors import CommandError, CommandParser, content_problem, run_command
from tichu.records.bsw import flags_needed, import_file
from tichu.records.record import replay, write_records


def parser() -> CommandParser:
    """The command line's parser."""
    parser = CommandParser("tichu-bsw-import", __doc__)
    parser.add_argument("paths", nargs="+", type=existing_path, metavar="FILE_OR_DIR",
                        help=".tch files, or folders of them")
    parser.add_argument("--out", metavar="FILE.jsonl", help="write the records that replay (JSON Lines)")
    return parser


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the command line."""
    return parser().parse_args(argv)


def log_files(paths: list[Path]) -> list[Path]:
    """The ``.tch`` files named or found (sorted) in the folders named."""
    found: list[Path] = []
    for path in paths:
        found += sorted(path.glob("*.tch")) if path.is_dir() else [path]
    return found


def check_file(path: Path) -> tuple[dict[str, Any] | None, str]:
    """Import and replay one log.

    :returns: The record if it replays (else ``None``), and the line to print.
    """
    try:
        record = import_file(path)
    except OSError as error:
        return None, f"{path}: import failed: {error}"
    except ValueError as error:  # a line the rules refuse (BswError), or no text at all
        return None, f"{path}: import failed: {content_problem(error)}"
    flags = ", ".join(flags_needed(record["rules"])) or "none"
    summary = f"{path}: {len(record['rounds'])} rounds, flags: {flags}"
    violation = replay(record)
    if violation is not None:
        return None, f"{summary}, replay: {violation}"
    return dict(record), f"{summary}, replays"


def main(argv: list[str] | None = None) -> int:
    """Import, replay, print, write; return 1 if any log failed."""
    return run_command(parser(), argv, import_logs)


def import_logs(args: argparse.Namespace) -> int:
    """Import and replay every log; write the records that replay."""
    files = log_files(args.paths)
    if not files:
        raise CommandError(f"no .tch files in {', '.join(str(path) for path in args.paths)}")
    records = []
    for path in files:
        record, line = check_file(path)
        print(line)
        if record is not None:
            records.append(record)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        print(f"{write_records(args.out, records)} records written to {args.out}")
    return 0 if len(records) == len(files) else 1


if __name__ == "__main__":
    sys.exit(main())
