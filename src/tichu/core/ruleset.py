"""The rule set of a game: target score, the wish, and flags for rule variants (rules.md).

It holds no seed: the deal is a chance outcome (:mod:`tichu.core.flow`), and whoever runs
games (the Arena, the server, an environment, a test) owns the shuffles' source and hands it
to :class:`~tichu.core.game.Game`. So the rules every seat sees (R8) cannot tell the deal.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from tichu.core.frozen import by_fields


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Settings that change the rules; the defaults are the rules of rules.md.

    :ivar target_score: Points at which the game ends (R7.4).
    :ivar wish_optional: The Mah Jong player may wish nothing (R5.1, official rule).
    :ivar tichu_before_schupf: A plain Tichu may be called as soon as all 14 cards are
        dealt, before the pushed cards arrive (the official rule; R2.4's house rule
        otherwise).
    :ivar reveal_hands_when_out: A seat that is out may look at the other hands (R8.3).
    """

    target_score: int = 1000
    wish_optional: bool = False
    tichu_before_schupf: bool = False
    reveal_hands_when_out: bool = True

    def __reduce__(self) -> tuple[type[RuleSet], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)

    def to_json(self) -> dict[str, Any]:
        """Return the rules as a record's ``rules`` object (records.md)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RuleSet:
        """Build a rule set from a record's ``rules`` object; unknown keys are ignored."""
        known = {field.name for field in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})
