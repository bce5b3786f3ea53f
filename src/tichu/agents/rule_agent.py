"""The rule-based agent: the fixed rules of :class:`~tichu.agents.support.policy.RulePolicy` at a real seat."""

from __future__ import annotations

from collections.abc import Sequence

from tichu.agents.agent import Agent
from tichu.agents.support.policy import RulePolicy
from tichu.agents.support.situation import Situation, situation_of
from tichu.core.combos import Play
from tichu.core.views import SeatView


class RuleAgent(Agent):
    """Plays by fixed rules from its seat's view alone (R8): split the hand into few
    combinations, lead low, keep the Dragon and bombs for the tricks that matter, let the
    partner's tricks run, call from hand strength.

    :ivar policy: The rules.
    """

    kind = "agent:rule"

    def __init__(self, name: str = "Rule", seed: int | None = None, policy: RulePolicy | None = None) -> None:
        super().__init__(name)
        self.seed = seed
        self.policy = policy or RulePolicy()

    @staticmethod
    def situation(view: SeatView) -> Situation:
        """The seat's situation, from its public and private state only."""
        return situation_of(view.public_state(), view.private_state())

    def decide_grand_tichu(self, view: SeatView) -> bool:
        return self.policy.grand_tichu(view.hand, view.public_state().announcements, view.seat)

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        return self.policy.schupf(view.hand, self.policy.tichu(self.situation(view)))

    def decide_tichu(self, view: SeatView) -> bool:
        return self.policy.tichu(self.situation(view))

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        return self.policy.play(self.situation(view), legal)

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        given = view.private_state().given_schupf_cards
        pushed = given[0] | given[2] if given else 0
        return self.policy.wish(self.situation(view), choices, pushed)

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        return self.policy.dragon(self.situation(view), recipients)

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        return self.policy.bomb(self.situation(view), bombs)
