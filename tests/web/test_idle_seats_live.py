"""Leaving, idle seats and late joiners in the browser, against the real server (docs/server.md
"Leaving, idle seats and late joiners"; issue 23). The pages act by clicks only; the scripted
counterparts of each piece are in ``test_idle_seats.py``.

- the host chooses the turn clock in the lobby; the guest sees it read-only; at the table each
  person sees the other's clock beside the seat (finding 2);
- a person who lets the clock run out twice gets the banner "An agent is playing for you";
  "I'm back" takes the seat back; the other person sees the seat marked meanwhile;
- with "End the game" chosen, a person's leaving brings the other back to the lobby, which
  says who left, and the history says who ended the game;
- a newcomer at a running table closed to newcomers is told so and offered to watch.
"""

from __future__ import annotations

import re
from functools import partial

import pytest

from tests.support.browser import DESKTOP, GAME_WAIT, PHONE, OpenPage, Size, Tab, other_size
from tests.support.clicks import Player, game_over
from tests.support.live_server import LiveServer, StartServer, wait_for_records

pytestmark = pytest.mark.asyncio(loop_scope="session")

SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "laptop"])


async def _text(tab: Tab, selector: str) -> str:
    return (await tab.page.locator(selector).first.text_content() or "").strip()


async def _matches(tab: Tab, selector: str, pattern: str) -> bool:
    return re.fullmatch(pattern, await _text(tab, selector)) is not None


async def _value_is(tab: Tab, selector: str, value: str) -> bool:
    return await tab.page.input_value(selector) == value


async def _hidden(tab: Tab, selector: str) -> bool:
    return not await tab.visible(selector)


async def _seated_pair(server: LiveServer, open_page: OpenPage, size: Size, table: str) -> tuple[Tab, Tab]:
    """Anna (the host, at ``size``) and Ben (the other size) in the lobby of ``table``."""
    host = await open_page(size, "host")
    guest = await open_page(other_size(size), "guest")
    await host.login(server.url, "Anna", table)
    await host.wait_view("view-lobby")
    await guest.login(server.url, "Ben", table)
    await guest.wait_view("view-lobby")
    await host.until(partial(_matches, host, '.lobby-seat[data-seat="1"] .seat-name', "Ben"), "Ben in the lobby")
    return host, guest


async def _start(host: Tab, guest: Tab) -> None:
    """Ben says he is ready, Anna starts; both reach the table."""
    await guest.click("#lobby-ready")
    await host.until(lambda: host.enabled("#lobby-start"), "#lobby-start enabled once Ben is ready")
    await host.click("#lobby-start")
    await host.wait_view("view-table")
    await guest.wait_view("view-table")


@SIZES
async def test_the_host_sets_a_turn_clock_and_each_sees_the_others_clock(server: LiveServer, open_page: OpenPage,
                                                                        size: Size) -> None:
    """Finding 2: Anna chooses "30 s" in the lobby (Ben sees it, read-only); at the Grand Tichu
    step both are asked, and each sees the other's seconds beside the other's seat; once Anna
    answered, her clock goes from Ben's page while his own runs on in his status line."""
    host, guest = await _seated_pair(server, open_page, size, "clocks")
    await host.until(lambda: host.visible("#lobby-rules"), "the host's options")
    assert await guest.page.is_disabled("#lobby-clock"), "the guest may change the clock"
    await host.page.select_option("#lobby-clock", "30")
    await guest.until(partial(_value_is, guest, "#lobby-clock", "30"), "Ben sees the clock Anna chose")
    assert await _text(guest, "#lobby-clock option:checked") == "30 s"
    await _start(host, guest)

    anna_on_ben, ben_on_anna = '.seat[data-seat="1"] .seat-clock', '.seat[data-seat="0"] .seat-clock'
    await host.until(partial(_matches, host, anna_on_ben, r"0:[0-3]\d"), "Anna sees Ben's clock")
    await guest.until(partial(_matches, guest, ben_on_anna, r"0:[0-3]\d"), "Ben sees Anna's clock")
    await host.until(lambda: host.enabled("#btn-pass"), "Anna's Grand Tichu question")
    await host.click("#btn-pass")
    await guest.until(partial(_hidden, guest, ben_on_anna), "Anna's clock goes once she answered")
    await guest.until(partial(_matches, guest, "#status", r".* · \d+ s left"), "Ben's own seconds in his status")


