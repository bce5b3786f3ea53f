"""The table's tools in the browser: each play of the trick named, the last-trick review and
the cards still out, auto-pass, sorting and arranging the hand, and the keyboard.

As in ``test_e2e.py`` a page acts by clicks and keys only; its :class:`~tests.support.browser.Wire`
tells the test when to act and what the server said, which is what the page must show. The
new panels are photographed at phone and desktop size with the layout check.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pytest

from tests.support.browser import (
    DESKTOP,
    PHONE,
    ROUND_WAIT,
    OpenPage,
    Shots,
    Tab,
    Wire,
    join_scripted_table,
    notification,
)
from tests.support.clicks import Player, card_label, start_alone
from tests.support.live_server import WAIT, LiveServer, Message

if TYPE_CHECKING:
    pass

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: More than the page's auto-pass delay (300 ms): a request still open after it was left alone.
LEFT_ALONE = 1.2


@dataclass
class Trick:
    """One trick as the wire tells it: plays and passes in order, and who took it."""

    entries: list[tuple[str, int, list[str]]] = field(default_factory=list)
    winner: int | None = None
    dragon_recipient: int | None = None


def tricks(wire: Wire) -> tuple[list[Trick], Trick]:
    """The tricks taken in the current round and the open one, from the notifications."""
    taken: list[Trick] = []
    current = Trick()
    for message in wire.received():
        if message.get("type") != "notification":
            continue
        event, context = message["payload"]["event"], message["payload"]["context"]
        if event == "round_started":
            taken, current = [], Trick()
        elif event == "player_played":
            seat, cards = context["turn"][0], context["turn"][1]
            current.entries.append(("play", seat, sorted(card_label(card) for card in cards)))
        elif event == "player_passed":
            current.entries.append(("pass", context["player_index"], []))
        elif event == "trick_taken":
            current.winner, current.dragon_recipient = context["player_index"], context["dragon_recipient"]
            taken.append(current)
            current = Trick()
    return taken, current


def played_this_round(wire: Wire) -> list[list[int]]:
    """Every card played in the current round."""
    cards: list[list[int]] = []
    for message in wire.received():
        if message.get("type") == "notification":
            event, context = message["payload"]["event"], message["payload"]["context"]
            if event == "round_started":
                cards = []
            elif event == "player_played":
                cards.extend(context["turn"][1])
    return cards


#: The suits' names on an English page (web/js/i18n.js ``suit.1``..``suit.4``).
SUIT_NAMES = {1: "Swords", 2: "Pagodas", 3: "Jade", 4: "Stars"}


def told_unseen_bombs(wire: Wire) -> Message:
    """The ``unseen_bombs`` of the last ``private_state`` the seat was told (issue 36)."""
    told: Message = {}
    for message in wire.received():
        if message.get("type") == "notification":
            event, context = message["payload"]["event"], message["payload"]["context"]
            if event == "private_state_changed" or (event == "player_joined" and "session_id" in context):
                told = context["private_state"]["unseen_bombs"]
    return told


def play_request(wire: Wire) -> Message | None:
    """The open ``play`` request, or ``None``."""
    request = wire.open_request()
    return request if request is not None and request["action"] == "play" else None


async def start_game(tab: Tab, server: LiveServer, name: str, table: str) -> Player:
    """Log in alone, start, and return a :class:`Player` for the seat."""
    await start_alone(tab, server, name, table)
    return Player(tab)


async def play_until_turn(player: Player, wanted: Callable[[Message, Wire], bool], what: str) -> Message:
    """Play by clicks until a ``play`` request for which ``wanted(request, wire)`` holds is open."""
    def stop(wire: Wire) -> bool:
        request = play_request(wire)
        return bool(player.received_rounds) and request is not None and wanted(request, wire)

    try:
        await player.play_until(stop, ROUND_WAIT)
    except AssertionError as error:
        raise AssertionError(f"never reached {what}: {error}") from None
    request = play_request(player.tab.wire)
    assert request is not None
    await player.tab.until(lambda: _hand_count(player.tab, len(request["context"]["hand_cards"])),
                           "the hand of the request is drawn")
    return request


async def _hand_count(tab: Tab, count: int) -> bool:
    return await tab.count("#hand .card") == count


async def hand_order(tab: Tab) -> list[str]:
    """The ``data-card`` of the hand's cards in their order on screen."""
    keys = await tab.page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
    return [str(key) for key in keys]


