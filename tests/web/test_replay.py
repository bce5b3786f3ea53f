"""The replay viewer (``#view-replay``) in Chromium: a stored game opened by its address
(``#replay=<id>``, also at a step), stepped forwards to the end and back by buttons and keys,
played at a speed; a record file chosen on the login view; a Brettspielwelt log of the shared
data; a game just played by clicks, opened from the history; screenshots at the four sizes with
the layout check."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.support.browser import DESKTOP, GAME_WAIT, PHONE, OpenPage, Shots, Tab
from tests.support.clicks import Player, game_over, start_alone
from tests.support.live_server import LiveServer, StartServer, wait_for_records
from tichu.arena.arena import Arena
from tichu.records.bsw import import_file
from tichu.records.steps import replay_document
from tichu.server.keys import STORE

if TYPE_CHECKING:
    from playwright.async_api import FilePayload

pytestmark = pytest.mark.asyncio(loop_scope="session")

Record = dict[str, Any]


@pytest.fixture(scope="module")
def records() -> list[Record]:
    """Two short Arena games (random agents to 200)."""
    found: list[Record] = []
    Arena(["random"] * 4, games=2, seed=21, workers=1, target_score=200, records=True).run(on_record=found.append)
    for number, record in enumerate(found):
        record["players"] = [{"name": name, "kind": "agent:random"} for name in ("Ada", "Ben", "Cleo", "Dan")]
        record["id"] = f"arena-{number}"
    return found


async def _store(server: LiveServer, record: Record) -> None:
    assert await server.app[STORE].read(lambda games: games.archive.add(record))


async def _shown_position(tab: Tab) -> tuple[int, int] | None:
    """The step shown and the steps there are, or None before the view's first render."""
    found = re.fullmatch(r"Step (\d+) of (\d+)", (await tab.texts("#replay-position"))[0])
    return None if found is None else (int(found.group(1)), int(found.group(2)))


async def _position(tab: Tab) -> tuple[int, int]:
    position = await _shown_position(tab)
    assert position is not None, await tab.texts("#replay-position")
    return position


async def _at(tab: Tab, step: int) -> None:
    await tab.until(lambda: _is_at(tab, step), f"#replay-position at step {step + 1}")


async def _is_at(tab: Tab, step: int) -> bool:
    # the view is shown a frame before it renders: no position yet is not at the step (yet)
    position = await _shown_position(tab)
    return position is not None and position[0] == step + 1


async def _scores(tab: Tab) -> list[int]:
    return [int((await tab.texts(f"#replay-score-{team}"))[0]) for team in (20, 31)]


async def _hand_sizes(tab: Tab) -> list[int]:
    sizes: list[int] = await tab.page.eval_on_selector_all(
        "#replay-seats .replay-seat", "els => els.map(e => e.querySelectorAll('.replay-hand .card').length)")
    return sizes


