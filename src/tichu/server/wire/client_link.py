"""A seat's link to its client: what a :class:`~tichu.server.tables.peer.Peer` says goes over it.

The link sends while a connection is there (a client that reconnects gets the whole state, so
nothing is kept for it). Notifications go with the seat's private part (R8.2), added by
:func:`~tichu.server.wire.protocol.event_text`: its own hand and received cards, never another
seat's, and the state after the event: the fields of the table's public state and of the seat's
private state that changed since this client was last sent them (:mod:`~tichu.server.wire.deltas`).
After each one, when what the seat may do beyond its turn (``may_announce``, R6.1;
``bombs``, R4.3) differs from what its client was last told (in its ``player_joined`` or an
earlier change), ``private_state_changed`` follows, to this seat only (docs/server.md, an
extension of the protocol). The link knows no table: the seat hands it its private state and the table's public state.
"""

from __future__ import annotations

from collections.abc import Callable

from tichu.core.unseen import UnseenBombs, unseen_bombs
from tichu.core.views import PrivateState
from tichu.engine.events import Event
from tichu.server.codes import ErrorCode
from tichu.server.wire import outgoing as out
from tichu.server.wire.connection import Connection
from tichu.server.wire.deltas import Told
from tichu.server.wire.outgoing import PrivateState as PrivateStateJson
from tichu.server.wire.outgoing import RequestMessage, RequestPayload, ServerMessage
from tichu.server.wire.protocol import ProtocolError, error_message, event_text, notification, private_state_json

#: What a seat may do beyond its turn: whether it may call Tichu (R6.1), and the cards of each bomb
#: it may lay (R4.3), in no order (the core lists them in another order at the seat's turn); and
#: the bombs its unseen cards could still form (R3.7), which change only now and then.
Options = tuple[bool, frozenset[int], UnseenBombs]


class ClientLink:
    """The wire between a seat and its client, and what the client was last told it may do.

    :ivar connection: The current connection, or ``None`` while the client is away.
    """

    def __init__(self, connection: Connection | None = None) -> None:
        """:param connection: (Optional) The client's connection, if it is there already."""
        self.connection = connection
        self._told: Options | None = None  # what the client was last told it may do beyond its turn
        self._public = Told()  # the public state the client was last sent
        self._private = Told()  # and its private state

    def send(self, message: ServerMessage | str) -> None:
        """Send a message if connected."""
        if self.connection is not None:
            self.connection.send(message)

    def send_error(self, error: ProtocolError) -> None:
        """Answer a refused message."""
        self.send(error_message(error.code, error.context, str(error)))

    def notify(self, event: Event, private_state: Callable[[], PrivateState],
               public_state: Callable[[], out.PublicState]) -> None:
        """Forward an event with the seat's private part (R8.2) and the state after it (the
        fields that changed for this client, :mod:`~tichu.server.wire.deltas`), then
        ``private_state_changed`` if what the seat may do beyond its turn changed with it (R6.1, R4.3).

        :param private_state: The seat's private state after the event (built only when a client
            is connected).
        :param public_state: The table's public state after the event (likewise).
        """
        if self.connection is None:
            return
        state = private_state()
        private = private_state_json(state)
        self.send(event_text(event, state, self._public.changes(public_state()), self._private.changes(private)))
        if _options(state) != self._told:
            self._told = _options(state)
            self.send(notification("private_state_changed", {"private_state": private}))

    def joined_public(self, state: out.PublicState) -> out.PublicState:
        """The table's ``public_state`` for the seat's ``player_joined``: the events after it carry
        what changes of it."""
        self._public.start(state)
        return state

    def joined(self, state: PrivateState) -> PrivateStateJson:
        """The seat's ``private_state`` for its ``player_joined`` (join or reconnect): what it may do
        beyond its turn in it is what the client is told from now on (R6.1, R4.3; R8.2: its own
        cards and options only), and the events after it carry what changes of it."""
        self._told = _options(state)
        private = private_state_json(state)
        self._private.start(private)
        return private

    def request(self, payload: RequestPayload) -> None:
        """Ask the client (a ``request``)."""
        message: RequestMessage = {"type": "request", "payload": payload}
        self.send(message)

    def request_cancelled(self, request_id: str) -> None:
        """The request is closed without the client's answer (protocol.md)."""
        self.send(notification("request_cancelled", {"request_id": request_id}))

    def timed_out(self, action: str, timeout: float) -> None:
        """The client's time for the request ran out (the stand-in answers)."""
        self.send(error_message(ErrorCode.ACTION_TIMEOUT, {"timeout": timeout, "action": action}))


def _options(state: PrivateState) -> Options:
    """What a private state says the seat may do beyond its turn (R6.1, R4.3), and its unseen bombs (R3.7)."""
    return state.may_announce, frozenset(bomb.cards for bomb in state.bombs), unseen_bombs(state.unseen_cards)
