"""Faults of the SD card under a running server: a full disk and a read-only database.

The games go on, ``/healthz`` says ``"degraded"`` with the reason, and once the disk takes
writes again everything held is written in order: every game's record is stored and replays,
and a game still running has its whole journal. The full disk is a real one: the server's data
folder on a ``tmpfs`` of a few MiB, filled up by a file (mounting needs root, as in CI; the test
is skipped elsewhere). The read-only database is SQLite's own: the server's connection is set to
``query_only``, which fails every write with "attempt to write a readonly database" as a
read-only file or file system does (a tmpfs with the database open for writing cannot be
remounted read-only).
"""

from __future__ import annotations

import asyncio
import errno
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.live_server import POLL, WAIT
from tests.support.raw_client import Client, Server, StartServer, is_request
from tichu.records.journal import rebuild
from tichu.records.record import replay, round_json
from tichu.records.store import GameStore
from tichu.server.keys import STORE, STORE_FILE
from tichu.server.workers import store_writer as storage

#: The tiny file system's size: room for the database, not for much more.
TINY = "8m"
TABLES = ("t1", "t2", "t3")


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retries every 0.05 to 0.2 s (the server's are 0.5 to 30 s), so that a test sees the disk's
    room soon after it is freed."""
    monkeypatch.setattr(storage, "RETRY_FIRST", 0.05)
    monkeypatch.setattr(storage, "RETRY_MAX", 0.2)


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A folder on a tmpfs of :data:`TINY`, unmounted at the end (ask for it before the server,
    which is then stopped before it)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (CI runs as root)")
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={TINY}", "tmpfs", str(folder)],
                             capture_output=True, text=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        if subprocess.run(["umount", str(folder)], check=False).returncode != 0:
            subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Write a file into ``folder`` until its file system has no byte left; return the file."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as out:
        for size in (1 << 16, 1 << 12, 1):
            try:
                while True:
                    out.write(b"\0" * size)
            except OSError as error:
                assert error.errno == errno.ENOSPC
    return filler


async def health(server: Server) -> dict[str, Any]:
    async with server.session.get(f"http://127.0.0.1:{server.port}/healthz") as response:
        assert response.status == 200  # degraded is no failure: a restart would lose the held writes
        answer: dict[str, Any] = await response.json()
        return answer


async def until_health(server: Server, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Poll ``/healthz`` until its answer passes ``check``; return it."""
    async with asyncio.timeout(WAIT):
        while not check(answer := await health(server)):
            await asyncio.sleep(POLL)
    return answer


async def start_games(server: Server) -> list[Client]:
    """One person and three agents at each of :data:`TABLES`, each game up to the person's first play."""
    clients = [await server.join(f"p{index}", table) for index, table in enumerate(TABLES)]
    for client in clients:
        await client.send_type("start_game")
    for client in clients:
        await client.play(None, hold=lambda request: is_request({"type": "request", "payload": request}, "play"))
    return clients


async def play_until_degraded(server: Server, client: Client) -> dict[str, Any]:
    """Play trick after trick at the client's table until the server's writes fail; return
    ``/healthz``'s answer then."""
    for _ in range(20):
        await client.play("trick_taken")
        answer = await health(server)
        if answer["status"] == "degraded":
            return answer
    raise AssertionError(f"still {answer} after 20 tricks")


def check_stored(server: Server) -> None:
    """Every game of :data:`TABLES` stored whole: its record replays, no journal is left running."""
    for table in TABLES:
        [record] = server.records(table)
        assert replay(record) is None, table
    with GameStore(server.settings.data_dir / STORE_FILE) as store:
        assert store.running.games() == []


async def test_a_full_disk_holds_the_writes_the_games_go_on_and_all_is_written_after(
        tiny_disk: Path, start_server: StartServer) -> None:
    server = await start_server(data_dir=tiny_disk / "data")
    clients = await start_games(server)
    assert (await health(server))["status"] == "ok"
    filler = fill(tiny_disk)
    degraded = await play_until_degraded(server, clients[0])  # the journal entries find the disk full
    assert "database or disk is full" in degraded["reason"] and degraded["store"]["held"] > 0
    await asyncio.gather(*(client.play() for client in clients))  # every game goes on to its end
    still = await health(server)
    assert still["status"] == "degraded" and still["store"]["held"] > degraded["store"]["held"]
    assert server.records(TABLES[0]) == []  # nothing of it reached the disk yet

    filler.unlink()
    ok = await until_health(server, lambda answer: answer["status"] == "ok")
    assert ok["store"] == {"queued": 0, "held": 0, "held_bytes": 0, "dropped": 0, "error": None,
                           "failing_for": None, "stalled_for": None}
    check_stored(server)


async def test_a_running_game_keeps_its_whole_journal_through_a_full_disk(
        tiny_disk: Path, start_server: StartServer) -> None:
    """The journal of a game still running when the disk has room again is complete and ordered:
    a restart would rebuild the game as it is."""
    server = await start_server(data_dir=tiny_disk / "data")
    [client, *others] = await start_games(server)
    filler = fill(tiny_disk)
    await play_until_degraded(server, client)
    await client.play("trick_taken")
    filler.unlink()
    await until_health(server, lambda answer: answer["status"] == "ok")
    engine = server.table(TABLES[0]).engine
    assert engine is not None and engine.round is not None
    [game] = [game for game in await server.app[STORE].read(lambda store: store.running.games())
              if game.table_name == TABLES[0]]
    assert game.complete
    rounds, current = rebuild(engine.rules, game.entries)
    assert [round_json(round_) for round_ in rounds] == [round_json(round_) for round_ in engine.rounds]
    assert current is not None and round_json(current) == round_json(engine.round)
    await asyncio.gather(*(other.play() for other in [client, *others]))
    check_stored(server)


def _query_only(on: bool) -> Callable[[GameStore], None]:
    """Set the server's connection read-only (SQLite's ``query_only``), or writable again."""
    def run(store: GameStore) -> None:
        store.database.execute(f"PRAGMA query_only = {int(on)}")  # white box: the server's own connection
    return run


async def test_a_read_only_database_holds_the_writes_and_all_is_written_when_writable(
        start_server: StartServer, tmp_path: Path) -> None:
    server = await start_server()
    clients = await start_games(server)
    await server.app[STORE].read(_query_only(True))
    degraded = await play_until_degraded(server, clients[0])
    assert "attempt to write a readonly database" in degraded["reason"]
    await asyncio.gather(*(client.play() for client in clients))
    assert (await health(server))["status"] == "degraded"
    assert len(await server.app[STORE].read(lambda store: store.running.games())) == len(TABLES)  # as on disk

    await server.app[STORE].read(_query_only(False))  # answered at once while writes are held
    await until_health(server, lambda answer: answer["status"] == "ok")
    check_stored(server)
