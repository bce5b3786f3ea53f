"""A real server on a free port and a small raw WebSocket test client (protocol.md).

The server tests start :func:`tichu.server.app.create_app` with an ``aiohttp`` runner on
``127.0.0.1`` port 0 and talk to it with :class:`Client`, a deliberately small client
written for the tests (it does not use the ``tichu.client`` package): it records every message it
receives (``json.loads`` of each text frame), sends messages, waits for a message with a
timeout, and can play a whole game by answering every ``request`` with a uniformly random
legal choice taken from the request's context (seeded).

While it plays, a :class:`Client` also checks the request life cycle of protocol.md: a
seat never gets a new ``request`` while its previous one is still open, unless that one
was answered, cancelled (``request_cancelled``) or timed out (``ACTION_TIMEOUT``).

The test modules import the helpers from here (``from tests.server.conftest import ...``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp
import pytest
from aiohttp import web
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tichu.agents.agent import Agent
from tichu.agents.registry import make_agent
from tichu.core.cards import cards_of, mask_of, parse_mask
from tichu.core.game import Game
from tichu.core.round import Round
from tichu.core.ruleset import RuleSet
from tichu.records.record import read_records
from tichu.server import table as table_module
from tichu.server.app import FACTORY, create_app
from tichu.server.config import Settings
from tichu.server.factory import GameFactory
from tichu.server.table import Table

Message = dict[str, Any]
Card = tuple[int, int]
#: Seconds any single wait of a test may take before it fails (a bug must not hang the suite).
WAIT = 10.0
#: Seconds a whole game of a test may take.
GAME_WAIT = 40.0


class Skip:
    """Marker a strategy returns to leave a request unanswered for now (e.g. after a bomb)."""


SKIP = Skip()
Strategy = Callable[["Client", Message], Awaitable[Message | Skip | None]]


def card_set(cards: Iterable[Sequence[int]]) -> frozenset[Card]:
    """Protocol ``[value, suit]`` pairs as a set of tuples."""
    return frozenset((int(card[0]), int(card[1])) for card in cards)


def labels_set(labels: str) -> frozenset[Card]:
    """Record labels (records.md) as a set of ``(value, suit)`` tuples."""
    return frozenset((card.value, card.suit) for card in cards_of(parse_mask(labels)))


def mask_from_json(cards: Iterable[Sequence[int]]) -> int:
    """Protocol cards as a card mask."""
    return mask_of((int(card[0]), int(card[1])) for card in cards)


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
        :result: Its index and the message.
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

    async def expect_error(self, message: Message | str | bytes, code: int) -> Message:
        """Send a message that must be refused with exactly one ``error`` of ``code`` and nothing else.

        :result: The error's payload.
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
            return {"wish_value": self.rng.randint(2, 14)}
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
class Server:
    """A running server and the clients connected to it by a test.

    :ivar settings: Its settings.
    :ivar port: The port it listens on.
    """

    settings: Settings
    app: web.Application
    runner: web.AppRunner
    port: int
    session: aiohttp.ClientSession
    clients: list[Client] = field(default_factory=list)
    stopped: bool = False

    @property
    def factory(self) -> GameFactory:
        """The server's game factory (white-box access for checks)."""
        return self.app[FACTORY]

    def table(self, name: str) -> Table:
        """An open table by name."""
        return self.factory.tables[name]

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
        await client.wait_for(lambda m: is_event(m, "player_joined") and "session_id" in m["payload"]["context"])
        client.process_until_joined()
        return client

    async def reconnect(self, old: Client, *, seed: int = 1) -> Client:
        """Connect with ``old``'s session id and wait for the own ``player_joined``."""
        assert old.session_id is not None
        client = await self.raw(urlencode({"session_id": old.session_id}), seed=seed, name=old.name)
        await client.wait_for(lambda m: is_event(m, "player_joined") and "session_id" in m["payload"]["context"])
        client.process_until_joined()
        return client

    async def stop(self) -> None:
        """Shut the server down (``runner.cleanup()``)."""
        if not self.stopped:
            self.stopped = True
            await self.runner.cleanup()


StartServer = Callable[..., Awaitable[Server]]


