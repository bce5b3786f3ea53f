"""Details of the table that misled players (issue 23, findings 5-7, 9-11), each against a
scripted socket (:func:`~tests.support.browser.join_scripted_table`): the test sends the
server's messages, so that the situation is exact, and checks what the page shows at phone
and laptop size.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.browser import DESKTOP, PHONE, OpenPage, Size, Tab, join_scripted_table, notification
from tests.support.live_server import LiveServer, Message

pytestmark = pytest.mark.asyncio(loop_scope="session")

SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="laptop")]
NAMES = ["Ada", "Ben", "Cleo", "Dan"]


def joined(hand: list[list[int]], **public: Any) -> Message:
    """The own ``player_joined`` of seat 0 in a running round (protocol.md), ``public`` overriding
    the public state's fields."""
    state: Message = {
        "table_name": "mock", "player_names": NAMES, "host_index": 0, "is_running": True, "phase": "playing",
        "round_index": 0, "current_turn_index": 1, "count_hand_cards": [len(hand), 10, 10, 10],
        "announcements": [0, 0, 0, 0], "wish_value": 0, "wish_open": False, "trick_turns": [],
        "trick_owner_index": None, "trick_points": 0, "points": [0, 0, 0, 0], "tricks_won": [0, 0, 0, 0],
        "out_order": [], "played_cards": [], "round_scores": [], "total": [0, 0], "passed": [], **public}
    private = {"player_index": 0, "hand_cards": hand, "given_schupf_cards": None, "received_schupf_cards": None,
               "may_announce": False, "bombs": []}
    return {"player_index": 0, "player_name": "Ada", "session_id": "s-1", "protocol_version": 1,
            "pending_request": None, "public_state": state, "private_state": private}


def played(seat: int, cards: list[list[int]], combination: list[Any], points: int = 0,
           trick: list[Any] | None = None) -> str:
    """A ``player_played`` notification, with the open trick it leaves (its plays before this one:
    ``trick``) as the server sends it (Issue 36)."""
    turn = [seat, cards, combination]
    return notification("player_played", {"turn": turn, "trick_points": points, "trick_owner_index": seat,
                                           "is_bomb": False, "out_of_turn": False},
                        {"trick_turns": [*(trick or []), turn], "trick_owner_index": seat, "trick_points": points,
                         "passed": []})


#: The state of a trick taken (Issue 36: the server sends it with ``trick_taken``).
TAKEN: Message = {"trick_turns": [], "trick_owner_index": None, "trick_points": 0, "passed": []}


def play_request(request_id: str, hand: list[list[int]], legal: list[list[list[int]]],
                 trick: list[Any] | None, hint: list[list[list[int]]] | None = None) -> str:
    """A ``play`` request."""
    return json.dumps({"type": "request", "payload": {
        "request_id": request_id, "action": "play", "timeout": None,
        "context": {"hand_cards": hand, "trick_combination": trick, "trick_owner_index": None if trick is None else 1,
                    "wish_value": 0, "legal_plays": legal, "hint": hint}}})


async def trick_seats(tab: Tab) -> list[str]:
    """The ``data-seat`` of the plays ``#trick`` shows."""
    seats = await tab.page.eval_on_selector_all("#trick .trick-turn", "els => els.map(e => e.dataset.seat)")
    return [str(seat) for seat in seats]


@pytest.mark.parametrize("size", SIZES)
async def test_the_dog_leaves_the_table_once_the_next_trick_begins(server: LiveServer, open_page: OpenPage,
                                                                   size: Size) -> None:
    """Finding 7: Ben leads the Dog (R3.10: the lead goes to his partner Dan); while it is the
    newest play it lies in front of Ben; once Dan plays, the table shows Dan's play alone under
    the new trick's header, not the Dog as if played onto it."""
    tab = await open_page(size, "dog")
    hand = [[5, 1], [9, 2], [12, 3]]
    sockets = await join_scripted_table(tab, server.url, "Ada", joined(hand))
    sockets[-1].send(played(1, [[0, 0]], ["single", 1, 0]))
    await tab.until(lambda: _seats_are(tab, ["1"]), "the Dog lies in front of Ben")
    sockets[-1].send(notification("player_turn_changed", {"current_turn_index": 3}, {"current_turn_index": 3}))
    sockets[-1].send(played(3, [[7, 4]], ["single", 1, 7], trick=[[1, [[0, 0]], ["single", 1, 0]]]))
    await tab.until(lambda: _seats_are(tab, ["3"]), "only Dan's play is on the new trick")
    assert await tab.count('#trick .card[data-card="0-0"]') == 0, "the Dog is still on the table"
    assert "Dan" in (await tab.texts("#trick-owner"))[0]


