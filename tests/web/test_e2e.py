"""End-to-end: people play through ``web/`` in headless Chromium against the real server.

The tests act only by clicks (and by typing the name and the table at login). They read
the WebSocket frames the page sends and receives (and may look at ``window.Tichu.State``)
only to know *when* to act. Selectors follow the DOM contract of ``docs/web-client.md``.
Every page fails its test on a console error or an uncaught exception (see ``open_page``),
and each view is photographed at phone and desktop size into ``data/screenshots/`` with a
layout check (nothing off-screen, no overlapping controls).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlparse

import pytest

from tests.support.browser import DESKTOP, GAME_WAIT, PHONE, ROUND_WAIT, OpenPage, Shots, Tab, Wire
from tests.support.clicks import Player, game_over, round_over, start_alone
from tests.support.live_server import WAIT, LiveServer, StartServer, wait_for_records
from tichu.records.record import replay

if TYPE_CHECKING:
    from playwright.async_api import Browser

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Deals seat 0 the Mah Jong and the Dragon (and the seeded agents let it play both): the round
#: brings the wish dialog and the Dragon dialog.
ROUND_SEED = 1
#: A game to 100 points that takes more than one round (a new round starts while ``#round-result``
#: shows), in about half a minute.
GAME_SEED = 11


async def own_seat(tab: Tab, selector: str = ".seat.own") -> str | None:
    """The ``data-seat`` of the own seat (``.seat.own`` on the table, ``.lobby-seat.own`` in the lobby)."""
    seats = await tab.page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.seat)")
    assert len(seats) <= 1, f"{tab.label}: more than one {selector}: {seats}"
    return seats[0] if seats else None


async def seat_name(tab: Tab, seat: int, kind: str = "lobby-seat") -> str:
    """The text of ``.<kind>[data-seat=seat] .seat-name``."""
    return (await tab.page.locator(f'.{kind}[data-seat="{seat}"] .seat-name').first.text_content() or "").strip()


async def test_login_and_loading_views(server: LiveServer, open_page: OpenPage, shots: Shots) -> None:
    """The login view asks for a name and a table; ``#lang-switch`` switches its texts to German
    and back; an empty name is refused in ``#login-error`` without leaving the view; while the
    WebSocket does not answer, the loading view is shown; the next visit offers the name and
    the table typed last. Both views fit the phone and the desktop viewport."""
    tab = await open_page(PHONE, "login")
    await tab.page.goto(server.url)
    await tab.wait_view("view-login")
    await shots.take(tab, "login")
    shots.assert_layout()
    english = await tab.texts("#login-submit")
    await tab.click("#lang-switch")
    await tab.until(lambda: _differs(tab, "#login-submit", english), "#lang-switch changes the texts")
    await tab.click("#lang-switch")
    await tab.until(lambda: _differs(tab, "#login-submit", english, equal=True), "#lang-switch switches back")
    await tab.page.locator("#login-name").fill("")
    await tab.page.locator("#login-table").fill("t")
    await tab.click("#login-submit")
    await tab.until(lambda: tab.visible("#login-error"), "#login-error shown for an empty name")
    assert (await tab.page.locator("#login-error").text_content() or "").strip(), "#login-error has no text"
    assert await tab.active_view() == "view-login"
    await shots.take(tab, "login-error")

    # A socket that never answers (mocked, not connected to the server) keeps the page loading.
    await tab.page.route_web_socket("**/ws*", lambda socket: None)
    await tab.page.locator("#login-name").fill("Lena")
    await tab.click("#login-submit")
    await tab.wait_view("view-loading")
    await shots.take(tab, "loading")
    await tab.page.unroute_all()
    await tab.page.goto(server.url)
    await tab.wait_view("view-login")
    assert await tab.page.locator("#login-name").input_value() == "Lena", "the name typed last is not offered"
    assert await tab.page.locator("#login-table").input_value() == "t", "the table typed last is not offered"
    shots.assert_layout()


async def _differs(tab: Tab, selector: str, texts: list[str], *, equal: bool = False) -> bool:
    return (await tab.texts(selector) == texts) is equal


@pytest.mark.slow
async def test_one_browser_plays_a_round_by_clicks(start_server: StartServer, open_page: OpenPage,
                                                   shots: Shots) -> None:
    """One person plays a complete round against three agents with clicks only: log in, start
    (host), continue in the Grand Tichu step, push three cards through the push zones (a card
    in a zone goes back on a click), the received cards in the hand, then on each turn "select" (the hint) and play,
    or pass when nothing else is legal, and answer the wish and Dragon dialogs, until
    ``#round-result`` shows the round's points and ``#score-20``/``#score-31`` the totals. At
    the own turn the own seat is marked ``turn`` and counts the hand; once out, the seat sees
    the others' hands. The server never refuses what the page sends."""
    server = await start_server(target_score=1000, seed=ROUND_SEED)
    tab = await open_page(DESKTOP, "round")
    await tab.login(server.url, "Ada", "round")
    await tab.wait_view("view-lobby")
    await tab.until(lambda: tab.enabled("#lobby-start"), "#lobby-start enabled for the host")
    await shots.take(tab, "lobby")
    await tab.click("#lobby-start")
    await tab.wait_view("view-table")
    assert tab.wire.seat == 0
    await tab.until(partial(_own_is, tab, ".seat.own", "0"), 'the own seat is .seat.own[data-seat="0"]')

    player = Player(tab, shots, {"grand-tichu", "push", "received", "play", "wish", "dragon"}, take_back=True)
    await player.play_until(partial(_my_turn, player), ROUND_WAIT)
    request = tab.wire.open_request()
    assert request is not None
    await tab.until(partial(_text_is, tab, ".seat.own .seat-count", str(len(request["context"]["hand_cards"]))),
                    "the own .seat-count shows the hand's size")
    await tab.until(partial(_own_is, tab, ".seat.turn", "0"), "the own seat has the class turn at the own turn")
    names = [await seat_name(tab, seat, "seat") for seat in range(4)]
    assert names[0] == "Ada" and all(names), f"the seats' .seat-name: {names}"
    await player.play_until(lambda wire: wire.count("hands_revealed") > 0 or round_over(wire), ROUND_WAIT)
    if not round_over(tab.wire):
        # Out before the round ends: the others' hands are shown (R8.3), unless the round ends first.
        await tab.until(lambda: round_over(tab.wire) or tab.visible(".revealed-hand"),
                        "a seat that is out sees the others' hands in .revealed-hand")
        if not round_over(tab.wire):
            await shots.take(tab, "table-out")
    await player.play_until(round_over, ROUND_WAIT)
    await tab.until(lambda: tab.visible("#round-result"), "#round-result shown when the round is over")
    result = tab.wire.events("round_over")[0]
    text = " ".join((await tab.texts("#round-result"))[0].split())
    for points in result["points"] + result["total"]:
        assert str(points) in text, f"#round-result does not show {points} ({result}): {text!r}"
    for team, total in zip((20, 31), result["total"]):
        await tab.until(partial(_text_is, tab, f"#score-{team}", str(total)), f"#score-{team} shows {total}")
    await shots.take(tab, "round-result")
    for action in ("announce_grand_tichu", "schupf", "play", "wish", "give_dragon_away"):
        assert action in player.actions, f"the round (seed {ROUND_SEED}) asked for no {action}: " \
                                         f"{sorted(set(player.actions))}"
    sent = [m.get("type") for m in tab.wire.sent()]
    assert "announce" not in sent and "bomb" not in sent, f"the page sent what nobody clicked: {sent}"
    assert not tab.wire.unexplained_errors()
    shots.assert_layout()


