"""A table: its four seats (clients or agents), the lobby, and the engine task of its game.

The first client is the host: it swaps seats and starts the game; when it leaves, the
client that joined next becomes host. Seats without a client are played by agents. A
client that drops keeps its seat for the grace period (the game waits if it must act);
then an agent takes over, and the client can still come back if nobody took the seat.

Each table has options that start from the server's settings and that the host may change
in the lobby (``set_options``, docs/server.md): the agent kind of the empty seats and
whether ``play`` requests carry a hint, ranked by a :class:`HeuristicAgent` of the table;
the score a game is played to; the turn clock; what happens when a person leaves a running
game (an agent finishes it, or it ends); whether newcomers may take an agent's seat during
a game.

A person's seat may be handed to its stand-in agent while the person is idle (two clock runs
in a row, or the host's ``hand_over`` after :data:`HAND_OVER_AFTER` seconds of silence); the
person keeps the seat and takes it back by acting. Every change of a seat's occupant during a
game (a person who leaves for good, a person who takes an agent's seat) is kept for the
record's ``seat_changes``, with where in the game it happened (docs/server.md, "Leaving, idle
seats and late joiners").

The people at a table may chat, send quick reactions and say that they are ready
(:mod:`tichu.server.tables.social`); only clients that sent ``table_sync`` hear of it, so that a
client of protocol.md alone gets exactly the messages it knows.

The agents' decisions and the hints are computed in the server's
:class:`~tichu.server.workers.agent_pool.AgentPool`, off the event loop.

A game is written to the server's store while it is played (:mod:`tichu.server.workers.store_writer`):
its journal, and who sits where by the hash of their session id; at its end its record
replaces both. A server that restarts after a crash rebuilds such a game
(:meth:`Table.restore`) and keeps the people's seats for the grace period.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tichu.agents.agent import Agent
from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.levels import LEVELS, agent_spec
from tichu.agents.registry import AGENTS, make_agent
from tichu.core.combos import Play
from tichu.core.errors import RuleViolation
from tichu.core.round import ActionKind, Round
from tichu.core.ruleset import RuleSet
from tichu.engine.engine import GameEngine
from tichu.engine.player import Player
from tichu.engine.views import SeatView, TableInfo, TablePhase, build_public_state
from tichu.records.journal import rebuild
from tichu.records.parts import EndedBy, GameRecord, SeatChange
from tichu.records.record import ended_early, game_record, now_iso
from tichu.records.stats import HUMAN
from tichu.records.store import RunningGame
from tichu.server.codes import ErrorCode
from tichu.server.config import Settings
from tichu.server.tables.agent_seat import ServerAgent
from tichu.server.tables.social import (
    CHAT_BURST,
    CHAT_LENGTH,
    CHAT_RATE,
    REACTIONS,
    TARGET_SCORE_MAX,
    TARGET_SCORE_MIN,
    ChatLine,
    Social,
)
from tichu.server.tables.spectators import Spectator, Spectators
from tichu.server.workers.agent_pool import AgentPool
from tichu.server.workers.store_writer import GameJournal, StoreWriter
from tichu.server.ws.connection import Connection
from tichu.server.ws.peer import Peer
from tichu.server.ws.protocol import (
    PROTOCOL_VERSION,
    ProtocolError,
    agent_name,
    clean_chat_text,
    clip,
    notification,
    public_state_json,
)

log = logging.getLogger(__name__)

#: Seed of a table's hint agent when the server deals at random (``Settings.seed`` is None).
HINT_SEED = 0
#: Milliseconds a hint may take before it is logged as slow.
SLOW_HINT_MS = 50.0
#: Makes the agent of an empty seat from an agent kind and a display name.
AgentFactory = Callable[[str, str], Agent]
#: The turn clocks the host may choose (seconds per decision; 0: no clock).
TURN_CLOCKS = (0, 30, 60, 120)
#: What may happen when a person leaves a running game for good.
ON_LEAVE = ("agent", "end")
#: Seconds a person's seat must have been waited for before the host may hand it to an agent.
HAND_OVER_AFTER = 60.0
#: Seat changes a game keeps at most (for its record); a join beyond them is refused.
MAX_SEAT_CHANGES = 64


class HintRanker(Protocol):
    """Ranks a seat's legal plays, best first, from that seat's view only (R8); it pickles (it
    ranks in the agent pool)."""

    def hint(self, view: SeatView, legal: Sequence[Play]) -> list[Play]:
        """The plays of ``legal`` best first (it may leave some out)."""


def registry_agent(kind: str, name: str) -> Agent:
    """The default :data:`AgentFactory`: an unseeded agent of the registry."""
    return make_agent(kind, name=name)


def heuristic_hinter(settings: Settings) -> HintRanker:
    """The default hint ranker: a heuristic agent, seeded by the server's seed if it has one."""
    return HeuristicAgent("Hint", HINT_SEED if settings.seed is None else settings.seed)


