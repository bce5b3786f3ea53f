"""The table fills the screen, and a landscape phone keeps every name and the score in view.

Issue 11, item 13: the 9:16 stage left dark bands above and below the table on a phone held
upright, an empty middle and small cards, and side bars when the phone was held sideways. The
first test measures the table in the page at phone (390x844), phone held sideways (844x390)
and laptop (1366x768) size: the stage covers the viewport, the table's parts reach its edges
with no empty band between them, and the hand's cards are as large as the room allows.

Issue 11, item 7: in landscape the partner's name was cut in half when its seat also showed
"Pass" or "1st", toasts covered the partner's seat and the score and stayed over "Game over".
The other tests bring the page into exactly these states, one in a real game (the partner
passed) and the others against a scripted socket (the partner passed with a Tichu call, went
out first, a toast, the game over), and run the layout checker
(:func:`~tests.support.browser.layout_problems`, through :class:`~tests.support.browser.Shots`)
on those screens, besides measuring the partner's name, the toast and the result directly.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import pytest

from tests.support.browser import (
    DESKTOP,
    PHONE,
    PHONE_LANDSCAPE,
    ROUND_WAIT,
    OpenPage,
    Shots,
    Size,
    Tab,
    Wire,
    join_scripted_table,
    name_problems,
    notification,
)
from tests.support.clicks import Player, start_alone
from tests.support.live_server import POLL, LiveServer, Message

if TYPE_CHECKING:
    from playwright.async_api import WebSocketRoute

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Pixels the stage may miss or pass the viewport's edge by (rounding of the scale).
EDGE = 2.0

#: The partner's name: long enough that a badge beside it would push it out of its seat.
PARTNER = "Maximiliane"
#: A person at the left-hand seat who leaves during the game (a long toast).
LEAVER = "Wilhelmina"


@dataclass(frozen=True)
class Fill:
    """What "fills the screen" means at one size, as fractions of the viewport.

    :ivar margin: The widest gap allowed between the table's parts and the viewport's left,
        right and bottom edges (a band or side bar is wider).
    :ivar band: The highest empty horizontal band allowed between two of the table's parts.
    :ivar card_width: The smallest width of a hand card.
    :ivar card_height: The smallest height of a hand card.
    :ivar hand_span: The least width the hand's cards span together.
    """

    size: Size
    margin: float
    band: float
    card_width: float
    card_height: float
    hand_span: float


#: The layout meets these with some room (phone: cards 69x97 px spanning 96% of the width; phone
#: sideways: 56x79 px spanning 83%; laptop: 108x153 px spanning 98%); the old 9:16 stage on a
#: phone had bands of 9% and cards 55x77 px (14% x 9%), and side bars of 9% when held sideways.
FILLS = {
    PHONE.name: Fill(PHONE, margin=0.03, band=0.025, card_width=0.17, card_height=0.11, hand_span=0.9),
    PHONE_LANDSCAPE.name: Fill(PHONE_LANDSCAPE, margin=0.03, band=0.025, card_width=0.06, card_height=0.19,
                               hand_span=0.8),
    DESKTOP.name: Fill(DESKTOP, margin=0.03, band=0.025, card_width=0.07, card_height=0.18, hand_span=0.9),
}

#: The table's parts whose boxes together should cover the screen.
_PARTS = "#toolbar, #scoreboard, #view-table .seat, #center, #status, #actions, #hand-tools, #auto-pass, #hand"

_MEASURE_JS = """(parts) => {
    const box = el => { const r = el.getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; };
    const shown = el => el.checkVisibility() && !el.closest('[hidden]') && el.getBoundingClientRect().width > 0;
    const name = el => el.id ? '#' + el.id : '.' + [...el.classList].join('.');
    return {
        width: window.innerWidth, height: window.innerHeight,
        stage: box(document.getElementById('wrapper')),
        parts: [...document.querySelectorAll(parts)].filter(shown).map(el => ({name: name(el), ...box(el)})),
        cards: [...document.querySelectorAll('#hand .card')].filter(shown).map(box),
    };
}"""


def fill_problems(fill: Fill, measured: dict[str, Any]) -> list[str]:
    """What keeps the measured table from filling the screen at ``fill.size``."""
    width, height = measured["width"], measured["height"]
    where = f"{fill.size.name} {width}x{height}"
    problems: list[str] = []
    stage = measured["stage"]
    for edge, value, screen in (("left", stage["left"], 0), ("top", stage["top"], 0),
                                ("right", stage["right"], width), ("bottom", stage["bottom"], height)):
        if abs(value - screen) > EDGE:
            problems.append(f"{where}: the stage's {edge} edge is at {value:.0f}, the screen's at {screen} (a band)")
    parts = [part for part in measured["parts"] if part["name"] != "#toolbar"]
    if not parts:
        return [*problems, f"{where}: no part of the table is shown"]
    left = min(part["left"] for part in parts)
    right = max(part["right"] for part in parts)
    if left > fill.margin * width or right < (1 - fill.margin) * width:
        problems.append(f"{where}: the table's parts span {left:.0f}..{right:.0f} of {width} px (side bars)")
    ordered = sorted(measured["parts"], key=lambda part: part["top"])
    reached = 0.0
    for part in ordered:
        if part["top"] - reached > fill.band * height:
            problems.append(f"{where}: nothing of the table between y={reached:.0f} and y={part['top']:.0f} "
                            f"(an empty band above {part['name']})")
        reached = max(reached, part["bottom"])
    cards = measured["cards"]
    if len(cards) != 14:
        return [*problems, f"{where}: {len(cards)} hand cards shown, not 14"]
    bottom = max(card["bottom"] for card in cards)
    if bottom < (1 - fill.margin) * height or bottom > height + EDGE:
        problems.append(f"{where}: the hand's cards end at y={bottom:.0f} of {height} (a band below the hand)")
    smallest_width = min(card["width"] for card in cards)
    smallest_height = min(card["height"] for card in cards)
    if smallest_width < fill.card_width * width or smallest_height < fill.card_height * height:
        problems.append(f"{where}: a hand card is {smallest_width:.0f}x{smallest_height:.0f} px, smaller than "
                        f"{fill.card_width * width:.0f}x{fill.card_height * height:.0f} px "
                        f"({fill.card_width:.0%} x {fill.card_height:.0%} of the screen)")
    span = max(card["right"] for card in cards) - min(card["left"] for card in cards)
    if span < fill.hand_span * width:
        problems.append(f"{where}: the hand's cards span {span:.0f} of {width} px (less than {fill.hand_span:.0%})")
    return problems


async def measure(tab: Tab) -> dict[str, Any]:
    """The stage, the table's parts and the hand's cards as the page lays them out now."""
    measured: dict[str, Any] = await tab.page.evaluate(_MEASURE_JS, _PARTS)
    return measured


def _my_turn_with_a_full_hand(player: Player, wire: Wire) -> bool:
    """The received cards are in the hand and the first ``play`` request of the round is open (14 cards held)."""
    request = wire.open_request() or {}
    return bool(player.received_rounds) and request.get("action") == "play" and \
        len(request["context"]["hand_cards"]) == 14


@pytest.mark.slow
async def test_the_table_fills_a_phone_upright_and_sideways_and_a_laptop(server: LiveServer, open_page: OpenPage,
                                                                         shots: Shots) -> None:
    """Issue 11, item 13: at the own first turn (14 cards held) the table uses the whole screen
    of a phone held upright (390x844) and sideways (844x390, the same page turned) and of a
    laptop (1366x768): the stage covers the viewport within 2 px on every edge, the table's
    parts reach the left, right and bottom edges (no side bars, no band below the hand) and
    leave no empty horizontal band between them (no empty middle), and the hand's 14 cards are
    as large as the room allows (each card at least the size :data:`FILLS` gives, the cards
    together spanning most of the width). The screens are photographed with the layout check."""
    problems: list[str] = []
    for size, turned in ((PHONE, PHONE_LANDSCAPE), (DESKTOP, None)):
        tab = await open_page(size, "fill")
        await start_alone(tab, server, "Fay", f"fill-{size.name}")
        player = Player(tab)
        await player.play_until(partial(_my_turn_with_a_full_hand, player), ROUND_WAIT)
        await tab.until(partial(_hand_shows, tab, 14), "#hand shows the 14 cards of the first play request")
        for shown in (size, turned):
            if shown is None:
                continue
            await tab.page.set_viewport_size({"width": shown.width, "height": shown.height})
            await tab.next_frame()
            problems.extend(fill_problems(FILLS[shown.name], await measure(tab)))
        await tab.page.set_viewport_size({"width": size.width, "height": size.height})
        await tab.next_frame()
        await shots.take(tab, "table-fill")
    assert not problems, "the table does not fill the screen:\n" + "\n".join(problems)
    shots.assert_layout()


async def _hand_shows(tab: Tab, count: int) -> bool:
    return await tab.count("#hand .card") == count


# -- landscape: the partner's seat with "Pass" and "1st", toasts, "Game over" ------------------


def passed_since_the_last_play(wire: Wire) -> set[int]:
    """The seats that passed since the last play of the open trick (what the ``Pass`` markers show)."""
    passed: set[int] = set()
    for message in wire.received():
        if message.get("type") != "notification":
            continue
        event, context = message["payload"]["event"], message["payload"]["context"]
        if event in ("player_played", "trick_taken", "round_started"):
            passed = set()
        elif event == "player_passed":
            passed.add(context["player_index"])
    return passed


def _my_turn_after_the_partner_passed(player: Player, wire: Wire) -> bool:
    """The own ``play`` request is open and the partner passed since the last play."""
    seat = wire.seat
    request = wire.open_request() or {}
    return bool(player.received_rounds) and request.get("action") == "play" and seat is not None and \
        (seat + 2) % 4 in passed_since_the_last_play(wire)


@dataclass
class PassingPlayer(Player):
    """A :class:`~tests.support.clicks.Player` that clicks Pass whenever passing is legal."""

    async def play(self, request: Message) -> None:
        """Click ``#btn-pass`` when the request allows passing; else play as a Player does."""
        if [] not in request["context"]["legal_plays"]:
            await super().play(request)
            return
        tab = self.tab

        async def pass_enabled_or_closed() -> bool:
            current = tab.wire.open_request()
            return current is None or current["request_id"] != request["request_id"] or \
                await tab.enabled("#btn-pass")

        await tab.until(pass_enabled_or_closed, "#btn-pass enabled for a request that allows passing")
        if (tab.wire.open_request() or {}).get("request_id") == request["request_id"]:
            await tab.click("#btn-pass")