@pytest.mark.slow
async def test_two_browsers_share_a_table(server: LiveServer, open_page: OpenPage, shots: Shots) -> None:
    """Two people at one table: both lobbies show both names, the own seat and the host; only
    the host may start; the host swaps the guest's seat with an agent's by clicking one seat
    and then the other (the first is marked ``picked``); both see the new seating; the host
    starts (once the guest pressed Ready) and both reach the table, the guest at the seat it was
    moved to. When the guest's
    page closes, the host sees its seat marked away with the seconds until an agent takes it,
    then the agent's name."""
    host = await open_page(DESKTOP, "host")
    guest = await open_page(PHONE, "guest")
    await host.login(server.url, "Hana", "pair")
    await host.wait_view("view-lobby")
    await guest.login(server.url, "Gus", "pair")
    await guest.wait_view("view-lobby")
    for tab in (host, guest):
        await tab.until(partial(_seat_is, tab, 1, "Gus"), "the lobby shows Gus at seat 1")
        assert await seat_name(tab, 0) == "Hana"
        assert await own_seat(tab, ".lobby-seat.host") == "0", f"{tab.label}: .lobby-seat.host is not seat 0"
    assert await own_seat(host, ".lobby-seat.own") == "0"
    assert await own_seat(guest, ".lobby-seat.own") == "1"
    await host.until(lambda: host.visible("#lobby-start:disabled"),
                     "#lobby-start waits for the guest's readiness (test_social.py)")
    assert not await guest.enabled("#lobby-start"), "#lobby-start must be disabled for a guest"
    await shots.take(host, "lobby-host")
    await shots.take(guest, "lobby-guest")

    await host.click('.lobby-seat[data-seat="1"]')
    await host.until(lambda: host.visible('.lobby-seat[data-seat="1"].picked'),
                     "the first clicked seat gets the class picked")
    await host.click('.lobby-seat[data-seat="2"]')
    for tab in (host, guest):
        await tab.until(partial(_seat_is, tab, 2, "Gus"), "after the swap the lobby shows Gus at seat 2")
        assert await seat_name(tab, 1) != "Gus"
        await tab.until(partial(_swaps_are, tab, 1), "one players_swapped arrived")
    await guest.until(partial(_own_is, guest, ".lobby-seat.own", "2"), "the guest's own seat is now seat 2")
    assert await host.count(".lobby-seat.picked") == 0, "no seat stays picked after the swap"
    await shots.take(host, "lobby-swapped")

    await guest.click("#lobby-ready")  # the swap made the guest not ready (it may have been moved)
    await host.until(lambda: host.enabled("#lobby-start"), "#lobby-start enabled once the guest is ready")
    await host.click("#lobby-start")
    await host.wait_view("view-table")
    await guest.wait_view("view-table")
    await guest.until(partial(_own_is, guest, ".seat.own", "2"), "the guest sits at .seat[data-seat=\"2\"]")
    await host.until(partial(_own_is, host, ".seat.own", "0"), 'the host sits at .seat.own[data-seat="0"]')
    await host.until(partial(_seat_is, host, 2, "Gus", "seat"), "the host's table shows Gus at seat 2")
    await guest.until(partial(_seat_is, guest, 0, "Hana", "seat"), "the guest's table shows Hana at seat 0")
    assert guest.wire.seat == 2 and host.wire.seat == 0

    await guest.page.close()  # the guest's connection drops: the host sees the seat counting down
    await host.until(lambda: host.visible('.seat[data-seat="2"].away .seat-away'), "seat 2 is marked away")
    countdown = (await host.texts('.seat[data-seat="2"] .seat-away'))[0]
    assert any(char.isdigit() for char in countdown), f"no countdown in {countdown!r}"
    await shots.take(host, "table-away")
    await host.until(partial(_seat_is, host, 2, "Bot 3", "seat"), "after the grace period an agent holds seat 2")
    assert await host.count(".seat.away") == 0, "the away marker stays after the agent took the seat"
    shots.assert_layout()


