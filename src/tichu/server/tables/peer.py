"""The :class:`Peer`: a connected client's seat as a :class:`~tichu.engine.player.Player` of the engine.

The engine's questions become ``request`` messages with a ``request_id``, answered
:class:`~tichu.engine.player.Later`; the matching ``response`` is checked
(:mod:`~tichu.server.wire.answers`: the client is never trusted) and only a valid answer goes
back to the engine. A refused response leaves the request open. What the seat says goes over
its :class:`~tichu.server.wire.client_link.ClientLink` (the wire: sending, errors, the
notifications with the seat's private part, the state after each event as the fields that
changed for this client (:mod:`~tichu.server.wire.deltas`), and ``private_state_changed``); the
seat hands it its private state and the table's public state. A ``play`` request carries the
table's ``hint`` (the legal plays ranked from this seat's view only,
:mod:`~tichu.server.tables.hints`) when the table gives hints.

The seat's stand-in agent answers for the client when its turn times out and when the seat
goes to an agent with a request open; like the hint, its decisions are computed in the
server's :class:`~tichu.server.workers.agent_pool.AgentPool` (a worker process, on the seat's frozen
view), never on the event loop. After :data:`HAND_OVER_TIMEOUTS` timeouts in a row, or when the
host hands the idle seat over, the seat is *handed over*: the stand-in makes every decision
and the client gets no request until its person acts again (:meth:`Peer.take_back`;
docs/server.md, "Leaving, idle seats and late joiners"). The table hears when a request opens
or closes (its turn clocks) and when the seat is handed over or taken back.
"""

from __future__ import annotations

import asyncio
import uuid
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from tichu.agents.agent import Agent
from tichu.core.combos import Play
from tichu.core.views import PrivateState, SeatView, TableSource, build_private_state
from tichu.engine.events import Event
from tichu.engine.player import Later, Player
from tichu.server.codes import ErrorCode
from tichu.server.tables.hints import Hinter
from tichu.server.wire.answers import check_dragon, check_grand_tichu, check_play, check_schupf, check_wish
from tichu.server.wire.client_link import ClientLink
from tichu.server.wire.connection import Connection
from tichu.server.wire.deltas import public_now
from tichu.server.wire.incoming import JsonObject, Response
from tichu.server.wire.outgoing import Clock as ClockJson
from tichu.server.wire.outgoing import (
    DragonContext,
    HandContext,
    PlayContext,
    RequestContext,
    RequestPayload,
    ServerMessage,
    WishContext,
)
from tichu.server.wire.outgoing import PrivateState as PrivateStateJson
from tichu.server.wire.outgoing import PublicState as PublicStateJson
from tichu.server.wire.protocol import ProtocolError, cards_json, combination_json, table_public_json
from tichu.server.workers.agent_pool import AgentPool
from tichu.server.workers.store_writer import session_hash

T = TypeVar("T")
#: Request ids remembered after they closed, to answer late responses with REQUEST_OBSOLETE.
_RECENT_IDS = 16
#: Timeouts in a row after which the seat is handed over to its stand-in.
HAND_OVER_TIMEOUTS = 2


class SeatLink(Protocol):
    """What a seat says to its client (:class:`~tichu.server.wire.client_link.ClientLink`)."""

    connection: Connection | None

    def send(self, message: ServerMessage | str) -> None:
        """Send a message if connected."""

    def send_error(self, error: ProtocolError) -> None:
        """Answer a refused message."""

    def notify(self, event: Event, private_state: Callable[[], PrivateState],
               public_state: Callable[[], PublicStateJson]) -> None:
        """Forward an event with the seat's private part and the state after it."""

    def joined_public(self, state: PublicStateJson) -> PublicStateJson:
        """The table's ``public_state`` for the seat's ``player_joined``."""

    def joined(self, state: PrivateState) -> PrivateStateJson:
        """The seat's ``private_state`` for its ``player_joined``."""

    def request(self, payload: RequestPayload) -> None:
        """Ask the client."""

    def request_cancelled(self, request_id: str) -> None:
        """The request is closed without the client's answer."""

    def timed_out(self, action: str, timeout: float) -> None:
        """The client's time for the request ran out."""


class SeatWatcher(Protocol):
    """What a peer tells its table beyond the engine's events (the turn clocks, hand-overs)."""

    def clock_changed(self) -> None:
        """A request of the seat opened or closed."""

    def handed_over(self, peer: Peer, reason: str | None) -> None:
        """The seat was handed over to its stand-in (``reason``), or taken back (``None``)."""


class _Unwatched:
    """The :class:`SeatWatcher` of a peer whose table does not listen (tests)."""

    def clock_changed(self) -> None:
        """Nobody shows the clocks."""

    def handed_over(self, peer: Peer, reason: str | None) -> None:
        """Nobody is told."""


