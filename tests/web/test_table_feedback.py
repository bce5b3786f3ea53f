"""What the table tells the player, in the browser (issue 11, items 2, 6, 11 and 12).

Each test plays a real table by clicks in Chromium at phone (390x844) and laptop (1366x768)
size, against a live server with seeded deals; the page's :class:`~tests.support.browser.Wire`
only tells the test when to act and what the server said. A double victory's result panel is
checked after a real round (the seed ends round 1 in one) and, with a Tichu bonus and at full
HD too, from scripted server messages on a mocked WebSocket, as ``test_table_tools.py`` does.

Seeds (the first deal of every game on a server with that seed):

- :data:`AGENT_LEADS_SEED`: an agent (seat 1) holds the Mah Jong, so the agents play before
  the own first turn; the player (by the server's hints) and the partner win round 1 with a
  double victory;
- :data:`MAH_JONG_AND_BOMB_SEED`: seat 0 holds the Mah Jong and four Jacks (a bomb) and keeps
  them through the push (:data:`~tests.support.clicks.PUSHABLE` pushes the lowest plain cards).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import pytest

from tests.support.browser import (
    DESKTOP,
    FULL_HD,
    PHONE,
    ROUND_WAIT,
    OpenPage,
    Size,
    Tab,
    Wire,
    join_scripted_table,
    notification,
)
from tests.support.clicks import Player, card_label, chosen_play, round_over, start_alone
from tests.support.live_server import WAIT, LiveServer, Message, StartServer
from tichu.core.round import ANNOUNCE_NONE, ANNOUNCE_TICHU

if TYPE_CHECKING:
    pass

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Seat 1 holds the Mah Jong: the agents lead.
AGENT_LEADS_SEED = 7
#: Seat 0 holds the Mah Jong and four Jacks (and keeps both through the push).
MAH_JONG_AND_BOMB_SEED = 49
MAH_JONG = "1-0"
JACKS = ("11-1", "11-2", "11-3", "11-4")

#: Both sizes of the Done-means of issue 11, as a parameter.
SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "laptop"])

#: Records what the page shows of the turn after each render of the table (a mutation
#: observer runs once the render's changes are done), in ``window.turnViews``: the status line,
#: the seats marked ``turn`` and ``own``, the seats' names, the trick's visible cards, the
#: received cards and the main button. The agents play every 0.05 s, so a poll could miss a turn.
_RECORD_TURNS_JS = """() => {
    const shown = el => !!el && !el.closest('[hidden]') &&
        el.checkVisibility({opacityProperty: true, visibilityProperty: true});
    const look = () => {
        const names = {};
        document.querySelectorAll('#view-table .seat').forEach(seat => {
            names[seat.dataset.seat] = seat.querySelector('.seat-name').textContent.trim(); });
        return {
            status: document.getElementById('status').textContent.trim(),
            turn: [...document.querySelectorAll('#view-table .seat.turn')].map(seat => seat.dataset.seat),
            own: [...document.querySelectorAll('#view-table .seat.own')].map(seat => seat.dataset.seat),
            names: names,
            trickShown: shown(document.getElementById('trick')),
            trickCards: [...document.querySelectorAll('#trick .card')].filter(shown).length,
            received: document.querySelectorAll('#hand .card.received').length,
            play: document.getElementById('btn-play').textContent.trim(),
        };
    };
    window.turnViews = [look()];
    const note = () => {
        const view = look(), last = window.turnViews[window.turnViews.length - 1];
        if (JSON.stringify(view) !== JSON.stringify(last)) window.turnViews.push(view);
    };
    new MutationObserver(note).observe(document.getElementById('view-table'),
        {subtree: true, childList: true, attributes: true, characterData: true});
}"""


async def record_turns(tab: Tab) -> None:
    """Start recording what the table shows of the turn (:data:`_RECORD_TURNS_JS`)."""
    await tab.page.evaluate(_RECORD_TURNS_JS)


async def until_shown(tab: Tab, holds: Callable[[dict[str, Any]], bool], what: str,
                      timeout: float = WAIT) -> dict[str, Any]:
    """The first look recorded since :func:`record_turns` for which ``holds`` is true (waiting
    for it); on a timeout the failure names the last looks."""
    views: list[dict[str, Any]] = []

    async def found() -> bool:
        views[:] = await tab.page.evaluate("() => window.turnViews")
        return any(holds(view) for view in views)

    try:
        await tab.until(found, what, timeout)
    except AssertionError as error:
        raise AssertionError(f"{error}\n the last looks at the table: {views[-3:]}") from None
    return next(view for view in views if holds(view))


async def status(tab: Tab) -> str:
    """The text of ``#status``."""
    return (await tab.texts("#status") or [""])[0]


