"""The table options in the lobby and the Hint button, in headless Chromium against the real server.

As in ``test_e2e.py`` the page is driven by clicks (and the lobby's select by choosing an
option); the WebSocket frames only tell the test when to act and what the server sent.
"""

from __future__ import annotations

import asyncio
import time
from functools import partial

import pytest

from tests.support.browser import DESKTOP, PHONE, ROUND_WAIT, OpenPage, Shots, Tab
from tests.support.clicks import Player, card_label
from tests.support.live_server import POLL, Message, StartServer

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: The choices of ``#lobby-agent`` at a test server (agents ``random``): the levels, then the
#: server's setting, which is no level.
CHOICES = ["beginner", "casual", "strong", "expert", "random"]


async def agent_choices(tab: Tab) -> list[tuple[str, str]]:
    """The ``#lobby-agent`` options as (value, label) pairs."""
    pairs = await tab.page.eval_on_selector_all("#lobby-agent option",
                                                "els => els.map(e => [e.value, e.textContent.trim()])")
    return [(str(value), str(label)) for value, label in pairs]


async def agent_value(tab: Tab) -> str:
    """The chosen ``#lobby-agent`` value."""
    return str(await tab.page.locator("#lobby-agent").input_value())


async def hints_checked(tab: Tab) -> bool:
    """Whether ``#lobby-hints`` is checked."""
    return await tab.page.locator("#lobby-hints").is_checked()


async def selected(tab: Tab) -> list[str]:
    """The ``data-card`` of the selected hand cards, sorted."""
    cards = await tab.page.eval_on_selector_all("#hand .card.selected", "els => els.map(e => e.dataset.card)")
    return sorted(str(card) for card in cards)


def labels(play: list[list[int]]) -> list[str]:
    """A protocol play as sorted ``data-card`` labels."""
    return sorted(card_label(card) for card in play)


@pytest.mark.slow
async def test_the_host_chooses_the_options_and_the_guest_sees_them(start_server: StartServer,
                                                                     open_page: OpenPage, shots: Shots) -> None:
    """In the lobby the host gets ``#lobby-agent`` (the levels Beginner, Casual, Strong, Expert,
    and the server's setting Random; German Anfänger, Gelegenheitsspieler, Stark, Experte,
    Zufall) and ``#lobby-hints``, both starting from the server's settings (once a level is
    chosen the setting is no longer offered); a guest sees the same values, disabled. The host's choice is sent as
    ``set_options`` and reaches the guest's page."""
    server = await start_server()
    host = await open_page(DESKTOP, "options host")
    guest = await open_page(PHONE, "options guest")
    await host.login(server.url, "Hana", "options")
    await host.wait_view("view-lobby")
    await guest.login(server.url, "Gus", "options")
    await guest.wait_view("view-lobby")
    for tab in (host, guest):
        await tab.until(partial(tab.visible, "#lobby-agent"), "#lobby-agent shown in the lobby")
        assert await agent_choices(tab) == list(zip(CHOICES, ["Beginner", "Casual", "Strong", "Expert", "Random"]))
        assert await agent_value(tab) == "random" and await hints_checked(tab)
    assert await host.enabled("#lobby-agent") and await host.enabled("#lobby-hints")
    assert not await guest.enabled("#lobby-agent") and not await guest.enabled("#lobby-hints"), \
        "a guest sees the options read-only"
    await shots.take(host, "lobby-options-host")
    await shots.take(guest, "lobby-options-guest")

    await host.page.select_option("#lobby-agent", "strong")
    await host.click("#lobby-hints")
    for tab in (host, guest):
        await tab.until(partial(_options_are, tab, "strong", False), "the new options shown")
    sent = [m["payload"] for m in host.wire.sent() if m.get("type") == "set_options"]
    assert sent == [{"agent": "strong"}, {"hints": False}]
    assert [m["agent"] for m in guest.wire.events("options_changed")] == ["strong", "strong"]
    assert not host.wire.errors() and not guest.wire.errors()

    await guest.click("#lang-switch")
    await guest.until(lambda: _label_is(guest, "Stark"), "the level names switch to German")
    assert [label for _, label in await agent_choices(guest)] == ["Anfänger", "Gelegenheitsspieler", "Stark", "Experte"]
    shots.assert_layout()