def _swaps_are(tab: Tab, count: int) -> bool:
    return tab.wire.count("players_swapped") == count


def _my_turn(player: Player, wire: Wire) -> bool:
    """Stop condition: the received cards are in the hand and a ``play`` request is open."""
    return bool(player.received_rounds) and (wire.open_request() or {}).get("action") == "play"


async def _text_is(tab: Tab, selector: str, text: str) -> bool:
    return (await tab.texts(selector) or [""])[0] == text


async def _seat_is(tab: Tab, seat: int, name: str, kind: str = "lobby-seat") -> bool:
    return await seat_name(tab, seat, kind) == name


async def _own_is(tab: Tab, selector: str, seat: str | None) -> bool:
    return await own_seat(tab, selector) == seat


async def test_reload_mid_game_finds_seat_and_hand(server: LiveServer, open_page: OpenPage, shots: Shots) -> None:
    """A page reloaded at its own turn reconnects with the saved session id (not the login),
    shows the same seat and the same hand, and the restored turn can be played by clicks. The
    turn is one after at least one seat passed since the last play: the "Pass" markers shown
    before the reload (never none) are shown again after it (issue 11, item 8: after a
    reconnect the markers of the current trick were gone)."""
    tab = await open_page(PHONE, "reload")
    await start_alone(tab, server, "Rita", "reload")
    player = Player(tab)

    await player.play_until(partial(_my_turn_after_a_pass, player), ROUND_WAIT)
    request = tab.wire.open_request()
    assert request is not None
    passed_before = {str(seat) for seat in _passed_since_the_last_play(tab.wire)}
    assert passed_before, "no seat passed since the last play: the reload would show no Pass marker to restore"
    await tab.until(partial(_passed_seats_are, tab, passed_before),
                    f"before the reload the seats that passed ({sorted(passed_before)}) show it")
    await tab.until(lambda: _hand_count_is(tab, len(request["context"]["hand_cards"])), "the hand is drawn")
    hand_before, seat_before = await tab.hand(), await own_seat(tab)
    assert hand_before, "the hand is empty before the reload"
    assert seat_before == "0", f"the own seat before the reload: {seat_before}"
    sockets = len(tab.wire.urls)

    await tab.page.reload()
    await tab.until(lambda: len(tab.wire.joined()) == 2, "the reloaded page joined again")
    query = parse_qs(urlparse(tab.wire.urls[sockets]).query)
    assert "session_id" in query and "player_name" not in query, \
        f"the reloaded page must reconnect with its session id: {tab.wire.urls[sockets]}"
    rejoined = tab.wire.joined()[-1]
    public = rejoined["public_state"]
    finished = len(server.records("reload"))
    assert public["is_running"] and public["phase"] == "playing", \
        f"after the reload the game is gone for this seat (phase {public['phase']!r}, is_running " \
        f"{public['is_running']}; {finished} finished game record(s)): the seat was given to an agent " \
        f"(did the page send leave while unloading?) and the agents played the game out"
    assert rejoined["player_index"] == tab.wire.joined()[0]["player_index"]
    assert (rejoined["pending_request"] or {}).get("request_id") == request["request_id"]
    await tab.wait_view("view-table")
    await tab.until(lambda: _hand_count_is(tab, len(hand_before)), f"#hand shows {len(hand_before)} cards again")
    assert await tab.hand() == hand_before, "the hand after the reload differs"
    await tab.until(partial(_own_is, tab, ".seat.own", seat_before), f"the own seat is {seat_before} again")
    passed = {str(seat) for seat in public["passed"]}
    assert passed == passed_before, f"the server's public_state.passed {sorted(passed)} after the reload, " \
                                    f"{sorted(passed_before)} before it"
    await tab.until(partial(_passed_seats_are, tab, passed_before),
                    f"the seats that passed ({sorted(passed_before)}) show it again after the reload")
    await shots.take(tab, "table-reloaded")

    await player.step()
    assert tab.wire.answered(request["request_id"]), "the restored turn was not played"
    assert not tab.wire.unexplained_errors()
    shots.assert_layout()