def play_request(wire: Wire) -> Message | None:
    """The open ``play`` request, or ``None``."""
    request = wire.open_request()
    return request if request is not None and request["action"] == "play" else None


async def until_pushed(player: Player) -> None:
    """Continue in the Grand Tichu step and push by clicks, until ``start_playing`` arrived and
    the page shows the three received cards in the hand (:meth:`Player.see_received`)."""
    await player.play_until(lambda wire: 1 in player.received_rounds, ROUND_WAIT)


async def own_turn(player: Player, wanted: Callable[[Message], bool], what: str) -> Message:
    """Play by clicks until a ``play`` request for which ``wanted`` holds is open, and its hand drawn."""
    tab = player.tab

    def stop(wire: Wire) -> bool:
        request = play_request(wire)
        return bool(player.received_rounds) and request is not None and wanted(request)

    try:
        await player.play_until(stop, ROUND_WAIT)
    except AssertionError as error:
        raise AssertionError(f"never reached {what}: {error}") from None
    request = play_request(tab.wire)
    assert request is not None
    await tab.until(lambda: _count_is(tab, "#hand .card", len(request["context"]["hand_cards"])),
                    "the hand of the play request is drawn")
    return request


async def select(tab: Tab, cards: list[str]) -> None:
    """Click these hand cards (not selected yet) and wait until exactly they are selected."""
    for card in cards:
        await tab.click(f'#hand .card[data-card="{card}"]:not(.selected)')
    await tab.until(lambda: _selected_are(tab, cards), f"the hand cards {cards} selected")


async def _selected_are(tab: Tab, cards: list[str]) -> bool:
    selected = await tab.page.eval_on_selector_all("#hand .card.selected", "els => els.map(e => e.dataset.card)")
    return sorted(selected) == sorted(cards)


async def _count_is(tab: Tab, selector: str, count: int) -> bool:
    return await tab.count(selector) == count


async def _text_is(tab: Tab, selector: str, text: str) -> bool:
    return (await tab.texts(selector) or [""])[0] == text


async def _hidden(tab: Tab, selector: str) -> bool:
    return not await tab.visible(selector)


def _single_keys(request: Message) -> set[str]:
    return {card_label(play[0]) for play in request["context"]["legal_plays"] if len(play) == 1}


def _plain(card: list[int]) -> bool:
    return 2 <= card[0] <= 14


# -- issue 23, finding 11: received cards go straight into the hand -------------------------------


@SIZES
async def test_received_cards_go_straight_into_the_hand(start_server: StartServer, open_page: OpenPage,
                                                        size: Size) -> None:
    """Issue 23, finding 11: no "Pick up" click that costs clock time: right after the exchange
    the hand holds 14 cards, the three received ones outlined (``.received``), the push zones are
    gone, and holding the Mah Jong the page says "Your lead." with Play offered; the outline goes
    with the first own play."""
    server = await start_server(seed=MAH_JONG_AND_BOMB_SEED)
    tab = await open_page(size, "received")
    await start_alone(tab, server, "Lev", f"received-{size.name}")
    await record_turns(tab)
    player = Player(tab)
    await until_pushed(player)
    await tab.until(lambda: play_request(tab.wire) is not None, "the own play request (the Mah Jong leads)")

    def own_lead_shown(view: dict[str, Any]) -> bool:
        return bool(view["status"] == "Your lead." and view["turn"] == view["own"] and view["received"] == 3)

    view = await until_shown(tab, own_lead_shown, "#status says it is the own lead, the received cards outlined")
    assert view["play"] == "Play", f"#btn-play reads {view['play']!r}, not Play"
    assert MAH_JONG in await tab.hand() and len(await tab.hand()) == 14
    request = play_request(tab.wire)
    assert request is not None
    await player.step()
    await tab.until(lambda: _count_is(tab, "#hand .card.received", 0), "the outline goes with the first own play")
    assert not tab.wire.unexplained_errors()