@dataclass
class PendingRequest(Generic[T]):
    """An open request: its payload as sent, how to check an answer, the stand-in's answer
    (computed in the agent pool), the answer's future, the loop time its timeout ends
    (``None``: no limit) and the loop time it was asked."""

    payload: RequestPayload
    check: Callable[[JsonObject], T]
    decide_for_client: Callable[[], Awaitable[T]]
    future: asyncio.Future[T]
    deadline: float | None
    asked_at: float


class Peer(Player):
    """A client at a seat; it survives its connection so that the client can reconnect.

    :ivar seat: The seat (changes when the host swaps seats).
    :ivar session_id: The id a client reconnects with (a bearer token: never logged or stored).
    :ivar session_hash: Its hash, by which the server finds and stores the session.
    :ivar link: The wire to the client (its connection, while there is one).
    :ivar table: The table it sits at (for its private state in notifications).
    :ivar stand_in: The agent that decides on a timeout (and for an abandoned request).
    :ivar pool: Where the stand-in's decisions are computed.
    :ivar turn_timeout: Seconds per decision, or 0 for no limit (the table's turn clock).
    :ivar hinter: Gives the ``hint`` of a ``play`` request (``None``: no hint).
    :ivar pace: Seconds a decision of the stand-in takes at least while the seat is handed over
        (as an agent's at a table with people).
    :ivar watcher: The table, told of the seat's clock and of hand-overs.
    :ivar hand_over_reason: Why the seat is handed over to its stand-in (``"timeout"``,
        ``"host"``), or ``None`` while its person decides.
    :ivar timeouts_in_row: The seat's turn timeouts since its person last answered.
    """

    kind = "human"
    listens = True
    acts_unprompted = True

    def __init__(self, name: str, seat: int, table: TableSource, stand_in: Agent, pool: AgentPool,
                 turn_timeout: float = 0.0, hinter: Hinter | None = None, *, pace: float = 0.0,
                 watcher: SeatWatcher | None = None, link: SeatLink | None = None) -> None:
        super().__init__(name)
        self.seat = seat
        self.session_id = str(uuid.uuid4())
        self.session_hash = session_hash(self.session_id)
        self.link: SeatLink = link or ClientLink()
        self.table = table
        self.stand_in = stand_in
        self.pool = pool
        self.turn_timeout = turn_timeout
        self.hinter = hinter
        self.pace = pace
        self.watcher: SeatWatcher = watcher or _Unwatched()
        self.hand_over_reason: str | None = None
        self.timeouts_in_row = 0
        self.pending: PendingRequest[Any] | None = None  # the answer's type is the open action's
        self._recent_ids: deque[str] = deque(maxlen=_RECENT_IDS)
        self._standing_in: set[asyncio.Task[None]] = set()  # the stand-in answering after release()

    # -- the client's link ------------------------------------------------------------------

    @property
    def connection(self) -> Connection | None:
        """The client's current connection, or ``None`` while disconnected."""
        return self.link.connection

    @connection.setter
    def connection(self, connection: Connection | None) -> None:
        self.link.connection = connection

    def send(self, message: ServerMessage | str) -> None:
        """Send a message if connected (a client that reconnects gets the whole state)."""
        self.link.send(message)

    def send_error(self, error: ProtocolError) -> None:
        """Answer a refused message."""
        self.link.send_error(error)

    def notify(self, event: Event) -> None:
        """Forward an event with the seat's private part (R8.2) and the state after it (what
        changed of it for this client), and ``private_state_changed`` if what the seat may do
        beyond its turn changed with it (R6.1, R4.3)."""
        self.link.notify(event, self._private_state, lambda: public_now(event, self.table))

    def joining_public_state(self) -> PublicStateJson:
        """The table's ``public_state`` for the seat's ``player_joined`` (join or reconnect): the
        events after it carry what changes of it."""
        return self.link.joined_public(table_public_json(self.table.info, self.table.round))

    def joining_private_state(self) -> PrivateStateJson:
        """The seat's ``private_state`` for its ``player_joined`` (join or reconnect; R8.2: its
        own cards and options only)."""
        return self.link.joined(self._private_state())

    def _private_state(self) -> PrivateState:
        return build_private_state(self.table.round, self.seat)

    @property
    def pending_payload(self) -> RequestPayload | None:
        """The open request's whole payload with the seconds left, or ``None``."""
        pending = self.pending
        if pending is None:
            return None
        if pending.deadline is None:
            return pending.payload
        left = max(0.0, pending.deadline - asyncio.get_running_loop().time())
        return {**pending.payload, "timeout": round(left, 1)}

    # -- requests ---------------------------------------------------------------------------

    async def _ask(self, action: str, context: RequestContext, check: Callable[[JsonObject], T],
                   decide_for_client: Callable[[], Awaitable[T]]) -> T:
        """Send a request and wait for its valid answer (or the stand-in's on a timeout, or at
        once while the seat is handed over).

        :param action: The request's action.
        :param context: What the client needs to decide.
        :param check: Turns a response's data into the answer, or raises :class:`ProtocolError`.
        :param decide_for_client: Computes the stand-in's answer.
        :returns: The answer.
        """
        if self.hand_over_reason is not None:
            return await self._stand_in_decides(decide_for_client)
        request_id = uuid.uuid4().hex
        payload: RequestPayload = {"request_id": request_id, "action": action, "context": context,
                                   "timeout": self.turn_timeout or None}
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        deadline = loop.time() + self.turn_timeout if self.turn_timeout else None
        self.pending = PendingRequest(payload, check, decide_for_client, future, deadline, loop.time())
        self.link.request(payload)
        self.watcher.clock_changed()
        try:
            if not self.turn_timeout:
                answer = await future
            else:
                try:
                    answer = await asyncio.wait_for(asyncio.shield(future), self.turn_timeout)
                except TimeoutError:
                    self.link.timed_out(action, self.turn_timeout)
                    self.timeouts_in_row += 1
                    if self.timeouts_in_row >= HAND_OVER_TIMEOUTS:
                        self._set_handed_over("timeout")
                    return await decide_for_client()
            self.timeouts_in_row = 0
            return answer
        finally:
            self._close_request(request_id)
            self.watcher.clock_changed()

    async def _stand_in_decides(self, decide_for_client: Callable[[], Awaitable[T]]) -> T:
        """The stand-in's decision for a handed-over seat, taking :attr:`pace` at least."""
        began = asyncio.get_running_loop().time()
        answer = await decide_for_client()
        left = self.pace - (asyncio.get_running_loop().time() - began)
        if left > 0:
            await asyncio.sleep(left)
        return answer

    def waited(self) -> float | None:
        """Seconds the seat's open request has waited for its person, or ``None`` without one."""
        pending = self.pending
        if pending is None or pending.future.done():
            return None
        return asyncio.get_running_loop().time() - pending.asked_at

    def clock_json(self) -> ClockJson | None:
        """The seat's entry of ``turn_clocks`` (``{player_index, seconds_left, waited}``), or
        ``None`` when the seat is not waited for."""
        waited = self.waited()
        pending = self.pending
        if waited is None or pending is None:
            return None
        left = None if pending.deadline is None else \
            round(max(0.0, pending.deadline - asyncio.get_running_loop().time()), 1)
        return {"player_index": self.seat, "seconds_left": left, "waited": round(waited, 1)}

    def hand_over(self, reason: str) -> None:
        """Hand the seat to its stand-in (the host's decision): it answers the open request (the
        client hears ``request_cancelled`` for it) and every decision after it, until
        :meth:`take_back`."""
        self._set_handed_over(reason)
        pending = self.pending
        if pending is not None and not pending.future.done():
            self.link.request_cancelled(pending.payload["request_id"])
        self.release()

    def _set_handed_over(self, reason: str) -> None:
        self.hand_over_reason = reason
        self.acts_unprompted = False  # the engine offers its calls and bombs, as to an agent
        self.watcher.handed_over(self, reason)

    def take_back(self) -> bool:
        """The person acts again: from the next decision on, the client is asked.

        :returns: Whether the seat was handed over.
        """
        if self.hand_over_reason is None:
            return False
        self.hand_over_reason = None
        self.timeouts_in_row = 0
        self.acts_unprompted = True
        self.watcher.handed_over(self, None)
        return True

    def _close_request(self, request_id: str) -> None:
        if self.pending and self.pending.payload["request_id"] == request_id:
            if not self.pending.future.done():
                self.pending.future.cancel()
            self.pending = None
            self._recent_ids.append(request_id)

    def handle_response(self, response: Response) -> None:
        """Check a client's ``response`` and hand a valid answer to the waiting engine; its
        values are decoded for the open request's action (:mod:`~tichu.server.wire.answers`).

        :raises ProtocolError: For a response to no or another request, or an answer the
            rules refuse; the request stays open then.
        """
        request_id, action, data = response.request_id, response.action, response.response_data
        pending = self.pending
        if pending is None or pending.future.done():
            if request_id in self._recent_ids:
                raise ProtocolError(ErrorCode.REQUEST_OBSOLETE, action=action, request_id=request_id)
            raise ProtocolError(ErrorCode.INVALID_RESPONSE, action=action)
        if request_id != pending.payload["request_id"]:
            raise ProtocolError(ErrorCode.REQUEST_OBSOLETE, action=action, request_id=request_id)
        if action != pending.payload["action"]:
            raise ProtocolError(ErrorCode.INVALID_ACTION, f"the open request is {pending.payload['action']!r}",
                                action=action)
        pending.future.set_result(pending.check(data))

    def request_cancelled(self) -> None:
        """An out-of-turn bomb overtook the open request: tell the client (protocol.md)."""
        if self.pending is not None:
            request_id = self.pending.payload["request_id"]
            self._close_request(request_id)
            self.link.request_cancelled(request_id)

    def _now(self) -> SeatView:
        """The seat's view at this moment, for the stand-in (the table may have moved on
        since the request, by a Tichu call)."""
        return SeatView.of(self.table, self.seat)

    def release(self) -> None:
        """The seat goes to an agent: an open request is answered by the stand-in, as soon as
        the agent pool has its decision (unless the request closes first)."""
        pending = self.pending
        if pending is not None and not pending.future.done():
            task = asyncio.create_task(self._stand_in_answers(pending))
            self._standing_in.add(task)
            task.add_done_callback(self._standing_in.discard)
            pending.future.add_done_callback(lambda _: task.cancel())  # closed first: the decision is stale

    @staticmethod
    async def _stand_in_answers(pending: PendingRequest[T]) -> None:
        """Answer an open request with the stand-in's decision; a failed decision fails the
        answer (the engine then falls back as for any failed client answer)."""
        try:
            answer = await pending.decide_for_client()
        except Exception as error:  # an agent's bug: the table goes on
            if not pending.future.done():
                pending.future.set_exception(error)
            return
        if not pending.future.done():
            pending.future.set_result(answer)

    # -- the engine's questions --------------------------------------------------------------

    def grand_tichu(self, view: SeatView) -> Later[bool]:
        context: HandContext = {"hand_cards": cards_json(view.hand)}
        return Later(self._ask("announce_grand_tichu", context, check_grand_tichu,
                               lambda: self.pool.decide(self.stand_in.decide_grand_tichu, self._now())))

    def schupf(self, view: SeatView) -> Later[tuple[int, int, int]]:
        context: HandContext = {"hand_cards": cards_json(view.hand)}
        return Later(self._ask("schupf", context, lambda data: check_schupf(data, view.hand),
                               lambda: self.pool.decide(self.stand_in.decide_schupf, self._now())))

    def play(self, view: SeatView, legal: Sequence[Play]) -> Later[Play]:
        return Later(self._play(view, legal))

    async def _play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        """Rank the hint, then ask for the play."""
        trick = view.trick
        context: PlayContext = {
            "hand_cards": cards_json(view.hand),
            "trick_combination": combination_json(trick) if trick else None,
            "trick_owner_index": view.trick_owner,
            "wish_value": view.wish,
            "legal_plays": [cards_json(play.cards) for play in legal],
            "hint": await self._hint(view, legal),
        }
        return await self._ask("play", context, lambda data: check_play(data, view, legal),
                               lambda: self.pool.decide(self.stand_in.decide_play, self._now(), legal))

    async def _hint(self, view: SeatView, legal: Sequence[Play]) -> list[list[list[int]]] | None:
        """The ``hint`` of a ``play`` request: card lists as in ``legal_plays``, best first, or null."""
        ranked = await self.hinter(view, legal) if self.hinter is not None else None
        return None if ranked is None else [cards_json(play.cards) for play in ranked]

    def wish(self, view: SeatView, choices: Sequence[int]) -> Later[int]:
        context: WishContext = {"wish_values": list(choices)}
        return Later(self._ask("wish", context, lambda data: check_wish(data, choices),
                               lambda: self.pool.decide(self.stand_in.decide_wish, self._now(), choices)))

    def give_dragon(self, view: SeatView, recipients: Sequence[int]) -> Later[int]:
        context: DragonContext = {"opponent_indexes": list(recipients)}
        return Later(self._ask(
            "give_dragon_away", context, lambda data: check_dragon(data, recipients),
            lambda: self.pool.decide(self.stand_in.decide_dragon, self._now(), recipients)))


    def offer_tichu(self, view: SeatView) -> Later[bool]:
        """Asked only while the seat is handed over (the person calls by themselves otherwise)."""
        return Later(self.pool.decide(self.stand_in.decide_tichu, view))

    def offer_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Later[Play | None]:
        """Asked only while the seat is handed over (the person bombs by themselves otherwise)."""
        return Later(self.pool.decide(self.stand_in.decide_bomb, view, bombs))
