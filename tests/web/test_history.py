"""The history in the browser (docs/web-client.md, "History and player views"): a game played by
clicks is listed in ``#view-history`` (from the lobby and from the login), with its id, its
players, score and a Replay link; the leaderboard tab ranks the players; a click on a name opens
``#view-player`` with that player's statistics, which agree with the stored record."""

from __future__ import annotations

import pytest

from tests.support.browser import DESKTOP, GAME_WAIT, PHONE, OpenPage, Shots, Tab
from tests.support.clicks import Player, game_over, start_alone
from tests.support.live_server import WAIT, StartServer, wait_for_records
from tichu.records.stats import game_stats

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: A game to 100 points that takes more than one round, in about half a minute (as test_e2e).
GAME_SEED = 11


async def attribute(tab: Tab, selector: str, name: str) -> str | None:
    return await tab.page.locator(selector).first.get_attribute(name)


async def text(tab: Tab, selector: str) -> str:
    return (await tab.page.locator(selector).first.text_content() or "").strip()


@pytest.mark.slow
async def test_a_played_game_is_in_the_history_and_a_name_shows_the_players_stats(
        start_server: StartServer, open_page: OpenPage, shots: Shots) -> None:
    server = await start_server(target_score=100, seed=GAME_SEED)
    tab = await open_page(PHONE, "history")
    await start_alone(tab, server, "Gio", "history")
    await Player(tab).play_until(game_over, GAME_WAIT)
    [record] = await wait_for_records(server, "history")
    await tab.until(lambda: tab.visible("#round-result .result-close"), "the last round's result")
    await tab.click("#round-result .result-close")
    await tab.wait_view("view-scores")
    await tab.click("#scores-back")
    await tab.wait_view("view-lobby")
    await shots.take(tab, "lobby-with-history")

    await tab.click("#lobby-history")
    await tab.wait_view("view-history")
    row = f'#history-list li.history-game[data-game-id="{record["id"]}"]'
    await tab.until(lambda: tab.visible(row), f"{row} listed")
    assert await tab.count("#history-list li.history-game") == 1
    assert await attribute(tab, f"{row} a.history-replay", "href") == f"#replay={record['id']}"
    names = await tab.texts(f"{row} .player-link")
    assert sorted(names) == sorted(player["name"] for player in record["players"])
    scores = await tab.texts(f"{row} .history-score")
    assert scores == [str(points) for points in record["score"]]
    assert str(len(record["rounds"])) in await text(tab, f"{row} .history-rounds")
    assert "Names are not accounts" in await text(tab, "#view-history .history-note")
    assert await tab.page.locator("#history-older").is_disabled()
    await shots.take(tab, "history")

    await tab.click("#history-tab-leaderboard")
    await tab.until(lambda: tab.visible('#leaderboard-table tr.leader[data-player="Gio"]'), "Gio on the leaderboard")
    assert await tab.count("#leaderboard-table tr.leader") == 2  # Gio and agent:random
    await shots.take(tab, "leaderboard")

    await tab.click('#leaderboard-table tr.leader[data-player="Gio"] .player-link')
    await tab.wait_view("view-player")
    await tab.until(lambda: _stat_is(tab, "rounds", str(len(record["rounds"]))), "Gio's rounds")
    [gio] = [seat for seat in game_stats(record) if seat.name == "Gio"]
    assert await text(tab, "#player-title") == "Gio"
    assert await text(tab, 'dd[data-stat="games"]') == f"{int(bool(gio.won))} of 1 ({100 if gio.won else 0} %)"
    assert await text(tab, 'dd[data-stat="bombs"]') == str(gio.bombs)
    assert await text(tab, "#player-rating") == f"Rating {1516 if gio.won else 1484}"  # 1500 ± K/2 after one game
    await shots.take(tab, "player")

    await tab.click("#player-games")
    await tab.wait_view("view-history")
    await tab.until(lambda: tab.visible("#history-filter"), "the history filtered to Gio")
    await tab.until(lambda: tab.visible(row), f"{row} in Gio's games")
    await tab.click("#history-all")
    await tab.click("#history-back")
    await tab.wait_view("view-lobby")

    login = await open_page(DESKTOP, "history-login")
    await login.page.goto(server.url)
    await login.wait_view("view-login")
    await shots.take(login, "login-with-history")
    await login.click("#login-history")
    await login.wait_view("view-history")
    await login.until(lambda: login.visible(row), f"{row} listed from the login")
    await login.click(f"{row} .player-link >> nth=1")  # an agent: all agents of its kind
    await login.wait_view("view-player")
    await login.until(lambda: _title_is(login, "Agent: Random"), "the agents' statistics (issue 35)")
    await login.click("#lang-switch")
    await login.until(lambda: _text_starts(login, "#player-kind", "Agent: Zufall (alle"), "German texts")
    await login.click("#lang-switch")
    await login.click("#player-back")
    await login.wait_view("view-history")
    await login.click("#history-back")
    await login.wait_view("view-login", timeout=WAIT)
    shots.assert_layout()


async def test_an_unknown_player_and_an_empty_history_say_so(start_server: StartServer, open_page: OpenPage,
                                                             shots: Shots) -> None:
    server = await start_server()
    tab = await open_page(DESKTOP, "history-empty")
    await tab.page.goto(server.url)
    await tab.wait_view("view-login")
    await tab.click("#login-history")
    await tab.wait_view("view-history")
    await tab.until(lambda: _text_starts(tab, "#history-status", "No games are stored yet."), "the empty history")
    assert await tab.count("#history-list li") == 0
    await shots.take(tab, "history-empty", both=False)
    await tab.click("#history-tab-leaderboard")
    await tab.until(lambda: _text_starts(tab, "#history-status", "No finished games"), "the empty leaderboard")
    await tab.page.evaluate("window.Tichu.EventBus.emit('intent:player', {name: 'Nobody'})")
    await tab.wait_view("view-player")
    await tab.until(lambda: _text_starts(tab, "#player-status", "No stored game has a player"), "404 in words")
    assert await tab.page.locator("#player-games").is_disabled()
    # Chromium itself logs every 404 response as a console error; this one is the answer asked for
    tab.console_errors[:] = [error for error in tab.console_errors if "/api/players/Nobody" not in error]
    shots.assert_layout()


async def _stat_is(tab: Tab, stat: str, value: str) -> bool:
    return await tab.count(f'dd[data-stat="{stat}"]') == 1 and await text(tab, f'dd[data-stat="{stat}"]') == value


async def _title_is(tab: Tab, title: str) -> bool:
    return await text(tab, "#player-title") == title


async def _text_starts(tab: Tab, selector: str, start: str) -> bool:
    return (await text(tab, selector)).startswith(start)
