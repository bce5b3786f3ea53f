"""Seats and teams (R1.3): who is whose partner and opponent, and which team won (R7.4).

Seats are 0..3 in playing order; seats 0 and 2 form team 20, seats 1 and 3 team 31.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Team names in the order of the team pairs (R1.3).
TEAM_NAMES = (20, 31)


def partner(seat: int) -> int:
    """The seat opposite (R1.3).

    >>> partner(1)
    3
    """
    return (seat + 2) % 4


def opponents(seat: int) -> tuple[int, int]:
    """The opponents: the next seat (on the right) first, then the previous one (on the left).

    >>> opponents(0)
    (1, 3)
    """
    return (seat + 1) % 4, (seat + 3) % 4


def is_opponent(seat: int, other: int) -> bool:
    """Whether two seats play in different teams."""
    return (other - seat) % 2 == 1


def team_of(seat: int) -> int:
    """The index of a seat's team in the team pairs: 0 for team 20, 1 for team 31."""
    return seat % 2


def winning_team(total: Sequence[int]) -> int:
    """The name of the team ahead in a ``[team 20, team 31]`` total (R7.4; a tie has none, the
    game goes on, so a finished game's total never ties).

    >>> winning_team([1010, 990])
    20
    """
    return TEAM_NAMES[0] if total[0] > total[1] else TEAM_NAMES[1]
