#!/usr/bin/env python3
"""Tichu call statistics per side from Arena records (``tichu-arena --records FILE``).

Run: ``.venv/bin/python bin/call_stats.py FILE.jsonl [...]``. For each side (A: the first agent named,
B: the second; the seat labels of the Arena's records end in ``-A0`` .. ``-B3``) it prints the
Tichu and Grand Tichu calls made, how many succeeded (the caller went out first, R6), the
Tichu bonus points per round (made minus failed times 100 or 200) and, from the same
records, the mean score difference and the mean Tichu bonus difference A - B per round, each
with a 95% interval over the deals (both games of a duplicate deal form one sample).
"""

from __future__ import annotations

import json
import math
import sys
from collections import defaultdict
from typing import Any


def side_of(name: str) -> str:
    return name.rsplit("-", 1)[1][0]


def per_round(by_deal: dict[Any, list[float]], column: int) -> tuple[float, float, float] | None:
    """Mean per round of a per-deal total (``column`` of ``[score diff, rounds, bonus diff]``) with
    its 95% interval (a ratio estimate over the deals); ``None`` with fewer than two deals."""
    deals = [(values[column], values[1]) for values in by_deal.values() if values[1]]
    if len(deals) < 2:
        return None
    rounds = sum(count for _, count in deals)
    mean = sum(total for total, _ in deals) / rounds
    spread = math.sqrt(sum((total - mean * count) ** 2 for total, count in deals)) / rounds
    return mean, mean - 1.96 * spread, mean + 1.96 * spread


def main(paths: list[str]) -> None:
    calls: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    bonus = {"A": 0, "B": 0}
    rounds = 0
    by_deal: dict[Any, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for path in paths:
        with open(path, encoding="utf-8") as file:
            for line in file:
                record = json.loads(line)
                sides = [side_of(player["name"]) for player in record["players"]]
                deal = by_deal[record["seed"]]
                for round_ in record["rounds"]:
                    if "score" not in round_:
                        continue
                    rounds += 1
                    team_a = 0 if sides[0] == "A" else 1
                    deal[0] += round_["score"][team_a] - round_["score"][1 - team_a]
                    deal[1] += 1
                    tichus = {event["seat"] for event in round_["events"] if event.get("tichu")}
                    for seat in range(4):
                        kind = "grand" if round_["grand_tichu"][seat] else "tichu" if seat in tichus else None
                        if kind is None:
                            continue
                        won = round_["out_order"][0] == seat
                        side = sides[seat]
                        calls[side][kind] += 1
                        calls[side][kind + "_made"] += won
                        points = (100 if kind == "tichu" else 200) * (1 if won else -1)
                        bonus[side] += points
                        deal[2] += points if side == "A" else -points
    print(f"rounds: {rounds}, deals: {len(by_deal)}")
    for side in ("A", "B"):
        stats = calls[side]
        print(f"side {side}: Tichu {stats['tichu_made']}/{stats['tichu']} made, "
              f"Grand {stats['grand_made']}/{stats['grand']} made, "
              f"bonus {bonus[side] / max(rounds, 1):+.1f} per round")
    for column, label in ((0, "difference A - B per round"), (2, "Tichu bonus difference A - B per round")):
        estimate = per_round(by_deal, column)
        if estimate is not None:
            mean, low, high = estimate
            print(f"{label}: {mean:+.1f} (95% {low:+.1f} .. {high:+.1f})")


if __name__ == "__main__":
    main(sys.argv[1:])
