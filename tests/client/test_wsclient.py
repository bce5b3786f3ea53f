"""The WebSocket client (the tichu.client modules, bin/wsclient.py) against a scripted fake server.

The fake server is a tiny aiohttp app: each connection runs one script, which sends
protocol messages and checks what the client answers. Pure parts (state, commands,
rendering) are tested without a network.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import WSMsgType, web
from aiohttp.test_utils import TestServer

from tichu.client.bots import Brain, RandomBrain, bombs_against, next_option
from tichu.client.connection import LoggedMessage, TableClient, build_url, run_bot
from tichu.client.console import (
    Command,
    CommandError,
    ConsoleBrain,
    describe_event,
    format_cards,
    interpret,
    parse_command,
    prompt_for,
    render_table,
)
from tichu.client.state import TableState
from tichu.rules import parse_cards

ROOT = Path(__file__).resolve().parents[2]
JsonDict = dict[str, Any]


def cards(labels: str) -> list[list[int]]:
    """Protocol cards of some labels."""
    return [list(card) for card in parse_cards(labels)]


HAND = cards("Dr RA GK SD B9 S8 R7 G6 S5 B5 G4 S3 Ma Ph")


def lobby_state(names: tuple[str, ...] = ("Anna", "Bot 1", "Bot 2", "Bot 3")) -> JsonDict:
    return {"table_name": "home", "player_names": list(names), "host_index": 0, "is_running": False,
            "phase": "lobby", "round_index": 0, "current_turn_index": None, "count_hand_cards": [0] * 4,
            "announcements": [0] * 4, "wish_value": 0, "trick_turns": [], "trick_owner_index": None,
            "trick_points": 0, "points": [0] * 4, "out_order": [], "played_cards": [], "round_scores": [],
            "total": [0, 0]}


def joined(seat: int = 0, *, pending: JsonDict | None = None, hand: list[list[int]] | None = None) -> JsonDict:
    """The ``player_joined`` context a joining client gets."""
    return {"player_index": seat, "player_name": "Anna", "session_id": "s-1", "protocol_version": 1,
            "public_state": lobby_state(), "pending_request": pending,
            "private_state": {"player_index": seat, "hand_cards": hand or [], "given_schupf_cards": None,
                              "received_schupf_cards": None}}


def play_request(request_id: str, legal: list[list[list[int]]], hand: list[list[int]] | None = None) -> JsonDict:
    return {"request_id": request_id, "action": "play", "timeout": None,
            "context": {"hand_cards": hand or HAND, "trick_combination": None, "trick_owner_index": None,
                        "wish_value": 0, "legal_plays": legal, "hint": None}}


# -- the fake server ------------------------------------------------------------------------------

class FakeSeat:
    """The server's side of one connection, as a script sees it."""

    def __init__(self, ws: web.WebSocketResponse, query: dict[str, str]) -> None:
        self.ws = ws
        self.query = query
        self.received: list[JsonDict] = []

    async def send(self, type_: str, payload: JsonDict | None = None) -> None:
        await self.ws.send_json({"type": type_} if payload is None else {"type": type_, "payload": payload})

    async def notify(self, event: str, **context: Any) -> None:
        await self.send("notification", {"event": event, "context": context})

    async def request(self, payload: JsonDict) -> None:
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

    async def send(self, type_: str, payload: JsonDict | None = None) -> None:
        self.sent.append(LoggedMessage(0.0, {"type": type_, "payload": payload}))

    def sent_of(self, type_: str) -> list[JsonDict]:
        return [entry.message.get("payload") or {} for entry in self.sent if entry.message["type"] == type_]


