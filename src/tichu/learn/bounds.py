"""The bounds of the scores a game gives, shared by the learning interfaces: OpenSpiel's utilities
(:mod:`tichu.learn.spiel`) and the PettingZoo environment's illegal-action penalty
(:mod:`tichu.learn.env`). It imports neither library, so each interface needs only its own extra.
"""

from __future__ import annotations

#: The most points a team can gain on the other in one round: a double victory (200 : 0, R7.1)
#: with its first seat's Grand Tichu won (+200) and both opponents' Grand Tichu lost (-200 each,
#: R6.2, R6.3).
ROUND_SWING = 200 + 200 + 2 * 200


def game_swing(max_rounds: int) -> int:
    """The most points a team can gain on the other in a game of at most ``max_rounds`` rounds:
    the bound of every return, the worst result being its negation.

    :raises ValueError: For fewer than one round.
    """
    if max_rounds < 1:
        raise ValueError("a game has at least one round")
    return ROUND_SWING * max_rounds


__all__ = ["ROUND_SWING", "game_swing"]
