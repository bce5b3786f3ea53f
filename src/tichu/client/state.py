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
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypedDict, TypeVar, cast

from tichu.server.wire import outgoing as out
from tichu.server.wire.outgoing import Cards, PrivateDelta, PublicDelta

__all__ = ["Snapshot", "TableState"]

C = TypeVar("C", bound=Mapping[str, object])


class Snapshot(TypedDict):
    """The table state in the one shape both clients give (:meth:`TableState.snapshot`): the
    ``public_state`` fields both keep (``None`` while not known), the seats that ``passed``, the
    seats held by clients, the hands revealed (R8.3) and the seat's private cards and options."""

    seat: int | None
    player_names: list[str] | None
    host_index: int | None
    is_running: bool | None
    phase: str | None
    round_index: int | None
    current_turn_index: int | None
    count_hand_cards: list[int] | None
    announcements: list[int] | None
    wish_value: int | None
    wish_open: bool | None
    trick_turns: list[out.Turn] | None
    trick_owner_index: int | None
    trick_points: int | None
    points: list[int] | None
    tricks_won: list[int] | None
    out_order: list[int] | None
    played_cards: Cards | None
    count_pushed: list[int] | None
    round_scores: list[list[int]] | None
    total: list[int] | None
    passed: list[int]
    client_seats: list[int]
    revealed_hands: list[Cards] | None
    hand_cards: Cards
    given_schupf_cards: Cards | None
    received_schupf_cards: Cards | None
    may_announce: bool
    bombs: list[Cards]


def _without(cards: Iterable[Sequence[int]], removed: Iterable[Sequence[int]]) -> list[list[int]]:
    gone = {tuple(pair) for pair in removed}
    return [list(pair) for pair in cards if tuple(pair) not in gone]


#: How the server names agents: this prefix and the seat number from 1 (``server/protocol.py``).
_AGENT_PREFIX = "Bot "


def _public_known(state: out.PublicState | None) -> PublicDelta:
    """A whole ``public_state`` as the fields a seat knows: each one now, any replaced by a later
    ``public_delta`` (``away`` and ``agent_plays_for``, which no delta carries, kept as sent but
    not read here); none without a state."""
    return cast(PublicDelta, state or {})


def _private_known(state: out.PrivateState | None) -> PrivateDelta:
    """A whole ``private_state`` as the fields a seat knows, like :func:`_public_known`
    (``unseen_bombs`` kept as sent but not read here)."""
    return cast(PrivateDelta, state or {})


def _sorted(cards: Iterable[Sequence[int]]) -> list[list[int]]:
    """Cards sorted by value, then suit."""
    return sorted(list(card) for card in cards)


def _sorted_or_none(cards: Iterable[Sequence[int]] | None) -> list[list[int]] | None:
    return None if cards is None else _sorted(cards)


