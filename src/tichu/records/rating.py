"""Ratings: Elo on team averages (docs/ratings.md).

Each team's rating is the mean of its two seats' ratings; the winners' expected score is
``1 / (1 + 10 ** ((loser - winner) / 400))``; every seat of the winning team gains
``K * (1 - expected)``, every seat of the losing team loses as much. A draw cannot happen
(R7.4). Ratings start at :data:`INITIAL`. The delta is applied per seat: a player key at two
seats of one team (two agents of one kind) moves twice, a key on both teams (agents of one kind
against each other) not at all; so the sum of all ratings never changes.

A game in which a person left for good is not rated as a game (a substitute played part of
it); each person who left loses what their team would have lost by losing it, and each seat of
the other team gains half of that (:func:`apply_leaving`), so that leaving never pays and the sum
stays.

Pure: no storage, no clock. Games are applied in the order of ``started_at``, then id.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: A newcomer's rating.
INITIAL = 1500.0
#: How far one game moves a rating at most.
K = 32.0
#: Rating points at which the stronger side is expected to win ten times as often.
SCALE = 400.0


def expected(rating: float, opponent: float) -> float:
    """The Elo expected score of a side rated ``rating`` against one rated ``opponent`` (0..1)."""
    return 1.0 / (1.0 + float(10.0 ** ((opponent - rating) / SCALE)))


def game_delta(ratings: dict[str, float], seats: Sequence[str], winner: int) -> float:
    """The points each winning seat gains (and each losing seat loses) in one game.

    :param ratings: Current ratings by player key (missing keys count :data:`INITIAL`).
    :param seats: The player key of each of the four seats.
    :param winner: 20 (seats 0 and 2) or 31 (seats 1 and 3).
    :returns: The delta, in ``0..K``.
    """
    team_20 = (ratings.get(seats[0], INITIAL) + ratings.get(seats[2], INITIAL)) / 2
    team_31 = (ratings.get(seats[1], INITIAL) + ratings.get(seats[3], INITIAL)) / 2
    won, lost = (team_20, team_31) if winner == 20 else (team_31, team_20)
    return K * (1.0 - expected(won, lost))


def apply_game(ratings: dict[str, float], seats: Sequence[str], winner: int) -> dict[str, float]:
    """Apply one finished game to the ratings (in place).

    :param ratings: Ratings by player key; a new key starts at :data:`INITIAL`.
    :param seats: The player key of each of the four seats.
    :param winner: 20 or 31.
    :returns: ``ratings``.
    :raises ValueError: For a winner that is no team or not four seats.
    """
    if winner not in (20, 31) or len(seats) != 4:
        raise ValueError(f"a rated game needs four seats and a winning team, not {winner!r}")
    delta = game_delta(ratings, seats, winner)
    for seat, key in enumerate(seats):
        sign = 1.0 if (seat % 2 == 0) == (winner == 20) else -1.0
        ratings[key] = ratings.get(key, INITIAL) + sign * delta
    return ratings


def apply_leaving(ratings: dict[str, float], seats: Sequence[str], leavers: Iterable[int]) -> dict[str, float]:
    """Apply a game that people left for good (in place): each leaver loses ``K * E`` (``E`` their
    team's expected score against the other: what a loss would have cost the team), and each seat
    of the other team gains half of it.

    :param ratings: Ratings by player key; a new key starts at :data:`INITIAL`.
    :param seats: The player key of each of the four seats.
    :param leavers: The seats whose players left.
    :returns: ``ratings``.
    """
    if len(seats) != 4:
        raise ValueError("a rated game needs four seats")
    for seat in leavers:
        own = (ratings.get(seats[seat % 2], INITIAL) + ratings.get(seats[seat % 2 + 2], INITIAL)) / 2
        other = (ratings.get(seats[1 - seat % 2], INITIAL) + ratings.get(seats[3 - seat % 2], INITIAL)) / 2
        delta = K * expected(own, other)
        ratings[seats[seat]] = ratings.get(seats[seat], INITIAL) - delta
        for opponent in (1 - seat % 2, 3 - seat % 2):
            ratings[seats[opponent]] = ratings.get(seats[opponent], INITIAL) + delta / 2
    return ratings


#: What one game does to the ratings: the player keys by seat, the winner (20, 31; ``None`` when
#: it is not rated as a game) and the seats whose players left it.
Outcome = tuple[Sequence[str], int | None, Sequence[int]]


def apply_outcome(ratings: dict[str, float], outcome: Outcome) -> dict[str, float]:
    """Apply one game's outcome: the leavers' loss if anyone left, else the game if it is rated."""
    seats, winner, leavers = outcome
    if leavers:
        return apply_leaving(ratings, seats, leavers)
    if winner is not None:
        return apply_game(ratings, seats, winner)
    return ratings


def rate_games(games: Iterable[Outcome]) -> dict[str, float]:
    """Ratings from scratch after these games, applied in the given order.

    :param games: The outcome of each game (:data:`Outcome`).
    :returns: Ratings by player key.
    """
    ratings: dict[str, float] = {}
    for outcome in games:
        apply_outcome(ratings, outcome)
    return ratings
