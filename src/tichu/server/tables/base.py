"""The state every part of a table shares (:class:`TableBase`): its name, options, seats, game
session and spectators; what a seat's view is made from (``TableSource``); telling the clients
and the spectators; making the agents of empty seats and the hints.

The agents' decisions and the hints are computed in the server's
:class:`~tichu.server.workers.agent_pool.AgentPool`, off the event loop.
"""


from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from tichu.agents.agent import Agent
from tichu.agents.levels import agent_spec
from tichu.agents.stand_in import StandIn
from tichu.core.combos import Play
from tichu.core.round import Round
from tichu.core.views import SeatView, TableInfo, TablePhase
from tichu.engine.engine import GameEngine
from tichu.server.codes import ErrorCode
from tichu.server.config import Settings
from tichu.server.tables.agent_seat import AgentFactory, ServerAgent, registry_agent
from tichu.server.tables.hints import HintRanker, heuristic_hinter, ranked_hint
from tichu.server.tables.lines import Line
from tichu.server.tables.options import TableOptions
from tichu.server.tables.peer import Peer
from tichu.server.tables.session import GameSession
from tichu.server.tables.social import Social
from tichu.server.tables.spectators import Spectators
from tichu.server.wire import outgoing as out
from tichu.server.wire.protocol import ProtocolError, agent_name, notification
from tichu.server.workers.agent_pool import AgentPool
from tichu.server.workers.store_writer import StoreWriter

#: The context of a notification every client and spectator of a table hears (:meth:`TableBase._broadcast`).
BroadcastContext = (out.SeatEvent | out.SeatHandedOver | out.PlayerDisconnected | out.PlayerLeft
                    | out.PlayersSwapped | out.TableOptions | out.LineOver | out.GameStored)