async def _seats_are(tab: Tab, seats: list[str]) -> bool:
    return await trick_seats(tab) == seats


@pytest.mark.parametrize("size", SIZES)
async def test_the_final_trick_of_a_round_stays_reviewable_during_the_next_deal(
        server: LiveServer, open_page: OpenPage, size: Size) -> None:
    """Finding 5: the next deal starts right after ``round_over``; "Last trick" stays usable
    meanwhile and shows the round's final trick, until the new round's first trick is taken."""
    tab = await open_page(size, "final-trick")
    hand = [[5, 1]]
    sockets = await join_scripted_table(tab, server.url, "Ada", joined(hand))
    socket = sockets[-1]
    socket.send(played(1, [[13, 2]], ["single", 1, 13], 10))
    socket.send(notification("player_passed", {"player_index": 2}, {"passed": [2]}))
    socket.send(notification("trick_taken", {"player_index": 1, "points": 10, "dragon_recipient": None}, TAKEN))
    socket.send(notification("round_over", {"points": [40, 60], "total": [40, 60], "card_points": [40, 60],
                                            "bonus": [0, 0], "out_order": [1, 3, 0], "is_double_victory": False},
                             {"phase": "round_over", "current_turn_index": None, "round_scores": [[40, 60]],
                              "total": [40, 60]}))
    socket.send(notification("round_started", {"round_index": 1}, {"phase": "grand_tichu", "round_index": 1}))
    deal = [[2, 1], [3, 1], [4, 1], [6, 2], [7, 3], [8, 4], [10, 1], [11, 2]]
    socket.send(notification("hand_cards_dealt", {"count": 8, "hand_cards": deal}, {"count_hand_cards": [8] * 4},
                             {"hand_cards": deal}))
    await tab.until(lambda: _hand_size(tab, 8), "the next deal is drawn")
    await tab.click("#btn-last-trick")
    await tab.until(lambda: tab.visible("#dialog-review"), "#btn-last-trick opens the review during the deal")
    rows = await tab.page.eval_on_selector_all(
        "#review-trick .review-play", "els => els.map(e => e.dataset.seat + (e.classList.contains('pass') ? 'p' : ''))")
    assert rows == ["1", "2p"], f"the review shows {rows}, not the round's final trick"
    assert await tab.page.get_attribute("#review-trick .review-taken", "data-seat") == "1"
    await tab.click("#review-close")
    socket.send(notification("start_playing", {"start_player_index": 2, "received_schupf_cards": None},
                             {"phase": "playing", "current_turn_index": 2}))
    socket.send(played(2, [[9, 3]], ["single", 1, 9]))
    socket.send(notification("trick_taken", {"player_index": 2, "points": 0, "dragon_recipient": None}, TAKEN))
    await tab.click("#btn-last-trick")
    await tab.until(lambda: _review_winner_is(tab, "2"), "the new round's first trick replaces it")


async def _hand_size(tab: Tab, count: int) -> bool:
    return await tab.count("#hand .card") == count


async def _review_winner_is(tab: Tab, seat: str) -> bool:
    return await tab.visible("#dialog-review") and \
        await tab.page.get_attribute("#review-trick .review-taken", "data-seat") == seat


