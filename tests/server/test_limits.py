"""The server's limits (docs/server.md, "Limits"): connections (IPv6 counted by network),
tables, message rate, outbox bytes, echoed input and the log of accept errors. Each limit is
hit and answered as specified, and a client under the limits is unaffected. Real servers and sockets on loopback."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from urllib.parse import urlencode

import aiohttp
import pytest

from tests.support.live_server import WAIT, eventually
from tests.support.raw_client import Client, Server, StartServer, is_error
from tichu.server.config import Settings
from tichu.server.guard.limits import (
    ACCEPT_ERROR,
    TABLE_WINDOW,
    AcceptErrorFilter,
    ConnectionCounter,
    OpeningWindow,
    TokenBucket,
    address_key,
)
from tichu.server.keys import CONNECTIONS

SERVER_BUSY = 105
TRY_AGAIN_LATER = 1013
POLICY_VIOLATION = 1008
#: The real defaults of the rate limit (the other server tests lift it).
DEFAULT_RATE = {"message_rate": Settings().message_rate, "message_burst": Settings().message_burst,
                "flood_close": Settings().flood_close}
#: Seconds the flooding test may take at most (a loaded machine sends slower and stalls).
FLOOD_DEADLINE = 60.0
#: The tests' clients are on loopback: these tests limit it like any other address.
LIMIT_LOOPBACK = {"loopback_exempt": False}


async def refused_busy(server: Server, query: str) -> Client:
    """Connect with ``query``: the server must answer ``SERVER_BUSY`` and close with 1013."""
    client = await server.raw(query)
    await client.wait_error(SERVER_BUSY)
    assert await client.wait_closed() == TRY_AGAIN_LATER
    assert [message["type"] for message in client.messages] == ["error"]
    return client


def query(player: str, table: str) -> str:
    """A join query."""
    return urlencode({"player_name": player, "table_name": table})


async def test_connections_per_address_are_limited_before_a_seat_is_taken(start_server: StartServer) -> None:
    """One address beyond ``max_connections_per_address``: 105 and close 1013, no seat taken;
    once one of its connections closes, it may connect again."""
    server = await start_server(max_connections_per_address=2, **LIMIT_LOOPBACK)
    first = await server.join("Anna", "t")
    await server.join("Bob", "t")
    await refused_busy(server, query("Cleo", "t"))
    assert [peer.name for peer in server.table("t").clients] == ["Anna", "Bob"]
    await first.drop()
    await eventually(lambda: server.app[CONNECTIONS].count == 1)
    await server.join("Cleo", "t")


async def test_connections_in_all_are_limited(start_server: StartServer) -> None:
    """Beyond ``max_connections`` in all: 105 and close 1013, whatever the address."""
    server = await start_server(max_connections=2)
    await server.join("Anna", "t")
    await server.join("Bob", "u")
    await refused_busy(server, query("Cleo", "v"))
    assert sorted(server.factory.tables) == ["t", "u"]


async def test_tables_in_all_are_limited_and_open_tables_stay_joinable(start_server: StartServer) -> None:
    """Opening a table beyond ``max_tables``: 105 and close 1013; joining an open table works."""
    server = await start_server(max_tables=2)
    await server.join("Anna", "t")
    await server.join("Bob", "u")
    await refused_busy(server, query("Cleo", "v"))
    await server.join("Cleo", "t")
    assert sorted(server.factory.tables) == ["t", "u"]


async def test_tables_opened_per_address_per_minute_are_limited(start_server: StartServer) -> None:
    """Opening more than ``tables_per_minute`` tables from one address: 105 and close 1013."""
    server = await start_server(tables_per_minute=2, **LIMIT_LOOPBACK)
    for table in ("t", "u"):
        client = await server.join("Anna", table)
        await client.drop()
    await refused_busy(server, query("Anna", "v"))


def test_the_table_window_forgets_old_openings_and_old_addresses() -> None:
    """An opening counts for :data:`TABLE_WINDOW` seconds; addresses without one are forgotten."""
    now = [0.0]
    window = OpeningWindow(2, clock=lambda: now[0])
    assert window.allow("a") and window.allow("a") and not window.allow("a")
    assert window.allow("b")
    now[0] = TABLE_WINDOW
    assert window.allow("c") and window.addresses() == 1
    assert window.allow("a") and window.allow("a") and not window.allow("a")
    assert not OpeningWindow(0).allow("a")


async def test_loopback_is_exempt_from_the_limits_per_address_by_default(start_server: StartServer) -> None:
    """With ``loopback_exempt`` (the default) clients on this machine are not limited per address,
    but the limits in all still hold."""
    server = await start_server(max_connections_per_address=1, tables_per_minute=1, max_connections=3)
    await server.join("Anna", "t")
    await server.join("Bob", "u")
    await server.join("Cleo", "u")
    await refused_busy(server, query("Dora", "u"))


def test_the_connection_counter_counts_back_down() -> None:
    """Released connections free their address (no entry stays for an address without one)."""
    counter = ConnectionCounter(per_address=1, total=2)
    assert counter.acquire("a") and not counter.acquire("a") and counter.acquire("b") and not counter.acquire("c")
    counter.release("a")
    counter.release("b")
    assert counter.count == 0 and counter.held("a") == 0 and not counter._by_address
    assert counter.acquire(None) and counter.acquire(None) and not counter.acquire(None)
    counter.release(None)
    assert counter.count == 1 and counter.held(None) == 0


async def test_a_burst_within_the_bucket_is_all_answered(start_server: StartServer) -> None:
    """30 messages at once (under the burst of 40) are all answered."""
    server = await start_server(**DEFAULT_RATE)
    client = await server.join("Anna", "t")
    start = len(client.messages)
    for _ in range(30):
        await client.send_type("ping")
    await client.wait_for(lambda m: len(client.messages) >= start + 30, start=start)
    assert [m["type"] for m in client.messages[start:]] == ["pong"] * 30


async def test_a_flooding_client_gets_105_then_close_1008_and_others_are_unaffected(
        start_server: StartServer) -> None:
    """Pings at ten times the rate: past the burst some are answered with 105 (and not
    processed), and after ``flood_close`` seconds of flooding the connection is closed (1008); a
    client at another table, well within the rate, gets every pong meanwhile.

    Issue 33, finding 9: the flooder sends in a task of its own, so that its rate does not hang
    on the other client's round trips on a slow machine; the test waits for the close with a
    long deadline and asserts no upper bound of time."""
    server = await start_server(**DEFAULT_RATE)
    flooder = await server.join("Anna", "t")
    other = await server.join("Bob", "u")
    sent = 0

    async def flood() -> None:
        nonlocal sent
        while not flooder.closed.is_set():
            for _ in range(20):
                if not flooder.closed.is_set():
                    await flooder.send_type("ping")
                    sent += 1
            await asyncio.sleep(0.1)

    pongs = 0
    started = time.monotonic()
    flooding = asyncio.create_task(flood())
    async with asyncio.timeout(FLOOD_DEADLINE):
        while not flooder.closed.is_set():
            assert await other.roundtrip({"type": "ping"}, timeout=FLOOD_DEADLINE) == []
            pongs += 1
            await asyncio.sleep(0.2)
        await flooding
    assert flooder.close_code == POLICY_VIOLATION
    assert time.monotonic() - started >= DEFAULT_RATE["flood_close"]
    busy = [message for message in flooder.messages if is_error(message, SERVER_BUSY)]
    answered = [message for message in flooder.messages if message["type"] == "pong"]
    assert busy and answered
    assert len(busy) + len(answered) <= sent
    assert pongs >= 1


async def test_a_client_that_does_not_read_is_cut_and_its_outbox_released(start_server: StartServer) -> None:
    """The server queues at most ``outbox_bytes`` for a client; beyond, it aborts the transport
    (no close handshake the client would have to read) and drops what was queued."""
    server = await start_server(outbox_bytes=64 * 1024, message_rate=1e6, message_burst=10**6)
    await server.join("Anna", "t")
    ws = await server.session.ws_connect(f"http://127.0.0.1:{server.port}/ws?{query('Bob', 't')}")
    await eventually(lambda: len(server.table("t").clients) == 2)
    peer = server.table("t").clients[1]
    connection = peer.connection
    assert connection is not None
    big = json.dumps({"type": "set_options", "payload": {"agent": "x" * 64}})  # each answered with an error
    async with asyncio.timeout(WAIT * 2):
        while not connection.closed:
            for _ in range(200):
                await ws.send_str(big)
            await asyncio.sleep(0)
    await eventually(lambda: peer.connection is None and server.app[CONNECTIONS].count == 1)
    assert connection.queued == 0 and connection._outbox.empty()
    assert connection.ws.closed or ws.closed
    await ws.close()


async def test_echoed_input_is_clipped_in_errors(start_server: StartServer) -> None:
    """A response whose ``action`` holds 16,000 emoji gets an error under 4 KiB that repeats at
    most 64 characters of it; so do huge cards and an unknown session."""
    server = await start_server()
    client = await server.join("Anna", "t")
    emoji = "\U0001F600" * 16_000
    start = len(client.messages)
    frame = json.dumps({"type": "response", "payload": {"request_id": "r", "action": emoji}}, ensure_ascii=False)
    assert len(frame.encode()) <= 64 * 1024  # under the frame limit: the server reads it
    await client.send(frame)
    await client.wait_for(lambda m: is_error(m), start=start)
    await client.send_type("bomb", cards=[[10**4000, 1]] * 14)
    await client.wait_for(lambda m: is_error(m), start=start + 1)
    for message in client.messages[start:]:
        assert len(json.dumps(message).encode()) < 4096, message
    context = client.messages[start]["payload"]["context"]
    assert context["action"] == "\U0001F600" * 63 + "…"
    refused = await server.raw(urlencode({"session_id": emoji[:500]}))  # the URL stays under 8 KiB
    _, error = await refused.wait_for(lambda m: is_error(m))
    assert len(json.dumps(error).encode()) < 4096
    assert len(error["payload"]["context"]["session_id"]) == 64


def test_accept_errors_are_logged_once_per_interval() -> None:
    """Of many accept errors within an interval one is logged; the next one after the interval
    says how many were dropped; other records pass."""
    now = [0.0]
    log_filter = AcceptErrorFilter(60.0, clock=lambda: now[0])

    def record(message: str) -> logging.LogRecord:
        return logging.LogRecord("asyncio", logging.ERROR, __file__, 1, message, None, None)

    accept = f"{ACCEPT_ERROR}\nexception: OSError(24, 'Too many open files')"
    passed = [log_filter.filter(record(accept)) for _ in range(10_000)]
    assert passed.count(True) == 1 and passed[0]
    assert log_filter.filter(record("another error"))
    now[0] = 60.0
    later = record(accept)
    assert log_filter.filter(later) and "9999 more accept errors" in later.getMessage()
    assert log_filter.suppressed == 0


def test_the_token_bucket_refills_at_its_rate_up_to_its_burst() -> None:
    """A full bucket gives ``burst`` tokens, then one per ``1 / rate`` seconds; it never holds
    more than ``burst``; a client back within the rate is no longer flooding."""
    now = [0.0]
    bucket = TokenBucket(10.0, 3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] = 0.5
    assert bucket.flooded_for() == 0.5
    now[0] = 100.0
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] = 100.15
    assert bucket.take() and bucket.flooding_since is not None
    now[0] = 101.0
    assert bucket.take() and bucket.flooding_since is None


async def test_a_client_from_another_address_is_not_limited_by_the_first(start_server: StartServer) -> None:
    """The per-address limit counts each address alone (127.0.0.2 next to 127.0.0.1)."""
    server = await start_server(max_connections_per_address=1, **LIMIT_LOOPBACK)
    await server.join("Anna", "t")
    await refused_busy(server, query("Bob", "t"))
    connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
    async with aiohttp.ClientSession(connector=connector) as session:
        ws = await session.ws_connect(f"http://127.0.0.1:{server.port}/ws?{query('Cleo', 't')}")
        message = await ws.receive_json(timeout=WAIT)
        assert message["payload"]["event"] == "player_joined"
        await ws.close()


@pytest.mark.parametrize(("address", "prefix", "key"), [
    ("2001:db8:1:2::1", 64, "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff:ffff:ffff:ffff", 64, "2001:db8:1:2::/64"),
    ("2001:db8:1:3::1", 64, "2001:db8:1:3::/64"),
    ("2001:db8:1:2::1", 48, "2001:db8:1::/48"),
    ("2001:db8:1:2::1", 128, "2001:db8:1:2::1/128"),
    ("fe80::1%eth0", 64, "fe80::/64"),
    ("198.51.100.7", 64, "198.51.100.7"),
    ("::ffff:198.51.100.7", 64, "198.51.100.7"),
    ("not an address", 64, "not an address"),
])
def test_an_ipv6_address_counts_by_its_network_an_ipv4_address_alone(address: str, prefix: int, key: str) -> None:
    """Issue 33, finding 6: the key of the limits per address is an IPv6 address's network of
    ``ipv6_prefix`` bits; IPv4 (also IPv4-mapped IPv6) counts per address."""
    assert address_key(address, prefix) == key


async def forwarded_join(server: Server, player: str, client: str, table: str = "t") -> aiohttp.ClientWebSocketResponse:
    """Join ``table`` through the trusted proxy 127.0.0.1, which forwards ``client``.

    :returns: The socket (closed with the server's session).
    """
    return await server.session.ws_connect(f"http://127.0.0.1:{server.port}/ws?{query(player, table)}",
                                           headers={"X-Forwarded-For": client})


async def first_message(ws: aiohttp.ClientWebSocketResponse) -> tuple[str, int | None]:
    """The first message's event (or error code), as ``(kind, code)``."""
    message = await ws.receive_json(timeout=WAIT)
    payload = message["payload"]
    return (message["type"], payload["code"]) if message["type"] == "error" else (payload["event"], None)


async def test_the_limit_per_address_counts_an_ipv6_network_as_one_client(start_server: StartServer) -> None:
    """Issue 33, finding 6: two connections per address; a third from another address of the
    same /64 is refused (105, close 1013); one from the next /64 is not. An IPv4-mapped address
    counts as its IPv4 address."""
    server = await start_server(max_connections_per_address=2, trusted_proxies="127.0.0.1")
    held = [await forwarded_join(server, player, client)
            for player, client in [("Anna", "2001:db8:1:2::1"), ("Bob", "2001:db8:1:2::2")]]
    assert [await first_message(ws) for ws in held] == [("player_joined", None)] * 2
    refused = await forwarded_join(server, "Cleo", "2001:db8:1:2:abcd::3")
    assert await first_message(refused) == ("error", SERVER_BUSY)
    await refused.receive(timeout=WAIT)
    assert refused.close_code == TRY_AGAIN_LATER
    other = await forwarded_join(server, "Dora", "2001:db8:1:3::1")
    assert await first_message(other) == ("player_joined", None)
    held = [await forwarded_join(server, player, client, "u")
            for player, client in [("Emil", "198.51.100.7"), ("Fina", "::ffff:198.51.100.7")]]
    assert [await first_message(ws) for ws in held] == [("player_joined", None)] * 2
    mapped = await forwarded_join(server, "Gert", "198.51.100.7", "u")
    assert await first_message(mapped) == ("error", SERVER_BUSY)


@pytest.mark.parametrize("value", ["0", "129", "-1", "x"])
def test_a_bad_ipv6_prefix_stops_the_server_naming_the_setting(value: str) -> None:
    """``TICHU_IPV6_PREFIX`` outside 1..128 (or no number) is an error naming the setting."""
    with pytest.raises(ValueError, match="TICHU_IPV6_PREFIX"):
        Settings.load({"TICHU_IPV6_PREFIX": value}, env_file=None)
