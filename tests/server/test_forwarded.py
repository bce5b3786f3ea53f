"""The client's address behind a trusted proxy (:mod:`tichu.server.guard.forwarded`): which hop of
``X-Forwarded-For`` / ``Forwarded`` is the client, spoofed chains, IPv6, ports, quoted values,
obfuscated identifiers, malformed headers and the setting ``TICHU_TRUSTED_PROXIES``."""

from __future__ import annotations

import ipaddress
import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tichu.server.config import Settings
from tichu.server.guard.forwarded import ClientAddress, ForwardedResolver, forwarded_for, parse_trusted, x_forwarded_for

PROXY = "127.0.0.1"
#: A proxy on this machine and a second one in the local network (a chain of two).
TRUSTED = "127.0.0.1, ::1, 10.0.0.0/8"


def resolver(trusted: str = TRUSTED) -> ForwardedResolver:
    return ForwardedResolver(parse_trusted(trusted))


def via_proxy(xff: list[str] | None = None, forwarded: list[str] | None = None,
              peer: str = PROXY) -> ClientAddress:
    return resolver().resolve(peer, xff or [], forwarded or [])




def is_untrusted(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether an address is outside :data:`TRUSTED` (and no IPv4-mapped one, which counts as IPv4)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return False
    return not any(address in network for network in parse_trusted(TRUSTED))


untrusted = st.ip_addresses().filter(is_untrusted)
trusted_hops = st.lists(st.sampled_from(["10.1.2.3", "10.0.0.1", "127.0.0.1", "::1"]), max_size=3)
#: Whatever a client may write left of its own address: addresses, garbage, quotes, "unknown".
spoofed = st.lists(st.one_of(st.ip_addresses().map(str), st.text(alphabet=st.characters(exclude_characters=","),
                                                                   max_size=20)), max_size=4)


def xff_node(address: ipaddress.IPv4Address | ipaddress.IPv6Address, port: int | None) -> str:
    """An address as proxies write it in ``X-Forwarded-For`` (IPv6 bracketed when with a port)."""
    if port is None:
        return str(address)
    return f"{address}:{port}" if address.version == 4 else f"[{address}]:{port}"


def forwarded_node(address: ipaddress.IPv4Address | ipaddress.IPv6Address, port: int | None) -> str:
    """An address as a ``for=`` value of RFC 7239 (quoted when it must be)."""
    if address.version == 4 and port is None:
        return str(address)
    host = str(address) if address.version == 4 else f"[{address}]"
    return f'"{host}"' if port is None else f'"{host}:{port}"'


@given(spoofed, untrusted, st.none() | st.integers(0, 65535), trusted_hops, st.booleans())
def test_the_client_is_the_right_most_untrusted_hop_whatever_it_spoofed(
        prefix: list[str], client: ipaddress.IPv4Address | ipaddress.IPv6Address, port: int | None,
        proxies: list[str], split_lines: bool) -> None:
    """``spoofed..., client, trusted proxies...``: the client, whatever it wrote before itself
    (garbage included: it is never read), in one header line or several."""
    hops = [*prefix, xff_node(client, port), *proxies]
    lines = hops if split_lines else [", ".join(hops)]
    assert via_proxy(lines) == ClientAddress(str(client), forwarded=True)


@given(st.lists(untrusted, max_size=3), untrusted, st.none() | st.integers(0, 65535), trusted_hops)
def test_forwarded_names_the_right_most_untrusted_for(prefix: list[ipaddress.IPv4Address | ipaddress.IPv6Address],
                                                    client: ipaddress.IPv4Address | ipaddress.IPv6Address,
                                                    port: int | None, proxies: list[str]) -> None:
    """RFC 7239: the same rule over the ``for=`` parameters, among others, quoted as needed."""
    elements = [f"for={forwarded_node(hop, None)}" for hop in prefix]
    elements.append(f"For={forwarded_node(client, port)};proto=https;by=_proxy;host=\"tichu.example.org\"")
    elements += [f"for={forwarded_node(ipaddress.ip_address(hop), None)}" for hop in proxies]
    assert via_proxy(forwarded=[", ".join(elements)]) == ClientAddress(str(client), forwarded=True)


@given(st.text(max_size=60), st.text(max_size=60), untrusted)
def test_headers_from_an_untrusted_peer_are_ignored(xff: str, forwarded: str,
                                                    peer: ipaddress.IPv4Address | ipaddress.IPv6Address) -> None:
    """A peer that is no trusted proxy is the client, whatever it claims."""
    assert resolver().resolve(str(peer), [xff], [forwarded]) == ClientAddress(str(peer))


def test_without_trusted_proxies_the_peer_is_always_the_client() -> None:
    """The default (no trusted proxy): the headers play no part, not even from loopback."""
    assert resolver("").resolve(PROXY, ["203.0.113.7"], ['for="203.0.113.8"']) == ClientAddress(PROXY)


def test_a_trusted_proxy_without_a_header_is_the_client_itself() -> None:
    """A local client that does not come through the proxy (a script on the Pi) stays itself,
    not forwarded (the loopback exemption may apply to it)."""
    assert via_proxy() == ClientAddress(PROXY, forwarded=False)


def test_ipv6_ports_and_mapped_addresses() -> None:
    """IPv6 with and without brackets and ports; IPv4-mapped peers and hops count as IPv4;
    zones are dropped."""
    assert via_proxy(["2001:db8::7"]).address == "2001:db8::7"
    assert via_proxy(["[2001:DB8::7]:443"]).address == "2001:db8::7"
    assert via_proxy(["203.0.113.7:51234"]).address == "203.0.113.7"
    assert via_proxy(["::ffff:203.0.113.7"]).address == "203.0.113.7"
    assert via_proxy(["203.0.113.7"], peer="::ffff:127.0.0.1").address == "203.0.113.7"
    assert via_proxy(["fe80::1%eth0"]).address == "fe80::1"
    assert via_proxy(forwarded=['for="[2001:db8:cafe::17]:4711"']).address == "2001:db8:cafe::17"
    assert via_proxy(forwarded=['for="[2001:db8:cafe::17]"']).address == "2001:db8:cafe::17"
    assert via_proxy(forwarded=['for="203.0.113.7:_port"']).address == "203.0.113.7"


def test_unknown_and_obfuscated_hops_count_as_the_proxy_that_wrote_them() -> None:
    """``unknown`` and ``_hidden``: the client is hidden by the trusted proxy right of it, which
    is then the address that counts (not exempt as local, since it is forwarded)."""
    assert via_proxy(["198.51.100.1, unknown"]) == ClientAddress(PROXY, forwarded=True)
    assert via_proxy(["198.51.100.1, unknown, 10.1.2.3"]) == ClientAddress("10.1.2.3", forwarded=True)
    assert via_proxy(forwarded=["for=198.51.100.1, for=_hidden"]) == ClientAddress(PROXY, forwarded=True)
    assert via_proxy(forwarded=['for="_hidden:_port", for=10.1.2.3']) == ClientAddress("10.1.2.3", forwarded=True)
    assert via_proxy(forwarded=["for=unknown;proto=https"]) == ClientAddress(PROXY, forwarded=True)
    assert via_proxy(forwarded=["proto=https"]) == ClientAddress(PROXY, forwarded=True)


def test_a_chain_of_trusted_proxies_only_is_its_left_most() -> None:
    assert via_proxy(["10.0.0.5, 10.0.0.6"]) == ClientAddress("10.0.0.5", forwarded=True)


def test_x_forwarded_for_comes_before_forwarded() -> None:
    """Caddy and nginx write ``X-Forwarded-For`` and pass a client's ``Forwarded`` on as it came."""
    assert via_proxy(["198.51.100.1"], ['for="203.0.113.66"']).address == "198.51.100.1"


@pytest.mark.parametrize(("xff", "forwarded"), [
    (["not-an-address"], []),
    (["198.51.100.1, "], []),
    (["198.51.100.1:99999999"], []),
    (["[2001:db8::1"], []),
    (["198.51.100.1:80:80"], []),
    ([], ["for"]),
    ([], ["for="]),
    ([], ['for="[2001:db8::1]:80']),
    ([], ["for=2001:db8::1"]),
    ([], ["for=198.51.100.1;for=198.51.100.2"]),
    ([], ['for="198.51.100.1"x']),
    ([], ["for=not-an-address"]),
    ([], ["for=198.51.100.1,"]),
])
def test_a_malformed_header_counts_as_the_proxy(xff: list[str], forwarded: list[str]) -> None:
    """A header that the trusted proxy sent malformed: the proxy's own address, forwarded (never
    exempt as local)."""
    assert via_proxy(xff, forwarded) == ClientAddress(PROXY, forwarded=True)


def test_malformed_headers_are_logged_once_per_interval(caplog: pytest.LogCaptureFixture) -> None:
    """Not per request: one warning, then the next after the interval, with the count between."""
    now = [0.0]
    forwarded = ForwardedResolver(parse_trusted(PROXY), clock=lambda: now[0], interval=60.0)
    with caplog.at_level(logging.WARNING, logger="tichu.server.guard.forwarded"):
        for second in range(120):
            now[0] = float(second)
            forwarded.resolve(PROXY, ["bogus"], [])
    warnings = [record.getMessage() for record in caplog.records]
    assert len(warnings) == 2
    assert "(1 since the last warning)" in warnings[0] and "(60 since the last warning)" in warnings[1]


def test_hops_are_read_from_the_right() -> None:
    """The parsers give the nearest hop first; ``X-Forwarded-For`` only as far as it is read."""
    hops = x_forwarded_for(["garbage, 198.51.100.1", "10.0.0.1"])
    assert [next(hops), next(hops)] == [ipaddress.ip_address("10.0.0.1"), ipaddress.ip_address("198.51.100.1")]
    assert forwarded_for(['for=198.51.100.1;proto=http, for="\\_x\\"y,z"']) == [None, ipaddress.ip_address(
        "198.51.100.1")]


def test_the_setting_takes_addresses_and_networks() -> None:
    assert parse_trusted("") == ()
    assert [str(net) for net in parse_trusted(" 127.0.0.1 ,::1,10.0.0.0/8, 192.168.1.7/24")] == [
        "127.0.0.1/32", "::1/128", "10.0.0.0/8", "192.168.1.0/24"]
    assert Settings.load({"TICHU_TRUSTED_PROXIES": "127.0.0.1"}, env_file=None).trusted_proxies == "127.0.0.1"
    assert Settings().trusted_proxies == ""


@pytest.mark.parametrize("value", ["localhost", "127.0.0.1/33", "127.0.0.1 10.0.0.1", "caddy:80"])
def test_a_bad_setting_stops_the_server_naming_it(value: str) -> None:
    with pytest.raises(ValueError, match="TICHU_TRUSTED_PROXIES"):
        Settings.load({"TICHU_TRUSTED_PROXIES": value}, env_file=None)
