#!/usr/bin/env python3
"""Soak benchmark: a compressed month at a home server, sampled every 10 s; is it flat?

Starts ``tichu-server`` as its own process on loopback (:class:`poc.chaos.Server`) with a
temporary data folder, and for ``--duration`` seconds runs everything a server meets in weeks:

- tables of :class:`~tichu.client.bots.RandomBrain` bots playing games back to back, with
  drops and reconnects, garbage frames and floods (the drivers of :mod:`poc.chaos`);
- refused joins: bad names, names of agents, bad origins, and tables beyond the server's limit;
- spectators coming and going;
- readers of the history API (games, a player, the leaderboard) and of the replay API;
- one restart by SIGTERM (an update) and one ``kill -9`` (a power cut), both in the first third.

Every ``--every`` seconds it samples the server process: resident memory, open file
descriptors, threads, asyncio tasks (``/healthz``), and the size of the database with the games
stored so far. Over the last two thirds each must be flat: resident memory within 5 MiB
(``--memory-slack``); descriptors, threads and tasks without a trend (their mean over the second
half of that span at most a small margin above the first half's: they follow the load); and
the database growing only by the games finished (at most ``--bytes-per-game`` a game). Exit status 1 when one
is not, or when a finished record does not replay.

Run: ``.venv/bin/python -m poc.soak --duration 1800`` (30 minutes; the figures in
docs/benchmarks.md). ``tests/server/test_soak.py`` runs a 3-minute version. Loopback only,
bounded in time. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from poc.chaos import GRACE, Chaos, Seat, Server, check_store
from tichu.server.keys import STORE_FILE

ROOT = Path(__file__).resolve().parents[1]

#: Resident memory may vary by this much over the last two thirds (MiB).
MEMORY_SLACK_MIB = 5.0
#: How much the mean of file descriptors, threads and asyncio tasks may grow from the first to the
#: second half of the last two thirds (they follow the load: connections and games come and go).
COUNT_MARGIN = {"fds": 12, "threads": 4, "tasks": 12}


@dataclass
class Sample:
    """One look at the server process."""

    at: float
    rss_mib: float
    fds: int
    threads: int
    tasks: int
    db_bytes: int
    games: int


@dataclass
class Extras:
    """What the soak adds to the chaos, counted."""

    refused: dict[str, int] = field(default_factory=dict)
    spectators: int = 0
    api_reads: int = 0
    api_errors: int = 0
    restarts: list[str] = field(default_factory=list)


def _count(path: Path) -> int:
    with contextlib.suppress(OSError):
        return len(os.listdir(path))
    return 0


def _threads(pid: int) -> int:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Threads:"):
                return int(line.split()[1])
    return 0


def _stored_games(data_dir: Path) -> tuple[int, int]:
    """The database file's size in bytes (its write-ahead log, checkpointed now and then, left
    out) and the games stored in it."""
    path = data_dir / STORE_FILE
    size = path.stat().st_size if path.is_file() else 0
    games = 0
    with contextlib.suppress(Exception):
        import sqlite3

        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0)) as db:
            games = int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    return size, games


class Soak(Chaos):
    """The chaos of :mod:`poc.chaos` plus refused joins, spectators, API readers, a SIGTERM
    restart and a kill, sampled every few seconds."""

    def __init__(self, server: Server, args: argparse.Namespace) -> None:
        super().__init__(server, args)
        self.samples: list[Sample] = []
        self.extras = Extras()
        self.started = time.monotonic()

    async def play(self) -> None:
        """Seat the bots, run the drivers for the duration, then the bots leave (games still
        running end with their tables)."""
        self.seats = [Seat(self, table, index) for table in range(self.args.tables) for index in range(4)]
        bots = [asyncio.create_task(seat.run()) for seat in self.seats]
        await self._drive(time.monotonic() + self.args.duration)
        self.playing = False
        self.leaving = True
        done, pending = await asyncio.wait(bots, timeout=60)
        for task in pending:
            task.cancel()

    async def sample(self, session: aiohttp.ClientSession) -> None:
        """Note one :class:`Sample` (skipped while the server is down)."""
        if not self.server_up.is_set():
            return
        with contextlib.suppress(aiohttp.ClientError, OSError, TimeoutError):
            tasks = int((await self.server.health(session))["tasks"])
            own, _ = self.server.rss_kib()
            size, games = await asyncio.to_thread(_stored_games, self.server.data_dir)
            self.samples.append(Sample(round(time.monotonic() - self.started, 1), round(own / 1024, 1),
                                       _count(Path(f"/proc/{self.server.pid}/fd")), _threads(self.server.pid), tasks,
                                       size, games))

    async def _drive(self, end: float) -> None:
        """The chaos's drops, garbage and floods, plus this benchmark's visitors, until ``end``;
        a SIGTERM restart and a kill at the fractions of the time the arguments give."""
        start = time.monotonic()
        span = end - start
        restarts = [(start + self.args.sigterm_at * span, "sigterm"), (start + self.args.kill_at * span, "kill")]
        next_sample = start
        timers = {"drop": start + 3.0, "garbage": start + 5.0, "flood": start + 8.0, "refused": start + 1.0,
                  "spectator": start + 2.0, "api": start + 1.5}
        extra: set[asyncio.Task[None]] = set()
        async with aiohttp.ClientSession() as session:
            while (now := time.monotonic()) < end:
                if restarts and now >= restarts[0][0]:
                    _, kind = restarts.pop(0)
                    restart = self._terminate_and_restart if kind == "sigterm" else self._kill_and_restart
                    await restart(session)
                    self.extras.restarts.append(kind)
                    continue
                if now >= next_sample:
                    next_sample = now + self.args.every
                    await self.sample(session)
                if now >= timers["drop"]:
                    timers["drop"] = now + self.rng.expovariate(self.args.tables / 10.0)
                    self._drop_one()
                if now >= timers["garbage"]:
                    timers["garbage"] = now + self.rng.uniform(2.0, 6.0)
                    self._spawn(extra, self._garbage(session, self.figures.garbage_connections))
                    self.figures.garbage_connections += 1
                if now >= timers["flood"]:
                    timers["flood"] = now + self.rng.uniform(8.0, 16.0)
                    self._spawn(extra, self._flood(session, self.figures.floods))
                    self.figures.floods += 1
                if now >= timers["refused"]:
                    timers["refused"] = now + 0.2
                    self._spawn(extra, self._refused_join(session))
                if now >= timers["spectator"]:
                    timers["spectator"] = now + self.rng.uniform(1.0, 3.0)
                    self._spawn(extra, self._spectate(session))
                if now >= timers["api"]:
                    timers["api"] = now + self.rng.uniform(0.5, 1.5)
                    self._spawn(extra, self._read_api(session))
                await asyncio.sleep(0.05)
            await self.sample(session)
            if extra:
                await asyncio.wait(extra, timeout=30)

    async def _terminate_and_restart(self, session: aiohttp.ClientSession) -> None:
        """An update: SIGTERM (the games are kept), then a new start on the same data."""
        self.server_up.clear()
        self.kill_epoch += 1  # the bots reconnect with their sessions, as after a kill
        code = self.server.terminate()
        boot = await self.server.start(session)
        tables = (await self.server.health(session))["tables"]
        self.server_up.set()
        print(f"SIGTERM restart: exit code {code}, {tables} tables back, up again in {boot:.1f} s")

    async def _refused_join(self, session: aiohttp.ClientSession) -> None:
        """A join the server refuses: a control character, an agent's name, a foreign origin, or
        one table more than the server allows (it opens, is refused, and is gone)."""
        kind = self.rng.choice(["bad name", "agent name", "bad origin", "table limit"])
        port, number = self.server.port, self.rng.randrange(10**6)
        query = {"bad name": "player_name=a%07b&table_name=refused", "agent name": "player_name=Bot%201&table_name=r",
                 "bad origin": "player_name=Eve&table_name=origin",
                 "table limit": f"player_name=T{number}&table_name=limit-{number}"}
        headers = {"Origin": "https://evil.example"} if kind == "bad origin" else {}
        with contextlib.suppress(aiohttp.ClientError, OSError, TimeoutError):
            async with session.ws_connect(f"http://127.0.0.1:{port}/ws?{query[kind]}", headers=headers,
                                          timeout=aiohttp.ClientWSTimeout(ws_close=2.0)) as ws:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ws.receive(), 2.0)
        self.extras.refused[kind] = self.extras.refused.get(kind, 0) + 1

    async def _spectate(self, session: aiohttp.ClientSession) -> None:
        """A spectator watches a chaos table for a few seconds, then leaves (or just goes)."""
        url = f"http://127.0.0.1:{self.server.port}/ws?table_name=chaos-{self.rng.randrange(self.args.tables)}"
        with contextlib.suppress(aiohttp.ClientError, OSError, TimeoutError):
            async with session.ws_connect(url + "&spectate=1") as ws:
                self.extras.spectators += 1
                deadline = time.monotonic() + self.rng.uniform(1.0, 5.0)
                while time.monotonic() < deadline and not ws.closed:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(ws.receive(), 1.0)
                if self.rng.random() < 0.5:
                    await ws.send_str(json.dumps({"type": "leave"}))

    async def _read_api(self, session: aiohttp.ClientSession) -> None:
        """A reader of the history and the replay (a game list, a player, the leaderboard, a replay)."""
        base = f"http://127.0.0.1:{self.server.port}"
        try:
            async with session.get(f"{base}/api/games?limit=5&people=1") as response:
                games = (await response.json()).get("games", [])
            path = self.rng.choice(["/api/leaderboard", f"/api/players/P0x{self.rng.randrange(4)}"])
            if games and self.rng.random() < 0.5:
                path = f"/api/games/{games[0]['id']}/steps"
            async with session.get(base + path) as response:
                await response.read()
                self.extras.api_errors += response.status >= 500
            self.extras.api_reads += 2
        except (aiohttp.ClientError, OSError, TimeoutError, ValueError):
            self.extras.api_errors += 1


def judge(samples: list[Sample], args: argparse.Namespace) -> list[str]:
    """What is not flat over the last two thirds of the samples (empty: all flat)."""
    tail = samples[len(samples) // 3:]
    if len(tail) < 3:
        return ["too few samples"]
    problems = []
    rss = [sample.rss_mib for sample in tail]
    if max(rss) - min(rss) > args.memory_slack:
        problems.append(f"resident memory {min(rss):.1f}..{max(rss):.1f} MiB (more than {args.memory_slack} MiB)")
    half = len(tail) // 2
    for name, margin in COUNT_MARGIN.items():  # they follow the load (connections come and go): no trend
        values = [getattr(sample, name) for sample in tail]
        early, late = sum(values[:half]) / half, sum(values[half:]) / (len(values) - half)
        if late - early > margin:
            problems.append(f"{name} grew from a mean of {early:.1f} to {late:.1f} (more than {margin})")
    growth = tail[-1].db_bytes - tail[0].db_bytes
    games = tail[-1].games - tail[0].games
    if growth > (games + args.tables) * args.bytes_per_game + (1 << 20):  # the running games' journals too
        problems.append(f"database grew {growth} bytes for {games} games finished")
    return problems


async def run(args: argparse.Namespace, data_dir: Path) -> int:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TICHU_DATA_DIR": str(data_dir),
           "TICHU_AGENT": args.agent, "TICHU_AGENT_DELAY": str(args.think), "TICHU_BOMB_WINDOW": "0",
           "TICHU_GRACE_PERIOD": str(GRACE), "TICHU_TARGET_SCORE": str(args.target), "TICHU_LOG_LEVEL": "WARNING",
           "TICHU_LOOPBACK_EXEMPT": "on", "TICHU_MESSAGE_RATE": "20", "TICHU_MESSAGE_BURST": "40",
           "TICHU_FLOOD_CLOSE": "2", "TICHU_MAX_TABLES": str(args.tables + 4),
           "TICHU_MAX_CONNECTIONS": str(4 * args.tables + 80)}
    args.kills = 0  # the kill comes from this driver, at a set time
    server = Server(data_dir, env)
    async with aiohttp.ClientSession() as session:
        await server.start(session)
        soak = Soak(server, args)
        await soak.play()
    code = server.terminate()
    finished, aborted, running, failures = check_store(data_dir / STORE_FILE)
    print()
    print(f"soak: {args.tables} tables x 4 bots, {args.duration:.0f} s, restarts {soak.extras.restarts}, "
          f"exit code at the end {code}")
    print(f"games: {finished} finished ({len(failures)} do not replay), {aborted} aborted, {running} running")
    print(f"refused joins {soak.extras.refused}, spectators {soak.extras.spectators}, API reads "
          f"{soak.extras.api_reads} ({soak.extras.api_errors} failed), drops {soak.figures.drops}, garbage "
          f"{soak.figures.garbage_connections}, floods {soak.figures.floods}")
    print("samples (s, RSS MiB, fds, threads, tasks, DB bytes, games):")
    for sample in soak.samples:
        print(f"  {sample.at:7.1f} {sample.rss_mib:7.1f} {sample.fds:5d} {sample.threads:4d} {sample.tasks:5d} "
              f"{sample.db_bytes:10d} {sample.games:6d}")
    problems = judge(soak.samples, args) + [f"replay: {failure}" for failure in failures]
    if finished == 0:
        problems.append("no game finished")
    for problem in problems:
        print("NOT FLAT:", problem)
    print("RESULT:", "FAIL" if problems else "ok")
    if args.json:
        Path(args.json).write_text(json.dumps([sample.__dict__ for sample in soak.samples]))
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=1800.0, help="seconds (default 1800)")
    parser.add_argument("--tables", type=int, default=8, help="tables of four bots (default 8)")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between samples (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the drivers and bots (default 1)")
    parser.add_argument("--agent", default="random", help="agent kind of empty seats (default random)")
    parser.add_argument("--target", type=int, default=500, help="target score of each game (default 500)")
    parser.add_argument("--think", type=float, default=0.05, help="seconds bots and agents wait (default 0.05)")
    parser.add_argument("--memory-slack", type=float, default=MEMORY_SLACK_MIB,
                        help=f"MiB resident memory may vary over the last two thirds (default {MEMORY_SLACK_MIB})")
    parser.add_argument("--bytes-per-game", type=int, default=200_000,
                        help="bytes the database may grow per finished game (default 200000)")
    parser.add_argument("--sigterm-at", type=float, default=0.05,
                        help="fraction of the duration at which the SIGTERM restart comes (default 0.05)")
    parser.add_argument("--kill-at", type=float, default=0.10,
                        help="fraction of the duration at which the kill -9 comes (default 0.10)")
    parser.add_argument("--json", help="write the samples to this file")
    args = parser.parse_args(argv)
    random.seed(args.seed)
    logging.basicConfig(level=logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="tichu-soak-") as data_dir:
        return asyncio.run(run(args, Path(data_dir)))


if __name__ == "__main__":
    sys.exit(main())
