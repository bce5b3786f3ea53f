"""Ratings: Elo on team averages (docs/ratings.md).

Each team's rating is the mean of its two seats' ratings; the winners' expected score is
``1 / (1 + 10 ** ((loser - winner) / 400))``; every seat of the winning team gains
``K * (1 - expected)``, every seat of the losing team loses as much. A draw cannot happen
(R7.4). Ratings start at :data:`INITIAL`. The delta is applied per seat: a player key at two
seats of one team (two agents of one kind) moves twice, a key on both teams (agents of one kind
against each other) not at all; so the sum of all ratings never changes.

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


def rate_games(games: Iterable[tuple[Sequence[str], int]]) -> dict[str, float]:
    """Ratings from scratch after these games, applied in the given order.

    :param games: ``(player keys by seat, winner)`` per finished game.
    :returns: Ratings by player key.
    """
    ratings: dict[str, float] = {}
    for seats, winner in games:
        apply_game(ratings, seats, winner)
    return ratings
