"""Table options and the hint for humans (docs/server.md "set_options"; protocol.md ``play``: ``hint``).

A table starts with the server's agent kind and hint setting; its host may change both in the
lobby with ``set_options``; every client hears ``options_changed``, and a (re)joining client
finds the options in its own ``player_joined``. With hints on, a ``play`` request's ``hint``
holds every legal play once, best first; with hints off it is null.
"""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.support.cards import card_set
from tests.support.checks import check_requests, check_seat_messages, expect_refused
from tests.support.live_server import WAIT, Message, read_table_records
from tests.support.raw_client import GAME_WAIT, Client, StartServer, is_request
from tichu.agents.levels import DEFAULT_LEVEL, LEVELS
from tichu.agents.registry import AGENTS, DEFAULT_AGENT
from tichu.records.record import replay
from tichu.server.config import Settings

KINDS = list(AGENTS)
#: The levels as clients get them with the options.
LEVEL_LIST = [{"level": name, "agent": level.agent} for name, level in LEVELS.items()]
#: The options of docs/server.md "Leaving, idle seats and late joiners", as a table starts them.
SEAT_OPTIONS = {"turn_clock": 0.0, "turn_clocks": [0, 30, 60, 120], "on_leave": "agent", "newcomers": False}


def own_options(client: Client) -> Message:
    """The ``options`` of the client's last own ``player_joined``."""
    joined = [context for context in client.events("player_joined") if "session_id" in context]
    options: Message = joined[-1]["options"]
    return options


def _heard(client: Client, count: int, message: Message) -> bool:
    """Whether the client got ``count`` ``options_changed`` so far (a predicate for ``wait_for``)."""
    return len(client.events("options_changed")) == count


def play_requests(client: Client) -> list[Message]:
    """The contexts of every ``play`` request the client got."""
    return [m["payload"]["context"] for m in client.messages if is_request(m, "play")]


def as_plays(plays: list[Any]) -> list[frozenset[tuple[int, int]]]:
    """Card lists as sets of cards (a play's order of cards does not matter)."""
    return [card_set(play) for play in plays]


# -- settings ------------------------------------------------------------------------------------


def test_settings_defaults_and_environment() -> None:
    """The server's defaults are the default level (which plays the registry's default agent)
    and hints on; ``TICHU_HINTS`` takes
    1/0, true/false, on/off, yes/no (any case); ``TICHU_AGENT`` takes a kind with its setting."""
    settings = Settings.load({}, env_file=None)
    assert settings.agent == DEFAULT_LEVEL == "expert" and settings.hints is True
    assert LEVELS[DEFAULT_LEVEL].agent == DEFAULT_AGENT == "montecarlo:plays"
    for word, value in (("1", True), ("0", False), ("true", True), ("False", False), ("ON", True), ("off", False),
                        ("yes", True), ("No", False), (" on ", True)):
        assert Settings.load({"TICHU_HINTS": word}, env_file=None).hints is value, word
    assert Settings.load({"TICHU_AGENT": "rule"}, env_file=None).agent == "rule"
    assert Settings.load({"TICHU_AGENT": "montecarlo:n16"}, env_file=None).agent == "montecarlo:n16"
    assert Settings.load({"TICHU_AGENT": "casual"}, env_file=None).agent == "casual"  # a level


def test_settings_refuse_an_unknown_agent_and_a_bad_boolean(tmp_path: Path) -> None:
    """An unknown agent kind (in the environment or in ``.env``) or a bad setting of one, and a
    hint value that is no boolean, are a ValueError at load that names the variable."""
    for value in ("bogus", "rule:0.2", "montecarlo:fast", "Random"):
        with pytest.raises(ValueError, match=r"TICHU_AGENT=.*(unknown agent|setting)"):
            Settings.load({"TICHU_AGENT": value}, env_file=None)
    env_file = tmp_path / ".env"
    env_file.write_text("TICHU_AGENT=nobody\n", encoding="utf-8")
    with pytest.raises(ValueError, match="TICHU_AGENT='nobody'"):
        Settings.load({}, env_file=env_file)
    for value in ("maybe", "2", "enabled"):
        with pytest.raises(ValueError, match="TICHU_HINTS"):
            Settings.load({"TICHU_HINTS": value}, env_file=None)


# -- options in the lobby --------------------------------------------------------------------------