@dataclass
class TableOptions:
    """What the host may choose in the lobby (``set_options``).

    :ivar agent: Who plays the empty seats: a level of :data:`tichu.agents.levels.LEVELS`
        (``expert``), an agent kind of :data:`tichu.agents.registry.AGENTS`, or the server's
        setting, which may carry a search setting such as ``montecarlo:0.2``.
    :ivar hints: Whether ``play`` requests carry the ranked legal plays as ``hint``.
    :ivar turn_clock: Seconds a person has for each decision (0: no clock); one of
        :data:`TURN_CLOCKS`, or the server's setting.
    :ivar on_leave: ``"agent"`` (an agent finishes a game a person left) or ``"end"`` (it ends).
    :ivar newcomers: Whether a newcomer may take an agent's seat while a game runs.
    """

    agent: str
    hints: bool
    turn_clock: float = 0.0
    on_leave: str = "agent"
    newcomers: bool = False

    def to_json(self) -> dict[str, Any]:
        """The options as clients get them: ``{agent, hints, agents, levels, turn_clock,
        turn_clocks, on_leave, newcomers}`` (``agents``: the kinds the host may choose, weakest
        first; ``levels``: the levels, weakest first, each as ``{level, agent}`` with its agent
        spec; ``turn_clocks``: the clocks the host may choose)."""
        return {"agent": self.agent, "hints": self.hints, "agents": list(AGENTS),
                "levels": [{"level": name, "agent": level.agent} for name, level in LEVELS.items()],
                "turn_clock": self.turn_clock, "turn_clocks": list(TURN_CLOCKS), "on_leave": self.on_leave,
                "newcomers": self.newcomers}


