"""What a seat may know (R8): :class:`PublicState`, :class:`PrivateState` and :class:`SeatView`.

This module is the one place where a seat's view of a table is produced. Both state
classes are fresh copies made of immutable values, serialisable to the JSON of
protocol.md, so a player can neither see hidden cards in them nor change the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from tichu.core.cards import CARDS, PHOENIX, cards_of, indices_of, points_of
from tichu.core.combos import SINGLE, CombinationType, Play
from tichu.core.errors import RuleViolation, Violation
from tichu.core.round import Phase, Round
from tichu.core.ruleset import RuleSet

#: Protocol names of the combination types (protocol.md, "Messages").
COMBINATION_NAMES = {int(kind): kind.name.lower() for kind in CombinationType}


def cards_json(mask: int) -> list[list[int]]:
    """Cards of a mask as protocol ``[value, suit]`` pairs, highest first."""
    return [[card.value, card.suit] for card in cards_of(mask)]


def combination_json(play: Play) -> list[Any]:
    """A play as the protocol's ``[type, length, rank]``; a Phoenix single ranks ``x.5`` (R3.6)."""
    mask, kind, length, rank = play
    shown: int | float = rank + 0.5 if kind == SINGLE and mask == PHOENIX else rank
    return [COMBINATION_NAMES[kind], length, shown]


@dataclass(slots=True)
class TableInfo:
    """Facts about a table beyond the current round, kept by the engine.

    :ivar table_name: The table's name ("" in the Arena).
    :ivar player_names: Names per seat.
    :ivar host_index: Seat of the host client, or ``None``.
    :ivar phase: ``lobby``, ``grand_tichu``, ``schupf``, ``playing``, ``round_over`` or ``game_over``.
    :ivar is_running: Whether a game is in progress.
    :ivar round_index: Index of the current round, from 0.
    :ivar round_scores: ``[team 20, team 31]`` points per finished round.
    :ivar total: ``[team 20, team 31]`` after the finished rounds.
    """

    table_name: str = ""
    player_names: list[str] = field(default_factory=lambda: ["", "", "", ""])
    host_index: int | None = None
    phase: str = "lobby"
    is_running: bool = False
    round_index: int = 0
    round_scores: list[tuple[int, int]] = field(default_factory=list)
    total: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True)
class PublicState:
    """Everything every seat at the table knows (R8.1); see protocol.md for the fields."""

    table_name: str
    player_names: tuple[str, ...]
    host_index: int | None
    is_running: bool
    phase: str
    round_index: int
    current_turn_index: int | None
    count_hand_cards: tuple[int, ...]
    announcements: tuple[int, ...]
    wish_value: int
    wish_open: bool
    trick_turns: tuple[tuple[int, Play], ...]
    trick_owner_index: int | None
    trick_points: int
    points: tuple[int, ...]
    tricks_won: tuple[int, ...]
    out_order: tuple[int, ...]
    played_cards: int
    count_pushed: tuple[int, ...]
    round_scores: tuple[tuple[int, int], ...]
    total: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        """The protocol's ``public_state`` object."""
        return {
            "table_name": self.table_name, "player_names": list(self.player_names),
            "host_index": self.host_index, "is_running": self.is_running, "phase": self.phase,
            "round_index": self.round_index, "current_turn_index": self.current_turn_index,
            "count_hand_cards": list(self.count_hand_cards), "announcements": list(self.announcements),
            "wish_value": self.wish_value, "wish_open": self.wish_open,
            "trick_turns": [[seat, cards_json(play[0]), combination_json(play)]
                            for seat, play in self.trick_turns],
            "trick_owner_index": self.trick_owner_index, "trick_points": self.trick_points,
            "points": list(self.points), "tricks_won": list(self.tricks_won),
            "out_order": list(self.out_order), "played_cards": cards_json(self.played_cards),
            "count_pushed": list(self.count_pushed),
            "round_scores": [list(pair) for pair in self.round_scores], "total": list(self.total),
        }


@dataclass(frozen=True, slots=True)
class PrivateState:
    """What only one seat knows (R8.2).

    :ivar player_index: The seat.
    :ivar hand_cards: Its hand (mask).
    :ivar given_schupf_cards: Its pushed cards (to right, partner, left) or ``None``.
    :ivar received_schupf_cards: Its received cards (from right, partner, left) or ``None``.
    """

    player_index: int
    hand_cards: int
    given_schupf_cards: tuple[int, int, int] | None
    received_schupf_cards: tuple[int, int, int] | None

    def to_json(self) -> dict[str, Any]:
        """The protocol's ``private_state`` object."""
        return {
            "player_index": self.player_index, "hand_cards": cards_json(self.hand_cards),
            "given_schupf_cards": _triple_json(self.given_schupf_cards),
            "received_schupf_cards": _triple_json(self.received_schupf_cards),
        }


