"""The stand-in's rules (docs/server.md; issue 35, finding 1): an agent that decides for a person
who is away or has left plays their cards but calls no Tichu (R6.1) and no Grand Tichu (R2.1) for
them; and while a person who left may come back, the agents play at the agents' pace, not at the
machine's, so that the person finds the round where it was.

The table's agents here are :class:`~tests.support.pool_agents.BoldAgent` s, which call whenever
offered: the agents' own seats call, the stand-ins' seats do not.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.support.agents import bold_agents
from tests.support.live_server import Message
from tests.support.raw_client import GAME_WAIT, StartServer, is_event
from tichu.server.tables import idle as idle_module


def callers(announcements: list[Message], *, grand: bool) -> set[int]:
    """The seats of the ``player_announced`` contexts of one kind of call."""
    return {context["player_index"] for context in announcements if context["grand"] is grand}


async def test_a_handed_over_seats_stand_in_calls_neither_grand_tichu_nor_tichu(
        start_server: StartServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Idle Ida sits on her Grand Tichu request; the host hands her seat over (R2.1's step). Her
    stand-in answers "no", and is offered every Tichu an agent is (R6.1) and declines it; the two
    agents' seats call both."""
    monkeypatch.setattr(idle_module, "HAND_OVER_AFTER", 0.3)
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(agents=bold_agents())
        host = await server.join("Host", "bets", seed=1)
        ida = await server.join("Ida", "bets", seed=2)
        await host.send_type("start_game")
        held = await ida.play(until=None, hold=lambda request: request["action"] == "announce_grand_tichu")
        hosting = asyncio.create_task(host.play(until="round_over"))
        await asyncio.sleep(0.3)  # the silence the hand-over asks for
        await host.send_type("hand_over", player_index=ida.seat)
        await ida.wait_event("request_cancelled", request_id=held["payload"]["request_id"])
        await hosting
        announced = host.events("player_announced")
        agents = {0, 1, 2, 3} - {host.seat, ida.seat}
        assert agents <= callers(announced, grand=True), "the table's agents call whenever offered"
        assert ida.seat not in callers(announced, grand=True) | callers(announced, grand=False)


async def test_who_left_finds_no_call_of_theirs_and_the_round_where_it_was(start_server: StartServer) -> None:
    """Eva, the only person at the table, leaves during the push; a spectator watches on. Her
    seat's agent pushes and plays for her but calls no Tichu (R6.1), though it is offered one
    before its first card (the agents' seats called Grand Tichu, R2.1); the agents play at the
    table's pace while she may come back (each play after the first two takes the delay at
    least: a lower bound, whatever the machine's load); back with her session id, she finds the
    first round still being played."""
    delay = 0.3
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(agents=bold_agents(), agent_delay=delay, grace_period=30.0)
        eva = await server.join("Eva", "gone", seed=1)
        await eva.send_type("start_game")
        await eva.play(until=None, hold=lambda request: request["action"] == "schupf")
        watcher = await server.raw("table_name=gone&spectate=1", name="watcher")
        await watcher.wait_for(lambda m: is_event(m, "spectate_started"))
        mark = len(watcher.messages)
        left_at = time.monotonic()
        await eva.send_type("leave")
        await eva.wait_closed()
        plays = 5
        for _ in range(plays):
            mark = 1 + (await watcher.wait_for(lambda m: is_event(m, "player_played"), start=mark))[0]
        assert time.monotonic() - left_at >= (plays - 2) * delay, "the agents played at the machine's pace"
        back = await server.reconnect(eva, seed=2)
        [state] = [joined["public_state"] for joined in back.events("player_joined") if "session_id" in joined]
        assert state["round_index"] == 0 and state["phase"] == "playing", state
        assert eva.seat is not None and [state["announcements"][seat] for seat in range(4) if seat != eva.seat] == \
            [2, 2, 2], "the table's agents call Grand Tichu when offered"
        assert state["announcements"][eva.seat] == 0 and not [
            context for context in watcher.events("player_announced") if context["player_index"] == eva.seat]
