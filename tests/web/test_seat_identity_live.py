"""Who a person is, in the browser, against the real server (docs/server.md "Who a person is";
issue 33, finding 1): the page that left a seat takes it back by logging in again under the
same name, because it kept the seat's session; another page under that name gets no seat.
"""

from __future__ import annotations

import re
from functools import partial

import pytest

from tests.support.browser import DESKTOP, PHONE, OpenPage, Tab
from tests.support.live_server import LiveServer

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _text(tab: Tab, selector: str) -> str:
    return (await tab.page.locator(selector).first.text_content() or "").strip()


async def _matches(tab: Tab, selector: str, pattern: str) -> bool:
    return re.fullmatch(pattern, await _text(tab, selector)) is not None


async def test_the_page_that_left_takes_the_seat_back_and_no_other(server: LiveServer, open_page: OpenPage) -> None:
    """Issue 33, finding 1: Ben leaves the running game; another page logging in as "ben" is told
    the name is taken and gets no seat; Ben's own page logs in again as "Ben" and is back at the
    table on his seat."""
    host = await open_page(DESKTOP, "host")
    guest = await open_page(PHONE, "guest")
    await host.login(server.url, "Anna", "proof")
    await host.wait_view("view-lobby")
    await guest.login(server.url, "Ben", "proof")
    await guest.wait_view("view-lobby")
    await guest.click("#lobby-ready")
    await host.until(lambda: host.enabled("#lobby-start"), "#lobby-start enabled once Ben is ready")
    await host.click("#lobby-start")
    await guest.wait_view("view-table")
    seat = server.table("proof").peers.index(next(peer for peer in server.table("proof").clients if peer.name == "Ben"))
    await guest.click("#leave")
    await guest.click("#confirm-yes")
    await guest.wait_view("view-login")

    thief = await open_page(DESKTOP, "thief")
    await thief.login(server.url, "ben", "proof")
    await thief.until(partial(_matches, thief, "#login-error", r".*already taken.*"), "the name is taken")
    assert server.table("proof").peers[seat] is None, "no seat for a name alone"

    await guest.login(server.url, "Ben", "proof")
    await guest.wait_view("view-table")
    back = server.table("proof").peers[seat]
    assert back is not None and back.name == "Ben"
