"""The wire and the records of fixed-seed games, to show that a refactoring changed neither.

Plays one whole game at a live server (in this process, on loopback): one client that
answers every request by a fixed rule (the first hinted play, the three lowest cards for
the push, no Grand Tichu), three heuristic agents, seed 7. Every text frame the client
receives is kept as sent, and the game's record as stored (one JSON line). Then an
Arena run with records (seed 3, heuristic against rule). Only what is random by design is
replaced by a stable counter: session ids, request ids, record ids and start times.

Usage::

    python -m tests.data.make_golden_stream --out FILE      # write the stream
    python -m tests.data.make_golden_stream --check FILE    # compare with a stream written earlier

``tests/test_golden_stream.py`` checks the committed ``tests/data/golden_stream.txt``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from tichu.agents.agent import Agent
from tichu.agents.registry import make_agent
from tichu.records.store import GameStore
from tichu.server.app import create_app
from tichu.server.config import Settings
from tichu.server.keys import STORE_FILE

ROOT = Path(__file__).resolve().parents[2]
SEED = 7
ARENA_SEED = 3
_IDS = re.compile(r'"(session_id|request_id|id|started_at)": ?"([^"]*)"')


def _normalise(lines: list[str]) -> list[str]:
    """Replace random ids and clock times by ``<key N>`` in order of first appearance."""
    seen: dict[tuple[str, str], int] = {}

    def stable(match: re.Match[str]) -> str:
        key = (match.group(1), match.group(2))
        number = seen.setdefault(key, len(seen))
        return f'"{match.group(1)}":"<{match.group(1)} {number}>"'

    return [_IDS.sub(stable, line) for line in lines]


def _answer(request: dict[str, Any]) -> dict[str, Any]:
    action, context = request["action"], request["context"]
    if action == "announce_grand_tichu":
        return {"announced": False}
    if action == "schupf":
        lowest = context["hand_cards"][-3:]
        return {"given_schupf_cards": lowest}
    if action == "play":
        options = context["hint"] or context["legal_plays"]
        return {"cards": options[0]}
    if action == "wish":
        return {"wish_value": 2}
    return {"dragon_recipient": context["opponent_indexes"][0]}


def _name_seeded_agent(kind: str, name: str) -> Agent:
    """The server's agents, seeded by their names (the server itself seeds only its shuffles)."""
    return make_agent(kind, name=name, seed=sum(map(ord, name)))


def _refused_messages(request: dict[str, Any], plays: int) -> list[dict[str, Any]]:
    """Messages sent before the answer to show the wire's errors: at the second play request
    of a round a response of an unknown card, one of two hand cards that are no legal play,
    a Tichu call and a single card thrown as a bomb."""
    if request["action"] != "play" or plays != 2:
        return []
    hand = request["context"]["hand_cards"]

    def response(cards: list[Any]) -> dict[str, Any]:
        return {"type": "response", "payload": {"request_id": request["request_id"], "action": "play",
                                                "response_data": {"cards": cards}}}

    wrong = [response([[99, 9]])]
    if len(hand) >= 2 and hand[:2] not in request["context"]["legal_plays"]:
        wrong.append(response(hand[:2]))
    return wrong + [{"type": "announce"}, {"type": "bomb", "payload": {"cards": hand[:1]}}]


async def table_stream(data_dir: Path) -> list[str]:
    """The frames one client receives during a whole game, then the game's record."""
    # The client sends wrong answers, announces and bombs at machine speed, with no agent delay:
    # far beyond the message rate limit of a server for people (docs/server.md, "Limits").
    settings = Settings(host="127.0.0.1", port=0, seed=SEED, agent="heuristic", hints=True, bomb_window=0.0,
                        agent_delay=0.0, data_dir=data_dir, target_score=1000, message_rate=1e6,
                        message_burst=10**6)
    runner = web.AppRunner(create_app(settings, agents=_name_seeded_agent))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    frames: list[str] = []
    plays = 0
    try:
        async with aiohttp.ClientSession() as session, session.ws_connect(
                f"http://127.0.0.1:{port}/ws?player_name=Ann&table_name=golden") as ws:
            await ws.send_str(json.dumps({"type": "start_game"}))
            async for message in ws:
                frames.append(message.data)
                parsed = json.loads(message.data)
                if parsed["type"] == "request":
                    request = parsed["payload"]
                    plays += request["action"] == "play"
                    for wrong in _refused_messages(request, plays):
                        await ws.send_str(json.dumps(wrong))
                    await ws.send_str(json.dumps({"type": "response", "payload": {
                        "request_id": request["request_id"], "action": request["action"],
                        "response_data": _answer(request)}}))
                elif parsed["type"] == "notification" and parsed["payload"]["event"] == "round_started":
                    plays = 0
                elif parsed["type"] == "notification" and parsed["payload"]["event"] == "game_over":
                    break
            await ws.send_str(json.dumps({"type": "leave"}))
    finally:
        await runner.cleanup()
    store = GameStore(data_dir / STORE_FILE)
    try:
        record = [json.dumps(stored, ensure_ascii=False, separators=(",", ":")) for stored in store.archive.records()]
    finally:
        store.close()
    return frames + record


def arena_records(folder: Path) -> list[str]:
    """The records of a small Arena run through ``tichu-arena`` (two workers, seed 3)."""
    path = folder / "arena.jsonl"
    subprocess.run([sys.executable, "-m", "tichu.cli.arena", "--games", "4", "--seed", str(ARENA_SEED),
                    "--workers", "2", "--target", "500", "--records", str(path), "heuristic", "rule"],
                   check=True, capture_output=True)
    return path.read_text(encoding="utf-8").splitlines()


def golden_lines() -> list[str]:
    """The whole normalised stream: the table's frames and record, then the Arena's records."""
    with tempfile.TemporaryDirectory() as folder:
        lines = asyncio.run(table_stream(Path(folder)))
        lines += arena_records(Path(folder))
    return _normalise(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--out", type=Path, help="write the stream to this file")
    group.add_argument("--check", type=Path, help="compare the stream with this file")
    args = parser.parse_args(argv)
    lines = golden_lines()
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{len(lines)} lines written to {args.out}")
        return 0
    expected = args.check.read_text(encoding="utf-8").splitlines()
    for number, (got, want) in enumerate(zip(lines, expected), start=1):
        if got != want:
            print(f"line {number} differs:\n  got:  {got[:300]}\n  want: {want[:300]}")
            return 1
    if len(lines) != len(expected):
        print(f"{len(lines)} lines, expected {len(expected)}")
        return 1
    print(f"{len(lines)} lines identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
