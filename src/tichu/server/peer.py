"""The :class:`Peer`: a connected client as a :class:`~tichu.engine.player.Player` of the engine.

The engine's questions become ``request`` messages with a ``request_id``; the matching
``response`` is checked here (the client is never trusted) and only a valid answer goes
back to the engine. A refused response leaves the request open. Notifications are
forwarded with the seat's private enrichment (R8.2): its own hand and received cards,
never another seat's. A ``play`` request carries the table's ``hint`` (the legal plays
ranked from this seat's view only) when the table gives hints.
"""

from __future__ import annotations

import asyncio
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tichu.agents.agent import Agent
from tichu.core.combos import PASS_PLAY, Play
from tichu.core.errors import RuleViolation
from tichu.engine.player import Event, Player
from tichu.engine.views import SeatView, cards_json, combination_json
from tichu.server.codes import ErrorCode
from tichu.server.connection import Connection, encode
from tichu.server.protocol import ProtocolError, cards_from_json, error_message, notification, require

#: Request ids remembered after they closed, to answer late responses with REQUEST_OBSOLETE.
_RECENT_IDS = 16
#: Ranks the legal plays of a ``play`` request (best first) from a seat's view, or gives ``None``.
Hinter = Callable[[SeatView, Sequence[Play]], list[Play] | None]


@dataclass
class PendingRequest:
    """An open request: its payload as sent, how to check an answer, the answer's future,
    and the loop time its timeout ends (``None``: no limit)."""

    payload: dict[str, Any]
    check: Callable[[dict[str, Any]], Any]
    decide_for_client: Callable[[], Any]
    future: asyncio.Future[Any]
    deadline: float | None


class Peer(Player):
    """A client at a seat; it survives its connection so that the client can reconnect.

    :ivar seat: The seat (changes when the host swaps seats).
    :ivar session_id: The id a client reconnects with.
    :ivar connection: The current connection, or ``None`` while disconnected.
    :ivar view: The seat's view of the table.
    :ivar stand_in: The agent that decides on a timeout (and for an abandoned request).
    :ivar turn_timeout: Seconds per decision, or 0 for no limit.
    :ivar hinter: Gives the ``hint`` of a ``play`` request (``None``: no hint).
    """

    kind = "human"
    listens = True

    def __init__(self, name: str, seat: int, view: SeatView, stand_in: Agent, turn_timeout: float = 0.0,
                 hinter: Hinter | None = None) -> None:
        super().__init__(name)
        self.seat = seat
        self.session_id = str(uuid.uuid4())
        self.connection: Connection | None = None
        self.view = view
        self.stand_in = stand_in
        self.turn_timeout = turn_timeout
        self.hinter = hinter
        self.pending: PendingRequest | None = None
        self._recent_ids: deque[str] = deque(maxlen=_RECENT_IDS)

    # -- sending --------------------------------------------------------------------------

    def send(self, message: dict[str, Any] | str) -> None:
        """Send a message if connected (a client that reconnects gets the whole state)."""
        if self.connection is not None:
            self.connection.send(message)

    def send_error(self, error: ProtocolError) -> None:
        """Answer a refused message."""
        self.send(error_message(error.code, error.context, str(error)))

    def notify(self, event: Event) -> None:
        if self.connection is None:
            return
        if event.name == "hand_cards_dealt":
            self.send(notification(event.name, {**event.context, "hand_cards": cards_json(self.view.hand)}))
        elif event.name == "start_playing":
            received = self.view.private_state().received_schupf_cards
            self.send(notification(event.name, {**event.context, "received_schupf_cards": _triple_json(received)}))
        else:
            self.send(_shared_text(event))

    @property
    def pending_payload(self) -> dict[str, Any] | None:
        """The open request's whole payload with the seconds left, or ``None``."""
        pending = self.pending
        if pending is None:
            return None
        if pending.deadline is None:
            return pending.payload
        left = max(0.0, pending.deadline - asyncio.get_running_loop().time())
        return {**pending.payload, "timeout": round(left, 1)}

    # -- requests ---------------------------------------------------------------------------

    async def _ask(self, action: str, context: dict[str, Any], check: Callable[[dict[str, Any]], Any],
                   decide_for_client: Callable[[], Any]) -> Any:
        request_id = uuid.uuid4().hex
        payload = {"request_id": request_id, "action": action, "context": context,
                   "timeout": self.turn_timeout or None}
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        deadline = loop.time() + self.turn_timeout if self.turn_timeout else None
        self.pending = PendingRequest(payload, check, decide_for_client, future, deadline)
        self.send({"type": "request", "payload": payload})
        try:
            if not self.turn_timeout:
                return await future
            try:
                return await asyncio.wait_for(asyncio.shield(future), self.turn_timeout)
            except TimeoutError:
                self.send(error_message(ErrorCode.ACTION_TIMEOUT, {"timeout": self.turn_timeout, "action": action}))
                return decide_for_client()
        finally:
            self._close_request(request_id)

    def _close_request(self, request_id: str) -> None:
        if self.pending and self.pending.payload["request_id"] == request_id:
            if not self.pending.future.done():
                self.pending.future.cancel()
            self.pending = None
            self._recent_ids.append(request_id)

    def handle_response(self, payload: dict[str, Any]) -> None:
        """Check a client's ``response`` and hand a valid answer to the waiting engine.

        :raises ProtocolError: For a response to no or another request, or an answer the
            rules refuse; the request stays open then.
        """
        request_id = require(payload, "request_id", str)
        action = require(payload, "action", str)
        data = payload.get("response_data", {})
        if not isinstance(data, dict):
            raise ProtocolError(ErrorCode.INVALID_MESSAGE, "response_data must be an object")
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

    def release(self) -> None:
        """The seat goes to an agent: an open request is answered by the stand-in at once."""
        pending = self.pending
        if pending is not None and not pending.future.done():
            pending.future.set_result(pending.decide_for_client())

    # -- the engine's questions --------------------------------------------------------------

    async def grand_tichu(self, view: SeatView) -> bool:
        context = {"hand_cards": cards_json(view.hand)}
        return bool(await self._ask("announce_grand_tichu", context, _check_grand_tichu,
                                    lambda: self.stand_in.decide_grand_tichu(view)))

    async def schupf(self, view: SeatView) -> tuple[int, int, int]:
        context = {"hand_cards": cards_json(view.hand)}
        result: tuple[int, int, int] = await self._ask(
            "schupf", context, lambda data: _check_schupf(data, view.hand), lambda: self.stand_in.decide_schupf(view))
        return result

    async def play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        trick = view.trick
        context = {
            "hand_cards": cards_json(view.hand),
            "trick_combination": combination_json(trick) if trick else None,
            "trick_owner_index": view.trick_owner,
            "wish_value": view.wish,
            "legal_plays": [cards_json(play[0]) for play in legal],
            "hint": self._hint(view, legal),
        }
        result: Play = await self._ask("play", context, lambda data: _check_play(data, view, legal),
                                       lambda: self.stand_in.decide_play(view, legal))
        return result

    def _hint(self, view: SeatView, legal: Sequence[Play]) -> list[list[list[int]]] | None:
        """The ``hint`` of a ``play`` request: card lists as in ``legal_plays``, best first, or null."""
        ranked = self.hinter(view, legal) if self.hinter is not None else None
        return None if ranked is None else [cards_json(play[0]) for play in ranked]

    async def wish(self, view: SeatView, choices: Sequence[int]) -> int:
        result: int = await self._ask("wish", {}, lambda data: _check_choice(data, "wish_value", choices,
                                                                            ErrorCode.INVALID_WISH),
                                      lambda: self.stand_in.decide_wish(view, choices))
        return result

    async def give_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        result: int = await self._ask(
            "give_dragon_away", {"opponent_indexes": list(recipients)},
            lambda data: _check_choice(data, "dragon_recipient", recipients, ErrorCode.INVALID_DRAGON_RECIPIENT),
            lambda: self.stand_in.decide_dragon(view, recipients))
        return result


