"""After the game (issue 35, "analysis offered after each game", as lichess does): once the
server tells the game is stored (``game_stored``), the score sheet offers its replay and analysis;
the button opens the replay viewer on that game. Phone and laptop, English and German."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.browser import DESKTOP, PHONE, OpenPage, Shots, Size, Tab
from tests.support.live_server import LiveServer
from tests.support.scripted_table import scripted_table
from tests.web.test_round_result import end_the_round
from tichu.arena.arena import Arena
from tichu.server.keys import STORE

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    found: list[dict[str, Any]] = []
    Arena(["random"] * 4, games=1, seed=5, workers=1, target_score=200, records=True).run(on_record=found.append)
    found[0]["id"] = "the-game-just-played"
    return found[0]


async def _drawn(tab: Tab) -> bool:
    """Whether the score sheet has drawn its teams (the view shows a frame before it draws)."""
    return bool((await tab.texts("#scores-team-20") or [""])[0])


async def _texts_are(tab: Tab, selector: str, texts: list[str]) -> bool:
    return await tab.texts(selector) == texts


@pytest.mark.parametrize(("size", "language"), [(PHONE, "de"), (DESKTOP, "en")], ids=["phone-de", "laptop-en"])
async def test_the_score_sheet_offers_the_stored_games_replay_and_analysis(
        server: LiveServer, open_page: OpenPage, shots: Shots, record: dict[str, Any], size: Size,
        language: str) -> None:
    """The game ends (``game_over``): the sheet offers no replay until ``game_stored`` names the
    game; then "Replay and analyse this game" opens the replay viewer on it."""
    assert await server.app[STORE].read(lambda games: games.archive.add(record))
    tab = await open_page(size, f"after-{language}")
    script = await scripted_table(tab, server, announcements=[0, 0, 1, 2])
    await tab.until(lambda: tab.enabled("#btn-pass"), "the own turn")
    if language == "de":
        await tab.click("#lang-switch")
    end_the_round(script)
    script.send("game_over", {"game_score": [[170, -170]], "total": [170, -170], "winner": 20},
                {"phase": "game_over", "is_running": False})  # Issue 36: the state the server sends
    await tab.until(lambda: tab.visible("#round-result .result-winner"), "the result names the winners")
    await tab.click("#round-result .result-close")
    await tab.wait_view("view-scores")
    await tab.until(lambda: _drawn(tab), "the sheet drawn")
    assert not await tab.visible("#scores-review"), "a replay offered before the game is stored"
    script.send("game_stored", {"game_id": record["id"]})
    label = {"en": "Replay and analyse this game", "de": "Partie ansehen und analysieren"}[language]
    await tab.until(lambda: _texts_are(tab, "#scores-review", [label]), "the stored game's replay offered")
    await shots.take(tab, f"scores-review-{language}")
    shots.assert_layout()
    await tab.click("#scores-review")
    await tab.wait_view("view-replay")
    await tab.until(lambda: tab.visible("#replay-seats .replay-seat"), "the game's replay")
    assert f"#replay={record['id']}" in tab.page.url
