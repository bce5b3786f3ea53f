"""The round's result and the score sheet's names, in headless Chromium against a scripted
socket (issue 23, findings 4 and 8; docs/web-client.md ``#round-result``, ``#view-scores``).

Finding 8: the round's result lumped Tichu and Grand Tichu, named no caller and did not show
the order in which the players went out. Finding 4: the score sheet after the game renamed a
partner who left after it ("Anna & Bot 3" instead of "Anna & Ben"). The scripted socket
(:mod:`tests.support.scripted_table`) sends what a server would.
"""

from __future__ import annotations

from functools import partial

import pytest

from tests.support.browser import DESKTOP, PHONE, OpenPage, Shots, Size, Tab
from tests.support.live_server import LiveServer
from tests.support.scripted_table import Script, scripted_table

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _cell_is(tab: Tab, selector: str, text: str) -> bool:
    texts = await tab.texts(selector)
    return bool(texts) and texts[0] == text


#: The public state's fields ``game_over`` changes (Issue 36: the server sends them with it).
GAME_OVER = {"phase": "game_over", "is_running": False}


def end_the_round(script: Script) -> None:
    """Ben (the partner, Tichu) goes out first, then Rolf and Dora (Grand Tichu): the round ends."""
    script.send("player_out", {"player_index": 2, "place": 1}, {"out_order": [2]})
    script.send("round_over", {"card_points": [70, 30], "bonus": [100, -200], "points": [170, -170],
                               "total": [170, -170], "out_order": [2, 1, 3], "is_double_victory": False},
                {"phase": "round_over", "current_turn_index": None, "out_order": [2, 1, 3],
                 "round_scores": [[170, -170]], "total": [170, -170]})


@pytest.mark.slow
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=lambda size: size.name)
async def test_round_result_names_callers_and_the_order_out(server: LiveServer, open_page: OpenPage,
                                                            shots: Shots, size: Size) -> None:
    """Finding 8: Ben (Tichu) went out first and Dora (Grand Tichu) did not: the result says
    "Ben: Tichu – made it" and "Dora: Grand Tichu – failed" on lines of their own, then "Out:
    1st Ben · 2nd Rolf · 3rd Dora", and the layout check finds nothing on that screen."""
    tab = await open_page(size, f"result-{size.name}")
    script = await scripted_table(tab, server, announcements=[0, 0, 1, 2])
    await tab.until(lambda: tab.enabled("#btn-pass"), "the own turn")
    end_the_round(script)
    await tab.until(lambda: tab.visible("#round-result table"), "the round's result shows")
    assert await tab.texts('#round-result .result-call[data-seat="2"][data-call="tichu"].made') == \
        ["Ben: Tichu – made it"]
    assert await tab.texts('#round-result .result-call[data-seat="3"][data-call="grand"].failed') == \
        ["Dora: Grand Tichu – failed"]
    assert await tab.texts("#round-result .result-order") == ["Out: 1st Ben · 2nd Rolf · 3rd Dora"]
    await shots.take(tab, f"round-result-calls-{size.name}", both=False)
    shots.assert_layout()


@pytest.mark.slow
async def test_score_sheet_keeps_the_name_of_a_partner_who_left_after_the_game(server: LiveServer,
                                                                              open_page: OpenPage) -> None:
    """Finding 4: the partner Ben closes his tab after the game's end (an agent takes his seat);
    the score sheet opened afterwards still reads "Anna & Ben", not "Anna & Bot 3"."""
    tab = await open_page(DESKTOP, "sheet-names")
    script = await scripted_table(tab, server, announcements=[0, 0, 1, 2])
    await tab.until(lambda: tab.enabled("#btn-pass"), "the own turn")
    end_the_round(script)
    script.send("game_over", {"game_score": [[170, -170]], "total": [170, -170], "winner": 20}, GAME_OVER)
    await tab.until(lambda: tab.visible("#round-result .result-winner"), "the result names the winners")
    script.send("player_left", {"player_index": 2, "player_name": "Ben", "host_index": 0, "replaced_by_agent": True})
    await tab.until(lambda: tab.page.evaluate("Tichu.State.displayName(2) === 'Bot 3'"), "Ben's seat is an agent's")
    await tab.click("#round-result .result-close")
    await tab.wait_view("view-scores")
    # the view shows a frame before it draws: wait for the sheet's names (a wrong name times out)
    await tab.until(partial(_cell_is, tab, "#scores-team-20", "Anna & Ben"), "the sheet names Anna & Ben")
    assert "Anna & Ben" in (await tab.texts("#scores-winner"))[0]
    assert "Ben: Tichu (made it)" in (await tab.texts("#scores-table tr.score-calls td"))[0]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=lambda size: size.name)
async def test_round_result_in_german_stays_in_the_middle(server: LiveServer, open_page: OpenPage,
                                                          shots: Shots, size: Size) -> None:
    """Issue 35: with long names the German result's longer words ("Kartenpunkte", "Schließen")
    made it wider than the middle at 1366×768, over "Passen bis zum nächsten Stich" and "Nach
    Farbe sortieren"; the layout check finds nothing on that screen in German."""
    tab = await open_page(size, f"result-de-{size.name}")
    names = ["Alexandra", "Maximilian", "Bot 3", "Friederike"]
    script = await scripted_table(tab, server, names=names, announcements=[0, 0, 1, 2])
    await tab.until(lambda: tab.enabled("#btn-pass"), "the own turn")
    await tab.click("#lang-switch")
    await tab.until(lambda: _cell_is(tab, "#btn-pass", "Passen"), "the table in German")
    end_the_round(script)
    await tab.until(lambda: tab.visible("#round-result table"), "the round's result shows")
    assert await tab.texts("#round-result .result-order") == ["Fertig: 1. Bot 3 · 2. Maximilian · 3. Friederike"]
    await shots.take(tab, f"round-result-de-{size.name}", both=False)
    shots.assert_layout()
