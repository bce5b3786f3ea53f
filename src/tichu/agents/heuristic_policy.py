"""The heuristic policy: the rule policy weighed with probabilities of the hidden hands.

Each candidate play gets a score of costs and gains (design notes, section 3): the rule
policy's choice gets a bonus, a play gains by the chance that it holds the trick times
what the trick is worth, and it costs by how it breaks the hand's plan and spends
control cards. The chances come from deals sampled from the seat's knowledge
(:mod:`tichu.agents.support.prob`), so nothing beyond its own view is used (R8). The same scores
rank the legal plays for the hint shown to humans.

The weights live in :data:`WEIGHTS` (tuned in the Arena, see docs/agents.md). The policy is
apart from :class:`~tichu.agents.heuristic_agent.HeuristicAgent`, the seat that uses it,
because the rollouts of the search agents call it at every play: this module is one of those
the optional accelerator compiles (``bin/accelerate.py``), and a compiled class may not have
an interpreted base such as :class:`~tichu.agents.agent.Agent`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from tichu.agents.support.hand import Partition, partition
from tichu.agents.support.knowledge import Knowledge
from tichu.agents.support.policy import CONTROL_CARDS, RulePolicy, higher_cards, is_top
from tichu.agents.support.prob import DealSampler, can_beat, is_exact, p_holds_value
from tichu.agents.support.situation import Situation
from tichu.core.cards import DOG, DRAGON, PHOENIX, VALUE_MASK, points_of
from tichu.core.combos import BOMB, PAIR, PASS_PLAY, SINGLE, TRIPLE, Play
from tichu.core.frozen import by_fields
from tichu.core.seats import opponents


@dataclass(frozen=True, slots=True)
class Weights:
    """The heuristic's weights, all in one place.

    :ivar rule: Bonus of the rule policy's choice.
    :ivar hold: Gain per chance of holding the trick (the lead is worth it).
    :ivar points: Gain per ten card points won, times the chance of holding the trick.
    :ivar plan: Cost per step the play adds to the hand's plan (combinations left).
    :ivar spend: Cost per control card (Dragon, Phoenix, Ace; a bomb counts two) played.
    :ivar out: Gain of going out.
    :ivar stop: Gain of holding a trick against an opponent who is about to go out.
    :ivar grand_controls: Control cards (Dragon, Phoenix, Aces; bombs count two) among
        the first eight for a Grand Tichu call.
    :ivar tichu_losers: Most expected losing combinations for a Tichu call.
    :ivar fight_hold: Chance of holding an opponent's trick from which a play breaking
        the plan contests it.
    :ivar fight_hold_control: The same for a play with a control card (Dragon, Phoenix, Ace).
    :ivar bomb_out: Cards of an opponent owning the trick up to which a bomb is thrown.
    :ivar samples: Sampled deals per decision.

    Added for issue 13 (``None``/``False`` in :data:`V1`: the first heuristic):

    :ivar tichu_margin: Call Tichu when the log-odds of going out first (:func:`tichu_score`)
        are at least this (``None``: :attr:`tichu_losers`' rule).
    :ivar grand_margin: Call Grand Tichu when :func:`grand_score` of the first eight cards
        is at least this (``None``: :attr:`grand_controls`' rule).
    :ivar guard_partner_call: While the partner's Tichu call stands and nobody is out, let
        the partner's tricks run even where this seat could go out (R6: only the caller
        may go out first), and push the partner the best card after its call (R2.3).
    :ivar bomb_to_out: Bomb an opponent's trick when the rest of the hand is one
        combination (the bomb's lead then takes the seat out, R4.3).
    :ivar overtake_to_out: Overtake the partner's trick with a play no unseen card beats
        (bombs aside) when the rest of the hand is one combination (out at the next lead).
    :ivar feed_partner: Lead the lowest single when the partner holds one card and no
        opponent does (the partner may go out on it, R7.1's double victory comes closer).
    :ivar sure_out: On a trick (an opponent's, or the partner's unless its Tichu call stands)
        play the lowest play no unseen card beats (counting the cards, R8.1; bombs aside)
        when at most one combination of the rest is beatable: the lead then runs the sure
        winners and the last one goes out; the same with a bomb on an opponent's trick
        (R4.3, with :attr:`bomb_to_out`).
    :ivar guard_partner_trick: Overtake the partner's trick with the lowest play no unseen
        card beats (R8.1) when an opponent still in the trick holds at most
        :attr:`RulePolicy.URGENT_COUNT` cards, no fewer than the trick's, and unseen cards
        may beat it: that opponent would go out on it (R4.4).
    :ivar rollout_cards: With this many cards or fewer in hand, the play is chosen among the
        :data:`ROLLOUT_CANDIDATES` best-scored ones by rollouts on the decision's sampled deals
        (:func:`rollout_weights`' policy for every seat; 0: never, 14: at every play). The
        scores judge a play by itself; the rollouts see what follows from it: who goes out first
        (R6), whether a double victory comes (R7.1), which tricks the hand's rest still takes.
        Called ``endgame_cards`` while it was 5 (issue 13); 14 since issue 34 (docs/agents.md,
        "Rollouts at every play").
    :ivar exact_nodes: When only this seat and one other hold cards, the play is solved exactly
        (:mod:`tichu.agents.support.exact`, each knows the other's hand, R8) within this many
        nodes, the ranking breaking ties; beyond them the play is chosen as without (0: never).
    """

    rule: float = 10.0
    hold: float = 0.4
    points: float = 0.3
    plan: float = 0.5
    spend: float = 0.3
    out: float = 2.0
    stop: float = 1.0
    grand_controls: int = 5
    tichu_losers: float = 0.3
    fight_hold: float = 0.0
    fight_hold_control: float = 0.5
    bomb_out: int = 3
    samples: int = 16
    tichu_margin: float | None = None
    grand_margin: float | None = None
    guard_partner_call: bool = False
    bomb_to_out: bool = False
    overtake_to_out: bool = False
    feed_partner: bool = False
    sure_out: bool = False
    guard_partner_trick: bool = False
    rollout_cards: int = 0
    exact_nodes: int = 0


#: Today's first heuristic (issue 13's baseline, ``heuristic:v1``): every later feature off.

    def __reduce__(self) -> tuple[type[Weights], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)
V1 = Weights()
#: The tuned weights (``heuristic``), see docs/agents.md "Tuning runs".
DEFAULT = Weights(tichu_margin=-0.6, grand_margin=-0.5, guard_partner_call=True, bomb_to_out=True,
                  overtake_to_out=True, sure_out=True, guard_partner_trick=True, rollout_cards=14,
                  exact_nodes=2_000)
#: The tuned weights as they were before the exact two-seat endgames (issue 34, ``heuristic:v2``):
#: the strong level of before, kept to measure against and for the records it wrote.
V2 = replace(DEFAULT, exact_nodes=0, rollout_cards=5)
#: The tuned weights with the rollouts in the endgame only (five cards or fewer), as they were
#: before issue 34's rollouts at every play (``heuristic:v3``): some ten times faster per play.
V3 = replace(DEFAULT, rollout_cards=5)
#: The weights the heuristic agent plays with unless told (the Monte Carlo rollouts start from them).
WEIGHTS = DEFAULT
#: Most plays compared by rollouts (:attr:`Weights.rollout_cards`).
ROLLOUT_CANDIDATES = 4


def rollout_weights(weights: Weights) -> Weights:
    """The rollouts' fast policy from an agent's heuristic weights: the same, minus holding
    back to fight for a trick, the endgame counting of ``sure_out`` and
    ``guard_partner_trick``, which made a rollout some 19% slower (docs/benchmarks.md) for a
    gain measured only in the heuristic's own play, and the rollouts and exact solves
    themselves (:data:`~tichu.agents.mc_agent.ROLLOUT_WEIGHTS` for the default weights)."""
    return replace(weights, fight_hold=0.0, fight_hold_control=0.0, sure_out=False, guard_partner_trick=False,
                   rollout_cards=0, exact_nodes=0)


class HeuristicPolicy(RulePolicy):
    """The rule policy plus probabilities: calls, contested tricks, wishes and scored plays."""

    def __init__(self, weights: Weights = WEIGHTS, seed: int | None = None) -> None:
        self.weights = weights
        self.GRAND_TICHU_CONTROLS = weights.grand_controls
        self.rng = random.Random(seed)
        self._knowledge: Knowledge | None = None
        self._sampled: list[list[int]] | None = None

    # -- probabilities over sampled deals -------------------------------------------------

    def sample_hands(self, knowledge: Knowledge) -> list[list[int]]:
        """Sampled deals consistent with the knowledge (``[]`` if it is inconsistent)."""
        try:
            sampler = DealSampler(knowledge)
            return [sampler.sample(self.rng) for _ in range(self.weights.samples)]
        except ValueError:
            return []

    @staticmethod
    def p_beaten(play: Play, seats: Sequence[int], deals: Sequence[list[int]]) -> float:
        """Share of deals in which one of ``seats`` holds a non-bomb play beating ``play``."""
        if not deals or not seats:
            return 0.0
        beaten = sum(1 for hands in deals if any(_beats_fast(hands[seat], play) for seat in seats))
        return beaten / len(deals)

    def expected_losers(self, knowledge: Knowledge, deals: Sequence[list[int]]) -> float:
        """Expected combinations of the plan that an opponent beats, less spare controls."""
        plan = partition(knowledge.hand)
        opponents = [seat for seat in knowledge.opponents() if knowledge.seats[seat].count]
        losers = 0.0
        for play in plan.plays:
            if play.kind != BOMB and play.cards != DOG:
                losers += self.p_beaten(play, opponents, deals)
        return losers - len(plan.bombs)

    # -- decisions ----------------------------------------------------------------------

    def call_tichu(self, s: Situation, knowledge: Knowledge) -> bool:
        """Call when the expected losing combinations are few (R6.1)."""
        if s.calls[s.partner] or s.counts[s.seat] < 14:
            return False
        if self.weights.tichu_margin is not None:
            features = hand_strength(s.hand, (self, knowledge, self.sample_hands(knowledge)))
            return tichu_score(features) >= self.weights.tichu_margin
        return self.expected_losers(knowledge, self.sample_hands(knowledge)) <= self.weights.tichu_losers

    def call_grand_tichu(self, hand: int, calls: Sequence[int], seat: int) -> bool:
        """Grand Tichu on strong first eight cards (R2.1), not after the partner called."""
        if self.weights.grand_margin is None:
            return self.grand_tichu(hand, calls, seat)
        if calls[(seat + 2) % 4]:
            return False
        return grand_score(hand_strength(hand, None)) >= self.weights.grand_margin

    def play(self, s: Situation, legal: Sequence[Play]) -> Play:
        """The rules' play, but the partner's trick runs while its Tichu call needs it
        (:attr:`Weights.guard_partner_call`), sure winners take a trick when the rest then
        goes out (:attr:`Weights.sure_out`), and the partner's trick is overtaken where an
        opponent about to go out could beat it (:attr:`Weights.guard_partner_trick`)."""
        if self.weights.guard_partner_call and len(legal) > 1 and legal[-1] is PASS_PLAY \
                and s.trick_owner == s.partner and self._partner_call_open(s):
            return PASS_PLAY
        if self.weights.sure_out and s.trick is not None and len(legal) > 1 \
                and not (s.trick_owner == s.partner and self._partner_call_open(s)):
            sure = _sure_to_out(s, legal)
            if sure is not None:
                return sure
        if self.weights.guard_partner_trick and s.trick_owner == s.partner and len(legal) > 1 \
                and not self._partner_call_open(s):
            guard = self._guard_partner_trick(s, legal)
            if guard is not None:
                return guard
        if self.weights.overtake_to_out and s.trick_owner == s.partner and len(legal) > 1:
            overtake = self._overtake_to_out(s, legal)
            if overtake is not None:
                return overtake
        if self.weights.feed_partner and s.trick is None and s.counts[s.partner] == 1 and len(legal) > 1 \
                and s.hand not in {play.cards for play in legal} \
                and all(s.counts[seat] != 1 for seat in opponents(s.seat)):
            singles = [play for play in legal if play.kind == SINGLE and play.cards not in (DRAGON, PHOENIX)]
            if singles and not any(play.cards == DOG for play in legal):
                return min(singles, key=lambda play: play.rank)
        return super().play(s, legal)

    @staticmethod
    def _overtake_to_out(s: Situation, legal: Sequence[Play]) -> Play | None:
        """A sure play on the partner's trick after which one combination is left (R8.1: by
        counting the unseen cards), unless the partner's Tichu call stands."""
        if s.calls[s.partner] and all(s.counts):
            return None
        unseen = s.unseen
        for play in legal:
            if play.cards and play.kind != BOMB and is_top(play, unseen):
                rest = s.hand & ~play.cards
                if rest and len(partition(rest).plays) == 1:
                    return play
        return None

    def _guard_partner_trick(self, s: Situation, legal: Sequence[Play]) -> Play | None:
        """The lowest sure play over the partner's trick when an opponent about to go out
        might beat it (:attr:`Weights.guard_partner_trick`)."""
        trick = s.trick
        unseen = s.unseen
        if trick is None or is_top(trick, unseen):
            return None
        if not any(trick.length <= s.counts[seat] <= self.URGENT_COUNT for seat in opponents(s.seat)):
            return None
        sure = [play for play in legal if play.cards and play.kind != BOMB and is_top(play, unseen)]
        return min(sure, key=lambda play: play.rank) if sure else None

    @staticmethod
    def _partner_call_open(s: Situation) -> bool:
        """Whether the partner called Tichu and nobody is out yet (its call can still be won, R6)."""
        return bool(s.calls[s.partner]) and all(s.counts)

    def evaluate(self, s: Situation, knowledge: Knowledge, legal: Sequence[Play]) -> list[tuple[Play, float]]:
        """Score the legal plays (best first); one play per distinct combination of values."""
        self._knowledge, self._sampled = knowledge, None
        choice = self.play(s, legal)
        candidates = _distinct(legal, choice)
        deals = self._deals() if len(candidates) > 1 else []
        weights = self.weights
        base = partition(s.hand).cost
        opponents_after = self._opponents_to_play(s)
        owner = s.trick_owner
        threatened = s.is_opponent(owner) and owner is not None and s.counts[owner] <= 2
        scored = []
        for play in candidates:
            score = weights.rule if play == choice else 0.0
            mask = play.cards
            if mask:
                left = s.hand & ~mask
                hold = 1 - self.p_beaten(play, opponents_after, deals) if deals else 0.5
                score += hold * (weights.hold + weights.points * (s.trick_points + points_of(mask)) / 10)
                score -= weights.plan * (partition(left).cost - base + 1) if left else 0.0
                controls = (mask & CONTROL_CARDS).bit_count() + (2 if play.kind == BOMB else 0)
                score -= weights.spend * controls * (0.0 if threatened else 1.0)
                if not left:
                    score += weights.out
                if threatened:
                    score += weights.stop * hold
            scored.append((play, score))
        scored.sort(key=lambda item: -item[1])
        return scored

    @staticmethod
    def _opponents_to_play(s: Situation) -> list[int]:
        return [seat for seat in opponents(s.seat) if s.counts[seat]]

    def follow(self, s: Situation, legal: Sequence[Play], by_mask: dict[int, Play], plan: Partition) -> Play:
        """The rule policy's follow, but contesting an opponent's trick with the lowest plays
        that are likely enough to hold it (:attr:`Weights.fight_hold`, higher for control
        cards: they are spent only where they hold), and every opponent trick while
        a double victory threatens (R7.1) or the partner's Tichu call needs help (R6)."""
        choice = super().follow(s, legal, by_mask, plan)
        if self.weights.bomb_to_out and s.is_opponent(s.trick_owner):
            bomb = self._bomb_to_out(s, [play for play in legal if play.kind == BOMB])
            if bomb is not None:
                return bomb
        if choice.cards or legal[-1] is not PASS_PLAY or not s.is_opponent(s.trick_owner):
            return choice
        plays = sorted((play for play in legal if play.cards and play.kind != BOMB),
                       key=lambda play: (play.rank, points_of(play.cards)))
        must_fight = double_victory_threat(s) or self._partner_needs_help(s)
        opponents_after = [seat for seat in self._opponents_to_play(s) if seat != s.trick_owner]
        for play in plays[:3]:
            needed = self.weights.fight_hold_control if play.cards & CONTROL_CARDS else self.weights.fight_hold
            if must_fight or needed <= 0 or 1 - self.p_beaten(play, opponents_after, self._deals()) >= needed:
                return play
        if must_fight and double_victory_threat(s) and s.trick_owner is not None \
                and s.counts[s.trick_owner] <= self.weights.bomb_out:
            bombs = [play for play in legal if play.kind == BOMB]
            if bombs:
                return min(bombs, key=lambda play: (play.length, play.rank))
        return choice

    def sampled_deals(self) -> list[list[int]]:
        """The deals sampled for the decision :meth:`evaluate` scored last."""
        return self._deals()

    def _deals(self) -> list[list[int]]:
        """The sampled deals of the current decision (drawn on first use)."""
        if self._sampled is None:
            self._sampled = self.sample_hands(self._knowledge) if self._knowledge is not None else []
        return self._sampled

    @staticmethod
    def _partner_needs_help(s: Situation) -> bool:
        return bool(s.calls[s.partner]) and s.counts[s.partner] > 0 and not s.calls[s.seat]

    def choose_wish(self, s: Situation, knowledge: Knowledge, choices: Sequence[int]) -> int:
        """Wish the value an opponent most likely holds and the partner least likely (R5.1)."""
        best, best_score = None, -math.inf
        for value in choices:
            if not value or s.hand & VALUE_MASK[value]:
                continue
            score = 0.0
            for seat in range(4):
                if seat == s.seat or not is_exact(knowledge, seat) or not knowledge.seats[seat].count:
                    continue
                chance = p_holds_value(knowledge, seat, value)
                score += chance if s.is_opponent(seat) else -chance
            score += value / 100  # high values drain the opponents' strength
            if score > best_score:
                best, best_score = value, score
        return best if best is not None else self.wish(s, choices, 0)

    def _bomb_to_out(self, s: Situation, bombs: Sequence[Play]) -> Play | None:
        """A bomb after which the rest of the hand is one combination (or nothing; with
        :attr:`Weights.sure_out` at most one beatable one), unless the partner's open Tichu
        call forbids going out first."""
        if not bombs or (self._partner_call_open(s) and not s.calls[s.seat]):
            return None
        unseen = s.unseen
        for bomb in sorted(bombs, key=lambda play: (play.length, play.rank)):
            rest = s.hand & ~bomb.cards
            if not rest or len(partition(rest).plays) <= 1 \
                    or (self.weights.sure_out and _beatable(rest, unseen) <= 1):
                return bomb
        return None

    def choose_bomb(self, s: Situation, bombs: Sequence[Play]) -> Play | None:
        """Bomb an opponent's trick when the opponent is close to out or the trick is rich."""
        owner = s.trick_owner
        if not s.is_opponent(owner) or not bombs or owner is None:
            return None
        if self.weights.bomb_to_out:
            bomb = self._bomb_to_out(s, bombs)
            if bomb is not None:
                return bomb
        if s.counts[owner] <= self.weights.bomb_out or s.trick_points >= 25 or s.calls[owner] \
                or double_victory_threat(s):
            return min(bombs, key=lambda play: (play.length, play.rank))
        return None


#: Log-odds of going out first from the fourteen cards after the push, a logistic fit over
#: 2,656 hands of ``heuristic:v1`` games that made no call (``bin/call_calibration.py``,
#: seed 8, 50 games): a constant and the weights of :func:`hand_strength`'s features.
TICHU_LOGIT = {"const": -2.05, "losers": -0.12, "winners": 0.23, "top": 0.49, "bombs": 1.02, "plays": 0.11,
               "low": -0.31, "dragon": 0.47, "phoenix": -0.28}
#: The same for the first eight cards (Grand Tichu).
GRAND_LOGIT = {"const": -1.21, "top": 0.34, "bombs": 0.45, "low": -0.10, "dragon": 0.62, "phoenix": -0.09}


def tichu_score(features: dict[str, float]) -> float:
    """Log-odds of going out first with these fourteen cards (:data:`TICHU_LOGIT`)."""
    return TICHU_LOGIT["const"] + sum(weight * features[name] for name, weight in TICHU_LOGIT.items()
                                      if name != "const")


def grand_score(features: dict[str, float]) -> float:
    """Log-odds of going out first with these first eight cards (:data:`GRAND_LOGIT`)."""
    return GRAND_LOGIT["const"] + sum(weight * features[name] for name, weight in GRAND_LOGIT.items()
                                      if name != "const")


def hand_strength(hand: int, sampled: tuple[HeuristicPolicy, Knowledge, Sequence[list[int]]] | None
                  ) -> dict[str, float]:
    """Features of a hand for the calls (R6): control cards and the plan's combinations.

    :param hand: The hand (eight cards for Grand Tichu, fourteen for Tichu).
    :param sampled: (Optional) A policy, the seat's knowledge and sampled deals: adds the
        expected beatable combinations (``losers``) and the expected sure ones (``winners``).
    :returns: ``top`` (Dragon, Phoenix, Aces), ``bombs``, ``plays`` (the plan's combinations
        without bombs and the Dog), ``low`` (singles below the Jack), ``dragon``, ``phoenix``,
        and with ``sampled`` ``losers``/``winners``.
    """
    plan = partition(hand)
    plays = [play for play in plan.plays if play.kind != BOMB and play.cards != DOG]
    features: dict[str, float] = {
        "top": (hand & CONTROL_CARDS).bit_count(), "bombs": len(plan.bombs), "plays": len(plays),
        "low": sum(1 for play in plays if play.kind == SINGLE and play.rank < 11 and not play.cards & PHOENIX),
        "dragon": int(bool(hand & DRAGON)), "phoenix": int(bool(hand & PHOENIX)),
    }
    if sampled is not None:
        policy, knowledge, deals = sampled
        opponents = [seat for seat in knowledge.opponents() if knowledge.seats[seat].count]
        beaten = [policy.p_beaten(play, opponents, deals) for play in plays]
        features["losers"] = sum(beaten)
        features["winners"] = sum(1 - p for p in beaten)
    return features


def _sure_to_out(s: Situation, legal: Sequence[Play]) -> Play | None:
    """The lowest play no unseen card beats (bombs aside, R8.1) after which at most one
    combination of the plan is beatable (:attr:`Weights.sure_out`)."""
    unseen = s.unseen
    for play in sorted((play for play in legal if play.cards and play.kind != BOMB), key=lambda play: play.rank):
        if is_top(play, unseen) and _beatable(s.hand & ~play.cards, unseen) <= 1:
            return play
    return None


def _beatable(hand: int, unseen: int) -> int:
    """Combinations of the hand's plan that some unseen cards may beat (bombs never)."""
    return sum(1 for play in partition(hand).plays if play.kind != BOMB and not is_top(play, unseen))


def double_victory_threat(s: Situation) -> bool:
    """Whether an opponent is out while this seat and its partner are not (R7.1 looms)."""
    opponents_out = any(not s.counts[seat] for seat in opponents(s.seat))
    return opponents_out and bool(s.counts[s.seat]) and bool(s.counts[s.partner])


def _distinct(legal: Sequence[Play], choice: Play) -> list[Play]:
    """One play per :func:`signature`; the choice is kept as its representative."""
    seen: dict[tuple[int, ...], Play] = {}
    for play in legal:
        key = signature(play)
        if key not in seen or play == choice:
            seen[key] = play
    return list(seen.values())


def signature(play: Play) -> tuple[int, ...]:
    """What makes plays different apart from suits: type, length, rank, the Phoenix."""
    return play.kind, play.length, play.rank, play.cards & PHOENIX


def _beats_fast(hand: int, play: Play) -> bool:
    """Whether a hand holds a non-bomb play beating ``play`` (counting values for the short types)."""
    kind = play.kind
    if kind == SINGLE:
        return bool(hand & higher_cards(play))
    if kind in (PAIR, TRIPLE):
        joker = 1 if hand & PHOENIX else 0
        return any((hand & VALUE_MASK[value]).bit_count() + joker >= play.length for value in range(play.rank + 1, 15))
    if kind == BOMB:
        return False
    return can_beat(hand, play, bombs=False)