async def _lobby_seat_of(tab: Tab, name: str) -> str | None:
    """The ``data-seat`` of the lobby seat that shows ``name``."""
    seats: list[str] = await tab.page.eval_on_selector_all(
        ".lobby-seat", "(els, name) => els.filter(e => e.querySelector('.seat-name').textContent.trim() === name)"
        ".map(e => e.dataset.seat)", name)
    return seats[0] if seats else None


async def _seat_is(tab: Tab, name: str, seat: str) -> bool:
    return await _lobby_seat_of(tab, name) == seat


async def partners_at_one_table(server: LiveServer, host: Tab, guest: Tab, table: str) -> None:
    """The host and the guest log in; the host swaps the guest to seat 2 (the host's partner);
    the guest presses Ready and the host starts."""
    host_name, guest_name = "Pia", PARTNER
    await host.login(server.url, host_name, table)
    await host.wait_view("view-lobby")
    await guest.login(server.url, guest_name, table)
    await guest.wait_view("view-lobby")
    await host.until(partial(_seat_is, host, guest_name, "1"), f"the lobby shows {guest_name} at seat 1")
    await host.click('.lobby-seat[data-seat="1"]')
    await host.until(lambda: host.visible('.lobby-seat[data-seat="1"].picked'), "seat 1 picked for the swap")
    await host.click('.lobby-seat[data-seat="2"]')
    await guest.until(partial(_seat_is, guest, guest_name, "2"), f"{guest_name} moved to seat 2")
    await guest.click("#lobby-ready")
    await host.until(lambda: host.enabled("#lobby-start"), "#lobby-start enabled once the partner is ready")
    await host.click("#lobby-start")
    await host.wait_view("view-table")
    await guest.wait_view("view-table")