async def test_host_changes_the_options_and_everyone_hears_it(start_server: StartServer) -> None:
    """A table starts with the server's settings; the host's ``set_options`` (either field alone,
    or both) reaches every client as ``options_changed {agent, hints, agents}``; a client joining
    later, and one reconnecting, find the options in its own ``player_joined``; the others'
    ``player_joined`` stays ``{player_index, player_name}``."""
    async with asyncio.timeout(WAIT):
        server = await start_server(agent="rule", hints=True)
        host = await server.join("Host", "t")
        guest = await server.join("Guest", "t")
        for client in (host, guest):
            assert own_options(client) == {"agent": "rule", "hints": True, "agents": KINDS, "levels": LEVEL_LIST,
                                           **SEAT_OPTIONS}
        assert host.events("player_joined")[-1] == {"player_index": 1, "player_name": "Guest"}

        expected = [{"agent": "heuristic", "hints": False, "agents": KINDS, "levels": LEVEL_LIST, **SEAT_OPTIONS},
                    {"agent": "heuristic", "hints": True, "agents": KINDS, "levels": LEVEL_LIST, **SEAT_OPTIONS},
                    {"agent": "random", "hints": True, "agents": KINDS, "levels": LEVEL_LIST, **SEAT_OPTIONS}]
        for payload in ({"agent": "heuristic", "hints": False}, {"hints": True}, {"agent": "random", "hints": None}):
            answers = await host.roundtrip({"type": "set_options", "payload": payload})
            assert [m["payload"]["event"] for m in answers if m.get("type") == "notification"] == ["options_changed"]
        for client in (host, guest):
            await client.wait_for(partial(_heard, client, 3))
            assert client.events("options_changed") == expected
            assert not client.errors()
        table = server.table("t")
        assert (table.options.agent, table.options.hints) == ("random", True)

        late = await server.join("Late", "t")
        assert own_options(late) == expected[-1]
        await guest.drop()
        again = await server.reconnect(guest)
        assert own_options(again) == expected[-1]


