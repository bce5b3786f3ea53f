"""What a seat may know (R8): :class:`PublicState`, :class:`PrivateState` and :class:`SeatView`.

This module is the one place where a seat's view of a table is produced, in the rules core
(where OpenSpiel puts a game's observer): the engine asks with it, and the agents, the
analysis and the environments read it without reaching above the core. A
:class:`SeatView` is a frozen, picklable snapshot made for one decision: it holds immutable
values only, so an agent can decide from it in another thread or process while the round
goes on, and nothing in it reaches a card the seat may not see. Turning these states into
the protocol's JSON is the server's job (:mod:`tichu.server.wire.protocol`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple, Protocol

from tichu.core.cards import points_of
from tichu.core.combos import Play
from tichu.core.flow import GameState
from tichu.core.frozen import by_fields
from tichu.core.round import Phase, Round
from tichu.core.ruleset import RuleSet
from tichu.core.unseen import unseen_cards


class TablePhase(StrEnum):
    """What a table is doing (``public_state.phase``)."""

    LOBBY = "lobby"
    GRAND_TICHU = "grand_tichu"
    SCHUPF = "schupf"
    PLAYING = "playing"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"


@dataclass(slots=True)
class TableInfo:
    """Facts about a table beyond the current round, kept by the engine.

    :ivar table_name: The table's name ("" in the Arena).
    :ivar player_names: Names per seat.
    :ivar host_index: Seat of the host client, or ``None``.
    :ivar phase: What the table is doing.
    :ivar is_running: Whether a game is in progress.
    :ivar round_index: Index of the current round, from 0.
    :ivar round_scores: ``[team 20, team 31]`` points per finished round.
    :ivar total: ``[team 20, team 31]`` after the finished rounds.
    """

    table_name: str = ""
    player_names: list[str] = field(default_factory=lambda: ["", "", "", ""])
    host_index: int | None = None
    phase: TablePhase = TablePhase.LOBBY
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
    phase: TablePhase
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

    def __reduce__(self) -> tuple[type[PublicState], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class PrivateState:
    """What only one seat knows (R8.2), and what it may do beyond its turn.

    :ivar player_index: The seat.
    :ivar hand_cards: Its hand (mask).
    :ivar given_schupf_cards: Its pushed cards (to right, partner, left) or ``None``.
    :ivar received_schupf_cards: Its received cards (from right, partner, left) or ``None``.
    :ivar may_announce: Whether it may call Tichu now (R2.4, R6.1, R6.3).
    :ivar bombs: The bombs it may lay now (R4.3): out of turn, or at its turn as its play.
    :ivar unseen_cards: The cards it has not seen (mask): neither in its hand nor played (R8.1,
        R8.2); the server lists the bombs they could still form (:mod:`tichu.core.unseen`, R3.7).
    """

    player_index: int
    hand_cards: int
    given_schupf_cards: tuple[int, int, int] | None
    received_schupf_cards: tuple[int, int, int] | None
    may_announce: bool = False
    bombs: tuple[Play, ...] = ()
    unseen_cards: int = 0

    def __reduce__(self) -> tuple[type[PrivateState], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


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
        tuple(points_of(won) + carried for won, carried in zip(round_.won, round_.carried_points)),
        tuple(round_.tricks_won), tuple(round_.out_order),
        round_.played, tuple(3 if given else 0 for given in round_.given), tuple(info.round_scores),
        info.total)


def build_private_state(round_: Round | None, seat: int) -> PrivateState:
    """Build a seat's private state (R8.2) with what the rules let it do beyond its turn: its
    own cards and public facts decide both (the core's :meth:`~tichu.core.round.Round.can_announce`
    and :meth:`~tichu.core.round.Round.playable_bombs`), and the cards it has not seen
    (:func:`~tichu.core.unseen.unseen_cards`: all but its hand and the played cards)."""
    if round_ is None:
        return PrivateState(seat, 0, None, None)
    return PrivateState(seat, round_.hands[seat], round_.given[seat], round_.received(seat),
                        round_.can_announce(seat), tuple(round_.playable_bombs(seat)),
                        unseen_cards(round_.hands[seat], round_.played))


def follow(info: TableInfo, state: GameState) -> None:
    """Bring a table's facts up to the game's state: the phase, the round's index, the
    scores of the finished rounds and the total (the engine and the agents' loop both keep
    their :class:`TableInfo` so)."""
    game = state.game
    if game is not None and len(info.round_scores) != len(game.results):
        info.round_scores = [result.points for result in game.results]
        info.total = (game.total[0], game.total[1])
    round_ = state.round
    if round_ is None:
        return
    info.round_index = state.round_index
    phase = round_.phase
    if phase == Phase.OVER:
        info.phase = TablePhase.GAME_OVER if state.is_over and game is not None else TablePhase.ROUND_OVER
    else:
        info.phase = _TABLE_PHASES[phase]


_TABLE_PHASES = {Phase.GRAND_TICHU: TablePhase.GRAND_TICHU, Phase.SCHUPF: TablePhase.SCHUPF,
                 Phase.PLAYING: TablePhase.PLAYING}


class TableSource(Protocol):
    """What a seat's view is made from: a table's facts and its current round (engine or table)."""

    @property
    def info(self) -> TableInfo:
        """The table's facts."""

    @property
    def round(self) -> Round | None:
        """The round being played."""