async def seat_names(tab: Tab) -> dict[int, str]:
    """The names the seats show."""
    return {seat: (await tab.page.locator(f'.seat[data-seat="{seat}"] .seat-name').text_content() or "").strip()
            for seat in range(4)}


async def test_each_play_of_the_trick_is_labelled_and_the_last_trick_reviewable(
        server: LiveServer, open_page: OpenPage, shots: Shots) -> None:
    """At the own turn in a trick with plays of several seats, ``#trick`` shows one
    ``.trick-turn`` per seat that played (``data-seat``, the seat's name, its latest cards), the
    newest with the class ``latest``. After a trick was taken, ``#btn-last-trick`` opens
    ``#dialog-review``: its rows name every play and pass of that trick in order with the cards
    the wire said, who took it (and the Dragon's recipient); the "Cards out" tab counts the Aces
    still out; Escape closes it."""
    tab = await open_page(PHONE, "labels")
    player = await start_game(tab, server, "Lia", "labels")

    def several_seats(request: Message, wire: Wire) -> bool:
        return len({seat for kind, seat, _ in tricks(wire)[1].entries if kind == "play"}) >= 2

    await play_until_turn(player, several_seats, "a turn in a trick with plays of two seats")
    names = await seat_names(tab)
    current = tricks(tab.wire)[1]
    latest: dict[int, list[str]] = {}
    for kind, seat, cards in current.entries:
        if kind == "play":
            latest[seat] = cards
    newest = [seat for kind, seat, _ in current.entries if kind == "play"][-1]
    await tab.until(lambda: _turns_count(tab, len(latest)), f"#trick shows one play per seat {sorted(latest)}")
    for seat, cards in latest.items():
        turn = f'#trick .trick-turn[data-seat="{seat}"]'
        assert (await tab.texts(f"{turn} .trick-turn-name")) == [names[seat]], f"{turn} is not named {names[seat]}"
        shown = sorted(await tab.page.eval_on_selector_all(f"{turn} .card", "els => els.map(e => e.dataset.card)"))
        assert shown == cards, f"{turn} shows {shown}, the wire said {cards}"
    assert await tab.page.eval_on_selector_all("#trick .trick-turn.latest", "els => els.map(e => e.dataset.seat)") \
        == [str(newest)], "the newest play is not the one marked latest"
    await shots.take(tab, "table-trick-labels")

    await play_until_turn(player, lambda request, wire: len(tricks(wire)[0]) >= 1, "a turn after a trick was taken")
    taken = tricks(tab.wire)[0][-1]
    await tab.click("#btn-last-trick")
    await tab.until(lambda: tab.visible("#dialog-review"), "#btn-last-trick opens #dialog-review")
    rows = await tab.page.eval_on_selector_all("#review-trick .review-play", """els => els.map(e => ({
        seat: Number(e.dataset.seat), name: e.querySelector('.review-name').textContent.trim(),
        pass: e.classList.contains('pass'),
        cards: [...e.querySelectorAll('.card')].map(c => c.dataset.card).sort()}))""")
    expected = [{"seat": seat, "name": names[seat], "pass": kind == "pass", "cards": cards}
                for kind, seat, cards in taken.entries]
    assert rows == expected, f"the review shows {rows}, the wire said {expected}"
    winner = await tab.page.locator("#review-trick .review-taken").get_attribute("data-seat")
    assert taken.winner is not None and winner == str(taken.winner), \
        f"the review says seat {winner} took the trick, the wire {taken.winner}"
    assert names[taken.winner] in (await tab.texts("#review-trick .review-taken"))[0]
    if taken.dragon_recipient is not None:
        assert names[taken.dragon_recipient] in (await tab.texts("#review-trick .review-dragon"))[0]
    await shots.take(tab, "table-review-trick")

    await tab.click("#review-tab-cards")
    await tab.until(lambda: tab.visible("#review-cards .review-fact"), "the Cards out tab shows its facts")
    request = play_request(tab.wire)
    assert request is not None
    known = played_this_round(tab.wire) + request["context"]["hand_cards"]
    aces_out = 4 - sum(1 for card in known if card[0] == 14)
    assert (await tab.texts('#review-cards .review-fact[data-fact="aces"] dd')) == [str(aces_out)]
    # Issue 36: the bombs the cards out could form are the server's list (R3.7), not the page's reckoning
    unseen = told_unseen_bombs(tab.wire)
    [fours] = await tab.texts('#review-cards .review-fact[data-fact="four-of-a-kind"] dd')
    count = len(unseen["four_of_a_kind"])
    assert fours.startswith(f"{count} (") if count else fours == "none", f"four of a kind {fours!r}, the wire: {unseen}"
    suits = ", ".join(SUIT_NAMES[suit] for suit in unseen["straight_flush"]) or "none"
    assert (await tab.texts('#review-cards .review-fact[data-fact="straight-flush"] dd')) == [suits], unseen
    await shots.take(tab, "table-review-cards")
    await tab.page.keyboard.press("Escape")
    await tab.until(lambda: _hidden(tab, "#dialog-review"), "Escape closes #dialog-review")
    assert await tab.page.evaluate("() => document.activeElement.id") == "btn-last-trick", \
        "the focus does not go back to #btn-last-trick"
    assert not tab.wire.unexplained_errors()
    shots.assert_layout()