def _triple_json(triple: tuple[int, int, int] | None) -> list[list[int]] | None:
    if triple is None:
        return None
    return [list(CARDS[indices_of(card)[0]]) for card in triple]


def build_public_state(info: TableInfo, round_: Round | None) -> PublicState:
    """Build the public state of a table (R8.1); the same for every seat."""
    if round_ is None:
        return PublicState(
            info.table_name, tuple(info.player_names), info.host_index, info.is_running, info.phase,
            info.round_index, None, (0, 0, 0, 0), (0, 0, 0, 0), 0, False, (), None, 0, (0, 0, 0, 0),
            (0, 0, 0, 0), (), 0, (0, 0, 0, 0), tuple(info.round_scores), info.total)
    return PublicState(
        info.table_name, tuple(info.player_names), info.host_index, info.is_running, info.phase,
        info.round_index, round_.decision_seat if round_.phase == Phase.PLAYING else None,
        tuple(hand.bit_count() for hand in round_.hands), tuple(round_.announcements),
        round_.wish_value, round_.wish_open,
        tuple(round_.trick_turns), round_.trick_owner
        if round_.trick_turns else None, points_of(round_.trick_cards),
        tuple(points_of(won) for won in round_.won), tuple(round_.tricks_won), tuple(round_.out_order),
        round_.played, tuple(3 if given else 0 for given in round_.given), tuple(info.round_scores),
        info.total)


def build_private_state(round_: Round | None, seat: int) -> PrivateState:
    """Build a seat's private state (R8.2)."""
    if round_ is None:
        return PrivateState(seat, 0, None, None)
    return PrivateState(seat, round_.hands[seat], round_.given[seat], round_.received(seat))


class TableSource(Protocol):
    """What a :class:`SeatView` reads: a table's facts and its current round (engine or table)."""

    @property
    def info(self) -> TableInfo:
        """The table's facts."""

    @property
    def round(self) -> Round | None:
        """The round being played."""


class SeatView:
    """A read-only window on a table for one seat, handed to that seat's player.

    Every accessor returns an immutable value or a fresh copy, and none reaches a card
    the seat may not see (R8). A view is valid for the decision it came with.

    :ivar seat: The seat it belongs to.
    """

    __slots__ = ("_source", "seat")

    def __init__(self, source: TableSource, seat: int) -> None:
        self._source = source
        self.seat = seat

    @property
    def _round(self) -> Round | None:
        return self._source.round

    @property
    def hand(self) -> int:
        """The seat's own hand (mask)."""
        return self._round.hands[self.seat] if self._round else 0

    @property
    def trick(self) -> Play | None:
        """The combination to beat, or ``None`` on a lead."""
        round_ = self._round
        return None if round_ is None or round_.is_lead else round_.trick

    @property
    def trick_owner(self) -> int | None:
        """Who played the combination on the table (``None`` on a lead)."""
        return None if self.trick is None or self._round is None else self._round.trick_owner

    @property
    def wish(self) -> int:
        """The open wish (0 if none)."""
        round_ = self._round
        return round_.wish_value if round_ and round_.wish_open else 0

    @property
    def rules(self) -> RuleSet:
        """The table's rule set (public)."""
        return self._round.rules if self._round else RuleSet()

    def check_play(self, cards: int) -> Play:
        """The legal play of these cards (a mask) for this seat at its turn.

        :raises RuleViolation: With the rule if it is not one.
        """
        if self._round is None:
            raise RuleViolation(Violation.NOT_YOUR_TURN, "R4.1", "no round is being played")
        return self._round.find_legal(self.seat, cards)

    def hand_count(self, seat: int) -> int:
        """Number of cards in a seat's hand (public, R8.1)."""
        return self._round.hands[seat].bit_count() if self._round else 0

    def public_state(self) -> PublicState:
        """A copy of the public state (R8.1)."""
        return build_public_state(self._source.info, self._round)

    def private_state(self) -> PrivateState:
        """A copy of this seat's private state (R8.2)."""
        return build_private_state(self._round, self.seat)
