"""The heuristic agent: a seat played by :class:`~tichu.agents.heuristic_policy.HeuristicPolicy`.

It reads its :class:`~tichu.agents.support.situation.Situation` and
:class:`~tichu.agents.support.knowledge.Knowledge` from its own view only (R8), asks the
policy, and plays out its best few candidates by rollouts over sampled deals
(:attr:`~tichu.agents.heuristic_policy.Weights.rollout_cards`). The policy's scores alone rank
the legal plays for the hint shown to humans.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from tichu.agents.agent import Agent
from tichu.agents.heuristic_policy import (
    ROLLOUT_CANDIDATES,
    WEIGHTS,
    HeuristicPolicy,
    Weights,
    rollout_weights,
    signature,
)
from tichu.agents.support.endgame import EndgameSolver
from tichu.agents.support.exact import AGENT_TABLE_LIMIT, bomb_action, exact_action, play_action
from tichu.agents.support.hand import partition
from tichu.agents.support.knowledge import Knowledge, knowledge_of
from tichu.agents.support.rollout import rollout, round_value
from tichu.agents.support.situation import Situation, situation_of
from tichu.core.cards import DOG, DRAGON, PHOENIX, VALUE_MASK
from tichu.core.combos import Play
from tichu.core.round import Action, ActionKind, Decision
from tichu.core.views import PrivateState, PublicState, SeatView
from tichu.core.worlds import Hidden, world_of


class HeuristicAgent(Agent):
    """Plays the best-scored play of :class:`HeuristicPolicy` from its seat's view only (R8),
    or the best of its few best by rollouts (:attr:`Weights.rollout_cards`).

    :ivar policy: The policy with its weights.
    :ivar budget: Seconds per decision for the rollouts (``None``: no limit, every sampled
        deal is rolled out, reproducible with a seed). With a budget they stop after the deal
        that ends past it, counted from :attr:`~tichu.agents.agent.Agent.asked_at` where a
        server set it; at least one deal is always rolled out. A slow machine (a Raspberry Pi)
        so plays on fewer deals instead of taking longer (the level ``strong``, docs/agents.md).
    """

    kind = "agent:heuristic"

    def __init__(self, name: str = "Heuristic", seed: int | None = None, weights: Weights = WEIGHTS,
                 *, budget: float | None = None) -> None:
        super().__init__(name)
        self.budget = budget
        self.policy = HeuristicPolicy(weights, seed)
        self._rollout_policy = HeuristicPolicy(rollout_weights(weights))
        self._tichu_hand: tuple[int, bool] | None = None
        self._solver = EndgameSolver(max(1, weights.exact_nodes), AGENT_TABLE_LIMIT)

    @staticmethod
    def _facts(view: SeatView) -> tuple[Situation, Knowledge, PublicState, PrivateState]:
        public, private = view.public_state(), view.private_state()
        return situation_of(public, private), knowledge_of(public, private), public, private

    def rank_plays(self, view: SeatView, legal: Sequence[Play]) -> list[tuple[Play, float]]:
        """The legal plays scored from the seat's knowledge, best first (the hint)."""
        s, knowledge, _, _ = self._facts(view)
        return self.policy.evaluate(s, knowledge, legal)

    def hint(self, view: SeatView, legal: Sequence[Play]) -> list[Play]:
        """Every legal play, best first: the scored ones in score order, each followed by the
        plays that differ from it only in suits (the hint for humans, protocol.md ``play``)."""
        ranked = [play for play, _ in self.rank_plays(view, legal)]
        position = {signature(play): index for index, play in enumerate(ranked)}
        rest = sorted((play for play in legal if play not in ranked),
                      key=lambda play: position.get(signature(play), len(ranked)))
        ordered: list[Play] = []
        for index, play in enumerate(ranked):
            ordered.append(play)
            ordered += [other for other in rest if position.get(signature(other)) == index]
        ordered += [other for other in rest if signature(other) not in position]
        return ordered

    def decide_grand_tichu(self, view: SeatView) -> bool:
        return self.policy.call_grand_tichu(view.hand, view.public_state().announcements, view.seat)

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        s, knowledge, _, _ = self._facts(view)
        weights = self.policy.weights
        if weights.tichu_margin is None:
            return self.policy.schupf(view.hand, self.policy.tichu(s))
        strong = bool(s.calls[s.seat]) or self.decide_tichu(view)
        right, to_partner, left = self.policy.schupf(view.hand, strong)
        if weights.guard_partner_call and s.calls[s.partner] and not s.calls[s.seat]:
            to_partner = _best_gift(view.hand & ~right & ~left)
        return right, to_partner, left

    def decide_tichu(self, view: SeatView) -> bool:
        hand = view.hand
        if self._tichu_hand is None or self._tichu_hand[0] != hand:
            s, knowledge, _, _ = self._facts(view)
            self._tichu_hand = hand, self.policy.call_tichu(s, knowledge)
        return self._tichu_hand[1]

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        if len(legal) == 1:
            return legal[0]
        s, knowledge, _, _ = self._facts(view)
        ranked = [play for play, _ in self.policy.evaluate(s, knowledge, legal)]
        exact = self.exact_play(view, legal, ranked)
        if exact is not None:
            return exact
        if len(ranked) > 1 and s.counts[s.seat] <= self.policy.weights.rollout_cards:
            return self._rollout_play(view, ranked[:ROLLOUT_CANDIDATES])
        return ranked[0]

    def exact_choice(self, view: SeatView, decision: Decision, preferred: Sequence[Action]) -> Action | None:
        """The exactly best action of a two-seat endgame within :attr:`Weights.exact_nodes`
        and :meth:`solve_deadline` (:mod:`tichu.agents.support.exact`), ``preferred`` first
        among equals; ``None`` without one (then the agent decides as without)."""
        if not self.policy.weights.exact_nodes:
            return None
        return exact_action(view, decision, preferred, self._solver, self.solve_deadline())

    def solve_deadline(self) -> float | None:
        """When an exact solve gives up (``time.monotonic()``), beside its nodes: never here."""
        return None

    def exact_play(self, view: SeatView, legal: Sequence[Play], ranked: Sequence[Play]) -> Play | None:
        """The exactly best play of ``legal`` (:meth:`exact_choice`), ``ranked`` first among equals."""
        action = self.exact_choice(view, Decision.PLAY, [play_action(view.seat, play) for play in ranked])
        if action is None:
            return None
        cards = action.number() if action.kind == ActionKind.PLAY else 0
        return next((play for play in legal if play.cards == cards), None)

    def exact_bomb(self, view: SeatView, bombs: Sequence[Play],
                   preferred: Sequence[Play | None]) -> tuple[bool, Play | None]:
        """Whether a two-seat endgame's bomb offer was solved (:meth:`exact_choice`), and the
        exactly best answer: a bomb of ``bombs`` or none; ``preferred`` first among equals."""
        action = self.exact_choice(view, Decision.BOMB, [bomb_action(view.seat, bomb) for bomb in preferred])
        if action is None:
            return False, None
        if action.kind != ActionKind.BOMB:
            return True, None
        cards = action.number()
        return True, next((bomb for bomb in bombs if bomb.cards == cards), None)

    def exact_number(self, view: SeatView, decision: Decision, kind: ActionKind,
                     preferred: Sequence[int]) -> int | None:
        """The exactly best wish or Dragon recipient of a two-seat endgame (:meth:`exact_choice`)."""
        action = self.exact_choice(view, decision, [Action(kind, view.seat, value) for value in preferred])
        return None if action is None else action.number()

    def _rollout_play(self, view: SeatView, candidates: Sequence[Play]) -> Play:
        """The candidate with the best mean round value over the decision's sampled deals,
        each round finished by the rollout policy on the game's flow, letting the offered bombs
        and calls pass as the rollouts it was tuned with did (issue 13); the best-scored one on
        ties (R8: the deals come from the seat's knowledge). With a :attr:`budget` only the
        deals rolled out before it ran out count."""
        deadline = None if self.budget is None else (
            (time.monotonic() if self.asked_at is None else self.asked_at) + self.budget)
        totals = [0] * len(candidates)
        for hands in self.policy.sampled_deals():
            try:
                start = world_of(view, Decision.PLAY, Hidden(hands))
            except ValueError:
                return candidates[0]  # a view of no flow's play decision: no world to play on
            for index, play in enumerate(candidates):
                state = start.clone()
                state.apply_play(play)
                rollout(state, self._rollout_policy, bombs=False, calls=False)  # as measured (issue 13)
                totals[index] += round_value(state, view.seat)
            if deadline is not None and time.monotonic() >= deadline:
                break
        return candidates[max(range(len(candidates)), key=lambda index: (totals[index], -index))]

    def policy_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        """The policy's wish (R5.1), without an exact solve."""
        s, knowledge, _, _ = self._facts(view)
        return self.policy.choose_wish(s, knowledge, choices)

    def policy_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        """The policy's recipient of the Dragon trick (R4.5), without an exact solve."""
        s, _, _, _ = self._facts(view)
        return self.policy.dragon(s, recipients)

    def policy_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        """The policy's bomb out of turn, or none (R4.3), without an exact solve."""
        s, _, _, _ = self._facts(view)
        return self.policy.choose_bomb(s, bombs)

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        wish = self.policy_wish(view, choices)
        exact = self.exact_number(view, Decision.WISH, ActionKind.WISH, [wish])
        return wish if exact is None else exact

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        recipient = self.policy_dragon(view, recipients)
        exact = self.exact_number(view, Decision.DRAGON, ActionKind.DRAGON, [recipient])
        return recipient if exact is None else exact

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        bomb = self.policy_bomb(view, bombs)
        solved, exact = self.exact_bomb(view, bombs, [bomb])
        return exact if solved else bomb


def _best_gift(cards: int) -> int:
    """The highest card (the Dragon, the Phoenix, then by value) not in a bomb, for a calling partner."""
    bombs = 0
    for bomb in partition(cards).bombs:
        bombs |= bomb.cards
    for card in (DRAGON, PHOENIX):
        if cards & card:
            return card
    for value in range(14, 1, -1):
        free = cards & VALUE_MASK[value] & ~bombs
        if free:
            return free & -free
    spare = cards & ~bombs & ~DOG or cards
    return spare & -spare