async def _turns_count(tab: Tab, count: int) -> bool:
    return await tab.count("#trick .trick-turn") == count


async def _hidden(tab: Tab, selector: str) -> bool:
    return not await tab.visible(selector)


async def test_auto_pass_passes_exactly_until_the_next_trick(server: LiveServer, open_page: OpenPage,
                                                             shots: Shots) -> None:
    """Switched on at a turn where passing is legal, "Pass until next trick" (``#auto-pass-trick``,
    ``aria-pressed``) answers that request and every later ``play`` request of the same trick
    with a pass, without a click; when the trick is taken it switches itself off and the first
    ``play`` request after it is left to the player."""
    tab = await open_page(DESKTOP, "autopass")
    player = await start_game(tab, server, "Abe", "autopass")
    first = await play_until_turn(player, lambda request, wire: [] in request["context"]["legal_plays"],
                                  "a turn where passing is legal")
    rounds_before = tab.wire.count("round_started")
    trick_events = tab.wire.count("trick_taken")
    start = len(tab.wire.frames)
    await tab.click("#auto-pass-trick")
    await tab.until(lambda: _attribute_is(tab, "#auto-pass-trick", "aria-pressed", "true"),
                    "#auto-pass-trick is pressed after the click")
    await shots.take(tab, "table-auto-pass", both=False)
    deadline = asyncio.get_running_loop().time() + ROUND_WAIT
    while tab.wire.count("trick_taken") == trick_events:
        assert asyncio.get_running_loop().time() < deadline, f"the trick was never taken; {await tab.describe()}"
        assert tab.wire.count("round_started") == rounds_before, "a new round began before the trick was taken"
        request = play_request(tab.wire)
        if request is not None and [] not in request["context"]["legal_plays"]:
            await asyncio.sleep(LEFT_ALONE)  # passing is not legal: the page leaves it to the player
            assert not tab.wire.answered(request["request_id"]), "auto-pass answered a request that may not pass"
            await player.step()
        await asyncio.sleep(0.05)
    responses = [frame.message["payload"] for frame in tab.wire.frames[start:]
                 if frame.direction == "out" and frame.message.get("type") == "response"]
    passed = [response["request_id"] for response in responses if response["response_data"] == {"cards": []}]
    assert first["request_id"] in passed, "the request open when auto-pass was switched on was not passed"
    in_trick: list[str] = []
    for frame in tab.wire.frames[start:]:
        message = frame.message
        if frame.direction == "in" and message.get("type") == "notification" \
                and message["payload"]["event"] == "trick_taken":
            break
        if frame.direction == "in" and message.get("type") == "request" and message["payload"]["action"] == "play" \
                and [] in message["payload"]["context"]["legal_plays"]:
            in_trick.append(message["payload"]["request_id"])
    assert set(in_trick) <= set(passed), f"play requests of the trick not passed: {set(in_trick) - set(passed)}"
    assert all(response["response_data"] == {"cards": []} for response in responses), \
        f"auto-pass sent more than passes: {responses}"
    await tab.until(lambda: _attribute_is(tab, "#auto-pass-trick", "aria-pressed", "false"),
                    "#auto-pass-trick switches itself off when the trick is taken")

    def next_play_request(wire: Wire) -> bool:
        return play_request(wire) is not None or wire.count("round_over") > 0

    await tab.until(lambda: next_play_request(tab.wire), "a play request after the trick", timeout=WAIT * 2)
    request = play_request(tab.wire)
    if request is not None:
        await asyncio.sleep(LEFT_ALONE)
        assert not tab.wire.answered(request["request_id"]), \
            "the first play request after the trick was answered without the player"
        await player.step()
        assert tab.wire.answered(request["request_id"]) or play_request(tab.wire) is None
    assert not tab.wire.unexplained_errors()
    shots.assert_layout()


