"""The side panel (chat, move log, score sheet), the round's result and the score sheet's names,
in headless Chromium (issue 23: findings 3, 4 and 8, the move log and the score sheet during the
game; docs/web-client.md: ``#dialog-chat``, ``#log-toggle``, ``#sheet-toggle``, ``#move-log``,
``#sheet-table``, ``#round-result``).

The lobby runs against the real server; the table against a scripted socket
(:func:`~tests.support.browser.join_scripted_table`), which sends exactly the notifications a
server would, so that the test knows each state it checks. The layout checks of
:class:`~tests.support.browser.Shots` see the open panel together with the view and report
every control of the view that lies under it.
"""

from __future__ import annotations

from functools import partial

import pytest

from tests.support.browser import (
    DESKTOP,
    FULL_HD,
    PHONE,
    OpenPage,
    Shots,
    Size,
    Tab,
)
from tests.support.live_server import LiveServer
from tests.support.scripted_table import scripted_table

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: The parts of the table the player needs while the panel is open.
OWN_CONTROLS = ("#hand", "#actions", "#btn-play", "#btn-pass", "#btn-tichu", ".seat.pos-right", ".seat.pos-left",
                ".seat.pos-top", "#status", "#hand-tools", "#auto-pass")

_COVER_JS = """([panel, part]) => {
    const a = document.querySelector(panel), b = document.querySelector(part);
    if (!a || !b || !a.checkVisibility() || !b.checkVisibility()) return null;
    const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    return Math.max(0, Math.min(p.right, q.right) - Math.max(p.left, q.left)) *
        Math.max(0, Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top));
}"""

_INSIDE_JS = """(selector) => {
    const el = document.querySelector(selector);
    if (!el || !el.checkVisibility()) return false;
    const r = el.getBoundingClientRect();
    return r.left >= -1 && r.top >= -1 && r.right <= window.innerWidth + 1 && r.bottom <= window.innerHeight + 1;
}"""


async def covered_by_panel(tab: Tab, part: str) -> float | None:
    """The area (px²) ``#dialog-chat`` shares with ``part``; ``None`` when either is not shown."""
    area: float | None = await tab.page.evaluate(_COVER_JS, ["#dialog-chat", part])
    return area


async def assert_panel_covers_nothing(tab: Tab, *parts: str) -> None:
    """The panel is open and lies over none of ``parts`` (each shown, wholly on the screen)."""
    assert await tab.visible("#dialog-chat"), f"{tab.label}: the panel is not open; {await tab.describe()}"
    for part in parts:
        area = await covered_by_panel(tab, part)
        assert area is not None, f"{tab.label} ({tab.size.name}): {part} is not shown while the panel is open"
        assert area == 0, f"{tab.label} ({tab.size.name}): the panel covers {part} ({area:.0f} px²)"
        assert await tab.page.evaluate(_INSIDE_JS, part), f"{tab.label} ({tab.size.name}): {part} leaves the screen"


async def resize(tab: Tab, size: Size) -> None:
    """Give the page another size and wait for the redraw."""
    await tab.page.set_viewport_size({"width": size.width, "height": size.height})
    await tab.next_frame()


async def _hidden(tab: Tab, selector: str) -> bool:
    return not await tab.visible(selector)


async def _count_is(tab: Tab, selector: str, count: int) -> bool:
    return await tab.count(selector) == count


# -- finding 3: the chat never covers the own controls -------------------------------------------


async def _lobby_synced(tab: Tab) -> bool:
    return tab.wire.count("lobby_state") > 0 and await tab.visible("#chat-toggle")


@pytest.mark.slow
async def test_chat_in_the_lobby_leaves_team_b_and_start_free(server: LiveServer, open_page: OpenPage,
                                                              shots: Shots) -> None:
    """Finding 3, lobby: at 1366x768 the open chat hid Team B and "Start the game" and pushed the
    buttons off the screen. Open, the panel lies beside the lobby: Team B's seats, the options
    and every button of the lobby are shown whole on the screen and under no part of the panel,
    at laptop, full-HD, phone and phone-sideways size (the layout check finds nothing)."""
    tab = await open_page(DESKTOP, "lobby-chat")
    await tab.login(server.url, "Hana", "panels-lobby")
    await tab.wait_view("view-lobby")
    await tab.until(partial(_lobby_synced, tab), "the lobby state arrived and #chat-toggle is shown")
    await tab.click("#chat-toggle")
    await tab.until(lambda: tab.visible("#dialog-chat"), "#dialog-chat opens on #chat-toggle")
    for size in (DESKTOP, FULL_HD, PHONE):
        await resize(tab, size)
        await assert_panel_covers_nothing(tab, '.lobby-team[data-team="31"]', '.lobby-seat[data-seat="3"]',
                                          "#lobby-start", "#lobby-leave", "#lobby-history", "#lobby-ready"
                                          if await tab.visible("#lobby-ready") else "#lobby-start")
    await resize(tab, DESKTOP)
    await shots.take(tab, "lobby-chat-open")
    shots.assert_layout()
    await tab.click("#chat-close")
    await tab.until(partial(_hidden, tab, "#dialog-chat"), "#chat-close closes the panel")


