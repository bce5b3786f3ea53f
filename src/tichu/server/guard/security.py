"""The web edge's protections: allowed WebSocket origins, security headers, dev-only files, the access log.

- :class:`OriginPolicy`: a browser's ``Origin`` must be in ``TICHU_ALLOWED_ORIGINS`` or, by
  default, one of the server's own addresses on the server's port; the ``Host`` header is
  never consulted (a DNS-rebinding page sends a ``Host`` of its own choosing).
- :func:`add_security_headers`: a strict Content-Security-Policy and the other headers on
  every response, and ``Server: Tichu`` without versions.
- :func:`dev_only_files`: ``/tests.html`` and its scripts are 404 unless ``TICHU_DEV_MODE``.
- :class:`PathAccessLogger`: the access log without query strings (a reconnect carries its
  ``session_id``, a bearer token, in the query).
"""

from __future__ import annotations

import contextlib
import ipaddress
import posixpath
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.typedefs import Handler, Middleware

#: Headers every HTTP response carries. ``connect-src`` names ``ws:``/``wss:`` as well as
#: ``'self'`` because older Safari does not count a WebSocket to the page's host as ``'self'``.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; "
                               "form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
#: The ``Server`` header: no product versions.
SERVER_NAME = "Tichu"
#: Files of ``web/`` served only in development mode (the JavaScript unit tests).
DEV_ONLY_FILES = frozenset({"tests.html", "css/tests.css", "js/test-runner.js", "js/tests.js"})
#: Host names that always mean this machine.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
#: Listen addresses that stand for every interface rather than one address.
_WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::", "[::]"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


def normalize_origin(origin: str) -> str | None:
    """An origin as ``scheme://host[:port]``, lower case, without the scheme's default port.

    :param origin: An ``Origin`` header or an entry of ``TICHU_ALLOWED_ORIGINS``.
    :returns: The normalized origin, or ``None`` for anything that is not an http(s) origin.
    """
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), parts.hostname
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}" if port in (None, _DEFAULT_PORTS[scheme]) else f"{scheme}://{shown}:{port}"


def url_host(address: str) -> str:
    """An IP address or host name as it appears in a URL (IPv6 in brackets, IPv4-mapped as IPv4).

    :param address: A socket address's host, e.g. ``::ffff:192.168.1.20`` or ``fe80::1%eth0``.
    :returns: E.g. ``192.168.1.20`` or ``[fe80::1]``.
    """
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address.lower()
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ip.ipv4_mapped) if ip.ipv4_mapped else f"[{ip}]"
    return str(ip)


def machine_hosts() -> frozenset[str]:
    """This machine's names and addresses: loopback, its host name (and ``.local``), the name's addresses."""
    name = socket.gethostname()
    hosts = {*LOOPBACK_HOSTS, name.lower(), f"{name.lower()}.local"}
    with contextlib.suppress(OSError):  # a name that does not resolve: the names and the connection's address
        hosts.update(url_host(str(info[4][0])) for info in socket.getaddrinfo(name, None))
    return frozenset(hosts)


class OriginPolicy:
    """Which ``Origin`` may open the WebSocket.

    :param allowed: The origins of ``TICHU_ALLOWED_ORIGINS`` (empty: the server's own addresses).
    :param host: The address the server was started with (``TICHU_HOST``).
    :param port: The port it was started with (``TICHU_PORT``; 0 for a free one).
    :raises ValueError: For an entry of ``allowed`` that is not an http(s) origin.
    """

    def __init__(self, allowed: Iterable[str], host: str, port: int) -> None:
        self.allowed = frozenset(self._parse(entry) for entry in allowed if entry.strip())
        concrete = host.strip() not in _WILDCARD_HOSTS and port > 0
        self.started = frozenset(_origins([url_host(host.strip())], port) if concrete else ())
        self.hosts = machine_hosts()

    @staticmethod
    def _parse(entry: str) -> str:
        origin = normalize_origin(entry)
        if origin is None:
            raise ValueError(f"TICHU_ALLOWED_ORIGINS: {entry.strip()!r} is not an origin like http://192.168.1.20:8080")
        return origin

    def allows(self, request: web.Request) -> bool:
        """Whether the request's ``Origin`` may connect; a request without one (bots, tools) may.

        :param request: The WebSocket upgrade request.
        :returns: Whether it is allowed.
        """
        header = request.headers.get("Origin")
        if not header:
            return True
        origin = normalize_origin(header)
        if origin is None:
            return False
        if self.allowed:
            return origin in self.allowed
        return origin in self.started or origin in self._own_origins(request)

    def _own_origins(self, request: web.Request) -> set[str]:
        """The machine's addresses (and the one this connection arrived at) on the server's port."""
        local = request.transport.get_extra_info("sockname") if request.transport else None
        if not local:
            return set()
        address, port = str(local[0]), int(local[1])
        return _origins(self.hosts | {url_host(address)}, port)


def _origins(hosts: Iterable[str], port: int) -> set[str]:
    """The http and https origins of these hosts on this port."""
    origins = (normalize_origin(f"{scheme}://{host}:{port}") for scheme in _DEFAULT_PORTS for host in hosts)
    return {origin for origin in origins if origin}


async def add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """``on_response_prepare``: the security headers and a version-free ``Server`` on every response.

    :param request: The request answered.
    :param response: Its response, about to send its headers.
    """
    response.headers.update(SECURITY_HEADERS)
    response.headers["Server"] = SERVER_NAME


def dev_only_files(dev_mode: bool) -> Middleware:
    """A middleware that answers 404 for :data:`DEV_ONLY_FILES` unless in development mode.

    :param dev_mode: Whether the files are served (``TICHU_DEV_MODE``).
    :returns: The middleware.
    """

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not dev_mode and posixpath.normpath(request.path.lstrip("/")) in DEV_ONLY_FILES:
            raise web.HTTPNotFound()
        return await handler(request)

    return middleware


class PathAccessLogger(AbstractAccessLogger):
    """The access log: client address, method, path without query, status, size and seconds."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        """Log one answered request.

        :param request: The request.
        :param response: Its response.
        :param time: Seconds it took.
        """
        self.logger.info('%s "%s %s" %d %d %.3fs', request.remote, request.method, request.path, response.status,
                         response.body_length, time)
