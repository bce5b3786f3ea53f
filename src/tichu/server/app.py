"""The aiohttp application: ``web/`` as static files at ``/`` and the WebSocket at ``/ws``.

:func:`create_app` only wires routes, settings and resources; the WebSocket handler
turns frames into calls on the :class:`~tichu.server.factory.GameFactory`, its tables
and their peers, and answers every refused message with an ``error`` (protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import json
import logging
from collections.abc import AsyncIterator
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.typedefs import Handler, Middleware

from tichu.core.round import ActionKind
from tichu.server import analysis_api, exit_guard, history_api, tables_api
from tichu.server.agent_pool import AgentPool, worker_count
from tichu.server.analysis_runner import ANALYSIS, AnalysisRunner, Steps
from tichu.server.codes import ErrorCode
from tichu.server.config import Settings
from tichu.server.connection import Connection, WebSocket
from tichu.server.factory import GameFactory
from tichu.server.forwarded import ForwardedResolver, parse_trusted
from tichu.server.limits import AcceptErrorFilter, ConnectionCounter, TokenBucket
from tichu.server.memory import Sweeper
from tichu.server.peer import Peer
from tichu.server.protocol import (
    MAX_FRAME_HARD,
    ProtocolError,
    cards_from_json,
    clean_name,
    clean_player_name,
    error_message,
    optional,
    parse_message,
    require,
)
from tichu.server.replay_api import setup_replay_api
from tichu.server.security import OriginPolicy, PathAccessLogger, add_security_headers, dev_only_files
from tichu.server.spectate import serve_spectator, wants_to_spectate
from tichu.server.storage import StoreWriter
from tichu.server.table import AgentFactory, Table, registry_agent

log = logging.getLogger(__name__)

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
#: Seconds between the WebSocket pings aiohttp sends; a client that has not answered one with a
#: pong half this time later counts as gone (its socket is closed, see :func:`_serve`).
HEARTBEAT = 30.0
#: The folder served at ``/``.
WEB_DIR = Path(__file__).resolve().parents[3] / "web"


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
    app = web.Application(middlewares=[_sweep_after(sweeper), dev_only_files(settings.dev_mode)])
    app[SWEEPER] = sweeper
    app[SETTINGS] = settings
    app[AGENTS] = agents
    app[ANALYSIS_STEPS] = analysis_steps
    app[ORIGINS] = OriginPolicy(settings.allowed_origins.split(","), settings.host, settings.port)
    app[FORWARDED] = ForwardedResolver(parse_trusted(settings.trusted_proxies))
    app.on_response_prepare.append(add_security_headers)
    app[CONNECTIONS] = ConnectionCounter(app[SETTINGS].max_connections_per_address, app[SETTINGS].max_connections)
    app.cleanup_ctx.append(_pool_context)
    app.cleanup_ctx.append(_factory_context)
    app.on_shutdown.append(_on_shutdown)
    app.on_cleanup.append(_stop_sweeping)
    app.router.add_get("/ws", websocket_handler)
    app.router.add_get("/", _index)
    app.router.add_get("/healthz", _health)
    history_api.register(app, STORE)
    analysis_api.register(app, SETTINGS, STORE, ANALYSES)
    tables_api.add_routes(app, FACTORY)
    setup_replay_api(app, STORE)
    if WEB_DIR.is_dir():
        app.router.add_static("/", WEB_DIR, show_index=False, follow_symlinks=False)
    return app


async def _pool_context(app: web.Application) -> AsyncIterator[None]:
    """The agent pool lives as long as the app (its processes start with the first decision);
    it stops after the tables: decisions still running are stopped, every worker within a
    bound (:meth:`AgentPool.shutdown`)."""
    app[POOL] = AgentPool(worker_count(app[SETTINGS].agent_workers))
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
        app[FACTORY].restore(await store.read(lambda games: games.running_games()))
        app[FACTORY].reopen_lobbies(await store.read(lambda games: games.take_lobbies()))
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


def _sweep_after(sweeper: Sweeper) -> Middleware:
    """A middleware that tells the :class:`~tichu.server.memory.Sweeper` of every request that
    ended (a WebSocket's ends with its connection; a refused one, an HTTP error included)."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        finally:
            sweeper.ended()

    return middleware


async def _health(request: web.Request) -> web.StreamResponse:
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


async def _index(request: web.Request) -> web.StreamResponse:
    index = WEB_DIR / "index.html"
    if not index.is_file():
        raise web.HTTPNotFound(text="web/index.html is missing")
    return web.FileResponse(index)


async def websocket_handler(request: web.Request) -> web.StreamResponse:
    """Connect a client (new seat or reconnect), then route its messages until it goes."""
    if not request.app[ORIGINS].allows(request):
        raise web.HTTPForbidden(text="cross-origin WebSocket refused")
    settings, counter = request.app[SETTINGS], request.app[CONNECTIONS]
    address = limited_address(request, settings)
    ws = WebSocket(heartbeat=HEARTBEAT, max_msg_size=MAX_FRAME_HARD)
    await ws.prepare(request)
    connection = Connection(ws, request.transport, settings.outbox_bytes)
    if not counter.acquire(address):
        log.warning("connection from %s refused: %d open from there, %d in all", address, counter.held(address),
                    counter.count)
        await _refuse(connection, ProtocolError(ErrorCode.SERVER_BUSY, "too many connections"))
        return ws
    try:
        if wants_to_spectate(request.query):
            await serve_spectator(request.app[FACTORY], settings, request.query, connection)
        else:
            await _serve(request.app[FACTORY], settings, address, request.query, connection)
    finally:
        counter.release(address)
    return ws


def limited_address(request: web.Request, settings: Settings) -> str | None:
    """The address a client's limits per address count under: the socket's peer, or behind a
    trusted proxy the client it forwards (:mod:`tichu.server.forwarded`).

    :param request: The client's request.
    :param settings: The settings (``loopback_exempt``).
    :returns: The address; ``None`` for a loopback client spared the limits (never one forwarded
        by a proxy: the proxy is local, its clients are not).
    """
    client = request.app[FORWARDED].resolve(request.remote or "", request.headers.getall("X-Forwarded-For", []),
                                            request.headers.getall("Forwarded", []))
    if not client.forwarded and settings.loopback_exempt:
        with contextlib.suppress(ValueError):
            if ipaddress.ip_address(client.address).is_loopback:
                return None
    return client.address


async def _refuse(connection: Connection, error: ProtocolError) -> None:
    """Answer a client that gets no seat with the error, then close (1013 when busy, else 1008)."""
    connection.send(error_message(error.code, error.context, str(error)))
    code = WSCloseCode.TRY_AGAIN_LATER if error.code == ErrorCode.SERVER_BUSY else WSCloseCode.POLICY_VIOLATION
    await connection.close(code, str(error))


async def _serve(factory: GameFactory, settings: Settings, address: str | None, query: Any,
                 connection: Connection) -> None:
    """Seat a client, then route its messages (at most ``message_rate`` a second) until it goes."""
    try:
        table, peer = _connect(factory, query, connection, address)
    except ProtocolError as error:
        await _refuse(connection, error)
        return
    bucket = TokenBucket(settings.message_rate, settings.message_burst)
    ws, left, flooded = connection.ws, False, False
    try:
        async for message in ws:
            if peer.connection is not connection:
                break  # the client connected anew; this socket is being closed
            if not bucket.take():
                peer.send(error_message(ErrorCode.SERVER_BUSY, {"reason": "too many messages"}))
                flooded = bucket.flooded_for() >= settings.flood_close
                if flooded:
                    log.warning("table %r: seat %d sends too fast; closing its connection", table.name, peer.seat)
                    break
                continue
            if message.type == WSMsgType.TEXT:
                left = _handle(table, peer, message.data)
                if left:
                    break
            elif message.type == WSMsgType.BINARY:
                peer.send(error_message(ErrorCode.INVALID_MESSAGE, {"reason": "binary frames are not read"}))
            else:
                break
    finally:
        if left:
            table.leave(peer)
            await connection.close(WSCloseCode.OK)
        elif flooded:
            table.drop(peer, connection)
            await connection.close(WSCloseCode.POLICY_VIOLATION, "too many messages")
        else:
            table.drop(peer, connection)
            connection.abandon()


def _connect(factory: GameFactory, query: Any, connection: Connection, address: str | None) -> tuple[Table, Peer]:
    session_id = query.get("session_id")
    if session_id is not None:
        return factory.reconnect(session_id, connection)
    table_name = clean_name(query.get("table_name"), "table_name", 40)
    player_name = clean_player_name(query.get("player_name"))
    return factory.join(table_name, player_name, connection, address)


def _handle(table: Table, peer: Peer, text: str) -> bool:
    """Handle one text frame; return whether the client left. Never raises."""
    try:
        kind, payload = parse_message(text)
        if kind == "leave":
            return True
        _dispatch(table, peer, kind, payload)
    except ProtocolError as error:
        peer.send_error(error)
    except Exception:  # nothing a client sends may break its table or the server
        log.exception("table %r: a message from seat %d failed", table.name, peer.seat)
        peer.send(error_message(ErrorCode.UNKNOWN_ERROR))
    return False


def _dispatch(table: Table, peer: Peer, kind: str, payload: dict[str, Any]) -> None:
    if kind == "ping":
        peer.send({"type": "pong"})
    elif kind == "response":
        peer.handle_response(payload)
    elif kind == "announce":
        table.interrupt(peer, ActionKind.TICHU)
    elif kind == "bomb":
        table.interrupt(peer, ActionKind.BOMB, cards_from_json(require(payload, "cards", list)))
    elif kind == "swap_players":
        table.swap(peer, require(payload, "player_index_1", int), require(payload, "player_index_2", int))
    elif kind == "start_game":
        table.start(peer)
    elif kind == "set_options":
        agent, hints = optional(payload, "agent", str), optional(payload, "hints", bool)
        target_score = optional(payload, "target_score", int)
        spectators = optional(payload, "spectators", bool)
        turn_clock, on_leave = optional(payload, "turn_clock", int), optional(payload, "on_leave", str)
        newcomers = optional(payload, "newcomers", bool)
        if all(value is None for value in (agent, hints, target_score, spectators, turn_clock, on_leave, newcomers)):
            raise ProtocolError(ErrorCode.INVALID_MESSAGE, "set_options needs agent, hints, target_score, "
                                "spectators, turn_clock, on_leave and/or newcomers")
        table.set_options(peer, agent, hints, target_score, spectators, turn_clock=turn_clock, on_leave=on_leave,
                          newcomers=newcomers)
    elif kind == "table_sync":
        table.sync(peer)
    elif kind == "chat":
        table.chat(peer, require(payload, "text", str))
    elif kind == "reaction":
        table.react(peer, require(payload, "reaction", str))
    elif kind == "set_ready":
        table.set_ready(peer, require(payload, "ready", bool))
    elif kind == "set_spectator_hands":
        table.set_spectator_hands(peer, require(payload, "allow", bool))
    elif kind == "take_back":
        table.take_back(peer)
    elif kind == "hand_over":
        table.hand_over(peer, require(payload, "player_index", int))


class JsonFormatter(logging.Formatter):
    """One JSON object per log line: time, level, logger, message (and the exception)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": self.formatTime(record), "level": record.levelname, "logger": record.name,
                 "message": record.getMessage()}
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(settings: Settings) -> None:
    """Log to the console and, unless ``log_file`` is off, as JSON lines to
    ``data/logs/server.log`` (rotated at 1 MiB, 5 kept).

    asyncio's accept errors (``EMFILE``...) are logged once per ``accept_error_interval``.
    """
    console = logging.StreamHandler()
    console.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handlers: list[logging.Handler] = [console]
    if settings.log_file:
        folder = settings.data_dir / "logs"
        folder.mkdir(parents=True, exist_ok=True)
        file_handler = RotatingFileHandler(folder / "server.log", maxBytes=1 << 20, backupCount=5, encoding="utf-8")
        file_handler.setFormatter(JsonFormatter())
        handlers.append(file_handler)
    root = logging.getLogger()
    root.handlers[:] = handlers
    root.setLevel(settings.log_level.upper())
    asyncio_log = logging.getLogger("asyncio")
    for old in [found for found in asyncio_log.filters if isinstance(found, AcceptErrorFilter)]:
        asyncio_log.removeFilter(old)
    asyncio_log.addFilter(AcceptErrorFilter(settings.accept_error_interval))


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
