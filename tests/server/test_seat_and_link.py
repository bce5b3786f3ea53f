"""Issue 36: a connected client's seat (:class:`~tichu.server.tables.peer.Peer`, the engine's
Player) and its wire (:class:`~tichu.server.wire.client_link.ClientLink`), each alone, with fakes
for the other: the link sends and tells the seat's private part (R8.2) and what the seat may do
beyond its turn (R6.1, R4.3); the seat asks, checks and answers the engine, and lets its
stand-in answer on a timeout."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, cast

import pytest

from tichu.agents.agent import Agent
from tichu.core.flow import GameState
from tichu.core.ruleset import RuleSet
from tichu.core.views import PrivateState, SeatView, TableInfo, build_private_state
from tichu.engine.events import Event, HandCardsDealt, WishMade
from tichu.engine.player import Later
from tichu.server.codes import ErrorCode
from tichu.server.tables.peer import HAND_OVER_TIMEOUTS, Peer
from tichu.server.wire.client_link import ClientLink
from tichu.server.wire.connection import Connection
from tichu.server.wire.incoming import Response
from tichu.server.wire.outgoing import PrivateState as PrivateStateJson
from tichu.server.wire.outgoing import PublicState as PublicStateJson
from tichu.server.wire.outgoing import RequestPayload, ServerMessage
from tichu.server.wire.protocol import ProtocolError, table_public_json
from tichu.server.workers.agent_pool import AgentPool

# -- the link alone ---------------------------------------------------------------------------


class FakeConnection:
    """Collects what is sent, as JSON."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, message: ServerMessage | str) -> None:
        self.sent.append(json.loads(message) if isinstance(message, str) else dict(message))


def events(sent: list[dict[str, Any]]) -> list[str]:
    """The notifications' event names (or the message type) in order."""
    return [message["payload"]["event"] if message["type"] == "notification" else message["type"]
            for message in sent]


def private(seat: int = 1, hand: int = 0b1111, may_announce: bool = True) -> PrivateState:
    return PrivateState(seat, hand, None, None, may_announce)


def public() -> PublicStateJson:
    """The table's public state as the link is handed it (a lobby before the first deal)."""
    return table_public_json(TableInfo(player_names=["Ann", "Ben", "Cid", "Dee"]), None)


def test_the_link_sends_only_the_state_that_changed_for_its_client() -> None:
    """Issue 36: each event carries the public and private fields that changed since the client's
    ``player_joined`` or the event before; none when nothing changed."""
    connection = FakeConnection()
    link = ClientLink(cast(Connection, connection))
    link.joined_public(public())
    link.joined(private(hand=0b1111))
    link.notify(WishMade(5), lambda: private(hand=0b1111), public)
    changed = {**public(), "wish_value": 5, "wish_open": True}
    link.notify(WishMade(6), lambda: private(hand=0b0111), lambda: cast(PublicStateJson, changed))
    first, second = (message["payload"]["context"] for message in connection.sent)
    assert "public_delta" not in first and "private_delta" not in first
    assert second["public_delta"] == {"wish_value": 5, "wish_open": True}
    assert list(second["private_delta"]) == ["hand_cards"] and len(second["private_delta"]["hand_cards"]) == 3


def test_a_link_without_a_connection_sends_nothing_and_builds_no_private_state() -> None:
    """A client away gets the whole state when it comes back: nothing is sent or built meanwhile."""
    link = ClientLink()
    built: list[PrivateState] = []

    def state() -> PrivateState:
        built.append(private())
        return built[-1]

    link.send({"type": "pong"})
    link.notify(WishMade(5), state, public)
    assert built == []


def test_the_link_tells_a_change_of_the_seat_options_once() -> None:
    """After each notification, ``private_state_changed`` follows only when what the seat may do
    beyond its turn (R6.1, R4.3) differs from what it was last told (its ``player_joined``)."""
    connection = FakeConnection()
    link = ClientLink(cast(Connection, connection))
    joined: PrivateStateJson = link.joined(private(may_announce=True))
    assert joined["may_announce"] is True
    link.notify(WishMade(5), lambda: private(may_announce=True), public)
    link.notify(WishMade(6), lambda: private(may_announce=False), public)
    link.notify(WishMade(7), lambda: private(may_announce=False), public)
    assert events(connection.sent) == ["wish_made", "wish_made", "private_state_changed", "wish_made"]
    assert connection.sent[2]["payload"]["context"]["private_state"]["may_announce"] is False


def test_the_link_adds_the_seat_own_cards_to_a_deal() -> None:
    """R8.2: a deal's notification carries this seat's hand, from the private state it is handed."""
    connection = FakeConnection()
    link = ClientLink(cast(Connection, connection))
    link.joined(private())
    link.notify(HandCardsDealt(8), lambda: private(hand=0b111), public)
    [dealt] = connection.sent
    assert dealt["payload"]["event"] == "hand_cards_dealt" and len(dealt["payload"]["context"]["hand_cards"]) == 3


def test_the_link_words_errors_cancellations_and_timeouts() -> None:
    """The seat's refusals and request ends go over the wire as the protocol words them."""
    connection = FakeConnection()
    link = ClientLink(cast(Connection, connection))
    link.send_error(ProtocolError(ErrorCode.REQUEST_OBSOLETE, action="play", request_id="r1"))
    link.request_cancelled("r2")
    link.timed_out("play", 30.0)
    error, cancelled, timeout = connection.sent
    assert error["payload"]["code"] == ErrorCode.REQUEST_OBSOLETE
    assert cancelled["payload"] == {"event": "request_cancelled", "context": {"request_id": "r2"}}
    assert timeout["payload"]["code"] == ErrorCode.ACTION_TIMEOUT
    assert timeout["payload"]["context"] == {"timeout": 30.0, "action": "play"}


