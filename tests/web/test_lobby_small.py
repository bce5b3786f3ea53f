"""The smaller things players met around the table (Issue 35, finding 9): the lobby's table
rules and the one word for computer players, the leaderboard's names of agents.
"""

from __future__ import annotations

import json
import re
from functools import partial
from typing import TYPE_CHECKING

import pytest

from tests.support.browser import DESKTOP, OpenPage, Shots, Tab
from tests.support.live_server import LiveServer, StartServer

if TYPE_CHECKING:
    from playwright.async_api import Route

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: A leaderboard as /api/leaderboard answers it (docs/server.md, "History API").
LEADERS = {"limit": 50, "players": [
    {"rank": 1, "name": "agent:heuristic", "kind": "agent:heuristic", "rating": 1530.0, "games": 4, "wins": 3,
     "left": 0},
    {"rank": 2, "name": "Gio", "kind": "human", "rating": 1500.0, "games": 4, "wins": 2, "left": 0},
    {"rank": 3, "name": "agent:random", "kind": "agent:random", "rating": 1470.0, "games": 4, "wins": 1,
     "left": 0}]}


async def _texts_are(tab: Tab, selector: str, texts: list[str]) -> bool:
    return [text.strip() for text in await tab.texts(selector)] == texts


async def test_the_leaderboard_names_agents_by_their_level(server: LiveServer, open_page: OpenPage) -> None:
    """Issue 35, finding 9: the leaderboard showed "agent:heuristic". It names an agent by its
    level ("Agent: Strong", src/tichu/agents/levels.py), one of no level by its kind ("Agent:
    Random"), in German too; the link still opens that kind's statistics."""
    tab = await open_page(DESKTOP, "leaders")

    async def answer(route: Route) -> None:
        await route.fulfill(status=200, content_type="application/json", body=json.dumps(LEADERS))

    await tab.page.route(re.compile(r".*/api/leaderboard.*"), answer)
    await tab.page.goto(server.url)
    await tab.wait_view("view-login")
    await tab.click("#login-history")
    await tab.wait_view("view-history")
    await tab.click("#history-tab-leaderboard")
    links = "#leaderboard-table tr.leader .player-link"
    await tab.until(lambda: _texts_are(tab, links, ["Agent: Strong", "Gio", "Agent: Random"]),
                    "the agents named by their level")
    label = await tab.page.locator(links).first.get_attribute("aria-label")
    assert label == "Statistics of Agent: Strong", label
    assert await tab.page.locator(links).first.get_attribute("data-player") == "agent:heuristic"
    await tab.click("#lang-switch")
    await tab.until(lambda: _texts_are(tab, links, ["Agent: Stark", "Gio", "Agent: Zufall"]), "in German")


async def test_a_lobby_left_to_agents_is_not_offered_to_watch(start_server: StartServer,
                                                              open_page: OpenPage) -> None:
    """Issue 35, finding 9: agent-only lobbies lingered in "Tables to watch". Ada leaves her lobby
    (the table waits out a long grace period before it closes); the login's list offers Ben's
    table, where he sits, and not Ada's."""
    server = await start_server(grace_period=60.0)
    ada = await open_page(DESKTOP, "ada")
    await ada.login(server.url, "Ada", "ada-table")
    await ada.wait_view("view-lobby")
    ben = await open_page(DESKTOP, "ben")
    await ben.login(server.url, "Ben", "ben-table")
    await ben.wait_view("view-lobby")
    await ada.click("#lobby-leave")
    await ada.wait_view("view-login")
    await ada.until(lambda: not server.table("ada-table").clients, "Ada's seat freed")
    watcher = await open_page(DESKTOP, "watcher")
    await watcher.page.goto(server.url)
    await watcher.wait_view("view-login")
    await watcher.until(lambda: watcher.visible('#login-tables .watch-table[data-table="ben-table"]'),
                        "Ben's table offered to watch")
    assert "ada-table" in server.factory.tables, "Ada's table closed at once: nothing left to check"
    assert await watcher.count('#login-tables .watch-table[data-table="ada-table"]') == 0, \
        "the lobby left to agents is offered to watch"


_FONT_JS = """(selector) => [...document.querySelectorAll(selector)]
    .filter(el => el.checkVisibility() && el.textContent.trim())
    .map(el => parseFloat(getComputedStyle(el).fontSize) * el.getBoundingClientRect().height / el.offsetHeight)"""

#: The lobby's words for computer players, one per language (names like "Bot 3" aside).
_OTHER_WORD = {"en": re.compile(r"\bbots?\b", re.IGNORECASE), "de": re.compile(r"\bBots?\b")}
_LOBBY_TEXT_JS = """() => {
    const view = document.querySelector('#view-lobby').cloneNode(true);
    view.querySelectorAll('.seat-name, [hidden]').forEach(el => el.remove());
    const options = [...document.querySelectorAll('#view-lobby option')].map(o => o.textContent);
    return view.textContent + ' ' + options.join(' ');
}"""


async def test_the_lobbys_rules_are_readable_and_agents_are_agents(server: LiveServer, open_page: OpenPage,
                                                                   shots: Shots) -> None:
    """Issue 35, finding 9: at 1366x768 the table rules stood in small type in a corner, and the
    lobby said "bots" beside "agents". The rules are drawn as large as the lobby's other options
    ("Play to", "Hints"); no "bot" in the lobby's words, in English or German."""
    tab = await open_page(DESKTOP, "lobby")
    await tab.login(server.url, "Gio", "rules")
    await tab.wait_view("view-lobby")
    await tab.until(lambda: tab.visible("#lobby-rules"), "the table rules shown")
    await tab.until(lambda: tab.visible("#lobby-options"), "the lobby's options shown")
    rules = await tab.page.evaluate(_FONT_JS, "#lobby-rules .lobby-option > span")
    options = await tab.page.evaluate(_FONT_JS, "#lobby-options .lobby-option > span, "
                                      "#lobby-social .lobby-option > span")
    assert len(rules) == 3 and options, (rules, options)
    assert min(rules) >= min(options), f"the rules' type ({rules} px) is smaller than the options' ({options} px)"
    for language in ("en", "de"):
        text = await tab.page.evaluate(_LOBBY_TEXT_JS)
        assert not _OTHER_WORD[language].search(text), f"'bot' in the lobby ({language}): {text}"
        await tab.click("#lang-switch")
        await tab.until(partial(_lang_is, tab, "en" if language == "de" else "de"), "the language switched")
    await shots.take(tab, "lobby-rules-readable")
    shots.assert_layout()


async def _lang_is(tab: Tab, language: str) -> bool:
    current: str = await tab.page.evaluate("document.documentElement.lang")
    return current == language
