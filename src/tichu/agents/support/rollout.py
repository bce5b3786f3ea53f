"""Rollouts: a round's flow on a sampled deal, finished by a fast policy for every seat.

The Monte Carlo agent searches with them (:mod:`tichu.agents.mc_agent`), and the heuristic
agent with a few of them in the endgame (:attr:`~tichu.agents.heuristic_policy.Weights.endgame_cards`).
A rollout steps the same flow as a real game (:class:`~tichu.core.flow.GameState`): every
offer of a Tichu call (R6.1) and of a bomb out of turn (R4.3) comes in the game's one order,
and the policy answers it as it would at a table. The deal comes from the searching seat's
knowledge only (R8); nothing here reads a hidden hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from tichu.agents.support.situation import Situation, situation_in
from tichu.core.combos import Play
from tichu.core.flow import GameState
from tichu.core.round import Decision, Round
from tichu.core.ruleset import RuleSet
from tichu.core.seats import team_of
from tichu.core.views import PublicState


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


def rollout(state: GameState, policy: RolloutPolicy, *, bombs: bool = True, calls: bool = True,
            quiet_seat: int = -1) -> None:
    """Finish the round of a one-round state (:meth:`~tichu.core.flow.GameState.within`) with
    ``policy`` deciding for every seat, the offers of calls and bombs included.

    :param bombs: Whether the policy throws bombs out of turn when offered (else it declines).
    :param calls: Whether the policy calls Tichu when offered (else it declines).
    :param quiet_seat: A seat that never calls: the searching seat, whose call the search decides.
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
        else:
            raise ValueError(f"a rollout starts in play, not at {decision.name}")


def round_value(state: GameState, seat: int) -> int:
    """A finished round's points of ``seat``'s team minus the other team's (R7)."""
    round_ = state.round
    assert round_ is not None
    points = round_.result().points
    team = team_of(seat)
    return points[team] - points[1 - team]


def resume_at(rules: RuleSet, hands: list[int], public: PublicState, seat: int) -> Round:
    """The round at ``seat``'s turn with the sampled hands (``seat`` is the seat at turn)."""
    return Round.resume(rules, hands, turn=seat, announcements=public.announcements,
                        trick_turns=public.trick_turns, trick_owner=public.trick_owner_index,
                        wish_value=public.wish_value, wish_open=public.wish_open, won_points=public.points,
                        out_order=public.out_order, played=public.played_cards)


def at_decision(round_: Round) -> GameState:
    """A one-round state of a resumed round at its own decision: the offers of that moment
    were made in the game the search stands in (a search resumes where a seat decides)."""
    return GameState.within(round_, offered=True)


__all__ = ["RolloutPolicy", "at_decision", "resume_at", "rollout", "round_value"]
