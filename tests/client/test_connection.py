"""The connection (tichu.client.connection) against a scripted fake server and offline.

Joining, reconnecting and answering requests; refusals, cancellations and timeouts;
the logs, the URL, and what the client does when a brain, a hook or the network fails.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence

import aiohttp
import pytest

from tests.client.conftest import (
    HAND,
    FakeSeat,
    FakeServer,
    OfflineClient,
    cards,
    joined,
    play_request,
    settle,
    text,
)
from tichu.client.bots import RandomBrain, Seat
from tichu.client.connection import RawText, TableClient, build_url, run_bot
from tichu.client.messages import Answer, error_of
from tichu.server.wire.incoming import Command, PlayAnswer
from tichu.server.wire.outgoing import ErrorPayload, PlayContext, RequestPayload


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
    assert [entry.message.get("type") for entry in client.received] == ["notification", "request", "notification"]
    times = [entry.time for entry in client.received]
    assert times == sorted(times)
    assert [entry.message.TYPE for entry in client.sent] == ["response", "leave"]
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
        await seat.notify("player_schupfed", player_index=2, private_delta={  # Issue 36: the state sent
            "hand_cards": [card for card in HAND if card not in given], "given_schupf_cards": given})
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
    assert [error["code"] for error in map(error_of, (entry.message for entry in client.received)) if error] \
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
    assert [entry.message.TYPE for entry in client.sent] == ["response", "leave"]


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
    refusal = error_of(client.received[0].message)
    assert refusal is not None and refusal["code"] == 204 and client.sent == []


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
        error = error_of(await client.wait_for(lambda message: message.get("type") == "error", timeout=5))
        assert error is not None and error["code"] == 101
        assert {"raw": "garbage"} in [entry.message for entry in client.received]
        assert client.sent[-1].message == RawText("{not json")
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


async def test_a_malformed_notification_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    """Issue 36: a frame is read once at the edge; one that is no message of the protocol is
    logged as raw text with what is wrong, and never reaches the table state."""
    client = OfflineClient(RandomBrain(seed=7))
    await client.receive_text(text("notification", {"event": "player_joined", "context": joined()}))
    malformed = text("notification", {"event": "player_out", "context": {"player_index": 1}})
    await client.receive_text(malformed)
    assert "payload.context: missing field 'place'" in caplog.text and client.player_index == 0
    assert client.received[-1].message == {"raw": malformed} and client.state.public["out_order"] == []


class FailingBrain(RandomBrain):
    async def play(self, client: Seat, context: PlayContext) -> PlayAnswer:
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

    async def on_notification(self, client: Seat, event: str, context: Mapping[str, object]) -> None:
        raise RuntimeError("hook bug")

    async def on_error(self, client: Seat, error: ErrorPayload) -> None:
        raise RuntimeError("hook bug")

    async def refused(self, client: Seat, request: RequestPayload, tried: Sequence[Answer]) -> Answer | None:
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
    async def send(self, command: Command) -> None:
        raise ConnectionResetError("gone")


async def test_a_response_on_a_lost_connection_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    client = DeadClient(RandomBrain(seed=15))
    with pytest.raises(RuntimeError, match="no request is pending"):
        await client.respond(PlayAnswer(cards=()))
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
