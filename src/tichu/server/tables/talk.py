"""The people at a table talking: chat, quick reactions and readiness (docs/server.md, "Table
chat, reactions, readiness and the target score").

Only clients that sent ``table_sync`` hear of it, so that a client of protocol.md alone gets
exactly the messages it knows; the state itself (lines, rates, who is ready) is
:class:`~tichu.server.tables.social.Social`'s.
"""

from __future__ import annotations

from tichu.server.codes import ErrorCode
from tichu.server.tables.idle import IdleSeats
from tichu.server.tables.peer import Peer
from tichu.server.tables.social import (
    CHAT_BURST,
    CHAT_LENGTH,
    CHAT_RATE,
    REACTIONS,
    TARGET_SCORE_MAX,
    TARGET_SCORE_MIN,
    ChatLine,
)
from tichu.server.wire import outgoing as out
from tichu.server.wire.protocol import ProtocolError, clean_chat_text, clip, notification


class Talk(IdleSeats):
    """Chat, reactions and readiness of a :class:`~tichu.server.tables.table.Table` (a part of it)."""

    def sync(self, peer: Peer) -> None:
        """A client speaks the extension: from now on it hears chat, reactions and readiness, and
        its readiness counts. It gets ``lobby_state`` (all listening clients do when it is new:
        its seat's readiness goes from null to false) and ``chat_history`` (the last lines)."""
        if self.social.subscribe(peer):
            self._send_lobby_state()
        else:
            peer.send(notification("lobby_state", self._lobby_state()))
        peer.send(notification("chat_history", {"messages": [_line_json(line) for line in self.social.log]}))
        peer.send(notification("spectators_changed", self.spectators.state(self.peers)))
        if self.is_running:
            peer.send(notification("turn_clocks", self._clocks_json()))

    def chat(self, peer: Peer, raw: str) -> None:
        """Send a chat text to every listening client (``chat_message``) and keep it in the history.

        :raises ProtocolError: ``INVALID_MESSAGE`` for an empty, too long or control-character
            text; ``UNAUTHORIZED`` from a seat that is out and sees every hand (R8.3) until the
            round ends (:meth:`_sees_hands`); ``SERVER_BUSY`` beyond the chat rate. Nothing is
            sent or kept then.
        """
        text = clean_chat_text(raw, CHAT_LENGTH)
        if self._sees_hands(peer):
            raise ProtocolError(ErrorCode.UNAUTHORIZED,
                                "a seat that is out sees every hand: it sends quick reactions only until the "
                                "round ends",
                                reactions=list(REACTIONS))
        self._take_chat_token(peer)
        line = ChatLine(peer.seat, peer.name, text)
        self.social.remember(line)
        self._tell_listeners("chat_message", _line_json(line))

    def react(self, peer: Peer, reaction: str) -> None:
        """Send a quick reaction to every listening client (``reaction``); not kept.

        :raises ProtocolError: ``INVALID_ACTION`` for an unknown reaction (``context.reactions``
            lists them); ``SERVER_BUSY`` beyond the chat rate.
        """
        if reaction not in REACTIONS:
            raise ProtocolError(ErrorCode.INVALID_ACTION, f"unknown reaction {clip(reaction)!r}",
                                reactions=list(REACTIONS))
        self._take_chat_token(peer)
        self._tell_listeners("reaction", {"player_index": peer.seat, "player_name": peer.name, "reaction": reaction})

    def set_ready(self, peer: Peer, ready: bool) -> None:
        """Say whether the client is ready to start (lobby only); the listening clients hear
        ``lobby_state`` when that changed. Readiness is advice to the host: ``start_game`` keeps
        its meaning (docs/server.md).

        :raises ProtocolError: ``GAME_ALREADY_STARTED`` during a game.
        """
        if self.is_running:
            raise ProtocolError(ErrorCode.GAME_ALREADY_STARTED, table_name=self.name)
        if self.social.set_ready(peer, ready):
            self._send_lobby_state()

    def _sees_hands(self, peer: Peer) -> bool:
        """Whether a seat is out of the running round and is shown every hand (R8.3): what it writes
        could tell its partner the opponents' cards, so it may only react (docs/server.md)."""
        engine = self.engine
        round_ = self.round
        return (engine is not None and engine.rules.reveal_hands_when_out and round_ is not None
                and not round_.is_over and peer.seat in round_.out_order)

    def _take_chat_token(self, peer: Peer) -> None:
        if not self.social.allow(peer):
            raise ProtocolError(ErrorCode.SERVER_BUSY,
                                f"too many chat messages: {CHAT_BURST} at once, then {CHAT_RATE:g} a second")

    def _lobby_state(self) -> out.LobbyState:
        """``lobby_state``: the target score (and its range) and per seat whether its client is
        ready (``null``: an agent, or a client that never sent ``table_sync``)."""
        ready = [None if client is None else self.social.ready(client) for client in self.peers]
        return {"target_score": self.target_score, "target_score_range": [TARGET_SCORE_MIN, TARGET_SCORE_MAX],
                "ready": ready}

    def _send_lobby_state(self) -> None:
        self._tell_listeners("lobby_state", self._lobby_state())
        self.spectators.send(notification("lobby_state", self._lobby_state()))

    def _tell_listeners(self, event: str, context: out.LobbyState | out.ChatLine | out.ReactionSent) -> None:
        """Send a notification of the extension to the clients that sent ``table_sync``."""
        message = notification(event, context)
        for client in self.clients:
            if self.social.listens(client):
                client.send(message)


def _line_json(line: ChatLine) -> out.ChatLine:
    """A chat line as ``chat_message`` sends it: ``{player_index, player_name, text}``."""
    return {"player_index": line.seat, "player_name": line.name, "text": line.text}
