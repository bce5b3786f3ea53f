"""The smaller things players met at the table (Issue 35, finding 9), against a scripted socket:
the page gets exactly the notifications of protocol.md, so each test sets up the moment it checks.

- the host's hand-over banner leaves the partner's trick free on a phone, and while an agent
  plays the own seat the status line says "Your agent played." (not "You played.");
- "Waiting for the others…" names whom the clock runs for ("Waiting for Ida…");
- each received card says from whom it came;
- a disabled Play button looks disabled;
- the Dog's lead reads "the lead passes to <partner>" in the move log and the trick log.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest

from tests.support.browser import DESKTOP, PHONE, OpenPage, Tab, join_scripted_table, notification
from tests.support.live_server import LiveServer, Message

if TYPE_CHECKING:
    from playwright.async_api import WebSocketRoute

pytestmark = pytest.mark.asyncio(loop_scope="session")

OPTIONS = {"agent": "random", "hints": True, "agents": ["random"], "turn_clock": 30, "on_leave": "agent",
           "newcomers": False}
#: Bo's hand at seat 0.
HAND = [[2, 1], [3, 1], [5, 2], [10, 3], [13, 4], [14, 4], [16, 0]]


def _joined(*, phase: str = "playing", turn: int | None = 2, hand: list[list[int]] | None = None,
            received: list[list[int]] | None = None) -> Message:
    """Bo's own ``player_joined`` at seat 0 of a running table: Ann (1), Ida (2, the partner), Cy (3)."""
    public: Message = {
        "table_name": "mock", "player_names": ["Bo", "Ann", "Ida", "Cy"], "host_index": 0, "is_running": True,
        "phase": phase, "round_index": 0, "current_turn_index": turn,
        "count_hand_cards": [14, 14, 14, 14], "announcements": [0, 0, 0, 0],
        "wish_value": 0, "wish_open": False, "trick_turns": [], "trick_owner_index": None, "trick_points": 0,
        "points": [0, 0, 0, 0], "tricks_won": [0, 0, 0, 0], "out_order": [], "played_cards": [],
        "round_scores": [], "total": [0, 0], "passed": [], "agent_plays_for": []}
    return {"player_index": 0, "player_name": "Bo", "session_id": "s-small", "protocol_version": 1,
            "pending_request": None, "public_state": public, "options": OPTIONS,
            "private_state": {"player_index": 0, "hand_cards": hand or HAND, "given_schupf_cards": None,
                              "received_schupf_cards": received, "may_announce": False, "bombs": []}}


async def _scripted(tab: Tab, server: LiveServer, joined: Message) -> tuple[list[Message], WebSocketRoute]:
    """Join the scripted table; the messages the page sends, and the socket to send through."""
    sent: list[Message] = []
    sockets = await join_scripted_table(tab, server.url, "Bo", joined, lambda text: sent.append(json.loads(text)))
    return sent, sockets[-1]


async def _text(tab: Tab, selector: str) -> str:
    return (await tab.page.locator(selector).first.text_content() or "").strip()


async def _count_is(tab: Tab, selector: str, count: int) -> bool:
    return await tab.count(selector) == count


async def _status_matches(tab: Tab, pattern: str) -> bool:
    return re.fullmatch(pattern, await _text(tab, "#status")) is not None


def _played(seat: int, cards: list[list[int]], combination: list[object], points: int = 0,
            trick: list[object] | None = None) -> str:
    """``player_played`` with the open trick it leaves (its plays before: ``trick``), as the
    server sends it (Issue 36)."""
    turn = [seat, cards, combination]
    return notification("player_played", {"turn": turn, "trick_points": points, "trick_owner_index": seat,
                                          "is_bomb": False, "out_of_turn": False},
                        {"trick_turns": [*(trick or []), turn], "trick_owner_index": seat, "trick_points": points})


_OVERLAP_JS = """([a, b]) => {
    const p = document.querySelector(a).getBoundingClientRect();
    return [...document.querySelectorAll(b)].some(el => {
        const q = el.getBoundingClientRect();
        return Math.min(p.right, q.right) - Math.max(p.left, q.left) > 1 &&
               Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 1;
    });
}"""


