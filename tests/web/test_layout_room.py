"""The table uses its room (issue 23, finding 11's layout parts), in headless Chromium against a
scripted socket (:mod:`tests.support.scripted_table`): a long own name beside its badges at
1366x768, the others' hands on a phone once the player is out, the score sheet on a phone and
the table at 1920x1080. Each is judged by element sizes and positions, not by pixels.
"""

from __future__ import annotations

from functools import partial
from itertools import combinations
from typing import Any

import pytest

from tests.support.browser import DESKTOP, FULL_HD, PHONE, OpenPage, Shots, Size, Tab, name_problems
from tests.support.live_server import LiveServer
from tests.support.scripted_table import NAMES, scripted_table
from tichu.arena.arena import Arena
from tichu.records.steps import replay_document
from tichu.server.keys import STORE

pytestmark = pytest.mark.asyncio(loop_scope="session")

_BOXES_JS = """(selector) => [...document.querySelectorAll(selector)].filter(el => el.checkVisibility()).map(el => {
    const r = el.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height};
})"""


async def _any(tab: Tab, selector: str) -> bool:
    """Whether an element matches ``selector``."""
    return await tab.count(selector) > 0


async def boxes(tab: Tab, selector: str) -> list[dict[str, float]]:
    """The boxes (viewport pixels) of the shown elements matching ``selector``."""
    found: list[dict[str, float]] = await tab.page.evaluate(_BOXES_JS, selector)
    return found


async def box(tab: Tab, selector: str) -> dict[str, float]:
    """The box of the first shown element matching ``selector``."""
    found = await boxes(tab, selector)
    assert found, f"{tab.label}: {selector} is not shown"
    return found[0]

#: A long own name, as in the finding ("O'Bri…" beside a badge at 1366x768).
LONG_NAME = "O'Brien-Longname"

@pytest.mark.slow
@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=lambda size: size.name)
async def test_long_own_name_beside_its_badges(server: LiveServer, open_page: OpenPage, shots: Shots,
                                               size: Size) -> None:
    """A long own name with a Grand Tichu call, the card count and "Pass" beside it is
    shown whole: not shortened, inside the seat, under no badge."""
    tab = await open_page(size, f"long-name-{size.name}")
    names = [LONG_NAME, *NAMES[1:]]
    script = await scripted_table(tab, server, names=names, announcements=[2, 0, 0, 0])
    await tab.until(lambda: tab.enabled("#btn-pass"), "the own turn")
    await tab.click("#btn-pass")
    script.send("player_passed", {"player_index": 0}, {"passed": [0]})
    await tab.until(lambda: tab.visible(".seat.pos-bottom .seat-pass"), "the own seat shows Pass")
    await shots.take(tab, f"long-own-name-{size.name}", both=False)
    problems = await name_problems(tab, ".seat.pos-bottom")
    assert not problems, problems
    shots.assert_layout()


def _cards(count: int, suit: int) -> list[list[int]]:
    return [[2 + index % 13, suit if index < 13 else (suit % 4) + 1] for index in range(count)]


