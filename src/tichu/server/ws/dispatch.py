"""A client's parsed command, routed to its table and peer by its type (protocol.md and docs/server.md)."""

from __future__ import annotations

from typing import assert_never

from tichu.core.round import ActionKind
from tichu.server.tables.peer import Peer
from tichu.server.tables.table import Table
from tichu.server.wire.incoming import (
    Announce,
    Bomb,
    Chat,
    Command,
    HandOver,
    Leave,
    Ping,
    Reaction,
    Response,
    SetOptions,
    SetReady,
    SetSpectatorHands,
    StartGame,
    SwapPlayers,
    TableSync,
    TakeBack,
)
from tichu.server.wire.protocol import PONG, cards_from_json


def dispatch(table: Table, peer: Peer, command: Command) -> None:
    """Carry out one command of a seated client (``leave`` is the handler's: nothing here).

    :raises ProtocolError: For a command the table refuses.
    """
    match command:
        case Ping():
            peer.send(PONG)
        case Response():
            peer.handle_response(command)
        case Announce():
            table.interrupt(peer, ActionKind.TICHU)
        case Bomb(cards=cards):
            table.interrupt(peer, ActionKind.BOMB, cards_from_json(cards))
        case SwapPlayers(player_index_1=first, player_index_2=second):
            table.swap(peer, first, second)
        case StartGame():
            table.start(peer)
        case SetOptions():
            table.set_options(peer, command.agent, command.hints, command.target_score, command.spectators,
                              turn_clock=command.turn_clock, on_leave=command.on_leave,
                              newcomers=command.newcomers)
        case TableSync():
            table.sync(peer)
        case Chat(text=text):
            table.chat(peer, text)
        case Reaction(reaction=reaction):
            table.react(peer, reaction)
        case SetReady(ready=ready):
            table.set_ready(peer, ready)
        case SetSpectatorHands(allow=allow):
            table.set_spectator_hands(peer, allow)
        case TakeBack():
            table.take_back(peer)
        case HandOver(player_index=seat):
            table.hand_over(peer, seat)
        case Leave():
            pass
        case _:
            assert_never(command)