@pytest.fixture(autouse=True)
def seeded_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    """Agents the tables create get seeds 1, 2, 3, ... in creation order (they are unseeded
    otherwise), so that a test's games are reproducible from its settings and client seeds."""
    counter = itertools.count(1)

    def make_seeded_agent(kind: str, *, name: str | None = None, seed: int | None = None) -> Agent:
        return make_agent(kind, name=name, seed=next(counter) if seed is None else seed)

    monkeypatch.setattr(table_module, "make_agent", make_seeded_agent)


@pytest.fixture
async def start_server(tmp_path: Path) -> AsyncIterator[StartServer]:
    """Start real servers on free ports: ``await start_server(**settings)``; all stopped at the end.

    Defaults: random agents and no hints (both fast; the server's defaults are Monte Carlo agents
    and hints on, see test_options_and_hints.py), no bomb window, no agent delay, grace period
    0.3 s, target score 200, seed 7, data in ``tmp_path``.
    """
    servers: list[Server] = []

    async def start(**overrides: Any) -> Server:
        values: dict[str, Any] = {"port": 0, "bomb_window": 0.0, "agent_delay": 0.0, "grace_period": 0.3,
                                  "data_dir": tmp_path / f"data{len(servers)}", "target_score": 200, "seed": 7,
                                  "agent": "random", "hints": False}
        values.update(overrides)
        settings = Settings(**values)
        app = create_app(settings)
        runner = web.AppRunner(app, shutdown_timeout=2.0)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        server = Server(settings, app, runner, port, aiohttp.ClientSession())
        servers.append(server)
        return server

    yield start
    for server in servers:
        for client in server.clients:
            await client.close()
        await server.stop()
        await server.session.close()


# -- helpers for the tests ----------------------------------------------------------------------


async def eventually(predicate: Callable[[], bool], timeout: float = WAIT) -> None:
    """Poll until ``predicate()`` holds (for server-side effects of timers)."""
    try:
        async with asyncio.timeout(timeout):
            while not predicate():
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise AssertionError(f"still not true after {timeout} s") from None


def read_table_records(server: Server, table: str, file: str = "games.jsonl") -> list[Message]:
    """The game records the server wrote for a table (``data_dir/records/<file>``)."""
    path = server.settings.data_dir / "records" / file
    if not path.is_file():
        return []
    return [record for record in read_records(path) if record.get("table") == table]


def deals_of(seed: int, rounds: int = 1) -> list[list[frozenset[Card]]]:
    """The 14 cards each seat is dealt in the first rounds of a game with ``Settings(seed=seed)``."""
    game = Game(RuleSet(seed=seed))
    deals = []
    for _ in range(rounds):
        round_ = game.new_round()
        deals.append([frozenset((card.value, card.suit) for card in cards_of(first | rest))
                      for first, rest in zip(round_.first_deal, round_.second_deal)])
    return deals


def find_seed(predicate: Callable[[list[list[frozenset[Card]]]], bool], rounds: int = 1, limit: int = 20000) -> int:
    """The first seed whose deals of the first ``rounds`` rounds (14 cards per seat) satisfy ``predicate``."""
    for seed in range(limit):
        if predicate(deals_of(seed, rounds)):
            return seed
    raise AssertionError("no seed found")


def table_snapshot(server: Server, table_name: str) -> tuple[Any, ...]:
    """Everything a refused message must leave unchanged at a table (white-box)."""
    table = server.table(table_name)
    info = table.info
    round_: Round | None = table.round
    pending = tuple(peer.pending.payload["request_id"] if peer and peer.pending else None for peer in table.peers)
    seats = tuple(peer.name if peer else None for peer in table.peers)
    if round_ is None:
        return info.phase, info.host_index, tuple(info.player_names), info.is_running, seats, pending
    return (info.phase, info.host_index, tuple(info.player_names), info.is_running, seats, pending,
            round_.phase, round_.decision, round_.decision_seat, tuple(round_.hands), round_.trick,
            round_.trick_owner, round_.trick_closed, tuple(round_.announcements), round_.wish_value,
            round_.wish_open, tuple(round_.out_order), len(round_.events), tuple(round_.given),
            tuple(round_.won), round_.played)


