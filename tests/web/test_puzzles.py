"""Issue 35, finding 8 ("Beyond the anchors": lichess' "learn from your mistakes"): after a
game's analysis the person replays their own costliest decisions as puzzles in the replay
viewer, in Chromium against the real server, at phone (390×844 touch) and laptop (1366×768)
size, in English and German.

The game is the planted one of the analysis tests (tests/web/test_analysis.py: the person Ada
plays at random beside three heuristic agents), analysed by the server's real judge when the
test presses "Analyse this game"; every expectation (which decisions become puzzles, in which
order, which answers solve them, the values the solution shows) is read from the document the
server then serves, never written into the test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.analysis import value_text
from tests.support.browser import DESKTOP, PHONE, OpenPage, Shots, Size, Tab
from tests.support.cards import card_key
from tests.support.live_server import LiveServer, StartServer
from tests.web.test_analysis import ANALYSIS_WAIT, SAMPLES, planted_record
from tichu.records.parts import Step
from tichu.records.steps import replay_document
from tichu.server.keys import STORE

pytestmark = pytest.mark.asyncio(loop_scope="session")

Record = dict[str, Any]
Judgement = dict[str, Any]

#: The page's words, by language.
WORDS = {
    "en": {"learn": "Learn from your mistakes", "title": "Puzzle {n} of {total}", "find": "Find a better move",
           "wrong": "Not this one", "solved": "Well found!", "best": "Best:", "back": "Back to the analysis",
           "tag_best": "best", "tag_played": "played", "empty": "there is nothing to replay"},
    "de": {"learn": "Aus Fehlern lernen", "title": "Aufgabe {n} von {total}", "find": "Finde einen besseren Zug",
           "wrong": "Der ist es nicht", "solved": "Gut gefunden!", "best": "Am besten:", "back": "Zurück zur Analyse",
           "tag_best": "am besten", "tag_played": "gespielt", "empty": "es gibt nichts nachzuspielen"},
}


@pytest.fixture(scope="module")
def planted() -> Record:
    """The planted game of the analysis tests."""
    return planted_record()


async def _store(server: LiveServer, record: Record) -> None:
    assert await server.app[STORE].read(lambda games: games.archive.add(record))


async def _has(tab: Tab, selector: str, text: str) -> bool:
    return text in " ".join(await tab.texts(selector))


async def _analysed(tab: Tab, server: LiveServer, record: Record, language: str) -> dict[str, Any]:
    """Open the stored game as Ada (in ``language``), press "Analyse this game", wait for the
    chart; the document as the server serves it."""
    await tab.page.goto(server.url)
    await tab.wait_view("view-login")
    await tab.page.evaluate("() => localStorage.setItem('tichu.name', 'Ada')")
    await tab.page.goto(f"{server.url}#replay={record['id']}")
    await tab.wait_view("view-replay")
    await tab.until(lambda: tab.visible("#analysis-start"), '"Analyse this game" shown')
    assert not await tab.visible("#analysis-learn"), "no puzzles before the analysis"
    if language == "de":
        await tab.click("#lang-switch")
        await tab.until(lambda: _has(tab, "#analysis-start", "Dieses Spiel analysieren"), "the page in German")
    await tab.click("#analysis-start")
    await tab.page.wait_for_selector("#analysis-chart svg .analysis-line", timeout=ANALYSIS_WAIT * 1000)
    answer: dict[str, Any] = await tab.page.evaluate(
        "id => fetch('api/games/' + encodeURIComponent(id) + '/analysis').then(r => r.json())", record["id"])
    assert answer["status"] == "done", answer
    document: dict[str, Any] = answer["analysis"]
    return document


def _puzzles(document: dict[str, Any], seat: int) -> list[Judgement]:
    """The seat's inaccuracies, mistakes and blunders, the costliest first."""
    labelled = [judgement for judgement in document["judgements"]
                if judgement["seat"] == seat and judgement["label"] in ("inaccuracy", "mistake", "blunder")]
    return sorted(labelled, key=lambda judgement: (-judgement["loss"], judgement["step"]))


def _position(judgement: Judgement, steps: list[Step]) -> int:
    """The step of the position in which the decision was made (docs/agents.md: ``step`` shows
    the decision made; a Grand Tichu is decided on the round's first eight cards, a push before
    any card is given, a Tichu not called where it was offered)."""
    before = {"grand_tichu": "deal", "push": "grand_tichu"}.get(judgement["kind"])
    if before:
        return max(at for at, step in enumerate(steps[:judgement["step"] + 1])
                   if step["kind"] == before and step["round"] == judgement["round"])
    if judgement["kind"] == "tichu" and judgement["options"][judgement["chosen"]]["text"] == "no Tichu":
        return int(judgement["step"])
    return int(judgement["step"]) - 1


def _loss(judgement: Judgement, index: int) -> float:
    return float(judgement["options"][judgement["best"]]["mean"] - judgement["options"][index]["mean"])





