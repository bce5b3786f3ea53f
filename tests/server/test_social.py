"""Chat, quick reactions, readiness and the target score (docs/server.md, "Table chat, reactions,
readiness and the target score").

Only clients that sent ``table_sync`` hear chat, reactions and ``lobby_state``; a client that
speaks protocol.md alone gets nothing new and can still start a game. Every bound has a test:
the text's length, its characters, the chat rate and the history.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest

from tests.support.checks import expect_refused
from tests.support.live_server import WAIT, Message, read_table_records
from tests.support.raw_client import GAME_WAIT, Client, Server, StartServer
from tichu.server.tables.social import CHAT_BURST, CHAT_HISTORY, CHAT_LENGTH, REACTIONS, ChatLine, Social
from tichu.server.wire.protocol import ProtocolError, clean_chat_text

MARKUP = "O'Brien & <b>Co</b>"


async def synced(server: Server, name: str, table: str = "t") -> Client:
    """A client that joined and sent ``table_sync`` (it has its ``chat_history``)."""
    client = await server.join(name, table)
    await client.send_type("table_sync")
    await client.wait_event("chat_history")
    return client


def lobby_states(client: Client) -> list[Message]:
    """The contexts of every ``lobby_state`` the client got."""
    return client.events("lobby_state")


async def settle(*clients: Client) -> None:
    """Let every message already sent arrive (a ping round trip each)."""
    for client in clients:
        await client.roundtrip({"type": "ping"})


# -- the pure parts ------------------------------------------------------------------------------


def test_chat_text_bounds() -> None:
    """A text is trimmed; 1..200 characters; control characters (line breaks included) are refused
    with 101 and a reason; markup, quotes and emoji (with joiners) are kept exactly."""
    assert clean_chat_text("  hi  ", CHAT_LENGTH) == "hi"
    assert clean_chat_text(MARKUP, CHAT_LENGTH) == MARKUP
    assert clean_chat_text("x" * CHAT_LENGTH, CHAT_LENGTH) == "x" * CHAT_LENGTH
    assert clean_chat_text("👩\u200d👩\u200d👧 ❤\ufe0f", CHAT_LENGTH) == "👩\u200d👩\u200d👧 ❤\ufe0f"
    for bad, reason in (("", "empty"), ("   ", "empty"), ("x" * (CHAT_LENGTH + 1), "at most 200"),
                        ("a\nb", "control"), ("a\x00b", "control"), ("\x1b[31mred", "control"),
                        ("a\u202eb", "control")):
        with pytest.raises(ProtocolError) as caught:
            clean_chat_text(bad, CHAT_LENGTH)
        assert caught.value.code == 101 and reason in str(caught.value.context["reason"]), bad


def test_social_rate_history_and_readiness() -> None:
    """The chat bucket gives 5 at once, then one a second; the history keeps the last 30 lines;
    readiness counts only for subscribed clients and is cleared as asked."""
    now = [0.0]
    social: Social[str] = Social(clock=lambda: now[0])
    assert [social.allow("a") for _ in range(CHAT_BURST + 1)] == [True] * CHAT_BURST + [False]
    assert social.allow("b"), "each client has its own bucket"
    now[0] += 1.0
    assert social.allow("a") and not social.allow("a")
    for number in range(CHAT_HISTORY + 5):
        social.remember(ChatLine(0, "a", str(number)))
    assert [line.text for line in social.log] == [str(n) for n in range(5, CHAT_HISTORY + 5)]

    assert social.ready("a") is None and not social.listens("a")
    assert social.subscribe("a")
    assert social.ready("a") is False
    assert social.set_ready("a", True) and not social.set_ready("a", True)
    assert not social.subscribe("a")
    assert social.ready("a") is True, "syncing again keeps the readiness"
    assert not social.clear(["b"]) and social.clear(["a"]) and social.ready("a") is False
    social.set_ready("b", True)
    assert social.forget("b") and social.ready("b") is None and not social.forget("b")


# -- chat and reactions ---------------------------------------------------------------------------


async def test_chat_reaches_every_synced_client_and_joiners_get_the_history(start_server: StartServer) -> None:
    """``chat`` goes to every client that sent ``table_sync`` (the sender too) as ``chat_message
    {player_index, player_name, text}``, exactly as typed (trimmed); a client that never synced
    hears nothing; one that syncs later gets the lines in ``chat_history``, at most the last 30."""
    async with asyncio.timeout(WAIT * 2):
        server = await start_server(message_rate=1e6, message_burst=10**6)
        anna = await synced(server, "Anna")
        assert anna.events("chat_history") == [{"messages": []}]
        assert lobby_states(anna) == [{"target_score": 200, "target_score_range": [100, 10000],
                                       "ready": [False, None, None, None]}]
        plain = await server.join("Plain", "t")
        brian = await synced(server, MARKUP)
        assert await anna.wait_event("lobby_state", ready=[False, None, False, None]), \
            "a client that syncs is shown to the others as not ready"
        await anna.send_type("chat", text=f"  {MARKUP}  ")
        line = {"player_index": 0, "player_name": "Anna", "text": MARKUP}
        for client in (anna, brian):
            assert await client.wait_event("chat_message") == line
        await brian.send_type("reaction", reaction="good_luck")
        for client in (anna, brian):
            assert await client.wait_event("reaction") == {"player_index": 2, "player_name": MARKUP,
                                                           "reaction": "good_luck"}
        await settle(plain, anna, brian)
        assert not plain.events("chat_message") and not plain.events("reaction") and not plain.events("lobby_state")

        social = server.table("t").social
        ticks = itertools.count(10**9)  # white-box: a clock that moves a second per look, so the rate never bites
        social._clock = lambda: float(next(ticks))
        social._buckets.clear()
        for number in range(CHAT_HISTORY + 3):
            await brian.send_type("chat", text=f"line {number}")
        await brian.wait_event("chat_message", text=f"line {CHAT_HISTORY + 2}")
        late = await synced(server, "Late")
        [history] = late.events("chat_history")
        assert len(history["messages"]) == CHAT_HISTORY == len(social.log)
        texts = [line["text"] for line in history["messages"]]
        assert texts == [f"line {number}" for number in range(3, CHAT_HISTORY + 3)]
        for client in (anna, brian, plain, late):
            client.assert_clean()


async def test_bad_chat_is_refused_and_changes_nothing(start_server: StartServer) -> None:
    """A text that is empty, too long (201), has control characters or is no string: 101; an
    unknown reaction: 300 with ``context.reactions``; nothing is sent to anyone nor kept."""
    async with asyncio.timeout(WAIT * 2):
        server = await start_server()
        anna = await synced(server, "Anna")
        bert = await synced(server, "Bert")
        bad_texts: list[Any] = ["", "  ", "x" * (CHAT_LENGTH + 1), "a\nb", "\x07", 5, None, ["hi"]]
        for text in bad_texts:
            await expect_refused(server, anna, "t", {"type": "chat", "payload": {"text": text}}, 101)
        await expect_refused(server, anna, "t", {"type": "chat"}, 101)
        for reaction in ("boo", "", "NICE", "x" * 300):
            error = await expect_refused(server, anna, "t", {"type": "reaction", "payload": {"reaction": reaction}},
                                         300)
            assert error["context"]["reactions"] == list(REACTIONS)
        await expect_refused(server, anna, "t", {"type": "reaction", "payload": {"reaction": 1}}, 101)
        await settle(bert)
        assert not bert.events("chat_message") and not bert.events("reaction")
        assert not server.table("t").social.log


async def test_the_chat_rate_is_limited_per_client(start_server: StartServer) -> None:
    """Five chat messages or reactions at once are sent; the sixth is refused with 105 (a reason
    naming the chat rate) and reaches nobody; a second later one more goes out."""
    async with asyncio.timeout(WAIT * 2):
        server = await start_server()
        anna = await synced(server, "Anna")
        bert = await synced(server, "Bert")
        for number in range(CHAT_BURST - 1):
            await anna.send_type("chat", text=f"m{number}")
        await anna.send_type("reaction", reaction="nice")
        await settle(anna)
        error = await anna.expect_error({"type": "chat", "payload": {"text": "too many"}}, 105)
        assert "chat" in error["context"]["reason"]
        await expect_refused(server, anna, "t", {"type": "reaction", "payload": {"reaction": "oops"}}, 105)
        await bert.send_type("chat", text="bert is not limited by anna")
        await bert.wait_event("chat_message", text="bert is not limited by anna")
        await settle(bert)
        assert [m["text"] for m in bert.events("chat_message")] == [f"m{n}" for n in range(CHAT_BURST - 1)] + [
            "bert is not limited by anna"]
        assert len(bert.events("reaction")) == 1
        await asyncio.sleep(1.05)
        await anna.send_type("chat", text="again")
        await bert.wait_event("chat_message", text="again")


# -- readiness -----------------------------------------------------------------------------------


async def test_readiness_is_shown_and_cleared(start_server: StartServer) -> None:
    """``set_ready`` reaches every synced client as ``lobby_state.ready`` (per seat: true, false, or
    null for an agent or a client that never synced); a swap clears the moved seats, an option
    change everyone, a leave the leaver; a game's start clears it silently; during a game
    ``set_ready`` is 400. Bad payloads: 101, nothing changes."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await synced(server, "Host")
        guest = await synced(server, "Guest")
        plain = await server.join("Plain", "t")
        await guest.send_type("set_ready", ready=True)
        for client in (host, guest):
            await client.wait_event("lobby_state", ready=[False, True, None, None])
        await expect_refused(server, guest, "t", {"type": "set_ready", "payload": {"ready": "yes"}}, 101)
        await expect_refused(server, guest, "t", {"type": "set_ready"}, 101)
        count = len(lobby_states(host))
        await guest.send_type("set_ready", ready=True)  # no change: no message
        await settle(guest, host)
        assert len(lobby_states(host)) == count

        steps: list[tuple[Client, str, dict[str, Any], list[bool | None]]] = [
            (host, "swap_players", {"player_index_1": 1, "player_index_2": 3}, [False, None, None, False]),
            (guest, "set_ready", {"ready": True}, [False, None, None, True]),
            (host, "set_options", {"hints": True}, [False, None, None, False]),
            (guest, "set_ready", {"ready": True}, [False, None, None, True]),
            (plain, "set_ready", {"ready": True}, [False, None, True, True]),
            (plain, "leave", {}, [False, None, None, True]),
        ]
        for sender, kind, payload, ready in steps:
            mark = len(host.messages)
            await sender.send_type(kind, **payload)
            await host.wait_event("lobby_state", start=mark, ready=ready)

        before = len(lobby_states(host))
        await host.send_type("start_game")
        await host.wait_event("game_started")
        await expect_refused(server, guest, "t", {"type": "set_ready", "payload": {"ready": True}}, 400)
        await settle(host, guest)
        assert len(lobby_states(host)) == before, "the start clears readiness without a message"
        assert server.table("t").social.ready(server.table("t").peers[3]) is False  # type: ignore[arg-type]