def collect_examples(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    """Draw ``count`` examples of a hypothesis strategy (deterministically, no shrinking).

    A plain synchronous ``@given`` function collects them, so the async tests can send
    them over a live socket.
    """
    examples: list[Any] = []

    @hypothesis_settings(max_examples=count, database=None, derandomize=True, deadline=None,
                         phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(example: Any) -> None:
        examples.append(example)

    collect()
    return examples


async def expect_refused(server: Server, client: Client, table: str, message: Message | str | bytes,
                         code: int) -> Message:
    """Send a message that must be answered with exactly one ``error`` of ``code`` and change
    nothing at the table (protocol.md "Errors": a refused message never changes the game state
    and never closes the connection; the open request stays open).

    :result: The error's payload.
    """
    before = table_snapshot(server, table)
    payload = await client.expect_error(message, code)
    assert table_snapshot(server, table) == before, f"{message!r} changed the table"
    assert not client.closed.is_set()
    return payload


#: Keys whose values hold a seat's private cards.
PRIVATE_KEYS = {"hand_cards", "legal_plays", "hint", "received_schupf_cards", "given_schupf_cards", "hands"}


def walk(value: Any) -> Iterator[tuple[str, Any]]:
    """Every ``(key, value)`` pair in nested JSON objects and lists."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def check_seat_messages(client: Client, record: Message) -> int:
    """Check every message one seat received against the record; return the ``hands_revealed`` count.

    - ``hand_cards`` (notifications, requests, ``private_state``) and every ``legal_plays``
      entry hold only the seat's own cards of the current round (R8.2); the 8 and the 14
      dealt cards are exactly the seat's deal;
    - ``received_schupf_cards`` are exactly the cards pushed to this seat, ``given_schupf_cards``
      the seat's own push (R2.3, R8.2);
    - ``hands_revealed`` arrives only after the seat itself is out (R8.3);
    - ``player_played`` carries exactly the cards played, in the record's order, and
      ``out_of_turn`` only for the record's out-of-turn bombs;
    - ``public_state`` has no hand of any seat (R8.1: counts only).
    """
    seat = client.seat
    assert seat is not None
    rounds = record["rounds"]
    round_index: int | None = None
    own: frozenset[Card] = frozenset()
    out: list[int] = []
    plays: list[list[tuple[int, frozenset[Card], bool]]] = [[] for _ in rounds]
    revealed = 0
    for message in client.messages:
        payload = message.get("payload") or {}
        if is_event(message, "round_started"):
            round_index = payload["context"]["round_index"]
            data = rounds[round_index]
            deal8, rest = labels_set(data["deal"][seat]), labels_set(data["deal_rest"][seat])
            push = data["push"]
            received = [labels_set(push[(seat + 1) % 4][2]), labels_set(push[(seat + 2) % 4][1]),
                        labels_set(push[(seat + 3) % 4][0])]
            given = [labels_set(label) for label in push[seat]]
            own = deal8 | rest | frozenset().union(*received)
            out = []
        for key, value in walk(payload):
            if key not in PRIVATE_KEYS or value is None:
                continue
            assert round_index is not None or value == [], (key, message)
            if key == "hand_cards":
                assert card_set(value) <= own, (seat, message)
            elif key in ("legal_plays", "hint"):
                assert all(card_set(play) <= own for play in value), (seat, message)
            elif key == "received_schupf_cards":
                assert [card_set([card]) for card in value] == received, (seat, message)
            elif key == "given_schupf_cards":
                assert [card_set([card]) for card in value] == given, (seat, message)
            elif key == "hands":
                assert is_event(message, "hands_revealed"), message
        if message.get("type") == "request":
            context = payload["context"]
            if payload["action"] == "announce_grand_tichu":
                assert card_set(context["hand_cards"]) == deal8
            elif payload["action"] == "schupf":
                assert card_set(context["hand_cards"]) == deal8 | rest
            elif payload["action"] == "play":
                hand = card_set(context["hand_cards"])
                assert all(card_set(play) <= hand for play in context["legal_plays"]), message
        if message.get("type") != "notification":
            continue
        event, context = payload["event"], payload["context"]
        if event == "hand_cards_dealt":
            assert card_set(context["hand_cards"]) == (deal8 if context["count"] == 8 else deal8 | rest)
        elif event == "player_out":
            out.append(context["player_index"])
        elif event == "hands_revealed":
            assert seat in out, f"seat {seat} got hands_revealed while still playing (R8.3): {message}"
            revealed += 1
        elif event == "player_played":
            assert round_index is not None
            player, cards, _ = context["turn"]
            plays[round_index].append((player, card_set(cards), context["out_of_turn"]))
        elif event == "player_joined":
            public = context.get("public_state") or {}
            assert not [key for key in public if "hand" in key and key != "count_hand_cards"], public
            if "session_id" not in context:
                assert set(context) == {"player_index", "player_name"}, context
    for index, data in enumerate(rounds):
        expected = [(event["seat"], labels_set(event.get("play", event.get("bomb", ""))), "bomb" in event)
                    for event in data["events"] if "play" in event or "bomb" in event]
        assert plays[index] == expected, f"seat {seat}, round {index}: player_played differs from the record"
    return revealed


def check_requests(client: Client, timeout: float | None = None) -> int:
    """Check the shape of every request a seat got (protocol.md "Requests and responses").

    - ``timeout`` is the table's turn time-out (null without one);
    - on a lead ``trick_combination`` and ``trick_owner_index`` are null and ``legal_plays``
      has no ``[]``; on a trick the owner is a seat and the pass is offered unless the wish forbids it;
    - "When a notification and a request arise from one event, the notification is sent
      first": the last ``start_playing`` / ``player_turn_changed`` before a ``play`` request
      names this seat.

    :result: The number of ``play`` requests checked.
    """
    turn: int | None = None
    plays = 0
    for message in client.messages:
        payload = message.get("payload") or {}
        if is_event(message, "start_playing"):
            turn = payload["context"]["start_player_index"]
        elif is_event(message, "player_turn_changed"):
            turn = payload["context"]["current_turn_index"]
        if message.get("type") != "request":
            continue
        assert set(payload) == {"request_id", "action", "context", "timeout"}, payload
        assert payload["timeout"] == timeout, payload
        if payload["action"] != "play":
            continue
        plays += 1
        context = payload["context"]
        assert set(context) >= {"hand_cards", "trick_combination", "trick_owner_index", "wish_value",
                                "legal_plays", "hint"}, context
        assert turn == client.seat, f"play request for seat {client.seat} but the last turn notice named {turn}"
        assert context["legal_plays"], payload
        if context["trick_combination"] is None:
            assert context["trick_owner_index"] is None and [] not in context["legal_plays"], payload
        else:
            assert context["trick_owner_index"] in (0, 1, 2, 3), payload
            assert [] in context["legal_plays"] or context["wish_value"], payload
    return plays


def check_combinations(client: Client) -> int:
    """Check the ``[type, length, rank]`` of every ``player_played`` a seat got (protocol.md
    "Messages"): the length is the number of cards, ranks are integers except a Phoenix single,
    whose rank is the previous single's rank + 0.5, or 1.5 when led (R3.6).

    :result: The number of Phoenix singles checked.
    """
    previous: float | None = None  # rank of the single on top of the open trick
    phoenixes = 0
    for message in client.messages:
        if is_event(message, "trick_taken") or is_event(message, "round_started"):
            previous = None
        if not is_event(message, "player_played"):
            continue
        _, cards, combination = message["payload"]["context"]["turn"]
        kind, length, rank = combination
        assert kind in ("single", "pair", "triple", "stair", "fullhouse", "street", "bomb"), combination
        assert length == len(cards), (cards, combination)
        if cards == [[16, 0]]:
            assert combination == ["single", 1, 1.5 if previous is None else previous + 0.5], (previous, combination)
            phoenixes += 1
        else:
            assert isinstance(rank, int), combination
        if cards == [[0, 0]]:
            previous = None  # the Dog gives the lead away (R3.10)
        elif kind == "single":
            previous = rank
    return phoenixes