async def test_a_seat_whose_clock_ran_out_twice_is_handed_over_until_i_am_back(start_server: StartServer,
                                                                               open_page: OpenPage) -> None:
    """With a 1 s clock (the server's default) Ben lets two decisions run out: his page shows
    "An agent is playing for you." and Anna's marks his seat; "I'm back" takes it back on both."""
    server = await start_server(turn_timeout=1.0)
    host, guest = await _seated_pair(server, open_page, PHONE, "idle")
    await _start(host, guest)
    await host.until(lambda: host.enabled("#btn-pass"), "Anna's Grand Tichu question")
    await host.click("#btn-pass")
    await guest.until(lambda: guest.visible("#handover-banner"), "Ben's banner after two timeouts", timeout=20)
    assert await _text(guest, "#handover-text") == "An agent is playing for you."
    mark = '.seat[data-seat="1"] .seat-agent'
    await host.until(lambda: host.visible(mark), "Anna sees Ben's seat marked")
    assert await _text(host, mark) == "Agent playing for Ben"
    await guest.click("#take-back")
    await guest.until(partial(_hidden, guest, "#handover-banner"), "I'm back takes the seat back")
    await host.until(partial(_hidden, host, mark), "Anna sees Ben back")
    assert not [error for error in guest.wire.errors() if error.get("code") not in (309, 310)]


@SIZES
async def test_leaving_ends_the_game_when_the_host_chose_so(server: LiveServer, open_page: OpenPage,
                                                            size: Size) -> None:
    """Anna chooses "End the game"; Ben leaves during the game: Anna's page shows the lobby with
    "Ben left; the game ended early."."""
    host, guest = await _seated_pair(server, open_page, size, "ending")
    await host.until(lambda: host.visible("#lobby-rules"), "the host's options")
    await host.page.select_option("#lobby-on-leave", "end")
    await guest.until(partial(_value_is, guest, "#lobby-on-leave", "end"), "Ben sees the leaving rule")
    await _start(host, guest)
    await guest.click("#leave")
    await guest.click("#confirm-yes")
    await guest.wait_view("view-login")
    await host.wait_view("view-lobby")
    await host.until(lambda: host.visible("#lobby-ended"), "Anna's lobby says who ended the game")
    assert await _text(host, "#lobby-ended") == "Ben left; the game ended early."
    await host.until(lambda: bool(server.records("ending", aborted=True)), "the game stored as ended early")
    [record] = server.records("ending", aborted=True)
    assert record["ended_by"] == {"seat": 1, "name": "Ben"}
    await host.click("#lobby-history")
    await host.wait_view("view-history")
    row = f'li.history-game[data-game-id="{record["id"]}"]'
    await host.until(lambda: host.visible(f"{row} .history-ended-by"), "the history says who ended the game")
    assert await _text(host, f"{row} .history-ended-by") == "ended early by Ben"


@SIZES
async def test_a_newcomer_at_a_closed_table_may_watch_instead(server: LiveServer, open_page: OpenPage,
                                                              size: Size) -> None:
    """Anna plays alone at a table closed to newcomers (the default); Cleo's join is refused
    with the reason, and "Watch this table instead" shows her the running table as a spectator."""
    host = await open_page(other_size(size), "host")
    await host.login(server.url, "Anna", "closed")
    await host.wait_view("view-lobby")
    await host.click("#lobby-start")
    await host.wait_view("view-table")
    cleo = await open_page(size, "newcomer")
    await cleo.login(server.url, "Cleo", "closed")
    await cleo.until(partial(_matches, cleo, "#login-error", r".*closed to newcomers\."), "the login says why")
    await cleo.click("#login-watch")
    await cleo.wait_view("view-table")
    await cleo.until(lambda: cleo.visible("#spectate-badge"), "Cleo watches")


