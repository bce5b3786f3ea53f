"""Leaving, idle seats and late joiners in the browser (docs/server.md "Leaving, idle seats and
late joiners"; issue 23), against a scripted socket: the page gets exactly the notifications
of the protocol's extension, and the test reads what it sends. The same pieces against the real
server are in ``test_idle_seats_live.py``.

- every person's clock beside the seat waited for and, for the seat at turn, in the status
  line, for the others too (finding 2: "the others see 'Ida is playing.' and no seconds");
- the own seat handed over: a banner and "I'm back" (``take_back``); another seat marked;
- the host's "Hand to an agent" on a seat waited for 60 s (``hand_over``);
- ``game_ended_early``: the lobby, saying who left;
- the lobby's options (turn clock, leaving, newcomers): the host's ``set_options``, read-only
  for the others;
- a table closed to newcomers: the login says so and offers to watch.
"""

from __future__ import annotations

import asyncio
import json
import re
from functools import partial
from typing import TYPE_CHECKING

import pytest

from tests.support.browser import DESKTOP, PHONE, OpenPage, Shots, Size, Tab, join_scripted_table, notification
from tests.support.live_server import LiveServer, Message

if TYPE_CHECKING:
    from playwright.async_api import Route, WebSocketRoute

pytestmark = pytest.mark.asyncio(loop_scope="session")

SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "laptop"])

#: The options of a server that speaks the extension.
OPTIONS = {"agent": "random", "hints": True, "agents": ["random"], "turn_clock": 0, "on_leave": "agent",
           "newcomers": False}


def _joined(*, running: bool = True, host: int = 0) -> Message:
    """Bo's own ``player_joined`` at seat 0 of a table with Ida at seat 2 (playing, or the lobby)."""
    public: Message = {
        "table_name": "mock", "player_names": ["Bo", "", "Ida", ""], "host_index": host, "is_running": running,
        "phase": "playing" if running else "lobby", "round_index": 0, "current_turn_index": 2 if running else None,
        "count_hand_cards": [14, 14, 14, 14] if running else [0, 0, 0, 0], "announcements": [0, 0, 0, 0],
        "wish_value": 0, "wish_open": False, "trick_turns": [], "trick_owner_index": None, "trick_points": 0,
        "points": [0, 0, 0, 0], "tricks_won": [0, 0, 0, 0], "out_order": [], "played_cards": [],
        "round_scores": [], "total": [0, 0], "passed": [], "agent_plays_for": []}
    hand = [[2, 1], [3, 1], [5, 2], [10, 3], [13, 4], [14, 4], [16, 0]] if running else []
    return {"player_index": 0, "player_name": "Bo", "session_id": "s-idle", "protocol_version": 1,
            "pending_request": None, "public_state": public, "options": OPTIONS,
            "private_state": {"player_index": 0, "hand_cards": hand, "given_schupf_cards": None,
                              "received_schupf_cards": None, "may_announce": False, "bombs": []}}


async def _scripted(tab: Tab, server: LiveServer, joined: Message) -> tuple[list[Message], WebSocketRoute]:
    """Join the scripted table; the messages the page sends, and the socket to send through."""
    sent: list[Message] = []
    sockets = await join_scripted_table(tab, server.url, "Bo", joined, lambda text: sent.append(json.loads(text)))
    return sent, sockets[-1]


def _sent(sent: list[Message], kind: str) -> list[Message]:
    """The payloads of the messages of one type the page sent."""
    return [message.get("payload") or {} for message in sent if message.get("type") == kind]


async def _text(tab: Tab, selector: str) -> str:
    return (await tab.page.locator(selector).first.text_content() or "").strip()