#: Builds a named tuple from its fields without its Python-level ``__new__`` (a view is made
#: for every decision, so this is on the Arena's hot path).
_new_view = tuple.__new__


class SeatView(NamedTuple):
    """A frozen snapshot of what one seat knows, made for one decision (R8).

    It holds immutable values only and pickles, so a decision can be computed in another
    thread or process; whether it is still current is the engine's question (a state
    version), never the view's. A view made for a player that does not read the table
    (:attr:`~tichu.engine.player.Player.reads_table`) leaves out the public and private
    state, which are the costly part to build.

    :ivar seat: The seat it belongs to.
    :ivar hand: The seat's own hand (mask).
    :ivar trick: The combination to beat, or ``None`` on a lead.
    :ivar trick_owner: Who played it (``None`` on a lead).
    :ivar wish: The open wish (0 if none).
    :ivar rules: The table's rule set (public).
    :ivar public: The public state (R8.1), or ``None`` in a view without the table.
    :ivar private: The seat's private state (R8.2), or ``None`` likewise.
    """

    seat: int
    hand: int
    trick: Play | None
    trick_owner: int | None
    wish: int
    rules: RuleSet
    public: PublicState | None = None
    private: PrivateState | None = None

    @classmethod
    def of(cls, source: TableSource, seat: int, reads_table: bool = True) -> SeatView:
        """Take a seat's snapshot of a table now.

        :param source: The table.
        :param seat: The seat.
        :param reads_table: Whether to include the public and private state.
        :returns: The snapshot.
        """
        return view_of(source.info, source.round, seat, reads_table)

    def public_state(self) -> PublicState:
        """The public state (R8.1).

        :raises ValueError: For a view made without the table.
        """
        if self.public is None:
            raise ValueError("this view was made without the table (the player does not read it)")
        return self.public

    def private_state(self) -> PrivateState:
        """This seat's private state (R8.2).

        :raises ValueError: For a view made without the table.
        """
        if self.private is None:
            raise ValueError("this view was made without the table (the player does not read it)")
        return self.private


def view_of(info: TableInfo, round_: Round | None, seat: int, reads_table: bool = True) -> SeatView:
    """A seat's snapshot of a table (its facts and its round) now (R8); see :meth:`SeatView.of`."""
    if round_ is None:
        if not reads_table:
            return _new_view(SeatView, (seat, 0, None, None, 0, RuleSet(), None, None))
        return _new_view(SeatView, (seat, 0, None, None, 0, RuleSet(), build_public_state(info, None),
                                    build_private_state(None, seat)))
    trick = round_.trick
    if trick is None or round_.trick_closed:
        trick = owner = None
    else:
        owner = round_.trick_owner
    wish = round_.wish_value if round_.wish_open else 0
    if not reads_table:
        return _new_view(SeatView, (seat, round_.hands[seat], trick, owner, wish, round_.rules, None, None))
    return _new_view(SeatView, (seat, round_.hands[seat], trick, owner, wish, round_.rules,
                                build_public_state(info, round_), build_private_state(round_, seat)))
