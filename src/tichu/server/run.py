"""Running the server as a process: logging, the collector's thresholds, a bounded stop."""

from __future__ import annotations

import gc
import logging

from aiohttp import web

from tichu.server.app import create_app
from tichu.server.config import Settings
from tichu.server.guard import exit_guard
from tichu.server.guard.security import PathAccessLogger
from tichu.server.logs import configure_logging

log = logging.getLogger(__name__)


def run(settings: Settings) -> None:
    """Run the server until SIGINT or SIGTERM (aiohttp shuts down gracefully on both)."""
    configure_logging(settings)
    # Fewer, cheaper collections: the tables' objects are long-lived, and a full collection
    # over them is what shows as a pause of tens of milliseconds under load.
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)
    log.info("serving on http://%s:%d (agents: %s, hints: %s)", settings.host, settings.port, settings.agent,
             "on" if settings.hints else "off")
    app = create_app(settings)
    app.on_shutdown.insert(0, _arm_exit_guard)
    web.run_app(app, host=settings.host, port=settings.port, print=None,
                shutdown_timeout=5.0, access_log_class=PathAccessLogger)


async def _arm_exit_guard(_: web.Application) -> None:
    """The stop has begun: the process ends within :data:`exit_guard.EXIT_SECONDS` from now."""
    exit_guard.arm()