@SIZES
async def test_everyone_sees_the_clock_of_the_seat_waited_for(server: LiveServer, open_page: OpenPage,
                                                              shots: Shots, size: Size) -> None:
    """Finding 2: with a clock on, Bo (not at turn) sees Ida's seconds beside her seat ("0:42",
    counting down) and in the status line ("Ida is playing. · 42 s left"); when nobody is waited
    for, neither shows; a seat without a clock shows the time waited once it is long."""
    tab = await open_page(size, "clock")
    _, socket = await _scripted(tab, server, _joined())
    socket.send(notification("turn_clocks", {"clocks": [{"player_index": 2, "seconds_left": 42, "waited": 0}]}))
    clock = '.seat[data-seat="2"] .seat-clock'
    await tab.until(lambda: tab.visible(clock), "Ida's clock shown beside her seat")
    assert re.fullmatch(r"0:4[0-2]", await _text(tab, clock)), await _text(tab, clock)
    await tab.until(lambda: _status_has_seconds(tab, "Ida is playing."), "the seconds in the status line")
    await shots.take(tab, f"table-clock-{size.name}", both=False)
    shots.assert_layout()
    first = await _text(tab, clock)
    await tab.page.wait_for_function(
        "(first) => document.querySelector('.seat[data-seat=\"2\"] .seat-clock').textContent !== first", arg=first)
    assert await _text(tab, clock) < first, "the clock counts down"
    assert await _text(tab, '.seat[data-seat="0"] .seat-clock') == "", "Bo is not waited for"

    socket.send(notification("turn_clocks", {"clocks": []}))
    await tab.until(lambda: _empty(tab, clock), "no clock once nobody is waited for")
    await tab.until(lambda: _status_is(tab, "Ida is playing."), "no seconds in the status line")

    socket.send(notification("turn_clocks", {"clocks": [{"player_index": 2, "seconds_left": None, "waited": 25}]}))
    await tab.until(lambda: _text_matches(tab, clock, r"waiting 0:2\d"), "the time waited without a clock")
    assert await _text(tab, "#status") == "Ida is playing."


async def _status_has_seconds(tab: Tab, status: str) -> bool:
    return re.fullmatch(re.escape(status) + r" · \d+ s left", await _text(tab, "#status")) is not None


async def _status_is(tab: Tab, status: str) -> bool:
    return await _text(tab, "#status") == status


async def _empty(tab: Tab, selector: str) -> bool:
    return await _text(tab, selector) == "" and not await tab.visible(selector)


async def _text_matches(tab: Tab, selector: str, pattern: str) -> bool:
    return re.fullmatch(pattern, await _text(tab, selector)) is not None


@SIZES
async def test_a_handed_over_seat_says_so_and_i_am_back_takes_it_back(server: LiveServer, open_page: OpenPage,
                                                                      shots: Shots, size: Size) -> None:
    """The own seat handed over (two timeouts): the banner "An agent is playing for you." with
    "I'm back", which sends ``take_back``; ``seat_taken_back`` hides it. Another person's seat
    handed over is marked "Agent playing for Ida"; a reload's ``player_joined`` brings it back."""
    tab = await open_page(size, "handed-over")
    joined = _joined()
    sent, socket = await _scripted(tab, server, joined)
    socket.send(notification("seat_handed_over", {"player_index": 0, "player_name": "Bo", "reason": "timeout"}))
    await tab.until(lambda: tab.visible("#handover-banner"), "the banner of the own seat handed over")
    assert await _text(tab, "#handover-text") == "An agent is playing for you."
    await shots.take(tab, f"table-handed-over-{size.name}", both=False)
    shots.assert_layout()
    await tab.click("#lang-switch")
    await tab.until(partial(_text_matches, tab, "#handover-text", "Ein Agent spielt für dich."), "the banner in German")
    assert await _text(tab, "#take-back") == "Bin wieder da"
    await tab.click("#lang-switch")
    await tab.until(partial(_text_matches, tab, "#take-back", "I’m back"), "the banner in English again")
    await tab.click("#take-back")
    await tab.until(lambda: bool(_sent(sent, "take_back")), "I'm back sends take_back")
    socket.send(notification("seat_taken_back", {"player_index": 0, "player_name": "Bo"}))
    await tab.until(lambda: _hidden(tab, "#handover-banner"), "the banner goes once the seat is taken back")

    socket.send(notification("seat_handed_over", {"player_index": 2, "player_name": "Ida", "reason": "host"}))
    mark = '.seat[data-seat="2"] .seat-agent'
    await tab.until(lambda: tab.visible(mark), "Ida's seat marked")
    assert await _text(tab, mark) == "Agent playing for Ida"
    assert await _hidden(tab, "#handover-banner")
    joined["public_state"]["agent_plays_for"] = [0, 2]  # what the server's player_joined says after a reload
    await tab.page.reload()
    await tab.wait_view("view-table")
    await tab.until(lambda: tab.visible("#handover-banner"), "after a reload: the own seat still handed over")
    await tab.until(lambda: tab.visible(mark), "after a reload: Ida's seat still marked")