async def _options_are(tab: Tab, agent: str, hints: bool) -> bool:
    return await agent_value(tab) == agent and await hints_checked(tab) is hints


async def _label_is(tab: Tab, label: str) -> bool:
    return str(await tab.page.locator("#lobby-agent option:checked").text_content()).strip() == label


@pytest.mark.slow
async def test_the_hint_button_selects_hinted_plays_that_play_accepts(start_server: StartServer,
                                                                       open_page: OpenPage, shots: Shots) -> None:
    """At the own turn ``#btn-hint`` ("Hint") is shown when the request carries a hint: a click
    selects the best hinted play, the next click the next one; after the player changes the
    selection a click starts again from the best; ``#btn-play`` then plays it and the server
    accepts it (``player_played`` with exactly these cards)."""
    server = await start_server(target_score=1000)
    tab = await open_page(PHONE, "hint")
    await tab.login(server.url, "Ada", "hint")
    await tab.wait_view("view-lobby")
    await tab.until(lambda: tab.enabled("#lobby-start"), "#lobby-start enabled for the host")
    await tab.click("#lobby-start")
    await tab.wait_view("view-table")
    player = Player(tab)
    request = await _hinted_turn(player)
    hint = request["context"]["hint"]
    legal = [labels(play) for play in request["context"]["legal_plays"]]
    assert all(labels(play) in legal for play in hint), "the server hinted a play that is not legal"

    await tab.until(lambda: tab.enabled("#btn-hint"), "#btn-hint shown at a turn with a hint")
    assert await tab.texts("#btn-hint") == ["Hint"]
    await tab.click("#btn-hint")
    await tab.until(lambda: _selected_is(tab, hint[0]), f"#btn-hint selects the best hinted play {hint[0]}")
    await tab.click("#btn-hint")
    await tab.until(lambda: _selected_is(tab, hint[1]), f"a second click selects the next one {hint[1]}")
    await shots.take(tab, "table-hint")
    await tab.click("#hand .card:not(.selected)")
    await tab.click("#btn-hint")
    await tab.until(lambda: _selected_is(tab, hint[0]), "after a changed selection #btn-hint starts again")
    await tab.until(lambda: tab.enabled("#btn-play"), "#btn-play enabled for the hinted play")
    assert await tab.texts("#btn-play") == ["Play"]
    await tab.click("#btn-play")
    own = tab.wire.seat

    def played() -> bool:
        return any(context["turn"][0] == own and labels(context["turn"][1]) == labels(hint[0])
                   for context in tab.wire.events("player_played"))

    await tab.until(played, "the server accepted the hinted play (player_played)")
    response = [m["payload"] for m in tab.wire.sent() if m.get("type") == "response"
                and m["payload"]["request_id"] == request["request_id"]]
    assert [labels(r["response_data"]["cards"]) for r in response] == [labels(hint[0])]
    assert not tab.wire.unexplained_errors(), tab.wire.errors()
    shots.assert_layout()


async def _selected_is(tab: Tab, play: list[list[int]]) -> bool:
    return await selected(tab) == labels(play)


async def _hinted_turn(player: Player) -> Message:
    """Play by clicks until the received cards are in the hand and a ``play`` request is open whose hint
    starts with two plays (not passes); return that request."""
    wire = player.tab.wire
    deadline = time.monotonic() + ROUND_WAIT
    while time.monotonic() < deadline:
        request = wire.open_request()
        received = wire.count("start_playing") in player.received_rounds
        if request is not None and request["action"] == "play" and received:
            hint = request["context"]["hint"]
            assert hint is not None, "hints are on (the server's default), but the request has none"
            if len(hint) >= 2 and hint[0] and hint[1]:
                return request
        if not await player.step():
            await asyncio.sleep(POLL)
    raise AssertionError(f"no play request with a hint of two plays; {await player.tab.describe()}")
