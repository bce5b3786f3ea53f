"""The application's keys: every object the app holds for its handlers, in one place.

Handlers read what they need from ``request.app[KEY]``; :func:`tichu.server.app.create_app`
and its cleanup contexts set them.
"""

from __future__ import annotations

from aiohttp import web

from tichu.server.config import Settings
from tichu.server.guard.forwarded import ForwardedResolver
from tichu.server.guard.limits import ConnectionCounter
from tichu.server.guard.memory import Sweeper
from tichu.server.guard.security import OriginPolicy
from tichu.server.tables.agent_seat import AgentFactory
from tichu.server.tables.factory import GameFactory
from tichu.server.workers.agent_pool import AgentPool
from tichu.server.workers.analysis_runner import AnalysisRunner, Steps
from tichu.server.workers.replay_pool import ReplayPool
from tichu.server.workers.store_writer import StoreWriter

SETTINGS = web.AppKey("settings", Settings)
FACTORY = web.AppKey("factory", GameFactory)
STORE = web.AppKey("store", StoreWriter)
#: The game store's file in the data folder (:mod:`tichu.records.store`).
STORE_FILE = "tichu.sqlite3"
POOL = web.AppKey("pool", AgentPool)
ANALYSES = web.AppKey("analyses", AnalysisRunner)
ANALYSIS_STEPS = web.AppKey("analysis_steps", Steps)
CONNECTIONS = web.AppKey("connections", ConnectionCounter)
AGENTS: web.AppKey[AgentFactory] = web.AppKey("agents")
ORIGINS = web.AppKey("origins", OriginPolicy)
FORWARDED = web.AppKey("forwarded", ForwardedResolver)
SWEEPER = web.AppKey("sweeper", Sweeper)
REPLAYS = web.AppKey("replays", ReplayPool)
