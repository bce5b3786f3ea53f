"""The aiohttp application: ``web/`` as static files at ``/`` and the WebSocket at ``/ws``.

:func:`create_app` only wires routes, settings and resources; the WebSocket handler
turns frames into calls on the :class:`~tichu.server.tables.factory.GameFactory`, its tables
and their peers, and answers every refused message with an ``error`` (protocol.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from aiohttp import web

from tichu.server.config import Settings
from tichu.server.guard.forwarded import ForwardedResolver, parse_trusted
from tichu.server.guard.http_rate import HttpRateLimit, http_rate_limit, quiet_bad_requests
from tichu.server.guard.limits import ConnectionCounter, limit_key
from tichu.server.guard.memory import Sweeper, sweep_after
from tichu.server.guard.security import OriginPolicy, add_security_headers, dev_only_files
from tichu.server.http import ROUTES
from tichu.server.keys import (
    AGENTS,
    ANALYSES,
    ANALYSIS_STEPS,
    CONNECTIONS,
    FACTORY,
    FORWARDED,
    ORIGINS,
    POOL,
    SETTINGS,
    STORE,
    STORE_FILE,
    SWEEPER,
)
from tichu.server.tables.agent_seat import AgentFactory, registry_agent
from tichu.server.tables.factory import GameFactory
from tichu.server.workers.agent_pool import AgentPool, worker_count
from tichu.server.workers.analysis_runner import ANALYSIS, AnalysisRunner, Steps
from tichu.server.workers.store_writer import StoreWriter
from tichu.server.ws.handler import websocket_handler


def create_app(settings: Settings | None = None, *, agents: AgentFactory = registry_agent,
               analysis_steps: Steps = ANALYSIS) -> web.Application:
    """Build the application.

    :param settings: (Optional) The settings; :meth:`Settings.load` if omitted.
    :param agents: (Optional) Makes the agents of empty seats (tests pass seeded ones).
    :param analysis_steps: (Optional) The steps of a game's analysis (tests watch them).
    :returns: The application.
    :raises ValueError: For an entry of ``TICHU_ALLOWED_ORIGINS`` that is not an origin, or of
        ``TICHU_TRUSTED_PROXIES`` that is no address or network.
    """
    settings = settings or Settings.load()
    sweeper = Sweeper()
    forwarded = ForwardedResolver(parse_trusted(settings.trusted_proxies))
    quiet_bad_requests()

    def http_key(request: web.Request) -> str | None:
        client = forwarded.resolve(request.remote or "", request.headers.getall("X-Forwarded-For", []),
                                   request.headers.getall("Forwarded", []))
        return limit_key(client, settings.loopback_exempt, settings.ipv6_prefix)

    app = web.Application(middlewares=[
        http_rate_limit(HttpRateLimit(settings.http_rate, settings.http_burst), http_key), sweep_after(sweeper),
        dev_only_files(settings.dev_mode)])
    app[SWEEPER] = sweeper
    app[SETTINGS] = settings
    app[AGENTS] = agents
    app[ANALYSIS_STEPS] = analysis_steps
    app[ORIGINS] = OriginPolicy(settings.allowed_origins.split(","), settings.host, settings.port)
    app[FORWARDED] = forwarded
    app.on_response_prepare.append(add_security_headers)
    app[CONNECTIONS] = ConnectionCounter(app[SETTINGS].max_connections_per_address, app[SETTINGS].max_connections)
    app.cleanup_ctx.append(_pool_context)
    app.cleanup_ctx.append(_factory_context)
    app.on_shutdown.append(_on_shutdown)
    app.on_cleanup.append(_stop_sweeping)
    app.router.add_get("/ws", websocket_handler)
    for add_routes in ROUTES:
        add_routes(app)
    return app


async def _pool_context(app: web.Application) -> AsyncIterator[None]:
    """The agent pool lives as long as the app (its processes start with the first decision);
    it stops after the tables: decisions still running are stopped, every worker within a
    bound (:meth:`AgentPool.shutdown`)."""
    app[POOL] = AgentPool(worker_count(app[SETTINGS].agent_workers), background_nice=app[SETTINGS].analysis_nice)
    yield
    await app[POOL].shutdown()


async def _factory_context(app: web.Application) -> AsyncIterator[None]:
    """Open the game store (in its writer thread), rebuild the games a stop or crash left running,
    open the lobbies kept at the last stop and queue the analyses a stop interrupted; at the end
    keep every table for the next start (:meth:`GameFactory.shutdown`), stop analysing and then
    close the store (its queue written)."""
    settings = app[SETTINGS]
    store = app[STORE] = await asyncio.to_thread(StoreWriter, settings.data_dir / STORE_FILE)
    try:
        runner = app[ANALYSES] = AnalysisRunner(store, app[POOL], app[ANALYSIS_STEPS], settings.analysis_samples)
        app[FACTORY] = GameFactory(settings, store, app[POOL], agents=app[AGENTS],
                                   on_finished=runner.game_finished if settings.analysis == "all" else None)
        app[FACTORY].restore(await store.read(lambda games: games.running.games()))
        app[FACTORY].reopen_lobbies(await store.read(lambda games: games.running.take_lobbies()))
        if settings.analysis != "off":
            await runner.start()
        try:
            yield
            await app[FACTORY].shutdown()
        finally:
            await runner.stop()
    finally:
        await asyncio.to_thread(store.close)


async def _on_shutdown(app: web.Application) -> None:
    await app[FACTORY].shutdown()


async def _stop_sweeping(app: web.Application) -> None:
    app[SWEEPER].close()
