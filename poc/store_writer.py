#!/usr/bin/env python3
"""How many journal writes per second the server's store writer takes, one commit per write
against everything queued in one commit (``tichu.server.workers.store_writer.MAX_BATCH``).

Run: ``.venv/bin/python poc/store_writer.py``. Writes a temporary SQLite file; nothing here is
a test.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from tichu.server.workers import store_writer as storage

WRITES = 20_000


def writes_per_second(batch: int) -> float:
    """Queue :data:`WRITES` journal entries of one game and time until all are committed."""
    storage.MAX_BATCH = batch
    with tempfile.TemporaryDirectory() as folder:
        writer = storage.StoreWriter(Path(folder) / "tichu.sqlite3", max_pending=WRITES + 1)
        writer.submit(lambda store: store.running.begin_game("g", "t", "now", None, {}))
        writer.flush()
        began = time.perf_counter()
        for index in range(WRITES):
            writer.submit(lambda store, index=index:  # type: ignore[misc]
                          store.running.append_entries("g", index, [{"seat": 0, "pass": True}]))
        writer.flush()
        took = time.perf_counter() - began
        writer.close()
    return WRITES / took


def main() -> int:
    """Print both rates and their ratio."""
    one, batched = writes_per_second(1), writes_per_second(500)
    print(f"one commit per write: {one:,.0f} writes/s; batches of up to 500: {batched:,.0f} writes/s "
          f"({batched / one:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
