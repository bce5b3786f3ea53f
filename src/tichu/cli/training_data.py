"""Turn game records into training data: (observation, mask, action, outcome) arrays.

Example: ``tichu-training-data data/records/arena.jsonl ../shared/data/bsw --out data/train.npz``.
Inputs are record files (JSON Lines: the Arena's ``--records``, ``tichu-export``'s),
Brettspielwelt logs (``.tch``), or folders of either. The arrays are described in
docs/learning.md; ``numpy.load`` reads them. At most ``--rows-per-file`` decisions are held in
memory and written per file. Needs the extra ``learn``: ``pip install 'tichu[learn]'``, in a
checkout ``pip install -e '.[learn]'`` (imported only to write, so ``--help`` works without it).
Exit status 2 for a bad argument, 1 for an input that holds no records or a record that does not
replay.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tichu.cli.arguments import BSW_SUFFIX, existing_path, integer
from tichu.cli.errors import CommandError, CommandParser, content_problem, missing_extra, run_command
from tichu.records.bsw import import_file
from tichu.records.record import read_records


def records_in(paths: list[Path]) -> Iterator[dict[str, Any]]:
    """The records of the inputs, in order (a folder's files sorted by name).

    :raises ValueError: For a log the rules refuse or that is no text, or a line that is no record
        (the message names the file).
    """
    for path in paths:
        files = sorted(found for found in path.iterdir() if found.suffix in (".jsonl", BSW_SUFFIX)) \
            if path.is_dir() else [path]
        for file in files:
            if file.suffix == BSW_SUFFIX:
                try:
                    record = import_file(file)
                except ValueError as error:  # BswError, or a UnicodeDecodeError of a file that is no text
                    raise ValueError(f"{file}: {content_problem(error)}") from error
                yield dict(record)
            else:
                yield from read_records(file)


def main(argv: list[str] | None = None) -> int:
    """Write the arrays; print how many decisions of how many games."""
    parser = CommandParser("tichu-training-data", __doc__)
    parser.add_argument("inputs", nargs="+", type=existing_path, help="record files, .tch logs, or folders of them")
    parser.add_argument("--out", type=Path, required=True, help="the .npz file to write")
    parser.add_argument("--rows-per-file", type=integer(1), default=100_000,
                        help="at most this many decisions per file (default 100000, about 130 MB in memory); "
                             "more go to OUT-1.npz, OUT-2.npz, ...")
    return run_command(parser, argv, write_arrays)


def write_arrays(args: argparse.Namespace) -> int:
    """Turn the inputs' records into arrays and write them."""
    try:
        from tichu.learn.export import RecordFault, training_batches
    except ImportError as error:
        raise CommandError(missing_extra("learn", error)) from error
    args.out.parent.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    decisions = games = 0
    try:
        for batch in training_batches(records_in(args.inputs), args.rows_per_file):
            path = args.out if not written else args.out.with_name(f"{args.out.stem}-{len(written)}.npz")
            batch.save(str(path))
            written.append(path)
            decisions += len(batch)
            games = int(batch.game.max()) + 1
    except (RecordFault, ValueError) as error:
        raise CommandError(str(error)) from error
    print(f"{decisions} decisions of {games} games -> {', '.join(str(path) for path in written) or 'nothing'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