def _passed_since_the_last_play(wire: Wire) -> set[int]:
    """The seats that passed since the open trick's last play (what the Pass markers show)."""
    passed: set[int] = set()
    for context, event in ((m["payload"]["context"], m["payload"]["event"]) for m in wire.received()
                           if m.get("type") == "notification"):
        if event in ("player_played", "trick_taken", "round_started"):
            passed = set()
        elif event == "player_passed":
            passed.add(context["player_index"])
    return passed


def _my_turn_after_a_pass(player: Player, wire: Wire) -> bool:
    """Stop condition: the own ``play`` request is open and some seat passed since the last play."""
    return _my_turn(player, wire) and bool(_passed_since_the_last_play(wire))


async def _has_own_seat(tab: Tab) -> bool:
    return await own_seat(tab, ".lobby-seat.own") is not None


async def _passed_seats_are(tab: Tab, seats: set[str]) -> bool:
    shown = await tab.page.eval_on_selector_all(".seat.passed", "els => els.map(e => e.dataset.seat)")
    return set(shown) == seats


async def _hand_count_is(tab: Tab, count: int) -> bool:
    return await tab.count("#hand .card") == count


async def test_leave_asks_first_and_gives_the_seat_up(server: LiveServer, open_page: OpenPage) -> None:
    """At the table a short click on the Grand Tichu button only explains itself in ``#toast``
    (nothing is sent); ``#leave`` asks in ``#dialog-confirm``: ``#confirm-no`` keeps the seat,
    ``#confirm-yes`` sends ``leave`` and shows the login, and a reload then does not come back
    to the table."""
    tab = await open_page(DESKTOP, "leave")
    await start_alone(tab, server, "Lou", "leave")
    await tab.until(lambda: tab.enabled("#btn-tichu"), "#btn-tichu (Grand Tichu) enabled in the Grand Tichu step")
    sent = len(list(tab.wire.sent()))
    await tab.click("#btn-tichu")
    await tab.until(lambda: tab.visible("#toast"), "a short click on Grand Tichu explains the long press in #toast")
    assert (await tab.texts("#toast"))[0], "#toast is empty"
    assert len(list(tab.wire.sent())) == sent, "a short click on Grand Tichu must send nothing"

    await tab.click("#leave")
    await tab.until(lambda: tab.visible("#dialog-confirm"), "#leave asks in #dialog-confirm")
    await tab.click("#confirm-no")
    await tab.until(lambda: _hidden(tab, "#dialog-confirm"), "#confirm-no closes the dialog")
    assert await tab.active_view() == "view-table"
    assert "leave" not in [m.get("type") for m in tab.wire.sent()], "#confirm-no must not leave"
    await tab.click("#leave")
    await tab.click("#confirm-yes")
    await tab.wait_view("view-login")
    assert "leave" in [m.get("type") for m in tab.wire.sent()], "#confirm-yes must send leave"
    sockets = len(tab.wire.urls)
    await tab.page.reload()
    await tab.wait_view("view-login")
    assert len(tab.wire.urls) == sockets, f"after leaving, a reload connected again: {tab.wire.urls[sockets:]}"


