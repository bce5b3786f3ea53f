"""Rollouts: a round resumed on a sampled deal and finished by a fast policy for every seat.

The Monte Carlo agent searches with them (:mod:`tichu.agents.mc_agent`), and the heuristic
agent with a few of them in the endgame (:attr:`~tichu.agents.heuristic_policy.Weights.endgame_cards`).
The deal comes from the searching seat's knowledge only (R8); nothing here reads a hidden hand.
"""

from __future__ import annotations

from tichu.agents.support.policy import RulePolicy
from tichu.agents.support.situation import situation_in
from tichu.core.round import Decision, Round
from tichu.core.ruleset import RuleSet
from tichu.core.seats import team_of
from tichu.engine.views import PublicState


def rollout(round_: Round, policy: RulePolicy) -> None:
    """Finish a round with ``policy`` deciding for every seat (bombs only at one's turn)."""
    while not round_.is_over:
        decision = round_.decision
        seat = round_.decision_seat
        assert seat is not None
        if decision == Decision.PLAY:
            round_.apply_legal_play(policy.play(situation_in(round_, seat), round_.legal_plays()))
        elif decision == Decision.WISH:
            round_.make_wish(seat, policy.wish(situation_in(round_, seat), round_.wish_choices(), 0))
        else:
            round_.give_dragon(seat, policy.dragon(situation_in(round_, seat), round_.dragon_recipients()))


def round_value(round_: Round, seat: int) -> int:
    """A finished round's points of ``seat``'s team minus the other team's (R7)."""
    points = round_.result().points
    team = team_of(seat)
    return points[team] - points[1 - team]


def resume_at(rules: RuleSet, hands: list[int], public: PublicState, seat: int) -> Round:
    """The round at ``seat``'s turn with the sampled hands (``seat`` is the seat at turn)."""
    return Round.resume(rules, hands, turn=seat, announcements=public.announcements,
                        trick_turns=public.trick_turns, trick_owner=public.trick_owner_index,
                        wish_value=public.wish_value, wish_open=public.wish_open, won_points=public.points,
                        out_order=public.out_order, played=public.played_cards)


__all__ = ["resume_at", "rollout", "round_value"]
