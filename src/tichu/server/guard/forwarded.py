"""The client's address behind a reverse proxy (``TICHU_TRUSTED_PROXIES``; docs/server.md, "Limits").

Behind a proxy every connection comes from the proxy's address. For a connection whose peer is
a trusted proxy, the client is the right-most address of ``X-Forwarded-For`` (or, without that
header, of the ``for=`` parameters of RFC 7239 ``Forwarded``) that is not itself a trusted
proxy: each proxy appends the address it saw, so that address and everything right of it were
written by proxies the operator trusts, and everything left of it by the client (who may lie).
``X-Forwarded-For`` comes first because the common proxies (Caddy, nginx, HAProxy) write it and
pass a client's ``Forwarded`` on untouched.

From any other peer the headers are ignored: anyone can send them.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

log = logging.getLogger(__name__)

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
#: Seconds between two warnings about malformed forwarding headers.
WARN_INTERVAL = 60.0
#: The characters of an RFC 7230 ``token`` besides letters and digits.
_TOKEN_EXTRA = frozenset("!#$%&'*+-.^_`|~")


class MalformedHeader(ValueError):
    """A forwarding header that does not follow its syntax."""


@dataclass(frozen=True, slots=True)
class ClientAddress:
    """Whom a connection's limits per address count.

    :ivar address: The client's address (normalized: IPv4-mapped IPv6 as IPv4, no zone), or the
        peer's as it came when it is no IP address.
    :ivar forwarded: Whether it was found behind a trusted proxy (then the client is never
        spared the limits as a local one: the proxy is local, the client is not).
    """

    address: str
    forwarded: bool = False


def parse_ip(text: str) -> IPAddress | None:
    """An IP address, IPv4-mapped IPv6 as IPv4 and without an IPv6 zone (``%eth0``).

    :param text: The address.
    :returns: The address, or ``None`` for anything else.
    """
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def parse_trusted(text: str) -> tuple[IPNetwork, ...]:
    """The networks of ``TICHU_TRUSTED_PROXIES``: comma-separated addresses and CIDR networks.

    :param text: The setting, e.g. ``127.0.0.1, ::1, 10.0.0.0/8`` (empty: none).
    :returns: The networks (an address is a network of one).
    :raises ValueError: Naming the setting and the entry that is neither.
    """
    networks: list[IPNetwork] = []
    for entry in (part.strip() for part in text.split(",")):
        if not entry:
            continue
        try:
            network = ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ValueError(f"TICHU_TRUSTED_PROXIES: {entry!r} is not an IP address or network "
                             "(such as 127.0.0.1 or 10.0.0.0/8)") from None
        networks.append(network)
    return tuple(networks)


def x_forwarded_for(values: Sequence[str]) -> Iterator[IPAddress | None]:
    """The hops of ``X-Forwarded-For`` lines from the right (the nearest proxy's) to the left.

    An element is an address, optionally with a port (``192.0.2.1:443``, ``[2001:db8::1]:443``),
    or ``unknown`` (``None``: a proxy that did not know or hides its client). Each element is
    read only when its turn comes, so that what a client wrote left of its own address (spoofed,
    even malformed) is never read.

    :param values: The header's lines, in order (several lines are one comma-separated list).
    :returns: The hops, right to left.
    :raises MalformedHeader: (While iterating) For an empty element or one that is no address.
    """
    elements = [element.strip() for value in values for element in value.split(",")]
    for element in reversed(elements):
        if element.lower() == "unknown":
            yield None
            continue
        address = _node_address(element)
        if address is None:
            raise MalformedHeader(f"X-Forwarded-For element {element[:64]!r} is no address")
        yield address


def forwarded_for(values: Sequence[str]) -> list[IPAddress | None]:
    """The ``for=`` hops of RFC 7239 ``Forwarded`` lines from the right to the left.

    A node is an address (IPv6 in brackets, quoted), optionally with a port, ``unknown`` or an
    obfuscated identifier (``_hidden``); those two, and an element without ``for=``, are
    ``None``: a proxy that did not say whom it saw. (Quoted strings may hold commas, so the
    lines are read whole.)

    :param values: The header's lines, in order.
    :returns: The hops, right to left.
    :raises MalformedHeader: For anything that is not the header's syntax, a parameter twice in
        one element, or a ``for=`` node that is no node.
    """
    hops: list[IPAddress | None] = []
    for value in values:
        for element in _forwarded_elements(value):
            node = element.get("for")
            if node is None or node.lower() == "unknown" or node.startswith("_"):
                hops.append(None)
                continue
            address = _node_address(node)
            if address is None:
                raise MalformedHeader(f"Forwarded for={node[:64]!r} is no node")
            hops.append(address)
    hops.reverse()
    return hops


def _node_address(node: str) -> IPAddress | None:
    """The address of ``192.0.2.1``, ``192.0.2.1:80``, ``2001:db8::1``, ``[2001:db8::1]`` or
    ``[2001:db8::1]:80`` (the port a number or an obfuscated ``_port``); ``None`` otherwise."""
    if node.startswith("["):
        host, bracket, rest = node[1:].partition("]")
        if not bracket or (rest and not (rest.startswith(":") and _is_port(rest[1:]))):
            return None
        address = parse_ip(host)
        return address if isinstance(address, ipaddress.IPv6Address) else None
    if node.count(":") == 1:
        host, _, port = node.partition(":")
        address = parse_ip(host) if _is_port(port) else None
        return address if isinstance(address, ipaddress.IPv4Address) else None
    return parse_ip(node)


def _is_port(text: str) -> bool:
    return (text.isascii() and text.isdigit() and int(text) <= 65535) or (len(text) > 1 and text[0] == "_")


def _is_tchar(char: str) -> bool:
    return (char.isascii() and char.isalnum()) or char in _TOKEN_EXTRA


def _forwarded_elements(value: str) -> list[dict[str, str]]:
    """Split one ``Forwarded`` line into its elements' ``name=value`` pairs (names lowercase,
    quoted values unquoted).

    :raises MalformedHeader: For a pair without ``=``, an empty name or value, an unclosed quote,
        text after a quoted value, or a name twice in one element.
    """
    elements: list[dict[str, str]] = []
    pairs: dict[str, str] = {}
    index, length = 0, len(value)
    while True:
        while index < length and value[index] in " \t":
            index += 1
        name_start = index
        while index < length and _is_tchar(value[index]):
            index += 1
        name = value[name_start:index].lower()
        if not name or index >= length or value[index] != "=":
            raise MalformedHeader(f"Forwarded {value[:64]!r}: a parameter is not name=value")
        index += 1
        if index < length and value[index] == '"':
            text, index = _quoted(value, index)
        else:
            token_start = index
            while index < length and _is_tchar(value[index]):
                index += 1
            text = value[token_start:index]
            if not text:
                raise MalformedHeader(f"Forwarded {value[:64]!r}: {name}= has no value")
        if name in pairs:
            raise MalformedHeader(f"Forwarded {value[:64]!r}: {name}= twice in one element")
        pairs[name] = text
        while index < length and value[index] in " \t":
            index += 1
        if index >= length:
            elements.append(pairs)
            return elements
        if value[index] == ",":
            elements.append(pairs)
            pairs = {}
        elif value[index] != ";":
            raise MalformedHeader(f"Forwarded {value[:64]!r}: unexpected {value[index]!r}")
        index += 1


def _quoted(value: str, index: int) -> tuple[str, int]:
    """The text of the quoted string at ``value[index]`` (a ``"``) and the index after it."""
    chars: list[str] = []
    index += 1
    while index < len(value):
        char = value[index]
        if char == '"':
            return "".join(chars), index + 1
        if char == "\\" and index + 1 < len(value):
            index += 1
            char = value[index]
        chars.append(char)
        index += 1
    raise MalformedHeader(f"Forwarded {value[:64]!r}: a quoted value is not closed")


class ForwardedResolver:
    """Finds a connection's client address, through the trusted proxies' headers.

    :ivar trusted: The trusted proxies' networks.
    :ivar malformed: Malformed headers seen since the last warning.
    """

    def __init__(self, trusted: Iterable[IPNetwork], clock: Callable[[], float] = time.monotonic,
                 interval: float = WARN_INTERVAL) -> None:
        """Trust these networks.

        :param trusted: The proxies' networks (:func:`parse_trusted`).
        :param clock: Gives the time in seconds.
        :param interval: Seconds between two warnings about malformed headers.
        """
        self.trusted = tuple(trusted)
        self._clock = clock
        self._interval = interval
        self._warned: float | None = None
        self.malformed = 0

    def is_trusted(self, address: IPAddress | None) -> bool:
        """Whether ``address`` is a trusted proxy."""
        return address is not None and any(address in network for network in self.trusted)

    def resolve(self, peer: str, x_forwarded: Sequence[str], forwarded: Sequence[str]) -> ClientAddress:
        """The client of a connection.

        :param peer: The socket's peer address (``request.remote``).
        :param x_forwarded: The request's ``X-Forwarded-For`` lines.
        :param forwarded: The request's ``Forwarded`` lines (read without ``X-Forwarded-For``).
        :returns: The peer itself unless it is a trusted proxy that sent a forwarding header;
            then the right-most hop that is not a trusted proxy. For a hop that is ``unknown``
            or obfuscated, the trusted proxy that wrote it; for a chain of trusted proxies only,
            its left-most; for a malformed header, the peer.
        """
        peer_ip = parse_ip(peer)
        if peer_ip is None:
            return ClientAddress(peer)
        if not self.is_trusted(peer_ip):
            return ClientAddress(str(peer_ip))
        if not x_forwarded and not forwarded:
            return ClientAddress(str(peer_ip))
        reporter = peer_ip
        try:
            for hop in x_forwarded_for(x_forwarded) if x_forwarded else forwarded_for(forwarded):
                if hop is None:
                    break
                reporter = hop
                if not self.is_trusted(hop):
                    break
        except MalformedHeader as error:
            self._warn(peer, error)
            return ClientAddress(str(peer_ip), forwarded=True)
        return ClientAddress(str(reporter), forwarded=True)

    def _warn(self, peer: str, error: MalformedHeader) -> None:
        """Log a malformed header, at most once per interval (with how many came since)."""
        self.malformed += 1
        now = self._clock()
        if self._warned is not None and now - self._warned < self._interval:
            return
        self._warned = now
        log.warning("a malformed forwarding header from the proxy %s (%d since the last warning): %s; "
                    "the client counts as the proxy's address", peer, self.malformed, error)
        self.malformed = 0