# -- item 11: no bomb while the Mah Jong's wish is chosen -----------------------------------------


#: Records, in ``window.bombShown``, every moment ``#btn-bomb`` is shown while the page has
#: not answered the wish (from the click that plays the Mah Jong on).
_RECORD_BOMB_JS = """() => {
    window.bombShown = [];
    const bomb = document.getElementById('btn-bomb'), dialog = document.getElementById('dialog-wish');
    let wishAnswered = false;
    dialog.addEventListener('click', event => { if (event.target.closest('button[data-wish]')) wishAnswered = true; });
    new MutationObserver(() => {
        if (!bomb.hidden && !wishAnswered) window.bombShown.push(document.getElementById('status').textContent);
    }).observe(bomb, {attributes: true});
}"""


@SIZES
async def test_no_bomb_button_while_the_wish_is_chosen(start_server: StartServer, open_page: OpenPage,
                                                       size: Size) -> None:
    """Issue 11, item 11: holding the Mah Jong and four Jacks, the player leads; ``#btn-bomb``
    is offered at the lead (the bomb is a legal play), but once the Mah Jong is played and
    ``#dialog-wish`` asks for the wish, no bomb button is shown (the server would refuse a
    bomb then); the wish chosen by click is accepted."""
    server = await start_server(seed=MAH_JONG_AND_BOMB_SEED)
    tab = await open_page(size, "wish-bomb")
    await start_alone(tab, server, "Wil", f"wish-bomb-{size.name}")
    player = Player(tab)
    request = await own_turn(player, lambda request: request["context"]["trick_combination"] is None,
                             "the own lead with the Mah Jong")
    hand = {card_label(card) for card in request["context"]["hand_cards"]}
    assert MAH_JONG in hand and set(JACKS) <= hand, f"seed {MAH_JONG_AND_BOMB_SEED} no longer deals the Mah Jong " \
                                                    f"and four Jacks to seat 0: {sorted(hand)}"
    await tab.until(lambda: tab.visible("#btn-bomb"), "#btn-bomb offered at the lead with four Jacks")
    await select(tab, [MAH_JONG])
    await tab.until(lambda: tab.enabled("#btn-play"), "#btn-play enabled for the Mah Jong")
    await tab.page.evaluate(_RECORD_BOMB_JS)
    await tab.click("#btn-play")
    await tab.until(lambda: (tab.wire.open_request() or {}).get("action") == "wish", "the wish request")
    await tab.until(lambda: tab.visible("#dialog-wish"), "#dialog-wish shown")
    await tab.next_frame()
    assert await tab.page.locator("#btn-bomb").is_hidden(), \
        f"#btn-bomb is offered while the wish is chosen; {await tab.describe()}"
    wish = tab.wire.open_request()
    assert wish is not None
    await tab.click('#dialog-wish button[data-wish="9"]')
    await tab.until(lambda: tab.wire.answered(wish["request_id"]), "the wish is sent")
    await tab.until(lambda: _hidden(tab, "#dialog-wish"), "#dialog-wish closes")
    shown = await tab.page.evaluate("() => window.bombShown")
    assert not shown, f"#btn-bomb was shown between the Mah Jong and its wish: {shown}"
    assert not tab.wire.unexplained_errors()
    assert "bomb" not in [message.get("type") for message in tab.wire.sent()]


# -- item 12: Play says why, proposes nothing; Tichu asks first; the status speaks to the player --


