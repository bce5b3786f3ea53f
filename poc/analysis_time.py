#!/usr/bin/env python3
"""Time of a game analysis (issue 25): per decision and for one whole game, with one worker.

Run: ``PYTHONPATH=src python poc/analysis_time.py [--record FILE --index I] [--agent heuristic]
[--target 1000] [--seed 1] [--samples 64] [--pi 300000] [--json OUT]``.

Without ``--record`` it plays a seeded game of four ``--agent`` agents to ``--target`` points
(the Arena's driver) and analyses every seat's decisions in this one process. It prints the
decisions per kind, the time per decision (median, 90th percentile, maximum, by kind), the
whole game's time, and the noise the thresholds must clear: the median and 90th percentile
of the loss's half width where the choice was not the best, and how many decisions got each
label. ``--pi`` times that many steps of the N-body benchmark in the same process and scales
the whole game's time to a Raspberry Pi 4 (docs/agents.md, "Decision times per level and
the Raspberry Pi 4 estimate").
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import time
from pathlib import Path
from typing import Any

from tichu.agents.driver import play_game
from tichu.agents.registry import make_agent
from tichu.analysis import Judgement, Method, analysis_document, decision_points, judge
from tichu.core.ruleset import RuleSet
from tichu.records.record import game_record, read_records


def _benchmark_module() -> Any:
    """poc/agent_benchmark.py (its N-body timing and the Pi 4 figures)."""
    spec = importlib.util.spec_from_file_location("agent_benchmark", Path(__file__).with_name("agent_benchmark.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def played_record(agent: str, target: int, seed: int) -> dict[str, Any]:
    """A seeded game of four ``agent`` agents to ``target`` points, as a record."""
    rules = RuleSet(target_score=target)
    agents = [make_agent(agent, name=f"{agent}-{seat}", seed=seed * 10 + seat) for seat in range(4)]
    state = play_game(agents, rules, seed=seed, keep_rounds=True)
    return dict(game_record(state.rounds, rules, [(a.name, a.kind) for a in agents], record_id=f"poc-{seed}",
                            seed=seed))


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def main() -> None:
    """Analyse one game and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", type=Path, help="a JSON Lines record file (else a game is played)")
    parser.add_argument("--index", type=int, default=0, help="the record's position in --record")
    parser.add_argument("--agent", default="heuristic", help="who plays the game (default heuristic)")
    parser.add_argument("--target", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=Method().samples)
    parser.add_argument("--pi", type=int, default=0, help="N-body steps for the Pi 4 estimate (0: none)")
    parser.add_argument("--json", type=Path, help="write the analysis document here")
    args = parser.parse_args()
    if args.record is not None:
        record = list(read_records(args.record))[args.index]
    else:
        record = played_record(args.agent, args.target, args.seed)
    started = time.perf_counter()
    points = decision_points(record, seats=[0, 1, 2, 3])
    pointing = time.perf_counter() - started
    judgements: list[Judgement] = []
    seconds: dict[str, list[float]] = {}
    for point in points:
        began = time.perf_counter()
        judgements.append(judge(point, samples=args.samples))
        seconds.setdefault(point.kind, []).append(time.perf_counter() - began)
    total = time.perf_counter() - started
    document = analysis_document(record, judgements, Method(samples=args.samples))
    every = [value for values in seconds.values() for value in values]
    print(f"game {record.get('id')}: {len(record['rounds'])} rounds, score {record['score']}, "
          f"{len(points)} decisions of 4 seats, {args.samples} deals each")
    print(f"decision points: {pointing:.2f} s; whole game: {total:.1f} s ({total / 60:.1f} min)")
    print(f"per decision: median {statistics.median(every) * 1000:.0f} ms, "
          f"90th percentile {_percentile(every, 0.9) * 1000:.0f} ms, maximum {max(every) * 1000:.0f} ms")
    for kind, values in sorted(seconds.items()):
        print(f"  {kind:12} {len(values):4} decisions, median {statistics.median(values) * 1000:5.0f} ms, "
              f"max {max(values) * 1000:5.0f} ms")
    widths = [judgement.loss_half_width for judgement in judgements if judgement.best != judgement.point.chosen]
    if widths:
        print(f"loss half width where the choice was not the best: median {statistics.median(widths):.1f}, "
              f"90th percentile {_percentile(widths, 0.9):.1f} ({len(widths)} decisions)")
    labels = [judgement.label for judgement in judgements]
    print("labels: " + ", ".join(f"{name} {labels.count(name)}" for name in ("inaccuracy", "mistake", "blunder")))
    for player in document["players"]:
        print(f"  seat {player['seat']}: mean loss {player['mean_loss']}, given away {player['given_away']}")
    if args.pi:
        bench = _benchmark_module()
        nbody = bench.bench_nbody(args.pi)
        factor = bench.PI4_NBODY_SECONDS / bench.PI4_NBODY_STEPS * args.pi / nbody
        print(f"N-body {args.pi} steps: {nbody:.2f} s here, Pi 4 factor {factor:.1f}: "
              f"whole game on a Pi 4 about {total * factor / 60:.1f} min")
    if args.json is not None:
        args.json.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
