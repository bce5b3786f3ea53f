"""What happens at a table, as typed, frozen event objects (one class per event).

The engine emits these to the players that listen (:attr:`~tichu.engine.player.Player.listens`).
They carry the public facts in the rules core's own terms (seats, card masks,
:class:`~tichu.core.combos.Play`); :class:`HandsRevealed` is the one event that carries hidden
cards, and the engine sends it only to the seats that are out (R8.3). Turning an event into
the protocol's JSON, and adding a seat's private part, is the server's job
(:mod:`tichu.server.wire.protocol`).
"""

from __future__ import annotations

from dataclasses import dataclass

from tichu.core.combos import Play


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A game begins (R7.4)."""


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A round begins (R2).

    :ivar round_index: The round's index in the game, from 0.
    """

    round_index: int


@dataclass(frozen=True, slots=True)
class HandCardsDealt:
    """Each seat was dealt cards: the first 8 (R2.1), then the other 6 (R2.2).

    :ivar count: How many cards each seat got now.
    """

    count: int


@dataclass(frozen=True, slots=True)
class PlayerAnnounced:
    """A seat called Tichu (R6.1) or Grand Tichu (R2.1).

    :ivar seat: The calling seat.
    :ivar grand: Whether it is a Grand Tichu.
    """

    seat: int
    grand: bool


@dataclass(frozen=True, slots=True)
class PlayerSchupfed:
    """A seat gave its three cards (R2.3); which cards stays private.

    :ivar seat: The giving seat.
    """

    seat: int


@dataclass(frozen=True, slots=True)
class StartPlaying:
    """The push is done and the holder of the Mah Jong leads (R2.5).

    :ivar leader: The seat that leads the first trick.
    """

    leader: int


@dataclass(frozen=True, slots=True)
class PlayerPassed:
    """A seat passed (R4.1).

    :ivar seat: The passing seat.
    """

    seat: int


@dataclass(frozen=True, slots=True)
class PlayerPlayed:
    """A seat played a combination, at its turn or as a bomb out of turn (R4.1, R4.3).

    :ivar seat: The playing seat.
    :ivar play: The play.
    :ivar trick_points: The card points in the trick now (R1.2).
    :ivar trick_owner: Who holds the trick now.
    :ivar out_of_turn: Whether it was a bomb thrown out of turn.
    """

    seat: int
    play: Play
    trick_points: int
    trick_owner: int | None
    out_of_turn: bool


@dataclass(frozen=True, slots=True)
class PlayerOut:
    """A seat has played its last card (R7.1).

    :ivar seat: The seat.
    :ivar place: Its place, 1 for the first out.
    """

    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class HandsRevealed:
    """Every hand, shown to a seat that is out (R8.3); never sent to a seat still playing.

    :ivar hands: The four hands (masks), seat 0 first.
    """

    hands: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class WishMade:
    """The Mah Jong's player made a wish (R5.1).

    :ivar value: The wished value (0: none, where the rules allow it).
    """

    value: int


@dataclass(frozen=True, slots=True)
class WishFulfilled:
    """The wish was fulfilled (R5.4)."""


@dataclass(frozen=True, slots=True)
class TrickTaken:
    """A trick was taken (R4.2), or given away with the Dragon (R4.5).

    :ivar winner: The seat that won it (``None`` only for an empty trick).
    :ivar points: Its card points.
    :ivar dragon_recipient: The opponent it was given to, or ``None``.
    """

    winner: int | None
    points: int
    dragon_recipient: int | None


@dataclass(frozen=True, slots=True)
class TurnChanged:
    """Another seat is at turn (R4.1).

    :ivar seat: The seat at turn.
    """

    seat: int


@dataclass(frozen=True, slots=True)
class RoundOver:
    """A round ended (R7).

    :ivar card_points: Card points per team ``(20, 31)``.
    :ivar bonus: Call bonuses and penalties per team.
    :ivar points: The round's points per team.
    :ivar total: The game's total per team after this round.
    :ivar out_order: The seats in the order they went out.
    :ivar double_victory: Whether a team went out first and second (R7.1).
    """

    card_points: tuple[int, int]
    bonus: tuple[int, int]
    points: tuple[int, int]
    total: tuple[int, int]
    out_order: tuple[int, ...]
    double_victory: bool


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended (R7.4).

    :ivar round_points: Each finished round's points per team, in order.
    :ivar total: The final total per team.
    :ivar winner: The winning team (20 or 31).
    """

    round_points: tuple[tuple[int, int], ...]
    total: tuple[int, int]
    winner: int | None


#: Every event the engine emits.
Event = (GameStarted | RoundStarted | HandCardsDealt | PlayerAnnounced | PlayerSchupfed | StartPlaying | PlayerPassed
         | PlayerPlayed | PlayerOut | HandsRevealed | WishMade | WishFulfilled | TrickTaken | TurnChanged | RoundOver
         | GameOver)
