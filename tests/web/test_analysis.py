"""The game analysis in the replay viewer (issue 25; docs/web-client.md "Replay, the game's
analysis") in Chromium against the real server: a finished game in which the person Ada calls
Grand Tichu on a hopeless hand is opened, analysed ("Analyse this game"), its chart shows the
marks, a mark and the costliest list jump to the judged step, whose panel shows the choice
beside the best; a record file offers no analysis; the player view shows the accuracy."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.support.analysis import page_round, value_text
from tests.support.browser import DESKTOP, PHONE, OpenPage, Shots, Size, Tab
from tests.support.cards import card_key
from tests.support.live_server import LiveServer, StartServer
from tichu.agents.driver import play_game
from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.heuristic_policy import V3
from tichu.agents.random_agent import RandomAgent
from tichu.core.ruleset import RuleSet
from tichu.records.record import game_record
from tichu.records.steps import replay_document
from tichu.server.keys import STORE

pytestmark = pytest.mark.asyncio(loop_scope="session")

Record = dict[str, Any]

#: Deals per judged decision at the test server: enough that the planted Grand Tichu is told
#: from the noise, few enough for a few seconds' analysis.
SAMPLES = 32
#: Seconds the whole analysis may take (the wait for the chart).
ANALYSIS_WAIT = 240.0
#: The seed of the planted game: Ada's first eight cards are BK BD SD RB S9 R8 G7 S3; with 32
#: deals her Grand Tichu is a mistake and a play of hers a blunder, both well clear of the bounds.
PLANTED_SEED = 6
#: A value with its half interval as the judged panel shows it, e.g. "+35 ± 8" or "−120 ± 14".
VALUE = re.compile(r"^[+\u2212]?\d+ (± \d+|exact)$")  # exact: a solved endgame (issue 34)


class _GrandCaller(RandomAgent):
    """Calls Grand Tichu on any hand, then plays at random: the planted blunders."""

    GRAND_TICHU_RATE = 1.0


def planted_record(seed: int = PLANTED_SEED, cleo: str = "agent:heuristic") -> Record:
    """One round in which the person Ada (seat 0) calls Grand Tichu on a hand without an Ace,
    the Dragon, the Phoenix or a bomb, and plays at random; heuristic agents at the other seats
    (Cleo's seat marked as ``cleo``: ``human`` has her decisions judged too). The heuristic is
    ``heuristic:v3`` (rollouts in the endgame only), whose round plants the blunder as before."""
    agents = [_GrandCaller("Ada", seed), *(HeuristicAgent(name, seed * 10 + seat, V3)
                                           for seat, name in ((1, "Ben"), (2, "Cleo"), (3, "Dan")))]
    rules = RuleSet(target_score=1)
    state = play_game(agents, rules, seed=seed, keep_rounds=True)
    players = [("Ada", "human"), ("Ben", "agent:heuristic"), ("Cleo", cleo), ("Dan", "agent:heuristic")]
    return dict(game_record(state.rounds, rules, players, record_id=f"planted-{seed}", seed=seed,
                            started_at="2026-11-26T00:00:00Z"))


@pytest.fixture(scope="module")
def planted() -> Record:
    """The planted game (its first eight cards checked: hopeless for a Grand Tichu)."""
    record = planted_record()
    first = replay_document(record)["steps"][0]["hands"][0]
    assert not {"Dr", "Ph"} & set(first) and not any(label[1] == "A" for label in first), first
    return record


async def _store(server: LiveServer, record: Record) -> None:
    assert await server.app[STORE].read(lambda games: games.archive.add(record))


async def _position(tab: Tab) -> int | None:
    """The step shown (from 0), or None before the first render."""
    texts = await tab.texts("#replay-position")
    found = re.fullmatch(r"Step (\d+) of \d+", texts[0]) if texts else None
    return None if found is None else int(found.group(1)) - 1


async def _at(tab: Tab, step: int) -> None:
    async def there() -> bool:
        return await _position(tab) == step
    await tab.until(there, f"#replay-position at step {step + 1}")


async def _analysis(tab: Tab, game_id: str) -> dict[str, Any]:
    """The analysis document as the server serves it (read in the page, as the page reads it)."""
    answer: dict[str, Any] = await tab.page.evaluate(
        "id => fetch('api/games/' + encodeURIComponent(id) + '/analysis').then(r => r.json())", game_id)
    assert answer["status"] == "done", answer
    document: dict[str, Any] = answer["analysis"]
    return document


async def _analyse(tab: Tab, server: LiveServer, record: Record) -> dict[str, Any]:
    """Open the stored game as Ada, press "Analyse this game", wait for the chart; the document."""
    await tab.page.goto(server.url)
    await tab.wait_view("view-login")
    await tab.page.evaluate("() => localStorage.setItem('tichu.name', 'Ada')")
    await tab.page.goto(f"{server.url}#replay={record['id']}")
    await tab.wait_view("view-replay")
    await _at(tab, 0)
    await tab.until(lambda: tab.visible("#analysis-start"), '"Analyse this game" shown')
    assert (await tab.texts("#analysis-start")) == ["Analyse this game"]
    assert await tab.page.get_attribute("#view-replay", "data-analysis") == "none"
    await tab.click("#analysis-start")
    await tab.page.wait_for_selector("#analysis-chart svg .analysis-line", timeout=ANALYSIS_WAIT * 1000)
    assert not await tab.visible("#analysis-start")
    assert await tab.page.get_attribute("#view-replay", "data-analysis") == "done"
    return await _analysis(tab, record["id"])


def _marked(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The mistakes and blunders, in step order."""
    return sorted((judgement for judgement in document["judgements"] if judgement["label"] in ("mistake", "blunder")),
                  key=lambda judgement: judgement["step"])


async def _judged_panel(tab: Tab, judgement: dict[str, Any]) -> None:
    """The judged panel of the step shown is the judgement's: the verdict, the choice made
    beside the best with both values, the best cards marked in Ada's hand."""
    panel = f'#analysis-judged .analysis-judgement[data-seat="{judgement["seat"]}"]'
    await tab.until(lambda: tab.visible(panel), f"the judged panel of step {judgement['step']}")
    verdict = (await tab.texts(f"{panel} .analysis-verdict"))[0]
    mark = {"mistake": "▲", "blunder": "◆"}.get(judgement["label"], "")
    assert verdict.startswith(f"{mark}Ada: "), verdict
    assert await tab.page.get_attribute(panel, "data-label") == (judgement["label"] or "")
    values = await tab.texts(f"{panel} .analysis-option .analysis-value")
    assert all(VALUE.match(value) for value in values), values
    chosen = judgement["options"][judgement["chosen"]]
    best = judgement["options"][judgement["best"]]
    exact = judgement.get("exact") is True
    assert values[0] == value_text(chosen, exact)
    if judgement["chosen"] != judgement["best"]:
        assert await tab.count(f"{panel} .analysis-option.best") == 1
        assert values[1] == value_text(best, exact)
        lost = "points lost, exact" if exact else f"± {page_round(judgement['loss_half_width'])} points lost"
        assert f"{page_round(judgement['loss'])} {lost}" in verdict
        hand = await tab.page.eval_on_selector_all(
            '#replay-seats .replay-seat[data-seat="0"] .replay-hand .card', "els => els.map(e => e.dataset.card)")
        marked = await tab.page.eval_on_selector_all(
            '#replay-seats .replay-seat[data-seat="0"] .replay-hand .card.analysis-best',
            "els => els.map(e => e.dataset.card)")
        assert sorted(marked) == sorted(card for card in (card_key(label) for label in best["cards"]) if card in hand)





async def _tap(tab: Tab, x: float, y: float) -> None:
    """A tap on a phone, a click on a laptop."""
    if tab.size.mobile:
        await tab.page.touchscreen.tap(x, y)
    else:
        await tab.page.mouse.click(x, y)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "laptop"])
