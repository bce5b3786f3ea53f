"""Refused connections (protocol.md "Connecting"): each names its reason in an ``error``, then
closes the socket; a refused connection leaves the table as it was."""

from __future__ import annotations

import asyncio
from urllib.parse import urlencode

import aiohttp
import pytest

from tests.support.checks import table_snapshot
from tests.support.live_server import WAIT, eventually
from tests.support.raw_client import StartServer, is_error

POLICY_VIOLATION = 1008

BAD_QUERIES = {
    "no query": "",
    "table name missing": urlencode({"player_name": "Anna"}),
    "player name missing": urlencode({"table_name": "t"}),
    "empty name": urlencode({"player_name": "   ", "table_name": "t"}),
    "name of 21 characters": urlencode({"player_name": "x" * 21, "table_name": "t"}),
    "table name of 41 characters": urlencode({"player_name": "Anna", "table_name": "t" * 41}),
    "control character in the name": urlencode({"player_name": "An\x07na", "table_name": "t"}),
    "newline in the table name": urlencode({"player_name": "Anna", "table_name": "t\nu"}),
    "NUL in the name": urlencode({"player_name": "An\x00na", "table_name": "t"}),
    "bidi override in the name": urlencode({"player_name": "An\u202ena", "table_name": "t"}),
}


@pytest.mark.parametrize("query", BAD_QUERIES.values(), ids=BAD_QUERIES.keys())
async def test_invalid_query_parameters_are_refused_with_101_and_close_1008(start_server: StartServer,
                                                                             query: str) -> None:
    """Invalid query parameters (names 1..20 / 1..40 characters after trimming, no control
    characters): ``error`` 101 INVALID_MESSAGE with ``context.reason``, then close 1008;
    no table is opened."""
    async with asyncio.timeout(WAIT):
        server = await start_server()
        client = await server.raw(query)
        assert await client.wait_closed() == POLICY_VIOLATION
        assert [m["type"] for m in client.messages] == ["error"]
        payload = client.messages[0]["payload"]
        assert payload["code"] == 101 and isinstance(payload["context"]["reason"], str) and payload["context"]["reason"]
        assert server.factory.tables == {}


async def test_names_with_apostrophes_ampersands_and_brackets_are_echoed_exactly(start_server: StartServer) -> None:
    """Real names such as ``O'Brien`` or ``Tom & Jerry`` are names (protocol.md echoes them
    exactly; clients show them as text): ``< > & " ' `` are no reason to refuse one."""
    async with asyncio.timeout(WAIT):
        server = await start_server()
        name, table = "O'Brien & <b>Co</b>", 'Tom & "Jerry" <script>`'
        client = await server.join(name, table)
        joined = client.events("player_joined")[0]
        assert joined["player_name"] == name and joined["public_state"]["table_name"] == table
        assert joined["public_state"]["player_names"][0] == name


async def test_name_is_trimmed_and_accepted(start_server: StartServer) -> None:
    """Names count after trimming: ``"  Anna  "`` joins as ``Anna`` (and is then taken, 204)."""
    async with asyncio.timeout(WAIT):
        server = await start_server()
        anna = await server.join("  Anna  ", "t")
        assert anna.events("player_joined")[0]["player_name"] == "Anna"
        longest = await server.join("n" * 20, "t" * 40)
        assert longest.events("player_joined")[0]["public_state"]["table_name"] == "t" * 40
        again = await server.raw(urlencode({"player_name": "Anna", "table_name": "t"}))
        assert await again.wait_closed() is not None
        assert is_error(again.messages[0], 204)


@pytest.mark.parametrize("session_id", ["not-a-session", "00000000-0000-0000-0000-000000000000", "x" * 300])
async def test_unknown_session_is_refused_with_201_and_close_1008(start_server: StartServer,
                                                                   session_id: str) -> None:
    """An unknown session id: ``error`` 201 SESSION_NOT_FOUND, then close 1008."""
    async with asyncio.timeout(WAIT):
        server = await start_server()
        client = await server.raw(urlencode({"session_id": session_id}))
        assert await client.wait_closed() == POLICY_VIOLATION
        assert [m["payload"]["code"] for m in client.messages] == [201]


async def test_session_whose_seat_was_taken_is_refused_with_200_and_close_1008(start_server: StartServer) -> None:
    """A session whose seat another client took after the grace period: ``error`` 200
    SESSION_EXPIRED, then close 1008; the new client keeps the seat."""
    async with asyncio.timeout(WAIT):
        server = await start_server(grace_period=0.2)
        host = await server.join("Host", "t")
        ada = await server.join("Ada", "t")
        await ada.drop()
        assert (await host.wait_event("player_left"))["player_index"] == ada.seat
        bob = await server.join("Bob", "t")
        assert bob.seat == ada.seat
        before = table_snapshot(server, "t")
        late = await server.raw(urlencode({"session_id": ada.session_id}))
        assert await late.wait_closed() == POLICY_VIOLATION
        assert [m["payload"]["code"] for m in late.messages] == [200]
        assert table_snapshot(server, "t") == before
        assert ada.seat is not None
        holder = server.table("t").peers[ada.seat]
        assert holder is not None and holder.name == "Bob"


