#!/usr/bin/env python3
"""Latency benchmark of issue 25: is a live table's agent decision as fast while a game analysis runs?

One :class:`~tichu.server.workers.agent_pool.AgentPool` as the server makes it (``--workers``; 0: one per
core but one), and one live table's agent asking it for play decisions back to back, each on a
real position (the play decisions of recorded games, with the expert's candidate plays), with the
server's agent pause between them (``--pause``, ``TICHU_AGENT_DELAY``'s 0.8 s; the pause counts
the decision's time, as at a table). The phases alternate, ``--seconds`` each, ``--rounds`` times:
``idle`` (the pool does nothing else) and ``analysis`` (an
:class:`~tichu.server.workers.analysis_runner.AnalysisRunner` analyses a whole recorded game of four
agents in the pool's background process meanwhile, ``--samples`` deals per point, as at a server:
a point is judged only while no live decision is out, in a process at nice 19). It reports the
decision's time (from asking the pool to its answer) as median, 99th percentile and maximum per
phase, and how many points the analysis judged.

The agent is the server's default level (``expert``, whose search has a time budget: contention
would show as fewer sampled deals, not as time) unless ``--agent`` names another; a search of a
fixed size (``montecarlo:n16``) shows contention as time.

Run: ``.venv/bin/python poc/analysis_latency.py`` (about 2 minutes) or
``.venv/bin/python poc/analysis_latency.py --agent montecarlo:n16``. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tichu.agents.agent import Agent
from tichu.agents.levels import DEFAULT_LEVEL, make_level_agent
from tichu.analysis import DecisionPoint, decision_points
from tichu.arena.arena import Arena
from tichu.server.workers.agent_pool import AgentPool, worker_count
from tichu.server.workers.analysis_runner import ANALYSIS, AnalysisRunner
from tichu.server.workers.store_writer import StoreWriter

ROOT = Path(__file__).resolve().parents[1]


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def live_table(pool: AgentPool, agent: Agent, points: list[DecisionPoint], seconds: float,
                     pause: float, start: int) -> list[float]:
    """Ask the pool for play decisions on ``points`` (from ``start`` on, round robin) for
    ``seconds``, each followed by what is left of ``pause``; return each decision's time."""
    times: list[float] = []
    ends = time.perf_counter() + seconds
    index = start
    while time.perf_counter() < ends:
        point = points[index % len(points)]
        index += 1
        began = time.perf_counter()
        await pool.decide(agent.decide_play, point.view, list(point.options))
        took = time.perf_counter() - began
        times.append(took)
        await asyncio.sleep(max(0.0, pause - took))
    return times


async def run(args: argparse.Namespace) -> None:
    records: list[dict[str, Any]] = []
    Arena(["heuristic"] * 4, games=3, seed=5, workers=1, target_score=1000, records=True).run(
        on_record=records.append)
    live_points = [point for point in decision_points(records[0]) if point.kind == "play"]
    pool = AgentPool(worker_count(args.workers))
    agent = make_level_agent(args.agent, seed=1)
    with tempfile.TemporaryDirectory() as folder:
        writer = await asyncio.to_thread(StoreWriter, Path(folder) / "tichu.sqlite3")
        runner = AnalysisRunner(writer, pool, ANALYSIS, args.samples)
        try:
            await writer.read(lambda store: store.archive.add_all(records[1:]))
            await runner.start()
            await live_table(pool, agent, live_points, 3.0, args.pause, 0)  # warm: the workers are up
            phases: dict[str, list[float]] = {"idle": [], "analysis": []}
            judged = 0
            games = iter(records[1:])
            for turn in range(args.rounds):  # both phases of a turn ask on the same positions, in order
                phases["idle"] += await live_table(pool, agent, live_points, args.seconds, args.pause, 100 * turn)
                if runner.progress is None:
                    runner.request(str(next(games)["id"]))
                while runner.progress is None or not runner.progress.total:
                    await asyncio.sleep(0.05)  # the analysis's points are computed: it judges now
                before = runner.progress.done
                phases["analysis"] += await live_table(pool, agent, live_points, args.seconds, args.pause, 100 * turn)
                after = runner.progress
                judged += (after.done if after is not None else before) - before
        finally:
            await runner.stop()
            await pool.shutdown()
            await asyncio.to_thread(writer.close)
    print(f"agent {args.agent}, {pool.workers} worker(s), pause {args.pause} s, analysis at {args.samples} "
          f"deals per point; {args.rounds} x {args.seconds:.0f} s per phase")
    print(f"{'phase':<10} {'decisions':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name, times in phases.items():
        print(f"{name:<10} {len(times):>9} {1000 * statistics.median(times):>8.1f} "
              f"{1000 * percentile(times, 0.99):>8.1f} {1000 * max(times):>8.1f}")
    print(f"points judged by the analysis during its phases: {judged}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agent", default=DEFAULT_LEVEL, help="the live table's agent (a level or kind)")
    parser.add_argument("--workers", type=int, default=0, help="the pool's workers (0: one per core but one)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds per phase")
    parser.add_argument("--rounds", type=int, default=2, help="times each phase runs, alternating")
    parser.add_argument("--pause", type=float, default=0.8, help="the agent pause (TICHU_AGENT_DELAY)")
    parser.add_argument("--samples", type=int, default=64, help="deals per judged point (TICHU_ANALYSIS_SAMPLES)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