async def test_a_finished_game_is_analysed_and_its_blunder_shown(
        start_server: StartServer, open_page: OpenPage, shots: Shots, planted: Record, size: Size) -> None:
    """Issue 25, Done means: "open a finished game, analyse, see the chart and the marked
    steps, jump to a blunder". The chart's marks are the document's mistakes and blunders (at
    least the planted Grand Tichu); the round and trick selects carry them; a tap on a mark
    goes to its step, where the panel shows Ada's choice beside the best; the list of Ada's
    costliest decisions goes to each; the chart's keys go from mark to mark."""
    server = await start_server(analysis_samples=SAMPLES)
    await _store(server, planted)
    tab = await open_page(size, "analysis")
    document = await _analyse(tab, server, planted)
    marked = _marked(document)
    assert marked, [(j["kind"], j["loss"], j["loss_half_width"], j["label"]) for j in document["judgements"]]
    grand = next(judgement for judgement in document["judgements"] if judgement["kind"] == "grand_tichu")
    assert grand["options"][grand["chosen"]]["text"] == "Grand Tichu" and grand["chosen"] != grand["best"]
    markers = await tab.page.eval_on_selector_all(
        "#analysis-chart .analysis-marker", "els => els.map(e => [Number(e.dataset.step), e.classList[1]])")
    assert markers == [[judgement["step"], judgement["label"]] for judgement in marked]
    label = await tab.page.get_attribute("#analysis-chart", "aria-label")
    assert label is not None and "mistakes" in label and "blunders" in label
    symbol = {"mistake": "▲", "blunder": "◆"}
    rounds = await tab.page.eval_on_selector_all("#replay-round option", "els => els.map(e => e.textContent)")
    assert rounds[0].endswith(symbol["blunder"] if any(j["label"] == "blunder" for j in marked) else symbol["mistake"])

    # a tap on the worst mark goes to its step
    worst = max(marked, key=lambda judgement: (judgement["label"] == "blunder", judgement["loss"]))
    box = await tab.page.locator(f'#analysis-chart .analysis-marker[data-step="{worst["step"]}"]').first.bounding_box()
    assert box is not None
    await _tap(tab, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await _at(tab, worst["step"])
    assert tab.page.url.endswith(f"&step={worst['step']}")
    await _judged_panel(tab, worst)
    await shots.take(tab, "analysis")

    # Ada's costliest decisions, each a jump (their tab; on a laptop the chart stays shown)
    await tab.click('.analysis-tab[data-tab="costly"]')
    assert (await tab.texts("#analysis-costly-title")) == ["Your 5 costliest decisions"]
    costliest = sorted((j for j in document["judgements"] if j["seat"] == 0 and j["loss"] > 0),
                       key=lambda judgement: (-judgement["loss"], judgement["step"]))[:5]
    steps = await tab.page.eval_on_selector_all("#analysis-costliest button",
                                                "els => els.map(e => Number(e.dataset.step))")
    assert steps == [judgement["step"] for judgement in costliest]
    await tab.click("#replay-first")
    await _at(tab, 0)
    await tab.click(f'#analysis-costliest button[data-step="{costliest[-1]["step"]}"]')
    await _at(tab, costliest[-1]["step"])
    await _judged_panel(tab, costliest[-1])

    # the chart's keys: from the start to the first mark, and on
    if await tab.visible('.analysis-tab[data-tab="chart"]'):
        await tab.click('.analysis-tab[data-tab="chart"]')
    await tab.click("#replay-first")
    await _at(tab, 0)
    await tab.page.focus("#analysis-chart")
    await tab.page.keyboard.press("ArrowRight")
    await _at(tab, marked[0]["step"])
    await _judged_panel(tab, marked[0])
    if len(marked) > 1:
        await tab.page.keyboard.press("ArrowRight")
        await _at(tab, marked[1]["step"])

    # German
    await tab.click("#lang-switch")
    await tab.until(lambda: _has(tab, "#analysis-legend", "grober Fehler"), "the legend in German")
    await shots.take(tab, "analysis-de", both=False)
    await tab.click("#lang-switch")
    shots.assert_layout()


async def _has(tab: Tab, selector: str, text: str) -> bool:
    return text in " ".join(await tab.texts(selector))


async def test_an_analysed_game_opens_with_its_chart_and_the_player_shows_accuracy(
        start_server: StartServer, open_page: OpenPage, shots: Shots, planted: Record) -> None:
    """A game analysed before opens with its chart at once (no button), also at the other size;
    Ada's statistics show her accuracy; a record file (not stored) offers no analysis."""
    server = await start_server(analysis_samples=8)
    await _store(server, planted)
    phone = await open_page(PHONE, "analysis-first")
    await _analyse(phone, server, planted)
    laptop = await open_page(DESKTOP, "analysis-again")
    await laptop.page.goto(f"{server.url}#replay={planted['id']}&step=1")
    await laptop.wait_view("view-replay")
    await _at(laptop, 1)
    await laptop.page.wait_for_selector("#analysis-chart svg .analysis-line")
    assert not await laptop.visible("#analysis-start")
    document = await _analysis(laptop, planted["id"])
    grand = next(judgement for judgement in document["judgements"] if judgement["kind"] == "grand_tichu")
    assert grand["step"] == 1
    await _judged_panel(laptop, grand)

    # the player's accuracy
    await laptop.page.goto(server.url)
    await laptop.wait_view("view-login")
    await laptop.click("#login-history")
    await laptop.wait_view("view-history")
    await laptop.click('#history-list button.player-link[data-player="Ada"]')
    await laptop.wait_view("view-player")
    accuracy = 'dd[data-stat="accuracy"]'
    await laptop.until(lambda: laptop.visible(accuracy), "Ada's accuracy")
    [summary] = document["players"]
    text = (await laptop.texts(accuracy))[0]
    expected = rf"\d+\.\d points lost per decision \({summary['decisions']} decisions in one game\)"
    assert re.fullmatch(expected, text), text
    await shots.take(laptop, "player-accuracy")
    shots.assert_layout()

    # a record file: no analysis offered
    await laptop.page.goto(server.url)
    await laptop.wait_view("view-login")
    await laptop.page.set_input_files("#replay-file-input", files={
        "name": "game.json", "mimeType": "application/json", "buffer": json.dumps(planted).encode()})
    await laptop.wait_view("view-replay")
    await _at(laptop, 0)
    assert await laptop.page.get_attribute("#view-replay", "data-analysis") == "hidden"
    assert not await laptop.visible("#analysis-start")
    assert not await laptop.visible("#replay-analysis")


async def test_a_server_that_does_not_analyse_hides_the_button(
        start_server: StartServer, open_page: OpenPage, planted: Record) -> None:
    """``TICHU_ANALYSIS=off``: the server still serves the status (``none``), so the button is
    offered; its request is refused (403) and the button goes, with no chart."""
    server = await start_server(analysis="off")
    await _store(server, planted)
    tab = await open_page(PHONE, "analysis-off")
    await tab.page.goto(f"{server.url}#replay={planted['id']}")
    await tab.wait_view("view-replay")
    await _at(tab, 0)
    await tab.until(lambda: tab.visible("#analysis-start"), '"Analyse this game" shown')
    await tab.click("#analysis-start")

    async def hidden() -> bool:
        return await tab.page.get_attribute("#view-replay", "data-analysis") == "hidden"
    await tab.until(hidden, "the analysis hidden after the refusal")
    assert not await tab.visible("#analysis-start")
    assert not await tab.visible("#replay-analysis")
    refused = [error for error in tab.console_errors if "status of 403" in error]
    assert len(refused) == 1, tab.console_errors
    tab.console_errors.remove(refused[0])


async def test_the_progress_is_followed_until_the_viewer_is_left(
        server: LiveServer, open_page: OpenPage, planted: Record) -> None:
    """While the analysis runs the page asks again (0.5 s, then doubling) and shows the progress;
    leaving the viewer stops the questions (no question is due any more: no waiting for a time).
    The server's answers are scripted here: an analysis that never ends."""
    await _store(server, planted)
    tab = await open_page(PHONE, "analysis-progress")
    asked: list[str] = []

    async def answer(route: Any) -> None:
        asked.append(route.request.method)
        done = len([method for method in asked if method == "GET"])
        body = {"status": "running" if "POST" in asked else "none", "progress": [done, 10], "analysis": None}
        await route.fulfill(status=202 if route.request.method == "POST" else 200, body=json.dumps(body),
                            content_type="application/json")

    await tab.page.route("**/api/games/*/analysis", answer)
    await tab.page.goto(f"{server.url}#replay={planted['id']}")
    await tab.wait_view("view-replay")
    await tab.until(lambda: tab.visible("#analysis-start"), '"Analyse this game" shown')
    await tab.click("#analysis-start")
    await tab.until(lambda: _has(tab, "#analysis-status", "Analysing: 3 of 10 decisions"), "the progress, asked again")
    await tab.until(lambda: _has(tab, "#analysis-status", "Analysing: 4 of 10 decisions"), "the progress, asked again")
    assert not await tab.visible("#analysis-start")
    assert await tab.page.evaluate("() => Tichu.AnalysisController.polling()")  # the next question is due
    await tab.click("#replay-back")
    await tab.wait_view("view-login")
    state = await tab.page.evaluate(
        "() => [Tichu.AnalysisState.gameId, Tichu.AnalysisState.status, Tichu.AnalysisController.polling()]")
    assert state == [None, "hidden", False], state


async def test_a_spectator_chooses_whose_costliest_decisions_are_listed(
        start_server: StartServer, open_page: OpenPage, shots: Shots) -> None:
    """A viewer who did not play the game (no name) chooses the player: two people played (Ada
    and Cleo), the list starts with Ada's and shows Cleo's once she is chosen; at the push,
    where both decided, the panel shows the chosen player's decision and counts the other."""
    record = planted_record(cleo="human")
    record["id"] = "two-people"
    server = await start_server(analysis_samples=8)
    await _store(server, record)
    tab = await open_page(DESKTOP, "analysis-choose")
    await tab.page.goto(f"{server.url}#replay={record['id']}")
    await tab.wait_view("view-replay")
    await _at(tab, 0)
    await tab.click("#analysis-start")
    await tab.page.wait_for_selector("#analysis-chart svg .analysis-line", timeout=ANALYSIS_WAIT * 1000)
    document = await _analysis(tab, record["id"])
    await tab.click('.analysis-tab[data-tab="costly"]')
    assert (await tab.texts("#analysis-costly-title")) == ["The 5 costliest decisions of Ada"]
    assert await tab.page.eval_on_selector_all("#analysis-player option", "els => els.map(e => e.textContent)") == [
        "Ada", "Cleo"]

    def costliest(seat: int) -> list[int]:
        judged = sorted((j for j in document["judgements"] if j["seat"] == seat and j["loss"] > 0),
                        key=lambda judgement: (-judgement["loss"], judgement["step"]))
        return [judgement["step"] for judgement in judged[:5]]

    async def listed() -> list[int]:
        steps: list[int] = await tab.page.eval_on_selector_all("#analysis-costliest button",
                                                                "els => els.map(e => Number(e.dataset.step))")
        return steps

    assert await listed() == costliest(0)
    await tab.page.select_option("#analysis-player", "2")

    async def cleos() -> bool:
        return await listed() == costliest(2)
    await tab.until(cleos, "Cleo's costliest decisions listed")
    push = next(judgement["step"] for judgement in document["judgements"] if judgement["kind"] == "push")
    there = [judgement["seat"] for judgement in document["judgements"] if judgement["step"] == push]
    assert {0, 2} <= set(there), there
    await tab.page.goto(f"{server.url}#replay={record['id']}&step={push}")
    await _at(tab, push)
    await tab.until(lambda: tab.visible('#analysis-judged .analysis-judgement[data-seat="0"]'), "the push judged")
    # the step's other decisions are buttons naming their player (issue 35, finding 8)
    others = await tab.page.eval_on_selector_all("#analysis-judged .analysis-other",
                                                 "els => els.map(e => Number(e.dataset.seat))")
    assert sorted([0, *others]) == sorted(there), (others, there)
    await shots.take(tab, "analysis-choose")
    shots.assert_layout()


async def test_a_failed_analysis_says_why_and_is_offered_again(
        server: LiveServer, open_page: OpenPage, planted: Record) -> None:
    """A failed analysis (scripted answer) shows the server's reason and the button again."""
    await _store(server, planted)
    tab = await open_page(DESKTOP, "analysis-failed")

    async def answer(route: Any) -> None:
        body = {"status": "failed", "progress": [0, 0], "analysis": None, "reason": "the record does not replay"}
        await route.fulfill(status=200, body=json.dumps(body), content_type="application/json")

    await tab.page.route("**/api/games/*/analysis", answer)
    await tab.page.goto(f"{server.url}#replay={planted['id']}")
    await tab.wait_view("view-replay")
    await tab.until(lambda: tab.visible("#analysis-status"), "the failure said")
    assert await tab.texts("#analysis-status") == ["The analysis failed: the record does not replay."]
    assert await tab.visible("#analysis-start")