@pytest.mark.slow
@pytest.mark.parametrize("size", [DESKTOP, FULL_HD], ids=lambda size: size.name)
async def test_chat_and_log_at_the_table_leave_the_controls_free(server: LiveServer, open_page: OpenPage,
                                                                 shots: Shots, size: Size) -> None:
    """Finding 3, table: at 1920x1080 the chat covered the right-hand opponent and
    Tichu/Hint/Play. Open on the chat and then on the move log, the panel covers neither the
    hand, the buttons, the status nor any seat at 1366x768 and 1920x1080, and the layout check
    finds nothing at every size; the player plays a card while the chat is open."""
    tab = await open_page(size, f"table-chat-{size.name}")
    script = await scripted_table(tab, server)
    await tab.until(lambda: tab.enabled("#btn-pass"), "the own turn")
    await tab.click("#chat-toggle")
    await tab.until(lambda: tab.visible("#dialog-chat"), "the panel opens on the chat")
    await assert_panel_covers_nothing(tab, *OWN_CONTROLS)
    await shots.take(tab, f"table-chat-open-{size.name}")
    await tab.click("#panel-tab-log")
    await tab.until(lambda: tab.visible("#move-log"), "the Log tab shows the move log")
    await assert_panel_covers_nothing(tab, *OWN_CONTROLS)
    await shots.take(tab, f"table-log-open-{size.name}")
    shots.assert_layout()
    await tab.click('#hand .card[data-card="14-2"]')
    await tab.click("#btn-play")
    await tab.until(lambda: any(m.get("type") == "response" for m in script.sent),
                    "the play is sent while the panel is open")
    played = [m["payload"]["response_data"] for m in script.sent if m.get("type") == "response"]
    assert played == [{"cards": [[14, 2]]}], played


@pytest.mark.slow
async def test_chat_on_a_phone_is_a_sheet_that_closes(server: LiveServer, open_page: OpenPage, shots: Shots) -> None:
    """Finding 3, phone (390x844, touch): the chat is a sheet at the bottom of the screen, below
    the hand and the buttons (it covers none of them); × and Escape close it, and the table gets
    its whole height back; the move log opens in the same sheet, also in German with the
    watchers' count in the toolbar."""
    tab = await open_page(PHONE, "phone-chat")
    script = await scripted_table(tab, server)
    await tab.until(lambda: tab.enabled("#btn-pass"), "the own turn")
    hand_before = await tab.page.evaluate("document.getElementById('hand').getBoundingClientRect().bottom")
    await tab.click("#chat-toggle")
    await tab.until(lambda: tab.visible("#chat-input"), "the sheet opens on the chat")
    await assert_panel_covers_nothing(tab, *OWN_CONTROLS)
    box = await tab.page.evaluate("(() => { const r = document.getElementById('dialog-chat')"
                                  ".getBoundingClientRect(); return [r.left, r.right, r.bottom]; })()")
    assert box[0] <= 1 and box[1] >= PHONE.width - 1 and box[2] >= PHONE.height - 1, f"not a bottom sheet: {box}"
    await shots.take(tab, "table-chat-sheet", both=False)
    shots.assert_layout()
    await tab.click("#chat-close")
    await tab.until(partial(_hidden, tab, "#dialog-chat"), "× closes the sheet")
    await tab.until(lambda: tab.page.evaluate(
        f"document.getElementById('hand').getBoundingClientRect().bottom >= {hand_before} - 1"),
        "the hand goes back to the bottom of the screen")
    await tab.click("#log-toggle")
    await tab.until(lambda: tab.visible("#move-log"), "the log toggle opens the sheet on the log")
    script.send("spectators_changed", {"count": 12, "limit": 20, "allowed": True, "hands_open": False,
                                       "allow": [False, None, None, None]})
    await tab.click("#lang-switch")
    await tab.until(lambda: tab.page.evaluate("document.getElementById('log-toggle').textContent === 'Verlauf'"),
                    "the toolbar in German")
    await shots.take(tab, "table-log-sheet-de", both=False)
    shots.assert_layout()
    await tab.click("#panel-tab-log")
    await tab.page.keyboard.press("Escape")
    await tab.until(partial(_hidden, tab, "#dialog-chat"), "Escape closes the sheet")
    await shots.take(tab, "table-toolbar-de", both=False)
    shots.assert_layout()


# -- the move log --------------------------------------------------------------------------------


async def _moves(tab: Tab) -> list[str]:
    return await tab.texts("#move-log .move")


async def _last_move_is(tab: Tab, text: str) -> bool:
    moves = await _moves(tab)
    return bool(moves) and moves[-1] == text


