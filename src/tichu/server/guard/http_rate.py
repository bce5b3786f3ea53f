"""The limit on HTTP API requests per client address, and a quiet log for malformed requests
(docs/server.md, "Limits").

Each client address has a token bucket of ``http_burst`` requests that refills at ``http_rate``
a second; a request to ``/api/`` takes one token, and one that finds the bucket empty gets 429
with ``Retry-After`` (the seconds until the next token) and ``{"error": ..., "reason": ...}``.
The page's files, ``/healthz`` and the WebSocket (which has limits of its own) take none. The
buckets of at most :data:`MAX_ADDRESSES` addresses are kept, the least recently seen forgotten
first (a forgotten address starts again with a full bucket).

aiohttp logs a request it cannot parse (a request line over 8 KiB, a malformed header) at ERROR
with a traceback before any route sees it; :class:`BadRequestFilter` turns that into one WARNING
line per interval, so a client cannot fill (and rotate away) the log with them.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.typedefs import Handler, Middleware

from tichu.server.guard.limits import LogThrottle

#: Client addresses whose buckets are kept at most (each some 200 bytes).
MAX_ADDRESSES = 10_000
#: The paths whose requests take a token (the page's files and ``/healthz`` take none).
LIMITED_PREFIX = "/api/"
#: Seconds between two warnings about requests aiohttp could not parse.
BAD_REQUEST_INTERVAL = 60.0
#: The logger aiohttp's server logs unparsable requests through.
AIOHTTP_SERVER_LOG = "aiohttp.server"

#: Finds the address a request's limit counts under (``None``: spared the limit).
KeyOf = Callable[[web.Request], str | None]


class HttpRateLimit:
    """Token buckets of HTTP requests per client address, for at most :data:`MAX_ADDRESSES` addresses.

    :ivar rate: Requests a second an address may make on average.
    :ivar burst: Requests an address may make at once.
    :ivar limit: Addresses whose buckets are kept.
    """

    def __init__(self, rate: float, burst: int, limit: int = MAX_ADDRESSES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """Start with no address seen.

        :param rate: Requests a second per address (more than 0).
        :param burst: Requests at once per address (at least 1).
        :param limit: Addresses whose buckets are kept (the least recently seen go first).
        :param clock: Gives the time in seconds.
        """
        self.rate = rate
        self.burst = max(1, burst)
        self.limit = max(1, limit)
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, key: str) -> float:
        """Take a token for one request from ``key``.

        :param key: The client's address (:func:`~tichu.server.guard.limits.limit_key`).
        :returns: 0 if there was one, else the seconds until there is (nothing taken).
        """
        now = self._clock()
        tokens, then = self._buckets.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        wait = 0.0
        if tokens >= 1.0:
            tokens -= 1.0
        else:
            wait = (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self.limit:
            self._buckets.popitem(last=False)
        return wait


def http_rate_limit(limit: HttpRateLimit, key_of: KeyOf) -> Middleware:
    """A middleware that answers 429 to an address over its HTTP API rate (see the module).

    :param limit: The buckets.
    :param key_of: The key a request counts under (``None``: not limited).
    """

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path.startswith(LIMITED_PREFIX):
            key = key_of(request)
            wait = limit.take(key) if key is not None else 0.0
            if wait > 0:
                reason = f"more than {limit.burst} requests at once or {limit.rate:g} a second; try again shortly"
                return web.Response(status=429, content_type="application/json",
                                    text=json.dumps({"error": "too_many_requests", "reason": reason}),
                                    headers={"Retry-After": str(max(1, math.ceil(wait)))})
        return await handler(request)

    return middleware


class BadRequestFilter(logging.Filter):
    """Turns aiohttp's ERROR (with a traceback) for a request it could not parse into one WARNING
    line per interval, which says how many came since the last one; other records pass as they are."""

    def __init__(self, interval: float = BAD_REQUEST_INTERVAL, clock: Callable[[], float] = time.monotonic) -> None:
        """Let the next such warning through.

        :param interval: Seconds between two warnings.
        :param clock: Gives the time in seconds.
        """
        super().__init__()
        self.throttle = LogThrottle(interval, clock)

    @property
    def suppressed(self) -> int:
        """Unparsable requests not logged since the last warning."""
        return self.throttle.suppressed

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether to log ``record``, made a WARNING without a traceback if it is an unparsable request.

        :param record: The record.
        :returns: Whether it is logged.
        """
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, HttpProcessingError):
            return True
        dropped = self.throttle.admit()
        if dropped is None:
            return False
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.msg = f"{record.getMessage()}: {error.code} {error.message[:200]}"
        record.msg += f" ({dropped} more since the last warning)" if dropped else ""
        record.args, record.exc_info, record.exc_text = None, None, None
        return True


def quiet_bad_requests(interval: float = BAD_REQUEST_INTERVAL) -> None:
    """Put a :class:`BadRequestFilter` on aiohttp's server logger, once (a later call keeps it).

    :param interval: Seconds between two warnings.
    """
    server_log = logging.getLogger(AIOHTTP_SERVER_LOG)
    if not any(isinstance(found, BadRequestFilter) for found in server_log.filters):
        server_log.addFilter(BadRequestFilter(interval))
