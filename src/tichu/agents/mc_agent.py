"""The Monte Carlo agent: determinized search with rule-policy rollouts (design notes, section 1).

For a play with several candidates it repeatedly samples a deal of the unseen cards that
agrees with everything its seat knows (:class:`~tichu.agents.support.prob.DealSampler`, R8), plays
each candidate on a :class:`~tichu.core.round.Round` resumed from that deal, finishes the
round with a fast rule policy for all seats (:data:`ROLLOUT_WEIGHTS`), and keeps every candidate's mean round result
(its team's points minus the opponents'). All candidates see the same deals, so their
differences are compared pairwise; the search stops at the time budget, at the sample
limit, or once the best candidate's lead over the runner-up exceeds :attr:`MonteCarloAgent.z`
standard errors.

With :data:`~tichu.agents.mc_search.SEARCH` (issue 13 part 2, the default) the other
decisions are searched the same way: Tichu and Grand Tichu by rollouts with and without the
call, the push among the heuristic's candidates, the wish, the Dragon gift and out-of-turn
bombs (bomb against no bomb); rollouts bomb and call like the heuristic, and deals are
weighted by the passes and calls seen (:mod:`tichu.agents.support.inference`). With
:data:`~tichu.agents.mc_search.V1` (``montecarlo:v1``) it decides as before: only plays are
searched, the other decisions are the heuristic agent's.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.heuristic_policy import V1 as HEURISTIC_V1
from tichu.agents.heuristic_policy import WEIGHTS, HeuristicPolicy, rollout_weights
from tichu.agents.mc_search import SEARCH, SearchOptions, deal_from, deal_start, unknown_cards
from tichu.agents.support.inference import WeightedSampler, evidence_of
from tichu.agents.support.knowledge import Knowledge, knowledge_of
from tichu.agents.support.prob import DealSampler
from tichu.agents.support.rollout import at_decision, resume_at, rollout, round_value
from tichu.agents.support.situation import situation_of
from tichu.core.cards import VALUE_MASK
from tichu.core.combos import Play
from tichu.core.errors import RuleViolation
from tichu.core.flow import GameState
from tichu.core.round import Round
from tichu.engine.views import PublicState, SeatView, TablePhase

#: The rollouts' policy: the heuristic's rules without its sampling (every opponent trick
#: is contested with the lowest play that beats it), fast enough for hundreds of rollouts.
ROLLOUT_WEIGHTS = rollout_weights(WEIGHTS)

#: Default seconds per decision: the 99th percentile stays below one second on a
#: Raspberry Pi class machine (see docs/agents.md).
DEFAULT_BUDGET = 0.5


class MonteCarloAgent(HeuristicAgent):
    """Chooses plays by determinized Monte Carlo search; see the module docstring.

    :ivar budget: Seconds per decision (``None``: no time limit, only ``max_samples``).
    :ivar max_samples: Most sampled deals per decision.
    :ivar min_samples: Deals before the stopping rule may end the search.
    :ivar z: Standard errors by which the best candidate must lead to stop early.
    :ivar max_candidates: Most candidates searched (the heuristic's best ones).
    :ivar options: What is searched and how (:class:`~tichu.agents.mc_search.SearchOptions`).
    :ivar last_means: The mean round value per candidate of the last searched decision.
    """

    kind = "agent:montecarlo"

    def __init__(self, name: str = "MonteCarlo", seed: int | None = None, *, budget: float | None = DEFAULT_BUDGET,
                 max_samples: int = 400, min_samples: int = 8, z: float = 2.5, max_candidates: int = 8,
                 options: SearchOptions = SEARCH) -> None:
        # montecarlo:v1 is the agent as it was: the first heuristic ranks and rolls out for it
        weights = HEURISTIC_V1 if options.first_heuristic else WEIGHTS
        super().__init__(name, seed, weights)
        self.budget = budget
        self.max_samples = max_samples
        self.min_samples = min_samples
        self.z = z
        self.max_candidates = max_candidates
        self.rollout_policy = HeuristicPolicy(rollout_weights(weights))
        self.last_samples = 0
        self.options = options
        self.last_means: list[float] = []
        self.last_first: list[float] = []
        self.last_values: list[list[int]] = []
        self._tichu_call: tuple[int, bool] | None = None

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        deadline = self._deadline()
        if len(legal) == 1:
            return legal[0]
        public, private = view.public_state(), view.private_state()
        s, knowledge = situation_of(public, private), knowledge_of(public, private)
        ranked = self.policy.evaluate(s, knowledge, legal)
        candidates = [play for play, _ in ranked[:self.max_candidates]]
        if len(candidates) == 1:
            return candidates[0]
        try:
            sampler = self._sampler(knowledge, public, view.seat)
        except ValueError:
            return candidates[0]
        totals = [0.0] * len(candidates)
        values: list[list[int]] = [[] for _ in candidates]
        samples = 0
        rules = view.rules
        while samples < self.max_samples:
            try:
                hands = sampler.sample(self.policy.rng)
            except ValueError:
                break
            resumed = resume_at(rules, hands, public, view.seat)
            for seat in range(4):
                resumed.combinations(seat)  # shared by the clones
                resumed.holds_bomb(seat)  # the bombs too
            start = at_decision(resumed)
            for index, play in enumerate(candidates):
                state = start.clone()
                state.apply_play(play)
                self._play_out(state, view.seat, index, values, totals)
            samples += 1
            if self._enough(samples, deadline, values, totals):
                break
        self.last_samples = samples
        if not samples:
            return candidates[0]
        best = max(range(len(candidates)), key=lambda index: (totals[index], -index))
        return candidates[best]

    # -- search over the other decisions (SearchOptions) -----------------------------------

    def _sampler(self, knowledge: Knowledge, public: PublicState, seat: int) -> DealSampler | WeightedSampler:
        """Uniform deals (v1) or deals weighted by the evidence (``options.inference``)."""
        sampler = DealSampler(knowledge)
        if not self.options.inference:
            return sampler
        return WeightedSampler(sampler, evidence_of(public, seat))

    def _play_out(self, state: GameState, seat: int, index: int, values: list[list[int]], totals: list[float]) -> None:
        """Roll ``state`` out and add its value for ``seat`` to candidate ``index``'s tally."""
        rollout(state, self.rollout_policy, bombs=self.options.rollout_bombs, calls=self.options.rollout_calls,
                quiet_seat=seat)
        value = round_value(state, seat)
        values[index].append(value)
        totals[index] += value

    def _deadline(self) -> float | None:
        """When the search must stop (``time.monotonic()``; ``None`` without a time budget): the
        budget counts from :attr:`~tichu.agents.agent.Agent.asked_at` where a server set it, so a
        decision that waited for a worker searches only for what is left of it (at least one
        deal is always searched)."""
        if self.budget is None:
            return None
        return (time.monotonic() if self.asked_at is None else self.asked_at) + self.budget

    def _enough(self, samples: int, deadline: float | None, values: list[list[int]], totals: list[float]) -> bool:
        """The searches' stopping rule: the time budget is spent, or after the minimum of
        samples the best candidate leads clearly."""
        if deadline is not None and time.monotonic() >= deadline:
            return True
        return samples >= self.min_samples and self._lead_is_clear(values, totals)

    def _search(self, seat: int, draw: Callable[[], Any], build: Callable[[Any, int], GameState],
                branches: int) -> list[float] | None:
        """Mean round value of each branch over the same drawn deals (``None`` without any):
        ``build(deal, branch)`` makes the branch's round, which is played out. Bounded like a
        play's search (time budget, sample limit, stopping rule); nothing to search with one branch."""
        if branches < 2:
            return None
        deadline = self._deadline()
        totals = [0.0] * branches
        firsts = [0] * branches
        values: list[list[int]] = [[] for _ in range(branches)]
        samples = 0
        while samples < self.max_samples:
            try:
                deal = draw()
                states = [build(deal, branch) for branch in range(branches)]
            except (ValueError, RuleViolation):
                break
            for branch, state in enumerate(states):
                self._play_out(state, seat, branch, values, totals)
                round_ = state.round
                assert round_ is not None
                firsts[branch] += round_.out_order[0] == seat
            samples += 1
            if self._enough(samples, deadline, values, totals):
                break
        self.last_samples = samples
        if not samples:
            return None
        self.last_first = [first / samples for first in firsts]
        self.last_means = [total / samples for total in totals]
        self.last_values = values
        return self.last_means

    def _best(self, seat: int, draw: Callable[[], Any], build: Callable[[Any, int], GameState], branches: int) -> int:
        """The branch with the best mean, if it leads branch 0 (the heuristic's choice) clearly:
        by :attr:`~tichu.agents.mc_search.SearchOptions.deviate_z` standard errors of their
        paired differences; else branch 0 (also without deals). Few deals, as a small budget
        on a slow machine gives, thus keep the heuristic's choice instead of noise."""
        means = self._search(seat, draw, build, branches)
        if means is None:
            return 0
        best = max(range(branches), key=lambda index: (means[index], -index))
        if best and not leads_clearly(self.last_values[best], self.last_values[0], self.options.deviate_z):
            return 0
        return best

    def _call_is_sure(self, means: list[float], first: float) -> bool:
        """Whether the searched call pays (its mean above not calling by ``call_margin``) and
        the caller went out first often enough: the lower end of the share's Wilson interval
        at ``first_z`` standard errors reaches ``first`` (R6)."""
        outs = round(self.last_first[1] * self.last_samples)
        return means[1] - means[0] > self.options.call_margin \
            and share_lower_bound(outs, self.last_samples, self.options.first_z) >= first

    def _too_few_to_call(self, first: float) -> bool:
        """Whether the last search had too few deals for any call: even a caller out first in
        every one would not reach ``first`` (then the heuristic's call decides, not silence)."""
        samples = self.last_samples
        return share_lower_bound(samples, samples, self.options.first_z) < first

    def _in_play(self, view: SeatView) -> tuple[PublicState, Callable[[], list[int]]] | None:
        """The public state and a deal sampler for a search in play, or ``None`` where a
        round cannot be resumed (then the heuristic decides)."""
        public, private = view.public_state(), view.private_state()
        if public.phase != TablePhase.PLAYING or public.current_turn_index is None:
            return None
        owner = public.trick_owner_index
        if owner is not None and not public.count_hand_cards[owner] and public.trick_turns:
            return None
        try:
            sampler = self._sampler(knowledge_of(public, private), public, view.seat)
        except ValueError:
            return None
        rng = self.policy.rng
        return public, lambda: sampler.sample(rng)

    def decide_grand_tichu(self, view: SeatView) -> bool:
        if not self.options.grand:
            return super().decide_grand_tichu(view)
        public = view.public_state()
        if public.announcements[(view.seat + 2) % 4]:
            return False
        rng, rules, own = self.policy.rng, view.rules, [0, 0, 0, 0]
        own[view.seat] = view.hand
        calls = public.announcements

        def draw() -> list[tuple[int, int]]:
            cards = unknown_cards(view.hand)
            rng.shuffle(cards)
            return deal_from(own, view.seat, True, cards)

        def build(deal: list[tuple[int, int]], branch: int) -> GameState:
            return deal_start(rules, deal, self.rollout_policy, view.seat, calls, grand=branch == 1, push=None)

        means = self._search(view.seat, draw, build, 2)
        if means is None or self._too_few_to_call(self.options.grand_first):
            return super().decide_grand_tichu(view)
        return self._call_is_sure(means, self.options.grand_first)

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        first = super().decide_schupf(view)
        if not self.options.push:
            return first
        candidates = [first]
        for strong in (False, True):
            other = self.policy.schupf(view.hand, strong)
            if other not in candidates:
                candidates.append(other)
        right, mate, left = first
        if (left, mate, right) not in candidates:
            candidates.append((left, mate, right))
        rng, rules, own = self.policy.rng, view.rules, [0, 0, 0, 0]
        own[view.seat] = view.hand
        calls = view.public_state().announcements

        def draw() -> list[tuple[int, int]]:
            cards = unknown_cards(view.hand)
            rng.shuffle(cards)
            return deal_from(own, view.seat, False, cards)

        def build(deal: list[tuple[int, int]], branch: int) -> GameState:
            return deal_start(rules, deal, self.rollout_policy, view.seat, calls, grand=None, push=candidates[branch])

        return candidates[self._best(view.seat, draw, build, len(candidates))]

    def decide_tichu(self, view: SeatView) -> bool:
        if not self.options.tichu:
            return super().decide_tichu(view)
        if self._tichu_call is not None and self._tichu_call[0] == view.hand:
            return self._tichu_call[1]
        public = view.public_state()
        found = self._in_play(view)
        if found is None or public.announcements[(view.seat + 2) % 4]:
            return super().decide_tichu(view)
        _, draw = found
        rules, seat = view.rules, view.seat

        def build(hands: list[int], branch: int) -> GameState:
            round_ = resume_at(rules, hands, public, public.current_turn_index or 0)
            if branch:
                round_.announce(seat)
            return at_decision(round_)

        means = self._search(seat, draw, build, 2)
        if means is None or self._too_few_to_call(self.options.tichu_first):
            call = super().decide_tichu(view)
        else:
            call = self._call_is_sure(means, self.options.tichu_first)
        self._tichu_call = view.hand, call
        return call

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        first = super().decide_bomb(view, bombs)
        found = self._in_play(view) if self.options.bomb and bombs else None
        if found is None:
            return first
        public, draw = found
        options: list[Play | None] = [first] + [bomb for bomb in [None, *bombs[:3]] if bomb != first]
        rules, seat = view.rules, view.seat

        def build(hands: list[int], branch: int) -> GameState:
            round_ = resume_at(rules, hands, public, public.current_turn_index or 0)
            bomb = options[branch]
            if bomb is None:
                return at_decision(round_)
            round_.bomb(seat, bomb.cards)  # on the trick as it lies, closed or not (R4.3)
            return GameState.within(round_, offered=False)  # a bomb starts the offers afresh

        return options[self._best(seat, draw, build, len(options))]

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        first = super().decide_wish(view, choices)
        found = self._in_play(view) if self.options.wish else None
        if found is None:
            return first
        public, draw = found
        counts = public.count_hand_cards
        turn = next((seat % 4 for seat in range(view.seat + 1, view.seat + 4) if counts[seat % 4]), None)
        if turn is None:
            return first
        wishes = [first] + [0] * (0 in choices and first != 0)
        wishes += [value for value in range(14, 1, -1) if value in choices and value not in wishes
                   and not view.hand & VALUE_MASK[value]][:3]
        rules, seat = view.rules, view.seat

        def build(hands: list[int], branch: int) -> GameState:
            round_ = resume_at(rules, hands, public, turn)
            round_.trick_owner = seat
            round_.wish_value = wishes[branch]
            round_.wish_open = wishes[branch] != 0
            return at_decision(round_)

        return wishes[self._best(seat, draw, build, len(wishes))]

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        first = super().decide_dragon(view, recipients)
        found = self._in_play(view) if self.options.dragon and len(recipients) > 1 else None
        if found is None:
            return first
        public, draw = found
        if len(public.out_order) >= 3:
            return first
        order = [first] + [seat for seat in recipients if seat != first]
        rules, seat, points = view.rules, view.seat, public.trick_points

        def build(hands: list[int], branch: int) -> GameState:
            round_ = Round.resume(rules, hands, turn=public.current_turn_index or 0, announcements=public.announcements,
                                  trick_turns=(), trick_owner=None, wish_value=public.wish_value,
                                  wish_open=public.wish_open, won_points=public.points, out_order=public.out_order,
                                  played=public.played_cards)
            round_.carried_points[order[branch]] += points
            return at_decision(round_)

        return order[self._best(seat, draw, build, len(order))]

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


def share_lower_bound(successes: int, n: int, z: float) -> float:
    """The lower end of the Wilson score interval of a share (``successes`` of ``n``) at ``z``
    standard errors; 0 without trials."""
    if n <= 0:
        return 0.0
    share = successes / n
    spread = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n))
    return (share + z * z / (2 * n) - spread) / (1 + z * z / n)


def leads_clearly(values: Sequence[int], baseline: Sequence[int], z: float) -> bool:
    """Whether ``values`` beat ``baseline`` (paired, the same deals) by more than ``z``
    standard errors of the mean difference; with two deals or fewer, never."""
    n = len(values)
    if n < 3:
        return False
    diffs = [a - b for a, b in zip(values, baseline)]
    mean = sum(diffs) / n
    variance = sum((diff - mean) ** 2 for diff in diffs) / (n - 1)
    return mean > z * math.sqrt(variance / n)
