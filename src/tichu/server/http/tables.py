"""``GET /api/tables``: the open tables, for the login view and the lobby to offer "Watch".

The list is public and small: per table its name, the names at its seats (agents as
``Bot N``), how many people sit there, whether a game runs and in which phase, how many
watch and whether it admits spectators. A table where no person sits and no game runs (its
people gone, agents only, waiting to be closed) is not listed: there is nothing to watch.
At most :data:`MAX_LISTED` tables are listed (running ones first, then by name);
``truncated`` says whether more are open.
"""

from __future__ import annotations

from typing import TypedDict

from aiohttp import web

from tichu.server.keys import FACTORY
from tichu.server.tables.factory import GameFactory
from tichu.server.tables.table import Table

#: The most tables the list holds.
MAX_LISTED = 50


class TableEntry(TypedDict):
    """One table of the list (see :func:`table_entry`)."""

    name: str
    players: list[str]
    people: int
    running: bool
    phase: str
    spectators: int
    spectators_limit: int
    watchable: bool


class TableList(TypedDict):
    """The answer of ``GET /api/tables`` (see :func:`table_list`)."""

    tables: list[TableEntry]
    truncated: bool


def table_entry(table: Table) -> TableEntry:
    """One table of the list: ``{name, players, people, running, phase, spectators,
    spectators_limit, watchable}``."""
    spectators = table.spectators
    return {"name": table.name, "players": list(table.info.player_names), "people": len(table.clients),
            "running": table.is_running, "phase": table.info.phase.value, "spectators": len(spectators),
            "spectators_limit": spectators.limit,
            "watchable": spectators.admits}


def is_listed(table: Table) -> bool:
    """Whether the list shows a table: a game runs there, or a person sits there (connected or
    within the grace period). A lobby or a finished game left to agents only is waiting to be
    closed (Issue 35, finding 9: agent-only lobbies lingered in "Tables to watch"). A table
    that plays another line of a stored game is one person's practice: never listed."""
    return table.line is None and (table.is_running or bool(table.clients))


def table_list(factory: GameFactory, limit: int = MAX_LISTED) -> TableList:
    """``{tables: [...], truncated}``: the listed tables (:func:`is_listed`), running ones
    first, then by name."""
    tables = sorted(filter(is_listed, factory.tables.values()),
                    key=lambda table: (not table.is_running, table.name.casefold()))
    return {"tables": [table_entry(table) for table in tables[:limit]], "truncated": len(tables) > limit}


def add_routes(app: web.Application) -> None:
    """Serve ``GET /api/tables`` from the application's factory (``app[FACTORY]``)."""
    app.router.add_get("/api/tables", tables)


async def tables(request: web.Request) -> web.StreamResponse:
    """``GET /api/tables``: the open tables (:func:`table_list`), never cached."""
    return web.json_response(table_list(request.app[FACTORY]), headers={"Cache-Control": "no-store"})