class TableBase:
    """The state of a table that its parts share (see :mod:`tichu.server.tables.table`).

    :ivar name: The table's name.
    :ivar info: Facts shared with the engine and shown in ``public_state``.
    :ivar peers: The client at each seat, or ``None`` where an agent plays.
    :ivar engine: The engine of the running game, or ``None`` in the lobby.
    :ivar options: The agent kind of empty seats and whether hints are given.
    :ivar target_score: The score the next game (or the running one) is played to.
    :ivar social: The chat, the reactions' rate and who is ready.
    :ivar line: The stored game's position this table plays on from (another line,
        :mod:`~tichu.server.tables.lines`), or ``None`` for a table of whole games.
    :ivar line_started: Whether the line's round has been played on (it is played once).
    """

    def __init__(self, name: str, settings: Settings, on_empty: Callable[[TableBase], None], store: StoreWriter, *,
                 pool: AgentPool,
                 agents: AgentFactory = registry_agent, hinter: HintRanker | None = None,
                 on_finished: Callable[[str], None] | None = None) -> None:
        """Open a table.

        :param name: The table's name.
        :param settings: The server's settings (the options start from them).
        :param on_empty: Called when the last client has left.
        :param store: Writes the games to the server's store.
        :param pool: Where the agents' decisions and the hints are computed.
        :param agents: Makes the agents of empty seats (tests seed them).
        :param hinter: Ranks the legal plays of a ``play`` request (default: :func:`heuristic_hinter`).
        :param on_finished: (Optional) Told a game's id when it was played to its end and its
            record is handed to the store.
        """
        self.name = name
        self.settings = settings
        self._on_empty = on_empty
        self._store = store
        self._agents = agents
        self._pool = pool
        self.options = TableOptions(agent=settings.agent, hints=settings.hints, turn_clock=settings.turn_timeout)
        self.target_score = settings.target_score
        self.social: Social[Peer] = Social()
        self._hinter = hinter or heuristic_hinter(settings)
        self.info = TableInfo(table_name=name, player_names=[agent_name(seat) for seat in range(4)])
        self.peers: list[Peer | None] = [None] * 4
        self._joined: list[Peer] = []  # clients in the order they joined (for the host)
        self._away: dict[Peer, asyncio.TimerHandle] = {}  # dropped clients within the grace period
        # per seat, the last person who left it (since the game started or the lobby opened): they
        # alone may take it back, with their session id; at most four, whatever the joins
        self._departed: dict[int, Peer] = {}
        self._on_finished = on_finished
        self.session = GameSession(name, self, store, on_ended=self._game_ended, on_failed=self._game_failed,
                                   on_finished=self._game_stored)
        self.spectators = Spectators(settings.max_spectators_per_table, self)
        self.line: Line | None = None
        self.line_started = False
        self._closing_spectators: set[asyncio.Task[None]] = set()

    @property
    def engine(self) -> GameEngine | None:
        """The engine of the running game, or ``None`` in the lobby."""
        return self.session.engine

    @property
    def round(self) -> Round | None:
        """The round being played, or ``None``."""
        return self.engine.round if self.engine else None

    @property
    def is_running(self) -> bool:
        """Whether a game is being played."""
        return self.session.is_running

    @property
    def clients(self) -> list[Peer]:
        """The clients seated now (connected or within their grace period)."""
        return [peer for peer in self.peers if peer is not None]

    def _game_ended(self) -> None:
        """The game's task ended (played, stopped or failed): the table is a lobby again."""
        self.info.phase = TablePhase.LOBBY
        self.info.is_running = False
        self.info.player_names = [peer.name if peer else agent_name(seat) for seat, peer in enumerate(self.peers)]
        self._departed.clear()  # the game's seats are nobody's now: the lobby is open to every name
        if self.line is not None:
            line = self.line
            self._broadcast("line_over", {"game_id": line.game_id, "step": line.position.step, "seat": line.seat})

    def _game_stored(self, game_id: str) -> None:
        """A game was played to its end and its record handed to the store: everyone at the table
        hears ``game_stored`` (its replay and analysis are a click away), and the server is told."""
        self._broadcast("game_stored", {"game_id": game_id})
        if self._on_finished is not None:
            self._on_finished(game_id)

    def knows(self, peer: Peer) -> bool:
        """Whether ``peer`` may come back with its session id: it is seated (connected or within
        its grace period), or it is the last person who left its seat."""
        return self.peers[peer.seat] is peer or self._departed.get(peer.seat) is peer

    def _game_failed(self) -> None:
        """The game failed (logged, its record written as aborted): everyone hears ``UNKNOWN_ERROR``."""
        self._broadcast_error(ErrorCode.UNKNOWN_ERROR)

    def _end_early(self, seat: int, name: str) -> None:
        """A person's leaving ends the game (``on_leave`` ``"end"``): it is stored as ended early by
        them, every client hears ``game_ended_early``, and the table goes back to its lobby."""
        if self.session.end_early(seat, name):
            self._broadcast("game_ended_early", {"player_index": seat, "player_name": name})

    def spectators_changed(self) -> None:
        """``spectators_changed`` to the listening clients and the spectators."""
        message = notification("spectators_changed", self.spectators.state(self.peers))
        for client in self.clients:
            if self.social.listens(client):
                client.send(message)
        self.spectators.send(message)

    def _broadcast(self, event: str, context: BroadcastContext) -> None:
        """A notification to every client and spectator (its context as
        :data:`~tichu.server.wire.outgoing.NOTIFICATIONS` names it for the event)."""
        message = notification(event, context)
        for peer in self.clients:
            peer.send(message)
        self.spectators.send(message)

    def _broadcast_error(self, code: ErrorCode) -> None:
        error = ProtocolError(code)
        for peer in self.clients:
            peer.send_error(error)
        for spectator in self.spectators.watchers:
            spectator.send_error(error)

    def _make_agent(self, seat: int) -> Agent:
        return self._agents(agent_spec(self.options.agent), agent_name(seat))

    def _make_stand_in(self, seat: int) -> StandIn:
        """The agent that decides for a seat's person while they are away or after they left: the
        table's agent, but calling no Tichu or Grand Tichu for them (docs/server.md, "The stand-in's
        rules")."""
        return StandIn(self._make_agent(seat))

    def _seat_agent(self, agent: Agent) -> ServerAgent:
        """An agent as a player of this table's engine, paced while a person sits at the table
        or may come back to it (one who left this game), so that a person back within seconds
        finds the round where it was."""
        return ServerAgent(agent, self._pool, self.settings.agent_delay, lambda: bool(self.clients or self._departed))

    async def _hint(self, view: SeatView, legal: Sequence[Play]) -> list[Play] | None:
        """The legal plays best first for a ``play`` request (:func:`ranked_hint`), or ``None``
        when hints are off."""
        if not self.options.hints or not legal:
            return None
        return await ranked_hint(self._pool, self._hinter, view, legal, self.name)