async def play_both_until(players: tuple[Player, Player], stop: Callable[[], bool], timeout: float) -> None:
    """Let both players answer their requests by clicks, one step each in turn, until ``stop()``."""
    deadline = time.monotonic() + timeout
    while not stop():
        if time.monotonic() > deadline:
            pages = [await player.tab.describe() for player in players]
            raise AssertionError(f"the game did not get there within {timeout} s; " + "; ".join(pages))
        for player in players:
            errors = player.tab.wire.unexplained_errors()
            assert not errors, f"{player.tab.label}: the server refused what the page sent: {errors}"
        acted = [await player.step() for player in players]
        if not any(acted):
            await asyncio.sleep(POLL)


@pytest.mark.slow
async def test_landscape_partner_who_passed_keeps_a_whole_name_in_a_real_game(server: LiveServer,
                                                                              open_page: OpenPage,
                                                                              shots: Shots) -> None:
    """Issue 11, item 7, in a real game: a phone held sideways (844x390) plays by clicks with a
    person called :data:`PARTNER` as its partner (a phone upright, who passes whenever it may)
    until it is the own turn and the partner passed since the last play; the partner's seat
    (at the top) then shows "Pass" beside its whole name (not shortened, inside the seat, under
    no badge), and the layout check finds nothing on that screen (nor at the other sizes)."""
    host = await open_page(PHONE_LANDSCAPE, "landscape-pass")
    guest = await open_page(PHONE, "partner")
    await partners_at_one_table(server, host, guest, "landscape-pass")
    player = Player(host)
    await play_both_until((PassingPlayer(guest), player),
                          partial(_my_turn_after_the_partner_passed, player, host.wire), ROUND_WAIT * 2)
    await host.until(lambda: host.visible(".seat.pos-top.passed .seat-pass"),
                     "the partner's seat (.seat.pos-top) shows its Pass marker")
    assert (await host.texts(".seat.pos-top .seat-name"))[0] == PARTNER
    assert not await name_problems(host, ".seat.pos-top"), await name_problems(host, ".seat.pos-top")
    await shots.take(host, "table-landscape-partner-pass")
    shots.assert_layout()


