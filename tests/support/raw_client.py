"""A small raw WebSocket test client (protocol.md) and the server that hands it out.

:class:`Client` is a deliberately small client written for the tests (it does not use
``tichu.client.wsclient``): it records every message it receives (``json.loads`` of each
text frame), sends messages, waits for a message with a timeout, and can play a whole game by
answering every ``request`` with a uniformly random legal choice taken from the request's
context (seeded).

While it plays, a :class:`Client` also checks the request life cycle of protocol.md: a
seat never gets a new ``request`` while its previous one is still open, unless that one
was answered, cancelled (``request_cancelled``) or timed out (``ACTION_TIMEOUT``).

:class:`Server` is a :class:`~tests.support.live_server.LiveServer` that connects such
clients (:meth:`Server.join`, :meth:`Server.reconnect`, :meth:`Server.raw`) and closes them
with itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import aiohttp

from tests.support.cards import Card, card_set
from tests.support.live_server import WAIT, LiveServer, Message

#: Seconds a whole game of a test may take.
GAME_WAIT = 120.0


class Skip:
    """Marker a strategy returns to leave a request unanswered for now (e.g. after a bomb)."""


SKIP = Skip()
Strategy = Callable[["Client", Message], Awaitable[Message | Skip | None]]


def is_event(message: Message, event: str, **context: Any) -> bool:
    """Whether a message is the notification ``event`` whose context has these values."""
    if message.get("type") != "notification" or message["payload"]["event"] != event:
        return False
    found = message["payload"]["context"]
    return all(found.get(key) == value for key, value in context.items())


def is_error(message: Message, code: int | None = None) -> bool:
    """Whether a message is an ``error`` (with this code)."""
    return message.get("type") == "error" and (code is None or message["payload"]["code"] == code)


def is_request(message: Message, action: str | None = None) -> bool:
    """Whether a message is a ``request`` (for this action)."""
    return message.get("type") == "request" and (action is None or message["payload"]["action"] == action)


class Client:
    """One seat's WebSocket, every message it received, and a random player for it.

    :ivar messages: Every message received, in order (``json.loads`` of each text frame).
    :ivar times: When each message arrived (``time.monotonic()``).
    :ivar seat: The seat, from ``player_joined`` and ``players_swapped``.
    :ivar session_id: The session id from ``player_joined``.
    :ivar open_request: The payload of the request this seat must answer, or ``None``.
    :ivar hand: The seat's own hand as this client knows it.
    :ivar violations: Breaches of the request life cycle seen so far.
    :ivar close_code: The WebSocket close code once the server closed the socket.
    """

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, name: str, seed: int) -> None:
        self.ws = ws
        self.name = name
        self.rng = random.Random(seed)
        self.messages: list[Message] = []
        self.times: list[float] = []  # when each message arrived (time.monotonic)
        self.binary_frames = 0
        self.close_code: int | None = None
        self.closed = asyncio.Event()
        self._changed = asyncio.Event()
        self.seat: int | None = None
        self.session_id: str | None = None
        self.cursor = 0
        self.open_request: Message | None = None
        self.answered: set[str] = set()
        self.cancelled: set[str] = set()
        self.timed_out: set[str] = set()
        self.superseded: set[str] = set()
        self.violations: list[str] = []
        self.unexpected_errors: list[Message] = []
        self._provoked: set[int] = set()  # ids of error messages a test provoked on purpose
        self.hand: set[Card] = set()
        self.played_this_round = False
        self.grand_tichu_rate = 0.0
        #: Accept REQUEST_OBSOLETE for an answered request (the server re-issues the open request of
        #: the seat at turn, without ``request_cancelled``, when another seat changes hands; see
        #: test_reconnect.py::test_a_seat_changing_hands_does_not_drop_another_seats_request_silently).
        self.tolerate_reissue = False
        self.reissued: list[str] = []
        self._reader = asyncio.create_task(self._read(), name=f"reader {name}")

    # -- receiving ---------------------------------------------------------------------------

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                if frame.type == aiohttp.WSMsgType.TEXT:
                    self.messages.append(json.loads(frame.data))
                    self.times.append(time.monotonic())
                elif frame.type == aiohttp.WSMsgType.BINARY:
                    self.binary_frames += 1
                else:
                    break
                self._changed.set()
        finally:
            self.close_code = self.ws.close_code
            self.closed.set()
            self._changed.set()

    async def wait_for(self, predicate: Callable[[Message], bool], *, start: int = 0,
                       timeout: float = WAIT, or_closed: bool = False) -> tuple[int, Message]:
        """Wait for the first message at index ``start`` or later that matches.

        :param or_closed: Return ``(-1, {})`` instead of failing when the socket closes first.
        :returns: Its index and the message.
        :raises AssertionError: On timeout or when the socket closed first.
        """
        index = start
        try:
            async with asyncio.timeout(timeout):
                while True:
                    while index < len(self.messages):
                        if predicate(self.messages[index]):
                            return index, self.messages[index]
                        index += 1
                    if self.closed.is_set():
                        if or_closed:
                            return -1, {}
                        raise AssertionError(f"{self.name}: the socket closed ({self.close_code}) while waiting; "
                                             f"last messages: {self.messages[-5:]}")
                    self._changed.clear()
                    await self._changed.wait()
        except TimeoutError:
            raise AssertionError(f"{self.name}: nothing matched within {timeout} s; "
                                 f"last messages: {self.messages[-5:]}") from None

    async def wait_event(self, event: str, *, start: int = 0, timeout: float = WAIT, **context: Any) -> Message:
        """Wait for a notification (with these context values) and return its context."""
        _, message = await self.wait_for(lambda m: is_event(m, event, **context), start=start, timeout=timeout)
        payload: Message = message["payload"]["context"]
        return payload

    async def wait_error(self, code: int, *, start: int = 0, timeout: float = WAIT) -> Message:
        """Wait for an ``error`` with this code and return its payload."""
        _, message = await self.wait_for(lambda m: is_error(m, code), start=start, timeout=timeout)
        self._provoked.add(id(message))
        payload: Message = message["payload"]
        return payload

    async def wait_closed(self, timeout: float = WAIT) -> int | None:
        """Wait until the server closed the socket; return the close code."""
        try:
            async with asyncio.timeout(timeout):
                await self.closed.wait()
        except TimeoutError:
            raise AssertionError(f"{self.name}: the socket is still open after {timeout} s") from None
        return self.close_code

    # -- sending -----------------------------------------------------------------------------

    async def send(self, message: Message | str) -> None:
        """Send a message (a dict as JSON, a str as it is)."""
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def send_type(self, kind: str, **payload: Any) -> None:
        """Send ``{"type": kind, "payload": payload}``."""
        await self.send({"type": kind, "payload": payload})

    async def roundtrip(self, message: Message | str | bytes, timeout: float = WAIT) -> list[Message]:
        """Send a message, then ``ping``; return what arrived before the ``pong``.

        The server handles a connection's frames in order and sends in order, so every
        answer to ``message`` arrives before the ``pong``.
        """
        start = len(self.messages)
        if isinstance(message, bytes):
            await self.ws.send_bytes(message)
        else:
            await self.send(message)
        await self.send({"type": "ping"})
        index, _ = await self.wait_for(lambda m: m.get("type") == "pong", start=start, timeout=timeout)
        answers = self.messages[start:index]
        self._provoked.update(id(answer) for answer in answers if is_error(answer))
        return answers

    async def flush(self, timeout: float = WAIT) -> None:
        """Wait until every message the server sent before now has arrived: one ``ping``, its ``pong``."""
        start = len(self.messages)
        await self.send({"type": "ping"})
        await self.wait_for(lambda m: m.get("type") == "pong", start=start, timeout=timeout)

    async def expect_error(self, message: Message | str | bytes, code: int) -> Message:
        """Send a message that must be refused with exactly one ``error`` of ``code`` and nothing else.

        :returns: The error's payload.
        """
        answers = await self.roundtrip(message)
        assert [answer.get("type") for answer in answers] == ["error"], (message, answers)
        payload: Message = answers[0]["payload"]
        assert payload["code"] == code, (message, payload)
        assert isinstance(payload["message"], str) and isinstance(payload["context"], dict), payload
        return payload

    async def respond(self, request: Message, data: Message) -> None:
        """Answer a request (its payload) with ``response_data``."""
        self.answered.add(request["request_id"])
        if request["action"] == "schupf":
            self.hand -= card_set(data["given_schupf_cards"])
        await self.send_type("response", request_id=request["request_id"], action=request["action"],
                             response_data=data)

    async def drop(self) -> None:
        """Close the socket without ``leave`` (a lost connection)."""
        await self.ws.close()
        await self.wait_closed()

    # -- following the table -------------------------------------------------------------------

    def process(self, message: Message) -> None:
        """Update what this client knows from one message (and check the request life cycle)."""
        kind = message.get("type")
        payload = message.get("payload") or {}
        if kind == "request":
            self._new_request(payload)
        elif kind == "error":
            code, context = payload["code"], payload["context"]
            if code == 309 and self.open_request is not None:
                self.timed_out.add(self.open_request["request_id"])
                self.open_request = None
            elif id(message) in self._provoked:
                pass
            elif code == 310 and context.get("request_id") in self.cancelled | self.timed_out | self.superseded:
                pass  # a late answer to a request the server had closed
            elif code == 310 and self.tolerate_reissue and context.get("request_id") in self.answered:
                self.reissued.append(context["request_id"])
            else:
                self.unexpected_errors.append(message)
        elif kind == "notification":
            self._notification(payload["event"], payload["context"])

    def _new_request(self, payload: Message) -> None:
        old = self.open_request
        if old is not None and old["request_id"] not in self.answered | self.cancelled | self.timed_out:
            self.violations.append(f"seat {self.seat}: request {payload['action']} {payload['request_id']} while "
                                   f"{old['action']} {old['request_id']} is still open (no request_cancelled)")
            self.superseded.add(old["request_id"])
        self.open_request = payload
        hand = payload["context"].get("hand_cards")
        if hand is not None:
            self.hand = set(card_set(hand))

    def _notification(self, event: str, context: Message) -> None:
        if event == "player_joined" and "session_id" in context:
            self.seat = context["player_index"]
            self.session_id = context["session_id"]
            self.hand = set(card_set(context["private_state"]["hand_cards"]))
            if context["pending_request"] is not None:
                self._new_request(context["pending_request"])
        elif event == "players_swapped":
            first, second = context["player_index_1"], context["player_index_2"]
            if self.seat == first:
                self.seat = second
            elif self.seat == second:
                self.seat = first
        elif event == "request_cancelled":
            self.cancelled.add(context["request_id"])
            if self.open_request is not None and self.open_request["request_id"] == context["request_id"]:
                self.open_request = None
        elif event == "hand_cards_dealt":
            self.hand = set(card_set(context["hand_cards"]))
        elif event == "start_playing":
            self.hand |= card_set(context["received_schupf_cards"])
        elif event == "round_started":
            self.played_this_round = False
        elif event == "player_played" and context["turn"][0] == self.seat:
            self.hand -= card_set(context["turn"][1])
            self.played_this_round = True

    async def until_joined(self) -> None:
        """Wait for the own ``player_joined`` (the one with the session id) and read up to it."""
        await self.wait_for(lambda m: is_event(m, "player_joined") and "session_id" in m["payload"]["context"])
        self.process_until_joined()

    def process_until_joined(self) -> None:
        """Read the messages up to the own ``player_joined`` (so that :attr:`seat` is known)."""
        while self.seat is None and self.cursor < len(self.messages):
            self.process(self.messages[self.cursor])
            self.cursor += 1

    def random_answer(self, request: Message) -> Message:
        """A uniformly random legal answer from the request's context (Grand Tichu: ``grand_tichu_rate``)."""
        action, context = request["action"], request["context"]
        if action == "announce_grand_tichu":
            return {"announced": self.rng.random() < self.grand_tichu_rate}
        if action == "schupf":
            return {"given_schupf_cards": self.rng.sample(context["hand_cards"], 3)}
        if action == "play":
            return {"cards": self.rng.choice(context["legal_plays"])}
        if action == "wish":
            return {"wish_value": self.rng.choice(context["wish_values"])}
        if action == "give_dragon_away":
            return {"dragon_recipient": self.rng.choice(context["opponent_indexes"])}
        raise AssertionError(f"unknown request {request}")

    async def play(self, until: str | Callable[[Message], bool] | None = "game_over", *,
                   hold: Callable[[Message], bool] | None = None, strategy: Strategy | None = None,
                   timeout: float = GAME_WAIT) -> Message:
        """Follow the table and answer every request until a message matches ``until``.

        Messages are taken in order from :attr:`cursor`; after all that arrived so far are
        read, the open request (if any) is answered: by ``strategy`` (which may return
        ``None`` for the random answer, or :data:`SKIP`), else at random. An ``error`` the
        test did not provoke (e.g. a refused answer) fails at once.

        :param until: An event name or a predicate on messages; the matching message is returned.
        :param hold: A predicate on request payloads: such a request is returned unanswered
            (it stays :attr:`open_request`, and a later :meth:`play` answers it).
        """
        stop = (lambda m: is_event(m, until)) if isinstance(until, str) else until
        try:
            async with asyncio.timeout(timeout):
                while True:
                    while self.cursor < len(self.messages):
                        message = self.messages[self.cursor]
                        self.cursor += 1
                        self.process(message)
                        if self.unexpected_errors:
                            raise AssertionError(f"{self.name} (seat {self.seat}): unexpected error "
                                                 f"{self.unexpected_errors[-1]} (last answer refused?)")
                        if stop is not None and stop(message):
                            return message
                    request = self.open_request
                    if request is not None and request["request_id"] not in self.answered:
                        if hold is not None and hold(request):
                            return {"type": "request", "payload": request}
                        data = await strategy(self, request) if strategy is not None else None
                        if isinstance(data, Skip):
                            await self._next_message()
                            continue
                        if self.open_request is request and request["request_id"] not in self.answered:
                            await self.respond(request, data if data is not None else self.random_answer(request))
                        continue
                    await self._next_message()
        except TimeoutError:
            raise AssertionError(f"{self.name} (seat {self.seat}): {until!r} did not come within {timeout} s; "
                                 f"last messages: {self.messages[-5:]}") from None

    async def _next_message(self) -> None:
        if self.cursor < len(self.messages):
            return
        if self.closed.is_set():
            raise AssertionError(f"{self.name}: the server closed the socket ({self.close_code}); "
                                 f"last messages: {self.messages[-5:]}")
        self._changed.clear()
        await self._changed.wait()

    def events(self, event: str) -> list[Message]:
        """The contexts of every notification ``event`` received so far."""
        return [m["payload"]["context"] for m in self.messages if is_event(m, event)]

    def errors(self) -> list[Message]:
        """The payloads of every ``error`` received so far."""
        return [m["payload"] for m in self.messages if is_error(m)]

    def assert_clean(self) -> None:
        """No request life-cycle breach and no error the client did not provoke."""
        assert not self.violations, self.violations
        assert not self.unexpected_errors, self.unexpected_errors

    async def close(self) -> None:
        """Close the socket and stop reading."""
        with contextlib.suppress(Exception):
            await self.ws.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader


