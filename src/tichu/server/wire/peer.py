"""The :class:`Peer`: a connected client as a :class:`~tichu.engine.player.Player` of the engine.

The engine's questions become ``request`` messages with a ``request_id``, answered
:class:`~tichu.engine.player.Later`; the matching ``response`` is checked here (the client is
never trusted) and only a valid answer goes back to the engine. A refused response leaves
the request open. Notifications are forwarded with the seat's private part (R8.2), added
by :func:`~tichu.server.wire.protocol.event_text`: its own hand and received cards, never
another seat's. After each one the seat's private state is built again, and when what the
seat may do beyond its turn (``may_announce``, R6.1; ``bombs``, R4.3) differs from what its
client was last told (in its ``player_joined`` or an earlier change), ``private_state_changed``
follows, to this seat only (docs/server.md, an extension of the protocol). A ``play``
request carries the table's ``hint`` (the legal plays ranked from this seat's view only)
when the table gives hints.

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
from tichu.core.combos import PASS_PLAY, Play
from tichu.core.errors import RuleViolation
from tichu.core.round import find_legal_play
from tichu.core.unseen import UnseenBombs, unseen_bombs
from tichu.core.views import PrivateState, SeatView, TableSource, build_private_state
from tichu.engine.events import Event
from tichu.engine.player import Later, Player
from tichu.server.codes import ErrorCode
from tichu.server.wire.connection import Connection
from tichu.server.wire.incoming import (
    DragonAnswer,
    GrandTichuAnswer,
    JsonObject,
    PlayAnswer,
    Response,
    SchupfAnswer,
    WishAnswer,
    decode,
)
from tichu.server.wire.outgoing import Clock as ClockJson
from tichu.server.wire.outgoing import (
    DragonContext,
    HandContext,
    PlayContext,
    RequestContext,
    RequestMessage,
    RequestPayload,
    ServerMessage,
    WishContext,
)
from tichu.server.wire.outgoing import PrivateState as PrivateStateJson
from tichu.server.wire.protocol import (
    ProtocolError,
    cards_from_json,
    cards_json,
    combination_json,
    error_message,
    event_text,
    notification,
    private_state_json,
)
from tichu.server.workers.agent_pool import AgentPool
from tichu.server.workers.store_writer import session_hash

T = TypeVar("T")
#: Request ids remembered after they closed, to answer late responses with REQUEST_OBSOLETE.
_RECENT_IDS = 16
#: Ranks the legal plays of a ``play`` request (best first) from a seat's view, or gives ``None``.
Hinter = Callable[[SeatView, Sequence[Play]], Awaitable[list[Play] | None]]
#: What a seat may do beyond its turn: whether it may call Tichu (R6.1), and the cards of each bomb
#: it may lay (R4.3), in no order (the core lists them in another order at the seat's turn); and
#: the bombs its unseen cards could still form (R3.7), which change only now and then.
Options = tuple[bool, frozenset[int], UnseenBombs]
#: Timeouts in a row after which the seat is handed over to its stand-in.
HAND_OVER_TIMEOUTS = 2


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
    :ivar connection: The current connection, or ``None`` while disconnected.
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
                 watcher: SeatWatcher | None = None) -> None:
        super().__init__(name)
        self.seat = seat
        self.session_id = str(uuid.uuid4())
        self.session_hash = session_hash(self.session_id)
        self.connection: Connection | None = None
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
        self._told: Options | None = None  # what the client was last told it may do beyond its turn

    # -- sending --------------------------------------------------------------------------

    def send(self, message: ServerMessage | str) -> None:
        """Send a message if connected (a client that reconnects gets the whole state)."""
        if self.connection is not None:
            self.connection.send(message)

    def send_error(self, error: ProtocolError) -> None:
        """Answer a refused message."""
        self.send(error_message(error.code, error.context, str(error)))

    def notify(self, event: Event) -> None:
        """Forward an event with the seat's private part (R8.2), then ``private_state_changed``
        if what the seat may do beyond its turn changed with it (R6.1, R4.3)."""
        if self.connection is None:
            return
        state = build_private_state(self.table.round, self.seat)
        self.send(event_text(event, lambda: state))
        options = _options(state)
        if options != self._told:
            self._told = options
            self.send(notification("private_state_changed", {"private_state": private_state_json(state)}))

    def joining_private_state(self) -> PrivateStateJson:
        """The seat's ``private_state`` for its ``player_joined`` (join or reconnect): what it may do
        beyond its turn in it is what the client is told from now on (R6.1, R4.3; R8.2: its own
        cards and options only)."""
        state = build_private_state(self.table.round, self.seat)
        self._told = _options(state)
        return private_state_json(state)

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
        request: RequestMessage = {"type": "request", "payload": payload}
        self.send(request)
        self.watcher.clock_changed()
        try:
            if not self.turn_timeout:
                answer = await future
            else:
                try:
                    answer = await asyncio.wait_for(asyncio.shield(future), self.turn_timeout)
                except TimeoutError:
                    self.send(error_message(ErrorCode.ACTION_TIMEOUT, {"timeout": self.turn_timeout, "action": action}))
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
            self.send(notification("request_cancelled", {"request_id": pending.payload["request_id"]}))
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
        values are decoded for the open request's action (:data:`~tichu.server.wire.incoming.ANSWERS`).

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
            self.send(notification("request_cancelled", {"request_id": request_id}))

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
        return Later(self._ask("announce_grand_tichu", context, _check_grand_tichu,
                               lambda: self.pool.decide(self.stand_in.decide_grand_tichu, self._now())))

    def schupf(self, view: SeatView) -> Later[tuple[int, int, int]]:
        context: HandContext = {"hand_cards": cards_json(view.hand)}
        return Later(self._ask("schupf", context, lambda data: _check_schupf(data, view.hand),
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
        return await self._ask("play", context, lambda data: _check_play(data, view, legal),
                               lambda: self.pool.decide(self.stand_in.decide_play, self._now(), legal))

    async def _hint(self, view: SeatView, legal: Sequence[Play]) -> list[list[list[int]]] | None:
        """The ``hint`` of a ``play`` request: card lists as in ``legal_plays``, best first, or null."""
        ranked = await self.hinter(view, legal) if self.hinter is not None else None
        return None if ranked is None else [cards_json(play.cards) for play in ranked]

    def wish(self, view: SeatView, choices: Sequence[int]) -> Later[int]:
        context: WishContext = {"wish_values": list(choices)}
        return Later(self._ask("wish", context, lambda data: _check_wish(data, choices),
                               lambda: self.pool.decide(self.stand_in.decide_wish, self._now(), choices)))

    def give_dragon(self, view: SeatView, recipients: Sequence[int]) -> Later[int]:
        context: DragonContext = {"opponent_indexes": list(recipients)}
        return Later(self._ask(
            "give_dragon_away", context, lambda data: _check_dragon(data, recipients),
            lambda: self.pool.decide(self.stand_in.decide_dragon, self._now(), recipients)))


    def offer_tichu(self, view: SeatView) -> Later[bool]:
        """Asked only while the seat is handed over (the person calls by themselves otherwise)."""
        return Later(self.pool.decide(self.stand_in.decide_tichu, view))

    def offer_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Later[Play | None]:
        """Asked only while the seat is handed over (the person bombs by themselves otherwise)."""
        return Later(self.pool.decide(self.stand_in.decide_bomb, view, bombs))


def _options(state: PrivateState) -> Options:
    """What a private state says the seat may do beyond its turn (R6.1, R4.3), and its unseen bombs (R3.7)."""
    return state.may_announce, frozenset(bomb.cards for bomb in state.bombs), unseen_bombs(state.unseen_cards)


def _check_grand_tichu(data: JsonObject) -> bool:
    return decode(GrandTichuAnswer, data).announced


def _check_schupf(data: JsonObject, hand: int) -> tuple[int, int, int]:
    given = decode(SchupfAnswer, data).given_schupf_cards
    if len(given) != 3:
        raise ProtocolError(ErrorCode.INVALID_ACTION, "give exactly three cards: to right, partner, left")
    cards = [cards_from_json([card], limit=1) for card in given]
    if (cards[0] | cards[1] | cards[2]).bit_count() != 3:
        raise ProtocolError(ErrorCode.NOT_UNIQUE_CARDS, "the three cards must differ", cards=given)
    if (cards[0] | cards[1] | cards[2]) & ~hand:
        raise ProtocolError(ErrorCode.NOT_HAND_CARD, cards=given)
    return cards[0], cards[1], cards[2]


def _check_play(data: JsonObject, view: SeatView, legal: Sequence[Play]) -> Play:
    cards = decode(PlayAnswer, data).cards
    mask = cards_from_json(cards)
    if not mask:
        if PASS_PLAY in legal:
            return PASS_PLAY
        raise ProtocolError(ErrorCode.INVALID_ACTION, "you cannot pass now (a lead, or the wish must be fulfilled)")
    try:
        return find_legal_play(mask, view.hand, legal, is_lead=view.trick is None, wish=view.wish)
    except RuleViolation as error:
        raise ProtocolError.from_violation(error, cards=cards) from error


def _check_wish(data: JsonObject, choices: Sequence[int]) -> int:
    return _check_choice(decode(WishAnswer, data).wish_value, "wish_value", choices, ErrorCode.INVALID_WISH)


def _check_dragon(data: JsonObject, recipients: Sequence[int]) -> int:
    return _check_choice(decode(DragonAnswer, data).dragon_recipient, "dragon_recipient", recipients,
                         ErrorCode.INVALID_DRAGON_RECIPIENT)


def _check_choice(value: int, key: str, choices: Sequence[int], code: ErrorCode) -> int:
    if value not in choices:
        raise ProtocolError(code, f"{key} must be one of {list(choices)}", **{key: value})
    return value