async def test_a_stored_game_step_by_step(server: LiveServer, open_page: OpenPage, shots: Shots,
                                          records: list[Record]) -> None:
    """``#replay=<id>`` opens the game at its first step; ▶ and → step on, ⏭ and End go to the
    end, where the scores are the record's; ◀, ← and Home go back; the address follows the step;
    the jump selects go to a round and a trick; play at 4× moves on until paused; Back leaves."""
    record = records[0]
    await _store(server, record)
    document = replay_document(record)
    steps = document["steps"]
    tab = await open_page(PHONE, "replay")
    await tab.page.goto(f"{server.url}#replay={record['id']}")
    await tab.wait_view("view-replay")
    await _at(tab, 0)
    assert (await _position(tab))[1] == len(steps)
    assert await _hand_sizes(tab) == [8, 8, 8, 8]
    assert "Round 1" in (await tab.texts("#replay-step-text"))[0]
    assert not await tab.enabled("#replay-prev")
    await tab.click("#replay-next")
    await _at(tab, 1)
    assert await _hand_sizes(tab) == [14, 14, 14, 14]
    await tab.page.keyboard.press("ArrowRight")
    await _at(tab, 2)
    assert tab.page.url.endswith(f"#replay={record['id']}&step=2")
    # a play of a pair or more in the middle of the trick, for the screenshot
    middle = next(index for index, step in enumerate(steps) if step["kind"] == "play"
                  and len(step["trick_turns"]) >= 3 and step["round"] == 0)
    trick_start = next(
        index for index, step in enumerate(steps) if step["trick"] == steps[middle]["trick"] and step["round"] == 0)
    await tab.page.select_option("#replay-trick-select", str(trick_start))
    await _at(tab, trick_start)
    for position in range(trick_start + 1, middle + 1):
        # one key at a time: the shown position updates a frame later, so a press made before
        # it did would step past the target
        await tab.page.keyboard.press("ArrowRight")
        await _at(tab, position)
    assert await _hand_sizes(tab) == [len(hand) for hand in steps[middle]["hands"]]
    seat = steps[middle]["seat"]
    assert seat is not None
    name = ["Ada", "Ben", "Cleo", "Dan"][seat]
    assert (await tab.texts("#replay-step-text"))[0].startswith(f"{name} plays ")
    await shots.take(tab, "replay")
    await tab.click("#replay-last")
    await _at(tab, len(steps) - 1)
    assert await _scores(tab) == record["score"]
    assert steps[-1]["kind"] == "round_end"
    await shots.take(tab, "replay-end")
    await tab.page.keyboard.press("ArrowLeft")
    await _at(tab, len(steps) - 2)
    await tab.click("#replay-prev")
    await _at(tab, len(steps) - 3)
    await tab.page.keyboard.press("Home")
    await _at(tab, 0)
    assert tab.page.url.endswith("&step=0")
    await tab.page.keyboard.press("End")
    await _at(tab, len(steps) - 1)
    await tab.click("#replay-first")
    await _at(tab, 0)
    # jump to the last round, then play at 4x and pause
    last_round = len(record["rounds"])
    round_start = next(index for index, step in enumerate(steps) if step["round"] == last_round - 1)
    assert steps[round_start]["kind"] == "deal"
    await tab.page.select_option("#replay-round", str(round_start))
    await _at(tab, round_start)
    start = round_start + 1
    await tab.page.select_option("#replay-speed", "4")
    await tab.page.evaluate("() => document.activeElement.blur()")  # keys in a select are the select's
    await tab.page.keyboard.press("Space")
    await tab.until(lambda: _playing(tab), "Space plays")
    await tab.until(lambda: _moved(tab, start + 2), "playing at 4x moves on")
    await tab.click("#replay-play")
    await tab.until(lambda: _paused(tab), "paused")
    paused_at = (await _position(tab))[0]
    await tab.page.wait_for_timeout(600)
    assert (await _position(tab))[0] == paused_at
    shots.assert_layout()
    await tab.click("#replay-back")
    await tab.wait_view("view-login")
    assert "#replay" not in tab.page.url


async def _moved(tab: Tab, at_least: int) -> bool:
    return (await _position(tab))[0] >= at_least


async def _playing(tab: Tab) -> bool:
    return await tab.page.get_attribute("#replay-play", "aria-pressed") == "true"


async def _paused(tab: Tab) -> bool:
    return await tab.page.get_attribute("#replay-play", "aria-pressed") == "false"


async def test_a_shared_link_opens_at_its_step(server: LiveServer, open_page: OpenPage, shots: Shots,
                                               records: list[Record]) -> None:
    """``#replay=<id>&step=<n>`` opens at step n (laptop size), in German too; an unknown id says so."""
    record = records[1]
    await _store(server, record)
    steps = replay_document(record)["steps"]
    step = next(index for index, found in enumerate(steps) if found["kind"] == "trick" and index > 40)
    tab = await open_page(DESKTOP, "replay-link")
    await tab.page.goto(f"{server.url}#replay={record['id']}&step={step}")
    await tab.wait_view("view-replay")
    await _at(tab, step)
    assert await _hand_sizes(tab) == [len(hand) for hand in steps[step]["hands"]]
    assert "takes the trick" in (await tab.texts("#replay-step-text"))[0]
    await tab.click("#lang-switch")
    await tab.until(lambda: _text_has(tab, "#replay-step-text", "nimmt den Stich"), "the step in German")
    await shots.take(tab, "replay-de")
    shots.assert_layout()
    await tab.click("#lang-switch")
    await tab.page.goto(f"{server.url}#replay=no-such-game")
    await tab.until(lambda: tab.visible("#replay-error"), "#replay-error shown for an unknown game")
    assert "no stored game" in (await tab.texts("#replay-error"))[0]
    _expect_refused(tab, 404)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "laptop"])
