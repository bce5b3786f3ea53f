"""The rule policy: fixed, readable rules for every decision of a round.

It plans with a partition of the hand (:mod:`tichu.agents.support.hand`) and counts the cards
played (public, R8.1). :class:`~tichu.agents.rule_agent.RuleAgent` plays with it, and
the Monte Carlo agent uses it for the rollouts of its simulations, where it must be fast:
partitions are memoised and nothing here allocates more than a few small lists.
"""

from __future__ import annotations

from collections.abc import Sequence

from tichu.agents.support.hand import Partition, partition
from tichu.agents.support.situation import Situation
from tichu.core.cards import DOG, DRAGON, MAHJONG, PHOENIX, SPECIALS, VALUE_MASK, points_of
from tichu.core.combos import BOMB, DRAGON_RANK, PAIR, PASS_PLAY, SINGLE, TRIPLE, Play
from tichu.core.seats import opponents, partner

#: Cards that decide tricks: Dragon, Phoenix and the Aces.
CONTROL_CARDS = DRAGON | PHOENIX | VALUE_MASK[14]


def higher_cards(play: Play) -> int:
    """The cards that could be part of a non-bomb play beating ``play`` (R3.8, R3.9)."""
    _, kind, _, rank = play
    if kind == SINGLE:
        if rank >= DRAGON_RANK:
            return 0
        mask = DRAGON | (0 if play.cards == PHOENIX else PHOENIX)
    elif kind in (PAIR, TRIPLE):
        mask = PHOENIX
    else:
        return -1  # longer combinations: not counted, see :func:`is_top`
    for value in range(rank + 1, 15):
        mask |= VALUE_MASK[value]
    return mask


def is_top(play: Play, unseen: int) -> bool:
    """Whether no unseen cards can beat ``play`` apart from bombs (counting cards, R8.1).

    Singles, pairs and triples are checked by the unseen higher cards; longer
    combinations count as top only at rank 14 (nothing of their kind ranks higher).
    """
    kind = play.kind
    if kind == BOMB:
        return True
    higher = higher_cards(play)
    if higher == -1:
        return play.rank >= 14
    unseen_higher = unseen & higher
    if kind == SINGLE:
        return not unseen_higher
    size = play.length
    joker = 1 if unseen_higher & PHOENIX else 0
    return all((unseen_higher & VALUE_MASK[value]).bit_count() + joker < size for value in range(play.rank + 1, 15))


