"""Rollouts: a round's flow on a sampled world, finished by a fast policy for every seat.

The Monte Carlo agent searches with them (:mod:`tichu.agents.mc_agent`), and the heuristic
agent with a few of them per play (:attr:`~tichu.agents.heuristic_policy.Weights.rollout_cards`).
A rollout steps the same flow as a real game (:class:`~tichu.core.flow.GameState`), from the
deal on or from any decision in play: every Grand Tichu decision (R2.1) and push (R2.3),
every offer of a Tichu call (R6.1) and of a bomb out of turn (R4.3) comes in the game's one
order, and the policy answers it as it would at a table. The loop asks the core, nothing
else; the world comes from the searching seat's knowledge only
(:mod:`tichu.agents.support.worlds`, R8): nothing here reads a hidden hand.

"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from tichu.agents.support.situation import Situation, situation_in
from tichu.core.combos import Play
from tichu.core.flow import GameState
from tichu.core.round import Decision
from tichu.core.seats import team_of


class RolloutPolicy(Protocol):
    """What a rollout asks of its policy (the heuristic's rollout policy is one)."""

    def play(self, s: Situation, legal: Sequence[Play]) -> Play:
        """A play of ``legal`` (R4.1)."""

    def tichu(self, s: Situation) -> bool:
        """Whether to call Tichu now (R6.1)."""

    def choose_bomb(self, s: Situation, bombs: Sequence[Play]) -> Play | None:
        """A bomb of ``bombs`` to throw out of turn, or none (R4.3)."""

    def wish(self, s: Situation, choices: Sequence[int], pushed_to_opponents: int) -> int:
        """The wish after the Mah Jong (R5.1)."""

    def dragon(self, s: Situation, recipients: Sequence[int]) -> int:
        """The Dragon trick's recipient (R4.5)."""

    def grand_tichu(self, hand: int, calls: Sequence[int], seat: int) -> bool:
        """Whether to call Grand Tichu on these first eight cards (R2.1)."""

    def schupf(self, hand: int, strong: bool) -> tuple[int, int, int]:
        """The push of a hand (to right, partner, left; R2.3), ``strong`` if it may go out first."""


def rollout(state: GameState, policy: RolloutPolicy, *, bombs: bool = True, calls: bool = True,
            quiet_seat: int = -1) -> None:
    """Finish the round of a one-round state (:meth:`~tichu.core.flow.GameState.within`, a
    world of :func:`~tichu.core.worlds.world_of`) with ``policy`` deciding for every seat, from
    Grand Tichu and the push on, the offers of calls and bombs included.

    :param bombs: Whether the policy throws bombs out of turn when offered (else it declines).
    :param calls: Whether the policy calls Tichu when offered (else it declines).
    :param quiet_seat: A seat that never calls (Tichu or Grand Tichu): the searching seat, whose
        call the search decides.
    """
    while not state.is_over:
        decision = state.decision
        seat = state.decision_seat
        round_ = state.round
        assert seat is not None and round_ is not None
        if decision == Decision.PLAY:
            state.apply_play(policy.play(situation_in(round_, seat), state.legal_plays()))
        elif decision == Decision.BOMB:
            bomb = policy.choose_bomb(situation_in(round_, seat), state.offered_bombs()) if bombs else None
            if bomb is None:
                state.decline(seat)
            else:
                state.bomb(seat, bomb.cards)
        elif decision == Decision.TICHU:
            if calls and seat != quiet_seat and policy.tichu(situation_in(round_, seat)):
                state.call(seat)
            else:
                state.decline(seat)
        elif decision == Decision.WISH:
            state.wish(seat, policy.wish(situation_in(round_, seat), round_.wish_choices(), 0))
        elif decision == Decision.DRAGON:
            state.give_dragon(seat, policy.dragon(situation_in(round_, seat), round_.dragon_recipients()))
        elif decision == Decision.GRAND_TICHU:
            state.decide_grand_tichu(seat, seat != quiet_seat and grand_call(policy, round_.hands, seat))
        elif decision == Decision.SCHUPF:
            state.push(seat, push_of(policy, round_.hands, round_.announcements, seat))
        else:
            raise ValueError(f"a rollout plays a dealt round, not at {decision.name}")


def grand_call(policy: RolloutPolicy, hands: Sequence[int], seat: int) -> bool:
    """The policy's Grand Tichu decision of ``seat`` on its first eight cards (R2.1): the others'
    answers are not known yet (they take effect together)."""
    return policy.grand_tichu(hands[seat], (0, 0, 0, 0), seat)


def push_of(policy: RolloutPolicy, hands: Sequence[int], calls: Sequence[int], seat: int) -> tuple[int, int, int]:
    """The policy's push of ``seat``'s fourteen cards (R2.3), strong if it would call Tichu."""
    counts = (hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count(), hands[3].bit_count())
    situation = Situation(seat, hands[seat], None, None, 0, 0, counts, tuple(calls), 0)
    return policy.schupf(hands[seat], policy.tichu(situation))


def round_value(state: GameState, seat: int) -> int:
    """A finished round's points of ``seat``'s team minus the other team's (R7)."""
    round_ = state.round
    assert round_ is not None
    points = round_.result().points
    team = team_of(seat)
    return points[team] - points[1 - team]


__all__ = ["RolloutPolicy", "grand_call", "push_of", "rollout", "round_value"]
