"""The Monte Carlo agent: determinized search with rule-policy rollouts (design notes, section 1).

For a play with several candidates it repeatedly draws a world that agrees with everything its
seat knows (:class:`~tichu.agents.support.worlds.WorldSampler`, R8: a full game state at the
seat's decision, built by the rules core), and per candidate clones the world, applies the
candidate through the core and finishes the round with a fast rule policy for all seats
(:data:`ROLLOUT_WEIGHTS`), keeping every candidate's mean round result (its team's points
minus the opponents'). All candidates see the same worlds, so their differences are compared
pairwise; the search stops before a deal that would end past the time budget, at the sample
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
from collections.abc import Sequence

from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.heuristic_policy import V1 as HEURISTIC_V1
from tichu.agents.heuristic_policy import WEIGHTS, HeuristicPolicy, rollout_weights
from tichu.agents.mc_search import SEARCH, SearchOptions
from tichu.agents.support.endgame import EndgameSolver
from tichu.agents.support.exact import AGENT_TABLE_LIMIT, bomb_action
from tichu.agents.support.knowledge import knowledge_of
from tichu.agents.support.rollout import RolloutPolicy, rollout, round_value
from tichu.agents.support.situation import situation_of
from tichu.agents.support.worlds import WorldSampler
from tichu.core.cards import VALUE_MASK
from tichu.core.combos import Play
from tichu.core.errors import RuleViolation
from tichu.core.flow import GameState
from tichu.core.round import Action, ActionKind, Decision
from tichu.core.views import SeatView, TablePhase

#: One option of a searched decision: a play or pass at the seat's turn (applied by the flow's
#: fast path for a legal play), or any other action of the seat.
Branch = Play | Action

#: The rollouts' policy: the heuristic's rules without its sampling (every opponent trick
#: is contested with the lowest play that beats it), fast enough for hundreds of rollouts.
ROLLOUT_WEIGHTS = rollout_weights(WEIGHTS)

#: Default seconds per decision: the 99th percentile stays below one second on a
#: Raspberry Pi class machine (see docs/agents.md).
DEFAULT_BUDGET = 0.5
#: Nodes of the expert's exact solve of a two-seat endgame (the strong level's
#: :attr:`~tichu.agents.heuristic_policy.Weights.exact_nodes` is smaller); with a time budget
#: the solve also gives up after half of it (:meth:`MonteCarloAgent.solve_deadline`).
EXACT_NODES = 50_000


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
        self._solver = EndgameSolver(EXACT_NODES, AGENT_TABLE_LIMIT)

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        if len(legal) == 1:
            return legal[0]
        candidates = self.play_candidates(view, legal)
        deadline = self._deadline()
        exact = self.exact_play(view, legal, candidates)
        if exact is not None:
            return exact
        if len(candidates) == 1:
            return candidates[0]
        worlds = self._worlds(view, Decision.PLAY)
        means = None if worlds is None else self._search(view.seat, worlds, candidates, deadline)
        if means is None:
            return candidates[0]
        return candidates[max(range(len(candidates)), key=lambda index: (means[index], -index))]

    # -- the candidates of each decision (the analysis judges the same ones) ---------------

    def play_candidates(self, view: SeatView, legal: Sequence[Play]) -> list[Play]:
        """The heuristic's best plays of ``legal``, best first, at most :attr:`max_candidates`."""
        public, private = view.public_state(), view.private_state()
        s, knowledge = situation_of(public, private), knowledge_of(public, private)
        ranked = self.policy.evaluate(s, knowledge, legal)
        return [play for play, _ in ranked[:self.max_candidates]]

    def push_candidates(self, view: SeatView) -> list[tuple[int, int, int]]:
        """The heuristic's push first, then its pushes for a weak and a strong hand and the
        first with the opponents swapped (R2.3)."""
        first = super().decide_schupf(view)
        candidates = [first]
        for strong in (False, True):
            other = self.policy.schupf(view.hand, strong)
            if other not in candidates:
                candidates.append(other)
        right, mate, left = first
        if (left, mate, right) not in candidates:
            candidates.append((left, mate, right))
        return candidates

    def bomb_candidates(self, view: SeatView, bombs: Sequence[Play]) -> list[Play | None]:
        """The heuristic's answer first, then no bomb and the first three bombs (R4.3)."""
        first = self.policy_bomb(view, bombs)
        return [first] + [bomb for bomb in [None, *bombs[:3]] if bomb != first]

    def wish_candidates(self, view: SeatView, choices: Sequence[int]) -> list[int]:
        """The heuristic's wish first, then no wish and the three highest values the seat does
        not hold (R5.1)."""
        first = self.policy_wish(view, choices)
        wishes = [first] + [0] * (0 in choices and first != 0)
        wishes += [value for value in range(14, 1, -1) if value in choices and value not in wishes
                   and not view.hand & VALUE_MASK[value]][:3]
        return wishes

    def dragon_candidates(self, view: SeatView, recipients: Sequence[int]) -> list[int]:
        """The heuristic's recipient first, then the other (R4.5)."""
        first = self.policy_dragon(view, recipients)
        return [first] + [seat for seat in recipients if seat != first]

    # -- search over the other decisions (SearchOptions) -----------------------------------

    def _deadline(self) -> float | None:
        """When the search must stop (``time.monotonic()``; ``None`` without a time budget): the
        budget counts from :attr:`~tichu.agents.agent.Agent.asked_at` where a server set it, so a
        decision that waited for a worker searches only for what is left of it (at least one
        deal is always searched)."""
        if self.budget is None:
            return None
        return (time.monotonic() if self.asked_at is None else self.asked_at) + self.budget

    def solve_deadline(self) -> float | None:
        """When an exact solve of a two-seat endgame gives up: after half the time budget, so
        that the search it falls back on keeps the other half (``None``: no time limit)."""
        deadline = self._deadline()
        if deadline is None or self.budget is None:
            return None
        return deadline - self.budget / 2

    def _enough(self, samples: int, deadline: float | None, values: list[list[int]], totals: list[float],
                last_deal: float = 0.0) -> bool:
        """The searches' stopping rule: another deal, taking as long as the last one
        (``last_deal`` seconds), would end past the time budget, or after the minimum of
        samples the best candidate leads clearly. Not starting a deal that cannot finish in
        time keeps a slow machine's decision within the budget, not a deal beyond it."""
        if deadline is not None and time.monotonic() + last_deal >= deadline:
            return True
        return samples >= self.min_samples and self._lead_is_clear(values, totals)

    def _search(self, seat: int, worlds: WorldSampler, branches: Sequence[Branch],
                deadline: float | None = None) -> list[float] | None:
        """Mean round value of each branch over the same drawn worlds (``None`` without any):
        per world, each branch is the world cloned, the branch's action applied through the
        core and the round played out (:func:`play_out`). Bounded by the time budget (until
        ``deadline`` if given, else :meth:`_deadline`), the sample limit and the stopping rule;
        nothing to search with one branch."""
        count = len(branches)
        if count < 2:
            return None
        if deadline is None:
            deadline = self._deadline()
        totals = [0.0] * count
        firsts = [0] * count
        values: list[list[int]] = [[] for _ in range(count)]
        samples = 0
        rng = self.policy.rng
        while samples < self.max_samples:
            started = time.monotonic()
            try:
                world = worlds.draw(rng)
            except (ValueError, RuleViolation):
                break
            share_caches(world)
            for index, branch in enumerate(branches):
                state = world.clone()
                take(state, branch)
                value = play_out(state, seat, self.rollout_policy, self.options)
                values[index].append(value)
                totals[index] += value
                round_ = state.round
                assert round_ is not None
                firsts[index] += round_.out_order[0] == seat
            samples += 1
            if self._enough(samples, deadline, values, totals, time.monotonic() - started):
                break
        self.last_samples = samples
        if not samples:
            return None
        self.last_first = [first / samples for first in firsts]
        self.last_means = [total / samples for total in totals]
        self.last_values = values
        return self.last_means

    def _best(self, seat: int, worlds: WorldSampler, branches: Sequence[Branch], deadline: float | None = None) -> int:
        """The branch with the best mean, if it leads branch 0 (the heuristic's choice) clearly:
        by :attr:`~tichu.agents.mc_search.SearchOptions.deviate_z` standard errors of their
        paired differences; else branch 0 (also without worlds). Few worlds, as a small budget
        on a slow machine gives, thus keep the heuristic's choice instead of noise. The search
        ends at ``deadline`` if given (see :meth:`_search`)."""
        means = self._search(seat, worlds, branches, deadline)
        if means is None:
            return 0
        count = len(branches)
        best = max(range(count), key=lambda index: (means[index], -index))
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

    def _worlds(self, view: SeatView, decision: Decision) -> WorldSampler | None:
        """The sampler of the worlds of the seat's decision, or ``None`` where its knowledge
        admits no deal (then the heuristic decides)."""
        try:
            return WorldSampler(view, decision, self.rollout_policy, inference=self.options.inference)
        except ValueError:
            return None

    def decide_grand_tichu(self, view: SeatView) -> bool:
        if not self.options.grand:
            return super().decide_grand_tichu(view)
        if view.public_state().announcements[(view.seat + 2) % 4]:
            return False
        worlds = self._worlds(view, Decision.GRAND_TICHU)
        branches = [Action(ActionKind.GRAND_TICHU, view.seat, call) for call in (False, True)]
        means = None if worlds is None else self._search(view.seat, worlds, branches)
        if means is None or self._too_few_to_call(self.options.grand_first):
            return super().decide_grand_tichu(view)
        return self._call_is_sure(means, self.options.grand_first)

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        if not self.options.push:
            return super().decide_schupf(view)
        candidates = self.push_candidates(view)
        worlds = self._worlds(view, Decision.SCHUPF)
        if worlds is None:
            return candidates[0]
        branches = [Action(ActionKind.SCHUPF, view.seat, push) for push in candidates]
        return candidates[self._best(view.seat, worlds, branches)]

    def decide_tichu(self, view: SeatView) -> bool:
        if not self.options.tichu:
            return super().decide_tichu(view)
        if self._tichu_call is not None and self._tichu_call[0] == view.hand:
            return self._tichu_call[1]
        worlds = self._worlds(view, Decision.TICHU) if view.public_state().phase == TablePhase.PLAYING else None
        if worlds is None or view.public_state().announcements[(view.seat + 2) % 4]:
            return super().decide_tichu(view)
        branches = [Action(ActionKind.DECLINE, view.seat), Action(ActionKind.TICHU, view.seat)]
        means = self._search(view.seat, worlds, branches)
        if means is None or self._too_few_to_call(self.options.tichu_first):
            call = super().decide_tichu(view)
        else:
            call = self._call_is_sure(means, self.options.tichu_first)
        self._tichu_call = view.hand, call
        return call

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        options = self.bomb_candidates(view, bombs)
        deadline = self._deadline()
        solved, exact = self.exact_bomb(view, bombs, options)
        if solved:
            return exact
        worlds = self._worlds(view, Decision.BOMB) if self.options.bomb and bombs else None
        if worlds is None:
            return options[0]
        branches = [bomb_action(view.seat, bomb) for bomb in options]
        return options[self._best(view.seat, worlds, branches, deadline)]

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        if not self.options.wish:
            return super().decide_wish(view, choices)
        wishes = self.wish_candidates(view, choices)
        deadline = self._deadline()
        exact = self.exact_number(view, Decision.WISH, ActionKind.WISH, wishes)
        if exact is not None:
            return exact
        worlds = self._worlds(view, Decision.WISH)
        if worlds is None:
            return wishes[0]
        branches = [Action(ActionKind.WISH, view.seat, wish) for wish in wishes]
        return wishes[self._best(view.seat, worlds, branches, deadline)]

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        if not self.options.dragon or len(recipients) <= 1:
            return super().decide_dragon(view, recipients)
        order = self.dragon_candidates(view, recipients)
        deadline = self._deadline()
        exact = self.exact_number(view, Decision.DRAGON, ActionKind.DRAGON, order)
        if exact is not None:
            return exact
        worlds = self._worlds(view, Decision.DRAGON)
        if worlds is None or len(view.public_state().out_order) >= 3:
            return order[0]
        branches = [Action(ActionKind.DRAGON, view.seat, to) for to in order]
        return order[self._best(view.seat, worlds, branches, deadline)]

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


def take(state: GameState, branch: Branch) -> None:
    """Apply a branch's action to a world through the core: a play of the seat's legal plays
    by the flow's fast path (its legal plays are the same in every world), anything else as
    the :class:`~tichu.core.round.Action` it is.

    :raises RuleViolation: For an action the world does not allow.
    """
    if isinstance(branch, Play):
        state.apply_play(branch)
    else:
        state.apply(branch)


def share_caches(world: GameState) -> None:
    """Fill the world's caches of combinations once, so that its clones share them."""
    round_ = world.round
    if round_ is not None and round_.turn is not None:
        round_.share_caches()


def play_out(state: GameState, seat: int, policy: RolloutPolicy, options: SearchOptions) -> int:
    """Finish a branch's round with ``policy`` (``seat`` never calls: the search decides its
    call) and return its value for ``seat``: its team's points minus the other team's (R7)."""
    rollout(state, policy, bombs=options.rollout_bombs, calls=options.rollout_calls, quiet_seat=seat)
    return round_value(state, seat)