async def test_set_options_is_for_the_host_in_the_lobby_only(start_server: StartServer) -> None:
    """``set_options`` from a client that is not the host: 401 NOT_LOBBY_HOST; an agent kind that
    is not a plain registry name: 300 INVALID_ACTION with ``context.reason`` and the known
    ``agents``; fields of the wrong type or none at all: 101 INVALID_MESSAGE; during a game:
    400 GAME_ALREADY_STARTED (401 for the others). Nothing changes and nobody hears
    ``options_changed``; the game runs with the options set before it."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await server.join("Host", "t", seed=1)
        guest = await server.join("Guest", "t", seed=2)
        table = server.table("t")
        before = (table.options.agent, table.options.hints)
        assert before == ("random", False)
        await expect_refused(server, guest, "t", {"type": "set_options", "payload": {"agent": "rule"}}, 401)
        await expect_refused(server, guest, "t", {"type": "set_options", "payload": {"hints": True}}, 401)
        for agent in ("bogus", "Rule", "montecarlo:0.2", "", "x" * 500):
            payload = await expect_refused(server, host, "t", {"type": "set_options", "payload": {
                "agent": agent, "hints": True}}, 300)
            assert "unknown agent" in payload["context"]["reason"] and payload["context"]["agents"] == KINDS
            assert payload["context"]["levels"] == list(LEVELS)
        for bad in ({}, {"agent": None}, {"agent": 1}, {"agent": ["rule"]}, {"hints": "yes"}, {"hints": 1},
                    {"hints": True, "agent": 5}, {"agent": "rule", "hints": "false"}):
            await expect_refused(server, host, "t", {"type": "set_options", "payload": bad}, 101)
        await expect_refused(server, host, "t", {"type": "set_options"}, 101)
        assert (table.options.agent, table.options.hints) == before

        await host.send_type("start_game")
        for client in (host, guest):
            await client.play(until=None, hold=lambda request: True)
        await expect_refused(server, host, "t", {"type": "set_options", "payload": {"agent": "rule"}}, 400)
        await expect_refused(server, guest, "t", {"type": "set_options", "payload": {"hints": True}}, 401)
        assert (table.options.agent, table.options.hints) == before
        await asyncio.gather(host.play(), guest.play())
        for client in (host, guest):
            assert client.events("options_changed") == []
            assert all(context["hint"] is None for context in play_requests(client))
            client.assert_clean()
        [record] = read_table_records(server, "t")
        assert [p["kind"] for p in record["players"]] == ["human", "human", "agent:random", "agent:random"]


# -- agents ------------------------------------------------------------------------------------------


async def test_the_agent_option_seats_that_kind(start_server: StartServer) -> None:
    """With the option ``rule`` the empty seats are played by rule agents, also a seat a client
    leaves during the game (the record names each seat's last occupant, records.md)."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await server.join("Host", "t", seed=1)
        guest = await server.join("Guest", "t", seed=2)
        await host.send_type("set_options", agent="rule")
        await guest.wait_event("options_changed", agent="rule")
        await host.send_type("start_game")
        hosting = asyncio.create_task(host.play())
        await guest.play(until="start_playing")
        await guest.send_type("leave")
        await guest.wait_closed()
        await hosting
        host.assert_clean()
        [record] = read_table_records(server, "t")
        assert [p["kind"] for p in record["players"]] == ["human", "human", "agent:rule", "agent:rule"]
        assert [(change["seat"], change["kind"], change["reason"]) for change in record["seat_changes"]] == [
            (1, "agent:rule", "left")]  # Guest began the game; the agent that finished it is named as such
        assert replay(record) is None


async def test_the_agent_option_takes_a_level(start_server: StartServer) -> None:
    """The option ``agent`` also takes a level name (``casual``): everyone hears the level, and
    the empty seats are played by the level's agent (``rule``: the record's kinds)."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await server.join("Host", "t", seed=1)
        await host.send_type("set_options", agent="casual")
        await host.wait_event("options_changed", agent="casual")
        assert server.table("t").options.agent == "casual"
        await host.send_type("start_game")
        await host.play()
        host.assert_clean()
        [record] = read_table_records(server, "t")
        assert [p["kind"] for p in record["players"]] == ["human", "agent:rule", "agent:rule", "agent:rule"]
        assert "seat_changes" not in record


# -- hints -------------------------------------------------------------------------------------------


async def test_hints_rank_every_legal_play(start_server: StartServer) -> None:
    """With hints on, every ``play`` request's ``hint`` lists each legal play exactly once (the
    same card lists as ``legal_plays``, so only cards of the own hand, R8.2); playing the first
    hinted play is always accepted. The whole game follows the hints and its record replays."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(hints=True)
        anna = await server.join("Anna", "t", seed=1)
        assert own_options(anna)["hints"] is True

        async def follow_the_hint(client: Client, request: Message) -> Message | None:
            if request["action"] != "play":
                return None
            return {"cards": request["context"]["hint"][0]}

        await anna.send_type("start_game")
        await anna.play(strategy=follow_the_hint)
        anna.assert_clean()
        contexts = play_requests(anna)
        assert len(contexts) > 10 and check_requests(anna) == len(contexts)
        multiple = 0
        for context in contexts:
            legal, hint = as_plays(context["legal_plays"]), as_plays(context["hint"])
            assert len(hint) == len(set(hint)) == len(legal), context
            assert set(hint) == set(legal), context
            assert sorted(map(str, context["hint"])) == sorted(map(str, context["legal_plays"])), context
            multiple += len(legal) > 1
        assert multiple > 5
        [record] = read_table_records(server, "t")
        check_seat_messages(anna, record)
        assert replay(record) is None


async def test_a_reconnecting_client_finds_the_hint_in_its_pending_request(start_server: StartServer) -> None:
    """The hint is part of the request: a client that reconnects at its turn gets it again in
    ``pending_request``."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(hints=True)
        anna = await server.join("Anna", "t", seed=1)
        await anna.send_type("start_game")
        held = (await anna.play(until=None, hold=lambda request: request["action"] == "play"))["payload"]
        assert held["context"]["hint"]
        await anna.drop()
        again = await server.reconnect(anna)
        pending = again.events("player_joined")[-1]["pending_request"]
        assert pending["request_id"] == held["request_id"]
        assert pending["context"]["hint"] == held["context"]["hint"]


async def test_hints_follow_the_table_option(start_server: StartServer) -> None:
    """Hints off (the host's choice on a server with hints on): every ``hint`` is null; switched
    on again for the next game, the hints are back."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(hints=True, target_score=0)
        host = await server.join("Host", "t", seed=1)
        await host.send_type("set_options", hints=False)
        await host.wait_event("options_changed", hints=False)
        await host.send_type("start_game")
        await host.play()
        first = play_requests(host)
        assert first and all(context["hint"] is None for context in first)
        await host.send_type("set_options", hints=True)
        await host.wait_event("options_changed", hints=True)
        await host.send_type("start_game")
        await host.play()  # up to the second game's game_over (the first one was read already)
        second = play_requests(host)[len(first):]
        assert second and all(context["hint"] for context in second)
        host.assert_clean()
