"""The stand-in's rules in the browser (issue 35, finding 1; docs/server.md "The stand-in's
rules"): the agent that plays for a person who is away calls nothing for them.

The table's agents call Grand Tichu and Tichu whenever offered
(:class:`~tests.support.pool_agents.BoldAgent`), so the agents' seats show "Grand Tichu" and a
stand-in that called would show it too.
"""

from __future__ import annotations

from functools import partial

import pytest

from tests.support.agents import bold_agents
from tests.support.browser import DESKTOP, PHONE, ROUND_WAIT, OpenPage, Tab, Wire
from tests.support.clicks import Player
from tests.support.live_server import StartServer

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _call_shown(tab: Tab, seat: int) -> str:
    """The call a seat shows (``data-call``: 0 none, 1 Tichu, 2 Grand Tichu)."""
    return await tab.page.locator(f'.seat[data-seat="{seat}"] .seat-call').get_attribute("data-call") or ""


def _played_for(seat: int, wire: Wire) -> bool:
    """Whether the seat has played a card this game (its Tichu offer came before, R6.1)."""
    return any(context["turn"][0] == seat for context in wire.events("player_played"))


@pytest.mark.slow
async def test_a_seat_handed_over_at_the_grand_tichu_step_calls_nothing(start_server: StartServer,
                                                                         open_page: OpenPage) -> None:
    """Ben stays silent at the Grand Tichu step; Anna (the host) hands his seat to an agent. The
    agents' seats show "Grand Tichu"; Ben's shows no call, neither after the Grand Tichu step
    (R2.1) nor after his agent's first play, before which it is offered a Tichu (R6.1). The host
    may hand a seat over after a minute of silence, so this test takes one."""
    server = await start_server(agents=bold_agents())
    host = await open_page(DESKTOP, "host")
    guest = await open_page(PHONE, "guest")
    await host.login(server.url, "Anna", "bets")
    await host.wait_view("view-lobby")
    await guest.login(server.url, "Ben", "bets")
    await guest.wait_view("view-lobby")
    await guest.until(lambda: guest.visible("#lobby-ready"), "Ben's ready button")
    await guest.click("#lobby-ready")
    await host.until(lambda: host.enabled("#lobby-start"), "#lobby-start enabled once Ben is ready")
    await host.click("#lobby-start")
    await guest.wait_view("view-table")
    await host.wait_view("view-table")
    await host.until(lambda: host.enabled("#btn-pass"), "Anna's Grand Tichu question")
    await host.click("#btn-pass")
    control = '.seat[data-seat="1"] .seat-hand-over'
    await host.until(lambda: host.visible(control), "Hand to an agent after 60 s", timeout=120)
    await host.click(control)
    await guest.until(lambda: guest.visible("#handover-banner"), "Ben's banner")
    for seat in (2, 3):
        await host.until(partial(_shows, host, seat, "2"), f"the agent of seat {seat} shows Grand Tichu")
    await Player(host).play_until(partial(_played_for, 1), ROUND_WAIT)
    assert await _call_shown(host, 1) == "0", "Ben's agent called for him"
    assert await _call_shown(guest, 1) == "0", "Ben's own page shows a call he never made"


async def _shows(tab: Tab, seat: int, call: str) -> bool:
    return await _call_shown(tab, seat) == call
