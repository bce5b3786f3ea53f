"""What happens at a table, as typed, frozen event objects (one class per event).

The engine emits these to the players that listen (:attr:`~tichu.engine.player.Player.listens`).
They carry the public facts in the rules core's own terms (seats, card masks,
:class:`~tichu.core.combos.Play`); :class:`HandsRevealed` is the one event that carries hidden
cards, and the engine sends it only to the seats that are out (R8.3). Turning an event into
the protocol's JSON, and adding a seat's private part, is the server's job
(:mod:`tichu.server.wire.protocol`).

What an action caused is the rules core's own account (:mod:`tichu.core.outcomes`, Issue 36):
those outcomes are the table's events as they are (a trick taken, a seat out, the wish, a call,
the push, the turn, the cards dealt); the engine adds what the core does not tell, the play or
pass itself, the round's and game's scores for the table, and the hands shown to seats out.
"""

from __future__ import annotations

from dataclasses import dataclass

from tichu.core.combos import Play
from tichu.core.outcomes import (
    HandCardsDealt,
    PlayerAnnounced,
    PlayerOut,
    PlayerSchupfed,
    RoundStarted,
    StartPlaying,
    TrickTaken,
    TurnChanged,
    WishFulfilled,
    WishMade,
)


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A game begins (R7.4)."""


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
class HandsRevealed:
    """Every hand, shown to a seat that is out (R8.3); never sent to a seat still playing.

    :ivar hands: The four hands (masks), seat 0 first.
    """

    hands: tuple[int, int, int, int]


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

__all__ = ["Event", "GameOver", "GameStarted", "HandCardsDealt", "HandsRevealed", "PlayerAnnounced", "PlayerOut",
           "PlayerPassed", "PlayerPlayed", "PlayerSchupfed", "RoundOver", "RoundStarted", "StartPlaying", "TrickTaken",
           "TurnChanged", "WishFulfilled", "WishMade"]