@SIZES
async def test_an_invalid_selection_greys_out_play_and_says_why(start_server: StartServer, open_page: OpenPage,
                                                                size: Size) -> None:
    """Issue 11, item 12 (a): at the own lead, two cards of different values (no combination)
    grey out ``#btn-play`` and ``#status`` says "Not a valid combination."; one of them alone
    enables Play and the reason goes. At a later turn over a trick, a card that does not beat
    it greys out Play and ``#status`` says "That does not beat the …" (on a Single; on a longer
    combination it forms no combination that goes on it)."""
    server = await start_server(seed=MAH_JONG_AND_BOMB_SEED)
    tab = await open_page(size, "why-not")
    await start_alone(tab, server, "Yara", f"why-{size.name}")
    player = Player(tab)
    request = await own_turn(player, lambda request: request["context"]["trick_combination"] is None, "the own lead")
    await tab.until(lambda: _text_is(tab, "#status", "Your lead."), '#status reads "Your lead."')
    plain = sorted((card for card in request["context"]["hand_cards"] if _plain(card)), key=lambda card: card[0])
    first = plain[0]
    second = next(card for card in plain if card[0] != first[0])
    await select(tab, [card_label(first), card_label(second)])
    await tab.until(lambda: _text_is(tab, "#status", "Not a valid combination."),
                    "#status says why two cards of different values cannot be played")
    assert not await tab.enabled("#btn-play"), "#btn-play enabled for a selection that is no combination"
    await tab.click(f'#hand .card.selected[data-card="{card_label(second)}"]')
    await tab.until(lambda: tab.enabled("#btn-play"), "#btn-play enabled for a single card")
    await tab.until(lambda: _text_is(tab, "#status", "Your lead."), "the reason goes once the selection is legal")
    await tab.click(f'#hand .card.selected[data-card="{card_label(first)}"]')
    await tab.until(lambda: _count_is(tab, "#hand .card.selected", 0), "the selection cleared")

    def beatable_by_less(request: Message) -> bool:
        hand = {card_label(card) for card in request["context"]["hand_cards"]}
        return request["context"]["trick_combination"] is not None and bool(hand - _single_keys(request)) \
            and any(play for play in request["context"]["legal_plays"])

    request = await own_turn(player, beatable_by_less, "a turn over a trick, holding a card that does not beat it")
    weak = sorted(card_label(card) for card in request["context"]["hand_cards"]
                  if card_label(card) not in _single_keys(request))[0]
    combination = request["context"]["trick_combination"][0]
    await select(tab, [weak])
    names = {"single": "Single", "pair": "Pair", "triple": "Triple", "stair": "Stairs", "fullhouse": "Full house",
             "street": "Straight", "bomb": "Bomb"}
    reason = (f"That does not beat the {names[combination]}." if request["context"]["trick_combination"][1] == 1
              else f"These cards form no combination that goes on the {names[combination]}.")
    await tab.until(lambda: _text_is(tab, "#status", reason), f"#status says why {weak} cannot go on the {combination}")
    assert not await tab.enabled("#btn-play"), f"#btn-play enabled for {weak}, which does not beat the trick"
    assert not tab.wire.unexplained_errors()


@SIZES
async def test_play_never_reads_select_nor_proposes_a_play(start_server: StartServer, open_page: OpenPage,
                                                           size: Size) -> None:
    """Issue 11, item 12 (b): at every own turn of a round played by clicks, with nothing
    selected the main button reads "Play" (or "No move"), never "Select", is disabled, and no
    hand card is selected for the player, also where the partner owns the trick and the
    player could top it."""
    server = await start_server(seed=AGENT_LEADS_SEED, target_score=1000)
    tab = await open_page(size, "no-proposal")
    await start_alone(tab, server, "Nell", f"no-proposal-{size.name}")
    player = Player(tab)
    checked: set[str] = set()
    over_partner = 0
    while over_partner == 0 or len(checked) < 4:
        assert len(checked) < 60, f"no own turn over the partner's trick in {len(checked)} turns"
        request = await own_turn(player, lambda request: request["request_id"] not in checked, "a new own turn")
        checked.add(request["request_id"])
        context = request["context"]
        can_play = any(play for play in context["legal_plays"])
        label = "Play" if can_play else "No move"
        await tab.until(partial(_text_is, tab, "#btn-play", label), f'#btn-play reads "{label}" at the own turn')
        assert await tab.count("#hand .card.selected") == 0, \
            f"a hand card is selected for the player at the start of a turn; {await tab.describe()}"
        assert not await tab.enabled("#btn-play"), f"#btn-play proposes a play with nothing selected; " \
                                                   f"{await tab.describe()}"
        partner = (tab.wire.seat or 0) + 2
        if context["trick_owner_index"] == partner % 4 and can_play:
            over_partner += 1
        await player.step()
    assert "Select" not in await tab.texts("#actions button")
    assert not tab.wire.unexplained_errors()