_OVERLAP_JS = """([first, second]) => {
    const a = document.querySelector(first), b = document.querySelector(second);
    if (!a || !b || !a.checkVisibility() || !b.checkVisibility()) return null;
    const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    return Math.max(0, Math.min(p.right, q.right) - Math.max(p.left, q.left)) *
        Math.max(0, Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top));
}"""


async def covered(tab: Tab, first: str, second: str) -> float | None:
    """The area (px²) two shown elements share; ``None`` when either is not shown."""
    area: float | None = await tab.page.evaluate(_OVERLAP_JS, [first, second])
    return area


def _play_request(request_id: str, hand: list[list[int]], legal: list[list[list[int]]]) -> Message:
    return {"request_id": request_id, "action": "play", "timeout": None,
            "context": {"hand_cards": hand, "trick_combination": ["single", 1, 9], "trick_owner_index": 1,
                        "wish_value": 0, "legal_plays": legal, "hint": None}}


@dataclass
class Scripted:
    """A page whose WebSocket is a script: the test sends what a server would."""

    tab: Tab
    sockets: list[WebSocketRoute]

    def send(self, event: str, context: Message, public: Message | None = None) -> None:
        """Send a notification to the page, with the fields of the public state it changed (as a
        server sends them: Issue 36)."""
        self.sockets[-1].send(notification(event, context, public))

    def send_error(self, code: int, message: str) -> None:
        """Send an ``error`` to the page."""
        self.sockets[-1].send(json.dumps({"type": "error", "payload": {"code": code, "message": message,
                                                                      "context": {}}}))


