#!/usr/bin/env python3
"""What writing records costs the Arena, side by side in one process (Issue 36's target: the
compiled Arena writing records within 15% of its speed without).

Run: ``PYTHONPATH=src .venv/bin/python poc/arena_records_speed.py`` (pure Python), and for the
compiled build a copy with the accelerator (``bin/accelerate.py --into /tmp/accel``), then
``PYTHONPATH=/tmp/accel/src .venv/bin/python poc/arena_records_speed.py``; the first line says
which modules run compiled.

Each pair plays the same ``--games`` random-agent games twice in this process, one worker, as
``tichu-arena`` does (:class:`~tichu.arena.arena.Arena`): once writing every record to a
JSON Lines file (:class:`~tichu.records.record.RecordWriter`, as ``--records`` does) and once
without records, the order alternating from pair to pair. Each run is timed in CPU seconds of
this process (:func:`time.process_time`): on a machine shared with other work a wall clock
counts the others' work too, the CPU time only this run's. The ratio (with / without) is
printed per pair and as the median. Nothing here is a test; the figures go into
docs/benchmarks.md with the command.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import tichu.core.flow
from tichu.arena.arena import Arena
from tichu.records.record import RecordWriter


def run_once(games: int, seed: int, records: Path | None) -> float:
    """One Arena run of random agents on one worker; its CPU seconds.

    :param records: The file to write the records to, or ``None`` for a run without records.
    """
    arena = Arena(["random"] * 4, games=games, seed=seed, workers=1, records=records is not None)
    started = time.process_time()
    if records is None:
        arena.run()
    else:
        with RecordWriter(records) as writer:
            arena.run(on_record_line=writer.write_line)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=300, help="random-agent games per run (default 300)")
    parser.add_argument("--pairs", type=int, default=5, help="pairs of runs (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="the Arena's seed (default 1)")
    args = parser.parse_args()
    compiled = not str(tichu.core.flow.__file__).endswith(".py")
    print(f"rules core compiled: {compiled}; {args.games} games a run, {args.pairs} pairs")
    run_once(max(1, args.games // 10), args.seed, None)  # warm up: imports, caches
    ratios = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "records.jsonl"
        for pair in range(args.pairs):
            if pair % 2:
                without = run_once(args.games, args.seed, None)
                with_records = run_once(args.games, args.seed, path)
            else:
                with_records = run_once(args.games, args.seed, path)
                without = run_once(args.games, args.seed, None)
            ratio = with_records / without
            ratios.append(ratio)
            print(f"pair {pair + 1}: with records {with_records:.3f} s, without {without:.3f} s, ratio {ratio:.3f}")
    print(f"median ratio {statistics.median(ratios):.3f} (records cost {statistics.median(ratios) - 1:+.1%})")


if __name__ == "__main__":
    main()