_last_shared: tuple[Event | None, str] = (None, "")


def _shared_text(event: Event) -> str:
    """The JSON text of a notification that every seat receives alike, encoded once per event."""
    global _last_shared
    if _last_shared[0] is not event:
        _last_shared = (event, encode(notification(event.name, event.context)))
    return _last_shared[1]


def _triple_json(triple: tuple[int, int, int] | None) -> list[list[int]] | None:
    return None if triple is None else [cards_json(card)[0] for card in triple]


def _check_grand_tichu(data: dict[str, Any]) -> bool:
    return bool(require(data, "announced", bool))


def _check_schupf(data: dict[str, Any], hand: int) -> tuple[int, int, int]:
    given = require(data, "given_schupf_cards", list)
    if len(given) != 3:
        raise ProtocolError(ErrorCode.INVALID_ACTION, "give exactly three cards: to right, partner, left")
    cards = [cards_from_json([card], limit=1) for card in given]
    if (cards[0] | cards[1] | cards[2]).bit_count() != 3:
        raise ProtocolError(ErrorCode.NOT_UNIQUE_CARDS, "the three cards must differ", cards=given)
    if (cards[0] | cards[1] | cards[2]) & ~hand:
        raise ProtocolError(ErrorCode.NOT_HAND_CARD, cards=given)
    return cards[0], cards[1], cards[2]


def _check_play(data: dict[str, Any], view: SeatView, legal: Sequence[Play]) -> Play:
    cards = require(data, "cards", list)
    mask = cards_from_json(cards)
    if not mask:
        if PASS_PLAY in legal:
            return PASS_PLAY
        raise ProtocolError(ErrorCode.INVALID_ACTION, "you cannot pass now (a lead, or the wish must be fulfilled)")
    try:
        return view.check_play(mask)
    except RuleViolation as error:
        raise ProtocolError.from_violation(error, cards=cards) from error


def _check_choice(data: dict[str, Any], key: str, choices: Sequence[int], code: ErrorCode) -> int:
    value = require(data, key, int)
    if value not in choices:
        raise ProtocolError(code, f"{key} must be one of {list(choices)}", **{key: value})
    return int(value)