def _option(index: int) -> str:
    return f'#puzzle-options button.puzzle-option[data-option="{index}"]'


async def _press(tab: Tab, selector: str) -> None:
    """A tap on a phone, a click on a laptop."""
    if tab.size.mobile:
        await tab.page.locator(selector).first.tap()
    else:
        await tab.click(selector)


async def _feedback(tab: Tab, text: str) -> str:
    """Wait for the feedback to say ``text``; the whole feedback."""
    await tab.until(lambda: _has(tab, "#puzzle-feedback", text), f'the feedback "{text}"')
    return " ".join(await tab.texts("#puzzle-feedback"))


async def _shows_puzzle(tab: Tab, words: dict[str, str], at: int, puzzles: list[Judgement],
                        steps: list[Step]) -> None:
    """The puzzle ``at`` is shown, unanswered: its count, the question, Ada's hand of the
    position before the decision, one button per judged option and no value."""
    judgement = puzzles[at]
    title = words["title"].format(n=at + 1, total=len(puzzles))
    await tab.until(lambda: _has(tab, "#puzzle-title", title), f'"{title}" shown')
    assert await tab.visible("#puzzle-question")
    assert (await tab.texts("#puzzle-question .puzzle-find")) == [words["find"]]
    hand = await tab.page.eval_on_selector_all("#puzzle-hand .card", "els => els.map(e => e.dataset.card)")
    expected = steps[_position(judgement, steps)]["hands"][judgement["seat"]]
    assert sorted(hand) == sorted(card_key(label) for label in expected), (judgement["kind"], judgement["step"])
    shown = await tab.page.eval_on_selector_all("#puzzle-options button.puzzle-option",
                                                "els => els.map(e => Number(e.dataset.option))")
    assert sorted(shown) == list(range(len(judgement["options"])))
    assert await tab.count("#puzzle-options .puzzle-value") == 0, "no value before the solution"
    assert not await tab.visible("#puzzle-feedback")


async def _shows_solution(tab: Tab, words: dict[str, str], judgement: Judgement) -> None:
    """Every option shows its value ± half width (the document's), the best and what was played marked."""
    exact = judgement.get("exact") is True
    for index, option in enumerate(judgement["options"]):
        value = (await tab.texts(f"{_option(index)} .puzzle-value"))
        assert value == [value_text(option, exact)], (index, value, option)
    assert (await tab.texts(f"{_option(judgement['best'])} .puzzle-tag.best")) == [words["tag_best"]]
    assert (await tab.texts(f"{_option(judgement['chosen'])} .puzzle-tag.played")) == [words["tag_played"]]
    feedback = " ".join(await tab.texts("#puzzle-feedback"))
    best = value_text(judgement["options"][judgement["best"]], exact)
    assert words["best"] in feedback and best in feedback, feedback


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "laptop"])
async def test_the_costliest_decisions_are_replayed_as_puzzles(
        start_server: StartServer, open_page: OpenPage, shots: Shots, planted: Record, size: Size,
        language: str) -> None:
    """Issue 35, finding 8: "learn from your mistakes". From the analysis page Ada's labelled
    decisions become puzzles, the costliest first ("Puzzle 1 of n"), each showing the position
    before the decision with her hand; the choice she made is told "Not this one" (so is another
    option that loses the inaccuracy threshold or more), a retry is offered, an option within the
    threshold is told "Well found" and the solution shows every option's value ± half width; on
    another puzzle "Show the solution" shows them after a wrong answer; previous and next; back to
    the analysis at the decision's step. The layout is checked at each state."""
    words = WORDS[language]
    server = await start_server(analysis_samples=SAMPLES)
    await _store(server, planted)
    tab = await open_page(size, f"puzzles-{language}")
    document = await _analysed(tab, server, planted, language)
    steps = replay_document(planted)["steps"]
    puzzles = _puzzles(document, 0)
    assert len(puzzles) >= 2, [(j["kind"], j["loss"], j["label"]) for j in document["judgements"]]
    threshold = float(document["method"]["thresholds"]["inaccuracy"])

    await tab.until(lambda: tab.visible("#analysis-learn"), f'"{words["learn"]}" shown after the analysis')
    assert (await tab.texts("#analysis-learn")) == [words["learn"]]
    await _press(tab, "#analysis-learn")
    await _shows_puzzle(tab, words, 0, puzzles, steps)
    assert not await tab.visible("#replay-board"), "the puzzle takes the replay's place"
    assert await tab.page.is_disabled("#puzzle-prev") and not await tab.page.is_disabled("#puzzle-next")
    await shots.take(tab, f"puzzle-{language}", both=False)

    # the first puzzle: the choice made is wrong, retried, then an option within the threshold
    first = puzzles[0]
    await _press(tab, _option(first["chosen"]))
    await _feedback(tab, words["wrong"])
    assert await tab.visible("#puzzle-retry") and await tab.page.is_disabled(_option(first["chosen"]))
    costly = [index for index in range(len(first["options"]))
              if index != first["chosen"] and _loss(first, index) >= threshold]
    if costly:  # another option that loses as much: wrong too
        await _press(tab, "#puzzle-retry")
        await tab.until(lambda: _hidden(tab, "#puzzle-feedback"), "the feedback gone after the retry")
        await _press(tab, _option(costly[0]))
        await _feedback(tab, words["wrong"])
    await _press(tab, "#puzzle-retry")
    await tab.until(lambda: _hidden(tab, "#puzzle-feedback"), "the feedback gone after the retry")
    good = [index for index in range(len(first["options"]))
            if index != first["chosen"] and _loss(first, index) < threshold]
    right = next((index for index in good if index != first["best"]), first["best"])
    await _press(tab, _option(right))
    await _feedback(tab, words["solved"])
    await _shows_solution(tab, words, first)
    await shots.take(tab, f"puzzle-solved-{language}", both=False)

    # the next puzzle: a wrong answer, then the solution shown
    await _press(tab, "#puzzle-next")
    await _shows_puzzle(tab, words, 1, puzzles, steps)
    second = puzzles[1]
    await _press(tab, _option(second["chosen"]))
    await _feedback(tab, words["wrong"])
    await _press(tab, "#puzzle-reveal")
    await _feedback(tab, words["best"])
    assert words["solved"] not in " ".join(await tab.texts("#puzzle-feedback"))
    await _shows_solution(tab, words, second)
    assert not await tab.visible("#puzzle-retry") and not await tab.visible("#puzzle-reveal")
    await shots.take(tab, f"puzzle-solution-{language}", both=False)

    # back to the first, unanswered; then back to the analysis at the decision
    await _press(tab, "#puzzle-prev")
    await _shows_puzzle(tab, words, 0, puzzles, steps)
    assert (await tab.texts("#puzzle-back")) == [words["back"]]
    await _press(tab, "#puzzle-back")
    await tab.until(lambda: tab.visible("#analysis-chart"), "the analysis shown again")
    assert not await tab.visible("#puzzle")
    await tab.until(lambda: tab.page.url.endswith(f"&step={first['step']}"), "the replay at the decision")
    shots.assert_layout()


