"""Probabilities about hidden hands: exact counting where it is cheap, sampling otherwise.

Every deal of the unseen cards that agrees with a seat's :class:`~tichu.agents.support.knowledge.Knowledge`
is taken as equally likely. Questions about one seat whose hand is then a uniform draw
from its free cards (no other seat excludes some of them) are answered exactly by
counting over the values (a product of binomials, R3's combinations only care about
values and the Phoenix); everything else by sampling deals with :class:`DealSampler`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import product
from math import comb, factorial

from tichu.agents.support.knowledge import Knowledge
from tichu.core.cards import DRAGON, PHOENIX, VALUE_MASK, indices_of
from tichu.core.combos import (
    BOMB,
    DRAGON_RANK,
    PAIR,
    SINGLE,
    TRIPLE,
    Play,
    bombs_of,
    combinations_of,
    legal_plays_from,
)

#: Constrained cards up to which :class:`DealSampler` enumerates their placements exactly.
EXACT_PLACEMENT_LIMIT = 6
#: Tries of the rejection sampler before it gives up.
REJECTION_LIMIT = 10_000


class DealSampler:
    """Draws deals of the unseen cards uniformly among those consistent with the knowledge.

    Cards some seat cannot hold are placed first, by a weighted choice over all their
    placements (the weight counts the ways to deal the rest), then the other free cards
    are shuffled into the remaining places: every consistent deal is equally likely.
    With more than :data:`EXACT_PLACEMENT_LIMIT` such cards it falls back to rejection.

    :raises ValueError: When no deal agrees with the knowledge.
    """

    def __init__(self, knowledge: Knowledge) -> None:
        self.knowledge = knowledge
        seats = knowledge.seats
        self.others = [seat for seat in range(4) if seat != knowledge.seat]
        self.fixed = [seats[seat].must if seat != knowledge.seat else knowledge.hand for seat in range(4)]
        musts = 0
        for seat in self.others:
            musts |= seats[seat].must
        free = knowledge.unseen & ~musts
        self.slots = {seat: seats[seat].count - seats[seat].must.bit_count() for seat in self.others}
        if any(slots < 0 for slots in self.slots.values()) or sum(self.slots.values()) != free.bit_count():
            raise ValueError("the knowledge is inconsistent: hand sizes do not match the unseen cards")
        forbidden = 0
        for seat in self.others:
            forbidden |= seats[seat].cannot
        self.constrained = indices_of(free & forbidden)
        self.open = indices_of(free & ~forbidden)
        self.placements: list[tuple[int, ...]] = []
        self.weights: list[float] = []
        if len(self.constrained) <= EXACT_PLACEMENT_LIMIT:
            self._enumerate_placements()
            if not self.placements:
                raise ValueError("the knowledge is inconsistent: no deal satisfies it")
        else:
            self.sample(random.Random(0))  # raises if rejection finds no consistent deal

    def _allowed(self, card: int) -> list[int]:
        return [seat for seat in self.others if not self.knowledge.seats[seat].cannot >> card & 1]

    def _enumerate_placements(self) -> None:
        choices = [self._allowed(card) for card in self.constrained]
        for placement in product(*choices):
            left = dict(self.slots)
            for seat in placement:
                left[seat] -= 1
            if min(left.values()) < 0:
                continue
            weight = 1.0
            for slots in left.values():
                weight /= factorial(slots)
            self.placements.append(placement)
            self.weights.append(weight)

    def sample(self, rng: random.Random) -> list[int]:
        """One consistent deal: the four hands (the knowing seat's own hand included).

        :raises ValueError: If rejection sampling finds no consistent deal in
            :data:`REJECTION_LIMIT` tries (the knowledge is then most likely inconsistent).
        """
        for _ in range(REJECTION_LIMIT):
            hands = list(self.fixed)
            left = dict(self.slots)
            if self.placements:
                placement = rng.choices(self.placements, self.weights)[0]
                for card, seat in zip(self.constrained, placement):
                    hands[seat] |= 1 << card
                    left[seat] -= 1
                cards = list(self.open)
            else:
                cards = self.constrained + self.open
            rng.shuffle(cards)
            start = 0
            for seat in self.others:
                for card in cards[start:start + left[seat]]:
                    hands[seat] |= 1 << card
                start += left[seat]
            if self.placements or self._consistent(hands):
                return hands
        raise ValueError("no deal consistent with the knowledge was found")

    def _consistent(self, hands: Sequence[int]) -> bool:
        return all(not hands[seat] & self.knowledge.seats[seat].cannot for seat in self.others)


def estimate(sampler: DealSampler, event: Callable[[list[int]], bool], samples: int,
             rng: random.Random) -> float:
    """The share of ``samples`` sampled deals on which ``event(hands)`` holds."""
    hits = sum(1 for _ in range(samples) if event(sampler.sample(rng)))
    return hits / samples


# -- exact counting for one seat ---------------------------------------------------------


def is_exact(knowledge: Knowledge, seat: int) -> bool:
    """Whether ``seat``'s hand is a uniform draw from :meth:`Knowledge.free_for` (no other
    seat excludes one of its free cards), which the exact functions need."""
    free = knowledge.free_for(seat)
    return not any(knowledge.seats[other].cannot & free for other in range(4)
                   if other not in (seat, knowledge.seat))


def _count_ways(knowledge: Knowledge, seat: int, allowed: Callable[[int, int], bool],
                phoenix: bool | None = None) -> tuple[int, int]:
    """Count the seat's possible hands whose per-value counts all pass ``allowed``.

    :param allowed: ``allowed(value, count)`` for values 2..14 (count includes known cards).
    :param phoenix: ``True``/``False`` to count only hands with/without the Phoenix.
    :returns: ``(ways passing, all ways)``.
    """
    facts = knowledge.seats[seat]
    free = knowledge.free_for(seat)
    draw = facts.count - facts.must.bit_count()
    others = free
    for value in range(2, 15):
        others &= ~VALUE_MASK[value]
    others_phoenix = others & PHOENIX
    plain_others = (others & ~PHOENIX).bit_count()
    total = comb(free.bit_count(), draw)
    ways = [0] * (draw + 1)  # ways[k]: ways to draw k free natural cards passing so far
    ways[0] = 1
    for value in range(2, 15):
        group = (free & VALUE_MASK[value]).bit_count()
        known = (facts.must & VALUE_MASK[value]).bit_count()
        grown = [0] * (draw + 1)
        for taken in range(draw + 1):
            if not ways[taken]:
                continue
            for extra in range(min(group, draw - taken) + 1):
                if allowed(value, known + extra):
                    grown[taken + extra] += ways[taken] * comb(group, extra)
        ways = grown
    passing = 0
    has_phoenix_known = bool(facts.must & PHOENIX)
    for taken, count in enumerate(ways):
        rest = draw - taken
        for with_phoenix in (False, True):
            if with_phoenix and not others_phoenix:
                continue
            need = rest - (1 if with_phoenix else 0)
            if need < 0:
                continue
            holds = with_phoenix or has_phoenix_known
            if phoenix is not None and holds != phoenix:
                continue
            passing += count * comb(plain_others, need)
    return passing, total


def p_holds_value(knowledge: Knowledge, seat: int, value: int, at_least: int = 1) -> float:
    """Exact chance that ``seat`` holds at least ``at_least`` cards of ``value`` (e.g. the wish, R5.2).

    :raises ValueError: If the seat's hand is not a uniform draw (see :func:`is_exact`).
    """
    _require_exact(knowledge, seat)
    passing, total = _count_ways(knowledge, seat, lambda v, n: v != value or n < at_least)
    return 1 - passing / total


def p_holds_four_of_a_kind(knowledge: Knowledge, seat: int) -> float:
    """Exact chance that ``seat`` holds four cards of one value (a bomb, R3.7; straight
    flushes are not counted, see :func:`p_holds_bomb`).

    :raises ValueError: If the seat's hand is not a uniform draw (see :func:`is_exact`).
    """
    _require_exact(knowledge, seat)
    passing, total = _count_ways(knowledge, seat, lambda v, n: n < 4)
    return 1 - passing / total


def p_beats_exact(knowledge: Knowledge, seat: int, play: Play) -> float:
    """Exact chance that ``seat`` holds a single, pair or triple beating ``play`` (R3.8),
    bombs left out.

    :param play: A single, pair or triple.
    :raises ValueError: For other types, or if the seat's hand is not a uniform draw.
    """
    _require_exact(knowledge, seat)
    _, kind, _, rank = play
    if kind not in (SINGLE, PAIR, TRIPLE):
        raise ValueError("exact counting covers singles, pairs and triples")
    facts = knowledge.seats[seat]
    free = knowledge.free_for(seat)
    draw = facts.count - facts.must.bit_count()
    if kind == SINGLE:
        if rank >= DRAGON_RANK:
            return 0.0
        better = DRAGON | (PHOENIX if play.cards != PHOENIX else 0)
        for value in range(rank + 1, 15):
            better |= VALUE_MASK[value]
        if facts.must & better:
            return 1.0
        pool = free.bit_count()
        return 1 - comb(pool - (free & better).bit_count(), draw) / comb(pool, draw)
    size = 2 if kind == PAIR else 3
    without, total = _count_ways(knowledge, seat, lambda v, n: v <= rank or n < size, phoenix=False)
    with_phoenix, _ = _count_ways(knowledge, seat, lambda v, n: v <= rank or n < size - 1, phoenix=True)
    return 1 - (without + with_phoenix) / total


def _require_exact(knowledge: Knowledge, seat: int) -> None:
    if seat == knowledge.seat or not is_exact(knowledge, seat):
        raise ValueError("exact counting needs another seat whose hand is a uniform draw")


# -- sampled -----------------------------------------------------------------------------


def can_beat(hand: int, trick: Play, *, bombs: bool = True) -> bool:
    """Whether a hand holds a play that beats ``trick`` (R3.8), bombs counted if ``bombs``."""
    if trick.kind != BOMB and not bombs:
        return any(play.cards and play.kind != BOMB
                   for play in legal_plays_from(combinations_of(hand), hand, trick))
    if bombs and trick.kind != BOMB and bombs_of(hand):
        return True
    return any(play.cards for play in legal_plays_from(combinations_of(hand), hand, trick))


def p_beats(knowledge: Knowledge, seats: Sequence[int], trick: Play, sampler: DealSampler,
            samples: int, rng: random.Random, *, bombs: bool = True) -> float:
    """Chance that at least one of ``seats`` can beat ``trick``, by sampling deals."""
    return estimate(sampler, lambda hands: any(can_beat(hands[seat], trick, bombs=bombs) for seat in seats),
                    samples, rng)


def p_holds_bomb(knowledge: Knowledge, seats: Sequence[int], sampler: DealSampler, samples: int,
                 rng: random.Random) -> float:
    """Chance that at least one of ``seats`` holds a bomb (straight flushes included), sampled."""
    return estimate(sampler, lambda hands: any(bombs_of(hands[seat]) for seat in seats), samples, rng)
