"""The table uses its room (issue 23, finding 11's layout parts), in headless Chromium against a
scripted socket (:mod:`tests.support.scripted_table`): a long own name beside its badges at
1366x768, the others' hands on a phone once the player is out, the score sheet on a phone and
the table at 1920x1080. Each is judged by element sizes and positions, not by pixels.
"""

from __future__ import annotations

import pytest

from tests.support.browser import DESKTOP, PHONE, OpenPage, Shots, Size, name_problems
from tests.support.live_server import LiveServer
from tests.support.scripted_table import NAMES, scripted_table

pytestmark = pytest.mark.asyncio(loop_scope="session")

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
    script.send("player_passed", {"player_index": 0})
    await tab.until(lambda: tab.visible(".seat.pos-bottom .seat-pass"), "the own seat shows Pass")
    await shots.take(tab, f"long-own-name-{size.name}", both=False)
    problems = await name_problems(tab, ".seat.pos-bottom")
    assert not problems, problems
    shots.assert_layout()