async def scripted_table(tab: Tab, server: LiveServer) -> Scripted:
    """Log in against a scripted socket that joins the page to a running round, seat 0, at its
    turn: the right-hand opponent (seat 1) led a 9, the partner :data:`PARTNER` (seat 2, one
    card left, Tichu called) and the left-hand opponent :data:`LEAVER` (seat 3, Grand Tichu
    called) passed."""
    hand = [[2, 1], [5, 2], [7, 3], [10, 4], [12, 1], [14, 2]]
    public = {"table_name": "mock", "player_names": ["Bo", "", PARTNER, LEAVER], "host_index": 0,
              "is_running": True, "phase": "playing", "round_index": 1, "current_turn_index": 0,
              "count_hand_cards": [6, 9, 1, 7], "announcements": [0, 0, 1, 2], "wish_value": 0,
              "wish_open": False, "trick_turns": [[1, [[9, 1]], ["single", 1, 9]]], "trick_owner_index": 1,
              "trick_points": 0, "points": [20, 5, 35, 10], "tricks_won": [1, 1, 2, 1], "out_order": [],
              "played_cards": [[9, 1]], "round_scores": [[50, 50]], "total": [50, 50], "passed": [2, 3]}
    request = _play_request("r1", hand, [[], [[10, 4]], [[12, 1]], [[14, 2]]])
    joined = {"player_index": 0, "player_name": "Bo", "session_id": "s-1", "protocol_version": 1,
              "pending_request": request, "public_state": public,
              "private_state": {"player_index": 0, "hand_cards": hand, "given_schupf_cards": None,
                                "received_schupf_cards": None, "may_announce": False,
                                "bombs": []}}
    return Scripted(tab, await join_scripted_table(tab, server.url, "Bo", joined))


async def _toast_is(tab: Tab, text: str) -> bool:
    return await tab.visible("#toast") and text in (await tab.texts("#toast"))[0]


async def assert_toast_covers_nothing(tab: Tab, *parts: str) -> None:
    """The toast is shown and shares no pixel with any of ``parts``."""
    assert await tab.visible("#toast"), f"{tab.label}: the toast is not shown; {await tab.describe()}"
    for part in parts:
        area = await covered(tab, "#toast", part)
        assert not area, f"{tab.label} ({tab.size.name}): the toast covers {part} ({area:.0f} px²)"


