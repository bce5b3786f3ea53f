#!/usr/bin/env python3
"""Turn game records into training data: (observation, mask, action, outcome) arrays.

Example: ``bin/training_data.py data/records/arena.jsonl ../shared/data/bsw --out data/train.npz``.
Inputs are record files (JSON Lines: the Arena's ``--records``, ``bin/export_games.py``'s),
Brettspielwelt logs (``.tch``), or folders of either. The arrays are described in
docs/learning.md; ``numpy.load`` reads them. Needs ``pip install -e '.[learn]'``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from tichu.records.bsw import BswError, import_file  # noqa: E402
from tichu.records.record import read_records  # noqa: E402


def records_in(paths: list[Path]) -> Iterator[dict[str, Any]]:
    """The records of the inputs, in order (a folder's files sorted by name)."""
    for path in paths:
        files = sorted(found for found in path.iterdir() if found.suffix in (".jsonl", ".tch")) \
            if path.is_dir() else [path]
        for file in files:
            if file.suffix == ".tch":
                yield import_file(file)
            else:
                yield from read_records(file)


def main(argv: list[str] | None = None) -> int:
    """Write the arrays; print how many decisions of how many games. Exit 2 on a bad input."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="+", type=Path, help="record files, .tch logs, or folders of them")
    parser.add_argument("--out", type=Path, required=True, help="the .npz file to write")
    args = parser.parse_args(argv)
    try:
        from tichu.learn.export import RecordFault, training_data
    except ImportError as error:
        print(f"training_data: needs the learning extra (pip install -e '.[learn]'): {error}", file=sys.stderr)
        return 2
    try:
        data = training_data(records_in(args.inputs))
    except (OSError, BswError, RecordFault, ValueError) as error:
        print(f"training_data: {error}", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    data.save(str(args.out))
    games = int(data.game.max()) + 1 if len(data) else 0
    print(f"{len(data)} decisions of {games} games -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