@pytest.mark.slow
async def test_move_log_tells_the_moves_in_english_and_german(server: LiveServer, open_page: OpenPage) -> None:
    """The move log lists, from the notifications, each call, play, pass, bomb, the wish and its
    fulfilment, the trick taken, the Dragon's gift, who went out and who left, with the names the
    players had then (a player who leaves keeps theirs), in English and, after the language
    switch, in German."""
    tab = await open_page(DESKTOP, "move-log")
    script = await scripted_table(tab, server)
    await tab.until(lambda: tab.enabled("#btn-pass"), "the own turn")
    await tab.click("#log-toggle")
    await tab.until(lambda: tab.visible("#move-log .move-empty"), "an empty log says so")
    script.send("player_announced", {"player_index": 2, "grand": False})
    script.send("player_passed", {"player_index": 0})
    script.send("player_played", {"turn": [3, [[7, 1], [7, 2]], ["pair", 2, 7]], "trick_points": 0,
                                  "trick_owner_index": 3, "is_bomb": False, "out_of_turn": False})
    script.send("player_played", {"turn": [1, [[8, 1], [8, 2], [8, 3], [8, 4]], ["bomb", 4, 8]],
                                  "trick_points": 0, "trick_owner_index": 1, "is_bomb": True, "out_of_turn": True})
    script.send("trick_taken", {"player_index": 1, "points": 0, "dragon_recipient": None})
    script.send("player_played", {"turn": [2, [[1, 0]], ["single", 1, 1]], "trick_points": 0,
                                  "trick_owner_index": 2, "is_bomb": False, "out_of_turn": False})
    script.send("wish_made", {"wish_value": 12})
    script.send("player_played", {"turn": [3, [[12, 3]], ["single", 1, 12]], "trick_points": 10,
                                  "trick_owner_index": 3, "is_bomb": False, "out_of_turn": False})
    script.send("wish_fulfilled", {})
    script.send("player_played", {"turn": [1, [[15, 0]], ["single", 1, 15]], "trick_points": 35,
                                  "trick_owner_index": 1, "is_bomb": False, "out_of_turn": False})
    script.send("player_out", {"player_index": 1, "place": 1})
    script.send("player_left", {"player_index": 1, "player_name": "Rolf", "host_index": 0, "replaced_by_agent": True})
    script.send("trick_taken", {"player_index": 1, "points": 35, "dragon_recipient": 2})
    expected = ["Ben calls Tichu.", "Anna passes.", "Dora: Pair 7 7", "Rolf bombs: 8 8 8 8",
                "Rolf takes the trick (0 points).", "Ben: Single Mah Jong", "Ben wishes for a Queen.",
                "Dora: Single Queen", "The wish is fulfilled.", "Rolf: Single Dragon", "Rolf is out (1st).",
                "Rolf left the table; Bot 2 plays the seat.",  # issue 35, finding 5
                "Bot 2 takes the trick (35 points).", "Bot 2 gives the Dragon trick to Ben."]
    await tab.until(partial(_last_move_is, tab, expected[-1]), "the log reaches the Dragon's gift")
    assert await _moves(tab) == expected
    assert await tab.count('#move-log .move-bomb[data-seat="1"]') == 1
    await tab.click("#lang-switch")
    await tab.until(partial(_last_move_is, tab, "Bot 2 verschenkt den Drachen-Stich an Ben."), "the log in German")
    moves = await _moves(tab)
    assert moves[0] == "Ben sagt Tichu an." and moves[6] == "Ben wünscht sich eine Dame.", moves
    assert (await tab.texts("#log-toggle"))[0] == "Verlauf"


# -- the score sheet during the game ---------------------------------------------------------------


async def _cell_is(tab: Tab, selector: str, text: str) -> bool:
    texts = await tab.texts(selector)
    return bool(texts) and texts[0] == text


@pytest.mark.slow
async def test_score_sheet_during_the_game(server: LiveServer, open_page: OpenPage) -> None:
    """``#sheet-toggle`` opens the score tab at any time: before the first round's end it says
    that none is over; after it a row per round with the points and the running totals, and
    below it a line of who called what, made or failed."""
    tab = await open_page(DESKTOP, "score-sheet")
    script = await scripted_table(tab, server, announcements=[0, 0, 1, 2])
    await tab.until(lambda: tab.enabled("#btn-pass"), "the own turn")
    await tab.click("#sheet-toggle")
    await tab.until(lambda: tab.visible("#sheet-table .sheet-empty"), "the sheet says that no round is over")
    assert await _cell_is(tab, "#sheet-team-20", "Anna & Ben")
    assert await _cell_is(tab, "#sheet-team-31", "Rolf & Dora")
    script.send("player_out", {"player_index": 2, "place": 1}, {"out_order": [2]})
    script.send("round_over", {"card_points": [70, 30], "bonus": [100, -200], "points": [170, -170],
                               "total": [170, -170], "out_order": [2, 1, 3], "is_double_victory": False},
                {"phase": "round_over", "round_scores": [[170, -170]], "total": [170, -170]})  # Issue 36
    await tab.until(partial(_count_is, tab, "#sheet-table tr.score-round", 1), "the round's row in the sheet")
    row = await tab.texts("#sheet-table tr.score-round td")
    assert row == ["170 (170)", "-170 (-170)"], row
    calls = await tab.texts("#sheet-table tr.score-calls td")
    assert calls == ["Ben: Tichu (made it), Dora: Grand Tichu (failed)"], calls
    assert await _cell_is(tab, "#sheet-total-20", "170")
    assert await _cell_is(tab, "#sheet-total-31", "-170")
