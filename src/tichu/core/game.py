"""A game as a sequence of rounds up to the target score (R7.4), pure and synchronous."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tichu.core.outcomes import RoundResult
from tichu.core.round import Round
from tichu.core.ruleset import RuleSet
from tichu.core.seats import winning_team


def is_game_over(total: tuple[int, int] | list[int], target_score: int) -> bool:
    """Whether a game with these totals has ended (R7.4): a team reached the target and the
    scores differ (the house rule plays another round on a tie)."""
    return max(total) >= target_score and total[0] != total[1]


class Game:
    """Scores of a game and the shuffles of its rounds.

    The shuffles' source belongs to whoever runs the game (it owns the seed, if any): the
    rules, which every seat sees (R8), know nothing of it.

    :ivar rules: The rule set.
    :ivar rng: The shuffles' source.
    :ivar results: The finished rounds' results.
    :ivar total: ``[team 20, team 31]`` after the finished rounds.
    """

    def __init__(self, rules: RuleSet | None = None, rng: random.Random | None = None) -> None:
        """Start a game.

        :param rules: (Optional) The rule set.
        :param rng: (Optional) The shuffles' source (seeded by its owner for games that can
            be played again); a fresh ``random.Random()`` if omitted.
        """
        self.rules = rules or RuleSet()
        self.rng = rng or random.Random()
        self.results: list[RoundResult] = []
        self.total = [0, 0]

    def new_round(self, deal: Sequence[tuple[int, int]] | None = None) -> Round:
        """Deal the next round: from the game's shuffle source, or the given deal (a chance
        outcome chosen elsewhere, R2.1).

        :param deal: (Optional) Per seat ``(first 8, last 6)`` card masks.
        :raises RuleViolation: If ``deal`` is not 56 distinct cards split 8 + 6.
        """
        return Round(self.rules, self.rng, deal)

    def clone(self) -> Game:
        """Return an independent copy: the results, the scores and the shuffle source's state."""
        other = Game.__new__(Game)
        other.rules = self.rules
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.results = list(self.results)
        other.total = list(self.total)
        return other

    def add_result(self, result: RoundResult) -> None:
        """Book a finished round's points (R7.3)."""
        self.results.append(result)
        self.total[0] += result.points[0]
        self.total[1] += result.points[1]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (R7.4)."""
        return is_game_over(self.total, self.rules.target_score)

    @property
    def winner(self) -> int | None:
        """The winning team's name (20 or 31), or ``None`` while the game goes on."""
        if not self.is_over:
            return None
        return winning_team(self.total)
