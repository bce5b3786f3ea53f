"""The Monte Carlo agent: determinized search with rule-policy rollouts (design notes, section 1).

For a play with several candidates it repeatedly samples a deal of the unseen cards that
agrees with everything its seat knows (:class:`~tichu.agents.support.prob.DealSampler`, R8), plays
each candidate on a :class:`~tichu.core.round.Round` resumed from that deal, finishes the
round with a fast rule policy for all seats (:data:`ROLLOUT_WEIGHTS`), and keeps every candidate's mean round result
(its team's points minus the opponents'). All candidates see the same deals, so their
differences are compared pairwise; the search stops at the time budget, at the sample
limit, or once the best candidate's lead over the runner-up exceeds :attr:`MonteCarloAgent.z`
standard errors. The other decisions are the heuristic agent's.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import replace

from tichu.agents.heuristic_agent import WEIGHTS, HeuristicAgent, HeuristicPolicy
from tichu.agents.support.knowledge import knowledge_of
from tichu.agents.support.policy import RulePolicy
from tichu.agents.support.prob import DealSampler
from tichu.agents.support.situation import situation_in, situation_of
from tichu.core.combos import Play
from tichu.core.round import Decision, Round
from tichu.core.ruleset import RuleSet
from tichu.core.seats import team_of
from tichu.engine.views import PublicState, SeatView

#: The rollouts' policy: the heuristic's rules without its sampling (every opponent trick
#: is contested with the lowest play that beats it), fast enough for hundreds of rollouts.
ROLLOUT_WEIGHTS = replace(WEIGHTS, fight_hold=0.0, fight_hold_control=0.0)

#: Default seconds per decision: the 99th percentile stays below one second on a
#: Raspberry Pi class machine (see docs/agents.md).
DEFAULT_BUDGET = 0.5


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


class MonteCarloAgent(HeuristicAgent):
    """Chooses plays by determinized Monte Carlo search; see the module docstring.

    :ivar budget: Seconds per decision (``None``: no time limit, only ``max_samples``).
    :ivar max_samples: Most sampled deals per decision.
    :ivar min_samples: Deals before the stopping rule may end the search.
    :ivar z: Standard errors by which the best candidate must lead to stop early.
    :ivar max_candidates: Most candidates searched (the heuristic's best ones).
    """

    kind = "agent:montecarlo"

    def __init__(self, name: str = "MonteCarlo", seed: int | None = None, *, budget: float | None = DEFAULT_BUDGET,
                 max_samples: int = 400, min_samples: int = 8, z: float = 2.5, max_candidates: int = 8) -> None:
        super().__init__(name, seed)
        self.budget = budget
        self.max_samples = max_samples
        self.min_samples = min_samples
        self.z = z
        self.max_candidates = max_candidates
        self.rollout_policy = HeuristicPolicy(ROLLOUT_WEIGHTS)
        self.last_samples = 0

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        started = time.perf_counter()
        if len(legal) == 1:
            return legal[0]
        public, private = view.public_state(), view.private_state()
        s, knowledge = situation_of(public, private), knowledge_of(public, private)
        ranked = self.policy.evaluate(s, knowledge, legal)
        candidates = [play for play, _ in ranked[:self.max_candidates]]
        if len(candidates) == 1:
            return candidates[0]
        try:
            sampler = DealSampler(knowledge)
        except ValueError:
            return candidates[0]
        totals = [0.0] * len(candidates)
        values: list[list[int]] = [[] for _ in candidates]
        deadline = None if self.budget is None else started + self.budget
        samples = 0
        rules = view.rules
        while samples < self.max_samples:
            try:
                hands = sampler.sample(self.policy.rng)
            except ValueError:
                break
            start = _resume(rules, hands, public, view.seat)
            for seat in range(4):
                start.combinations(seat)  # shared by the clones
            for index, play in enumerate(candidates):
                round_ = start.clone()
                round_.apply_legal_play(play)
                rollout(round_, self.rollout_policy)
                value = round_value(round_, view.seat)
                values[index].append(value)
                totals[index] += value
            samples += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if samples >= self.min_samples and self._lead_is_clear(values, totals):
                break
        self.last_samples = samples
        if not samples:
            return candidates[0]
        best = max(range(len(candidates)), key=lambda index: (totals[index], -index))
        return candidates[best]

    def _lead_is_clear(self, values: list[list[int]], totals: list[float]) -> bool:
        """Whether the best candidate leads the runner-up by ``z`` standard errors of their
        paired differences (both were played on the same deals)."""
        order = sorted(range(len(totals)), key=lambda index: -totals[index])
        best, second = values[order[0]], values[order[1]]
        diffs = [a - b for a, b in zip(best, second)]
        n = len(diffs)
        if n < 2:
            return False
        mean = sum(diffs) / n
        variance = sum((diff - mean) ** 2 for diff in diffs) / (n - 1)
        if variance == 0:
            return mean > 0
        return mean > self.z * math.sqrt(variance / n)


def _resume(rules: RuleSet, hands: list[int], public: PublicState, seat: int) -> Round:
    """The round at ``seat``'s turn with the sampled hands."""
    return Round.resume(rules, hands, turn=seat, announcements=public.announcements,
                        trick_turns=public.trick_turns, trick_owner=public.trick_owner_index,
                        wish_value=public.wish_value, wish_open=public.wish_open, won_points=public.points,
                        out_order=public.out_order, played=public.played_cards)
