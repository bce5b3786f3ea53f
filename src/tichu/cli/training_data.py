"""Turn game records into training data: (observation, mask, action, outcome) arrays.

Example: ``tichu-training-data data/records/arena.jsonl ../shared/data/bsw --out data/train.npz``.
Inputs are record files (JSON Lines: the Arena's ``--records``, ``tichu-export``'s),
Brettspielwelt logs (``.tch``), or folders of either. The arrays are described in
docs/learning.md; ``numpy.load`` reads them. At most ``--rows-per-file`` decisions are held in
memory and written per file. Needs ``pip install -e '.[learn]'``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tichu.records.bsw import BswError, import_file
from tichu.records.record import read_records


def records_in(paths: list[Path]) -> Iterator[dict[str, Any]]:
    """The records of the inputs, in order (a folder's files sorted by name)."""
    for path in paths:
        files = sorted(found for found in path.iterdir() if found.suffix in (".jsonl", ".tch")) \
            if path.is_dir() else [path]
        for file in files:
            if file.suffix == ".tch":
                yield dict(import_file(file))
            else:
                yield from read_records(file)


def main(argv: list[str] | None = None) -> int:
    """Write the arrays; print how many decisions of how many games. Exit 2 on a bad input."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="+", type=Path, help="record files, .tch logs, or folders of them")
    parser.add_argument("--out", type=Path, required=True, help="the .npz file to write")
    parser.add_argument("--rows-per-file", type=int, default=100_000,
                        help="at most this many decisions per file (default 100000, about 130 MB in memory); "
                             "more go to OUT-1.npz, OUT-2.npz, ...")
    args = parser.parse_args(argv)
    try:
        from tichu.learn.export import RecordFault, training_batches
    except ImportError as error:
        print(f"training_data: needs the learning extra (pip install -e '.[learn]'): {error}", file=sys.stderr)
        return 2
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
    except (OSError, BswError, RecordFault, ValueError) as error:
        print(f"training_data: {error}", file=sys.stderr)
        return 2
    print(f"{decisions} decisions of {games} games -> {', '.join(str(path) for path in written) or 'nothing'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