async def _hidden(tab: Tab, selector: str) -> bool:
    return not await tab.visible(selector)


@SIZES
async def test_the_host_hands_a_seat_waited_for_a_minute_to_an_agent(server: LiveServer, open_page: OpenPage,
                                                                     shots: Shots, size: Size) -> None:
    """Without a clock the host sees "Hand to an agent" on Ida's seat once she has been waited
    for 60 s (not at 30 s), and a click sends ``hand_over {player_index: 2}``; a guest never sees it."""
    tab = await open_page(size, "host")
    sent, socket = await _scripted(tab, server, _joined())
    control = '.seat[data-seat="2"] .seat-hand-over'
    socket.send(notification("turn_clocks", {"clocks": [{"player_index": 2, "seconds_left": None, "waited": 30}]}))
    await tab.until(lambda: _text_matches(tab, '.seat[data-seat="2"] .seat-clock', r"waiting 0:3\d"),
                    "the time waited shown")
    assert not await tab.visible(control), "offered before 60 s"
    socket.send(notification("turn_clocks", {"clocks": [{"player_index": 2, "seconds_left": None, "waited": 61}]}))
    await tab.until(lambda: tab.visible(control), "Hand to an agent offered after 60 s")
    assert await _text(tab, control) == "Hand to an agent"
    await shots.take(tab, f"table-hand-over-{size.name}", both=False)
    shots.assert_layout()
    await tab.click(control)
    await tab.until(lambda: bool(_sent(sent, "hand_over")), "the click sends hand_over")
    assert _sent(sent, "hand_over") == [{"player_index": 2}]
    socket.send(notification("seat_handed_over", {"player_index": 2, "player_name": "Ida", "reason": "host"}))
    await tab.until(lambda: _hidden(tab, control), "no control for a seat handed over")

    guest = await open_page(size, "guest")
    _, other = await _scripted(guest, server, _joined(host=1))
    other.send(notification("turn_clocks", {"clocks": [{"player_index": 2, "seconds_left": None, "waited": 90}]}))
    await guest.until(lambda: _text_matches(guest, '.seat[data-seat="2"] .seat-clock', r"waiting 1:3\d"),
                      "the guest sees the time waited")
    assert not await guest.visible(control), "a guest is offered the hand-over"


@SIZES
async def test_a_game_ended_early_shows_the_lobby_and_who_left(server: LiveServer, open_page: OpenPage,
                                                               size: Size) -> None:
    """``game_ended_early``: the lobby, with "Ida left; the game ended early." until the next game."""
    tab = await open_page(size, "ended")
    _, socket = await _scripted(tab, server, _joined())
    socket.send(notification("game_ended_early", {"player_index": 2, "player_name": "Ida"}))
    socket.send(notification("player_left", {"player_index": 2, "player_name": "Ida", "host_index": 0,
                                             "replaced_by_agent": True}))
    await tab.wait_view("view-lobby")
    await tab.until(lambda: tab.visible("#lobby-ended"), "the lobby says who ended the game")
    assert await _text(tab, "#lobby-ended") == "Ida left; the game ended early."
    socket.send(notification("game_started", {}))
    await tab.wait_view("view-table")
    await tab.until(lambda: _hidden(tab, "#lobby-ended"), "the notice goes with the next game")