async def _hidden(tab: Tab, selector: str) -> bool:
    return not await tab.visible(selector)


@pytest.mark.slow
async def test_a_whole_game_by_clicks_leaves_a_record_that_replays(start_server: StartServer,
                                                                   open_page: OpenPage, shots: Shots) -> None:
    """A game played through the browser is indistinguishable in its rules from the Arena: one
    person plays a whole game (target 100) by clicks; the last round's result stays on the
    table (with the winner) until its button opens the score sheet; the score view lists every
    round (``tr.score-round``) and ``#scores-back`` returns to the lobby; the record the server
    stored names the player and replays without violation."""
    server = await start_server(target_score=100, seed=GAME_SEED)
    tab = await open_page(PHONE, "game")
    await start_alone(tab, server, "Gio", "game")
    player = Player(tab)
    await player.play_until(game_over, GAME_WAIT)
    result = tab.wire.events("game_over")[0]
    rounds = len(result["game_score"][0])
    print(f"\nbrowser game (seed {GAME_SEED}): {rounds} rounds, {len(player.actions)} requests answered by clicks, "
          f"total {result['total']}")
    await tab.until(lambda: tab.visible("#round-result .result-winner"), "the last round's result with the winner "
                    "on the table after game_over")
    title = (await tab.texts("#round-result h3"))[0]
    assert title.startswith(f"Round {rounds}"), f"the result shown is not the last round's: {title!r}"
    assert await tab.active_view() == "view-table", "the score sheet must wait for the last round's result"
    await shots.take(tab, "game-over-result")
    await tab.click("#round-result .result-close")
    await tab.wait_view("view-scores")
    assert not await tab.visible("#toast"), "a notice about the table must not stay over the score sheet"
    await tab.until(lambda: _score_rows_are(tab, rounds), f"#view-scores lists {rounds} tr.score-round")
    await shots.take(tab, "scores")
    await tab.click("#scores-back")
    await tab.wait_view("view-lobby", timeout=WAIT)

    records = await wait_for_records(server, "game")
    assert len(records) == 1
    record = records[0]
    assert record["players"][0]["name"] == "Gio"
    assert len(record["rounds"]) == rounds
    assert record["score"] == result["total"] and record["winner"] == result["winner"]
    assert replay(record) is None, f"the browser game's record does not replay: {replay(record)}"
    shots.assert_layout()


