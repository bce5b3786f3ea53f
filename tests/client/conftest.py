"""The client tests' helpers: protocol messages, a scripted fake server and an offline client.

The fake server is a tiny aiohttp app: each connection runs one script, which sends
protocol messages and checks what the client answers (the ``server`` fixture). An
:class:`OfflineClient` records what it would send, for tests without a network. The test
modules import the helpers from here (``from tests.client.conftest import ...``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

import pytest
from aiohttp import WSMsgType, web
from aiohttp.test_utils import TestServer

from tichu.client.connection import LoggedMessage, TableClient
from tichu.client.messages import Answer, encode
from tichu.rules import parse_cards
from tichu.server.wire.incoming import Command
from tichu.server.wire.outgoing import RequestContext, RequestPayload

JsonDict = dict[str, Any]


def cards(labels: str) -> list[list[int]]:
    """Protocol cards of some labels."""
    return [list(card) for card in parse_cards(labels)]


HAND = cards("Dr RA GK SD B9 S8 R7 G6 S5 B5 G4 S3 Ma Ph")


def lobby_state(names: tuple[str, ...] = ("Anna", "Bot 1", "Bot 2", "Bot 3")) -> JsonDict:
    return {"table_name": "home", "player_names": list(names), "host_index": 0, "is_running": False,
            "phase": "lobby", "round_index": 0, "current_turn_index": None, "count_hand_cards": [0] * 4,
            "announcements": [0] * 4, "wish_value": 0, "wish_open": False, "trick_turns": [],
            "trick_owner_index": None, "trick_points": 0, "points": [0] * 4, "tricks_won": [0] * 4, "out_order": [],
            "played_cards": [], "count_pushed": [0] * 4, "round_scores": [], "total": [0, 0]}


def joined(seat: int = 0, *, pending: JsonDict | None = None, hand: list[list[int]] | None = None) -> JsonDict:
    """The ``player_joined`` context a joining client gets."""
    return {"player_index": seat, "player_name": "Anna", "session_id": "s-1", "protocol_version": 1,
            "public_state": lobby_state(), "pending_request": pending,
            "private_state": {"player_index": seat, "hand_cards": hand or [], "given_schupf_cards": None,
                              "received_schupf_cards": None, "may_announce": False, "bombs": [],
                              "unseen_bombs": {"four_of_a_kind": [], "straight_flush": []}}}


def play_request(request_id: str, legal: list[list[list[int]]], hand: list[list[int]] | None = None) -> RequestPayload:
    return {"request_id": request_id, "action": "play", "timeout": None,
            "context": {"hand_cards": hand or HAND, "trick_combination": None, "trick_owner_index": None,
                        "wish_value": 0, "legal_plays": legal, "hint": None}}


#: The values a wish request lists where the rules allow no empty wish (R5.1).
WISH_VALUES = list(range(2, 15))


def request(action: str, context: RequestContext, request_id: str = "r-1") -> RequestPayload:
    """A ``request`` payload without a time limit."""
    return {"request_id": request_id, "action": action, "context": context, "timeout": None}


def answer_json(answer: Answer) -> JsonDict:
    """An answer as the ``response_data`` it is sent as."""
    return json.loads(json.dumps(dataclasses.asdict(answer)))  # type: ignore[no-any-return]


class FakeSeat:
    """The server's side of one connection, as a script sees it."""

    def __init__(self, ws: web.WebSocketResponse, query: dict[str, str]) -> None:
        self.ws = ws
        self.query = query
        self.received: list[JsonDict] = []

    async def send(self, type_: str, payload: Mapping[str, object] | None = None) -> None:
        await self.ws.send_json({"type": type_} if payload is None else {"type": type_, "payload": payload})

    async def notify(self, event: str, **context: Any) -> None:
        await self.send("notification", {"event": event, "context": context})

    async def request(self, payload: Mapping[str, object]) -> None:
        await self.send("request", payload)

    async def error(self, code: int, message: str = "refused", **context: Any) -> None:
        await self.send("error", {"code": code, "message": message, "context": context})

    async def next(self, type_: str | None = None, timeout: float = 5.0) -> JsonDict:
        """Receive messages until one of ``type_`` (any type if ``None``)."""
        async with asyncio.timeout(timeout):
            while True:
                frame = await self.ws.receive()
                if frame.type != WSMsgType.TEXT:
                    raise ConnectionError(f"connection ended: {frame.type}")
                message = json.loads(frame.data)
                self.received.append(message)
                if type_ is None or message.get("type") == type_:
                    return message  # type: ignore[no-any-return]

    async def quiet(self, seconds: float = 0.2) -> None:
        """Assert that the client sends nothing for a while."""
        with pytest.raises(TimeoutError):
            await self.next(timeout=seconds)


Script = Callable[[FakeSeat], Awaitable[None]]


class FakeServer:
    """Runs one script per WebSocket connection, in the order the scripts were added."""

    def __init__(self) -> None:
        self.scripts: list[Script] = []
        self.seats: list[FakeSeat] = []
        self.errors: list[BaseException] = []
        self.finished: list[asyncio.Event] = []
        self.port = 0
        app = web.Application()
        app.router.add_get("/ws", self._handle)
        self.server = TestServer(app, host="127.0.0.1")

    async def _handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        done = asyncio.Event()
        self.finished.append(done)
        seat = FakeSeat(ws, dict(request.query))
        self.seats.append(seat)
        try:
            await self.scripts.pop(0)(seat)
        except Exception as error:  # reported by the fixture
            self.errors.append(error)
        finally:
            done.set()  # also when the server cancels the handler of a lost connection
            await ws.close()
        return ws

    async def check(self) -> None:
        """Wait for every script to end and raise the first error of one."""
        async with asyncio.timeout(10):
            for done in self.finished:
                await done.wait()
        if self.errors:
            raise self.errors[0]


@pytest.fixture
async def server() -> AsyncIterator[FakeServer]:
    fake = FakeServer()
    await fake.server.start_server()
    assert fake.server.port is not None
    fake.port = fake.server.port
    try:
        yield fake
        await fake.check()
    finally:
        await fake.server.close()


class OfflineClient(TableClient):
    """A client that records what it would send, for tests without a connection."""

    async def send(self, command: Command) -> None:
        self.sent.append(LoggedMessage(0.0, command))

    def sent_of(self, type_: str) -> list[JsonDict]:
        """The payloads of the messages of a type sent, as JSON (``{}`` for none)."""
        return [json.loads(encode(entry.message)).get("payload") or {} for entry in self.sent
                if isinstance(entry.message, Command) and type_ == entry.message.TYPE]


async def settle(condition: Callable[[], bool], timeout: float = 2.0) -> None:
    """Let the client's tasks run until a condition holds."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.005)


def text(type_: str, payload: Mapping[str, object]) -> str:
    return json.dumps({"type": type_, "payload": payload})