class Table:
    """One table with a name, up to four clients and a game at a time.

    :ivar name: The table's name.
    :ivar info: Facts shared with the engine and shown in ``public_state``.
    :ivar peers: The client at each seat, or ``None`` where an agent plays.
    :ivar engine: The engine of the running game, or ``None`` in the lobby.
    :ivar options: The agent kind of empty seats and whether hints are given.
    :ivar target_score: The score the next game (or the running one) is played to.
    :ivar social: The chat, the reactions' rate and who is ready.
    """

    def __init__(self, name: str, settings: Settings, on_empty: Callable[[Table], None], store: StoreWriter, *,
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
        self._on_finished = on_finished
        self.settings = settings
        self._on_empty = on_empty
        self._store = store
        self._journal: GameJournal | None = None
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
        self.engine: GameEngine | None = None
        self._task: asyncio.Task[None] | None = None
        self._started_at = ""
        self._starters: list[tuple[str, str]] = []  # the seats' occupants when the game started
        self._seat_changes: list[SeatChange] = []  # the record's seat_changes of the running game
        self._kept_options: dict[str, Any] = {}  # what the store keeps beside the running game's journal
        self.spectators = Spectators(settings.max_spectators_per_table, self)
        self._closing_spectators: set[asyncio.Task[None]] = set()

    # -- what a seat's view is made from (TableSource) ------------------------------------------

    @property
    def round(self) -> Round | None:
        """The round being played, or ``None``."""
        return self.engine.round if self.engine else None

    @property
    def is_running(self) -> bool:
        """Whether a game is being played."""
        return self._task is not None and not self._task.done()

    @property
    def clients(self) -> list[Peer]:
        """The clients seated now (connected or within their grace period)."""
        return [peer for peer in self.peers if peer is not None]

    # -- joining and leaving --------------------------------------------------------------------

    def join(self, player_name: str, connection: Connection) -> Peer:
        """Seat a new client on the first seat an agent holds; during a game, a person who left
        it gets their own seat back, and a newcomer is seated only where the host allows it.

        :raises ProtocolError: ``NAME_TAKEN``, ``TABLE_FULL``, or ``GAME_ALREADY_STARTED`` (with
            ``context.spectate``) for a newcomer at a running table closed to newcomers.
        """
        if any(peer.name.casefold() == player_name.casefold() for peer in self.clients):
            raise ProtocolError(ErrorCode.NAME_TAKEN, table_name=self.name, player_name=player_name)
        free = [seat for seat in range(4) if self.peers[seat] is None]
        if not free:
            raise ProtocolError(ErrorCode.TABLE_FULL, table_name=self.name)
        seat = free[0]
        if self.is_running:
            if len(self._seat_changes) >= MAX_SEAT_CHANGES:
                raise ProtocolError(ErrorCode.GAME_ALREADY_STARTED,
                                    f"this game's seats changed hands {MAX_SEAT_CHANGES} times; wait for its end",
                                    table_name=self.name, spectate=self.spectators.admits)
            own = [seat for seat in free if self._starters and self._starters[seat][1] == HUMAN
                   and self._starters[seat][0].casefold() == player_name.casefold()]
            if own:
                seat = own[0]
            elif not self.options.newcomers:
                raise ProtocolError(ErrorCode.GAME_ALREADY_STARTED,
                                    "the game has started and the table is closed to newcomers",
                                    table_name=self.name, spectate=self.spectators.admits)
        peer = self._new_peer(player_name, seat)
        self._seat(peer)
        self._joined.append(peer)
        if self.info.host_index is None:
            self.info.host_index = seat
        self._connect(peer, connection)
        return peer

    def reconnect(self, peer: Peer, connection: Connection) -> None:
        """Give a returning client its seat back (inside or after the grace period).

        :raises ProtocolError: ``SESSION_EXPIRED`` if another client took the seat.
        """
        timer = self._away.pop(peer, None)
        if timer is not None:
            timer.cancel()
        elif self.peers[peer.seat] is not peer:
            if self.peers[peer.seat] is not None:
                raise ProtocolError(ErrorCode.SESSION_EXPIRED, "another client took the seat")
            self._seat(peer)
            self._joined.append(peer)
            if self.info.host_index is None:
                self.info.host_index = peer.seat
        if peer.connection is not None:
            peer.connection.replace()  # one socket per seat: the old one is closed
        self._connect(peer, connection)

    def _new_peer(self, name: str, seat: int) -> Peer:
        return Peer(name, seat, self, self._make_agent(seat), self._pool, self.options.turn_clock,
                    hinter=self._hint, pace=self.settings.agent_delay, watcher=self)

    def _seat(self, peer: Peer) -> None:
        self.peers[peer.seat] = peer
        self.info.player_names[peer.seat] = peer.name
        if self.engine is not None:
            self._note_change(peer.seat, peer, "joined")
            self.engine.replace_player(peer.seat, peer)
            self._store_seat(peer)

    def _note_change(self, seat: int, player: Player, reason: str) -> None:
        """Remember a change of a seat's occupant during the game, where it happened (the record's
        ``seat_changes``: the round's index and how many of its events came before)."""
        engine = self.engine
        if engine is None:
            return
        round_ = engine.round
        index = len(engine.rounds)
        events = len(round_.events) if round_ is not None and not round_.is_over else 0
        self._seat_changes.append({"seat": seat, "round": index, "event": events, "name": player.name,
                                   "kind": player.kind, "reason": reason})
        if self._journal is not None:
            game_id, kept = self._journal.game_id, {**self._kept_options, "seat_changes": list(self._seat_changes)}
            self._store.submit(lambda store: store.set_running_options(game_id, kept))

    def _store_seat(self, peer: Peer) -> None:
        """Store who sits at a seat of the running game (by the hash of the session id)."""
        if self._journal is not None:
            game_id, seat, name, hashed = self._journal.game_id, peer.seat, peer.name, peer.session_hash
            self._store.submit(lambda store: store.seat_person(game_id, seat, name, hashed))

    def _connect(self, peer: Peer, connection: Connection) -> None:
        peer.connection = connection
        public = {"player_index": peer.seat, "player_name": peer.name}
        for other in self.clients:
            if other is not peer:
                other.send(notification("player_joined", public))
        self.spectators.send(notification("player_joined", public))
        self.spectators.changed()  # a new person has not allowed all hands (yet)
        peer.send(notification("player_joined", {
            **public, "session_id": peer.session_id,
            "public_state": {**public_state_json(build_public_state(self.info, self.round)),
                             "passed": self.round.passed_since_last_play() if self.round else [],
                             "away": self._away_json(), "agent_plays_for": self._handed_over_seats()},
            "private_state": peer.joining_private_state(),
            "pending_request": peer.pending_payload, "protocol_version": PROTOCOL_VERSION,
            "options": self.options.to_json(),
        }))

    def drop(self, peer: Peer, connection: Connection) -> None:
        """A client's socket closed without ``leave``: keep the seat for the grace period."""
        if peer.connection is not connection or self.peers[peer.seat] is not peer:
            return  # an old socket of a client that has reconnected, or already left
        peer.connection = None
        self._hold_seat(peer)

    def _hold_seat(self, peer: Peer) -> None:
        """Keep a dropped client's seat for the grace period and tell the others
        (``player_disconnected`` with the seconds until an agent takes the seat)."""
        loop = asyncio.get_running_loop()
        self._away[peer] = loop.call_later(self.settings.grace_period, self._grace_over, peer)
        self._broadcast("player_disconnected", player_index=peer.seat, player_name=peer.name,
                        seconds=self.settings.grace_period)

    def _away_json(self) -> list[list[float]]:
        """The seats whose clients are away, with the seconds left until an agent takes them:
        ``[[seat, seconds], ...]`` (``public_state.away`` of ``player_joined``)."""
        now = asyncio.get_running_loop().time()
        return [[peer.seat, round(max(0.0, timer.when() - now), 1)] for peer, timer in self._away.items()]

    def _grace_over(self, peer: Peer) -> None:
        self._away.pop(peer, None)
        self._unseat(peer)

    def leave(self, peer: Peer) -> None:
        """A client leaves for good: an agent takes the seat at once."""
        timer = self._away.pop(peer, None)
        if timer is not None:
            timer.cancel()
        if self.peers[peer.seat] is peer:
            self._unseat(peer)

    def _unseat(self, peer: Peer) -> None:
        seat = peer.seat
        self.peers[seat] = None
        if peer in self._joined:
            self._joined.remove(peer)
        if self.info.host_index == seat:
            self.info.host_index = self._joined[0].seat if self._joined else None
        agent = self._make_agent(seat)
        self.info.player_names[seat] = agent.name
        if self.engine is not None and self.options.on_leave == "end":
            self._end_early(seat, peer.name)
        elif self.engine is not None:
            player = self._seat_agent(agent)
            self._note_change(seat, player, "left")
            self.engine.replace_player(seat, player)
            if self._journal is not None:
                game_id = self._journal.game_id
                self._store.submit(lambda store: store.unseat_person(game_id, seat))
        peer.release()
        was_ready = self.social.forget(peer)
        self._broadcast("player_left", player_index=seat, player_name=peer.name,
                        host_index=self.info.host_index, replaced_by_agent=True)
        self.spectators.forget(peer)
        if was_ready:
            self._send_lobby_state()
        if not self.clients:
            self._on_empty(self)

    # -- the lobby --------------------------------------------------------------------------------

    def _check_host(self, peer: Peer, action: str) -> None:
        if self.info.host_index != peer.seat:
            raise ProtocolError(ErrorCode.NOT_LOBBY_HOST, action=action)
        if self.is_running:
            raise ProtocolError(ErrorCode.GAME_ALREADY_STARTED, table_name=self.name)

    def swap(self, peer: Peer, first: int, second: int) -> None:
        """Swap two seats (host only, lobby only; the host's own seat stays).

        :raises ProtocolError: ``NOT_LOBBY_HOST``, ``GAME_ALREADY_STARTED``, ``INVALID_ACTION``.
        """
        self._check_host(peer, "swap_players")
        if not (0 <= first < 4 and 0 <= second < 4) or first == second:
            raise ProtocolError(ErrorCode.INVALID_ACTION, "name two different seats 0..3")
        if peer.seat in (first, second):
            raise ProtocolError(ErrorCode.INVALID_ACTION, "the host's own seat cannot move")
        self.peers[first], self.peers[second] = self.peers[second], self.peers[first]
        names = self.info.player_names
        names[first], names[second] = names[second], names[first]
        for seat in (first, second):
            moved = self.peers[seat]
            if moved is not None:
                moved.seat = seat
            else:
                names[seat] = agent_name(seat)
        self._broadcast("players_swapped", player_index_1=first, player_index_2=second)
        self.spectators.changed()
        swapped = [client for client in (self.peers[first], self.peers[second]) if client is not None]
        if self.social.clear(swapped):
            self._send_lobby_state()

    def set_options(self, peer: Peer, agent: str | None = None, hints: bool | None = None,
                    target_score: int | None = None, spectators: bool | None = None, *,
                    turn_clock: int | None = None, on_leave: str | None = None,
                    newcomers: bool | None = None) -> None:
        """Change the table's options (host only, lobby only) and tell every client
        (``options_changed``). The agents take the new kind when the game starts. A change
        of any option makes everyone not ready (they agreed to other terms); the clients that
        sent ``table_sync`` then hear ``lobby_state``, as after a new target score.

        :raises ProtocolError: ``NOT_LOBBY_HOST``, ``GAME_ALREADY_STARTED``, ``INVALID_ACTION``
            for an unknown agent kind or level, a target score out of range, a turn clock not in
            :data:`TURN_CLOCKS` or an unknown ``on_leave`` (nothing changes then).
        """
        self._check_host(peer, "set_options")
        if turn_clock is not None and turn_clock not in TURN_CLOCKS:
            raise ProtocolError(ErrorCode.INVALID_ACTION,
                                f"turn_clock must be one of {', '.join(map(str, TURN_CLOCKS))} (0: off)",
                                turn_clocks=list(TURN_CLOCKS))
        if on_leave is not None and on_leave not in ON_LEAVE:
            raise ProtocolError(ErrorCode.INVALID_ACTION, f"on_leave must be one of {', '.join(ON_LEAVE)}",
                                on_leave=list(ON_LEAVE))
        if agent is not None and agent not in AGENTS and agent not in LEVELS:
            known = f"known: {', '.join(AGENTS)}; levels: {', '.join(LEVELS)}"
            raise ProtocolError(ErrorCode.INVALID_ACTION, f"unknown agent {clip(agent)!r}; {known}",
                                agents=list(AGENTS), levels=list(LEVELS))
        if target_score is not None and not TARGET_SCORE_MIN <= target_score <= TARGET_SCORE_MAX:
            raise ProtocolError(ErrorCode.INVALID_ACTION,
                                f"target_score must be {TARGET_SCORE_MIN} to {TARGET_SCORE_MAX}",
                                target_score=target_score, min=TARGET_SCORE_MIN, max=TARGET_SCORE_MAX)
        before = (self.options.agent, self.options.hints, self.target_score, self.options.turn_clock,
                  self.options.on_leave, self.options.newcomers)
        if spectators is not None:
            self.allow_spectators(spectators)
        if agent is not None and agent != self.options.agent:
            self.options.agent = agent
            for client in self.clients:
                client.stand_in = self._make_agent(client.seat)
        if hints is not None:
            self.options.hints = hints
        if target_score is not None:
            self.target_score = target_score
        if turn_clock is not None:
            self.options.turn_clock = turn_clock
            for client in self.clients:
                client.turn_timeout = turn_clock
        if on_leave is not None:
            self.options.on_leave = on_leave
        if newcomers is not None:
            self.options.newcomers = newcomers
        log.info("table %r: options %s, target score %d", self.name, self.options, self.target_score)
        self._broadcast("options_changed", **self.options.to_json())
        changed = before != (self.options.agent, self.options.hints, self.target_score, self.options.turn_clock,
                             self.options.on_leave, self.options.newcomers)
        if (changed and self.social.clear()) or before[2] != self.target_score:
            self._send_lobby_state()

    # -- chat, reactions and readiness (docs/server.md) --------------------------------------------

    def sync(self, peer: Peer) -> None:
        """A client speaks the extension: from now on it hears chat, reactions and readiness, and
        its readiness counts. It gets ``lobby_state`` (all listening clients do when it is new:
        its seat's readiness goes from null to false) and ``chat_history`` (the last lines)."""
        if self.social.subscribe(peer):
            self._send_lobby_state()
        else:
            peer.send(notification("lobby_state", self._lobby_state()))
        peer.send(notification("chat_history", {"messages": [_line_json(line) for line in self.social.log]}))
        peer.send(notification("spectators_changed", self.spectators.state(self.peers)))
        if self.is_running:
            peer.send(notification("turn_clocks", self._clocks_json()))

    def chat(self, peer: Peer, raw: str) -> None:
        """Send a chat text to every listening client (``chat_message``) and keep it in the history.

        :raises ProtocolError: ``INVALID_MESSAGE`` for an empty, too long or control-character
            text; ``SERVER_BUSY`` beyond the chat rate. Nothing is sent or kept then.
        """
        text = clean_chat_text(raw, CHAT_LENGTH)
        self._take_chat_token(peer)
        line = ChatLine(peer.seat, peer.name, text)
        self.social.remember(line)
        self._tell_listeners("chat_message", _line_json(line))

    def react(self, peer: Peer, reaction: str) -> None:
        """Send a quick reaction to every listening client (``reaction``); not kept.

        :raises ProtocolError: ``INVALID_ACTION`` for an unknown reaction (``context.reactions``
            lists them); ``SERVER_BUSY`` beyond the chat rate.
        """
        if reaction not in REACTIONS:
            raise ProtocolError(ErrorCode.INVALID_ACTION, f"unknown reaction {clip(reaction)!r}",
                                reactions=list(REACTIONS))
        self._take_chat_token(peer)
        self._tell_listeners("reaction", {"player_index": peer.seat, "player_name": peer.name, "reaction": reaction})

    def set_ready(self, peer: Peer, ready: bool) -> None:
        """Say whether the client is ready to start (lobby only); the listening clients hear
        ``lobby_state`` when that changed. Readiness is advice to the host: ``start_game`` keeps
        its meaning (docs/server.md).

        :raises ProtocolError: ``GAME_ALREADY_STARTED`` during a game.
        """
        if self.is_running:
            raise ProtocolError(ErrorCode.GAME_ALREADY_STARTED, table_name=self.name)
        if self.social.set_ready(peer, ready):
            self._send_lobby_state()

    def _take_chat_token(self, peer: Peer) -> None:
        if not self.social.allow(peer):
            raise ProtocolError(ErrorCode.SERVER_BUSY,
                                f"too many chat messages: {CHAT_BURST} at once, then {CHAT_RATE:g} a second")

    def _lobby_state(self) -> dict[str, Any]:
        """``lobby_state``: the target score (and its range) and per seat whether its client is
        ready (``null``: an agent, or a client that never sent ``table_sync``)."""
        ready = [None if client is None else self.social.ready(client) for client in self.peers]
        return {"target_score": self.target_score, "target_score_range": [TARGET_SCORE_MIN, TARGET_SCORE_MAX],
                "ready": ready}

    def _send_lobby_state(self) -> None:
        self._tell_listeners("lobby_state", self._lobby_state())
        self.spectators.send(notification("lobby_state", self._lobby_state()))

    def _tell_listeners(self, event: str, context: dict[str, Any]) -> None:
        """Send a notification of the extension to the clients that sent ``table_sync``."""
        message = notification(event, context)
        for client in self.clients:
            if self.social.listens(client):
                client.send(message)

    # -- spectators (docs/server.md, :mod:`tichu.server.tables.spectators`) -------------------------------

    def spectate(self, connection: Connection) -> Spectator:
        """Admit a spectator: it gets ``spectate_started`` (the public snapshot) and, while all
        hands are open, ``spectator_hands``; the people that listen hear ``spectators_changed``.

        :raises ProtocolError: ``UNAUTHORIZED`` when the table refuses spectators, ``TABLE_FULL``
            beyond its limit of spectators.
        """
        self.spectators.check_admits(self.name)
        spectator = Spectator(connection)
        spectator.send(notification("spectate_started", {
            "table_name": self.name,
            "public_state": {**public_state_json(build_public_state(self.info, self.round)),
                             "passed": self.round.passed_since_last_play() if self.round else [],
                             "away": self._away_json(), "agent_plays_for": self._handed_over_seats()},
            "options": self.options.to_json(), "lobby_state": self._lobby_state(),
            "protocol_version": PROTOCOL_VERSION,
        }))
        self.spectators.add(spectator)
        if self.spectators.hands_open:
            spectator.send(self.spectators.hands_message())
        return spectator

    def unspectate(self, spectator: Spectator) -> None:
        """A spectator left (``leave``) or its socket closed."""
        self.spectators.remove(spectator)

    def set_spectator_hands(self, peer: Peer, allow: bool) -> None:
        """A person allows (or not) the spectators to see all four hands; they see them only
        while every person seated allows it (agents do)."""
        self.spectators.set_allow(peer, allow)

    def allow_spectators(self, allowed: bool) -> None:
        """The host's option ``spectators``: when it turns off, the spectators watching get
        ``UNAUTHORIZED`` (104) and are closed."""
        if allowed == self.spectators.allowed:
            return
        self.spectators.allowed = allowed
        if not allowed:
            error = ProtocolError(ErrorCode.UNAUTHORIZED, "the table no longer allows spectators")
            for spectator in self.spectators.take_all():
                spectator.send_error(error)
                if spectator.connection is not None:
                    task = asyncio.create_task(spectator.connection.close(1008, "spectators not allowed"))
                    self._closing_spectators.add(task)
                    task.add_done_callback(self._closing_spectators.discard)
                spectator.connection = None
        self.spectators_changed()

    def spectators_changed(self) -> None:
        """``spectators_changed`` to the listening clients and the spectators."""
        message = notification("spectators_changed", self.spectators.state(self.peers))
        for client in self.clients:
            if self.social.listens(client):
                client.send(message)
        self.spectators.send(message)

    def start(self, peer: Peer) -> None:
        """Start a game (host only, lobby only); agents take the empty seats.

        :raises ProtocolError: ``NOT_LOBBY_HOST``, ``GAME_ALREADY_STARTED``.
        """
        self._check_host(peer, "start_game")
        players: list[Player] = [client if client is not None else self._seat_agent(self._make_agent(seat))
                                 for seat, client in enumerate(self.peers)]
        self.info.player_names = [player.name for player in players]
        self._starters = [(player.name, player.kind) for player in players]
        self._seat_changes = []
        rules = RuleSet(target_score=self.target_score, seed=self.settings.seed)
        self.social.clear()  # readiness is for one start; the clients clear it on game_started
        game_id, started_at, name = str(uuid.uuid4()), now_iso(), self.name
        options = {"agent": self.options.agent, "hints": self.options.hints, "turn_clock": self.options.turn_clock,
                   "on_leave": self.options.on_leave, "newcomers": self.options.newcomers,
                   "starters": [list(starter) for starter in self._starters]}
        self._kept_options = options
        self._store.submit(lambda store: store.begin_game(game_id, name, started_at, rules.seed, rules.to_json(),
                                                          options))
        self._run(GameEngine(players, rules, info=self.info, bomb_window=self.settings.bomb_window,
                             keep_rounds=True), GameJournal(self._store, game_id, self), started_at)

    def _run(self, engine: GameEngine, journal: GameJournal, started_at: str) -> None:
        """Run a game (new or resumed) with its journal, storing the people's seats first."""
        self.engine = engine
        self._journal = journal
        engine.observe(journal)
        engine.observe(self.spectators)
        self._started_at = started_at
        for peer in self.clients:
            self._store_seat(peer)
        self._task = asyncio.create_task(self._run_game(engine), name=f"table {self.name}")

    @classmethod
    def restore(cls, running: RunningGame, settings: Settings, on_empty: Callable[[Table], None], store: StoreWriter,
                *, pool: AgentPool, agents: AgentFactory = registry_agent, hinter: HintRanker | None = None,
                on_finished: Callable[[str], None] | None = None) -> Table:
        """Rebuild a table whose game was running when the server stopped, and go on with it.

        The game's journal is replayed through the rules; its people get their seats back as
        clients that have dropped (they reconnect with their session ids within the grace
        period, or agents take over); the next deals are shuffled afresh.

        :param running: The stored game.
        :raises JournalFault: If the rules do not replay the journal (nothing is started then).
        """
        rules = RuleSet.from_json(running.rules, running.seed)
        finished, unfinished = rebuild(rules, running.entries)
        table = cls(running.table_name, settings, on_empty, store, pool=pool, agents=agents, hinter=hinter,
                    on_finished=on_finished)
        table.options.agent = str(running.options.get("agent", table.options.agent))
        table.options.hints = bool(running.options.get("hints", table.options.hints))
        table.options.turn_clock = float(running.options.get("turn_clock", table.options.turn_clock))
        table.options.on_leave = str(running.options.get("on_leave", table.options.on_leave))
        table.options.newcomers = bool(running.options.get("newcomers", table.options.newcomers))
        table.target_score = rules.target_score
        for seat, (name, hashed) in sorted(running.seats.items()):
            peer = table._new_peer(name, seat)
            peer.session_hash = hashed
            table.peers[seat] = peer
            table.info.player_names[seat] = name
            table._joined.append(peer)
        table.info.host_index = table._joined[0].seat if table._joined else None
        players: list[Player] = [client if client is not None else table._seat_agent(table._make_agent(seat))
                                 for seat, client in enumerate(table.peers)]
        table.info.player_names = [player.name for player in players]
        starters = running.options.get("starters")
        table._starters = [(str(name), str(kind)) for name, kind in starters] if isinstance(starters, list) \
            else [(player.name, player.kind) for player in players]
        table._seat_changes = list(running.options.get("seat_changes") or [])
        table._kept_options = {key: value for key, value in running.options.items() if key != "seat_changes"}
        engine = GameEngine(players, rules, rng=random.Random(), info=table.info,
                            bomb_window=settings.bomb_window, keep_rounds=True)
        engine.resume(finished, unfinished)
        journal = GameJournal(store, running.id, table, written=len(running.entries))
        journal.cursor.follow(finished, unfinished)
        table._run(engine, journal, running.started_at)
        for peer in table.clients:
            table._hold_seat(peer)
        return table

    async def _run_game(self, engine: GameEngine) -> None:
        try:
            await engine.run()
            self._write_record(engine, aborted=False)
        except asyncio.CancelledError:
            raise
        except Exception:  # one table's failure must never reach another table or the server
            log.exception("table %r: the game failed", self.name)
            self._write_record(engine, aborted=True)
            self._broadcast_error(ErrorCode.UNKNOWN_ERROR)
        finally:
            self.engine = None
            self.info.phase = TablePhase.LOBBY
            self.info.is_running = False
            self.info.player_names = [peer.name if peer else agent_name(seat)
                                      for seat, peer in enumerate(self.peers)]

    # -- interrupts from clients -----------------------------------------------------------------

    def interrupt(self, peer: Peer, kind: ActionKind, cards: int = 0) -> None:
        """Pass a client's Tichu call or bomb to the engine.

        :raises ProtocolError: With the protocol's code when the rules refuse it.
        """
        engine = self.engine
        if engine is None:
            code = ErrorCode.INVALID_ANNOUNCE if kind == ActionKind.TICHU else ErrorCode.INTERRUPT_DENIED
            raise ProtocolError(code, "no game is being played")
        peer.take_back()  # the person acts: a seat handed over comes back
        try:
            engine.interrupt(peer.seat, kind, cards)
        except RuleViolation as error:
            raise ProtocolError.from_violation(error, action="announce" if kind == ActionKind.TICHU else "bomb") \
                from error

    # -- idle seats: turn clocks and hand-overs (docs/server.md) ---------------------------------

    def clock_changed(self) -> None:
        """A person's request opened or closed: ``turn_clocks`` to the listening clients and the
        spectators."""
        message = notification("turn_clocks", self._clocks_json())
        for client in self.clients:
            if self.social.listens(client):
                client.send(message)
        self.spectators.send(message)

    def _clocks_json(self) -> dict[str, Any]:
        """``turn_clocks``: every person's seat that is waited for now, with its clock."""
        clocks = [clock for client in self.clients
                  if client.hand_over_reason is None and (clock := client.clock_json()) is not None]
        return {"clocks": sorted(clocks, key=lambda clock: int(clock["player_index"]))}

    def handed_over(self, peer: Peer, reason: str | None) -> None:
        """A seat went to its stand-in (``seat_handed_over``) or its person took it back
        (``seat_taken_back``): every client and spectator hears it."""
        if self.engine is not None and self.peers[peer.seat] is peer:
            self.engine.refresh_prompted(peer.seat)  # offered calls and bombs (or not) from now on
        if reason is None:
            self._broadcast("seat_taken_back", player_index=peer.seat, player_name=peer.name)
        else:
            log.info("table %r: seat %d handed to its agent (%s)", self.name, peer.seat, reason)
            self._broadcast("seat_handed_over", player_index=peer.seat, player_name=peer.name, reason=reason)
        self.clock_changed()

    def _handed_over_seats(self) -> list[int]:
        return [client.seat for client in self.clients if client.hand_over_reason is not None]

    def hand_over(self, peer: Peer, seat: int) -> None:
        """The host hands an idle person's seat to its stand-in agent (after :data:`HAND_OVER_AFTER`
        seconds of waiting for one decision); the person takes it back by acting.

        :raises ProtocolError: ``NOT_LOBBY_HOST`` for another client; ``INVALID_ACTION`` without a
            game, for a seat that is no person's, is not waited for long enough, or is handed over.
        """
        if self.info.host_index != peer.seat:
            raise ProtocolError(ErrorCode.NOT_LOBBY_HOST, action="hand_over")
        if not self.is_running:
            raise ProtocolError(ErrorCode.INVALID_ACTION, "no game is being played")
        if not 0 <= seat < 4:
            raise ProtocolError(ErrorCode.INVALID_MESSAGE, "player_index must be 0..3")
        target = self.peers[seat]
        if target is None:
            raise ProtocolError(ErrorCode.INVALID_ACTION, "an agent plays that seat already", player_index=seat)
        if target.hand_over_reason is not None:
            raise ProtocolError(ErrorCode.INVALID_ACTION, "that seat is handed over already", player_index=seat)
        waited = target.waited()
        if waited is None or waited < HAND_OVER_AFTER:
            raise ProtocolError(ErrorCode.INVALID_ACTION,
                                f"a seat can be handed over after {HAND_OVER_AFTER:g} s of waiting for it",
                                player_index=seat, waited=None if waited is None else round(waited, 1))
        target.hand_over("host")

    def take_back(self, peer: Peer) -> None:
        """The person of a handed-over seat acts again (``take_back``).

        :raises ProtocolError: ``INVALID_ACTION`` when the seat is not handed over.
        """
        if not peer.take_back():
            raise ProtocolError(ErrorCode.INVALID_ACTION, "your seat is not handed over")

    def _end_early(self, seat: int, name: str) -> None:
        """A person's leaving ends the game (``on_leave`` ``"end"``): it is stored as ended early by
        them, every client hears ``game_ended_early``, and the table goes back to its lobby."""
        engine, task = self.engine, self._task
        if engine is None or task is None:
            return
        self._write_record(engine, aborted=True, ended_by={"seat": seat, "name": name})
        task.cancel()
        self._broadcast("game_ended_early", player_index=seat, player_name=name)

    # -- a restart (docs/server.md, "Restarts keep games") -----------------------------------------

    async def suspend(self) -> None:
        """The server stops to start again: keep the table instead of ending it. A running game is
        left in the store as running (its journal is written as it is played; the next start
        rebuilds it, as after a crash), a lobby with people is kept (:meth:`kept_lobby`). Every
        client and spectator hears ``SERVER_DOWN`` with a "back soon" reason; the sockets close
        (the clients come back with their session ids within the grace period)."""
        for timer in self._away.values():
            timer.cancel()
        self._away.clear()
        task = self._task
        if task is not None and not task.done():
            self._journal = None  # not ended: no record, the journal stays for the next start
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        elif self.clients:
            name, state = self.name, self.kept_lobby()
            self._store.submit(lambda store: store.keep_lobby(name, state))
        error = ProtocolError(ErrorCode.SERVER_DOWN, "the server restarts; back soon", back_soon=True)
        connections: list[Connection] = []
        listeners: list[Peer | Spectator] = [*self.clients, *self.spectators.take_all()]
        for listener in listeners:
            listener.send_error(error)
            if listener.connection is not None:
                connections.append(listener.connection)
        # together: a stop must end within seconds however many clients read slowly
        await asyncio.gather(*(connection.close() for connection in connections))

    def kept_lobby(self) -> dict[str, Any]:
        """What a restart keeps of a table in its lobby: its options, target score, host and the
        people's seats (name and session hash, in the order they joined)."""
        return {"options": {"agent": self.options.agent, "hints": self.options.hints,
                            "turn_clock": self.options.turn_clock, "on_leave": self.options.on_leave,
                            "newcomers": self.options.newcomers, "spectators": self.spectators.allowed},
                "target_score": self.target_score, "host": self.info.host_index,
                "seats": [[peer.seat, peer.name, peer.session_hash] for peer in self._joined]}

    @classmethod
    def reopen(cls, name: str, kept: dict[str, Any], settings: Settings, on_empty: Callable[[Table], None],
               store: StoreWriter, *, pool: AgentPool, agents: AgentFactory = registry_agent,
               hinter: HintRanker | None = None, on_finished: Callable[[str], None] | None = None) -> Table:
        """Open a table kept in its lobby at the last stop (:meth:`kept_lobby`): its people have
        the grace period to come back with their session ids.

        :raises KeyError, TypeError, ValueError: For a kept state this program cannot read.
        """
        table = cls(name, settings, on_empty, store, pool=pool, agents=agents, hinter=hinter, on_finished=on_finished)
        options = kept["options"]
        table.options = TableOptions(agent=str(options["agent"]), hints=bool(options["hints"]),
                                     turn_clock=float(options["turn_clock"]), on_leave=str(options["on_leave"]),
                                     newcomers=bool(options["newcomers"]))
        table.spectators.allowed = bool(options.get("spectators", True))
        table.target_score = int(kept["target_score"])
        for seat, player_name, hashed in kept["seats"]:
            peer = table._new_peer(str(player_name), int(seat))
            peer.session_hash = str(hashed)
            table.peers[peer.seat] = peer
            table.info.player_names[peer.seat] = peer.name
            table._joined.append(peer)
        host = kept.get("host")
        table.info.host_index = host if isinstance(host, int) and table.peers[host] is not None else \
            (table._joined[0].seat if table._joined else None)
        for peer in table.clients:
            table._hold_seat(peer)
        return table

    # -- closing ------------------------------------------------------------------------------------

    async def close(self, reason: ErrorCode | None = None) -> None:
        """Stop the game (its record is written as aborted) and close every client's socket."""
        for timer in self._away.values():
            timer.cancel()
        self._away.clear()
        task, engine = self._task, self.engine
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            if engine is not None:
                self._write_record(engine, aborted=True)
        if reason is not None:
            self._broadcast_error(reason)
        for peer in self.clients:
            if peer.connection is not None:
                await peer.connection.close()
        for spectator in self.spectators.take_all():
            if spectator.connection is not None:
                await spectator.connection.close()

    # -- helpers ------------------------------------------------------------------------------------

    def _broadcast(self, event: str, **context: Any) -> None:
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

    def _seat_agent(self, agent: Agent) -> ServerAgent:
        """An agent as a player of this table's engine, paced while clients are seated."""
        return ServerAgent(agent, self._pool, self.settings.agent_delay, lambda: bool(self.clients))

    async def _hint(self, view: SeatView, legal: Sequence[Play]) -> list[Play] | None:
        """The legal plays best first for a ``play`` request, or ``None`` when hints are off.

        Only legal plays, each once, and all of them (what the agent leaves out is appended);
        a failing agent gives no hint rather than failing the request. The ranking is
        computed in the agent pool.
        """
        if not self.options.hints or not legal:
            return None
        began = time.perf_counter()
        try:
            ranked = await self._pool.decide(self._hinter.hint, view, legal)
        except Exception:  # a hint is a courtesy: it must never break a game
            log.exception("table %r: the hint for seat %d failed", self.name, view.seat)
            return None
        allowed = set(legal)
        hint: list[Play] = []
        seen: set[Play] = set()
        for play in [*ranked, *legal]:
            if play in allowed and play not in seen:
                seen.add(play)
                hint.append(play)
        took = (time.perf_counter() - began) * 1000
        if took > SLOW_HINT_MS:
            log.info("table %r: hint for %d legal plays took %.0f ms", self.name, len(legal), took)
        return hint

    def _write_record(self, engine: GameEngine, *, aborted: bool, ended_by: EndedBy | None = None) -> None:
        """Store the game's record in place of its journal; an aborted game's record has its
        finished rounds, the unfinished one as far as it went, ``winner`` null and ``aborted``.
        ``players`` are the seats' occupants when the game started and ``seat_changes`` every
        change since (docs/server.md); ``ended_by`` names the person whose leaving ended it."""
        journal = self._journal
        if journal is None:
            return  # written already
        game_id = journal.game_id
        record: GameRecord | None = None
        try:
            players = self._starters or [(player.name, player.kind) for player in engine.players]
            record = game_record(engine.rounds, engine.rules, players, record_id=game_id, started_at=self._started_at)
            record["table"] = self.name
            if self._seat_changes:
                record["seat_changes"] = list(self._seat_changes)
            if aborted:
                ended_early(record, engine.round)
            if ended_by is not None:
                record["ended_by"] = ended_by
        finally:  # a record that cannot be built still ends the game's journal: it must not come back
            self._journal = None
            self._store.submit(lambda store: store.end_game(game_id, None if record is None else dict(record)))
        if record is not None and not aborted and self._on_finished is not None:
            self._on_finished(game_id)


def _line_json(line: ChatLine) -> dict[str, Any]:
    """A chat line as ``chat_message`` sends it: ``{player_index, player_name, text}``."""
    return {"player_index": line.seat, "player_name": line.name, "text": line.text}
