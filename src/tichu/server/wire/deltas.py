"""The state with every event: what changed of a client's state since it was last sent it.

Each notification of a game event carries ``public_delta`` (to every seat and spectator) and,
to a seat, ``private_delta``: the fields of ``public_state`` and of its ``private_state`` whose
values differ from those it was last sent (on joining, or with an earlier event), with their new
values (docs/server.md, "The state with every event"). A client replaces those fields and
works out nothing from the events, so that the rules stay in the core (issue 36).

A :class:`Told` per client and state remembers what was sent; the state now is built once per
event for the whole table (:func:`public_now`), so the seats and spectators that kept up get
the same fields and share one encoded message.
"""

from __future__ import annotations

from collections.abc import Mapping

from tichu.core.views import TableSource
from tichu.engine.events import Event
from tichu.server.wire import outgoing as out
from tichu.server.wire.protocol import table_public_json

#: A state as a JSON object (``public_state`` or ``private_state``).
StateJson = Mapping[str, object]

_MISSING = object()
#: The last event, its table's id and the table's public state then (one table tells all its
#: listeners at once); the table is not held, so that a closed table is freed.
_last_public: tuple[Event | None, int, out.PublicState | None] = (None, 0, None)


def public_now(event: Event, table: TableSource) -> out.PublicState:
    """The table's ``public_state`` (with ``passed``) just after an event, built once for all
    the event's listeners.

    :param event: The event being told.
    :param table: The table it happened at.
    :returns: The state (not to be changed: it is shared).
    """
    global _last_public
    last_event, last_table, state = _last_public
    if state is None or last_event is not event or last_table != id(table):
        state = table_public_json(table.info, table.round)
        _last_public = (event, id(table), state)
    return state


class Told:
    """What one client was last sent of one state (public or private), to send it only what
    changed."""

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: StateJson = {}

    def start(self, state: StateJson) -> None:
        """The client was sent the whole state (on joining or watching)."""
        self._last = state

    def changes(self, now: StateJson) -> dict[str, object]:
        """The fields of ``now`` whose values the client does not have, and note that it is
        sent them.

        :param now: The state now.
        :returns: Those fields with their values (empty when nothing changed).
        """
        last, self._last = self._last, now
        if last is now:
            return {}
        return {key: value for key, value in now.items() if last.get(key, _MISSING) != value}

