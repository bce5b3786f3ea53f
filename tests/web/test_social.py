"""The table's chat, quick reactions, readiness and the target score, in headless Chromium
against the real server (docs/web-client.md: ``#chat-toggle``, ``#dialog-chat``,
``#lobby-ready``, ``#lobby-target``, ``#score-target``).

As in ``test_e2e.py`` the pages are driven by clicks and typing; the WebSocket frames only tell
the test when to act and what the server sent.
"""

from __future__ import annotations

from functools import partial

import pytest

from tests.support.browser import DESKTOP, PHONE, OpenPage, Shots, Size, Tab
from tests.support.live_server import LiveServer, StartServer
from tichu.server.tables.social import CHAT_BURST, CHAT_RATE

pytestmark = pytest.mark.asyncio(loop_scope="session")

MARKUP_NAME = "O'Brien & <b>Co</b>"
MARKUP_TEXT = "Hi <i>all</i> & <script>x</script> 'quoted' \"too\""


async def last_line(tab: Tab) -> tuple[str, str]:
    """The name and text of the last ``#chat-log .chat-line``."""
    names = await tab.texts("#chat-log .chat-line .chat-name")
    texts = await tab.texts("#chat-log .chat-line .chat-text")
    return (names[-1], texts[-1]) if names else ("", "")


async def _line_is(tab: Tab, name: str, text: str) -> bool:
    return await last_line(tab) == (name, text)


async def _text_is(tab: Tab, selector: str, text: str) -> bool:
    return text in await tab.texts(selector)


async def _synced(tab: Tab) -> bool:
    return tab.wire.count("lobby_state") > 0 and await tab.visible("#chat-toggle")


async def send_chat(tab: Tab, text: str) -> None:
    """Type a text into ``#chat-input`` and click ``#chat-send``."""
    await tab.page.locator("#chat-input").fill(text)
    await tab.click("#chat-send")


async def two_in_the_lobby(start_server: StartServer, open_page: OpenPage, table: str,
                           host_name: str = "Hana") -> tuple[LiveServer, Tab, Tab]:
    """A host (desktop) and a guest (phone) in the lobby of a new table, each seeing the other."""
    server = await start_server()
    host = await open_page(DESKTOP, f"{table} host")
    guest = await open_page(PHONE, f"{table} guest")
    await host.login(server.url, host_name, table)
    await host.wait_view("view-lobby")
    await guest.login(server.url, "Gus", table)
    await guest.wait_view("view-lobby")
    for tab in (host, guest):
        await tab.until(partial(_synced, tab), "the lobby state arrived and #chat-toggle is shown")
    return server, host, guest


@pytest.mark.slow
async def test_chat_between_two_browsers(start_server: StartServer, open_page: OpenPage, shots: Shots) -> None:
    """The host types a text with markup and sends it; the guest sees ``#chat-unread`` count it,
    opens the panel and reads the host's name and the text literally (no element made of it); the
    guest's reaction shows as a bubble at the guest's seat in the host's lobby and as a line. With
    ``#chat-mute`` on (kept in localStorage) the guest sees no more incoming lines."""
    _, host, guest = await two_in_the_lobby(start_server, open_page, "chat", MARKUP_NAME)
    assert await host.texts("#chat-toggle .chat-toggle-label") == ["Chat"] and not await host.visible("#dialog-chat")
    await host.click("#chat-toggle")
    await host.until(lambda: host.visible("#dialog-chat"), "#dialog-chat opens on #chat-toggle")
    assert await host.page.evaluate("document.activeElement.id") == "chat-input", "the text field gets the focus"
    await send_chat(host, f"  {MARKUP_TEXT}  ")
    await host.until(partial(_line_is, host, MARKUP_NAME, MARKUP_TEXT), "the host's own line in #chat-log")
    assert [m["payload"] for m in host.wire.sent() if m.get("type") == "chat"] == [{"text": MARKUP_TEXT}]

    await guest.until(partial(_text_is, guest, "#chat-unread", "1"), "#chat-unread counts the host's line")
    await shots.take(guest, "lobby-chat-unread")
    await guest.click("#chat-toggle")
    await guest.until(partial(_line_is, guest, MARKUP_NAME, MARKUP_TEXT), "the guest reads the line literally")
    assert not await guest.visible("#chat-unread"), "opening the panel reads the unread lines"
    for tab in (host, guest):
        assert await tab.count("#chat-log b, #chat-log i, #chat-log script") == 0, "markup became elements"
    await shots.take(guest, "lobby-chat")

    await guest.click('.chat-reaction[data-reaction="well_played"]')
    bubble = '#view-lobby .lobby-seat[data-seat="1"] .reaction-bubble'
    await host.until(partial(_text_is, host, bubble, "Well played"), "the reaction's bubble at the guest's seat")
    await host.until(partial(_line_is, host, "Gus", "Well played"), "the reaction as a line in the host's log")
    await shots.take(host, "lobby-chat-reaction")

    await guest.click("#chat-mute")
    await guest.until(lambda: guest.visible('#chat-mute[aria-pressed="true"]'), "#chat-mute is pressed")
    assert await guest.page.evaluate("localStorage.getItem('tichu.chatMuted')") == "1"
    await send_chat(host, "secret")
    await host.until(partial(_line_is, host, MARKUP_NAME, "secret"), "the host sees its own line")
    await guest.until(lambda: guest.wire.count("chat_message") == 2, "the second line reached the guest's page")
    await guest.next_frame()
    assert "secret" not in await guest.texts("#chat-log .chat-text"), "a muted chat shows no incoming line"
    assert await guest.texts("#chat-log .chat-name") == ["Gus"], "muted: only the own lines are shown"
    await guest.click("#chat-close")
    assert not await guest.visible("#dialog-chat")
    await send_chat(host, "still muted")
    await guest.until(lambda: guest.wire.count("chat_message") == 3, "the third line reached the guest's page")
    await guest.next_frame()
    assert not await guest.visible("#chat-unread"), "a muted chat counts nothing unread"
    assert not guest.wire.errors() and not host.wire.errors()
    shots.assert_layout()