async def _attribute_is(tab: Tab, selector: str, name: str, value: str) -> bool:
    return await tab.page.get_attribute(selector, name) == value


def by_suit(keys: list[str]) -> list[str]:
    """Card keys sorted by suit (the special cards first), then value."""
    return sorted(keys, key=lambda key: (int(key.split("-")[1]), int(key.split("-")[0])))


def by_rank(keys: list[str]) -> list[str]:
    """Card keys sorted by value, then suit."""
    return sorted(keys, key=lambda key: (int(key.split("-")[0]), int(key.split("-")[1])))


async def test_hand_sorts_by_suit_or_rank_and_a_card_moves(server: LiveServer, open_page: OpenPage,
                                                          shots: Shots) -> None:
    """``#btn-sort`` sorts the hand by suit (``aria-pressed="true"``) and back by rank; a card
    dragged onto another's place moves there, and a tap still selects and unselects; Shift+Arrow
    moves the focused card one place; the arranged order holds after a play."""
    tab = await open_page(DESKTOP, "sorting")
    player = await start_game(tab, server, "Sol", "sorting")
    await play_until_turn(player, lambda request, wire: True, "the first own turn")
    order = await hand_order(tab)
    assert order == by_rank(order), f"the hand is not sorted by rank: {order}"
    await tab.click("#btn-sort")
    await tab.until(lambda: _order_is(tab, by_suit(order)), "#btn-sort sorts the hand by suit")
    assert await tab.page.get_attribute("#btn-sort", "aria-pressed") == "true"
    await shots.take(tab, "table-sorted-by-suit")
    await tab.click("#btn-sort")
    await tab.until(lambda: _order_is(tab, by_rank(order)), "#btn-sort again sorts the hand by rank")

    first, target = tab.page.locator("#hand .card").nth(0), tab.page.locator("#hand .card").nth(4)
    start, end = await first.bounding_box(), await target.bounding_box()
    assert start is not None and end is not None
    await tab.page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    await tab.page.mouse.down()
    for step in range(1, 11):
        await tab.page.mouse.move(start["x"] + start["width"] / 2 + (end["x"] - start["x"]) * step / 10,
                                  start["y"] + start["height"] / 2 + (end["y"] - start["y"]) * step / 10)
    await tab.page.mouse.up()
    moved = by_rank(order)
    moved.insert(4, moved.pop(0))
    await tab.until(lambda: _order_is(tab, moved), f"the dragged card {order[0]} lands at place 5")
    assert await tab.count("#hand .card.selected") == 0, "the drag selected a card"

    card = f'#hand .card[data-card="{moved[2]}"]'
    await tab.click(card)
    await tab.until(lambda: tab.visible(f"{card}.selected"), "a tap still selects a card")
    assert await tab.page.get_attribute(card, "aria-pressed") == "true"
    await tab.click(card)
    await tab.until(lambda: _count_is(tab, "#hand .card.selected", 0), "a second tap unselects it")

    await tab.page.focus(f'#hand .card[data-card="{moved[0]}"]')
    await tab.page.keyboard.press("Shift+ArrowRight")
    shifted = moved[:]
    shifted.insert(1, shifted.pop(0))
    await tab.until(lambda: _order_is(tab, shifted), "Shift+ArrowRight moves the focused card one place")
    assert await tab.page.evaluate("() => document.activeElement.dataset.card") == moved[0], \
        "the moved card keeps the focus"
    await tab.page.keyboard.press("ArrowRight")
    assert await tab.page.evaluate("() => document.activeElement.dataset.card") == shifted[2], \
        "ArrowRight moves the focus to the next card"

    request = play_request(tab.wire)
    assert request is not None
    await player.step()
    played = {card_label(card) for card in next(m["payload"]["response_data"]["cards"] for m in tab.wire.sent()
                                                  if m.get("type") == "response"
                                                  and m["payload"]["request_id"] == request["request_id"])}
    if tab.wire.count("round_started") == 1 and not tab.wire.count("round_over"):
        remaining = [key for key in shifted if key not in played]
        await tab.until(lambda: _order_is(tab, remaining), "the arranged order holds after a play")
    assert not tab.wire.unexplained_errors()
    shots.assert_layout()