@pytest.mark.slow
async def test_phone_the_others_hands_fill_the_room_once_out(server: LiveServer, open_page: OpenPage,
                                                             shots: Shots) -> None:
    """Finding 11, phone: once the player is out, the others' hands became tiny strips above an
    empty band. The three revealed hands share the hand's room: together they span most of its
    height, and each card is at least a quarter of the row's height larger than before (84 stage
    pixels wide)."""
    tab = await open_page(PHONE, "revealed-phone")
    script = await scripted_table(tab, server)
    await tab.until(lambda: tab.enabled("#btn-pass"), "the own turn")
    own = [[2, 1], [3, 2], [5, 2], [7, 3], [7, 4], [9, 1], [10, 4], [11, 2], [12, 1], [13, 3], [14, 2],
           [14, 3], [1, 0], [16, 0]]
    script.send("player_played", {"turn": [0, own, ["street", 14, 14]], "trick_points": 10,
                                  "trick_owner_index": 0, "is_bomb": False, "out_of_turn": False},
                {"trick_turns": [[0, own, ["street", 14, 14]]], "trick_owner_index": 0}, {"hand_cards": []})
    script.send("player_out", {"player_index": 0, "place": 1}, {"out_order": [0]})
    script.send("hands_revealed", {"hands": [[], _cards(13, 1), _cards(12, 2), _cards(14, 3)]})
    await tab.until(lambda: tab.visible('.revealed-hand[data-seat="3"] .card'), "the others' hands are shown")
    room = await box(tab, "#revealed-hands")
    cards = await boxes(tab, "#revealed-hands .card")
    names = await boxes(tab, "#revealed-hands .revealed-name")
    assert len(cards) == 39 and len(names) == 3
    top, bottom = min(b["top"] for b in names + cards), max(b["bottom"] for b in names + cards)
    assert bottom - top >= 0.8 * room["height"], f"the hands span {top:.0f}..{bottom:.0f} of {room}"
    narrowest = min(b["width"] for b in cards)
    assert narrowest >= 0.105 * room["width"], f"a card is {narrowest:.0f} px wide in a {room['width']:.0f} px row"
    assert max(b["right"] for b in cards) <= room["right"] + 1 and min(b["left"] for b in cards) >= room["left"] - 1
    await shots.take(tab, "revealed-hands-phone", both=False)
    shots.assert_layout()


@pytest.mark.slow
async def test_phone_score_sheet_fills_the_screen(server: LiveServer, open_page: OpenPage, shots: Shots) -> None:
    """Finding 11, phone: the score sheet was a small table above an empty band, its button at the
    bottom of the screen. Now no band between its parts (title, winner, each row, the button) is
    higher than a tenth of the screen, and each round's row is at least 3.5% of the screen high."""
    tab = await open_page(PHONE, "scores-phone")
    script = await scripted_table(tab, server, announcements=[0, 0, 1, 2])
    await tab.until(lambda: tab.enabled("#btn-pass"), "the own turn")
    total = [0, 0]
    for round_index in range(3):
        points = [170, -170] if round_index % 2 == 0 else [40, 60]
        total = [total[0] + points[0], total[1] + points[1]]
        script.send("round_started", {"round_index": round_index + 1},
                    {"phase": "grand_tichu", "round_index": round_index + 1})
        script.send("round_over", {"card_points": [70, 30], "bonus": [100, -200], "points": points, "total": total,
                                   "out_order": [2, 1, 3], "is_double_victory": False},
                    {"phase": "round_over", "total": total})
    script.send("game_over", {"game_score": [], "total": total, "winner": 20},
                {"phase": "game_over", "is_running": False})
    await tab.until(lambda: tab.visible("#round-result .result-winner"), "the result names the winners")
    await tab.click("#round-result .result-close")
    await tab.wait_view("view-scores")
    await tab.next_frame()
    parts = sorted(await boxes(tab, "#scores-title, #scores-winner, #scores-table tr, #scores-back"),
                   key=lambda part: part["top"])
    height = PHONE.height
    for above, below in zip(parts, parts[1:], strict=False):
        assert below["top"] - above["bottom"] <= 0.1 * height, f"an empty band from {above} to {below}"
    rows = await boxes(tab, "#scores-table tr.score-round")
    assert len(rows) == 3 and min(row["height"] for row in rows) >= 0.035 * height, rows
    await shots.take(tab, "scores-phone")
    shots.assert_layout()