@pytest.mark.slow
async def test_ready_and_target_score(start_server: StartServer, open_page: OpenPage, shots: Shots) -> None:
    """The host's Start waits until the guest pressed ``#lobby-ready`` (the guest's seat then has
    the class ``ready`` and the tag "ready" on both pages); the host's ``#lobby-target`` (500) is
    shown to the guest read-only and sent as ``set_options {target_score}``; choosing it makes the
    guest not ready again. The game is played to it: ``#score-target`` says "to 500" on both
    tables and the server's game has it as its target score."""
    server, host, guest = await two_in_the_lobby(start_server, open_page, "ready")
    await host.until(lambda: host.visible("#lobby-start:disabled"), "#lobby-start waits for the guest")
    assert "Gus" in (await host.texts("#lobby-hint"))[0]
    assert not await host.visible("#lobby-ready"), "the host's Start is its readiness"
    assert await guest.texts("#lobby-ready") == ["Ready"]
    assert await guest.page.locator("#lobby-ready").get_attribute("aria-label") == "Ready to start"

    await guest.click("#lobby-ready")
    for tab in (host, guest):
        await tab.until(partial(tab.visible, '.lobby-seat[data-seat="1"].ready'), "the guest's seat is ready")
        assert "ready" in (await tab.texts('.lobby-seat[data-seat="1"] .seat-tags'))[0]
    await host.until(lambda: host.enabled("#lobby-start"), "#lobby-start enabled once everyone is ready")
    assert await guest.texts("#lobby-ready") == ["✓ Ready"]
    assert await guest.page.locator("#lobby-ready").get_attribute("aria-pressed") == "true"
    await shots.take(host, "lobby-ready-host")
    await shots.take(guest, "lobby-ready-guest")

    assert not await guest.enabled("#lobby-target"), "the guest sees the target score read-only"
    await host.page.select_option("#lobby-target", "500")
    for tab in (host, guest):
        await tab.until(partial(_target_is, tab, "500"), "the target score 500 shown")
    assert [m["payload"] for m in host.wire.sent() if m.get("type") == "set_options"] == [{"target_score": 500}]
    await host.until(lambda: host.visible("#lobby-start:disabled"), "a new option makes the guest not ready")
    await guest.click("#lobby-ready")
    await host.until(lambda: host.enabled("#lobby-start"), "#lobby-start enabled again")
    await host.click("#lobby-start")
    for tab in (host, guest):
        await tab.wait_view("view-table")
        await tab.until(partial(_text_is, tab, "#score-target", "to 500"), "#score-target shows the target")
    server_table = server.table("ready")
    assert server_table.engine is not None and server_table.engine.rules.target_score == 500
    await guest.click("#chat-toggle")
    await guest.until(lambda: guest.visible("#dialog-chat"), "the chat opens on the table too")
    await shots.take(guest, "table-chat")
    await guest.click("#chat-close")
    await shots.take(guest, "table-target")
    assert not host.wire.errors() and not guest.wire.errors()
    shots.assert_layout()


async def _target_is(tab: Tab, value: str) -> bool:
    return str(await tab.page.locator("#lobby-target").input_value()) == value


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "laptop"])
async def test_too_fast_says_what_the_server_allows(start_server: StartServer, open_page: OpenPage,
                                                    size: Size) -> None:
    """Issue 23, finding 11: the server takes ``CHAT_BURST`` messages at once, then ``CHAT_RATE``
    a second; the toast for one beyond it says just that (it said "one message a second" after
    three had gone through in 0.3 s)."""
    assert CHAT_RATE == 1.0, "the toast says one a second"
    server = await start_server()
    tab = await open_page(size, "too-fast")
    await tab.login(server.url, "Quick", f"fast-{size.name}")
    await tab.wait_view("view-lobby")
    await tab.until(partial(_synced, tab), "the lobby state arrived and #chat-toggle is shown")
    await tab.click("#chat-toggle")
    await tab.until(lambda: tab.visible("#chat-input"), "#dialog-chat opens")
    for number in range(CHAT_BURST + 3):
        await send_chat(tab, f"m{number}")
        if any(error.get("code") == 105 for error in tab.wire.errors()):
            break
    await tab.until(lambda: any(error.get("code") == 105 for error in tab.wire.errors()),
                    "the server refuses a message beyond its bucket")
    expected = f"Not so fast: {CHAT_BURST} messages at once, then one a second."
    await tab.until(lambda: _text_is(tab, "#toast", expected), f"the toast says {expected!r}")