async def test_no_seat_is_to_play_during_the_deal(server: LiveServer, open_page: OpenPage, records: list[Record],
                                                  size: Any) -> None:
    """Issue 23, finding 11: at the deal and the Grand Tichu step no seat is marked "to play"
    (nobody plays before the exchange); after the push the seat that leads is."""
    record = records[0]
    await _store(server, record)
    steps = replay_document(record)["steps"]
    tab = await open_page(size, "replay-deal")
    await tab.page.goto(f"{server.url}#replay={record['id']}&step=0")
    await tab.wait_view("view-replay")
    await _at(tab, 0)
    assert steps[0]["kind"] == "deal"
    assert await tab.count("#replay-seats .replay-seat.turn") == 0, "a seat is to play at the deal"
    assert "to play" not in " ".join(await tab.texts("#replay-seats .replay-seat-mark"))
    push = next(index for index, step in enumerate(steps) if step["kind"] == "push")
    await tab.page.goto(f"{server.url}#replay={record['id']}&step={push}")
    await _at(tab, push)
    leader = steps[push]["turn"]
    assert leader is not None
    await tab.until(lambda: _turn_seat_is(tab, leader), "the leading seat is to play after the push")


async def _turn_seat_is(tab: Tab, seat: int) -> bool:
    seats: list[str] = await tab.page.eval_on_selector_all("#replay-seats .replay-seat.turn",
                                                           "els => els.map(e => e.dataset.seat)")
    return seats == [str(seat)]


async def test_a_record_file_opens(server: LiveServer, open_page: OpenPage, shots: Shots,
                                   records: list[Record]) -> None:
    """"Open a record" on the login view: one record opens at its first step (the end has its
    score); a file of two offers both; a file that is no record says why; a record dropped on
    the page opens."""
    tab = await open_page(PHONE, "replay-file")
    await tab.page.goto(server.url)
    await tab.wait_view("view-login")
    assert await tab.visible("#login-open-record")
    body = json.dumps(records[0]).encode()
    await tab.page.set_input_files("#replay-file-input", files=_file("game.json", "application/json", body))
    await tab.wait_view("view-replay")
    await _at(tab, 0)
    await tab.page.keyboard.press("End")
    await tab.until(lambda: _is_last(tab), "at the last step")
    assert await _scores(tab) == records[0]["score"]
    assert "#replay" not in tab.page.url  # a file has no shareable address
    lines = "".join(json.dumps(record) + "\n" for record in records).encode()
    await tab.page.set_input_files("#replay-file-input", files=_file("games.jsonl", "application/octet-stream", lines))
    await tab.until(lambda: _count_is(tab, "#replay-records button", 2), "two records to choose from")
    await shots.take(tab, "replay-choose")
    await tab.click("#replay-records button >> nth=1")
    await _at(tab, 0)
    await tab.page.keyboard.press("End")
    await tab.until(lambda: _is_last(tab), "at the last step")
    assert await _scores(tab) == records[1]["score"]
    await tab.page.set_input_files("#replay-file-input", files=_file("bad.json", "application/json",
                                                                        b'{"format": "nope"}'))
    await tab.until(lambda: tab.visible("#replay-error"), "#replay-error for a file that is no record")
    assert "no game record" in (await tab.texts("#replay-error"))[0]
    _expect_refused(tab, 400)
    # dropped on the page
    transfer = await tab.page.evaluate_handle(
        "text => { const data = new DataTransfer(); "
        "data.items.add(new File([text], 'dropped.json', {type: 'application/json'})); return data; }",
        json.dumps(records[1]))
    await tab.page.dispatch_event("#wrapper", "drop", {"dataTransfer": transfer})
    await tab.until(lambda: tab.visible("#replay-position"), "the dropped record shown")
    await _at(tab, 0)
    await tab.page.keyboard.press("End")
    await tab.until(lambda: _is_last(tab), "at the last step")
    assert await _scores(tab) == records[1]["score"]
    shots.assert_layout()


#: A Brettspielwelt log of the shared data (shared/data/bsw) with 11 rounds, names in UTF-8 with
#: umlauts, a seat whose player changed within the game, and a Mah Jong with no wish (BSW's
#: rule, the flag ``wish_optional``).
BSW_LOG = "game_100920.tch"


