"""One seat's view of a table, kept up to date from the protocol's notifications.

:class:`TableState` holds the ``public_state`` and ``private_state`` of
``docs/protocol.md`` as a seat receives them on joining and replaces their fields with those
each game event carries (``public_delta``, ``private_delta``: docs/server.md, "The state with
every event"): it works out nothing of the rules (issue 36). Only the seats' names and the
clients at them follow the table's notifications, and the hands revealed to a seat that is out
(R8.3) the plays after them. It is a pure reducer (no socket, no clock, no decision), so that the
connection (:mod:`tichu.client.connection`), the bots (:mod:`tichu.client.bots`) and the
console (:mod:`tichu.client.console`) share one reading of the notifications and it can be
tested without a network. Cards travel as ``[value, suit]`` lists.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from tichu.client.messages import JsonDict
from tichu.server.wire.outgoing import PrivateDelta, PublicDelta

__all__ = ["TableState"]


def _without(cards: Iterable[Sequence[int]], removed: Iterable[Sequence[int]]) -> list[list[int]]:
    gone = {tuple(pair) for pair in removed}
    return [list(pair) for pair in cards if tuple(pair) not in gone]


#: How the server names agents: this prefix and the seat number from 1 (``server/protocol.py``).
_AGENT_PREFIX = "Bot "
#: The ``public_state`` fields both clients keep, in :meth:`TableState.snapshot`.
_SNAPSHOT_PUBLIC = ("player_names", "host_index", "is_running", "phase", "round_index", "current_turn_index",
                    "count_hand_cards", "announcements", "wish_value", "wish_open", "trick_turns",
                    "trick_owner_index", "trick_points", "points", "tricks_won", "out_order", "played_cards",
                    "count_pushed", "round_scores", "total")


def _sorted(cards: Iterable[Sequence[int]]) -> list[list[int]]:
    """Cards sorted by value, then suit."""
    return sorted(list(card) for card in cards)


def _sorted_or_none(cards: Iterable[Sequence[int]] | None) -> list[list[int]] | None:
    return None if cards is None else _sorted(cards)


class TableState:
    """One seat's view of the table: ``public_state`` and ``private_state`` of protocol.md,
    as received on joining and kept up to date from the notifications after it.

    :ivar player_index: The own seat, or ``None`` before joining.
    :ivar public: The ``public_state`` object, its fields replaced by each event's ``public_delta``.
    :ivar private: The ``private_state`` object, its fields replaced by each event's
        ``private_delta`` and wholly by ``private_state_changed``; its ``may_announce`` and
        ``bombs`` (what the seat may do beyond its turn, R6.1, R4.3) are the server's too
        (docs/server.md): the client does not work them out.
    :ivar client_seats: The seats known to be held by clients (this one and those that
        joined after it).
    :ivar revealed_hands: The hands of ``hands_revealed`` (R8.3) less the cards played since, or
        ``None``.
    """

    def __init__(self) -> None:
        self.player_index: int | None = None
        self.public: JsonDict = {}
        self.private: JsonDict = {}
        self.client_seats: set[int] = set()
        self.revealed_hands: list[Any] | None = None

    def apply(self, event: str, context: JsonDict) -> None:
        """Apply one notification: the state it carries (``public_delta``, ``private_delta``),
        then what a table's notification says of its seats; anything else is ignored.

        :param event: The notification's ``event``.
        :param context: Its ``context``.
        :raises KeyError, IndexError, TypeError, ValueError: For a context that is not as
            protocol.md describes it.
        """
        self._replace(context)
        handler = getattr(self, f"_on_{event}", None)
        if handler is not None:
            handler(context)

    def _replace(self, context: Mapping[str, object]) -> None:
        """Take the state a game event brings (docs/server.md, "The state with every event"):
        the fields of ``public_state`` and ``private_state`` that changed, replaced as sent."""
        public = cast("PublicDelta | None", context.get("public_delta"))
        if public:
            self.public.update(copy.deepcopy(public))
        private = cast("PrivateDelta | None", context.get("private_delta"))
        if private:
            self.private.update(copy.deepcopy(private))

    @property
    def hand(self) -> list[list[int]]:
        """The own hand cards."""
        return list(self.private.get("hand_cards") or [])

    @property
    def may_announce(self) -> bool:
        """Whether the server says this seat may call Tichu now (R2.4, R6.1, R6.3)."""
        return bool(self.private.get("may_announce"))

    @property
    def bombs(self) -> list[list[list[int]]]:
        """The bombs the server says this seat may lay now (R4.3): out of turn as ``bomb``, at its
        turn as its play; each as its cards."""
        return [list(bomb) for bomb in self.private.get("bombs") or []]

    def snapshot(self) -> JsonDict:
        """The table state in the one shape the browser's ``State.snapshot()`` gives too
        (``web/js/state.js``), so that a test can drive both clients with one stream and compare
        them after every message (``tests/client/test_two_clients.py``).

        :returns: Plain JSON: ``seat``, the ``public_state`` fields both clients keep, the seats
            that ``passed``, ``client_seats`` (sorted), ``revealed_hands``, and the private
            state's ``hand_cards``, ``given_schupf_cards``, ``received_schupf_cards``,
            ``may_announce`` and ``bombs``. Hands are sorted (a hand is a set; the order is the
            views'); a missing field is ``None``.
        """
        view: JsonDict = {"seat": self.player_index}
        view.update({key: copy.deepcopy(self.public.get(key)) for key in _SNAPSHOT_PUBLIC})
        view.update(passed=sorted(self.public.get("passed") or []), client_seats=sorted(self.client_seats),
                    revealed_hands=None if self.revealed_hands is None else [_sorted(hand)
                                                                             for hand in self.revealed_hands],
                    hand_cards=_sorted(self.hand),
                    given_schupf_cards=_sorted_or_none(self.private.get("given_schupf_cards")),
                    received_schupf_cards=_sorted_or_none(self.private.get("received_schupf_cards")),
                    may_announce=self.may_announce, bombs=self.bombs)
        return view

    def name(self, seat: int) -> str:
        """The name shown for a seat.

        :param seat: The seat, 0 to 3.
        :returns: Its player's name, or ``seat N`` while none is known.
        """
        names = self.public.get("player_names") or []
        return str(names[seat]) if seat < len(names) and names[seat] else f"seat {seat}"

    def _seats(self, key: str) -> list[Any]:
        seats: list[Any] = self.public.setdefault(key, [0, 0, 0, 0])
        return seats

    def _on_player_joined(self, context: JsonDict) -> None:
        seat = context["player_index"]
        if "session_id" in context:
            self.player_index = seat
            self.public = copy.deepcopy(context.get("public_state") or {})
            self.private = copy.deepcopy(context.get("private_state") or {})
            self.client_seats = {seat}
            self.revealed_hands = None  # plays were missed while away; the next player_out reveals again
            return
        self._seats("player_names")[seat] = context["player_name"]
        self.client_seats.add(seat)

    def _on_player_left(self, context: JsonDict) -> None:
        self.public["host_index"] = context.get("host_index")
        self.client_seats.discard(context["player_index"])
        if context.get("replaced_by_agent"):  # the agent's name is the server's: name() shows the seat
            self._seats("player_names")[context["player_index"]] = ""

    def _on_players_swapped(self, context: JsonDict) -> None:
        first, second = context["player_index_1"], context["player_index_2"]
        names = self._seats("player_names")
        names[first], names[second] = names[second], names[first]
        self.client_seats = {second if seat == first else first if seat == second else seat
                             for seat in self.client_seats}
        self._forget_moved_agent_name(first, second)
        self._forget_moved_agent_name(second, first)
        if self.player_index in (first, second):
            self.player_index = second if self.player_index == first else first
            self.private["player_index"] = self.player_index

    def _forget_moved_agent_name(self, seat: int, came_from: int) -> None:
        """After a swap, drop an agent's name that moved with it (``Bot N`` of the seat it came
        from): the server names an agent after its new seat, which :meth:`name` cannot know."""
        names = self._seats("player_names")
        if seat not in self.client_seats and seat != self.public.get("host_index") \
                and names[seat] == f"{_AGENT_PREFIX}{came_from + 1}":
            names[seat] = ""

    def _on_round_started(self, context: JsonDict) -> None:
        self.revealed_hands = None

    def _on_player_played(self, context: JsonDict) -> None:
        seat, cards = context["turn"][0], context["turn"][1]
        if self.revealed_hands is not None:  # protocol.md: the seat tracks the rest from player_played
            self.revealed_hands[seat] = _without(self.revealed_hands[seat], cards)

    def _on_private_state_changed(self, context: JsonDict) -> None:
        self.private = copy.deepcopy(context["private_state"])

    def _on_hands_revealed(self, context: JsonDict) -> None:
        self.revealed_hands = list(context["hands"])

    def _on_game_ended_early(self, context: JsonDict) -> None:
        # a person's leaving ended the game (on_leave "end", docs/server.md): shown as after game_over
        self.public.update(phase="game_over", is_running=False, current_turn_index=None)
