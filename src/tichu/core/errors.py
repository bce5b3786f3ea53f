"""The rules core's one error: :class:`RuleViolation`, with the rule it breaks and why.

The core knows nothing of the wire: :class:`Violation` says in the rules' own terms what
was wrong, and the server's protocol module maps it to an error code of protocol.md.
"""

from __future__ import annotations

from enum import Enum


class Violation(Enum):
    """What kind of rule an action broke."""

    UNKNOWN_CARD = "unknown card"
    DUPLICATE_CARD = "a card given twice"
    NOT_IN_HAND = "card not in the hand"
    NO_COMBINATION = "no combination"
    NOT_YOUR_TURN = "not the seat's turn"
    BOMB_NOT_ALLOWED = "no bomb allowed now"
    CALL_NOT_ALLOWED = "no call allowed now"
    WISH_NOT_ALLOWED = "no such wish allowed now"
    DRAGON_RECIPIENT = "the Dragon trick goes to an opponent"
    ACTION_NOT_ALLOWED = "action not allowed now"


class TichuError(Exception):
    """Base class of the project's domain errors."""


class RuleViolation(TichuError):
    """An action that the rules do not allow at this point; nothing was changed.

    :ivar violation: What kind of rule it broke.
    :ivar rule: The rule it breaks, as numbered in rules.md (e.g. ``"R5.2"``).
    :ivar reason: A sentence for people.
    """

    def __init__(self, violation: Violation, rule: str, reason: str) -> None:
        super().__init__(f"{rule}: {reason}")
        self.violation = violation
        self.rule = rule
        self.reason = reason