async def test_a_brettspielwelt_game_opens_and_steps_to_its_scores(server: LiveServer, open_page: OpenPage,
                                                                    shots: Shots, shared_dir: Path) -> None:
    """Issue 12, Replay viewer: "The Arena's and Brettspielwelt's records open in it too". A real
    BSW log chosen on the login view ("Open a record") opens at its first step with the log's
    names; it steps on by keys (the open hands as the rules have them), jumps to the Mah Jong
    that wishes nothing, then to every round's end, where the score shown is the running sum
    of the record's round scores; at the last step it is the record's final score."""
    path = shared_dir / "data" / "bsw" / BSW_LOG
    record = import_file(path)
    steps = replay_document(record)["steps"]
    totals = [list(score) for score in itertools.accumulate(
        (round_["score"] for round_ in record["rounds"]), lambda a, b: [a[0] + b[0], a[1] + b[1]])]
    assert totals[-1] == record["score"] == steps[-1]["score"]
    tab = await open_page(DESKTOP, "replay-bsw")
    await tab.page.goto(server.url)
    await tab.wait_view("view-login")
    assert await tab.visible("#login-open-record")
    await tab.page.set_input_files("#replay-file-input", path)  # the file that button chooses
    await tab.wait_view("view-replay")
    await _at(tab, 0)
    assert (await _position(tab))[1] == len(steps)
    names = [player["name"] for player in record["players"]]
    assert "alejandro_styl / püppi69" in names
    assert await tab.texts("#replay-seats .replay-seat-name") == names
    for step in range(1, 4):
        await tab.page.keyboard.press("ArrowRight")
        await _at(tab, step)
        assert await _hand_sizes(tab) == [len(hand) for hand in steps[step]["hands"]]
    no_wish = next(index for index, step in enumerate(steps) if step["kind"] == "wish" and not step["value"])
    trick_start = steps.index(next(step for step in steps if (step["round"], step["trick"]) == (
        steps[no_wish]["round"], steps[no_wish]["trick"])))
    await tab.page.select_option("#replay-round", str(_round_start(steps, steps[no_wish]["round"])))
    await tab.page.select_option("#replay-trick-select", str(trick_start))
    await _at(tab, trick_start)
    for position in range(trick_start + 1, no_wish + 1):
        await tab.page.keyboard.press("ArrowRight")
        await _at(tab, position)
    wisher = steps[no_wish]["seat"]
    assert wisher is not None
    assert (await tab.texts("#replay-step-text"))[0] == f"{names[wisher]} wishes for nothing."
    ends = [index for index, step in enumerate(steps) if step["kind"] == "round_end"]
    assert len(ends) == len(record["rounds"]) == 11
    for number, end in enumerate(ends):
        await tab.page.select_option("#replay-round", str(_round_start(steps, number)))
        await _at(tab, _round_start(steps, number))
        await tab.page.select_option("#replay-trick-select", str(end))
        await _at(tab, end)
        assert await _scores(tab) == totals[number], f"round {number + 1}"
        a, b = record["rounds"][number]["score"]
        assert (await tab.texts("#replay-step-text"))[0].endswith(f": {a} : {b}.")
    await tab.page.evaluate("() => document.activeElement.blur()")  # keys in a select are the select's
    await tab.page.keyboard.press("Home")
    await _at(tab, 0)
    await tab.click("#replay-last")
    await _at(tab, len(steps) - 1)
    assert await _scores(tab) == record["score"]
    await shots.take(tab, "replay-bsw", both=False)
    shots.assert_layout()


def _round_start(steps: Sequence[Mapping[str, Any]], number: int) -> int:
    """The index of a round's first step (its deal)."""
    return next(index for index, step in enumerate(steps) if step["round"] == number)


def _file(name: str, mime_type: str, data: bytes) -> FilePayload:
    return {"name": name, "mimeType": mime_type, "buffer": data}


def _expect_refused(tab: Tab, status: int) -> None:
    """Take the browser's console line about the refused request (expected here) off the errors."""
    expected = [error for error in tab.console_errors if f"status of {status}" in error]
    assert len(expected) == 1, tab.console_errors
    tab.console_errors.remove(expected[0])


async def _text_has(tab: Tab, selector: str, text: str) -> bool:
    return text in " ".join(await tab.texts(selector))


async def _is_last(tab: Tab) -> bool:
    position = await _shown_position(tab)
    return position is not None and position[0] == position[1]


async def _count_is(tab: Tab, selector: str, count: int) -> bool:
    return await tab.count(selector) == count


