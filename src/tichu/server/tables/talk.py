"""The people at a table talking: chat and quick reactions (docs/server.md, "Table chat,
reactions, readiness and the target score").

Only clients that sent ``table_sync`` hear of it, so that a client of protocol.md alone gets
exactly the messages it knows; the state itself (lines, rates) is
:class:`~tichu.server.tables.social.Social`'s.
"""

from __future__ import annotations

from tichu.server.codes import ErrorCode
from tichu.server.tables.broadcast import Broadcast
from tichu.server.tables.peer import Peer
from tichu.server.tables.session import Game
from tichu.server.tables.social import CHAT_BURST, CHAT_LENGTH, CHAT_RATE, REACTIONS, ChatLine, Social
from tichu.server.wire import outgoing as out
from tichu.server.wire.protocol import ProtocolError, clean_chat_text, clip


class Talk:
    """The chat and the reactions of a table."""

    def __init__(self, social: Social[Peer], broadcast: Broadcast, game: Game) -> None:
        """:param social: The chat log and rates, and who listens.
        :param broadcast: Tells the listening clients.
        :param game: The table's game (a seat out of its round sees every hand, R8.3).
        """
        self._social = social
        self._broadcast = broadcast
        self._game = game

    def history(self) -> out.ChatHistory:
        """``chat_history``: the last lines, oldest first."""
        return {"messages": [_line_json(line) for line in self._social.log]}

    def chat(self, peer: Peer, raw: str) -> None:
        """Send a chat text to every listening client (``chat_message``) and keep it in the history.

        :raises ProtocolError: ``INVALID_MESSAGE`` for an empty, too long or control-character
            text; ``UNAUTHORIZED`` from a seat that is out and sees every hand (R8.3) until the
            round ends (:meth:`sees_hands`); ``SERVER_BUSY`` beyond the chat rate. Nothing is
            sent or kept then.
        """
        text = clean_chat_text(raw, CHAT_LENGTH)
        if self.sees_hands(peer):
            raise ProtocolError(ErrorCode.UNAUTHORIZED,
                                "a seat that is out sees every hand: it sends quick reactions only until the "
                                "round ends",
                                reactions=list(REACTIONS))
        self._take_chat_token(peer)
        line = ChatLine(peer.seat, peer.name, text)
        self._social.remember(line)
        self._broadcast.to_listeners("chat_message", _line_json(line), spectators=False)

    def react(self, peer: Peer, reaction: str) -> None:
        """Send a quick reaction to every listening client (``reaction``); not kept.

        :raises ProtocolError: ``INVALID_ACTION`` for an unknown reaction (``context.reactions``
            lists them); ``SERVER_BUSY`` beyond the chat rate.
        """
        if reaction not in REACTIONS:
            raise ProtocolError(ErrorCode.INVALID_ACTION, f"unknown reaction {clip(reaction)!r}",
                                reactions=list(REACTIONS))
        self._take_chat_token(peer)
        self._broadcast.to_listeners("reaction", {"player_index": peer.seat, "player_name": peer.name,
                                                  "reaction": reaction}, spectators=False)

    def sees_hands(self, peer: Peer) -> bool:
        """Whether a seat is out of the running round and is shown every hand (R8.3): what it writes
        could tell its partner the opponents' cards, so it may only react (docs/server.md)."""
        engine = self._game.engine
        round_ = engine.round if engine is not None else None
        return (engine is not None and engine.rules.reveal_hands_when_out and round_ is not None
                and not round_.is_over and peer.seat in round_.out_order)

    def _take_chat_token(self, peer: Peer) -> None:
        if not self._social.allow(peer):
            raise ProtocolError(ErrorCode.SERVER_BUSY,
                                f"too many chat messages: {CHAT_BURST} at once, then {CHAT_RATE:g} a second")


def _line_json(line: ChatLine) -> out.ChatLine:
    """A chat line as ``chat_message`` sends it: ``{player_index, player_name, text}``."""
    return {"player_index": line.seat, "player_name": line.name, "text": line.text}