@pytest.mark.slow
async def test_phone_replay_leaves_no_empty_band(server: LiveServer, open_page: OpenPage, shots: Shots) -> None:
    """Finding 11, phone: the replay showed small hands and a small trick above an empty band.
    At a step with three plays on the trick, no band between the replay's parts (the four
    seats, the trick's plays, the controls) is higher than a tenth of the screen, and the hand
    cards are at least a tenth of the screen wide (they were 100 stage pixels, 36 px)."""
    found: list[dict[str, Any]] = []
    Arena(["random"] * 4, games=1, seed=21, workers=1, target_score=200, records=True).run(on_record=found.append)
    record = found[0]
    record["players"] = [{"name": name, "kind": "agent:random"} for name in ("Ada", "Ben", "Cleo", "Dan")]
    record["id"] = "room-replay"
    assert await server.app[STORE].read(lambda games: games.archive.add(record))
    steps = replay_document(record)["steps"]
    middle = next(index for index, step in enumerate(steps) if step["kind"] == "play"
                  and len(step["trick_turns"]) >= 3 and step["round"] == 0)
    tab = await open_page(PHONE, "replay-room")
    await tab.page.goto(f"{server.url}#replay={record['id']}&step={middle}")
    await tab.wait_view("view-replay")
    await tab.until(partial(_any, tab, "#replay-trick .replay-play"), "the trick's plays are shown")
    await tab.next_frame()
    parts = sorted(await boxes(tab, ".replay-seat, #replay-trick .replay-play, #replay-controls"),
                   key=lambda part: part["top"])
    for above, below in zip(parts, parts[1:], strict=False):
        assert below["top"] - above["bottom"] <= 0.1 * PHONE.height, f"an empty band from {above} to {below}"
    card = (await boxes(tab, ".replay-hand .card"))[0]
    assert card["width"] >= 0.1 * PHONE.width, card
    await shots.take(tab, "replay-room-phone", both=False)
    shots.assert_layout()


@pytest.mark.slow
async def test_full_hd_table_uses_its_room(server: LiveServer, open_page: OpenPage, shots: Shots) -> None:
    """Finding 11, 1920x1080: the table left much of its middle empty, the trick's cards 66 px
    wide. With the partner's and both opponents' plays on the trick, each trick card is at least
    90 px wide, the plays stay inside the middle and apart, and the layout check finds nothing."""
    tab = await open_page(FULL_HD, "full-hd-room")
    script = await scripted_table(tab, server)
    await tab.until(lambda: tab.enabled("#btn-pass"), "the own turn")
    script.send("player_passed", {"player_index": 0}, {"passed": [0]})
    opponent = [3, [[11, 1]], ["single", 1, 11]]
    partner = [2, [[4, 1], [5, 2], [6, 3], [7, 1], [8, 4]], ["street", 5, 8]]
    script.send("player_played", {"turn": opponent, "trick_points": 0,
                                  "trick_owner_index": 3, "is_bomb": False, "out_of_turn": False},
                {"trick_turns": [[1, [[9, 2]], ["single", 1, 9]], opponent], "trick_owner_index": 3, "passed": []})
    script.send("player_played", {"turn": partner, "trick_points": 10, "trick_owner_index": 2, "is_bomb": False,
                                  "out_of_turn": False},
                {"trick_turns": [[1, [[9, 2]], ["single", 1, 9]], opponent, partner], "trick_owner_index": 2,
                 "trick_points": 10})
    await tab.until(partial(_any, tab, '#trick .trick-turn[data-seat="2"] .card'), "the partner's play is shown")
    await tab.next_frame()
    cards = await boxes(tab, "#trick .card")
    assert cards and min(card["width"] for card in cards) >= 90, cards
    center = await box(tab, "#center")
    turns = await boxes(tab, "#trick .trick-turn")
    for turn in turns:
        inside = center["left"] <= turn["left"] and turn["right"] <= center["right"] and \
            center["top"] <= turn["top"] and turn["bottom"] <= center["bottom"]
        assert inside, (turn, center)
    for first, second in combinations(turns, 2):
        overlap_w = min(first["right"], second["right"]) - max(first["left"], second["left"])
        overlap_h = min(first["bottom"], second["bottom"]) - max(first["top"], second["top"])
        assert overlap_w <= 0 or overlap_h <= 0, (first, second)
    await shots.take(tab, "table-room-full-hd")
    shots.assert_layout()