@pytest.mark.slow
async def test_a_game_just_played(start_server: StartServer, open_page: OpenPage) -> None:
    """Issue 12, Done means: "the replay viewer steps through it [the game just played] forwards
    and backwards and its final scores equal the record's". A game played by clicks (target
    100) is opened by clicking its Replay link in the history; four steps forwards by ▶ and one
    back by ◀ show exactly what the step before showed (position, text, hands, trick, address);
    ⏭ jumps to the end, whose scores are the stored record's; Back returns to the lobby."""
    server = await start_server(target_score=100, seed=11)
    tab = await open_page(PHONE, "replay-played")
    await start_alone(tab, server, "Gio", "replayed")
    await Player(tab).play_until(game_over, GAME_WAIT)
    [record] = await wait_for_records(server, "replayed")
    steps = replay_document(record)["steps"]
    await tab.until(lambda: tab.visible("#round-result .result-close"), "the last round's result")
    await tab.click("#round-result .result-close")
    await tab.wait_view("view-scores")
    await tab.click("#scores-back")
    await tab.wait_view("view-lobby")
    await tab.click("#lobby-history")
    await tab.wait_view("view-history")
    link = f'#history-list li.history-game[data-game-id="{record["id"]}"] a.history-replay'
    await tab.until(lambda: tab.visible(link), "the game's Replay link")
    await tab.click(link)
    await tab.wait_view("view-replay")
    await _at(tab, 0)
    assert (await _position(tab))[1] == len(steps)
    assert "Gio" in (await tab.texts("#replay-title"))[0]
    shown = [await _shown_step(tab)]
    for step in range(1, 5):
        await tab.click("#replay-next")
        await _at(tab, step)
        shown.append(await _shown_step(tab))
        assert shown[step]["hands"] == [len(hand) for hand in steps[step]["hands"]]
        assert tab.page.url.endswith(f"#replay={record['id']}&step={step}")
    # every step showed something else, so that going back is seen
    assert len({str({key: value for key, value in view.items() if key != "position"}) for view in shown}) == 5
    await tab.click("#replay-prev")
    await _at(tab, 3)
    assert await _shown_step(tab) == shown[3]
    assert tab.page.url.endswith(f"#replay={record['id']}&step=3")
    await tab.click("#replay-next")
    await _at(tab, 4)
    assert await _shown_step(tab) == shown[4]
    await tab.click("#replay-last")
    await tab.until(lambda: _is_last(tab), "at the last step")
    assert steps[-1]["kind"] == "round_end"
    assert await _scores(tab) == record["score"] == steps[-1]["score"]
    assert not await tab.enabled("#replay-next")
    await tab.click("#replay-back")
    await tab.wait_view("view-lobby")  # seated at the table: back to it


async def _shown_step(tab: Tab) -> dict[str, Any]:
    """What the viewer shows of a step: position, text, score, each seat's hand size and the trick."""
    return {"position": await _position(tab), "text": await tab.texts("#replay-step-text"),
            "scores": await _scores(tab), "hands": await _hand_sizes(tab),
            "seats": await tab.texts("#replay-seats .replay-seat-head"), "trick": await tab.texts("#replay-trick")}


async def test_a_seat_someone_left_names_the_substitute_from_the_change_on(
        server: LiveServer, open_page: OpenPage, records: list[Record]) -> None:
    """Issue 23: a game Ben left in its second round (``seat_changes``) replays with Ben on his seat
    before the change and "Bot 2 for Ben" from it on, in the step's text and on the seat."""
    record = json.loads(json.dumps(records[1]))
    record["id"] = "left-by-ben"
    record["players"][1] = {"name": "Ben", "kind": "human"}
    record["seat_changes"] = [{"seat": 1, "round": 1, "event": 0, "name": "Bot 2", "kind": "agent:random",
                               "reason": "left"}]
    await _store(server, record)
    steps = replay_document(record)["steps"]
    late = next(index for index, step in enumerate(steps) if step["round"] >= 1 and step["seat"] == 1
                and step["kind"] in ("play", "pass"))
    tab = await open_page(DESKTOP, "replay")
    await tab.page.goto(f"{server.url}#replay={record['id']}&step={late}")
    await tab.wait_view("view-replay")
    await _at(tab, late)
    assert (await tab.texts("#replay-step-text"))[0].startswith("Bot 2 for Ben ")
    assert any("Bot 2 for Ben" in text for text in await tab.texts("#replay-seats .replay-seat"))
    await tab.page.keyboard.press("Home")
    await _at(tab, 0)
    seats = await tab.texts("#replay-seats .replay-seat")
    assert any("Ben" in text for text in seats) and not any("for Ben" in text for text in seats)
