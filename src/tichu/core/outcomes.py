"""What an action caused, as typed, frozen outcomes (Issue 36): the rules core's one account of
what happened.

Every method of :class:`~tichu.core.flow.GameState` that changes the state returns the
outcomes of that change, in the order they happened: a trick taken and by whom (R4.2, R4.5),
a seat out and its place (R7.1), a wish made or fulfilled (R5.1, R5.4), a call (R6), the push
done and who leads (R2.3, R2.5), the seat at turn, the cards dealt, the round's result (R7.3)
and the game's end (R7.4). The engine tells them to the table as its events, the records
are built from them: nobody compares the state before and after.

A play or a pass is the action itself, not an outcome: most cause nothing beyond the next
seat's turn, and their outcomes are then a shared tuple (:data:`TURN_TO`), so that the
searches' rollouts, which apply millions of plays, allocate nothing for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from tichu.core.frozen import by_fields


@dataclass(frozen=True, slots=True)
class RoundResult:
    """Outcome of a finished round (R7); pairs are ``[team 20, team 31]``.

    :ivar out_order: Seats in the order they went out (3, or 2 on a double victory).
    :ivar double_victory: Whether one team went out first and second (R7.1).
    :ivar card_points: Card points per team.
    :ivar bonus: Tichu and Grand Tichu points per team (R6).
    :ivar points: ``card_points + bonus`` per team.
    :ivar tichu_success: Per seat: ``None`` without a call, else whether the call won.
    :ivar calls: Per seat 0 no call, 1 Tichu, 2 Grand Tichu.
    """

    out_order: tuple[int, ...]
    double_victory: bool
    card_points: tuple[int, int]
    bonus: tuple[int, int]
    points: tuple[int, int]
    tichu_success: tuple[bool | None, ...]
    calls: tuple[int, ...]

    def __reduce__(self) -> tuple[type[RoundResult], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A round was dealt (R2).

    :ivar round_index: The round's index in the game, from 0.
    """

    round_index: int

    def __reduce__(self) -> tuple[type[RoundStarted], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class HandCardsDealt:
    """Each seat was dealt cards: the first 8 (R2.1), then the other 6 (R2.2).

    :ivar count: How many cards each seat got now.
    """

    count: int

    def __reduce__(self) -> tuple[type[HandCardsDealt], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class PlayerAnnounced:
    """A seat called Tichu (R6.1) or Grand Tichu (R2.1, R6.2).

    :ivar seat: The calling seat.
    :ivar grand: Whether it is a Grand Tichu.
    """

    seat: int
    grand: bool

    def __reduce__(self) -> tuple[type[PlayerAnnounced], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class PlayerSchupfed:
    """A seat gave its three cards (R2.3); which cards stays private.

    :ivar seat: The giving seat.
    """

    seat: int

    def __reduce__(self) -> tuple[type[PlayerSchupfed], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class StartPlaying:
    """The push is done and the holder of the Mah Jong leads (R2.5).

    :ivar leader: The seat that leads the first trick.
    """

    leader: int

    def __reduce__(self) -> tuple[type[StartPlaying], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class PlayerOut:
    """A seat has played its last card (R7.1).

    :ivar seat: The seat.
    :ivar place: Its place, 1 for the first out.
    """

    seat: int
    place: int

    def __reduce__(self) -> tuple[type[PlayerOut], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class WishMade:
    """The Mah Jong's player made a wish (R5.1).

    :ivar value: The wished value (0: none, where the rules allow it).
    """

    value: int

    def __reduce__(self) -> tuple[type[WishMade], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class WishFulfilled:
    """The wish was fulfilled (R5.4)."""

    def __reduce__(self) -> tuple[type[WishFulfilled], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class TrickTaken:
    """A trick was taken (R4.2), or given away with the Dragon (R4.5).

    :ivar winner: The seat that won it (``None`` only for an empty trick).
    :ivar points: Its card points (R1.2).
    :ivar dragon_recipient: The opponent it was given to, or ``None``.
    """

    winner: int | None
    points: int
    dragon_recipient: int | None

    def __reduce__(self) -> tuple[type[TrickTaken], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class TurnChanged:
    """A seat is (again) at turn to play (R4.1).

    :ivar seat: The seat at turn.
    """

    seat: int

    def __reduce__(self) -> tuple[type[TurnChanged], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """The round ended and its result was booked (R7.3).

    :ivar result: The round's result.
    """

    result: RoundResult

    def __reduce__(self) -> tuple[type[RoundEnded], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game ended (R7.4).

    :ivar total: The final total per team ``(20, 31)``.
    :ivar winner: The winning team (20 or 31).
    """

    total: tuple[int, int]
    winner: int | None

    def __reduce__(self) -> tuple[type[GameEnded], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)


#: Every outcome an action can cause.
Outcome = (RoundStarted | HandCardsDealt | PlayerAnnounced | PlayerSchupfed | StartPlaying | PlayerOut | WishMade
           | WishFulfilled | TrickTaken | TurnChanged | RoundEnded | GameEnded)
#: What an action caused, in order.
Outcomes = tuple[Outcome, ...]

#: An action that caused nothing (shared: nothing is allocated for it).
NOTHING: Final[Outcomes] = ()
#: By seat, the outcomes of a play that only passed the turn on to that seat (shared: nothing
#: is allocated for them). Both are ``Final``: compiled, the core reads them as C constants.
TURN_TO: Final[tuple[Outcomes, ...]] = tuple((TurnChanged(seat),) for seat in range(4))


__all__ = ["NOTHING", "GameEnded", "HandCardsDealt", "Outcome", "Outcomes", "PlayerAnnounced", "PlayerOut",
           "PlayerSchupfed", "RoundEnded", "RoundResult", "RoundStarted", "StartPlaying", "TrickTaken", "TurnChanged",
           "TURN_TO", "WishFulfilled", "WishMade"]