class RulePolicy:
    """Fixed rules for each decision (see the methods); thresholds as class attributes.

    :cvar GRAND_TICHU_CONTROLS: Control cards (Dragon, Phoenix, Aces, bombs count 2) in the
        first eight cards from which Grand Tichu is called.
    :cvar TICHU_LOSERS: Most combinations that are not sure to win for a Tichu call.
    :cvar URGENT_COUNT: An opponent with this many cards or fewer is about to go out.
    :cvar POINTS_WORTH_A_FIGHT: Trick points for which structure may be broken to win it.
    """

    GRAND_TICHU_CONTROLS = 4
    TICHU_LOSERS = 0
    URGENT_COUNT = 2
    POINTS_WORTH_A_FIGHT = 15

    # -- calls (R6) ---------------------------------------------------------------------

    def grand_tichu(self, hand: int, calls: Sequence[int], seat: int) -> bool:
        """Call Grand Tichu on strong first eight cards, not after the partner called."""
        if calls[partner(seat)]:
            return False
        return self.controls(hand, partition(hand)) >= self.GRAND_TICHU_CONTROLS

    def tichu(self, s: Situation) -> bool:
        """Call Tichu when at most :attr:`TICHU_LOSERS` combinations are not sure winners."""
        if s.calls[s.partner] or s.counts[s.seat] < 14:
            return False
        return self.losers(s.hand, s.unseen) <= self.TICHU_LOSERS

    @staticmethod
    def controls(hand: int, plan: Partition) -> int:
        """Dragon, Phoenix and Aces count one each, bombs two."""
        return (hand & CONTROL_CARDS).bit_count() + 2 * len(plan.bombs)

    def losers(self, hand: int, unseen: int) -> float:
        """Combinations of the hand's partition that are not sure to win, less its control cards.

        A hand needs a winning play to regain the lead after each losing one, so each
        control card (or bomb) that is not itself counted as a winner offsets a loser.
        """
        plan = partition(hand)
        losers = 0
        for play in plan.plays:
            if play.kind != BOMB and play.cards != DOG and not is_top(play, unseen):
                losers += 1
        spare = len(plan.bombs) + (1 if hand & PHOENIX and not any(p.cards == PHOENIX for p in plan.plays) else 0)
        return losers - spare

    # -- pushing (R2.3) -----------------------------------------------------------------

    def schupf(self, hand: int, strong: bool) -> tuple[int, int, int]:
        """Push the two weakest cards to the opponents and a good card to the partner.

        A card is weak when its removal keeps the partition cheap and its value is low;
        the partner gets the highest card that costs least, or a low one when this seat
        means to call (``strong``).
        """
        base = partition(hand).cost
        scored = []
        for index in range(56):
            card = 1 << index
            if hand & card and not card & (DRAGON | PHOENIX):
                scored.append((partition(hand & ~card).cost - base, _card_order(card), card))
        scored.sort()
        right, left = scored[0][2], scored[1][2]
        rest = [item for item in scored[2:] if not item[2] & DOG]
        singles = [item for item in rest if item[0] <= -0.9]
        if strong:
            partner = rest[0][2]
        elif singles:
            partner = max(singles, key=lambda item: item[1])[2]
        else:
            partner = min(rest, key=lambda item: (item[0], -item[1]))[2]
        return right, partner, left

    # -- playing (R4) -------------------------------------------------------------------

    def play(self, s: Situation, legal: Sequence[Play]) -> Play:
        """Choose a play: see :meth:`lead` and :meth:`follow`."""
        if len(legal) == 1:
            return legal[0]
        by_mask = {play.cards: play for play in legal}
        if s.hand in by_mask:
            return by_mask[s.hand]  # out in one play
        plan = partition(s.hand)
        if s.trick is None:
            return self.lead(s, legal, by_mask, plan)
        return self.follow(s, legal, by_mask, plan)

    def lead(self, s: Situation, legal: Sequence[Play], by_mask: dict[int, Play], plan: Partition) -> Play:
        """Lead: the Dog to a partner worth it, winners first when one loser is left,
        else the lowest combination (longer ones before singles of similar rank)."""
        pieces = [by_mask[play.cards] for play in plan.plays if play.cards in by_mask and play.kind != BOMB]
        if not pieces:
            return _lowest(legal, prefer_long=True)
        partner = s.partner
        dog = by_mask.get(DOG)
        if dog is not None and s.counts[partner] and (s.calls[partner] or not s.calls[s.seat]) \
                and s.counts[partner] <= s.counts[s.seat] + 3:
            return dog
        unseen = s.unseen
        winners = [play for play in pieces if play.cards != DOG and is_top(play, unseen)]
        losers = [play for play in pieces if play not in winners]
        if winners and len(losers) <= 1:
            return min(winners, key=lambda play: play.rank)
        candidates = [play for play in losers if play.cards not in (DRAGON, PHOENIX)] or pieces
        short = min((s.counts[seat] for seat in opponents(s.seat) if s.counts[seat]),
                    default=14)
        if short == 1:
            longer = [play for play in candidates if play.length > 1]
            if longer:
                return _lowest(longer, prefer_long=True)
            return max(candidates, key=lambda play: play.rank)
        return _lowest(candidates, prefer_long=True)

    def follow(self, s: Situation, legal: Sequence[Play], by_mask: dict[int, Play], plan: Partition) -> Play:
        """Follow: let the partner's trick run, beat an opponent with a whole combination
        of the plan, break the plan or bomb only when the trick matters."""
        can_pass = legal[-1] is PASS_PLAY
        owner = s.trick_owner
        if not can_pass:
            pieces = [play for play in legal if play.cards in {piece.cards for piece in plan.plays}]
            return _lowest(pieces or legal, prefer_long=False)
        if not s.is_opponent(owner):
            return PASS_PLAY
        assert owner is not None
        urgent = s.counts[owner] <= self.URGENT_COUNT or (s.calls[owner] and not s.calls[s.seat])
        fight = urgent or s.trick_points >= self.POINTS_WORTH_A_FIGHT
        plan_masks = {piece.cards for piece in plan.plays if piece.kind != BOMB}
        whole = [play for play in legal if play.cards in plan_masks and play.kind != BOMB]
        spare = [play for play in whole if play.cards not in (DRAGON, PHOENIX)]
        if spare:
            return _lowest(spare, prefer_long=False)
        if whole and (fight or len(plan.plays) <= 3):
            return _lowest(whole, prefer_long=False)
        if fight:
            broken = [play for play in legal if play.cards and play.kind != BOMB]
            if broken:
                return _lowest(broken, prefer_long=False)
            if urgent:
                bombs = [play for play in legal if play.kind == BOMB]
                if bombs:
                    return min(bombs, key=lambda play: (play.length, play.rank))
        return PASS_PLAY

    def bomb(self, s: Situation, bombs: Sequence[Play]) -> Play | None:
        """Bomb out of turn (R4.3) only to stop an opponent about to go out or to take a
        rich trick, with the smallest bomb."""
        owner = s.trick_owner
        if not s.is_opponent(owner) or not bombs:
            return None
        assert owner is not None
        if s.counts[owner] <= self.URGENT_COUNT or s.trick_points >= 2 * self.POINTS_WORTH_A_FIGHT \
                or (s.calls[owner] and s.counts[owner] <= 6):
            return min(bombs, key=lambda play: (play.length, play.rank))
        return None

    # -- wish and Dragon (R5.1, R4.5) ------------------------------------------------------

    def wish(self, s: Situation, choices: Sequence[int], pushed_to_opponents: int) -> int:
        """Wish a value this seat does not hold: one pushed to an opponent, else the highest."""
        held = {value for value in range(2, 15) if s.hand & VALUE_MASK[value]}
        gone = {value for value in range(2, 15) if (s.played | s.hand) & VALUE_MASK[value] == VALUE_MASK[value]}
        pushed = [value for value in range(14, 1, -1)
                  if pushed_to_opponents & VALUE_MASK[value] & ~s.played and value not in held]
        for value in pushed:
            if value in choices:
                return value
        for value in range(14, 1, -1):
            if value in choices and value not in held and value not in gone:
                return value
        return choices[-1] if 0 not in choices else 0

    def dragon(self, s: Situation, recipients: Sequence[int]) -> int:
        """Give the Dragon trick to the opponent further from going out (more cards), one
        without a Tichu call on a tie."""
        return max(recipients, key=lambda seat: (s.counts[seat], -s.calls[seat], -seat))


def _card_order(card: int) -> int:
    """Low cards first; the Dog and Mah Jong count as low."""
    if card & (DOG | MAHJONG):
        return 0 if card & DOG else 1
    if card & SPECIALS:
        return 16
    return (card.bit_length() - 1) // 4 + 2


def _lowest(plays: Sequence[Play], *, prefer_long: bool) -> Play:
    """The lowest play by rank (streets, stairs and full houses count four ranks lower when
    ``prefer_long``, so they lead before singles of similar rank); fewer points on a tie."""
    def key(play: Play) -> tuple[int, int, int]:
        bonus = 4 if prefer_long and play.length >= 4 else (2 if prefer_long and play.length > 1 else 0)
        return play.rank - bonus, points_of(play.cards), -play.length
    return min(plays, key=key)