async def test_the_hand_over_banner_leaves_the_trick_free_and_names_the_agent(
        server: LiveServer, open_page: OpenPage) -> None:
    """Issue 35, finding 9: on a phone the banner "An agent is playing for you." covered the
    partner's trick, and the agent's plays for Bo read "You played.". The banner lies on no
    card of the trick; the status says "Your agent played." (German too), and "You played."
    again once Bo has taken the seat back."""
    tab = await open_page(PHONE, "banner")
    _, socket = await _scripted(tab, server, _joined())
    socket.send(notification("seat_handed_over", {"player_index": 0, "player_name": "Bo", "reason": "host"}))
    await tab.until(lambda: tab.visible("#handover-banner"), "the banner of the own seat handed over")
    plays: list[tuple[int, list[list[int]], list[object]]] = [
        (2, [[9, 1]], ["single", 1, 9]), (3, [[11, 2]], ["single", 1, 11]), (0, [[13, 4]], ["single", 1, 13])]
    for index, (seat, cards, combination) in enumerate(plays):
        socket.send(_played(seat, cards, combination, trick=[list(play) for play in plays[:index]]))
        turn = (seat + 1) % 4
        socket.send(notification("player_turn_changed", {"current_turn_index": turn}, {"current_turn_index": turn}))
    await tab.until(lambda: _count_is(tab, "#trick .trick-turn .card", 3), "the three plays on the table")
    for seat in (2, 3, 0):
        covered = await tab.page.evaluate(_OVERLAP_JS, ["#handover-banner", f'.trick-turn[data-seat="{seat}"]'])
        assert not covered, f"the hand-over banner covers the play of seat {seat} on a phone"
    await tab.until(lambda: _status_matches(tab, r"Your agent played\. Ann is playing\.( · \d+ s left)?"),
                    "the agent's play named as the agent's, not 'You played.'")
    await tab.click("#lang-switch")
    await tab.until(lambda: _status_matches(tab, r"Dein Agent hat gespielt\. Ann ist am Zug\.( · noch \d+ s)?"),
                    "the agent's play in German")
    await tab.click("#lang-switch")
    socket.send(notification("seat_taken_back", {"player_index": 0, "player_name": "Bo"}))
    await tab.until(lambda: _status_matches(tab, r"You played\. Ann is playing\.( · \d+ s left)?"),
                    "'You played.' once the seat is taken back")


async def test_each_received_card_says_from_whom(server: LiveServer, open_page: OpenPage) -> None:
    """Issue 35, finding 9: the received cards were outlined but not from whom. After the
    exchange each received card carries a label "from <giver>" (from the right Ann, from the
    partner Ida, from the left Cy: protocol.md's order), and says so in its accessible name; the
    label goes with the seat's first play."""
    tab = await open_page(PHONE, "received")
    hand = [[2, 1], [3, 1], [5, 2], [10, 3], [13, 4], [14, 4], [16, 0], [4, 1], [6, 2], [7, 3], [8, 4]]
    _, socket = await _scripted(tab, server, _joined(phase="schupf", turn=None, hand=hand))
    received = [[9, 2], [11, 3], [1, 0]]
    socket.send(notification("start_playing", {"start_player_index": 1, "received_schupf_cards": received},
                             {"phase": "playing", "current_turn_index": 1},
                             {"hand_cards": hand + received, "received_schupf_cards": received}))
    await tab.until(lambda: _count_is(tab, "#hand .card.received", 3), "the three received cards outlined")
    for card, giver in zip(received, ["Ann", "Ida", "Cy"], strict=True):
        selector = f'#hand .card[data-card="{card[0]}-{card[1]}"]'
        assert await _text(tab, f"{selector} .card-from") == f"from {giver}", f"{selector} names no giver"
        assert await tab.visible(f"{selector} .card-from")
        label = await tab.page.get_attribute(selector, "aria-label") or ""
        assert label.endswith(f", from {giver}"), label
    await tab.click("#lang-switch")
    await tab.until(lambda: _text_is(tab, '#hand .card[data-card="9-2"] .card-from', "von Ann"), "the label in German")
    await tab.click("#lang-switch")
    socket.send(_played(0, [[2, 1]], ["single", 1, 2]))
    await tab.until(lambda: _count_is(tab, "#hand .card-from", 0), "the labels go with the own first play")
    assert await tab.page.get_attribute('#hand .card[data-card="9-2"]', "aria-label") == "9 of Pagodas"


async def _text_is(tab: Tab, selector: str, text: str) -> bool:
    return await tab.count(selector) > 0 and await _text(tab, selector) == text


_LOOK_JS = """(selector) => {
    const style = getComputedStyle(document.querySelector(selector));
    return [style.backgroundColor, style.borderColor, style.color, style.opacity].join(' / ');
}"""


