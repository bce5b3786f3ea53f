"""Deals weighted by what the play reveals: passes and Tichu calls (issue 13, part 2).

:class:`~tichu.agents.support.prob.DealSampler` draws every deal that agrees with a seat's
hard knowledge with the same chance. The play says more: a seat that passed on an
opponent's low single while holding many cards likely holds few higher singles, and a
Tichu caller likely holds a strong hand. :func:`evidence_of` reads such soft evidence from
the public state only (R8.1: every play, pass and call is public), :func:`likelihood` gives
a deal's chance under a simple model (a factor at most one per piece of evidence), and
:class:`WeightedSampler` draws deals from the posterior by rejection: a uniform deal is kept
with the chance :func:`likelihood`, so kept deals follow the posterior exactly (until
:attr:`WeightedSampler.tries` run out; then the likeliest deal drawn is taken).

The model:

* ``("pass", seat, rank)``: ``seat`` passed on an opponent's single of ``rank`` with at
  least :data:`PASS_MIN_CARDS` cards; each card in its hand that would have beaten the
  single (higher values, the Dragon; the Phoenix counts as one) multiplies by :data:`PASS_FACTOR`.
* ``("call", seat, 0)``: ``seat`` called (Grand) Tichu; each control card (Dragon, Phoenix,
  Ace) it holds short of :data:`CALL_CONTROLS` multiplies by :data:`CALL_FACTOR`.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from tichu.agents.support.prob import DealSampler
from tichu.core.cards import DOG, DRAGON, PHOENIX, VALUE_MASK
from tichu.core.combos import SINGLE
from tichu.core.seats import is_opponent
from tichu.core.views import PublicState

#: Factor per higher card a passing seat holds.
PASS_FACTOR = 0.7
#: Cards a seat must hold for its pass to count as evidence.
PASS_MIN_CARDS = 5
#: Singles up to this rank count (passing on a high single says little).
PASS_MAX_RANK = 11
#: Factor per control card a caller lacks.
CALL_FACTOR = 0.6
#: Control cards a caller is expected to hold.
CALL_CONTROLS = 3
#: The control cards of the call model.
CONTROLS = DRAGON | PHOENIX | VALUE_MASK[14]


class Evidence(NamedTuple):
    """One piece of soft evidence: ``kind`` (``"pass"`` or ``"call"``), the seat, a rank."""

    kind: str
    seat: int
    rank: int


def evidence_of(public: PublicState, seat: int) -> list[Evidence]:
    """The soft evidence about the other seats in ``public`` (what ``seat`` may see, R8.1):
    passes on an opponent's single in the open trick and the calls of seats still in."""
    found: list[Evidence] = []
    counts = public.count_hand_cards
    turns = public.trick_turns
    # seats between one play and the next passed on it (the Dog passes to the partner: skipped)
    follow_ups = [(index, turns[index + 1][0]) for index in range(len(turns) - 1)]
    if turns and public.current_turn_index is not None and public.trick_owner_index == turns[-1][0]:
        follow_ups.append((len(turns) - 1, public.current_turn_index))
    for index, next_seat in follow_ups:
        owner, play = turns[index]
        if play.cards == DOG or play.kind != SINGLE or play.rank > PASS_MAX_RANK:
            continue
        other = (owner + 1) % 4
        while other != next_seat and other != owner:
            if other != seat and counts[other] >= PASS_MIN_CARDS and is_opponent(owner, other):
                found.append(Evidence("pass", other, play.rank))
            other = (other + 1) % 4
    for other, call in enumerate(public.announcements):
        if call and other != seat and counts[other]:
            found.append(Evidence("call", other, 0))
    return found


def higher_singles(hand: int, rank: int) -> int:
    """Cards of ``hand`` that beat a single of ``rank`` (the Phoenix counts, R3.9)."""
    mask = DRAGON | PHOENIX
    for value in range(rank + 1, 15):
        mask |= VALUE_MASK[value]
    return (hand & mask).bit_count()


def likelihood(hands: list[int], evidence: list[Evidence]) -> float:
    """The chance of the evidence given the deal under the module's model (at most one)."""
    weight = 1.0
    for kind, seat, rank in evidence:
        hand = hands[seat]
        if kind == "pass":
            weight *= PASS_FACTOR ** higher_singles(hand, rank)
        else:
            weight *= CALL_FACTOR ** max(0, CALL_CONTROLS - (hand & CONTROLS).bit_count())
    return weight


class WeightedSampler:
    """Draws deals from the posterior of :class:`DealSampler`'s uniform prior and the evidence.

    :ivar sampler: The uniform sampler (the hard knowledge).
    :ivar evidence: The soft evidence.
    :ivar tries: Uniform deals drawn per sample at most (then the likeliest is taken).
    :ivar last_tries: Deals drawn for the last sample (cost, for profiling).
    """

    def __init__(self, sampler: DealSampler, evidence: list[Evidence], tries: int = 32) -> None:
        self.sampler = sampler
        self.evidence = evidence
        self.tries = tries
        self.last_tries = 0

    def sample(self, rng: random.Random) -> list[int]:
        """One deal, accepted with the chance of the evidence given it."""
        if not self.evidence:
            self.last_tries = 1
            return self.sampler.sample(rng)
        best: list[int] | None = None
        best_weight = -1.0
        for attempt in range(1, self.tries + 1):
            hands = self.sampler.sample(rng)
            weight = likelihood(hands, self.evidence)
            if rng.random() < weight:
                self.last_tries = attempt
                return hands
            if weight > best_weight:
                best, best_weight = hands, weight
        self.last_tries = self.tries
        assert best is not None
        return best
