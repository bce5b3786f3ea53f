"""The wish offers what the server lists (issue 36, "requests carry their choices"; protocol.md
``wish``): the client knows no wish rule of its own. Under ``wish_optional`` (R5.1) the list has
0 and the dialog "No wish", which sends 0; without it the dialog has the thirteen values only."""

from __future__ import annotations

import pytest

from tests.support.browser import DESKTOP, PHONE, OpenPage, Shots, Size, Tab
from tests.support.live_server import LiveServer, Message
from tests.support.scripted_table import scripted_table

pytestmark = pytest.mark.asyncio(loop_scope="session")

VALUES = list(range(2, 15))


async def _buttons(tab: Tab) -> list[str]:
    found: list[str] = await tab.page.eval_on_selector_all("#dialog-wish button[data-wish]",
                                                            "els => els.map(e => e.dataset.wish)")
    return found


def _answers(sent: list[Message], request_id: str) -> list[Message]:
    """The ``response_data`` the page sent for a request."""
    return [message["payload"]["response_data"] for message in sent
            if message.get("type") == "response" and message["payload"]["request_id"] == request_id]


async def _offers(tab: Tab, values: list[int]) -> bool:
    return await tab.visible("#dialog-wish") and await _buttons(tab) == [str(value) for value in values]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=lambda size: size.name)
async def test_the_wish_dialog_offers_the_values_the_request_lists(server: LiveServer, open_page: OpenPage,
                                                                   shots: Shots, size: Size) -> None:
    tab = await open_page(size, f"wish-{size.name}")
    script = await scripted_table(tab, server)
    await tab.until(lambda: tab.enabled("#btn-pass"), "the own turn")
    script.request("w1", "wish", {"wish_values": [0, *VALUES]})
    await tab.until(lambda: _offers(tab, [0, *VALUES]), "the wish dialog with 'No wish'")
    assert (await tab.texts('#dialog-wish button[data-wish="0"]')) == ["No wish"]
    await shots.take(tab, f"wish-optional-{size.name}", both=False)
    shots.assert_layout()
    await tab.click('#dialog-wish button[data-wish="0"]')
    await tab.until(lambda: bool(_answers(script.sent, "w1")), "the wish is sent")
    assert _answers(script.sent, "w1") == [{"wish_value": 0}]
    script.request("w2", "wish", {"wish_values": VALUES})
    await tab.until(lambda: _offers(tab, VALUES), "the wish dialog without 'No wish'")