@dataclass
class Server(LiveServer):
    """A running server and the raw clients a test connected to it.

    :ivar session: The HTTP session of the clients.
    :ivar clients: Every client connected, closed with the server.
    """

    session: aiohttp.ClientSession = field(default_factory=aiohttp.ClientSession)
    clients: list[Client] = field(default_factory=list)

    async def raw(self, query: str, *, seed: int = 0, name: str = "raw") -> Client:
        """Connect with a raw query string (no check of the answer)."""
        ws = await self.session.ws_connect(f"http://127.0.0.1:{self.port}/ws?{query}", autoping=True)
        client = Client(ws, name, seed)
        self.clients.append(client)
        return client

    async def join(self, player_name: str, table_name: str, *, seed: int = 0) -> Client:
        """Connect as a new player and wait for the own ``player_joined``."""
        client = await self.raw(urlencode({"player_name": player_name, "table_name": table_name}),
                                seed=seed, name=player_name)
        await client.until_joined()
        return client

    async def reconnect(self, old: Client, *, seed: int = 1) -> Client:
        """Connect with ``old``'s session id and wait for the own ``player_joined``."""
        assert old.session_id is not None
        client = await self.raw(urlencode({"session_id": old.session_id}), seed=seed, name=old.name)
        await client.until_joined()
        return client

    async def close(self) -> None:
        """Close the clients, stop the server, close the session."""
        for client in self.clients:
            await client.close()
        await self.stop()
        await self.session.close()


StartServer = Callable[..., Awaitable[Server]]