@SIZES
async def test_the_host_chooses_the_clock_the_leaving_rule_and_newcomers(server: LiveServer, open_page: OpenPage,
                                                                         shots: Shots, size: Size) -> None:
    """The host's lobby offers the turn clock (Off, 30 s, 60 s, 120 s), "When someone leaves"
    (Finish with an agent / End the game) and "Let newcomers take an agent's seat during the
    game", each sent as ``set_options`` and shown as the server's ``options_changed`` says; a
    guest sees them read-only (disabled)."""
    tab = await open_page(size, "lobby-host")
    sent, socket = await _scripted_lobby(tab, server, host=0)
    await tab.until(lambda: tab.visible("#lobby-rules"), "the options shown")
    options = await tab.page.eval_on_selector_all("#lobby-clock option", "os => os.map(o => o.textContent)")
    assert options == ["Off", "30 s", "60 s", "120 s"]
    await tab.page.select_option("#lobby-clock", "60")
    await tab.until(lambda: {"turn_clock": 60} in _sent(sent, "set_options"), "the clock sent")
    await tab.page.select_option("#lobby-on-leave", "end")
    await tab.until(lambda: {"on_leave": "end"} in _sent(sent, "set_options"), "the leaving rule sent")
    await tab.click("#lobby-newcomers")
    await tab.until(lambda: {"newcomers": True} in _sent(sent, "set_options"), "newcomers sent")
    socket.send(notification("options_changed", {**OPTIONS, "turn_clock": 60, "on_leave": "end", "newcomers": True}))
    await tab.until(lambda: _value_is(tab, "#lobby-clock", "60"), "the clock as the server says")
    assert await tab.page.input_value("#lobby-on-leave") == "end"
    assert await tab.page.is_checked("#lobby-newcomers")
    await shots.take(tab, f"lobby-rules-{size.name}", both=False)
    shots.assert_layout()

    guest = await open_page(size, "lobby-guest")
    await _scripted_lobby(guest, server, host=1)
    await guest.until(lambda: guest.visible("#lobby-rules"), "the guest sees the options")
    for selector in ("#lobby-clock", "#lobby-on-leave", "#lobby-newcomers"):
        assert await guest.page.is_disabled(selector), f"{selector} enabled for a guest"
    assert await guest.page.input_value("#lobby-clock") == "0"
    assert await _text(guest, "#lobby-clock option:checked") == "Off"


async def _scripted_lobby(tab: Tab, server: LiveServer, *, host: int) -> tuple[list[Message], WebSocketRoute]:
    sent: list[Message] = []
    sockets: list[WebSocketRoute] = []

    def connect(socket: WebSocketRoute) -> None:
        sockets.append(socket)
        socket.on_message(lambda text: sent.append(json.loads(text)))
        socket.send(notification("player_joined", _joined(running=False, host=host)))

    await tab.page.route_web_socket("**/ws*", connect)
    await tab.login(server.url, "Bo", "mock")
    await tab.wait_view("view-lobby")
    return sent, sockets[-1]


async def _count_is(tab: Tab, selector: str, count: int) -> bool:
    return await tab.count(selector) == count


async def _value_is(tab: Tab, selector: str, value: str) -> bool:
    return await tab.page.input_value(selector) == value


@pytest.mark.parametrize("spectate", [True, False], ids=["watchable", "not-watchable"])
@SIZES
async def test_a_table_closed_to_newcomers_says_so_and_offers_to_watch(server: LiveServer, open_page: OpenPage,
                                                                       size: Size, spectate: bool) -> None:
    """Joining a running game closed to newcomers: 400 GAME_ALREADY_STARTED with
    ``context.spectate``, then close 1008. The login says why, and offers "Watch this table
    instead" when the table admits a spectator, which opens a spectator's socket to it."""
    tab = await open_page(size, "closed")
    urls: list[str] = []
    closing: list[asyncio.Future[None]] = []

    def connect(socket: WebSocketRoute) -> None:
        url = socket.url
        urls.append(url)
        if "spectate=1" in url:
            return
        socket.send(json.dumps({"type": "error", "payload": {
            "code": 400, "message": "GAME_ALREADY_STARTED",
            "context": {"reason": "the game has started and the table is closed to newcomers",
                        "spectate": spectate}}}))
        closing.append(asyncio.ensure_future(socket.close(code=1008)))

    await tab.page.route_web_socket("**/ws*", connect)
    await tab.login(server.url, "Bo", "closed-table")
    await tab.wait_view("view-login")
    await tab.until(lambda: _text_matches(tab, "#login-error", r".*closed to newcomers.*"), "the login says why")
    if not spectate:
        assert not await tab.visible("#login-watch")
        return
    assert await _text(tab, "#login-watch") == "Watch this table instead"
    await tab.click("#login-watch")
    await tab.until(lambda: any("spectate=1" in url and "table_name=closed-table" in url for url in urls),
                    "a spectator's socket to the table")


