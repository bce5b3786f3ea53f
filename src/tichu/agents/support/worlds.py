"""The one world sampler of the searches (R8): full game states a seat cannot tell from the real one.

The expert (:class:`~tichu.agents.mc_agent.MonteCarloAgent`), the game analysis
(:mod:`tichu.analysis.judge`) and OpenSpiel's resampling (:mod:`tichu.learn.spiel_worlds`)
draw their worlds here, and every option of a decision is then weighed the same way: the
world cloned, the option's action applied through the core, the round played on
(:func:`~tichu.agents.support.rollout.rollout`).

What is drawn depends on where the round stands:

- Grand Tichu (R2.1): the seat keeps its first eight cards; the 48 others are shuffled into
  the others' eight and all four sets of six still to be dealt. The seats before it in seat
  order answered already, hidden from it: their answers are the rollout policy's on their
  drawn cards.
- The push (R2.3): the seat keeps its fourteen; the 42 others are shuffled to the others, the
  Grand Tichu calls stand as called, and the seats before it pushed as the policy pushes.
- In play: the other hands from the seat's knowledge (:func:`~tichu.agents.support.knowledge.knowledge_of`),
  uniformly (:class:`~tichu.agents.support.prob.DealSampler`) or weighted by the passes and
  calls seen (:class:`~tichu.agents.support.inference.WeightedSampler`).

The core makes the drawn part a state (:func:`~tichu.core.worlds.world_of`); nothing here
knows a rule of who plays next, of the wish or of the Dragon.
"""

from __future__ import annotations

import random

from tichu.agents.support.inference import WeightedSampler, evidence_of
from tichu.agents.support.knowledge import knowledge_of
from tichu.agents.support.prob import DealSampler
from tichu.agents.support.rollout import RolloutPolicy, grand_call, push_of
from tichu.core.cards import DECK, indices_of, mask_of_indices
from tichu.core.flow import GameState
from tichu.core.round import Decision
from tichu.core.views import SeatView, TablePhase
from tichu.core.worlds import Answer, Hidden, world_of


class WorldSampler:
    """Draws worlds for one seat at one decision (see the module docstring).

    :ivar view: The seat's view.
    :ivar decision: The decision it faces.
    :ivar policy: Answers the hidden decisions of the seats that decided before it (R2.1, R2.3).
    :ivar deals: In play, the sampler of the hidden hands; ``None`` before the play.
    :raises ValueError: If the seat's knowledge admits no deal.
    """

    def __init__(self, view: SeatView, decision: Decision, policy: RolloutPolicy, *, inference: bool = True) -> None:
        self.view = view
        self.decision = decision
        self.policy = policy
        self.deals: DealSampler | WeightedSampler | None = None
        if not before_play(view, decision):
            self.deals = hand_sampler(view, inference)

    def hidden(self, rng: random.Random) -> Hidden:
        """One draw of what the seat cannot see."""
        if self.deals is not None:
            return Hidden(self.deals.sample(rng))
        view = self.view
        hands, rest = unseen_dealt(view, rng, self.decision == Decision.GRAND_TICHU)
        pending: list[Answer] = [None, None, None, None]
        if rest is not None:
            for other in range(view.seat):
                pending[other] = grand_call(self.policy, hands, other)
            return Hidden(hands, rest, pending)
        calls = view.public_state().announcements
        for other in range(view.seat):
            pending[other] = push_of(self.policy, hands, calls, other)
        return Hidden(hands, None, pending)

    def draw(self, rng: random.Random) -> GameState:
        """One world: a one-round state at the seat's decision (:func:`~tichu.core.worlds.world_of`).

        :raises ValueError: If the view is not at that decision (no world can be built).
        """
        return world_of(self.view, self.decision, self.hidden(rng))


def before_play(view: SeatView, decision: Decision) -> bool:
    """Whether the seat decides before the play: Grand Tichu, the push, or a Tichu call offered
    before the push (``tichu_before_schupf``)."""
    return decision in (Decision.GRAND_TICHU, Decision.SCHUPF) or view.public_state().phase == TablePhase.SCHUPF


def unseen_dealt(view: SeatView, rng: random.Random, grand: bool) -> tuple[list[int], list[int] | None]:
    """Before the play, the cards the seat has not seen dealt anew, uniformly: the four hands
    (the seat's own as it is) and, at Grand Tichu (``grand``, R2.1), the four sets of six still
    to be dealt (its own among them), else ``None`` (the push, R2.3: fourteen cards each)."""
    seat = view.seat
    cards = indices_of(DECK & ~view.hand)
    rng.shuffle(cards)
    hands = [0, 0, 0, 0]
    if grand:
        rest = [mask_of_indices(cards[6 * other:6 * other + 6]) for other in range(4)]
        others = cards[24:]
        for other in range(4):
            hands[other] = view.hand if other == seat else mask_of_indices([others.pop() for _ in range(8)])
        return hands, rest
    for other in range(4):
        hands[other] = view.hand if other == seat else mask_of_indices([cards.pop() for _ in range(14)])
    return hands, None


def hand_sampler(view: SeatView, inference: bool) -> DealSampler | WeightedSampler:
    """A sampler of the hands in play from the seat's knowledge (R8): uniform over every deal
    that agrees with it, or weighted by the passes and calls seen (``inference``).

    :raises ValueError: If the knowledge admits no deal.
    """
    public, private = view.public_state(), view.private_state()
    sampler = DealSampler(knowledge_of(public, private))
    if not inference:
        return sampler
    return WeightedSampler(sampler, evidence_of(public, view.seat))


__all__ = ["WorldSampler", "before_play", "hand_sampler", "unseen_dealt"]