async def test_a_protocol_client_starts_without_readiness(start_server: StartServer) -> None:
    """``start_game`` keeps its meaning: a host starts while a synced guest is not ready (the
    browser client waits for readiness in its own interface), and a client that never syncs
    gets exactly the messages of protocol.md."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await server.join("Host", "t", seed=1)
        await synced(server, "Guest")
        await host.send_type("start_game")
        await host.wait_event("game_started")
        events = {m["payload"]["event"] for m in host.messages if m.get("type") == "notification"}
        assert not events & {"lobby_state", "chat_history", "chat_message", "reaction"}


# -- the target score ----------------------------------------------------------------------------


async def test_the_host_sets_the_target_score_for_the_game(start_server: StartServer) -> None:
    """``set_options {target_score}`` (host, lobby, 100..10000) reaches synced clients as
    ``lobby_state.target_score`` (``options_changed`` keeps its fields) and is the game's target:
    it is in the record's rules and the game ends once a team reaches it. Out of range: 300 with
    ``min`` and ``max``; not an integer: 101; from a guest: 401; nothing changes."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await synced(server, "Host")
        guest = await synced(server, "Guest")
        table = server.table("t")
        for bad in (99, 10001, -5, 0):
            error = await expect_refused(server, host, "t", {"type": "set_options", "payload": {
                "target_score": bad, "hints": True}}, 300)
            assert (error["context"]["min"], error["context"]["max"]) == (100, 10000)
        for bad_type in ("500", 500.5, True, [500]):
            await expect_refused(server, host, "t", {"type": "set_options", "payload": {"target_score": bad_type}},
                                 101)
        await expect_refused(server, guest, "t", {"type": "set_options", "payload": {"target_score": 500}}, 401)
        assert table.target_score == 200 and table.options.hints is False

        await host.send_type("set_options", target_score=100)
        for client in (host, guest):
            state = await client.wait_event("lobby_state", target_score=100)
            assert state["target_score_range"] == [100, 10000]
            assert client.events("options_changed")[-1] == {
                "agent": "random", "hints": False, "agents": ["random", "beginner", "rule", "heuristic", "montecarlo"],
                "levels": [{"level": "beginner", "agent": "beginner"}, {"level": "casual", "agent": "rule"},
                           {"level": "strong", "agent": "heuristic:0.4"},
                           {"level": "expert", "agent": "montecarlo:plays"}],
                "turn_clock": 0.0, "turn_clocks": [0, 30, 60, 120], "on_leave": "agent", "newcomers": False}
        await host.send_type("start_game")
        await asyncio.gather(host.play(), guest.play())
        [record] = read_table_records(server, "t")
        assert record["rules"]["target_score"] == 100
        over = host.events("game_over")[-1]
        assert max(over["total"]) >= 100
        assert all(max(sum(team[:index]) for team in over["game_score"]) < 100
                   for index in range(len(over["game_score"][0])))
        late = await synced(server, "Late")
        assert lobby_states(late)[-1]["target_score"] == 100, "the table keeps its target score"
