"""The page and the server's health: ``/`` (``web/index.html``) and ``/healthz``."""

from __future__ import annotations

import asyncio
from importlib import resources
from pathlib import Path

from aiohttp import web

from tichu.server.keys import CONNECTIONS, FACTORY, STORE


def web_dir() -> Path:
    """The browser client's folder: the resource ``web`` of the package :mod:`tichu`.

    In a checkout ``src/tichu/web`` links to the top-level ``web/`` folder; an installed wheel
    holds a copy (package data). Either way it is a folder on the disk, which aiohttp serves
    (resolved: aiohttp follows no links below it).

    :raises RuntimeError: If the package is not on the disk (imported from a zip file).
    """
    folder = resources.files("tichu").joinpath("web")
    if not isinstance(folder, Path):
        raise RuntimeError(f"the package tichu must be installed as files to serve its page, not {folder!r}")
    return folder.resolve()


#: The folder served at ``/``.
WEB_DIR = web_dir()

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
