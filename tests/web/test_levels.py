"""Playing levels in the lobby, in headless Chromium against the real server: the host picks a
level, the guest sees it with its description, and the game's agents are that level's."""

from __future__ import annotations

from functools import partial

import pytest

from tests.support.browser import DESKTOP, PHONE, OpenPage, Shots, Tab
from tests.support.live_server import StartServer, eventually
from tichu.server.tables.agent_seat import ServerAgent

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _about(tab: Tab) -> str:
    return str(await tab.page.locator("#lobby-agent-about").text_content()).strip()


async def _about_has(tab: Tab, text: str) -> bool:
    return text in await _about(tab)


async def _level_is(tab: Tab, level: str) -> bool:
    return str(await tab.page.locator("#lobby-agent").input_value()) == level


@pytest.mark.slow
async def test_the_host_picks_a_level_and_the_game_has_its_agents(start_server: StartServer,
                                                                   open_page: OpenPage, shots: Shots) -> None:
    """The server starts its tables at the level ``expert``; the host chooses Beginner in
    ``#lobby-agent``, which sends ``set_options {agent: "beginner"}``; both pages show the
    level and its description under the select (``#lobby-agent-about``, the select's
    ``aria-describedby``), in English and German; the started game seats beginner agents
    (``agent:beginner``) in the empty seats."""
    server = await start_server(agent="expert")
    host = await open_page(DESKTOP, "levels host")
    guest = await open_page(PHONE, "levels guest")
    await host.login(server.url, "Hana", "levels")
    await host.wait_view("view-lobby")
    await guest.login(server.url, "Gus", "levels")
    await guest.wait_view("view-lobby")
    for tab in (host, guest):
        await tab.until(partial(_level_is, tab, "expert"), "the server's level shown")
        assert await tab.page.get_attribute("#lobby-agent", "aria-describedby") == "lobby-agent-about"
        assert (await _about(tab)).startswith("Thinks ahead")
    await host.page.select_option("#lobby-agent", "beginner")
    for tab in (host, guest):
        await tab.until(partial(_level_is, tab, "beginner"), "the host's level shown")
        await tab.until(partial(_about_has, tab, "forgets which cards are out"),
                        "the level's description shown once the server confirmed it")
    assert [m["payload"] for m in host.wire.sent() if m.get("type") == "set_options"] == [{"agent": "beginner"}]
    assert server.table("levels").options.agent == "beginner"
    await shots.take(host, "lobby-level-host")
    await shots.take(guest, "lobby-level-guest")

    await guest.click("#lang-switch")
    await guest.until(lambda: _option_label_is(guest, "Anfänger"), "the level names switch to German")
    assert "vergisst, welche Karten gefallen sind" in await _about(guest)
    await shots.take(guest, "lobby-level-guest-de", both=False)

    await guest.click("#lobby-ready")
    await host.until(lambda: host.enabled("#lobby-start"), "#lobby-start enabled")
    await host.click("#lobby-start")
    await host.wait_view("view-table")
    table = server.table("levels")
    await eventually(lambda: table.engine is not None)
    assert table.engine is not None
    agents = [player for player in table.engine.players if isinstance(player, ServerAgent)]
    assert len(agents) == 2 and {player.kind for player in agents} == {"agent:beginner"}
    assert not host.wire.unexplained_errors() and not guest.wire.unexplained_errors()
    shots.assert_layout()


async def _option_label_is(tab: Tab, label: str) -> bool:
    return str(await tab.page.locator("#lobby-agent option:checked").text_content()).strip() == label