async def settle(condition: Callable[[], bool], timeout: float = 2.0) -> None:
    """Let the client's tasks run until a condition holds."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.005)


def text(type_: str, payload: JsonDict) -> str:
    return json.dumps({"type": type_, "payload": payload})


# -- joining and answering --------------------------------------------------------------------------

async def test_join_answers_a_play_request_with_a_legal_play(server: FakeServer) -> None:
    legal = [cards("S5 B5"), cards("Dr"), cards("S3")]

    async def script(seat: FakeSeat) -> None:
        assert seat.query == {"player_name": "Anna", "table_name": "home"}
        await seat.notify("player_joined", **joined())
        await seat.request(play_request("r-7", legal))
        response = (await seat.next("response"))["payload"]
        assert response["request_id"] == "r-7" and response["action"] == "play"
        assert response["response_data"]["cards"] in legal
        await seat.notify("game_over", game_score=[[100], [0]], total=[1000, 0], winner=20)
        await seat.next("leave")

    server.scripts.append(script)
    client = await run_bot("127.0.0.1", server.port, "Anna", "home", brain=RandomBrain(seed=1))
    assert client.session_id == "s-1" and client.player_index == 0 and client.games_over == 1
    assert [entry.message["type"] for entry in client.received] == ["notification", "request", "notification"]
    times = [entry.time for entry in client.received]
    assert times == sorted(times)
    assert [entry.message["type"] for entry in client.sent] == ["response", "leave"]
    assert client.pending_request is None and client.closed


async def test_reconnect_answers_the_pending_request(server: FakeServer) -> None:
    pending = {"request_id": "r-2", "action": "schupf", "timeout": 30, "context": {"hand_cards": HAND}}

    async def script(seat: FakeSeat) -> None:
        assert seat.query == {"session_id": "s-1"}
        await seat.notify("player_joined", **joined(2, pending=pending, hand=HAND))
        response = (await seat.next("response"))["payload"]
        given = response["response_data"]["given_schupf_cards"]
        assert response["request_id"] == "r-2" and len(given) == 3
        assert len({tuple(card) for card in given}) == 3 and all(card in HAND for card in given)
        await seat.notify("player_schupfed", player_index=2)
        await seat.notify("game_over", game_score=[[0], [0]], total=[0, 1000], winner=31)

    server.scripts.append(script)
    client = await run_bot("127.0.0.1", server.port, session_id="s-1", brain=RandomBrain(seed=2))
    assert client.player_index == 2
    given = client.private_state["given_schupf_cards"]
    assert len(client.state.hand) == 11 and not any(card in client.state.hand for card in given)


async def test_a_refused_response_is_followed_by_the_next_legal_option(server: FakeServer) -> None:
    legal = [cards("S5"), cards("B5"), cards("S3")]

    async def script(seat: FakeSeat) -> None:
        await seat.notify("player_joined", **joined())
        await seat.request(play_request("r-1", legal))
        answers = []
        for code in (300, 303, 103):
            answers.append((await seat.next("response"))["payload"])
            await seat.error(code, "not now", reason="test")
        await seat.quiet()  # no option left: the client waits for the server
        assert {answer["request_id"] for answer in answers} == {"r-1"}
        assert sorted(answer["response_data"]["cards"] for answer in answers) == sorted(legal)
        await seat.notify("game_over", game_score=[[0], [0]], total=[0, 0], winner=20)
        await seat.next("leave")

    server.scripts.append(script)
    client = await run_bot("127.0.0.1", server.port, "Anna", "home", brain=RandomBrain(seed=3))
    assert [entry.message["payload"]["code"] for entry in client.received if entry.message["type"] == "error"] \
        == [300, 303, 103]


async def test_cancelled_and_timed_out_requests_are_not_answered(server: FakeServer) -> None:
    async def script(seat: FakeSeat) -> None:
        await seat.notify("player_joined", **joined())
        await seat.request(play_request("r-1", [cards("S5")]))
        await seat.notify("request_cancelled", request_id="r-1")
        await seat.request(play_request("r-2", [cards("Dr")]))
        await seat.error(309, "too slow")
        await seat.quiet(0.3)
        await seat.request(play_request("r-3", [cards("Ph")]))
        response = (await seat.next("response"))["payload"]
        assert response["request_id"] == "r-3" and response["response_data"] == {"cards": cards("Ph")}
        await seat.error(310, "obsolete")
        await seat.notify("game_over", game_score=[[0], [0]], total=[0, 0], winner=20)
        await seat.next("leave")

    server.scripts.append(script)
    client = await run_bot("127.0.0.1", server.port, "Anna", "home", brain=RandomBrain(seed=4, think=0.1))
    assert [entry.message["type"] for entry in client.sent] == ["response", "leave"]


async def test_the_host_starts_once_enough_clients_are_seated(server: FakeServer) -> None:
    async def script(seat: FakeSeat) -> None:
        await seat.notify("player_joined", **joined())
        await seat.quiet()
        await seat.notify("player_joined", player_index=1, player_name="Ben")
        assert (await seat.next())["type"] == "start_game"
        await seat.notify("game_started")
        await seat.notify("round_started", round_index=0)
        await seat.notify("game_over", game_score=[[0], [0]], total=[0, 0], winner=20)
        assert (await seat.next())["type"] == "leave"

    server.scripts.append(script)
    client = await run_bot("127.0.0.1", server.port, "Anna", "home", start_when=2, brain=RandomBrain(seed=5))
    assert client.state.client_seats == {0, 1} and client.public_state["player_names"][1] == "Ben"


async def test_a_closing_server_ends_the_loop_cleanly(server: FakeServer) -> None:
    async def script(seat: FakeSeat) -> None:
        await seat.error(204, "name taken")
        await seat.ws.close(code=1008)

    server.scripts.append(script)
    client = await asyncio.wait_for(run_bot("127.0.0.1", server.port, "Anna", "home"), 5)
    assert client.close_code == 1008 and client.games_over == 0
    assert client.received[0].message["payload"]["code"] == 204 and client.sent == []


async def test_raw_text_ping_and_garbage_are_logged(server: FakeServer) -> None:
    async def script(seat: FakeSeat) -> None:
        await seat.notify("player_joined", **joined())
        assert (await seat.next())["type"] == "ping"
        await seat.send("pong")
        frame = await seat.ws.receive()
        assert frame.data == "{not json"
        await seat.ws.send_str("garbage")
        await seat.error(101, "invalid message")

    server.scripts.append(script)
    client = TableClient(RandomBrain(seed=6))
    await client.connect("127.0.0.1", server.port, player_name="Anna", table_name="home")
    runner = asyncio.create_task(client.run())
    try:
        await client.wait_for(lambda message: message.get("type") == "notification", timeout=5)
        await client.ping()
        await client.wait_for(lambda message: message.get("type") == "pong", timeout=5)
        await client.send_raw("{not json")
        error = await client.wait_for(lambda message: message.get("type") == "error", timeout=5)
        assert error["payload"]["code"] == 101
        assert {"raw": "garbage"} in [entry.message for entry in client.received]
        assert client.sent[-1].message == {"raw": "{not json"}
        await asyncio.wait_for(runner, 5)  # the server closes after its script
        with pytest.raises(ConnectionError):
            await client.wait_for(lambda message: False, timeout=5)
        with pytest.raises(ConnectionError):
            await client.leave()
    finally:
        await client.close()


def test_build_url_quotes_the_names() -> None:
    assert build_url("h", 1, player_name="Anna B", table_name="a&b") == \
        "ws://h:1/ws?player_name=Anna+B&table_name=a%26b"
    assert build_url("h", 1, player_name="x", session_id="u-1") == "ws://h:1/ws?session_id=u-1"


# -- the table's state ----------------------------------------------------------------------------

def test_the_state_follows_a_round() -> None:
    state = TableState()
    state.apply("player_joined", joined())
    events: list[tuple[str, JsonDict]] = [
        ("player_joined", {"player_index": 2, "player_name": "Ben"}),
        ("players_swapped", {"player_index_1": 1, "player_index_2": 2}),
        ("game_started", {}), ("round_started", {"round_index": 0}),
        ("hand_cards_dealt", {"count": 8, "hand_cards": HAND[:8]}),
        ("player_announced", {"player_index": 1, "grand": True}),
        ("hand_cards_dealt", {"count": 6, "hand_cards": HAND}),
    ]
    for event, context in events:
        state.apply(event, context)
    public = state.public
    assert public["player_names"] == ["Anna", "Ben", "Bot 1", "Bot 3"] and state.client_seats == {0, 1}
    assert public["phase"] == "schupf" and public["count_hand_cards"] == [14] * 4
    assert public["announcements"] == [0, 2, 0, 0] and len(state.hand) == 14

    state.private["given_schupf_cards"] = cards("S3 Ma Ph")
    for seat in range(4):
        state.apply("player_schupfed", {"player_index": seat})
    assert public["count_hand_cards"] == [11] * 4 and len(state.hand) == 11
    state.apply("start_playing", {"start_player_index": 3, "received_schupf_cards": cards("RZ G2 Hu")})
    assert public["phase"] == "playing" and public["current_turn_index"] == 3
    assert len(state.hand) == 14 and cards("Hu")[0] in state.hand and public["count_hand_cards"] == [14] * 4

    state.apply("player_played", {"turn": [0, cards("S5 B5"), ["pair", 2, 5]], "trick_points": 10,
                                  "trick_owner_index": 0, "is_bomb": False, "out_of_turn": False})
    assert public["count_hand_cards"][0] == 12 and cards("S5")[0] not in state.hand
    assert public["trick_owner_index"] == 0 and public["trick_points"] == 10 and len(public["played_cards"]) == 2
    state.apply("wish_made", {"wish_value": 8})
    assert public["wish_open"]
    state.apply("wish_fulfilled", {})
    state.apply("player_turn_changed", {"current_turn_index": 1})
    state.apply("trick_taken", {"player_index": 0, "points": 10, "dragon_recipient": None})
    state.apply("trick_taken", {"player_index": 0, "points": 25, "dragon_recipient": 3})
    assert public["points"] == [10, 0, 0, 25] and public["trick_turns"] == [] and not public["wish_open"]
    state.apply("player_out", {"player_index": 2, "place": 1})
    state.apply("hands_revealed", {"hands": [HAND, [], [], []]})
    state.apply("round_over", {"card_points": [10, 90], "bonus": [0, -200], "points": [10, -110],
                               "total": [10, -110], "out_order": [2, 0, 1], "is_double_victory": False})
    assert public["round_scores"] == [[10, -110]] and public["phase"] == "round_over"
    assert state.revealed_hands is not None and public["out_order"] == [2]
    state.apply("game_over", {"game_score": [[10], [-110]], "total": [1010, 0], "winner": 20})
    assert public["phase"] == "game_over" and not public["is_running"] and public["total"] == [1010, 0]


def test_own_seat_moves_with_a_swap_and_unknown_events_are_ignored() -> None:
    state = TableState()
    state.apply("player_joined", joined(1))
    state.apply("players_swapped", {"player_index_1": 1, "player_index_2": 3})
    state.apply("some_future_event", {"x": 1})
    assert state.player_index == 3 and state.private["player_index"] == 3 and state.client_seats == {3}
    state.apply("player_left", {"player_index": 3, "player_name": "Anna", "host_index": 2,
                                "replaced_by_agent": True})
    assert state.public["host_index"] == 2 and state.name(3) == "Bot 1"


async def test_a_malformed_notification_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    client = OfflineClient(RandomBrain(seed=7))
    await client.receive_text(text("notification", {"event": "player_joined", "context": joined()}))
    await client.receive_text(text("notification", {"event": "player_out", "context": {}}))
    assert "could not apply player_out" in caplog.text and client.player_index == 0


async def test_the_joined_state_is_a_copy_of_the_logged_message() -> None:
    client = OfflineClient(RandomBrain(seed=8))
    await client.receive_text(text("notification", {"event": "player_joined", "context": joined()}))
    await client.receive_text(text("notification", {"event": "round_over", "context": {
        "points": [1, 2], "total": [1, 2], "card_points": [1, 2], "bonus": [0, 0], "out_order": [],
        "is_double_victory": False}}))
    logged = client.received[0].message["payload"]["context"]["public_state"]
    assert logged["round_scores"] == [] and client.public_state["round_scores"] == [[1, 2]]


# -- brains -----------------------------------------------------------------------------------------

async def test_random_brain_is_seeded_and_legal() -> None:
    context: JsonDict = {"hand_cards": HAND, "legal_plays": [cards("S5"), cards("B5"), []],
                         "opponent_indexes": [1, 3]}
    first, second = RandomBrain(seed=9), RandomBrain(seed=9)
    client = OfflineClient(first)
    for brain in (first, second):
        assert (await brain.play(client, context))["cards"] in context["legal_plays"]
        given = (await brain.schupf(client, context))["given_schupf_cards"]
        assert len({tuple(card) for card in given}) == 3
        assert 2 <= (await brain.wish(client, context))["wish_value"] <= 14
        assert (await brain.give_dragon_away(client, context))["dragon_recipient"] in (1, 3)
        assert isinstance((await brain.announce_grand_tichu(client, context))["announced"], bool)
    assert first.rng.random() == second.rng.random()


def _playing_client(brain: Brain, hand: list[list[int]], trick_turns: list[Any]) -> OfflineClient:
    client = OfflineClient(brain)
    client.state.apply("player_joined", joined(0, hand=hand))
    client.state.public.update(phase="playing", trick_turns=trick_turns, current_turn_index=1)
    return client


async def test_random_brain_calls_tichu_and_bombs_unprompted() -> None:
    brain = RandomBrain(seed=10)
    brain.TICHU_RATE = brain.BOMB_RATE = 1.0
    hand = cards("SA BA GA RA S2 B3 G4 R5 S6 B7 G8 R9 SZ Ph")
    client = _playing_client(brain, hand, [[1, cards("S5 B5"), ["pair", 2, 5]]])
    await client.receive_text(text("notification", {"event": "player_turn_changed",
                                                    "context": {"current_turn_index": 2}}))
    assert client.sent_of("announce") == [{}]
    assert client.sent_of("bomb") == [{"cards": cards("RA GA BA SA")}]


async def test_random_brain_never_bombs_at_its_own_turn_or_by_chance_zero() -> None:
    brain = RandomBrain(seed=11)
    brain.BOMB_RATE = 1.0
    client = _playing_client(brain, cards("SA BA GA RA"), [[1, cards("S5"), ["single", 1, 5]]])
    await client.receive_text(text("notification", {"event": "player_turn_changed",
                                                    "context": {"current_turn_index": 0}}))
    brain.BOMB_RATE = 0.0
    await client.receive_text(text("notification", {"event": "player_passed", "context": {"player_index": 1}}))
    assert client.sent_of("bomb") == [] and client.sent_of("announce") == []


def test_bombs_against_the_trick() -> None:
    hand = cards("SA BA GA RA S2 S3 S4 S5 S6 Ph")
    assert bombs_against(hand, []) == []
    assert bombs_against(hand, [[0, cards("Hu"), ["single", 1, 0]]]) == []
    assert len(bombs_against(hand, [[0, cards("Ph"), ["single", 1, 1.5]]])) == 2
    straight_flush = [[0, cards("B7 B6 B5 B4 B3"), ["bomb", 5, 7]]]
    assert bombs_against(hand, straight_flush) == []
    assert bombs_against(hand, [[0, cards("SK BK GK RK"), ["bomb", 4, 13]]]) == [cards("RA GA BA SA"),
                                                                                   cards("S6 S5 S4 S3 S2")]


def test_next_option_skips_what_was_tried() -> None:
    request = {"action": "give_dragon_away", "context": {"opponent_indexes": [1, 3]}}
    assert next_option(request, [{"dragon_recipient": 1}]) == {"dragon_recipient": 3}
    assert next_option(request, [{"dragon_recipient": 1}, {"dragon_recipient": 3}]) is None
    assert next_option({"action": "wish", "context": {}}, [{"wish_value": 2}]) == {"wish_value": 3}
    assert next_option({"action": "announce_grand_tichu"}, []) == {"announced": False}
    assert next_option({"action": "schupf", "context": {"hand_cards": HAND}}, []) == \
        {"given_schupf_cards": HAND[:3]}
    assert next_option({"action": "dance"}, []) is None


class FailingBrain(RandomBrain):
    async def play(self, client: TableClient, context: JsonDict) -> JsonDict:
        raise RuntimeError("bug")


async def test_a_failing_brain_answers_the_first_option(caplog: pytest.LogCaptureFixture) -> None:
    client = OfflineClient(FailingBrain(seed=12))
    await client.receive_text(text("request", play_request("r-1", [cards("S5"), []])))
    await settle(lambda: bool(client.sent_of("response")))
    assert client.sent_of("response")[0]["response_data"] == {"cards": cards("S5")}
    assert "the brain failed on play" in caplog.text


async def test_an_unknown_action_is_not_answered() -> None:
    client = OfflineClient(RandomBrain(seed=13))
    await client.receive_text(text("request", {"request_id": "r-1", "action": "dance", "context": {}}))
    await asyncio.sleep(0.01)
    assert client.sent == []
    with pytest.raises(RuntimeError):
        await TableClient().run()



class GrumpyBrain(RandomBrain):
    """A brain whose hooks and second thoughts fail."""

    async def on_notification(self, client: TableClient, event: str, context: JsonDict) -> None:
        raise RuntimeError("hook bug")

    async def on_error(self, client: TableClient, error: JsonDict) -> None:
        raise RuntimeError("hook bug")

    async def refused(self, client: TableClient, request: JsonDict, tried: Sequence[JsonDict]) -> JsonDict | None:
        raise RuntimeError("bug")


async def test_failing_hooks_are_logged_and_a_refusal_still_gets_the_next_option(
        caplog: pytest.LogCaptureFixture) -> None:
    client = OfflineClient(GrumpyBrain(seed=14))
    await client.receive_text(text("notification", {"event": "player_joined", "context": joined()}))
    legal = [cards("S5"), cards("B5")]
    await client.receive_text(text("request", play_request("r-1", legal)))
    await settle(lambda: bool(client.sent_of("response")))
    await client.receive_text(text("error", {"code": 300, "message": "no", "context": {}}))
    await settle(lambda: len(client.sent_of("response")) == 2)
    answers = [response["response_data"]["cards"] for response in client.sent_of("response")]
    assert sorted(answers) == sorted(legal)
    assert "the brain's hook failed on player_joined" in caplog.text
    assert "the brain's hook failed on an error" in caplog.text and "failed on a refused answer" in caplog.text
    assert client.notifications("player_joined")[0]["session_id"] == "s-1" and len(client.notifications()) == 1


class DeadClient(OfflineClient):
    async def send(self, type_: str, payload: JsonDict | None = None) -> None:
        raise ConnectionResetError("gone")


async def test_a_response_on_a_lost_connection_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    client = DeadClient(RandomBrain(seed=15))
    with pytest.raises(RuntimeError, match="no request is pending"):
        await client.respond({"cards": []})
    await client.receive_text(text("request", play_request("r-1", [cards("S5")])))
    await settle(lambda: "could not send: gone" in caplog.text)
    assert client.pending_request is None


async def test_a_failed_connection_raises_and_closes_its_session() -> None:
    client = TableClient()
    with pytest.raises(aiohttp.ClientError):
        await client.connect("127.0.0.1", 1, player_name="Anna", table_name="home")
    assert client.closed


async def test_a_frame_too_large_ends_the_loop(server: FakeServer, caplog: pytest.LogCaptureFixture) -> None:
    async def script(seat: FakeSeat) -> None:
        await seat.notify("player_joined", **joined())
        with contextlib.suppress(ConnectionError):
            await seat.ws.send_str("x" * 5_000_000)
            await seat.next()

    server.scripts.append(script)
    client = await asyncio.wait_for(run_bot("127.0.0.1", server.port, "Anna", "home"), 10)
    assert client.games_over == 0 and "connection error" in caplog.text

# -- the console ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "expected"), [
    ("S5 b5", Command("cards", cards=tuple(parse_cards("S5 B5")))),
    ("ph dr", Command("cards", cards=tuple(parse_cards("Ph Dr")))),
    ("  pass ", Command("pass")),
    ("Tichu", Command("tichu")),
    ("yes", Command("yes")),
    ("n", Command("no")),
    ("bomb SA BA GA RA", Command("bomb", cards=tuple(parse_cards("SA BA GA RA")))),
    ("wish 8", Command("wish", numbers=(8,))),
    ("wish a", Command("wish", numbers=(14,))),
    ("wish Z", Command("wish", numbers=(10,))),
    ("dragon 3", Command("dragon", numbers=(3,))),
    ("1", Command("number", numbers=(1,))),
    ("swap 1 2", Command("swap", numbers=(1, 2))),
    ("start", Command("start")),
    ("quit", Command("quit")),
])
def test_parse_command(line: str, expected: Command) -> None:
    assert parse_command(line) == expected


@pytest.mark.parametrize(("line", "message"), [
    ("", "type a command"),
    ("S5 X9", "not understood"),
    ("bomb", "name the bomb's cards"),
    ("bomb SA XX", "unknown card 'XX'"),
    ("S5 s5", "named twice"),
    ("wish 1", "no card value"),
    ("wish W", "no card value"),
    ("swap 1 7", "no seat '7'"),
    ("pass now", "not understood"),
])
def test_parse_command_refuses(line: str, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        parse_command(line)


def test_interpret_checks_the_play_against_the_legal_plays() -> None:
    request = play_request("r-1", [cards("S5 B5"), cards("Ph S5"), []])
    assert interpret(parse_command("B5 S5"), request) == {"cards": cards("S5 B5")}
    assert interpret(parse_command("pass"), request) == {"cards": []}
    with pytest.raises(CommandError, match="you do not hold RZ"):
        interpret(parse_command("RZ"), request)
    with pytest.raises(CommandError, match="Dr is not a legal play now"):
        interpret(parse_command("Dr"), request)
    lead = play_request("r-2", [cards("S5")])
    lead["context"]["wish_value"] = 5
    with pytest.raises(CommandError, match="cannot pass"):
        interpret(parse_command("pass"), lead)
    with pytest.raises(CommandError, match=r"the wish \(5\) must be fulfilled"):
        interpret(parse_command("Dr"), lead)
    with pytest.raises(CommandError, match="play cards"):
        interpret(parse_command("yes"), lead)
    bomb_turn = play_request("r-3", [cards("SA BA GA RA")], cards("SA BA GA RA"))
    assert interpret(parse_command("bomb RA GA BA SA"), bomb_turn) == {"cards": cards("SA BA GA RA")}


def test_interpret_the_other_requests() -> None:
    grand = {"action": "announce_grand_tichu", "context": {"hand_cards": HAND[:8]}}
    assert interpret(parse_command("yes"), grand) == {"announced": True}
    assert interpret(parse_command("no"), grand) == {"announced": False}
    with pytest.raises(CommandError, match="yes or no"):
        interpret(parse_command("S5"), grand)
    schupf = {"action": "schupf", "context": {"hand_cards": HAND}}
    assert interpret(parse_command("S3 Ph Ma"), schupf) == {"given_schupf_cards": cards("S3 Ph Ma")}
    with pytest.raises(CommandError, match="three cards"):
        interpret(parse_command("S3 Ph"), schupf)
    with pytest.raises(CommandError, match="you do not hold Hu"):
        interpret(parse_command("S3 Ph Hu"), schupf)
    wish = {"action": "wish", "context": {}}
    assert interpret(parse_command("wish K"), wish) == {"wish_value": 13}
    assert interpret(parse_command("9"), wish) == {"wish_value": 9}
    with pytest.raises(CommandError, match="wish a value"):
        interpret(parse_command("15"), wish)
    dragon = {"action": "give_dragon_away", "context": {"opponent_indexes": [1, 3]}}
    assert interpret(parse_command("3"), dragon) == {"dragon_recipient": 3}
    with pytest.raises(CommandError, match="seat 1 or 3"):
        interpret(parse_command("dragon 2"), dragon)
    with pytest.raises(CommandError, match="cannot answer"):
        interpret(parse_command("yes"), {"action": "dance"})


def test_render_table_and_describe_events() -> None:
    state = TableState()
    state.apply("player_joined", joined(0, hand=HAND))
    state.public.update(phase="playing", current_turn_index=2, count_hand_cards=[14, 12, 9, 0],
                        announcements=[0, 1, 2, 0], out_order=[3], wish_value=8, wish_open=True,
                        trick_turns=[[1, cards("S5 B5"), ["pair", 2, 5]]], trick_owner_index=1, trick_points=10,
                        total=[120, 80])
    shown = render_table(state)
    assert "Table home: round 1, playing; score team 20: 120, team 31: 80" in shown
    assert "Bot 1" in shown and "Tichu" in shown and "Grand Tichu" in shown and "out #1" in shown
    assert "at turn" in shown.splitlines()[3] and "you, host" in shown.splitlines()[1]
    assert "Trick: Bot 1: S5 B5, owner Bot 1, 10 points" in shown and "Wish: 8" in shown
    assert f"Your hand: {format_cards(HAND, sort=True)}" in shown
    assert format_cards(HAND, sort=True).startswith("Ph Dr RA GK") and format_cards([[3, 9]]) == "?[3, 9]"
    played = {"turn": [3, cards("RA GA BA SA"), ["bomb", 4, 14]], "out_of_turn": True}
    assert describe_event(state, "player_played", played) == "Bot 3 bombs RA GA BA SA (bomb 14)"
    assert describe_event(state, "trick_taken", {"player_index": 0, "points": 25, "dragon_recipient": 1}) \
        == "Anna takes the trick (25 points); the Dragon trick goes to Bot 1"
    assert describe_event(state, "wish_made", {"wish_value": 14}) == "Wish: Ace"
    assert describe_event(state, "player_out", {}) == "player_out: {}"
    assert describe_event(state, "player_turn_changed", {"current_turn_index": 1}) is None
    dragon = {"action": "give_dragon_away", "context": {"opponent_indexes": [1, 3]}}
    assert prompt_for(dragon) == "> Give the Dragon trick to an opponent: dragon SEAT (1 or 3)"


async def test_console_brain_answers_from_typed_lines() -> None:
    output: list[str] = []
    brain = ConsoleBrain(output.append)
    client = OfflineClient(brain)
    await client.receive_text(text("notification", {"event": "player_joined", "context": joined(hand=HAND)}))
    assert await brain.handle_line(client, "pass")
    assert output[-1] == "! nothing to decide now"
    request = play_request("r-1", [cards("S5"), cards("SA BA GA RA"), []], cards("SA BA GA RA S5 Dr"))
    request["context"]["hint"] = [cards("S5")]
    await client.receive_text(text("request", request))
    await settle(lambda: any(line.startswith("> Your turn") for line in output))
    assert "[hint: S5]" in output[-1] and "Your hand:" in output[-2]
    await brain.handle_line(client, "Dr")
    await brain.handle_line(client, "tichu")
    await brain.handle_line(client, "show")
    await brain.handle_line(client, "help")
    await brain.handle_line(client, "bogus words")
    await brain.handle_line(client, "bomb SA BA GA RA")
    await settle(lambda: bool(client.sent_of("response")))
    assert client.sent_of("response")[0]["response_data"] == {"cards": cards("SA BA GA RA")}
    assert client.sent_of("announce") == [{}] and client.sent_of("bomb") == []
    assert "! Dr is not a legal play now" in output and any(line.startswith("Commands:") for line in output)
    await client.receive_text(text("error", {"code": 300, "message": "no", "context": {}}))
    assert "! server: no (error 300)" in output
    await settle(lambda: output[-1].startswith("> Your turn"))
    await brain.handle_line(client, "S5")
    await settle(lambda: len(client.sent_of("response")) == 2)
    await brain.handle_line(client, "bomb SA BA GA RA")
    await brain.handle_line(client, "start")
    await brain.handle_line(client, "swap 1 2")
    assert not await brain.handle_line(client, "quit")
    assert client.sent_of("bomb") == [{"cards": cards("SA BA GA RA")}]
    assert client.sent_of("swap_players") == [{"player_index_1": 1, "player_index_2": 2}]
    assert [entry.message["type"] for entry in client.sent][-3:] == ["start_game", "swap_players", "leave"]



@pytest.mark.parametrize(("request_", "line", "answer"), [
    ({"action": "announce_grand_tichu", "context": {"hand_cards": HAND[:8]}}, "no", {"announced": False}),
    ({"action": "schupf", "context": {"hand_cards": HAND}}, "S3 Ma Ph", {"given_schupf_cards": cards("S3 Ma Ph")}),
    ({"action": "wish", "context": {}}, "wish D", {"wish_value": 12}),
    ({"action": "give_dragon_away", "context": {"opponent_indexes": [1, 3]}}, "dragon 1", {"dragon_recipient": 1}),
])
async def test_console_brain_answers_each_request(request_: JsonDict, line: str, answer: JsonDict) -> None:
    output: list[str] = []
    brain = ConsoleBrain(output.append)
    client = OfflineClient(brain)
    await client.receive_text(text("request", {"request_id": "r-1", "timeout": None, **request_}))
    await settle(lambda: bool(output) and output[-1].startswith("> "))
    await brain.handle_line(client, line)
    await settle(lambda: bool(client.sent_of("response")))
    assert client.sent_of("response") == [{"request_id": "r-1", "action": request_["action"],
                                           "response_data": answer}]


async def test_console_brain_drops_lines_typed_before_the_question() -> None:
    output: list[str] = []
    brain = ConsoleBrain(output.append)
    client = OfflineClient(brain)
    grand = {"request_id": "r-1", "action": "announce_grand_tichu", "context": {"hand_cards": HAND[:8]}}
    await client.receive_text(text("request", grand))
    await settle(lambda: bool(output))
    await brain.handle_line(client, "yes")
    await brain.handle_line(client, "no")  # typed twice before the answer left
    await settle(lambda: bool(client.sent_of("response")))
    await client.receive_text(text("request", {**grand, "request_id": "r-2"}))
    await settle(lambda: output.count("> Grand Tichu? (yes/no)") == 2)
    await asyncio.sleep(0.02)
    assert [response["request_id"] for response in client.sent_of("response")] == ["r-1"]

# -- the command line -------------------------------------------------------------------------------

async def _start_cli(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "bin" / "wsclient.py"), *args,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)


async def _run_cli(*args: str) -> tuple[int, str]:
    process = await _start_cli(*args)
    output, _ = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode is not None
    return process.returncode, output.decode()


async def test_cli_bot_plays_until_game_over(server: FakeServer) -> None:
    async def script(seat: FakeSeat) -> None:
        assert seat.query == {"player_name": "Bot", "table_name": "t"}
        await seat.notify("player_joined", **joined())
        await seat.request({"request_id": "g", "action": "announce_grand_tichu", "timeout": None,
                            "context": {"hand_cards": HAND[:8]}})
        assert (await seat.next("response"))["payload"]["request_id"] == "g"
        await seat.notify("game_over", game_score=[[0], [0]], total=[0, 0], winner=20)
        await seat.next("leave")

    server.scripts.append(script)
    status, output = await _run_cli("--port", str(server.port), "--name", "Bot", "--table", "t",
                                    "--agent", "random", "--seed", "1")
    assert status == 0 and "seat 0, 1 game(s) over" in output


async def test_cli_interactive_reads_stdin(server: FakeServer) -> None:
    async def script(seat: FakeSeat) -> None:
        await seat.notify("player_joined", **joined())
        await seat.request({"request_id": "g", "action": "announce_grand_tichu", "timeout": None,
                            "context": {"hand_cards": HAND[:8]}})
        response = (await seat.next("response"))["payload"]
        assert response["response_data"] == {"announced": True}
        await seat.notify("game_over", game_score=[[0], [0]], total=[0, 0], winner=20)
        await seat.next("leave")

    server.scripts.append(script)
    process = await _start_cli("--port", str(server.port), "--name", "Anna", "--table", "t")
    assert process.stdin is not None and process.stdout is not None
    shown: list[str] = []
    async with asyncio.timeout(20):
        while not shown or not shown[-1].startswith("> Grand Tichu? (yes/no)"):
            shown.append((await process.stdout.readline()).decode().rstrip("\n"))
        process.stdin.write(b"maybe\nyes\n")  # stdin stays open: its end would leave the table
        await process.stdin.drain()
        output, _ = await process.communicate()
    assert process.returncode == 0, output
    assert "! not understood: 'maybe'" in output.decode() and "Game over: team 20 wins" in output.decode()


async def test_cli_reports_a_failed_connection() -> None:
    status, output = await _run_cli("--port", "1", "--name", "Anna", "--table", "t", "--agent", "random")
    assert status == 1 and "cannot connect" in output
    status, output = await _run_cli("--name", "Anna")
    assert status == 2 and "give --name and --table" in output
