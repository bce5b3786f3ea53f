"""A page at a scripted table: its WebSocket is a script that sends what a server would
(:func:`~tests.support.browser.join_scripted_table`), so that a test knows each state it checks."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tests.support.browser import Tab, join_scripted_table, notification
from tests.support.live_server import LiveServer, Message

if TYPE_CHECKING:
    from playwright.async_api import WebSocketRoute

#: The own seat's name, the right-hand opponent's, the partner's and the left-hand opponent's.
NAMES = ["Anna", "Rolf", "Ben", "Dora"]


@dataclass
class Script:
    """A page whose WebSocket is a script: the test sends what a server would."""

    tab: Tab
    sockets: list[WebSocketRoute]
    sent: list[Message]

    def send(self, event: str, context: Message, public: Message | None = None,
             private: Message | None = None) -> None:
        """Send a notification to the page, with the fields of the state it changed (``public_delta``,
        ``private_delta``, as a server sends them: Issue 36)."""
        self.sockets[-1].send(notification(event, context, public, private))

    def request(self, request_id: str, action: str, context: Message) -> None:
        """Send a request to the page (protocol.md, "Requests and responses"), without a clock."""
        payload = {"request_id": request_id, "action": action, "context": context, "timeout": None}
        self.sockets[-1].send(json.dumps({"type": "request", "payload": payload}))


def _hand() -> list[list[int]]:
    return [[2, 1], [3, 2], [5, 2], [7, 3], [7, 4], [9, 1], [10, 4], [11, 2], [12, 1], [13, 3], [14, 2],
            [14, 3], [1, 0], [16, 0]]


async def scripted_table(tab: Tab, server: LiveServer, names: list[str] | None = None,
                         announcements: list[int] | None = None) -> Script:
    """Join a scripted table as seat 0 in a running round, at the own turn after the right-hand
    opponent led a 9 (fourteen cards in hand; the others hold 13, 12 and 14)."""
    names = names or NAMES
    hand = _hand()
    public = {"table_name": "mock", "player_names": names, "host_index": 0, "is_running": True,
              "phase": "playing", "round_index": 0, "current_turn_index": 0, "count_hand_cards": [14, 13, 12, 14],
              "announcements": announcements or [0, 0, 0, 0], "wish_value": 0, "wish_open": False,
              "trick_turns": [[1, [[9, 2]], ["single", 1, 9]]], "trick_owner_index": 1, "trick_points": 0,
              "points": [0, 0, 0, 0], "tricks_won": [0, 0, 0, 0], "out_order": [], "played_cards": [[9, 2]],
              "round_scores": [], "total": [0, 0], "passed": []}
    request = {"request_id": "r1", "action": "play", "timeout": None,
               "context": {"hand_cards": hand, "trick_combination": ["single", 1, 9], "trick_owner_index": 1,
                           "wish_value": 0, "legal_plays": [[], [[10, 4]], [[14, 2]]], "hint": None}}
    joined = {"player_index": 0, "player_name": names[0], "session_id": "s-1", "protocol_version": 1,
              "pending_request": request, "public_state": public,
              "private_state": {"player_index": 0, "hand_cards": hand, "given_schupf_cards": None,
                                "received_schupf_cards": None, "may_announce": False, "bombs": []}}
    sent: list[Message] = []
    sockets = await join_scripted_table(tab, server.url, names[0], joined, lambda text: sent.append(json.loads(text)))
    return Script(tab, sockets, sent)
