"""The GameFactory: many tables at once, failures contained to one table, closing empty tables
(protocol.md "Connecting", "Connection loss", "Errors": no input may crash a table or the server)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from tests.support.live_server import WAIT, Message, eventually, read_table_records
from tests.support.raw_client import GAME_WAIT, StartServer, is_error
from tichu.records.record import replay

#: The grace period of the tests that watch a table close: long enough that a loaded machine
#: cannot overtake it between two steps of the test.
GRACE = 2.0


async def test_five_tables_play_at_once(start_server: StartServer) -> None:
    """Five tables, each with two clients of the same names, play whole games concurrently; each
    table's messages name only that table, and each writes one record that replays."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        tables = [f"table {index}" for index in range(5)]
        seated = {name: [await server.join("Ann", name, seed=2 * i), await server.join("Ben", name, seed=2 * i + 1)]
                  for i, name in enumerate(tables)}
        assert sorted(server.factory.tables) == tables
        for clients in seated.values():
            await clients[0].send_type("start_game")
        results = await asyncio.gather(*(client.play() for clients in seated.values() for client in clients))
        assert len(results) == 10
        for name, clients in seated.items():
            for client in clients:
                client.assert_clean()
                joined = [c for c in client.events("player_joined") if "public_state" in c]
                assert all(c["public_state"]["table_name"] == name for c in joined)
            [record] = read_table_records(server, name)
            assert [p["name"] for p in record["players"]][:2] == ["Ann", "Ben"]
            assert record["score"] == clients[0].events("game_over")[0]["total"]
            assert replay(record) is None


async def test_a_failing_table_does_not_affect_another(start_server: StartServer,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception inside one table's engine (monkeypatched) and inside one client's message
    handling give that table's clients ``error`` 100 UNKNOWN_ERROR; the table returns to the
    lobby and can start again, while a game at another table runs on to ``game_over`` untouched,
    and the server still accepts new clients."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        broken = await server.join("Anna", "broken", seed=1)
        other = await server.join("Otto", "other", seed=2)
        await other.send_type("start_game")
        other_game = asyncio.create_task(other.play())
        await broken.send_type("start_game")
        await broken.play(until=None, hold=lambda request: True)
        engine = server.table("broken").engine
        assert engine is not None

        async def explode(*args: Any) -> None:
            raise RuntimeError("injected failure")

        monkeypatch.setattr(engine, "_schupf", explode)
        start = len(broken.messages)
        await broken.respond(broken.open_request or {}, {"announced": False})
        error = await broken.wait_error(100, start=start)
        assert isinstance(error["context"], dict)
        table = server.table("broken")
        assert table.engine is None and not table.is_running and table.info.phase == "lobby"

        peer = table.peers[0]
        assert peer is not None

        def fail(payload: Message) -> None:
            raise RuntimeError("injected handler failure")

        monkeypatch.setattr(peer, "handle_response", fail)
        answers = await broken.roundtrip({"type": "response", "payload": {"request_id": "x", "action": "play"}})
        assert [m["payload"]["code"] for m in answers if is_error(m)] == [100]
        monkeypatch.delattr(peer, "handle_response")  # the class method again
        assert not broken.closed.is_set()

        await broken.send_type("start_game")
        await broken.play()
        await other_game
        other.assert_clean()
        assert len(read_table_records(server, "other")) == 1
        newcomer = await server.join("New", "third")
        assert newcomer.seat == 0


async def test_a_table_closes_after_its_last_client_left_plus_the_grace_period(start_server: StartServer) -> None:
    """When the last client leaves (``leave``, or a drop followed by the grace period) the table
    stays open for the grace period (a client joining then finds it, and keeps it open) and is
    closed after it: a client joining later opens a fresh table and becomes its host at seat 0."""
    async with asyncio.timeout(WAIT):
        server = await start_server(grace_period=GRACE)
        tables = server.factory.tables
        ada = await server.join("Ada", "t")
        bob = await server.join("Bob", "t")
        await ada.send_type("leave")
        await bob.send_type("leave")
        await bob.wait_closed()
        assert "t" in tables
        cid = await server.join("Cid", "t")
        assert cid.seat == 0 and cid.events("player_joined")[0]["public_state"]["host_index"] == 0
        await asyncio.sleep(GRACE * 1.2)
        assert "t" in tables  # a client is seated again
        await cid.send_type("start_game")
        await cid.play(until=None, hold=lambda request: True)
        left = time.monotonic()  # before the leave: the grace period starts after it
        await cid.send_type("leave")
        await cid.wait_closed()
        assert "t" in tables
        await eventually(lambda: "t" not in tables)
        assert time.monotonic() - left >= GRACE
        # The agents played on until the table closed: the game is recorded, as finished if they
        # made it within the grace period, else as aborted (docs/server.md). The table leaves the
        # factory before its game's task has ended and written the record: wait for the record.
        await eventually(lambda: len(read_table_records(server, "t"))
                         + len(read_table_records(server, "t", aborted=True)) == 1)
        dan = await server.join("Dan", "t")
        public = dan.events("player_joined")[0]["public_state"]
        assert dan.seat == 0 and public["host_index"] == 0 and public["phase"] == "lobby"
        assert public["player_names"] == ["Dan", "Bot 2", "Bot 3", "Bot 4"]

        eve = await server.join("Eve", "u")
        dropped = time.monotonic()  # before the drop: the grace period starts after it
        await eve.drop()
        await asyncio.sleep(GRACE * 1.2)
        assert "u" in tables  # the seat went to an agent after one grace period; the table waits another
        await eventually(lambda: "u" not in tables)
        assert time.monotonic() - dropped >= 2 * GRACE
