"""Every frame a page receives matches the protocol's JSON Schema (docs/protocol.schema.json).

One person plays a whole game by clicks (with a chat line in the lobby) while a second page
watches it as a spectator; every text frame either page received, from ``player_joined`` and
``spectate_started`` to ``game_over``, is validated against the schema's ``ServerMessage``
(generated from :mod:`tichu.server.wire.outgoing`, see ``tests/server/test_wire_schema.py``). The
test fails on the first frame that does not match, with the JSON path of what is wrong.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs; used only to validate
import pytest

from tests.support.browser import DESKTOP, GAME_WAIT, PHONE, OpenPage, Tab
from tests.support.clicks import Player, game_over
from tests.support.live_server import StartServer
from tichu.server.wire.schema import direction_schema

pytestmark = pytest.mark.asyncio(loop_scope="session")

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"
#: A game to 100 points over more than one round, as in test_e2e.
GAME_SEED = 11
WATCH = '#login-tables .watch-table[data-table="schema"] .watch-button'


def first_invalid(tab: Tab) -> str | None:
    """The first frame the page received that the schema refuses, described, or ``None``."""
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(direction_schema(schema, "ServerMessage"))
    received = [frame.message for frame in tab.wire.frames if frame.direction == "in"]
    for number, message in enumerate(received, start=1):
        error = jsonschema.exceptions.best_match(validator.iter_errors(message))
        if error is not None:
            path = "/".join(str(part) for part in error.absolute_path)
            return f"{tab.label}: frame {number} of {len(received)} at /{path}: {error.message}\n" \
                   f"{json.dumps(message)[:500]}"
    return None


def kinds(tab: Tab) -> set[str]:
    """The message types and notification events a page received."""
    seen: set[str] = set()
    for message in tab.wire.received():
        payload: Any = message.get("payload")
        seen.add(payload["event"] if message.get("type") == "notification" else str(message.get("type")))
    return seen


async def test_every_frame_of_a_whole_game_matches_the_schema(start_server: StartServer,
                                                              open_page: OpenPage) -> None:
    """A player's page and a spectator's page through a whole game: every frame they received
    is a ``ServerMessage`` of docs/protocol.schema.json."""
    server = await start_server(target_score=100, seed=GAME_SEED)
    tab = await open_page(DESKTOP, "schema player")
    await tab.login(server.url, "Sky", "schema")
    await tab.wait_view("view-lobby")
    await tab.until(lambda: tab.visible("#chat-toggle"), "#chat-toggle is shown")
    await tab.click("#chat-toggle")
    await tab.until(lambda: tab.visible("#dialog-chat"), "#dialog-chat opens")
    await tab.page.locator("#chat-input").fill("good luck")
    await tab.click("#chat-send")
    await tab.until(lambda: tab.wire.count("chat_message") == 1, "the chat line comes back")
    await tab.page.keyboard.press("Escape")
    await tab.until(lambda: tab.enabled("#lobby-start"), "#lobby-start enabled for the host")
    await tab.click("#lobby-start")
    await tab.wait_view("view-table")

    watcher = await open_page(PHONE, "schema watcher")
    await watcher.page.goto(server.url)
    await watcher.wait_view("view-login")
    await watcher.until(lambda: watcher.enabled(WATCH), "the login view lists the running table with Watch")
    await watcher.click(WATCH)
    await watcher.wait_view("view-table")

    await Player(tab).play_until(game_over, GAME_WAIT)
    await watcher.until(lambda: game_over(watcher.wire), "the spectator sees game_over")
    for page in (tab, watcher):
        assert first_invalid(page) is None, first_invalid(page)
    assert {"player_joined", "request", "chat_message", "lobby_state", "round_over", "game_over"} <= kinds(tab)
    assert {"spectate_started", "player_played", "game_over"} <= kinds(watcher)