async def _score_rows_are(tab: Tab, rounds: int) -> bool:
    return await tab.count("#view-scores tr.score-round") == rounds


async def test_a_name_with_markup_characters_is_shown_literally(server: LiveServer, open_page: OpenPage) -> None:
    """``O'Brien & <b>Co</b>`` is a name like any other: accepted at login and shown as text in
    the lobby, on the table and in the table name, never as markup (no ``<b>`` element)."""
    for size in (PHONE, DESKTOP):
        await _play_as_markup_name(server, await open_page(size, "markup-name"), size.name)


async def _play_as_markup_name(server: LiveServer, tab: Tab, size: str) -> None:
    name, table = "O'Brien & <b>Co</b>", f"Tom & Jerry's <i> {size}"
    await tab.login(server.url, name, table)
    await tab.wait_view("view-lobby")
    await tab.until(partial(_has_own_seat, tab), "the lobby marks the own seat")
    seat = await own_seat(tab, ".lobby-seat.own")
    assert seat is not None
    await tab.until(partial(_seat_is, tab, int(seat), name), f"the lobby shows {name!r} at the own seat")
    await tab.until(lambda: tab.enabled("#lobby-start"), "#lobby-start enabled for the host")
    await tab.click("#lobby-start")
    await tab.wait_view("view-table")
    await tab.until(partial(_seat_is, tab, int(seat), name, "seat"), f"the table shows {name!r} at the own seat")
    assert await tab.count("body b, body i") == 0, "a name rendered as markup"
    assert name in await tab.page.locator("body").inner_text()


async def test_a_turn_clock_counts_down_when_the_server_limits_the_time(start_server: StartServer,
                                                                        open_page: OpenPage, shots: Shots) -> None:
    """With ``TICHU_TURN_TIMEOUT`` set, the status line shows the seconds left for the own
    decision and counts down (issue: a turn timeout was invisible until a toast said it was over);
    the screens with the clock pass the layout check at every size."""
    server = await start_server(turn_timeout=30.0)
    for size in (PHONE, DESKTOP):
        tab = await open_page(size, "clock")
        await start_alone(tab, server, "Cleo", f"clock-{size.name}")
        await tab.until(partial(_clock_shows_seconds, tab), "#status shows the seconds left")
        first = _seconds_in((await tab.texts("#status"))[0])
        await tab.until(partial(_clock_below, tab, first), "the turn clock counts down", timeout=WAIT)
        await shots.take(tab, "table-clock")
    shots.assert_layout()


def _seconds_in(status: str) -> int:
    digits = "".join(char if char.isdigit() else " " for char in status).split()
    return int(digits[-1]) if digits else -1


async def _clock_shows_seconds(tab: Tab) -> bool:
    status = (await tab.texts("#status") or [""])[0]
    return " s left" in status and _seconds_in(status) > 0


async def _clock_below(tab: Tab, seconds: int) -> bool:
    return 0 <= _seconds_in((await tab.texts("#status") or [""])[0]) < seconds


async def test_animations_are_off_when_less_motion_is_preferred(server: LiveServer, browser: Browser) -> None:
    """``prefers-reduced-motion: reduce`` turns the short transitions off (a seat's turn glow,
    a card rising when selected); without it they run."""
    durations: dict[str, list[str]] = {}
    for motion in ("reduce", "no-preference"):
        context = await browser.new_context(**PHONE.context_options(), reduced_motion=motion)
        try:
            page = await context.new_page()
            await page.goto(server.url)
            durations[motion] = await page.evaluate(
                "() => ['.seat', '.card'].map(selector => {"
                "  const element = document.createElement('div');"
                "  element.className = selector.slice(1);"
                "  document.getElementById('wrapper').appendChild(element);"
                "  const duration = getComputedStyle(element).transitionDuration;"
                "  element.remove();"
                "  return duration; })")
        finally:
            await context.close()
    def parts(motion: str) -> list[str]:
        return [part.strip() for value in durations[motion] for part in value.split(",")]

    assert set(parts("reduce")) == {"0s"}, durations
    assert "0s" not in parts("no-preference"), durations
