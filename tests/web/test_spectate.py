"""Watching a table in headless Chromium against the real server (docs/web-client.md
"Spectators"): the login view lists the running table with a Watch button; the spectator's
page shows the table read-only ("Watching", no hand, no actions, a Leave button), follows the
game to its end, and watches again after a reload; the player's page shows the watcher count.

One page plays by clicks (:class:`~tests.support.clicks.Player`); the frames only tell the test
when to act and what the server sent.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import aiohttp
import pytest

from tests.support.browser import DESKTOP, GAME_WAIT, PHONE, ROUND_WAIT, OpenPage, Shots, Tab, Wire
from tests.support.checks import walk
from tests.support.clicks import Player, game_over
from tests.support.live_server import StartServer

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Keys that hold a seat's cards or session: a spectator's page never receives them.
SEAT_KEYS = {"hand_cards", "legal_plays", "hint", "received_schupf_cards", "given_schupf_cards", "private_state",
             "pending_request", "session_id"}
WATCH = '#login-tables .watch-table[data-table="watched"] .watch-button'


async def _texts_are(tab: Tab, selector: str, texts: list[str]) -> bool:
    return await tab.visible(selector) and await tab.texts(selector) == texts


async def _count_is(tab: Tab, selector: str, count: int) -> bool:
    return await tab.count(selector) == count


def _played(wire: Wire) -> bool:
    return wire.count("player_played") > 0


def _no_card_of_any_hand(wire: Wire) -> None:
    for message in wire.received():
        assert message.get("type") in ("notification", "pong"), message
        for key, value in walk(message.get("payload") or {}):
            assert key not in SEAT_KEYS, (key, message)
            assert key != "hands" or value is None, message
    for message in wire.sent():
        assert message.get("type") == "leave", f"a spectator's page sent {message}"


async def test_a_spectator_watches_a_game_to_its_end(start_server: StartServer, open_page: OpenPage,
                                                    shots: Shots) -> None:
    server = await start_server(target_score=100, seed=11)
    other = aiohttp.ClientSession()
    elsewhere = await other.ws_connect(f"http://127.0.0.1:{server.port}/ws?player_name=Otto&table_name=other")
    tab = await open_page(DESKTOP, "player")
    await tab.login(server.url, "Rita", "watched")
    await tab.wait_view("view-lobby")
    await tab.until(lambda: _count_is(tab, '#lobby-tables .watch-table[data-table="other"]', 1),
                    "the lobby lists the other table to watch")
    assert await tab.count('#lobby-tables .watch-table[data-table="watched"]') == 0, "not the own table"
    await tab.until(lambda: tab.visible("#lobby-spectate"), "the lobby offers the spectator options")
    assert await tab.page.locator("#lobby-spectators").is_checked(), "a table admits watchers by default"
    await tab.click("#lobby-spectate-allow")
    await tab.until(lambda: tab.wire.events("spectators_changed")[-1]["hands_open"], "all hands open")
    await tab.click("#lobby-spectate-allow")  # and back: the spectator must see no hand below
    await tab.until(lambda: not tab.wire.events("spectators_changed")[-1]["hands_open"], "all hands closed")
    await shots.take(tab, "lobby-spectate")
    await tab.click("#lobby-start")
    await tab.wait_view("view-table")
    player = Player(tab)

    watcher = await open_page(PHONE, "watcher")
    await watcher.page.goto(server.url)
    await watcher.wait_view("view-login")
    await watcher.until(lambda: watcher.enabled(WATCH), "the login view lists the running table with Watch")
    line = " ".join(await watcher.texts('#login-tables .watch-table[data-table="watched"] .watch-line'))
    assert "Rita" in line, line
    await shots.take(watcher, "login-watch")
    await watcher.click(WATCH)
    await watcher.wait_view("view-table")
    await watcher.until(lambda: watcher.visible("#spectate-badge"), "the Watching badge is shown")
    assert await watcher.visible("#leave"), "a spectator leaves by #leave"
    await tab.until(lambda: _texts_are(tab, "#watchers-count", ["1"]), "the player sees one watcher")

    await player.play_until(_played, ROUND_WAIT)
    await watcher.until(lambda: _played(watcher.wire), "the spectator sees the plays")
    assert not await watcher.visible("#actions") and await watcher.count("#hand .card") == 0
    assert not await watcher.visible("#btn-play")
    await shots.take(watcher, "table-watching")
    await shots.take(tab, "table-watched", both=False)

    sockets = len(watcher.wire.urls)
    await watcher.page.reload()
    await watcher.until(lambda: watcher.wire.count("spectate_started") == 2, "the reloaded page watches again")
    query = parse_qs(urlparse(watcher.wire.urls[sockets]).query)
    assert query.get("spectate") == ["1"] and query.get("table_name") == ["watched"], watcher.wire.urls[sockets]
    await watcher.wait_view("view-table")

    await player.play_until(game_over, GAME_WAIT)
    await watcher.until(lambda: game_over(watcher.wire), "the spectator sees the game's end")
    await watcher.until(lambda: watcher.visible("#round-result"), "the spectator sees the final result")
    await watcher.click("#round-result .result-close")
    await watcher.wait_view("view-scores")
    await watcher.click("#scores-back")
    await watcher.wait_view("view-lobby")
    assert not await watcher.visible("#lobby-ready") and not await watcher.visible("#lobby-start")
    assert not await watcher.visible("#lobby-spectate"), "the spectator options are the people's"
    await shots.take(watcher, "lobby-watching")
    _no_card_of_any_hand(watcher.wire)
    assert server.table("watched").spectators.watchers, "the spectator is still there"

    await watcher.click("#leave")
    await watcher.wait_view("view-login")
    await tab.until(lambda: _texts_are(tab, "#watchers-count", ["0"]), "the player sees nobody watching")
    await watcher.page.reload()
    await watcher.wait_view("view-login")  # left for good: a reload does not watch again
    await elsewhere.close()
    await other.close()
    shots.assert_layout()