@SIZES
async def test_tichu_asks_first(start_server: StartServer, open_page: OpenPage, size: Size) -> None:
    """Issue 11, item 12 (c): a click on ``#btn-tichu`` opens ``#dialog-confirm``; "Cancel"
    (``#confirm-no``) and Escape close it and the server records no call; "Call Tichu"
    (``#confirm-yes``) makes the call: the server records it, announces it, and the own seat
    shows "Tichu"."""
    server = await start_server(seed=AGENT_LEADS_SEED)
    tab = await open_page(size, "tichu")
    table = f"tichu-{size.name}"
    await start_alone(tab, server, "Tia", table)
    player = Player(tab)
    await until_pushed(player)
    seat = tab.wire.seat
    assert seat is not None

    def calls() -> list[int]:
        round_ = server.table(table).round
        assert round_ is not None
        return list(round_.announcements)

    for cancel in ("#confirm-no", "Escape"):
        await tab.until(lambda: tab.enabled("#btn-tichu"), "#btn-tichu enabled before the first own play")
        await tab.click("#btn-tichu")
        await tab.until(lambda: tab.visible("#dialog-confirm"), "#btn-tichu opens #dialog-confirm")
        assert "Call Tichu?" in (await tab.texts("#confirm-text"))[0]
        assert (await tab.texts("#confirm-yes"), await tab.texts("#confirm-no")) == (["Call Tichu"], ["Cancel"])
        if cancel == "Escape":
            await tab.page.keyboard.press("Escape")
        else:
            await tab.click(cancel)
        await tab.until(lambda: _hidden(tab, "#dialog-confirm"), f"{cancel} closes #dialog-confirm")
        assert calls()[seat] == ANNOUNCE_NONE, f"the server recorded a call after {cancel}"
        assert "announce" not in [message.get("type") for message in tab.wire.sent()], f"{cancel} sent announce"

    await tab.click("#btn-tichu")
    await tab.until(lambda: tab.visible("#dialog-confirm"), "#btn-tichu opens #dialog-confirm again")
    await tab.click("#confirm-yes")
    await tab.until(lambda: any(event["player_index"] == seat for event in tab.wire.events("player_announced")),
                    "the server announces the call after #confirm-yes")
    assert calls()[seat] == ANNOUNCE_TICHU
    sent = [message.get("type") for message in tab.wire.sent()]
    assert sent.count("announce") == 1, f"one announce expected (the cancels sent none): {sent}"
    await tab.until(lambda: _text_is(tab, ".seat.own .seat-call", "Tichu"), 'the own seat shows "Tichu"')
    await tab.until(lambda: _hidden(tab, "#dialog-confirm"), "#dialog-confirm closes after the call")
    assert not await tab.enabled("#btn-tichu"), "#btn-tichu stays enabled after the call"
    assert not tab.wire.unexplained_errors()


_STATUS_LOG_JS = """() => {
    window.statusLog = [];
    const status = document.getElementById('status');
    const note = () => { const text = status.textContent.trim(), log = window.statusLog;
        if (!log.length || log[log.length - 1] !== text) log.push(text); };
    note();
    new MutationObserver(note).observe(status, {childList: true, characterData: true, subtree: true});
}"""
#: What ``#status`` may say first after the own action besides "You passed." / "You played.":
#: the next thing asked of the player (the Mah Jong's wish, the Dragon's gift) or that they
#: are out or the round is over.
NEXT_FOR_THE_PLAYER = ("Choose a wish.", "Give the Dragon trick away.", "You are out", "The round is over.",
                       "The game is over.")


async def status_log(tab: Tab) -> list[str]:
    """Every text ``#status`` showed since :data:`_STATUS_LOG_JS` was installed, in order."""
    log: list[str] = await tab.page.evaluate("() => window.statusLog")
    return log


