"""The server's HTTP routes: the page, its health, and the JSON APIs.

One convention for every module here: it has ``add_routes(app)``, which adds its routes (and any
resource they need, such as the replay processes) to the application, and its handlers read what
they need from ``request.app`` under the keys of :mod:`tichu.server.keys`.
:func:`tichu.server.app.create_app` calls the ``add_routes`` of :data:`ROUTES` in order.
"""

from __future__ import annotations

from collections.abc import Callable

from aiohttp import web

from tichu.server.http import analysis, history, lines, replay, site, tables

#: Every module's ``add_routes``, the site's last (its files' route takes every path under ``/``).
ROUTES: tuple[Callable[[web.Application], None], ...] = (
    history.add_routes, analysis.add_routes, replay.add_routes, lines.add_routes, tables.add_routes, site.add_routes)
