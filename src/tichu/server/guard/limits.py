"""The server's limits on what one client, and all of them, may take (docs/server.md, "Limits").

Each limit is a setting (:class:`~tichu.server.config.Settings`); what goes beyond one is
answered with ``SERVER_BUSY`` (105). Every count here is bounded: by the limits themselves,
or by forgetting what is older than its window.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections import deque
from collections.abc import Callable

from tichu.server.guard.forwarded import ClientAddress, parse_ip

#: Seconds over which tables opened per address are counted.
TABLE_WINDOW = 60.0
#: The start of the message asyncio logs when ``accept()`` fails for lack of resources (EMFILE...).
ACCEPT_ERROR = "socket.accept() out of system resource"


def address_key(address: str, ipv6_prefix: int) -> str:
    """What the limits per address count a client under: an IPv4 address alone, an IPv6 address
    by the network of its first ``ipv6_prefix`` bits.

    One IPv6 subscriber gets a whole /64 (or more) and may pick any address of it; counted per
    address, one client could open as many connections as it likes (issue 33, finding 6).

    :param address: The client's address; IPv4-mapped IPv6 counts as its IPv4 address, an IPv6
        zone (``%eth0``) is dropped, and what is no IP address is its own key.
    :param ipv6_prefix: Bits of an IPv6 address that name its network (1 to 128; 128: per address).
    :returns: The key, e.g. ``192.0.2.7`` or ``2001:db8:1:2::/64``.
    """
    parsed = parse_ip(address)
    if parsed is None:
        return address
    if isinstance(parsed, ipaddress.IPv4Address):
        return str(parsed)
    return str(ipaddress.IPv6Network((parsed, ipv6_prefix), strict=False))


def limit_key(client: ClientAddress, loopback_exempt: bool, ipv6_prefix: int) -> str | None:
    """The key every limit per address counts a client under (the sockets, the tables opened per
    minute, the HTTP API's rate): :func:`address_key` of its address, or ``None`` for a client on
    this machine when those are spared the limits (``loopback_exempt``; never one forwarded by a
    trusted proxy: the proxy is local, its clients are not).

    :param client: The client, as :class:`~tichu.server.guard.forwarded.ForwardedResolver` found it.
    :param loopback_exempt: The setting ``loopback_exempt``.
    :param ipv6_prefix: The setting ``ipv6_prefix``.
    :returns: The key, or ``None``.
    """
    if not client.forwarded and loopback_exempt:
        parsed = parse_ip(client.address)
        if parsed is not None and parsed.is_loopback:
            return None
    return address_key(client.address, ipv6_prefix)

class ConnectionCounter:
    """Open WebSockets, in all and per client address."""

    def __init__(self, per_address: int, total: int) -> None:
        """Start with no connection.

        :param per_address: Most connections from one address.
        :param total: Most connections in all.
        """
        self.per_address = per_address
        self.total = total
        self.count = 0
        self._by_address: dict[str, int] = {}

    def acquire(self, address: str | None) -> bool:
        """Count a new connection from ``address``.

        :param address: The client's address; ``None`` for one exempt from the limit per address.
        :returns: Whether it is within the limits (if not, nothing is counted).
        """
        if self.count >= self.total:
            return False
        if address is not None:
            held = self._by_address.get(address, 0)
            if held >= self.per_address:
                return False
            self._by_address[address] = held + 1
        self.count += 1
        return True

    def release(self, address: str | None) -> None:
        """Forget a connection counted by :meth:`acquire`.

        :param address: The address it was counted under.
        """
        if address is not None:
            held = self._by_address.pop(address) - 1
            if held:
                self._by_address[address] = held
        self.count -= 1

    def held(self, address: str | None) -> int:
        """Connections open from ``address`` (0 for ``None``).

        :param address: The address.
        :returns: The count.
        """
        return 0 if address is None else self._by_address.get(address, 0)


class OpeningWindow:
    """When each address opened its latest tables, within the last :data:`TABLE_WINDOW` seconds."""

    def __init__(self, per_window: int, clock: Callable[[], float] = time.monotonic) -> None:
        """Start with no table opened.

        :param per_window: Most tables one address may open per window.
        :param clock: Gives the time in seconds.
        """
        self.per_window = per_window
        self._clock = clock
        self._opened: dict[str, deque[float]] = {}

    def allow(self, address: str) -> bool:
        """Count a table that ``address`` opens now.

        :returns: Whether it is within the limit (if not, nothing is counted).
        """
        now = self._clock()
        self._opened = {key: times for key, times in self._opened.items() if now - times[-1] < TABLE_WINDOW}
        times = self._opened.setdefault(address, deque(maxlen=max(self.per_window, 1)))
        while times and now - times[0] >= TABLE_WINDOW:
            times.popleft()
        if len(times) >= self.per_window:
            if not times:
                del self._opened[address]
            return False
        times.append(now)
        return True

    def addresses(self) -> int:
        """Addresses remembered (those that opened a table within the window)."""
        return len(self._opened)


class TokenBucket:
    """A rate limit with bursts: ``rate`` tokens per second, at most ``burst`` saved up.

    :ivar flooding_since: When the bucket ran dry and has not been half full since (``None`` if not).
    """

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        """Start with a full bucket.

        :param rate: Tokens added per second.
        :param burst: Tokens the bucket holds.
        :param clock: Gives the time in seconds.
        """
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()
        self.flooding_since: float | None = None

    def take(self) -> bool:
        """Take a token for one message.

        :returns: Whether there was one. Once the bucket is half full again the client is
            within the rate again (:attr:`flooding_since` is cleared); a client that keeps
            sending faster than the rate, in bursts or not, never gets there.
        """
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            if self._tokens >= self.burst / 2:
                self.flooding_since = None
            return True
        if self.flooding_since is None:
            self.flooding_since = now
        return False

    def flooded_for(self) -> float:
        """Seconds since the bucket ran dry without getting half full again (0 if it did not)."""
        return 0.0 if self.flooding_since is None else self._clock() - self.flooding_since


class LogThrottle:
    """Lets one log record of a kind through per interval and counts the ones it drops: a kind
    that a client or the system can cause many times a second must not fill (and rotate away)
    the log.

    :ivar interval: Seconds between two records let through.
    :ivar suppressed: Records dropped since the last one let through.
    """

    def __init__(self, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        """Let the next record through.

        :param interval: Seconds between two records let through.
        :param clock: Gives the time in seconds.
        """
        self.interval = interval
        self._clock = clock
        self._last: float | None = None
        self.suppressed = 0

    def admit(self) -> int | None:
        """Whether a record may go now: ``None`` if not (it is counted), else how many were
        dropped before it (the count starts again).
        """
        now = self._clock()
        if self._last is not None and now - self._last < self.interval:
            self.suppressed += 1
            return None
        self._last, dropped, self.suppressed = now, self.suppressed, 0
        return dropped


class AcceptErrorFilter(logging.Filter):
    """Lets through one accept error (``EMFILE``...) per interval and counts the ones it drops.

    asyncio logs a failed ``accept()`` through the ``asyncio`` logger each time it retries,
    which under a file-descriptor exhaustion is many times a second.
    """

    def __init__(self, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        """Let the next accept error through.

        :param interval: Seconds between two accept errors let through.
        :param clock: Gives the time in seconds.
        """
        super().__init__()
        self.throttle = LogThrottle(interval, clock)

    @property
    def suppressed(self) -> int:
        """Accept errors dropped since the last one logged."""
        return self.throttle.suppressed

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether to log ``record``: anything but an accept error, or the first one per interval.

        :param record: The record.
        :returns: Whether it is logged; a logged accept error tells how many were dropped before it.
        """
        if not str(record.msg).startswith(ACCEPT_ERROR):
            return True
        dropped = self.throttle.admit()
        if dropped is None:
            return False
        if dropped:
            record.msg = f"{record.msg}\n({dropped} more accept errors were not logged)"
        return True