async def act(tab: Tab, request: Message) -> tuple[str, int]:
    """Answer a ``play`` request by clicks as :class:`~tests.support.clicks.Player` would (its
    play, else Pass); whether the player ``played`` or ``passed``, and how long the status log
    was just before the deciding click."""
    play = chosen_play(request["context"])
    if play is None:
        await tab.until(lambda: tab.enabled("#btn-pass"), "#btn-pass enabled when only passing is legal")
        mark = len(await status_log(tab))
        await tab.click("#btn-pass")
        return "passed", mark
    await select(tab, [card_label(card) for card in play])
    await tab.until(lambda: tab.enabled("#btn-play"), f"#btn-play enabled for {play}")
    mark = len(await status_log(tab))
    await tab.click("#btn-play")
    return "played", mark


async def _logged_after(tab: Tab, mark: int) -> bool:
    return len(await status_log(tab)) > mark


@SIZES
async def test_the_status_speaks_to_the_player_after_the_own_action(start_server: StartServer, open_page: OpenPage,
                                                                    size: Size) -> None:
    """Issue 11, item 12 (d): right after the player's own pass or play, the first thing
    ``#status`` says speaks to them: "You passed." / "You played.", with whose turn it is next
    ("You passed. Bot 2 is playing."), unless the next question to them (the wish) or their
    going out comes first; no status line of the game names the player in the third person
    (every change of ``#status`` is recorded). The agents take 0.3 s a move: at the 0.05 s of
    the other tests, a loaded machine can draw the page only after the next seat has acted too,
    and the status rightly shows that seat's turn without "You passed." (it speaks of the own
    action only until another seat acts)."""
    server = await start_server(seed=AGENT_LEADS_SEED, agent_delay=0.3)
    tab = await open_page(size, "you")
    name = "Uma"
    await start_alone(tab, server, name, f"you-{size.name}")
    await tab.page.evaluate(_STATUS_LOG_JS)
    player = Player(tab)
    seen: dict[str, int] = {"passed": 0, "played": 0}
    checked: set[str] = set()
    while min(seen.values()) < 1:
        request = await own_turn(player, lambda request: request["request_id"] not in checked, "a new own turn")
        checked.add(request["request_id"])
        kind, mark = await act(tab, request)
        await tab.until(partial(_logged_after, tab, mark), "#status changes after the own action")
        first = (await status_log(tab))[mark]
        others = await tab.texts(".seat:not(.own) .seat-name")
        spoken = {f"You {kind}.", *(f"You {kind}. {other} is playing." for other in others)}
        assert first in spoken or first.startswith(NEXT_FOR_THE_PLAYER), \
            f"after the own action ({kind}) #status said {first!r}; {await tab.describe()}"
        if first in spoken:
            seen[kind] += 1
    await player.play_until(round_over, ROUND_WAIT)
    log = await status_log(tab)
    assert not [text for text in log if name in text], f"#status named the player {name!r}: {log}"
    assert any(text.startswith("You passed. ") and text.endswith(" is playing.") for text in log), log
    assert not tab.wire.unexplained_errors()


# -- item 6: the round's result beside the next deal's Grand Tichu question, a double victory ------


_COVERED_JS = """(selectors) => {
    const panel = document.getElementById('round-result');
    const box = panel.getBoundingClientRect();
    const open = !panel.hidden && panel.checkVisibility();
    const problems = [];
    for (const selector of selectors) {
        for (const el of document.querySelectorAll(selector)) {
            const r = el.getBoundingClientRect();
            const name = selector + (el.dataset.card ? `[${el.dataset.card}]` : '');
            if (r.width === 0 || r.height === 0) { problems.push(`${name} not shown`); continue; }
            const w = Math.min(r.right, box.right) - Math.max(r.left, box.left);
            const h = Math.min(r.bottom, box.bottom) - Math.max(r.top, box.top);
            if (open && w > 1 && h > 1) problems.push(`${name} under #round-result`);
            const x = Math.min(r.left + 8, r.right - 1), y = r.top + r.height / 2;
            const top = document.elementFromPoint(x, y);
            const what = top ? `${top.tagName}#${top.id}.${top.className}` : 'nothing';
            if (!top || !(el === top || el.contains(top))) problems.push(`${name} covered by ${what}`);
        }
    }
    return {open, problems};
}"""

