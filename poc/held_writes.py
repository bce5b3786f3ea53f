#!/usr/bin/env python3
"""What the writes a failing disk makes the server hold cost in memory, against what the store
writer counts for them (``tichu.server.workers.store_writer.held_size``, bounded by ``MAX_HELD_BYTES``).

Games of random agents (target 1000) are journalled the way the server does it
(:class:`~tichu.server.workers.game_journal.GameJournal`: one write per event with new entries, then the
record) to a writer whose database is read-only (SQLite's ``query_only``), so every write is
held. Prints the writes held, their counted bytes, and the Python memory they take
(``tracemalloc``), per game and in all.

Run: ``.venv/bin/python poc/held_writes.py [GAMES]``. Writes a temporary SQLite file; nothing
here is a test.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from tichu.agents.agent import AgentPlayer
from tichu.agents.random_agent import RandomAgent
from tichu.core.ruleset import RuleSet
from tichu.engine.engine import GameEngine
from tichu.records.record import game_record
from tichu.records.store import GameStore
from tichu.server.workers.game_journal import GameJournal
from tichu.server.workers.store_writer import StoreWriter


def read_only(store: GameStore) -> None:
    store.database.execute("PRAGMA query_only = 1")


async def play(writer: StoreWriter, seed: int) -> None:
    """One game journalled to ``writer``, then its record (as the server's table does)."""
    rules = RuleSet(target_score=1000)
    engine = GameEngine([AgentPlayer(RandomAgent(f"R{seat}", seed * 4 + seat)) for seat in range(4)], rules,
                        seed=seed, keep_rounds=True)
    game_id = f"game-{seed}"
    writer.submit(lambda store: store.running.begin_game(game_id, "t", "now", seed, rules.to_json()))
    engine.observe(GameJournal(writer, game_id, engine))
    await engine.run()
    record = game_record(engine.rounds, rules, [(f"R{seat}", "agent:random") for seat in range(4)],
                         record_id=game_id, seed=seed)
    writer.submit(lambda store: store.running.end_game(game_id, dict(record)))


async def main(games: int) -> int:
    with tempfile.TemporaryDirectory() as folder:
        writer = StoreWriter(Path(folder) / "tichu.sqlite3", retry=(60.0, 60.0))
        await writer.read(read_only)
        await play(writer, 0)  # the first fault, and everything imported
        while writer.health().held == 0:
            time.sleep(0.01)
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        held_before = writer.health()
        for seed in range(1, games + 1):
            await play(writer, seed)
        writer.flush()
        gc.collect()
        used = tracemalloc.get_traced_memory()[0] - before
        health = writer.health()
        writes, counted = health.held - held_before.held, health.held_bytes - held_before.held_bytes
        print(f"{games} games (target 1000): {writes} writes held, {writes / games:.0f} per game; "
              f"counted {counted / 1024:.0f} KiB ({counted / games / 1024:.1f} KiB per game), "
              f"Python memory {used / 1024:.0f} KiB ({used / games / 1024:.1f} KiB per game), "
              f"{used / counted:.1f}x the count; dropped {health.dropped}")
        tracemalloc.stop()
        writer.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)))