async def _hidden(tab: Tab, selector: str) -> bool:
    return not await tab.visible(selector)


async def test_a_player_without_costly_decisions_is_told_so(
        start_server: StartServer, open_page: OpenPage, shots: Shots) -> None:
    """Issue 35, finding 8: a viewer chooses a player whose decisions hold no inaccuracy, mistake
    or blunder (Cleo, by the served document) and presses "Learn from your mistakes": the page
    says that there is nothing to replay, in English and German, and goes back to the analysis."""
    record = planted_record(cleo="human")
    record["id"] = "two-people"
    server = await start_server(analysis_samples=8)
    await _store(server, record)
    tab = await open_page(PHONE, "puzzles-none")
    await tab.page.goto(f"{server.url}#replay={record['id']}")
    await tab.wait_view("view-replay")
    await tab.click("#analysis-start")
    await tab.page.wait_for_selector("#analysis-chart svg .analysis-line", timeout=ANALYSIS_WAIT * 1000)
    answer: dict[str, Any] = await tab.page.evaluate(
        "id => fetch('api/games/' + encodeURIComponent(id) + '/analysis').then(r => r.json())", record["id"])
    document = answer["analysis"]
    assert any(judgement["seat"] == 2 for judgement in document["judgements"]), "Cleo's decisions judged"
    assert _puzzles(document, 2) == [], [(j["kind"], j["label"]) for j in _puzzles(document, 2)]
    assert _puzzles(document, 0), "Ada's are puzzles"
    await tab.page.select_option("#analysis-player", "2")
    await tab.until(lambda: _has(tab, "#analysis-costly-title", "The 5 costliest decisions of"), "Cleo chosen")
    await _press(tab, "#analysis-learn")
    await tab.until(lambda: tab.visible("#puzzle-empty"), "the empty puzzles shown")
    assert (await tab.texts("#puzzle-empty")) == [
        "Cleo made no inaccuracy, mistake or blunder in this game: there is nothing to replay."]
    assert not await tab.visible("#puzzle-options") and not await tab.visible("#puzzle-hand")
    await shots.take(tab, "puzzle-none", both=False)
    await tab.click("#lang-switch")
    await tab.until(lambda: _has(tab, "#puzzle-empty", WORDS["de"]["empty"]), "the empty puzzles in German")
    assert (await tab.texts("#puzzle-back")) == [WORDS["de"]["back"]]
    await _press(tab, "#puzzle-back")
    await tab.until(lambda: tab.visible("#analysis-chart"), "the analysis shown again")
    shots.assert_layout()