#: What the Grand Tichu question consists of: the question, its two buttons, the eight cards.
GRAND_TICHU_QUESTION = ["#status", "#btn-tichu", "#btn-pass", "#hand .card"]


async def result_close_inside(tab: Tab) -> list[str]:
    """Whether ``.result-close`` and its text lie inside ``#round-result``'s border."""
    problems: list[str] = await tab.page.evaluate("""() => {
        const panel = document.getElementById('round-result');
        const button = panel.querySelector('.result-close');
        const style = getComputedStyle(panel), p = panel.getBoundingClientRect(), b = button.getBoundingClientRect();
        const inner = {left: p.left + parseFloat(style.borderLeftWidth), top: p.top + parseFloat(style.borderTopWidth),
                       right: p.right - parseFloat(style.borderRightWidth),
                       bottom: p.bottom - parseFloat(style.borderBottomWidth)};
        const problems = [];
        const outside = r => r.left < inner.left - 1 || r.top < inner.top - 1 || r.right > inner.right + 1 ||
            r.bottom > inner.bottom + 1;
        if (outside(b))
            problems.push(`.result-close (${Math.round(b.left)},${Math.round(b.top)} ${Math.round(b.width)}x` +
                          `${Math.round(b.height)}) runs over the border of #round-result (${Math.round(p.left)},` +
                          `${Math.round(p.top)} ${Math.round(p.width)}x${Math.round(p.height)})`);
        if (button.scrollWidth > button.clientWidth + 1 || button.scrollHeight > button.clientHeight + 1)
            problems.push(`the text of .result-close does not fit it`);
        for (const el of panel.querySelectorAll('h3, table, .result-winner')) {
            if (outside(el.getBoundingClientRect()))
                problems.push(`${el.tagName} runs over the border of #round-result`);
        }
        return problems;
    }""")
    return problems


async def assert_double_victory_reads_sensibly(tab: Tab, result: Message) -> None:
    """``#round-result`` of a double victory (``round_over`` ``result``): titled so, its 200
    labelled "Double victory" (not "Card points"), the bonus and the total as the server said."""
    title = (await tab.texts("#round-result h3"))[0]
    assert title == "Round 1: double victory!", title
    rows = await tab.page.eval_on_selector_all(
        "#round-result tr", "rows => rows.map(row => [...row.children].map(cell => cell.textContent.trim()))")
    assert "Card points" not in [row[0] for row in rows], f"a double victory's 200 labelled as card points: {rows}"
    assert ["Double victory", *map(str, result["card_points"])] in rows, rows
    assert ["Total", *map(str, result["total"])] in rows, rows
    if any(result["bonus"]):
        assert ["Tichu", *map(str, result["bonus"])] in rows, rows