async def test_session_of_a_client_that_left_is_refused_with_201(start_server: StartServer) -> None:
    """After ``leave`` and the table's closing, the session is unknown: 201 and close 1008."""
    async with asyncio.timeout(WAIT):
        server = await start_server(grace_period=0.1)
        ada = await server.join("Ada", "t")
        await ada.send_type("leave")
        assert await ada.wait_closed() == 1000
        await eventually(lambda: "t" not in server.factory.tables)
        late = await server.raw(urlencode({"session_id": ada.session_id}))
        assert await late.wait_closed() == POLICY_VIOLATION
        assert [m["payload"]["code"] for m in late.messages] == [201]


async def test_fifth_client_gets_203_table_full_and_is_closed(start_server: StartServer) -> None:
    """At most four clients per table: the fifth gets ``error`` 203 TABLE_FULL, then the socket
    closes; the four seated clients are not disturbed."""
    async with asyncio.timeout(WAIT):
        server = await start_server()
        seated = [await server.join(name, "t") for name in "ABCD"]
        before = table_snapshot(server, "t")
        fifth = await server.raw(urlencode({"player_name": "E", "table_name": "t"}))
        assert await fifth.wait_closed() is not None
        assert [m["payload"]["code"] for m in fifth.messages] == [203]
        assert table_snapshot(server, "t") == before
        for client in seated:
            assert not client.closed.is_set() and not client.events("player_left")


@pytest.mark.parametrize("name", ["Anna", " Anna "])
async def test_taken_name_gets_204_and_is_closed(start_server: StartServer, name: str) -> None:
    """Names are unique per table: a taken name gets ``error`` 204 NAME_TAKEN, then the socket
    closes; the same name at another table is fine."""
    async with asyncio.timeout(WAIT):
        server = await start_server()
        await server.join("Anna", "t")
        again = await server.raw(urlencode({"player_name": name, "table_name": "t"}))
        assert await again.wait_closed() is not None
        assert [m["payload"]["code"] for m in again.messages] == [204]
        assert len(server.table("t").clients) == 1
        elsewhere = await server.join(name, "other")
        assert elsewhere.seat == 0


async def test_a_dropped_clients_seat_is_kept_for_the_grace_period(start_server: StartServer) -> None:
    """A dropped client keeps its seat for the grace period ("the seat is kept"): a fifth
    client meanwhile gets 203 TABLE_FULL; after the grace period the seat is an agent's and a
    new client takes it."""
    async with asyncio.timeout(WAIT):
        server = await start_server(grace_period=0.5)
        seated = [await server.join(name, "t") for name in "ABCD"]
        await seated[2].drop()
        fifth = await server.raw(urlencode({"player_name": "E", "table_name": "t"}))
        assert await fifth.wait_closed() is not None
        assert [m["payload"]["code"] for m in fifth.messages] == [203]
        assert (await seated[0].wait_event("player_left"))["player_index"] == 2
        late = await server.join("E", "t")
        assert late.seat == 2


#: ``/healthz``'s ``store`` while the game store writes (its faults: test_disk_faults.py).
STORE_OK = {"queued": 0, "held": 0, "held_bytes": 0, "dropped": 0, "error": None,
            "failing_for": None, "stalled_for": None}


async def test_healthz_answers_with_the_load(start_server: StartServer) -> None:
    """``/healthz`` (for systemd or a proxy): 200 with the open tables and connections, the
    asyncio tasks alive and the game store's state, and the security headers like every response."""
    server = await start_server()
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{server.port}/healthz") as response:
            assert response.status == 200
            idle = await response.json()
            assert idle == {"status": "ok", "tables": 0, "connections": 0, "tasks": idle["tasks"], "store": STORE_OK}
            assert isinstance(idle["tasks"], int) and idle["tasks"] >= 1
            assert response.headers["X-Content-Type-Options"] == "nosniff"
        client = await server.join("Ann", "t")
        async with session.get(f"http://127.0.0.1:{server.port}/healthz") as response:
            busy = await response.json()
            assert busy == {"status": "ok", "tables": 1, "connections": 1, "tasks": busy["tasks"], "store": STORE_OK}
            assert busy["tasks"] > idle["tasks"]  # the client's connection handler at least
        await client.close()