@pytest.mark.slow
async def test_landscape_partner_seat_with_pass_then_first_and_a_toast(server: LiveServer, open_page: OpenPage,
                                                                        shots: Shots) -> None:
    """Issue 11, item 7, against a scripted socket on a phone held sideways (844x390): the
    partner's seat shows its Tichu call and "Pass" while the left-hand opponent's leaving
    shows a toast; then the partner plays its last card and shows "1st" with the call. In both
    states the partner's name is whole (not shortened, inside its seat, under no badge), the
    toast covers neither the partner's seat nor the scoreboard, and the layout check finds
    nothing on the screen (taken at once while the toast shows, then at every size)."""
    tab = await open_page(PHONE_LANDSCAPE, "landscape-seats")
    script = await scripted_table(tab, server)
    partner = ".seat.pos-top"
    await tab.until(lambda: tab.visible(f"{partner}.passed .seat-pass"), "the partner's seat shows Pass")
    await tab.until(lambda: tab.visible(f"{partner} .seat-call"), "the partner's seat shows its Tichu call")
    assert (await tab.texts(f"{partner} .seat-name"))[0] == PARTNER

    script.send("player_left", {"player_index": 3, "player_name": LEAVER, "host_index": 0,
                                "replaced_by_agent": True})
    await tab.until(partial(_toast_is, tab, LEAVER), f"the toast says that {LEAVER} left")
    await assert_toast_covers_nothing(tab, partner, "#scoreboard", ".seat.pos-left", ".seat.pos-right")
    assert not await name_problems(tab, partner), await name_problems(tab, partner)
    await shots.take(tab, "table-landscape-pass-toast", both=False)
    assert await tab.visible("#toast"), "the toast went before the screen was checked"
    await shots.take(tab, "table-landscape-pass")

    script.send("player_played", {"turn": [2, [[13, 3]], ["single", 1, 13]], "trick_points": 10,
                                  "trick_owner_index": 2, "is_bomb": False, "out_of_turn": False},
                {"trick_turns": [[2, [[13, 3]], ["single", 1, 13]]], "trick_owner_index": 2, "trick_points": 10,
                 "passed": []})
    script.send("player_out", {"player_index": 2, "place": 1}, {"out_order": [2]})
    script.send("player_passed", {"player_index": 3}, {"passed": [3]})
    await tab.until(lambda: tab.visible(f"{partner}.out .seat-place"), "the partner's seat shows 1st")
    assert (await tab.texts(f"{partner} .seat-place"))[0] == "1st"
    assert await tab.visible(f"{partner} .seat-call"), "the partner's Tichu call went with its first place"
    script.send("player_left", {"player_index": 1, "player_name": "Bot 2", "host_index": 0,
                                "replaced_by_agent": True})
    await tab.until(partial(_toast_is, tab, "Bot 2"), "a second toast")
    await assert_toast_covers_nothing(tab, partner, "#scoreboard", ".seat.pos-left", ".seat.pos-right")
    assert not await name_problems(tab, partner), await name_problems(tab, partner)
    await shots.take(tab, "table-landscape-first-toast", both=False)
    await shots.take(tab, "table-landscape-first")
    shots.assert_layout()


@pytest.mark.slow
async def test_landscape_toast_never_lies_over_game_over(server: LiveServer, open_page: OpenPage,
                                                         shots: Shots) -> None:
    """Issue 11, item 7, against a scripted socket on a phone held sideways (844x390): a toast
    that arrives as the game ends (the own turn timed out, error 309) shows while the last
    round's result names the winners and the status says the game is over, but covers neither
    the result nor the status, the partner's seat nor the scoreboard, and the layout check
    finds nothing on that screen; the score sheet opened from the result shows no toast."""
    tab = await open_page(PHONE_LANDSCAPE, "landscape-game-over")
    script = await scripted_table(tab, server)
    await tab.until(lambda: tab.visible(".seat.pos-top.passed .seat-pass"), "the partner's seat shows Pass")
    script.send_error(309, "time is up")
    script.send("player_played", {"turn": [2, [[13, 3]], ["single", 1, 13]], "trick_points": 10,
                                  "trick_owner_index": 2, "is_bomb": False, "out_of_turn": False})
    script.send("player_out", {"player_index": 2, "place": 1}, {"out_order": [2]})
    script.send("round_over", {"card_points": [70, 30], "bonus": [100, -200], "points": [170, -170],
                               "total": [220, -120], "out_order": [2, 1, 3], "is_double_victory": False},
                {"phase": "round_over", "current_turn_index": None, "total": [220, -120]})
    script.send("game_over", {"game_score": [[50, 170], [50, -170]], "total": [220, -120], "winner": 20},
                {"phase": "game_over", "is_running": False})
    await tab.until(lambda: tab.visible("#round-result .result-winner"), "the last round's result names the winners")
    await tab.until(partial(_toast_is, tab, "Time is up"), "the toast says that the time was up")
    assert "game is over" in (await tab.texts("#status"))[0], await tab.texts("#status")
    await assert_toast_covers_nothing(tab, "#round-result", "#status", ".seat.pos-top", "#scoreboard")
    await shots.take(tab, "game-over-landscape-toast", both=False)
    assert await tab.visible("#toast"), "the toast went before the screen was checked"
    await tab.click("#round-result .result-close")
    await tab.wait_view("view-scores")
    assert not await tab.visible("#toast"), "a toast about the table stays over the score sheet"
    shots.assert_layout()