@pytest.mark.slow
async def test_the_host_hands_a_silent_seat_to_an_agent_after_a_minute(server: LiveServer,
                                                                       open_page: OpenPage) -> None:
    """Without a clock Ben stays silent at the Grand Tichu step: after 60 s Anna (the host) sees
    "Hand to an agent" on his seat, which the server accepts (``hand_over``); Ben's page then
    says "An agent is playing for you." and Anna's marks his seat. Ben never sees the control."""
    host, guest = await _seated_pair(server, open_page, DESKTOP, "silent")
    await _start(host, guest)
    await host.until(lambda: host.enabled("#btn-pass"), "Anna's Grand Tichu question")
    await host.click("#btn-pass")
    control = '.seat[data-seat="1"] .seat-hand-over'
    await host.until(partial(_matches, host, '.seat[data-seat="1"] .seat-clock', r"waiting 0:[2-5]\d"),
                     "Anna sees how long Ben has been waited for", timeout=30)
    assert not await host.visible(control), "offered before 60 s"
    await host.until(lambda: host.visible(control), "Hand to an agent after 60 s", timeout=50)
    assert await guest.count(".seat-hand-over:not([hidden])") == 0, "the guest is offered the hand-over"
    await host.click(control)
    await guest.until(lambda: guest.visible("#handover-banner"), "Ben's banner")
    await host.until(lambda: host.visible('.seat[data-seat="1"] .seat-agent'), "Anna sees Ben's seat marked")
    await host.until(partial(_hidden, host, control), "no control for a seat handed over")
    assert not host.wire.errors(), f"the server refused: {host.wire.errors()}"


@pytest.mark.slow
async def test_the_history_shows_who_left_and_who_finished(start_server: StartServer, open_page: OpenPage) -> None:
    """Ben leaves a game in its first round ("Finish with an agent", the default) and Anna plays
    it to the end by clicks: the history's line of the game says "Ben left in round 1 — Bot 2
    finished", it stays under "Only games with people", and Ben's statistics count one game left."""
    server = await start_server(target_score=100, seed=11)
    host, guest = await _seated_pair(server, open_page, PHONE, "left")
    await _start(host, guest)
    await guest.click("#leave")
    await guest.click("#confirm-yes")
    await guest.wait_view("view-login")
    await Player(host).play_until(game_over, GAME_WAIT)
    [record] = await wait_for_records(server, "left")
    [change] = record["seat_changes"]
    assert (change["seat"], change["reason"]) == (1, "left"), change
    await host.until(lambda: host.visible("#round-result .result-close"), "the last round's result")
    await host.click("#round-result .result-close")
    await host.wait_view("view-scores")
    await host.click("#scores-back")
    await host.wait_view("view-lobby")
    await host.click("#lobby-history")
    await host.wait_view("view-history")
    row = f'li.history-game[data-game-id="{record["id"]}"]'
    expected = f"Ben left in round {change['round'] + 1} — {change['name']} finished"
    await host.until(lambda: host.visible(f"{row} .history-change"), "the seat change in the game's line")
    assert await host.texts(f"{row} .history-change") == [expected]
    async with host.page.expect_response(lambda response: "people=1" in response.url) as answer:
        await host.click("#history-people")
    games = (await (await answer.value).json())["games"]
    assert [game["id"] for game in games] == [record["id"]], "the game with people is not listed"
    await host.until(lambda: host.visible(f"{row} .history-change"), "the game listed with people")
    await host.click(f'{row} .player-link[data-player="Ben"]')
    await host.wait_view("view-player")
    await host.until(partial(_matches, host, '#player-stats dd[data-stat="left"]', "1"), "Ben left one game")
    await host.click("#player-back")
    await host.wait_view("view-history")
    await host.click("#history-tab-leaderboard")
    leader = '#leaderboard-table tr.leader[data-player="Ben"]'
    await host.until(lambda: host.visible(leader), "Ben on the leaderboard")
    assert (await host.texts(f"{leader} td"))[-1] == "1", "the leaderboard's games left"