def _summary(game_id: str, *, changes: list[Message], ended_by: Message | None) -> Message:
    """A game's summary as ``GET /api/games`` answers it, with the extension's fields."""
    return {"id": game_id, "started_at": "2026-11-26T10:00:00+00:00", "table_name": "home", "rounds": 4,
            "score": [310, 190], "winner": 20, "aborted": ended_by is not None,
            "players": [{"seat": 0, "name": "Anna", "kind": "human", "key": "Anna"},
                        {"seat": 1, "name": "Ben", "kind": "human", "key": "Ben"},
                        {"seat": 2, "name": "Bot 3", "kind": "agent:random", "key": "agent:random"},
                        {"seat": 3, "name": "Bot 4", "kind": "agent:random", "key": "agent:random"}],
            "seat_changes": changes, "ended_by": ended_by}


@SIZES
async def test_the_history_names_who_left_and_filters_to_games_with_people(server: LiveServer, open_page: OpenPage,
                                                                           shots: Shots, size: Size) -> None:
    """A game's line says who left in which round and who finished the seat, or who ended it
    early; "Only games with people" asks for ``people=1``; a player's statistics show the
    games they left (the API's answers are scripted: the test is of the page)."""
    tab = await open_page(size, "history-left")
    asked: list[str] = []
    left = {"seat": 1, "round": 2, "event": 7, "name": "Bot 2", "kind": "agent:random", "reason": "left"}
    games = [_summary("g-left", changes=[left], ended_by=None),
             _summary("g-ended", changes=[], ended_by={"seat": 1, "name": "Ben"})]

    async def answer_games(route: Route) -> None:
        url = route.request.url
        asked.append(url)
        shown = games if "people=1" in url else [*games, _summary("g-bots", changes=[], ended_by=None)]
        await route.fulfill(json={"games": shown, "total": len(shown), "limit": 6, "offset": 0})

    async def answer_player(route: Route) -> None:
        await route.fulfill(json={
            "name": "Ben", "kind": "human", "rating": 1490.0, "games": 3, "finished": 2, "wins": 1, "win_rate": 0.5,
            "rounds": 9, "tichu_calls": 1, "tichu_made": 1, "tichu_success": 1.0, "grand_calls": 0, "grand_made": 0,
            "grand_success": None, "double_victories": 0, "points_per_round": 12.5, "bombs": 1, "left": 2})

    await tab.page.route("**/api/games*", answer_games)
    await tab.page.route("**/api/players/*", answer_player)
    await tab.page.goto(server.url)
    await tab.wait_view("view-login")
    await tab.click("#login-history")
    await tab.wait_view("view-history")
    await tab.until(lambda: _count_is(tab, "#history-list li.history-game", 3), "three games listed")
    assert await tab.texts('li[data-game-id="g-left"] .history-change') == ["Ben left in round 3 — Bot 2 finished"]
    assert await tab.texts('li[data-game-id="g-ended"] .history-ended-by') == ["ended early by Ben"]
    assert await tab.count('li[data-game-id="g-bots"] .history-change') == 0
    await shots.take(tab, f"history-left-{size.name}", both=False)
    shots.assert_layout()

    await tab.click("#history-people")
    await tab.until(lambda: _count_is(tab, "#history-list li.history-game", 2), "only the games with people")
    assert "people=1" in asked[-1] and "people=1" not in asked[0]
    assert await tab.page.is_checked("#history-people")

    await tab.click('li[data-game-id="g-left"] .player-link[data-player="Ben"]')
    await tab.wait_view("view-player")
    await tab.until(lambda: tab.visible('#player-stats dd[data-stat="left"]'), "the games left shown")
    assert await _text(tab, '#player-stats dd[data-stat="left"]') == "2"