async def _order_is(tab: Tab, keys: list[str]) -> bool:
    return await hand_order(tab) == keys


async def _count_is(tab: Tab, selector: str, count: int) -> bool:
    return await tab.count(selector) == count


async def test_keyboard_selects_plays_and_passes(server: LiveServer, open_page: OpenPage, shots: Shots) -> None:
    """A touch tap on a hand card selects and unselects it. With the keyboard only: on a
    lead, the focus on a hand card, Space selects it
    (``aria-pressed``) and Enter plays it (the wire carries that card); at a later turn where
    passing is legal, P passes."""
    tab = await open_page(PHONE, "keys")
    player = await start_game(tab, server, "Kim", "keys")
    request = await play_until_turn(player, lambda request, wire: request["context"]["trick_combination"] is None
                                    and [] not in request["context"]["legal_plays"], "an own lead")
    singles = {card_label(play[0]) for play in request["context"]["legal_plays"] if len(play) == 1}
    order = await hand_order(tab)
    tapped = tab.page.locator(f'#hand .card[data-card="{order[-1]}"]')
    await tapped.tap()  # a touch tap still selects (the hand cards take no touch scrolling: drag)
    await tab.until(lambda: _count_is(tab, "#hand .card.selected", 1), "a tap selects a hand card")
    await tapped.tap()
    await tab.until(lambda: _count_is(tab, "#hand .card.selected", 0), "a second tap unselects it")
    index = next(i for i, key in enumerate(order) if key in singles and not key.startswith(("0-", "1-")))
    await tab.page.focus("#hand .card >> nth=0")
    for _ in range(index):
        await tab.page.keyboard.press("ArrowRight")
    assert await tab.page.evaluate("() => document.activeElement.dataset.card") == order[index]
    await tab.page.keyboard.press("Space")
    card = f'#hand .card[data-card="{order[index]}"]'
    await tab.until(lambda: tab.visible(f"{card}.selected"), "Space selects the focused card")
    assert await tab.page.get_attribute(card, "aria-pressed") == "true"
    await tab.until(lambda: tab.enabled("#btn-play"), "#btn-play enabled for the selected single")
    await tab.page.keyboard.press("Enter")
    await tab.until(lambda: tab.wire.answered(request["request_id"]), "Enter plays the selection")
    response = next(m["payload"] for m in tab.wire.sent()
                    if m.get("type") == "response" and m["payload"]["request_id"] == request["request_id"])
    assert [card_label(c) for c in response["response_data"]["cards"]] == [order[index]]

    request = await play_until_turn(player, lambda request, wire: [] in request["context"]["legal_plays"]
                                    and request["request_id"] != response["request_id"],
                                    "a turn where passing is legal")
    await tab.until(lambda: tab.enabled("#btn-pass"), "#btn-pass enabled")
    await tab.page.evaluate("() => document.activeElement && document.activeElement.blur()")
    await tab.page.keyboard.press("p")
    await tab.until(lambda: tab.wire.answered(request["request_id"]), "P passes")
    response = next(m["payload"] for m in tab.wire.sent()
                    if m.get("type") == "response" and m["payload"]["request_id"] == request["request_id"])
    assert response["response_data"] == {"cards": []}
    await shots.take(tab, "table-keyboard")
    assert not tab.wire.unexplained_errors()
    shots.assert_layout()


