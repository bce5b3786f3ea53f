"""A client's parsed message, routed to its table and peer (protocol.md and docs/server.md)."""

from __future__ import annotations

from typing import Any

from tichu.core.round import ActionKind
from tichu.server.codes import ErrorCode
from tichu.server.tables.table import Table
from tichu.server.ws.peer import Peer
from tichu.server.ws.protocol import ProtocolError, cards_from_json, optional, require


def dispatch(table: Table, peer: Peer, kind: str, payload: dict[str, Any]) -> None:
    """Carry out one message of a seated client (``leave`` is the handler's).

    :raises ProtocolError: For a message the table refuses or a field that is wrong.
    """
    if kind == "ping":
        peer.send({"type": "pong"})
    elif kind == "response":
        peer.handle_response(payload)
    elif kind == "announce":
        table.interrupt(peer, ActionKind.TICHU)
    elif kind == "bomb":
        table.interrupt(peer, ActionKind.BOMB, cards_from_json(require(payload, "cards", list)))
    elif kind == "swap_players":
        table.swap(peer, require(payload, "player_index_1", int), require(payload, "player_index_2", int))
    elif kind == "start_game":
        table.start(peer)
    elif kind == "set_options":
        agent, hints = optional(payload, "agent", str), optional(payload, "hints", bool)
        target_score = optional(payload, "target_score", int)
        spectators = optional(payload, "spectators", bool)
        turn_clock, on_leave = optional(payload, "turn_clock", int), optional(payload, "on_leave", str)
        newcomers = optional(payload, "newcomers", bool)
        if all(value is None for value in (agent, hints, target_score, spectators, turn_clock, on_leave, newcomers)):
            raise ProtocolError(ErrorCode.INVALID_MESSAGE, "set_options needs agent, hints, target_score, "
                                "spectators, turn_clock, on_leave and/or newcomers")
        table.set_options(peer, agent, hints, target_score, spectators, turn_clock=turn_clock, on_leave=on_leave,
                          newcomers=newcomers)
    elif kind == "table_sync":
        table.sync(peer)
    elif kind == "chat":
        table.chat(peer, require(payload, "text", str))
    elif kind == "reaction":
        table.react(peer, require(payload, "reaction", str))
    elif kind == "set_ready":
        table.set_ready(peer, require(payload, "ready", bool))
    elif kind == "set_spectator_hands":
        table.set_spectator_hands(peer, require(payload, "allow", bool))
    elif kind == "take_back":
        table.take_back(peer)
    elif kind == "hand_over":
        table.hand_over(peer, require(payload, "player_index", int))
