#!/usr/bin/env python3
"""Chaos benchmark: tables of bots play while connections drop, garbage arrives, floods hit
and the server is killed with SIGKILL and restarted; at the end every stored game is checked.

Starts ``tichu-server`` as its own process on loopback with a temporary data folder (random
agents, a small agent delay, no bomb window, a grace period of a few seconds, the message
rate limits of a real server). ``--tables`` tables of four :class:`RandomBrain` bots play
games back to back for ``--duration`` seconds. Meanwhile a driver (seeded by ``--seed``)

- drops a random bot's connection (closed without ``leave``) and reconnects it with its
  session id after a pause, sometimes within the grace period, sometimes after it (then the
  seat went to an agent: the bot takes it back, or, refused, rejoins by name or gives up);
- opens connections that send garbage (invalid JSON, wrong types, huge strings, binary
  frames, responses to made-up requests) and floods of pings (``SERVER_BUSY``, then 1008);
- kills the server with SIGKILL ``--kills`` times and restarts it; bots whose server vanished
  retry with backoff and come back with their session ids. Only the server is killed, as
  the out-of-memory killer would: its agent pool's processes must end by themselves.

At the end no new game starts, running ones may end (bounded), the bots leave, the server
closes its tables and gives memory back, and is stopped with SIGTERM. Then the SQLite file is
read: games finished, aborted and still running (must be 0), and every finished record is
replayed through the rules (each must replay cleanly). Last, ``bin/leftover_processes.py``
looks for any process of the run's servers (marked by ``TICHU_CHAOS_RUN`` in their
environment) still running 10 s after the end, and ends it. Exit status 1 if a record does not
replay, if a game stays running, if more asyncio tasks are alive at the end than idle at the
start (beyond a small margin), or if a process was left.

Run: ``.venv/bin/python poc/chaos.py --tables 50 --duration 240 --kills 3``. Loopback only,
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
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from tichu.client.bots import RandomBrain
from tichu.client.connection import Received, TableClient
from tichu.client.messages import error_of, notification_of
from tichu.records.record import replay
from tichu.records.store import GameStore
from tichu.server.codes import ErrorCode
from tichu.server.keys import STORE_FILE
from tichu.server.tables.factory import IDLE_CLEANUP_SECONDS

ROOT = Path(__file__).resolve().parents[1]

#: Seconds a dropped client keeps its seat (the server's grace period in this run).
GRACE = 5.0
#: Asyncio tasks the server may have at the end beyond its idle count at the start.
TASK_MARGIN = 3
#: Seconds a bot keeps trying to reach a vanished server.
RECONNECT_LIMIT = 60.0
#: Seconds the end waits for the running games to end.
END_WAIT = 180.0
#: The variable that marks every process of the run's servers (for the check of leftovers).
MARK = "TICHU_CHAOS_RUN"


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# -- the server process -------------------------------------------------------------------------

def _status_kib(pid: int, key: str) -> int:
    """A memory figure (``VmRSS``, ``VmHWM``) of a process in KiB; 0 if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (an agent pool's workers), from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        children = parents.get(todo.pop(), [])
        found += children
        todo += children
    return found


class Server:
    """``tichu-server`` as a child process that can be killed and started again (same port, same data)."""

    def __init__(self, data_dir: Path, env: dict[str, str]) -> None:
        self.port = free_port()
        self.data_dir = data_dir
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.peak_kib = 0

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def rss_kib(self) -> tuple[int, int]:
        """Resident KiB of the server and of its child processes (now)."""
        children = _descendants(self.pid)
        return _status_kib(self.pid, "VmRSS"), sum(_status_kib(child, "VmRSS") for child in children)

    def sample(self) -> None:
        """Note the peak resident memory (server and children)."""
        own, children = self.rss_kib()
        self.peak_kib = max(self.peak_kib, own + children, _status_kib(self.pid, "VmHWM"))

    async def start(self, session: aiohttp.ClientSession) -> float:
        """Start the process, wait for ``/healthz``; return the seconds it took."""
        self.starts += 1
        started = time.monotonic()
        log_file = (self.data_dir / f"server-{self.starts}.log").open("wb")
        self.process = subprocess.Popen([sys.executable, "-m", "tichu.cli.server", "--host", "127.0.0.1",
                                         "--port", str(self.port)], env=self.env, cwd=self.data_dir,
                                        stdout=log_file, stderr=subprocess.STDOUT)
        log_file.close()
        while time.monotonic() - started < 30:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped with {self.process.returncode}")
            with contextlib.suppress(aiohttp.ClientError, OSError):
                await self.health(session)
                return time.monotonic() - started
            await asyncio.sleep(0.05)
        raise RuntimeError("the server did not come up")

    async def health(self, session: aiohttp.ClientSession) -> dict[str, Any]:
        """The ``/healthz`` answer."""
        async with session.get(f"http://127.0.0.1:{self.port}/healthz") as response:
            response.raise_for_status()
            answer: dict[str, Any] = await response.json()
            return answer

    def kill(self) -> int:
        """SIGKILL of the server alone (as the out-of-memory killer would): its agent pool's
        processes must end by themselves. Returns how many processes it had below it."""
        self.sample()
        children = _descendants(self.pid)
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        return len(children)

    def terminate(self) -> int | None:
        """SIGTERM and wait (30 s at most); the exit code, ``None`` if it had to be killed."""
        assert self.process is not None
        self.sample()
        self.process.terminate()
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None

    def log_count(self, text: str) -> int:
        """Lines of the server's console logs (all starts) that contain ``text``."""
        return sum(path.read_text(errors="replace").count(text) for path in self.data_dir.glob("server-*.log"))


def count_running(path: Path) -> int:
    """Rows in ``running_games`` (the server must not be writing)."""
    if not path.exists():
        return 0
    with contextlib.closing(sqlite3.connect(path)) as db:
        return int(db.execute("SELECT COUNT(*) FROM running_games").fetchone()[0])


# -- the run's figures --------------------------------------------------------------------------

@dataclass
class Figures:
    """What happened during the run."""

    drops: int = 0
    drop_pauses_within_grace: int = 0
    reconnects_ok: int = 0
    reconnects_refused: Counter[str] = field(default_factory=Counter)
    rejoins_by_name: int = 0
    sessions_forgotten: int = 0
    name_refusals: Counter[str] = field(default_factory=Counter)
    gave_up: int = 0
    kill_reconnects_ok: int = 0
    kill_reconnects_refused: Counter[str] = field(default_factory=Counter)
    connect_retries: int = 0
    unexpected_closes: Counter[str] = field(default_factory=Counter)
    garbage_connections: int = 0
    garbage_frames: int = 0
    garbage_errors: Counter[str] = field(default_factory=Counter)
    garbage_alive_after: int = 0
    seated_garbage: int = 0
    floods: int = 0
    flood_pings: int = 0
    flood_busy: int = 0
    flood_ends: Counter[str] = field(default_factory=Counter)
    kills: list[dict[str, Any]] = field(default_factory=list)
    games_started: int = 0
    games_over: int = 0


# -- the bots -----------------------------------------------------------------------------------

class Chaos:
    """The bots, the driver and their shared state."""

    def __init__(self, server: Server, args: argparse.Namespace) -> None:
        self.server = server
        self.args = args
        self.rng = random.Random(args.seed)
        self.figures = Figures()
        self.playing = True  # hosts start new games
        self.leaving = False  # bots leave once their table is not playing
        self.server_up = asyncio.Event()
        self.server_up.set()
        self.kill_epoch = 0  # counts the kills: a bot that lost its socket to one knows it
        self.seats: list[Seat] = []

    async def play(self) -> None:
        """Seat the bots, run the driver for the duration, then end."""
        started = time.monotonic()
        for table in range(self.args.tables):
            for index in range(4):
                self.seats.append(Seat(self, table, index))
        bots = [asyncio.create_task(seat.run()) for seat in self.seats]
        sampler = asyncio.create_task(self._sample_memory())
        await self._drive(started + self.args.duration)
        self.playing = False
        print(f"[{time.monotonic() - started:.0f} s] duration over: no new games; waiting for the running ones")
        deadline = time.monotonic() + END_WAIT
        while time.monotonic() < deadline and any(seat.in_game() for seat in self.seats):
            await asyncio.sleep(0.5)
        self.leaving = True
        print(f"[{time.monotonic() - started:.0f} s] bots leave")
        done, pending = await asyncio.wait(bots, timeout=60)
        for task in pending:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                print(f"a bot failed: {task.exception()!r}")
        sampler.cancel()

    async def _sample_memory(self) -> None:
        while True:
            if self.server_up.is_set():
                self.server.sample()
            await asyncio.sleep(1.0)

    async def _drive(self, end: float) -> None:
        """Drops, garbage, floods and kills at random moments until ``end``."""
        start = time.monotonic()
        span = end - start
        kill_times = sorted(start + span * (index + self.rng.uniform(0.3, 0.7)) / self.args.kills
                            for index in range(self.args.kills))
        # one drop every 10 table-seconds or so; garbage and floods every few seconds
        next_drop = start + 3.0
        next_garbage = start + 5.0
        next_flood = start + 8.0
        extra: set[asyncio.Task[None]] = set()
        async with aiohttp.ClientSession() as session:
            while (now := time.monotonic()) < end:
                if kill_times and now >= kill_times[0]:
                    kill_times.pop(0)
                    await self._kill_and_restart(session)
                    continue
                if now >= next_drop:
                    next_drop = now + self.rng.expovariate(self.args.tables / 10.0)
                    self._drop_one()
                if now >= next_garbage:
                    next_garbage = now + self.rng.uniform(1.0, 4.0)
                    self._spawn(extra, self._garbage(session, self.figures.garbage_connections))
                    self.figures.garbage_connections += 1
                    self._seated_garbage()
                if now >= next_flood:
                    next_flood = now + self.rng.uniform(4.0, 10.0)
                    self._spawn(extra, self._flood(session, self.figures.floods))
                    self.figures.floods += 1
                await asyncio.sleep(0.05)
            if extra:
                await asyncio.wait(extra, timeout=30)

    @staticmethod
    def _spawn(tasks: set[asyncio.Task[None]], work: Any) -> None:
        task = asyncio.create_task(work)
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    def _drop_one(self) -> None:
        candidates = [seat for seat in self.seats if seat.connected and not seat.gone]
        if candidates:
            self.rng.choice(candidates).drop_soon(self.rng)

    def _seated_garbage(self) -> None:
        """A seated bot sends a few bad frames amid its game (a buggy client); its game goes on."""
        candidates = [seat for seat in self.seats if seat.connected and not seat.gone]
        if candidates:
            self.rng.choice(candidates).send_garbage([
                '{"type": "response", "payload": {"request_id": "made-up", "action": "play", '
                '"response_data": {"cards": []}}}', "{oops", '{"type": "swap_players"}', '{"type": "start_game"}',
                '{"type": "bomb", "payload": {"cards": [[2, 1], [2, 2], [2, 3], [2, 4]]}}'])

    async def _kill_and_restart(self, session: aiohttp.ClientSession) -> None:
        self.server_up.clear()
        self.kill_epoch += 1
        connected = sum(1 for seat in self.seats if seat.connected)
        children = self.server.kill()
        await asyncio.sleep(0.2)
        running = count_running(self.server.data_dir / STORE_FILE)
        pause = self.rng.uniform(0.5, 2.0)
        await asyncio.sleep(pause)
        boot = await self.server.start(session)
        tables = (await self.server.health(session))["tables"]
        self.server_up.set()
        self.figures.kills.append({"bots_connected": connected, "running_stored": running, "tables_rebuilt": tables,
                                   "down_s": round(0.2 + pause + boot, 1), "pool_processes": children})
        print(f"SIGKILL #{self.kill_epoch}: {connected} bots connected, {running} running games stored, "
              f"{tables} tables rebuilt, down {0.2 + pause + boot:.1f} s")

    async def _garbage(self, session: aiohttp.ClientSession, number: int) -> None:
        """A connection that sends malformed messages; the server answers each with an error."""
        frames: list[str | bytes] = [
            "{not json", "[]", "null", "42", '"text"', '{"type": 5}', '{"type": "no_such_type"}',
            '{"type": "response"}', '{"type": "response", "payload": []}',
            '{"type": "response", "payload": {"request_id": "made-up-1", "action": "play", '
            '"response_data": {"cards": [[2, 1]]}}}',
            '{"type": "response", "payload": {"request_id": 999999, "action": "schupf", "response_data": {}}}',
            '{"type": "bomb", "payload": {"cards": "x"}}', '{"type": "bomb", "payload": {"cards": [[99, 99]]}}',
            '{"type": "swap_players", "payload": {"player_index_1": "a", "player_index_2": 1}}',
            '{"type": "set_options", "payload": {"agent": "' + "x" * 60_000 + '"}}',
            '{"type": "' + "y" * 60_000 + '"}', '"' + "z" * 100_000 + '"',
            "[" * 30_000 + "]" * 30_000, '{"type": "ping", "payload": "\\ud800"}', '{"type": "announce"}',
            b"\x00\xff\x00binary", b"",
        ]
        self.rng.shuffle(frames)
        try:
            async with session.ws_connect(f"http://127.0.0.1:{self.server.port}/ws?player_name=Garbage{number}"
                                          f"&table_name=garbage-{number}") as ws:
                replies = asyncio.create_task(self._read_errors(ws))
                for frame in frames:
                    if isinstance(frame, bytes):
                        await ws.send_bytes(frame)
                    else:
                        await ws.send_str(frame)
                    self.figures.garbage_frames += 1
                    await asyncio.sleep(0.02)
                await ws.send_str('{"type": "ping"}')
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(replies), 3.0)
                self.figures.garbage_alive_after += int(not ws.closed)
                await ws.send_str('{"type": "leave"}')
                await asyncio.wait_for(replies, 5.0)
        except (aiohttp.ClientError, OSError, TimeoutError, ConnectionError):
            pass

    async def _read_errors(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for frame in ws:
            if frame.type != aiohttp.WSMsgType.TEXT:
                continue
            message = json.loads(frame.data)
            if message.get("type") == "error":
                self.figures.garbage_errors[str(message["payload"]["code"])] += 1
            elif message.get("type") == "pong":
                return

    async def _flood(self, session: aiohttp.ClientSession, number: int) -> None:
        """A connection that sends hundreds of pings a second: SERVER_BUSY, then close 1008."""
        end, epoch = "still open", self.kill_epoch
        try:
            async with session.ws_connect(f"http://127.0.0.1:{self.server.port}/ws?player_name=Flood{number}"
                                          f"&table_name=flood-{number}") as ws:
                reader = asyncio.create_task(self._count_busy(ws))
                deadline = time.monotonic() + 10.0
                with contextlib.suppress(ConnectionError):
                    while not ws.closed and not reader.done() and time.monotonic() < deadline:
                        for _ in range(10):
                            await ws.send_str('{"type": "ping"}')
                            self.figures.flood_pings += 1
                        await asyncio.sleep(0.02)  # about 500 a second
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(reader, 5.0)
                end = f"close {ws.close_code}" if ws.close_code is not None else "still open"
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            end = type(error).__name__
        if self.kill_epoch != epoch or not self.server_up.is_set():
            end = f"{end} (server killed meanwhile)"
        self.figures.flood_ends[end] += 1

    async def _count_busy(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for frame in ws:
            if frame.type == aiohttp.WSMsgType.TEXT:
                message = json.loads(frame.data)
                if message.get("type") == "error" and message["payload"].get("code") == ErrorCode.SERVER_BUSY:
                    self.figures.flood_busy += 1


class Seat:
    """One bot: joins its table, plays, reconnects after drops and kills, and leaves at the end."""

    def __init__(self, chaos: Chaos, table: int, index: int) -> None:
        self.chaos = chaos
        self.table_name = f"chaos-{table}"
        self.name = f"P{table}x{index}"
        self.index = index
        self.brain_seed = chaos.args.seed * 100_000 + 4 * table + index
        self.session_id: str | None = None
        self.client: TableClient | None = None
        self.gone = False  # gave up for good
        self._drop: tuple[float, bool] | None = None  # (pause, within grace) when told to drop
        self._dropped = asyncio.Event()
        self._garbage: list[str] = []  # frames to send from the seat (the driver's)
        self._reconnect_kind = "first"  # why the bot connects: first, drop, kill, other

    @property
    def connected(self) -> bool:
        return self.client is not None and not self.client.closed

    def in_game(self) -> bool:
        """Whether this bot sits at a game being played."""
        return self.connected and self.client is not None and bool(self.client.state.public.get("is_running"))

    def send_garbage(self, frames: list[str]) -> None:
        self._garbage += frames

    def drop_soon(self, rng: random.Random) -> None:
        within = rng.random() < 0.6
        pause = rng.uniform(0.2, GRACE - 1.0) if within else rng.uniform(GRACE + 1.0, GRACE + 4.0)
        self._drop = (pause, within)
        self._dropped.set()

    async def run(self) -> None:
        """Connect, play until the end, reconnect whenever the connection is lost."""
        chaos = self.chaos
        await asyncio.sleep(self.index * 0.1 + random.Random(self.brain_seed).uniform(0, 2.0))
        while not self.gone and not chaos.leaving:
            if not await self._connect():
                continue
            client = self.client
            assert client is not None
            epoch = chaos.kill_epoch
            how = await self._play(client)
            if how == "left":
                return
            if how == "dropped":
                assert self._drop is not None
                pause, within = self._drop
                self._drop = None
                chaos.figures.drops += 1
                chaos.figures.drop_pauses_within_grace += int(within)
                await asyncio.sleep(pause)
                self._reconnect_kind = "drop"
                if not within and chaos.rng.random() < 0.3:  # a closed tab: the session is lost
                    self.session_id = None
                    chaos.figures.sessions_forgotten += 1
            elif chaos.kill_epoch != epoch or not chaos.server_up.is_set():
                self._reconnect_kind = "kill"
            else:
                chaos.figures.unexpected_closes[str(client.close_code)] += 1
                self._reconnect_kind = "other"

    async def _connect(self) -> bool:
        """One way into the table: the session if there is one, else by name (with backoff
        while the server is away). Returns whether the bot sits at its table now."""
        chaos, figures = self.chaos, self.chaos.figures
        delay, started = 0.25, time.monotonic()
        while True:
            client = TableClient(RandomBrain(seed=self.brain_seed, think=chaos.args.think))
            self.brain_seed += 7919
            by_session = self.session_id is not None
            try:
                if by_session:
                    await client.connect("127.0.0.1", chaos.server.port, session_id=self.session_id)
                else:
                    await client.connect("127.0.0.1", chaos.server.port, player_name=self.name,
                                         table_name=self.table_name)
            except (aiohttp.ClientError, OSError):
                figures.connect_retries += 1
                if time.monotonic() - started > RECONNECT_LIMIT or chaos.leaving:
                    self.gone = True
                    return False
                await asyncio.sleep(delay * random.uniform(0.5, 1.5))
                delay = min(delay * 2, 2.0)
                continue
            reader = asyncio.create_task(client.run())
            refusal = await self._joined_or_refused(client)
            if refusal is None:
                if by_session:
                    if self._reconnect_kind == "kill":
                        figures.kill_reconnects_ok += 1
                    elif self._reconnect_kind == "drop":
                        figures.reconnects_ok += 1
                elif self.session_id is None and self._reconnect_kind != "first":
                    figures.rejoins_by_name += 1
                self.session_id = client.session_id
                self.client = client
                self._reader = reader
                return True
            await client.close()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
            if refusal == "closed" and time.monotonic() - started < RECONNECT_LIMIT:
                figures.connect_retries += 1  # the server went away while we connected
                await asyncio.sleep(delay * random.uniform(0.5, 1.5))
                delay = min(delay * 2, 2.0)
                continue
            if by_session:
                counter = figures.kill_reconnects_refused if self._reconnect_kind == "kill" \
                    else figures.reconnects_refused
                counter[refusal] += 1
                self.session_id = None
                if chaos.rng.random() < 0.15 or chaos.leaving:  # as a person would, now and then
                    figures.gave_up += 1
                    self.gone = True
                    return False
                continue  # rejoin by name
            busy_or_taken = (str(ErrorCode.SERVER_BUSY.value), str(ErrorCode.NAME_TAKEN.value))
            if refusal in busy_or_taken and time.monotonic() - started < RECONNECT_LIMIT:
                figures.name_refusals[refusal] += 1  # the old seat may still be held: try again
                await asyncio.sleep(1.0)
                continue
            figures.gave_up += 1
            self.gone = True
            return False

    async def _joined_or_refused(self, client: TableClient) -> str | None:
        """``None`` once seated; else the error code that refused the client, or ``"closed"``."""
        def answer(message: Received) -> bool:
            notification = notification_of(message)
            return error_of(message) is not None or (
                notification is not None and notification["event"] == "player_joined"
                and "session_id" in notification["context"])
        try:
            message = await client.wait_for(answer, timeout=15.0)
        except (ConnectionError, TimeoutError):
            return "closed"
        error = error_of(message)
        return None if error is None else str(error["code"])

    _reader: asyncio.Task[None]

    async def _play(self, client: TableClient) -> str:
        """Play at the table until the connection is lost (``"lost"``), the driver drops it
        (``"dropped"``) or the bot leaves at the end (``"left"``)."""
        chaos = self.chaos
        self._dropped.clear()
        joined_at, last_start = time.monotonic(), 0.0
        seen_over = client.games_over
        while not self._reader.done():
            if self._garbage:
                frames, self._garbage = self._garbage, []
                with contextlib.suppress(ConnectionError):
                    for frame in frames:
                        await client.send_raw(frame)
                        chaos.figures.seated_garbage += 1
            if self._dropped.is_set():
                await client.close()  # the socket closes without leave
                await asyncio.gather(self._reader, return_exceptions=True)
                self.client = None
                return "dropped"
            public = client.state.public
            running = bool(public.get("is_running"))
            if client.games_over > seen_over:
                chaos.figures.games_over += client.games_over - seen_over
                seen_over = client.games_over
            if chaos.leaving:
                await client.finish()
                await asyncio.gather(self._reader, return_exceptions=True)
                self.client = None
                return "left"
            now = time.monotonic()
            host = public.get("host_index") == client.player_index
            ready = len(client.state.client_seats) >= 4 or now - joined_at > 3 * GRACE
            if chaos.playing and host and not running and ready and now - last_start > 2.0:
                last_start = now
                with contextlib.suppress(ConnectionError):
                    await client.start_game()
                    chaos.figures.games_started += 1
            if len(client.received) > 4000:  # a long run's log would only grow
                del client.received[:-100]
                del client.sent[:-100]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._dropped.wait(), 0.25)
        await client.close()
        self.client = None
        return "lost"


# -- the end ------------------------------------------------------------------------------------

def check_store(path: Path) -> tuple[int, int, int, list[str]]:
    """Finished, aborted and running games, and the finished records that do not replay."""
    with GameStore(path) as store:
        running = len(store.running.games())
        finished = aborted = 0
        failures: list[str] = []
        for record in store.archive.records():
            if record.get("aborted"):
                aborted += 1
                continue
            finished += 1
            fault = replay(record)
            if fault is not None:
                failures.append(f"{record.get('id')} ({record.get('table')}): {fault}")
    return finished, aborted, running, failures


async def run(args: argparse.Namespace, data_dir: Path) -> int:
    mark = f"TICHU_CHAOS_RUN={os.getpid()}-{time.time_ns()}"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TICHU_DATA_DIR": str(data_dir), MARK: mark.split("=")[1],
           "TICHU_AGENT": args.agent, "TICHU_AGENT_DELAY": str(args.think), "TICHU_BOMB_WINDOW": "0",
           "TICHU_GRACE_PERIOD": str(GRACE), "TICHU_TARGET_SCORE": str(args.target), "TICHU_LOG_LEVEL": "INFO",
           "TICHU_LOOPBACK_EXEMPT": "on", "TICHU_MESSAGE_RATE": "20", "TICHU_MESSAGE_BURST": "40",
           "TICHU_FLOOD_CLOSE": "2", "TICHU_MAX_TABLES": str(max(50, args.tables + 20)),
           "TICHU_MAX_CONNECTIONS": str(max(200, 4 * args.tables + 60))}
    server = Server(data_dir, env)
    async with aiohttp.ClientSession() as session:
        await server.start(session)
        await asyncio.sleep(1.0)
        idle_rss = server.rss_kib()
        idle_tasks = (await server.health(session))["tasks"]
        chaos = Chaos(server, args)
        started = time.monotonic()
        await chaos.play()
        elapsed = time.monotonic() - started
        deadline = time.monotonic() + 3 * GRACE + 30
        health = await server.health(session)
        while (health["tables"] or health["connections"]) and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
            health = await server.health(session)
        await asyncio.sleep(IDLE_CLEANUP_SECONDS + 2.0)
        end_rss = server.rss_kib()
        health = await server.health(session)
        server.sample()
    code = server.terminate()
    left = subprocess.run([sys.executable, str(ROOT / "bin" / "leftover_processes.py"), "--mark", mark, "--wait", "10",
                           "--kill"], capture_output=True, text=True, check=False)
    finished, aborted, running, failures = check_store(data_dir / STORE_FILE)
    figures = chaos.figures
    print()
    print(f"chaos: {args.tables} tables x 4 bots, {args.duration:.0f} s (+ end {elapsed - args.duration:.0f} s), "
          f"{args.kills} SIGKILLs, seed {args.seed}, agent {args.agent}, target {args.target}, think {args.think} s, "
          f"grace {GRACE:.0f} s")
    print(f"games: {finished} finished, {aborted} aborted, {running} still stored as running after SIGTERM "
          f"(exit code {code}); {figures.games_over} game_over seen by bots, {figures.games_started} start_game sent")
    print(f"replay: {finished - len(failures)} of {finished} finished records replay cleanly")
    for failure in failures:
        print(f"  REPLAY FAILURE {failure}")
    print(f"drops: {figures.drops} ({figures.drop_pauses_within_grace} back within the grace period); "
          f"reconnects by session {figures.reconnects_ok} ok / {sum(figures.reconnects_refused.values())} refused "
          f"{dict(figures.reconnects_refused)}; {figures.sessions_forgotten} came back without their session; "
          f"rejoined by name {figures.rejoins_by_name} (refused first {dict(figures.name_refusals) or 0}), "
          f"gave up {figures.gave_up}")
    print(f"after SIGKILLs: {figures.kill_reconnects_ok} reconnects by session ok / "
          f"{sum(figures.kill_reconnects_refused.values())} refused {dict(figures.kill_reconnects_refused)}; "
          f"{figures.connect_retries} connection attempts retried; "
          f"unexpected closes {dict(figures.unexpected_closes) or 0}")
    for number, kill in enumerate(figures.kills, 1):
        print(f"  SIGKILL {number}: {kill}")
    print(f"garbage: {figures.garbage_connections} connections, {figures.garbage_frames} frames, errors back "
          f"{dict(sorted(figures.garbage_errors.items()))}, {figures.garbage_alive_after} connections still "
          f"answering pings after their garbage; {figures.seated_garbage} bad frames from seated bots")
    print(f"floods: {figures.floods}, {figures.flood_pings} pings, {figures.flood_busy} SERVER_BUSY back, "
          f"ends {dict(figures.flood_ends)}")
    print(f"server log: {server.log_count('Traceback')} tracebacks, {server.log_count(' ERROR ')} errors, "
          f"{server.log_count('cannot be rebuilt')} journals not rebuilt, "
          f"{server.log_count('goes on after a restart')} games going on after a restart")
    mib = 1024
    print(f"server memory (resident, + children): idle {idle_rss[0] / mib:.1f} + {idle_rss[1] / mib:.1f} MiB, "
          f"peak {server.peak_kib / mib:.1f} MiB, end {end_rss[0] / mib:.1f} + {end_rss[1] / mib:.1f} MiB "
          f"(after the tables closed and {IDLE_CLEANUP_SECONDS:.0f} s idle)")
    print(f"asyncio tasks: idle {idle_tasks}, end {health['tasks']} (tables {health['tables']}, "
          f"connections {health['connections']})")
    pool_processes = sum(kill["pool_processes"] for kill in figures.kills)
    print(f"processes left 10 s after the end: {'none' if left.returncode == 0 else left.stderr.strip()} "
          f"({pool_processes} pool processes were below the server at its SIGKILLs)")
    bad = (bool(failures) or running > 0 or health["tasks"] > idle_tasks + TASK_MARGIN or finished == 0
           or left.returncode != 0)
    print("RESULT:", "FAIL" if bad else "ok")
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of four bots (default 50)")
    parser.add_argument("--duration", type=float, default=180.0, help="seconds of chaos (default 180)")
    parser.add_argument("--kills", type=int, default=3, help="SIGKILLs and restarts of the server (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the driver and the bots (default 1)")
    parser.add_argument("--agent", default="random", help="agent kind of empty seats (default random)")
    parser.add_argument("--target", type=int, default=1000, help="target score of each game (default 1000)")
    parser.add_argument("--think", type=float, default=0.02,
                        help="seconds bots and agents wait before acting (default 0.02)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # the bots' warnings (refused answers, drops) are expected here
    with tempfile.TemporaryDirectory(prefix="tichu-chaos-") as data_dir:
        code = asyncio.run(run(args, Path(data_dir)))
        if code and os.environ.get("CHAOS_KEEP"):
            kept = Path(tempfile.mkdtemp(prefix="tichu-chaos-kept-"))
            subprocess.run(["cp", "-r", data_dir, str(kept)], check=False)
            print(f"data kept in {kept}")
    return code


if __name__ == "__main__":
    sys.exit(main())