class TableState:
    """One seat's view of the table: ``public_state`` and ``private_state`` of protocol.md,
    as received on joining and kept up to date from the notifications after it.

    :ivar player_index: The own seat, or ``None`` before joining.
    :ivar public: The ``public_state`` object, its fields replaced by each event's ``public_delta``;
        typed as the fields a delta may carry, since none is known before joining.
    :ivar private: The ``private_state`` object (typed likewise), its fields replaced by each
        event's ``private_delta`` and wholly by ``private_state_changed``; its ``may_announce`` and
        ``bombs`` (what the seat may do beyond its turn, R6.1, R4.3) are the server's too
        (docs/server.md): the client does not work them out.
    :ivar client_seats: The seats known to be held by clients (this one and those that
        joined after it).
    :ivar revealed_hands: The hands of ``hands_revealed`` (R8.3) less the cards played since, or
        ``None``.
    """

    def __init__(self) -> None:
        self.player_index: int | None = None
        self.public: PublicDelta = {}
        self.private: PrivateDelta = {}
        self.client_seats: set[int] = set()
        self.revealed_hands: list[Cards] | None = None

    def apply(self, event: str, context: Mapping[str, object]) -> None:
        """Apply one notification: the state it carries (``public_delta``, ``private_delta``),
        then what a table's notification says of its seats; anything else is ignored.

        :param event: The notification's ``event``.
        :param context: Its ``context``.
        :raises KeyError, IndexError, TypeError, ValueError: For a context that is not as
            protocol.md describes it.
        """
        self._replace(context)
        handler = _HANDLERS.get(event)
        if handler is not None:
            handler(self, context)

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

    def snapshot(self) -> Snapshot:
        """The table state in the one shape the browser's ``State.snapshot()`` gives too
        (``web/js/state.js``), so that a test can drive both clients with one stream and compare
        them after every message (``tests/client/test_two_clients.py``).

        :returns: Plain JSON: ``seat``, the ``public_state`` fields both clients keep, the seats
            that ``passed``, ``client_seats`` (sorted), ``revealed_hands``, and the private
            state's ``hand_cards``, ``given_schupf_cards``, ``received_schupf_cards``,
            ``may_announce`` and ``bombs``. Hands are sorted (a hand is a set; the order is the
            views'); a missing field is ``None``.
        """
        public = copy.deepcopy(self.public)
        return Snapshot(
            seat=self.player_index, player_names=public.get("player_names"), host_index=public.get("host_index"),
            is_running=public.get("is_running"), phase=public.get("phase"), round_index=public.get("round_index"),
            current_turn_index=public.get("current_turn_index"), count_hand_cards=public.get("count_hand_cards"),
            announcements=public.get("announcements"), wish_value=public.get("wish_value"),
            wish_open=public.get("wish_open"), trick_turns=public.get("trick_turns"),
            trick_owner_index=public.get("trick_owner_index"), trick_points=public.get("trick_points"),
            points=public.get("points"), tricks_won=public.get("tricks_won"), out_order=public.get("out_order"),
            played_cards=public.get("played_cards"), count_pushed=public.get("count_pushed"),
            round_scores=public.get("round_scores"), total=public.get("total"),
            passed=sorted(public.get("passed") or []), client_seats=sorted(self.client_seats),
            revealed_hands=None if self.revealed_hands is None else [_sorted(hand) for hand in self.revealed_hands],
            hand_cards=_sorted(self.hand),
            given_schupf_cards=_sorted_or_none(self.private.get("given_schupf_cards")),
            received_schupf_cards=_sorted_or_none(self.private.get("received_schupf_cards")),
            may_announce=self.may_announce, bombs=self.bombs)

    def name(self, seat: int) -> str:
        """The name shown for a seat.

        :param seat: The seat, 0 to 3.
        :returns: Its player's name, or ``seat N`` while none is known.
        """
        names = self.public.get("player_names") or []
        return str(names[seat]) if seat < len(names) and names[seat] else f"seat {seat}"

    def _names(self) -> list[str]:
        """The seats' names (``""`` for a seat whose name is not known)."""
        return self.public.setdefault("player_names", ["", "", "", ""])

    def _on_player_joined(self, context: out.PlayerJoined) -> None:
        seat = context["player_index"]
        if "session_id" in context:
            self.player_index = seat
            self.public = _public_known(copy.deepcopy(context.get("public_state")))
            self.private = _private_known(copy.deepcopy(context.get("private_state")))
            self.client_seats = {seat}
            self.revealed_hands = None  # plays were missed while away; the next player_out reveals again
            return
        self._names()[seat] = context["player_name"]
        self.client_seats.add(seat)

    def _on_player_left(self, context: out.PlayerLeft) -> None:
        self.public["host_index"] = context.get("host_index")
        self.client_seats.discard(context["player_index"])
        if context.get("replaced_by_agent"):  # the agent's name is the server's: name() shows the seat
            self._names()[context["player_index"]] = ""

    def _on_players_swapped(self, context: out.PlayersSwapped) -> None:
        first, second = context["player_index_1"], context["player_index_2"]
        names = self._names()
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
        names = self._names()
        if seat not in self.client_seats and seat != self.public.get("host_index") \
                and names[seat] == f"{_AGENT_PREFIX}{came_from + 1}":
            names[seat] = ""

    def _on_round_started(self, context: out.RoundStarted) -> None:
        self.revealed_hands = None

    def _on_player_played(self, context: out.PlayerPlayed) -> None:
        seat, cards = cast(tuple[int, Cards], context["turn"][:2])  # Turn's shape: the seat, its cards
        if self.revealed_hands is not None:  # protocol.md: the seat tracks the rest from player_played
            self.revealed_hands[seat] = _without(self.revealed_hands[seat], cards)

    def _on_private_state_changed(self, context: out.PrivateStateChanged) -> None:
        self.private = _private_known(copy.deepcopy(context["private_state"]))

    def _on_hands_revealed(self, context: out.HandsRevealed) -> None:
        self.revealed_hands = list(context["hands"])

    def _on_game_ended_early(self, context: out.SeatEvent) -> None:
        # a person's leaving ended the game (on_leave "end", docs/server.md): shown as after game_over
        self.public.update({"phase": "game_over", "is_running": False, "current_turn_index": None})


#: How a notification changes the table state beyond its ``public_delta`` and ``private_delta``.
Handler = Callable[[TableState, Mapping[str, object]], None]


def _handling(kind: type[C], handle: Callable[[TableState, C], None]) -> Handler:
    """A handler of the notifications whose context is a ``kind``."""
    def handled(state: TableState, context: Mapping[str, object]) -> None:
        handle(state, cast(C, context))  # its event's type: read_message checked it
    return handled


#: The handler of each notification that says more than its state (any other changes only that).
_HANDLERS: dict[str, Handler] = {
    "player_joined": _handling(out.PlayerJoined, TableState._on_player_joined),
    "player_left": _handling(out.PlayerLeft, TableState._on_player_left),
    "players_swapped": _handling(out.PlayersSwapped, TableState._on_players_swapped),
    "round_started": _handling(out.RoundStarted, TableState._on_round_started),
    "player_played": _handling(out.PlayerPlayed, TableState._on_player_played),
    "private_state_changed": _handling(out.PrivateStateChanged, TableState._on_private_state_changed),
    "hands_revealed": _handling(out.HandsRevealed, TableState._on_hands_revealed),
    "game_ended_early": _handling(out.SeatEvent, TableState._on_game_ended_early),
}
