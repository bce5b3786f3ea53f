"""The HTTP API's rate limit per client address (:mod:`tichu.server.guard.http_rate`; issue 33,
finding 4: HTTP had no rate limit)."""

from __future__ import annotations

import aiohttp
import pytest

from tests.support.raw_client import StartServer
from tichu.server.config import Settings
from tichu.server.guard.forwarded import ClientAddress
from tichu.server.guard.http_rate import HttpRateLimit
from tichu.server.guard.limits import limit_key


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_an_address_over_its_burst_gets_429_and_the_page_still_loads(start_server: StartServer) -> None:
    """Issue 33, finding 4: past ``http_burst`` API requests an address gets 429 with
    ``Retry-After`` and the reason; the page's files and ``/healthz`` are not limited."""
    server = await start_server(loopback_exempt=False, http_burst=3, http_rate=0.01)
    async with aiohttp.ClientSession() as session:
        for _ in range(3):
            async with session.get(f"{server.url}api/tables") as response:
                assert response.status == 200
        async with session.get(f"{server.url}api/leaderboard") as response:
            assert response.status == 429
            assert int(response.headers["Retry-After"]) >= 1
            document = await response.json()
            assert document["error"] == "too_many_requests" and "3 requests at once" in document["reason"]
        for path in ("", "healthz", "", "healthz"):
            async with session.get(server.url + path) as response:
                assert response.status == 200


async def test_clients_on_this_machine_are_spared_when_loopback_is_exempt(start_server: StartServer) -> None:
    """Issue 33, finding 4: with ``loopback_exempt`` (the default) the limit spares local clients."""
    server = await start_server(http_burst=1, http_rate=0.01)
    async with aiohttp.ClientSession() as session:
        for _ in range(5):
            async with session.get(f"{server.url}api/tables") as response:
                assert response.status == 200


def test_the_bucket_refills_at_the_rate() -> None:
    """Issue 33, finding 4: a bucket gives ``burst`` requests at once, then one per ``1/rate``
    seconds; another address has its own bucket."""
    clock = Clock()
    limit = HttpRateLimit(rate=2.0, burst=2, clock=clock)
    assert [limit.take("a") for _ in range(2)] == [0.0, 0.0]
    assert limit.take("a") == 0.5
    assert limit.take("b") == 0.0
    clock.now = 0.5
    assert limit.take("a") == 0.0
    assert limit.take("a") > 0


def test_the_addresses_kept_are_bounded() -> None:
    """Issue 33, finding 4: at most ``limit`` addresses' buckets are kept, the least recently
    seen forgotten first (it starts again with a full bucket)."""
    clock = Clock()
    limit = HttpRateLimit(rate=1.0, burst=1, limit=3, clock=clock)
    for address in ("a", "b", "c"):
        assert limit.take(address) == 0.0
    assert limit.take("a") > 0  # seen again: now the most recent
    for number in range(1000):
        limit.take(f"d{number}")
        assert len(limit) <= 3
    assert len(limit) == 3
    assert limit.take("a") == 0.0  # forgotten, so a full bucket


def test_the_key_is_the_clients_address() -> None:
    """Issue 33, finding 4: the limit counts the client's address (behind a trusted proxy the one
    it forwards); a local client is spared only when loopback is exempt and it is not forwarded."""
    assert limit_key(ClientAddress("192.0.2.7"), loopback_exempt=True, ipv6_prefix=64) == "192.0.2.7"
    assert limit_key(ClientAddress("127.0.0.1"), loopback_exempt=True, ipv6_prefix=64) is None
    assert limit_key(ClientAddress("::1"), loopback_exempt=False, ipv6_prefix=128) == "::1/128"
    assert limit_key(ClientAddress("127.0.0.1", forwarded=True), loopback_exempt=True, ipv6_prefix=64) == "127.0.0.1"
    assert limit_key(ClientAddress("unix-socket"), loopback_exempt=True, ipv6_prefix=64) == "unix-socket"


def test_an_ipv6_client_is_counted_by_its_network() -> None:
    """Issue 33, finding 6: two addresses of one /64 share a bucket, as they share the socket limits."""
    one = limit_key(ClientAddress("2001:db8:1:2::7"), loopback_exempt=True, ipv6_prefix=64)
    other = limit_key(ClientAddress("2001:db8:1:2:ffff::1"), loopback_exempt=True, ipv6_prefix=64)
    assert one == other == "2001:db8:1:2::/64"
    assert limit_key(ClientAddress("2001:db8:1:3::7"), loopback_exempt=True, ipv6_prefix=64) != one


def test_the_settings_are_checked() -> None:
    """Issue 33, finding 4: ``TICHU_HTTP_RATE`` and ``TICHU_HTTP_BURST`` are read, and a rate of 0
    or a burst below 1 is refused with the setting's name."""
    loaded = Settings.load({"TICHU_HTTP_RATE": "2.5", "TICHU_HTTP_BURST": "7"}, env_file=None)
    assert (loaded.http_rate, loaded.http_burst) == (2.5, 7)
    for name, value in (("TICHU_HTTP_RATE", "0"), ("TICHU_HTTP_BURST", "0"), ("TICHU_HTTP_RATE", "-1")):
        with pytest.raises(ValueError, match=name):
            Settings.load({name: value}, env_file=None)