@pytest.mark.parametrize("size", SIZES)
async def test_two_unrelated_cards_on_a_single_form_no_combination(server: LiveServer, open_page: OpenPage,
                                                                   size: Size) -> None:
    """Finding 10: on a Single, two cards that make no pair are not "a play that does not beat
    the Single": ``#status`` says they form no combination that goes on it; a lower single still
    reads "does not beat"."""
    tab = await open_page(size, "no-combination")
    hand = [[3, 1], [9, 2], [12, 3]]
    sockets = await join_scripted_table(tab, server.url, "Ada", joined(hand))
    sockets[-1].send(played(1, [[10, 4]], ["single", 1, 10]))
    sockets[-1].send(play_request("r1", hand, [[[12, 3]], []], ["single", 1, 10]))
    await tab.until(lambda: tab.enabled("#btn-pass"), "the play request is drawn")
    await tab.click('#hand .card[data-card="3-1"]')
    await tab.until(lambda: _status_has(tab, "does not beat the Single"), "a lower single does not beat it")
    await tab.click('#hand .card[data-card="9-2"]')
    await tab.until(lambda: _status_has(tab, "form no combination that goes on the Single"),
                    "#status says the two cards form no combination")
    assert "does not beat" not in (await tab.texts("#status"))[0]


async def _status_has(tab: Tab, text: str) -> bool:
    return text in (await tab.texts("#status"))[0]


async def _toast_is(tab: Tab, text: str | None) -> bool:
    shown = await tab.visible("#toast")
    return not shown if text is None else shown and (await tab.texts("#toast"))[0] == text


@pytest.mark.parametrize("size", SIZES)
async def test_the_hint_to_pass_goes_when_the_turn_moves_on(server: LiveServer, open_page: OpenPage,
                                                            size: Size) -> None:
    """Finding 9 (a): "Hint: pass." is about the own turn; once the own pass is made and the next
    seat is at turn, the toast is gone (it stayed into the others' turns)."""
    tab = await open_page(size, "hint-toast")
    hand = [[3, 1], [9, 2]]
    sockets = await join_scripted_table(tab, server.url, "Ada", joined(hand))
    sockets[-1].send(played(3, [[14, 4]], ["single", 1, 14]))
    sockets[-1].send(play_request("r1", hand, [[]], ["single", 1, 14], hint=[[]]))
    await tab.click("#btn-hint")
    await tab.until(lambda: _toast_is(tab, "Hint: pass."), "the hint says pass")
    await tab.click("#btn-pass")
    sockets[-1].send(notification("player_passed", {"player_index": 0}))
    sockets[-1].send(notification("player_turn_changed", {"current_turn_index": 1}))
    await tab.until(lambda: _toast_is(tab, None), "the hint's toast goes when the turn moves on", timeout=2.0)


@pytest.mark.parametrize("size", SIZES)
async def test_a_player_back_after_a_reload_is_not_a_new_join(server: LiveServer, open_page: OpenPage,
                                                              size: Size) -> None:
    """Finding 9 (b): Ben's page reloads (``player_disconnected``, then ``player_joined`` with
    his name on his seat): the others read "Ben is back.", not "Ben joined the table."; a new
    person on a seat still reads as a join."""
    tab = await open_page(size, "back")
    sockets = await join_scripted_table(tab, server.url, "Ada", joined([[3, 1]]))
    sockets[-1].send(notification("player_disconnected", {"player_index": 1, "player_name": "Ben", "seconds": 30}))
    sockets[-1].send(notification("player_joined", {"player_index": 1, "player_name": "Ben"}))
    await tab.until(lambda: _toast_is(tab, "Ben is back."), "a reload reads as Ben being back")
    sockets[-1].send(notification("player_left", {"player_index": 3, "player_name": "Dan", "host_index": 0,
                                                  "replaced_by_agent": True}))
    await tab.until(lambda: _toast_is(tab, "Dan left; an agent plays the seat."), "Dan left")
    sockets[-1].send(notification("player_joined", {"player_index": 3, "player_name": "Eve"}))
    await tab.until(lambda: _toast_is(tab, "Eve joined the table."), "a newcomer still joins")
    sockets[-1].send(notification("player_joined", {"player_index": 2, "player_name": "Cleo"}))
    await tab.until(lambda: _toast_is(tab, "Cleo is back."), "a new connection under the seat's name is Cleo back")