@SIZES
async def test_the_round_result_never_covers_the_next_grand_tichu_question(
        start_server: StartServer, open_page: OpenPage, size: Size) -> None:
    """Issue 11, item 6: a round played by clicks ends with its result in ``#round-result``
    (the seed makes it a double victory: the panel says so and does not call the 200 card
    points); while the next deal asks the Grand Tichu question (the status line, "Grand Tichu",
    "Continue" and the eight cards), the result, if still open, lies beside it: nothing of the
    question is under the panel or covered, and its button stays inside the panel's border, at
    the test's size and at 1920x1080. "Continue" answers the question while the result shows."""
    server = await start_server(seed=AGENT_LEADS_SEED, target_score=1000)
    tab = await open_page(size, "result-gt")
    await start_alone(tab, server, "Gus", f"result-gt-{size.name}")
    player = Player(tab)
    await player.play_until(round_over, ROUND_WAIT)
    await tab.until(lambda: tab.visible("#round-result"), "#round-result shown when the round is over")
    result = tab.wire.events("round_over")[0]
    assert result["is_double_victory"], f"seed {AGENT_LEADS_SEED} no longer ends round 1 in a double victory " \
                                        f"(choose another): {result}"
    await assert_double_victory_reads_sensibly(tab, result)

    def next_question(wire: Wire) -> bool:
        return wire.count("round_started") >= 2 and (wire.open_request() or {}).get("action") == "announce_grand_tichu"

    await player.play_until(next_question, ROUND_WAIT)
    request = tab.wire.open_request()
    assert request is not None
    await tab.until(lambda: _count_is(tab, "#hand .card", 8), "the eight cards of the next deal")
    await tab.until(lambda: tab.enabled("#btn-pass"), "#btn-pass (Continue) enabled for the Grand Tichu question")
    assert await tab.texts("#status") == ["Grand Tichu? Hold the button, or continue."]
    assert await tab.texts("#btn-tichu") == ["Grand Tichu"] and await tab.texts("#btn-pass") == ["Continue"]
    found: dict[str, Any] = await tab.page.evaluate(_COVERED_JS, GRAND_TICHU_QUESTION)
    assert not found["problems"], f"the Grand Tichu question is covered at {size.name}: {found}"
    if found["open"]:
        assert not await result_close_inside(tab)
        await tab.page.set_viewport_size({"width": FULL_HD.width, "height": FULL_HD.height})
        await tab.next_frame()
        wide: dict[str, Any] = await tab.page.evaluate(_COVERED_JS, GRAND_TICHU_QUESTION)
        assert not wide["problems"], f"the Grand Tichu question is covered at 1920x1080: {wide}"
        assert not await result_close_inside(tab), "at 1920x1080"
        await tab.page.set_viewport_size({"width": size.width, "height": size.height})
        await tab.next_frame()
    print(f"\n{size.name}: the result {'stays open beside' if found['open'] else 'is closed before'} "
          "the Grand Tichu question")
    await tab.click("#btn-pass")
    await tab.until(lambda: tab.wire.answered(request["request_id"]), "Continue answers the Grand Tichu question")
    assert not tab.wire.unexplained_errors()


@pytest.mark.parametrize("size", [PHONE, DESKTOP, FULL_HD], ids=["phone", "laptop", "full-hd"])
async def test_a_double_victory_result_reads_sensibly(server: LiveServer, open_page: OpenPage, size: Size) -> None:
    """Issue 11, item 6: a double victory's result, with a Tichu bonus, from scripted server
    messages on a mocked socket (so that it does not hang on what the agents play, unlike the
    real game of the test above): titled a double victory, the 200 labelled "Double victory",
    not "Card points"; its "Close" button and its contents stay inside the panel's border, at
    phone, laptop and 1920x1080 size."""
    tab = await open_page(size, "double-victory")
    public = {"table_name": "mock", "player_names": ["Dora", "", "", ""], "host_index": 0, "is_running": True,
              "phase": "playing", "round_index": 0, "current_turn_index": 1, "count_hand_cards": [0, 2, 0, 5],
              "announcements": [1, 0, 0, 0], "wish_value": 0, "wish_open": False, "trick_turns": [],
              "trick_owner_index": None, "trick_points": 0, "points": [0, 0, 0, 0], "tricks_won": [0, 0, 0, 0],
              "out_order": [0, 2], "played_cards": [], "round_scores": [], "total": [0, 0], "passed": []}
    joined = {"player_index": 0, "player_name": "Dora", "session_id": "s-dv", "protocol_version": 1,
              "pending_request": None, "public_state": public,
              "private_state": {"player_index": 0, "hand_cards": [], "given_schupf_cards": None,
                                "received_schupf_cards": None, "may_announce": False,
                                "bombs": []}}

    sockets = await join_scripted_table(tab, server.url, "Dora", joined)
    round_over_context = {"card_points": [200, 0], "bonus": [100, 0], "points": [300, 0], "total": [300, 0],
                          "out_order": [0, 2], "is_double_victory": True}
    sockets[-1].send(notification("round_over", round_over_context, {  # Issue 36: with the state the server sends
        "phase": "round_over", "current_turn_index": None, "round_scores": [[300, 0]], "total": [300, 0]}))
    await tab.until(lambda: tab.visible("#round-result"), "#round-result shown for the double victory")
    await assert_double_victory_reads_sensibly(tab, round_over_context)
    assert await tab.texts("#round-result .result-close") == ["Close"]
    problems = await result_close_inside(tab)
    assert not problems, f"at {size.name}: {problems}"
    await tab.click("#round-result .result-close")
    await tab.until(lambda: _hidden(tab, "#round-result"), "Close closes the result")
