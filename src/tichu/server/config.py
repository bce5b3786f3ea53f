"""Server settings from the environment and ``.env``, each with a built-in default.

Every setting ``name`` is read from the variable ``TICHU_<NAME>`` (e.g. ``TICHU_PORT``);
a ``.env`` file in the working directory fills in what the environment does not set.
``.env.example`` documents them all.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from tichu.agents.levels import DEFAULT_LEVEL, agent_spec
from tichu.analysis import DEFAULT_SAMPLES
from tichu.server.guard.forwarded import parse_trusted

#: The words a boolean setting accepts (case-insensitive).
#: A setting's value, read from its text by its field's type.
SettingValue = int | float | Path | bool | str
_TRUE = frozenset({"1", "true", "on", "yes"})
_FALSE = frozenset({"0", "false", "off", "no"})
#: The values of ``TICHU_ANALYSIS`` (docs/server.md, "Game analysis"): no analyses, an analysis of
#: a stored game when someone asks for it, or also of every finished game when it is stored.
ANALYSIS_MODES = ("off", "on-request", "all")


#: The settings that count something a server needs at least one of (a game's points, its
#: connections, tables, a burst of messages): 0 would lock everyone out or end games at once.
AT_LEAST_ONE = ("target_score", "max_connections", "max_connections_per_address", "max_tables",
                "tables_per_minute", "message_burst", "outbox_bytes", "http_burst", "analysis_samples")

@dataclass(frozen=True, slots=True)
class Settings:
    """The server's settings.

    :ivar host: Address to listen on.
    :ivar port: Port to listen on.
    :ivar grace_period: Seconds a dropped client keeps its seat before an agent takes it.
    :ivar turn_timeout: The turn clock a table starts with: seconds a person has for a decision
        before an agent decides (0: no clock; the host may choose another in the lobby).
    :ivar agent: Agent kind or level for empty seats (see :mod:`tichu.agents.registry` and
        :mod:`tichu.agents.levels`); the
        tables start with it, and a table's host may choose another in the lobby.
    :ivar hints: Whether ``play`` requests carry the ``hint`` (ranked legal plays); the
        tables start with it, and a table's host may switch it in the lobby.
    :ivar bomb_window: Seconds to wait for bombs before a trick is taken, with a client seated.
    :ivar agent_delay: Seconds agents pause before acting, with a client seated.
    :ivar agent_workers: Worker processes that compute the agents' decisions (0: one per core
        but one, at least one; :mod:`tichu.server.workers.agent_pool`).
    :ivar log_level: Logging level name.
    :ivar log_file: Whether the log is also written to ``data/logs/server.log`` (off under a
        service manager that keeps the console's log, e.g. journald on a Pi's SD card).
    :ivar data_dir: Folder for logs and records.
    :ivar target_score: Points a game is played to.
    :ivar seed: Seed of the shuffles of every game (tests, demonstrations); ``None`` for random deals.
    :ivar allowed_origins: Comma-separated origins (``http://192.168.1.20:8080``) whose pages may
        open the WebSocket; empty: the server's own addresses on its port.
    :ivar dev_mode: Whether ``/tests.html`` (the client's unit tests) and its scripts are served.
    :ivar max_connections: WebSockets open in all; one more gets ``SERVER_BUSY`` and is closed.
    :ivar max_connections_per_address: WebSockets open from one client address.
    :ivar max_tables: Tables open in all; opening one more gets ``SERVER_BUSY``.
    :ivar tables_per_minute: Tables one client address may open per minute.
    :ivar message_rate: Messages per second a connection may send on average (pings too).
    :ivar message_burst: Messages a connection may send at once beyond the rate.
    :ivar flood_close: Seconds a connection may go on sending beyond the rate (each such
        message answered with ``SERVER_BUSY``) before it is closed.
    :ivar outbox_bytes: Bytes of messages queued for one client before it counts as not
        reading and its connection is cut.
    :ivar close_wait: Seconds a close of a WebSocket may take (the messages queued for the
        client, the close frame, the client's answer) before the connection is cut: a client
        that does not read holds no connection longer.
    :ivar accept_error_interval: Seconds between two logged accept errors (``EMFILE``...).
    :ivar max_spectators_per_table: Spectators one table admits (``/ws?spectate=1``); one more gets
        ``TABLE_FULL``.
    :ivar max_spectators: Spectators in all; one more gets ``SERVER_BUSY``.
    :ivar http_rate: Requests a second one client address may make to the HTTP API (``/api/``) on
        average; one beyond the burst gets 429 (:mod:`tichu.server.guard.http_rate`).
    :ivar http_burst: Requests to the HTTP API one client address may make at once beyond the rate.
    :ivar loopback_exempt: Whether clients on this machine (127.0.0.0/8, ::1: tests, the load
        benchmark) are spared the limits per address (the others still hold); a client forwarded
        by a trusted proxy never is.
    :ivar ipv6_prefix: Bits of an IPv6 client address that the limits per address count it by
        (64: a /64, what one subscriber gets; 128: each address alone). IPv4 counts per address.
    :ivar analysis: Whether stored games are analysed (:data:`ANALYSIS_MODES`): ``off``,
        ``on-request`` (when someone asks, ``POST /api/games/{id}/analysis``) or ``all`` (also
        every finished game when it is stored); :mod:`tichu.server.workers.analysis_runner`.
    :ivar analysis_samples: Deals the analysis draws per judged decision (default
        :data:`tichu.analysis.DEFAULT_SAMPLES`); fewer are faster and noisier.
    :ivar analysis_nice: The niceness (0..19) of the agent pool's background process, where the
        analysis runs: 19, the lowest CPU priority, by default, so that everything else the
        machine runs goes first; lower lets the analysis keep pace on a machine kept busy.
    :ivar trusted_proxies: Comma-separated addresses and CIDR networks of reverse proxies
        (``127.0.0.1`` behind a proxy on the same machine) whose ``X-Forwarded-For`` or
        ``Forwarded`` names the client (:mod:`tichu.server.guard.forwarded`); empty: none, the
        client is always the socket's peer.
    """

    host: str = "0.0.0.0"
    port: int = 8080
    grace_period: float = 20.0
    turn_timeout: float = 0.0
    agent: str = DEFAULT_LEVEL
    hints: bool = True
    bomb_window: float = 1.5
    agent_delay: float = 0.8
    agent_workers: int = 0
    log_level: str = "INFO"
    log_file: bool = True
    data_dir: Path = Path("data")
    target_score: int = 1000
    seed: int | None = None
    allowed_origins: str = ""
    dev_mode: bool = False
    max_connections: int = 200
    max_connections_per_address: int = 8
    max_tables: int = 50
    tables_per_minute: int = 10
    message_rate: float = 20.0
    message_burst: int = 40
    flood_close: float = 2.0
    outbox_bytes: int = 1 << 20
    close_wait: float = 5.0
    accept_error_interval: float = 60.0
    loopback_exempt: bool = True
    trusted_proxies: str = ""
    ipv6_prefix: int = 64
    max_spectators_per_table: int = 20
    max_spectators: int = 100
    http_rate: float = 5.0
    http_burst: int = 60
    analysis: str = "on-request"
    analysis_samples: int = DEFAULT_SAMPLES
    analysis_nice: int = 19

    @classmethod
    def load(cls, environ: dict[str, str] | None = None, env_file: Path | None = Path(".env")) -> Settings:
        """Read the settings from ``environ`` (default: ``os.environ``) and an ``.env`` file.

        :raises ValueError: For a value that does not fit its setting (an unknown agent
            kind included).
        """
        values = read_env_file(env_file) if env_file is not None and env_file.is_file() else {}
        values.update(os.environ if environ is None else environ)
        changes: dict[str, Any] = {}  # open: each value is of its own field's type, which the name picks
        for field in fields(cls):
            raw = values.get(f"TICHU_{field.name.upper()}")
            if raw is None or raw == "":
                continue
            changes[field.name] = _convert(field.name, str(field.type), raw)
        settings = replace(cls(), **changes)
        check_agent(settings.agent, "TICHU_AGENT")
        parse_trusted(settings.trusted_proxies)
        if settings.close_wait <= 0:
            raise ValueError(f"TICHU_CLOSE_WAIT={settings.close_wait} is not a number of seconds above 0")
        if not 1 <= settings.ipv6_prefix <= 128:
            raise ValueError(f"TICHU_IPV6_PREFIX={settings.ipv6_prefix} is not a prefix length from 1 to 128")
        if settings.analysis not in ANALYSIS_MODES:
            raise ValueError(f"TICHU_ANALYSIS={settings.analysis!r} is not one of {', '.join(ANALYSIS_MODES)}")
        if settings.http_rate <= 0:
            raise ValueError(f"TICHU_HTTP_RATE={settings.http_rate} is not more than 0")
        for name in AT_LEAST_ONE:
            if getattr(settings, name) < 1:
                raise ValueError(f"TICHU_{name.upper()}={getattr(settings, name)} is not 1 or more")
        if settings.analysis_nice > 19:
            raise ValueError(f"TICHU_ANALYSIS_NICE={settings.analysis_nice} is not a niceness from 0 to 19")
        if settings.port > 65535:
            raise ValueError(f"TICHU_PORT={settings.port} is not a port from 0 (any free one) to 65535")
        return settings


def check_agent(kind: str, what: str = "agent") -> None:
    """Check that ``kind`` names an agent of :mod:`tichu.agents.registry` (with its setting).

    :raises ValueError: Naming the setting, the value and the known kinds.
    """
    try:
        agent_spec(kind)
    except ValueError as error:
        raise ValueError(f"{what}={kind!r}: {error}") from None


def _convert(name: str, kind: str, raw: str) -> SettingValue:
    try:
        if kind in ("int", "int | None"):
            number = int(raw)
            if number < 0 and name != "seed":
                raise ValueError("negative")
            return number
        if kind == "float":
            value = float(raw)
            if value < 0:
                raise ValueError("negative")
            return value
        if kind == "Path":
            return Path(raw)
        if kind == "bool":
            word = raw.strip().lower()
            if word not in _TRUE | _FALSE:
                raise ValueError("not a boolean")
            return word in _TRUE
        return raw.strip()
    except ValueError as error:
        expected = "boolean (1/0, true/false, on/off, yes/no)" if kind == "bool" else kind
        raise ValueError(f"TICHU_{name.upper()}={raw!r} is not a valid {expected}") from error


def read_env_file(path: Path) -> dict[str, str]:
    """Read ``KEY=value`` lines (``#`` comments, optional quotes) from a ``.env`` file."""
    values: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key.strip()] = value
    return values