async def test_a_disabled_play_button_looks_disabled(server: LiveServer, open_page: OpenPage) -> None:
    """Issue 35, finding 9: a disabled Play button still looked lit (gold under a veil). Disabled,
    it looks like the other disabled buttons (Pass); enabled, it looks otherwise."""
    tab = await open_page(PHONE, "disabled")
    _, socket = await _scripted(tab, server, _joined(turn=0))
    await tab.until(lambda: _disabled(tab, "#btn-play"), "Play disabled while it is not Bo's turn")
    assert await _disabled(tab, "#btn-pass")
    disabled = await tab.page.evaluate(_LOOK_JS, "#btn-play")
    assert disabled == await tab.page.evaluate(_LOOK_JS, "#btn-pass"), \
        f"the disabled Play button ({disabled}) does not look like the disabled Pass button"
    socket.send(json.dumps({"type": "request", "payload": {
        "request_id": "r1", "action": "play", "timeout": None,
        "context": {"hand_cards": HAND, "trick_combination": None, "trick_owner_index": None, "wish_value": 0,
                    "legal_plays": [[[2, 1]], [[3, 1]]], "hint": None}}}))
    await tab.until(lambda: _count_is(tab, '#hand .card[data-card="2-1"]', 1), "the hand")
    await tab.click('#hand .card[data-card="2-1"]')
    await tab.until(lambda: tab.enabled("#btn-play"), "Play enabled with a legal play selected")
    await tab.until(lambda: _look_is_not(tab, "#btn-play", disabled), "the enabled Play button looks otherwise")


async def _disabled(tab: Tab, selector: str) -> bool:
    return not await tab.enabled(selector)


async def _look_is_not(tab: Tab, selector: str, look: str) -> bool:
    current: str = await tab.page.evaluate(_LOOK_JS, selector)
    return current != look


async def test_the_dogs_lead_says_the_lead_passes_to_the_partner(server: LiveServer, open_page: OpenPage) -> None:
    """Issue 35, finding 9: the Dog's lead read "Single 0 points". When Ann leads the Dog, the
    trick's header and the move log say that the lead passes to her partner Cy (German too)."""
    tab = await open_page(DESKTOP, "dog")
    _, socket = await _scripted(tab, server, _joined(turn=1))
    socket.send(_played(1, [[0, 0]], ["single", 1, 0]))
    await tab.until(lambda: _text_is(tab, "#trick-info", "Dog: the lead passes to Cy"), "the Dog's lead in the header")
    await tab.click("#log-toggle")
    await tab.until(lambda: _text_is(tab, "#move-log li:last-child", "Ann plays the Dog: the lead passes to Cy."),
                    "the Dog's lead in the move log")
    await tab.click("#lang-switch")
    await tab.until(lambda: _text_is(tab, "#move-log li:last-child", "Ann spielt den Hund: Cy spielt aus."),
                    "the move log in German")
    await tab.until(lambda: _text_is(tab, "#trick-info", "Hund: Cy spielt aus"), "the header in German")


async def test_waiting_names_whom_the_clock_runs_for(server: LiveServer, open_page: OpenPage) -> None:
    """Issue 35, finding 9: "Waiting for the others…" did not name the one whose clock runs. Once
    Bo has decided in the Grand Tichu step, the status names those still waited for ("Waiting
    for Ida…", "Waiting for Ann and Cy…", German too), and without clocks says "the others"."""
    tab = await open_page(PHONE, "waiting")
    _, socket = await _scripted(tab, server, _joined(phase="grand_tichu", turn=None))
    await tab.until(lambda: _status_matches(tab, "Waiting for the others…"), "nobody waited for yet")
    socket.send(notification("turn_clocks", {"clocks": [{"player_index": 2, "seconds_left": 20, "waited": 10}]}))
    await tab.until(lambda: _status_matches(tab, "Waiting for Ida…"), "the one whose clock runs named")
    socket.send(notification("turn_clocks", {"clocks": [{"player_index": 3, "seconds_left": 20, "waited": 10},
                                                        {"player_index": 1, "seconds_left": 20, "waited": 10}]}))
    await tab.until(lambda: _status_matches(tab, "Waiting for Ann and Cy…"), "both named")
    await tab.click("#lang-switch")
    await tab.until(lambda: _status_matches(tab, "Warte auf Ann und Cy …"), "in German")
