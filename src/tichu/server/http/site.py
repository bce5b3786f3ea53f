"""The page and the server's health: ``/`` (``web/index.html``) and ``/healthz``."""

from __future__ import annotations

import asyncio
from pathlib import Path

from aiohttp import web

from tichu.server.keys import CONNECTIONS, FACTORY, STORE

#: The folder served at ``/``.
WEB_DIR = Path(__file__).resolve().parents[4] / "web"


def add_routes(app: web.Application) -> None:
    """Serve ``/``, ``/healthz`` and the files of ``web/`` (if present); add it after the other
    modules' routes, since the files' route takes every path under ``/`` it is asked first for."""
    app.router.add_get("/", index)
    app.router.add_get("/healthz", health)
    if WEB_DIR.is_dir():
        app.router.add_static("/", WEB_DIR, show_index=False, follow_symlinks=False)


async def health(request: web.Request) -> web.StreamResponse:
    """``/healthz`` for a service manager or a proxy: the server answers, with its load and
    whether its game store writes.

    :returns: ``{"status": "ok", "tables": n, "connections": m, "tasks": t, "store": {...}}`` as
        JSON (``tasks``: the asyncio tasks alive, this request's included; a count that keeps
        growing is a leak). ``status`` is ``"degraded"``, with a ``reason``, while writes are held
        because the disk fails them or the disk does not answer, and after writes were dropped
        (until a restart); the answer is still 200: the games go on, and a restart would lose the
        held writes.
    """
    health = request.app[STORE].health()
    answer = {"status": "ok" if health.ok else "degraded", "tables": len(request.app[FACTORY].tables),
              "connections": request.app[CONNECTIONS].count, "tasks": len(asyncio.all_tasks()),
              "store": health.to_json()}
    if not health.ok:
        answer["reason"] = health.reason()
    return web.json_response(answer)


async def index(request: web.Request) -> web.StreamResponse:
    """``/``: ``web/index.html`` (404 if the checkout has no ``web/``)."""
    index = WEB_DIR / "index.html"
    if not index.is_file():
        raise web.HTTPNotFound(text="web/index.html is missing")
    return web.FileResponse(index)
