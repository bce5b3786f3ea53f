"""Another line in the browser (issue 35; docs/server.md, "Another line"): at a step of a stored
game the replay viewer offers "Play on…", whose dialog asks "Play on from here as" which seat; the
person plays the round on from there by clicks against the agents, reads what the round scored in
the game, and goes back to the replay at that step. At phone and laptop size, in English and German,
with the layout check; no offer where no round is being played."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.browser import DESKTOP, PHONE, ROUND_WAIT, OpenPage, Shots, Size, Tab, Wire
from tests.support.cards import card_key
from tests.support.clicks import Player
from tests.support.live_server import LiveServer
from tichu.arena.arena import Arena
from tichu.records.steps import replay_document
from tichu.server.keys import STORE

pytestmark = pytest.mark.asyncio(loop_scope="session")

Record = dict[str, Any]
#: Per language: the button, the dialog's title, "In the game this round ended", the way back.
WORDS = {"en": ("Play on…", "Play on from here as", "In the game this round ended", "Back to the replay"),
         "de": ("Weiterspielen…", "Von hier weiterspielen als", "Im Spiel endete diese Runde",
                "Zurück zur Wiederholung")}


@pytest.fixture(scope="module")
def record() -> Record:
    """A short Arena game (random agents to 200) with people's names."""
    found: list[Record] = []
    Arena(["random"] * 4, games=1, seed=31, workers=1, target_score=200, records=True).run(on_record=found.append)
    found[0]["players"] = [{"name": name, "kind": "human"} for name in ("Ada", "Ben", "Cleo", "Dan")]
    found[0]["id"] = "line-game"
    return found[0]


def _round_over(wire: Wire) -> bool:
    return wire.count("round_over") > 0


async def _texts_are(tab: Tab, selector: str, texts: list[str]) -> bool:
    return await tab.texts(selector) == texts


async def _has_text(tab: Tab, selector: str, pattern: str) -> bool:
    texts = await tab.texts(selector)
    return bool(texts) and re.search(pattern, texts[0]) is not None


@pytest.mark.parametrize(("size", "language"), [(PHONE, "de"), (DESKTOP, "en"), (PHONE, "en"), (DESKTOP, "de")],
                         ids=["phone-de", "laptop-en", "phone-en", "laptop-de"])
async def test_a_person_plays_another_line_from_a_replay_step(server: LiveServer, open_page: OpenPage, shots: Shots,
                                                               record: Record, size: Size, language: str) -> None:
    """At a play of round 1 after which seat 1 (Ben) is to play, "Play on…" opens the dialog,
    which names the four players (Cancel closes it); "Ben" starts the line: the table shows Ben's
    hand of that step, the person plays the round to its end by clicks, the result says what the
    round scored in the game, and "Back to the replay" opens the replay at that step again. At
    the round's end the offer is gone."""
    steps = replay_document(record)["steps"]
    step = next(index for index, made in enumerate(steps)
                if made["round"] == 0 and made["kind"] == "play" and made["turn"] == 1 and made["trick"] > 1)
    end = next(made for made in steps if made["kind"] == "round_end" and made["round"] == 0)
    assert await server.app[STORE].read(lambda games: games.archive.add(record))
    button, offer, in_the_game, back = WORDS[language]
    tab = await open_page(size, f"line-{language}-{size.name}")
    await tab.page.goto(f"{server.url}#replay={record['id']}&step={step}")
    await tab.wait_view("view-replay")
    if language == "de":
        await tab.click("#lang-switch")
    await tab.until(lambda: _texts_are(tab, "#line-open", [button]), "the offer of another line")
    await tab.click("#line-open")
    await tab.until(lambda: _texts_are(tab, "#line-label", [offer]), "the dialog asks for the seat")
    assert await tab.texts("#line-seats .line-seat") == ["Ada", "Ben", "Cleo", "Dan"]
    await shots.take(tab, f"replay-line-{language}-{size.name}")
    await tab.click("#line-cancel")
    await tab.until(lambda: _hidden(tab, "#dialog-line"), "Cancel closes the dialog")
    await tab.click("#line-open")
    await tab.until(lambda: tab.visible("#dialog-line"), "the dialog again")
    await tab.click('#line-seats .line-seat[data-seat="1"]')
    await tab.wait_view("view-table")
    await tab.until(lambda: tab.wire.open_request() is not None, "Ben's play is asked for")
    assert sorted(await tab.hand()) == sorted(map(card_key, steps[step]["hands"][1])), "the step's hand"
    await Player(tab).play_until(_round_over, ROUND_WAIT)
    await tab.until(lambda: tab.visible("#round-result .line-back"), "the way back in the round's result")
    expected = f"{in_the_game} {end['round_score'][0]} : {end['round_score'][1]}."
    assert await tab.texts("#round-result .result-line") == [expected]
    assert await tab.texts("#round-result .line-back") == [back]
    await shots.take(tab, f"line-result-{language}-{size.name}")
    shots.assert_layout()
    await tab.click("#round-result .line-back")
    await tab.wait_view("view-replay")
    await tab.until(lambda: _has_text(tab, "#replay-position", rf"\b{step + 1}\b"), "the replay at the line's step")
    assert tab.page.url.endswith(f"#replay={record['id']}&step={step}")
    last = len(steps) - 1
    await tab.page.goto(f"{server.url}#replay={record['id']}&step={last}")
    await tab.until(lambda: _has_text(tab, "#replay-position", rf"\b{last + 1}\b"), "the replay's last step")
    await tab.until(lambda: _hidden(tab, "#line-open"), "no line offered after the game's end")


async def _hidden(tab: Tab, selector: str) -> bool:
    return not await tab.visible(selector)