# -- the seat alone ---------------------------------------------------------------------------


class FakeLink:
    """Records what the seat says to its client."""

    def __init__(self) -> None:
        self.connection: Connection | None = None
        self.said: list[tuple[str, Any]] = []
        self.private_states: list[PrivateState] = []

    def send(self, message: ServerMessage | str) -> None:
        self.said.append(("send", message))

    def send_error(self, error: ProtocolError) -> None:
        self.said.append(("error", error.code))

    def notify(self, event: Event, private_state: Callable[[], PrivateState],
               public_state: Callable[[], PublicStateJson]) -> None:
        self.private_states.append(private_state())
        self.said.append(("notify", event))

    def joined_public(self, state: PublicStateJson) -> PublicStateJson:
        return state

    def joined(self, state: PrivateState) -> PrivateStateJson:
        self.private_states.append(state)
        return cast(PrivateStateJson, {})

    def request(self, payload: RequestPayload) -> None:
        self.said.append(("request", payload))

    def request_cancelled(self, request_id: str) -> None:
        self.said.append(("cancelled", request_id))

    def timed_out(self, action: str, timeout: float) -> None:
        self.said.append(("timed_out", action))


class InlinePool:
    """An agent pool that decides at once, in the test's process."""

    async def decide(self, method: Callable[..., Any], *args: Any, pause: float = 0.0) -> Any:
        return method(*args)


class CallingStandIn:
    """A stand-in that calls Grand Tichu."""

    def decide_grand_tichu(self, view: SeatView) -> bool:
        return True


class Watcher:
    """Counts the clock's changes and hears the hand-overs."""

    def __init__(self) -> None:
        self.clock_changes = 0
        self.hand_overs: list[str | None] = []

    def clock_changed(self) -> None:
        self.clock_changes += 1

    def handed_over(self, peer: Peer, reason: str | None) -> None:
        self.hand_overs.append(reason)


class Table:
    """The seat's table: a game just dealt (its Grand Tichu decisions open)."""

    def __init__(self) -> None:
        self.info = TableInfo()
        state = GameState(RuleSet())
        state.deal()
        self.round = state.round


def seat(turn_timeout: float = 0.0) -> tuple[Peer, FakeLink, Watcher, Table]:
    link, watcher, table = FakeLink(), Watcher(), Table()
    peer = Peer("Ann", 1, table, cast(Agent, CallingStandIn()), cast(AgentPool, InlinePool()), turn_timeout,
                watcher=watcher, link=link)
    return peer, link, watcher, table


def payload_of(link: FakeLink) -> RequestPayload:
    [payload] = [said for kind, said in link.said if kind == "request"]
    return cast(RequestPayload, payload)


async def asked(later: Later[Any]) -> asyncio.Task[Any]:
    task = asyncio.ensure_future(later.answer)
    await asyncio.sleep(0)  # the request goes out
    return task


async def test_the_seat_asks_over_its_link_and_hands_a_valid_answer_to_the_engine() -> None:
    peer, link, watcher, table = seat()
    assert table.round is not None
    task = await asked(peer.grand_tichu(SeatView.of(table, 1)))
    payload = payload_of(link)
    assert payload["action"] == "announce_grand_tichu" and watcher.clock_changes == 1
    with pytest.raises(ProtocolError) as refused:
        peer.handle_response(Response("another", "announce_grand_tichu", {"announced": True}))
    assert refused.value.code == ErrorCode.REQUEST_OBSOLETE and not task.done()  # the request stays open
    peer.handle_response(Response(payload["request_id"], "announce_grand_tichu", {"announced": False}))
    assert await task is False and watcher.clock_changes == 2 and peer.pending is None


async def test_a_cancelled_request_is_told_over_the_link() -> None:
    peer, link, _, table = seat()
    task = await asked(peer.grand_tichu(SeatView.of(table, 1)))
    request_id = payload_of(link)["request_id"]
    peer.request_cancelled()
    assert ("cancelled", request_id) in link.said
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_the_stand_in_answers_on_a_timeout_and_takes_the_seat_after_repeated_ones() -> None:
    """A timeout is told over the link and the stand-in answers; after
    :data:`HAND_OVER_TIMEOUTS` in a row the seat is handed over (its watcher hears it)."""
    peer, link, watcher, table = seat(turn_timeout=0.01)
    for _ in range(HAND_OVER_TIMEOUTS):
        assert await peer.grand_tichu(SeatView.of(table, 1)).answer is True
    assert [kind for kind, _ in link.said].count("timed_out") == HAND_OVER_TIMEOUTS
    assert watcher.hand_overs == ["timeout"] and peer.hand_over_reason == "timeout"
    link.said.clear()
    assert await peer.grand_tichu(SeatView.of(table, 1)).answer is True
    assert link.said == []  # handed over: the client is not asked


def test_the_seat_hands_its_link_its_own_private_state() -> None:
    """R8.2: what goes with a notification is this seat's private state (its own hand)."""
    peer, link, _, table = seat()
    assert table.round is not None
    peer.notify(WishMade(5))
    peer.joining_private_state()
    assert link.private_states == [build_private_state(table.round, 1)] * 2
    assert link.private_states[0].hand_cards == table.round.hands[1]


def test_the_seat_forwards_its_sends_to_the_link() -> None:
    peer, link, _, _ = seat()
    peer.send("x")
    peer.send_error(ProtocolError(ErrorCode.INVALID_ACTION))
    assert link.said == [("send", "x"), ("error", ErrorCode.INVALID_ACTION)]