def _play_request(request_id: str, hand: list[list[int]], legal: list[list[list[int]]]) -> str:
    return json.dumps({"type": "request", "payload": {"request_id": request_id, "action": "play", "timeout": None,
                                                      "context": {"hand_cards": hand,
                                                                  "trick_combination": ["single", 1, 5],
                                                                  "trick_owner_index": 1, "wish_value": 0,
                                                                  "legal_plays": legal, "hint": None}}})


async def test_auto_pass_leaves_a_bomb_and_a_forced_play_to_the_player(server: LiveServer, open_page: OpenPage) -> None:
    """Against a scripted socket: with "Pass, but let me bomb" on, a play request while the
    server's private state offers a bomb (R4.3: at the own turn its ``bombs`` are the legal
    bombs) is left to the player (Pass still works by click); once ``private_state_changed`` says
    no bomb may land (four Kings thrown, R3.8) a request is passed without a click, one where
    passing is not legal (the wish) is left alone, and ``trick_taken`` switches the toggle off."""
    tab = await open_page(PHONE, "bomb-mode")
    sent: list[Message] = []
    sevens = [[7, 1], [7, 2], [7, 3], [7, 4]]
    hand = [*sevens, [9, 1], [12, 2]]
    public = {"table_name": "mock", "player_names": ["Bo", "", "", ""], "host_index": 0, "is_running": True,
              "phase": "playing", "round_index": 0, "current_turn_index": 1, "count_hand_cards": [6, 13, 14, 14],
              "announcements": [0, 0, 0, 0], "wish_value": 0, "wish_open": False,
              "trick_turns": [[1, [[5, 1]], ["single", 1, 5]]], "trick_owner_index": 1, "trick_points": 5,
              "points": [0, 0, 0, 0], "tricks_won": [0, 0, 0, 0], "out_order": [], "played_cards": [[5, 1]],
              "round_scores": [], "total": [0, 0], "passed": []}
    private = {"player_index": 0, "hand_cards": hand, "given_schupf_cards": None, "received_schupf_cards": None,
               "may_announce": False, "bombs": [sevens]}
    joined = {"player_index": 0, "player_name": "Bo", "session_id": "s-1", "protocol_version": 1,
              "pending_request": None, "public_state": public, "private_state": private}

    sockets = await join_scripted_table(tab, server.url, "Bo", joined, lambda text: sent.append(json.loads(text)))

    def answered(request_id: str) -> bool:
        return any(m.get("type") == "response" and m["payload"]["request_id"] == request_id for m in sent)

    await tab.click("#auto-pass-bomb")
    await tab.until(lambda: _attribute_is(tab, "#auto-pass-bomb", "aria-pressed", "true"), "#auto-pass-bomb on")
    sockets[-1].send(_play_request("r1", hand, [[], sevens, [[9, 1]], [[12, 2]]]))
    await asyncio.sleep(LEFT_ALONE)
    assert not answered("r1"), "auto-pass passed a request where the player may bomb"
    await tab.until(lambda: tab.enabled("#btn-pass"), "#btn-pass enabled for the request left to the player")
    await tab.click("#btn-pass")
    await tab.until(lambda: answered("r1"), "a click on Pass answers the request")

    kings = [[13, 1], [13, 2], [13, 3], [13, 4]]
    sockets[-1].send(notification("player_played", {"turn": [2, kings, ["bomb", 4, 13]], "trick_points": 45,
                                                     "trick_owner_index": 2, "is_bomb": True, "out_of_turn": True}))
    sockets[-1].send(notification("private_state_changed", {"private_state": {**private, "bombs": []}}))
    sockets[-1].send(_play_request("r2", hand, [[]]))
    await tab.until(lambda: answered("r2"), "auto-pass passes a request without a bomb")
    response = next(m["payload"] for m in sent if m.get("type") == "response" and m["payload"]["request_id"] == "r2")
    assert response["response_data"] == {"cards": []}
    sockets[-1].send(_play_request("r3", hand, [[[12, 2]]]))
    await asyncio.sleep(LEFT_ALONE)
    assert not answered("r3"), "auto-pass passed where passing is not legal"
    sockets[-1].send(notification("trick_taken", {"player_index": 2, "points": 45, "dragon_recipient": None}))
    await tab.until(lambda: _attribute_is(tab, "#auto-pass-bomb", "aria-pressed", "false"),
                    "trick_taken switches #auto-pass-bomb off")