#: A long trick: straights of six, a bomb over them, passes between, taken with the Dragon's gift.
LONG_TRICK = [
    (1, [[3, 1], [4, 2], [5, 3], [6, 4], [7, 1], [8, 2]], ["street", 6, 8]),
    (2, None, None),
    (3, [[4, 1], [5, 2], [6, 3], [7, 4], [8, 1], [9, 2]], ["street", 6, 9]),
    (0, [[5, 4], [6, 1], [7, 2], [8, 3], [9, 4], [10, 1]], ["street", 6, 10]),
    (1, None, None),
    (2, [[6, 2], [7, 3], [8, 4], [9, 1], [10, 2], [11, 3]], ["street", 6, 11]),
    (3, None, None),
    (0, [[12, 1], [12, 2], [12, 3], [12, 4]], ["bomb", 4, 12]),
    (1, None, None),
    (2, [[2, 3], [3, 3], [4, 3], [5, 3], [6, 3], [7, 3]], ["bomb", 6, 7]),
    (3, None, None),
    (0, None, None),
    (1, None, None),
]

#: A longer one: a fight of singles up to the Dragon, 19 plays and passes.
SINGLES_FIGHT = [
    *((seat % 4, [[value, 1 + seat % 4]], ["single", 1, value]) for seat, value in zip(range(1, 14), range(2, 15))),
    (2, None, None), (3, None, None), (0, [[15, 0]], ["single", 1, 15]), (1, None, None), (2, None, None),
    (3, None, None),
]


@pytest.mark.parametrize("trick", [pytest.param(LONG_TRICK, id="straights"), pytest.param(SINGLES_FIGHT, id="singles")])
@pytest.mark.parametrize("size", SIZES)
async def test_the_trick_review_fits_the_screen(server: LiveServer, open_page: OpenPage, size: Size,
                                                trick: list[tuple[int, Any, Any]]) -> None:
    """Finding 6: a long trick's review (13 plays and passes with straights of six, or 19 plays
    and passes of singles) shows every play, who took it and Close without a scroll inside the
    dialog, at 1366x768 and on a phone."""
    tab = await open_page(size, "review-fit")
    sockets = await join_scripted_table(tab, server.url, "Ada", joined([[13, 1]]))
    for seat, cards, combination in trick:
        if cards is None:
            sockets[-1].send(notification("player_passed", {"player_index": seat}))
        else:
            sockets[-1].send(played(seat, cards, combination, 10))
    sockets[-1].send(notification("trick_taken", {"player_index": 2, "points": 10, "dragon_recipient": 3}))
    await tab.click("#btn-last-trick")
    await tab.until(lambda: tab.visible("#review-trick .review-dragon"), "the review shows the long trick")
    await tab.next_frame()
    assert await tab.count("#review-trick .review-play") == len(trick)
    problems = await tab.page.evaluate("""() => {
        const panel = document.querySelector('#dialog-review .review-panel');
        const box = panel.getBoundingClientRect();
        const problems = [];
        if (panel.scrollHeight > panel.clientHeight + 1)
            problems.push(`the panel scrolls: ${panel.scrollHeight} px in ${panel.clientHeight} px`);
        const items = [...document.querySelectorAll('#review-trick .review-play, #review-trick .review-taken, '
                                                   + '#review-trick .review-dragon, #review-close')];
        for (const item of items) {
            const r = item.getBoundingClientRect();
            if (r.top < box.top - 1 || r.bottom > box.bottom + 1 || r.bottom > innerHeight || r.right > innerWidth)
                problems.push(`${item.className || item.id} at ${Math.round(r.top)}..${Math.round(r.bottom)} `
                              + `outside the panel ${Math.round(box.top)}..${Math.round(box.bottom)} or the screen`);
        }
        return problems;
    }""")
    await tab.page.screenshot(path=f"data/screenshots/review-{len(trick)}-{size.name}.png")
    assert not problems, "\n".join(problems)
