"""Helpers for scripted rounds: deals from card labels, a tiny play script, state snapshots.

Scripted tests name only the cards a situation needs; :func:`fill_hands` deals the rest
so that it adds no bomb (a bomb nobody asked for would silently change what is legal),
and :func:`playing_round` pushes cards so that every seat ends up holding exactly the
hand the test wrote down.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from tichu.core.cards import (
    CARDS,
    DECK,
    SUIT_MASK,
    VALUE_MASK,
    format_mask,
    indices_of,
    parse_mask,
)
from tichu.core.errors import RuleViolation, Violation
from tichu.core.round import Decision, Round
from tichu.core.ruleset import RuleSet

HAND_SIZE = 14
FIRST_DEAL_SIZE = 8
#: Round attributes that are caches, filled lazily by read-only queries.
_CACHES = frozenset({"_combos", "_bombs"})


def cards(labels: str) -> int:
    """Return the mask of space-separated card labels (records.md)."""
    return parse_mask(labels)


def labels(mask: int) -> set[str]:
    """Return the labels of a mask as a set (order-free comparisons in asserts)."""
    return set(format_mask(mask).split())


# -- deals ---------------------------------------------------------------------------------


def _bomb_masks(hand: int) -> set[int]:
    """Every four of a kind and every five-card straight flush window in a hand (R3.7)."""
    found = {VALUE_MASK[value] for value in range(2, 15) if hand & VALUE_MASK[value] == VALUE_MASK[value]}
    for suit in range(1, 5):
        suited = hand & SUIT_MASK[suit]
        for low in range(2, 11):
            window = sum(1 << (4 * (value - 2) + suit - 1) for value in range(low, low + 5))
            if suited & window == window:
                found.add(window)
    return found


def _deal_rest(wanted: Sequence[int], leftover: Sequence[int]) -> list[int]:
    """Give each leftover card to a seat still short of cards that holds fewest of its value.

    Ties go to the seat with the fewest cards, so that the seats fill up evenly.
    """
    hands = list(wanted)
    for index in leftover:
        same_value = VALUE_MASK[CARDS[index].value] if index < 52 else 0
        short = [seat for seat in range(4) if hands[seat].bit_count() < HAND_SIZE]
        seat = min(short, key=lambda s: ((hands[s] & same_value).bit_count(), hands[s].bit_count(), s))
        hands[seat] |= 1 << index
    return hands


def fill_hands(partial: Sequence[str]) -> list[int]:
    """Complete four partial hands to 14 cards each with the cards nobody was given.

    The leftover cards are spread evenly; when that forms a bomb the partial hands did
    not already hold, the leftover order is reshuffled with fixed seeds (so the result
    stays deterministic) until it does not.

    :param partial: Per seat, the labels the test needs that seat to hold.
    :returns: The four full hands.
    :raises ValueError: For a card given twice, a hand of more than 14 cards, or when
        no filler without an extra bomb was found.
    """
    wanted = [cards(text) for text in partial]
    if len(wanted) != 4:
        raise ValueError("four hands are needed")
    used = 0
    for hand in wanted:
        if hand & used:
            raise ValueError(f"card given twice: {format_mask(hand & used)}")
        if hand.bit_count() > HAND_SIZE:
            raise ValueError(f"more than 14 cards: {format_mask(hand)}")
        used |= hand
    leftover = indices_of(DECK & ~used)
    for attempt in range(200):
        if attempt:
            random.Random(attempt).shuffle(leftover)
        hands = _deal_rest(wanted, leftover)
        if all(_bomb_masks(hand) <= _bomb_masks(own) for hand, own in zip(hands, wanted)):
            return hands
    raise ValueError("no filler without an extra bomb found")


def _split_deal(hand: int, first: int) -> tuple[int, int]:
    """Split a 14-card hand into the 8 cards seen first (``first`` and then the lowest)."""
    chosen = first
    for index in indices_of(hand & ~first):
        if chosen.bit_count() == FIRST_DEAL_SIZE:
            break
        chosen |= 1 << index
    if chosen.bit_count() != FIRST_DEAL_SIZE:
        raise ValueError("more than 8 cards asked for in the first deal")
    return chosen, hand & ~chosen


def dealt_round(partial: Sequence[str], rules: RuleSet | None = None,
                first: Sequence[str] = ("", "", "", "")) -> Round:
    """Deal a round (R2.1) whose seats are dealt ``partial`` plus filler, before Grand Tichu.

    :param first: Per seat, labels that must be among the first 8 cards.
    """
    hands = fill_hands(partial)
    deal = [_split_deal(hand, cards(seen)) for hand, seen in zip(hands, first)]
    return Round(rules=rules, deal=deal)


def _received(hand: int) -> list[int]:
    """The three cards of a final hand that the helper declares pushed in (highest first)."""
    return [1 << index for index in indices_of(hand)[-3:]][::-1]


def playing_round(partial: Sequence[str], rules: RuleSet | None = None,
                  grand: Sequence[bool] = (False, False, False, False)) -> Round:
    """Return a round in play whose seats hold ``partial`` plus filler after the push (R2.3).

    Every seat decides on Grand Tichu (``grand``), then pushes cards chosen so that the
    exchange produces exactly the written hands; the Mah Jong holder leads (R2.5).
    """
    final = fill_hands(partial)
    received = [_received(hand) for hand in final]  # received[t][k]: from seat t + k + 1
    pushes = []
    for giver in range(4):
        pushes.append(tuple(received[(giver + k) % 4][(giver - (giver + k)) % 4 - 1] for k in (1, 2, 3)))
    dealt = []
    for seat in range(4):
        hand = final[seat]
        for card in received[seat]:
            hand &= ~card
        for card in pushes[seat]:
            hand |= card
        dealt.append(_split_deal(hand, 0))
    round_ = Round(rules=rules, deal=dealt)
    for seat in range(4):
        round_.decide_grand_tichu(seat, grand[seat])
    for seat in range(4):
        round_.schupf(seat, list(pushes[seat]))
    assert round_.hands == final, "the push helper must reproduce the written hands"
    return round_


# -- scripts -----------------------------------------------------------------------------


def step(round_: Round, line: str) -> None:
    """Apply one script line: ``"0 S3 B3"`` plays, ``"1 pass"``, ``"2 bomb S5 B5 G5 R5"``,
    ``"0 wish 8"``, ``"0 dragon 1"``, ``"3 tichu"``, or ``"collect"`` (the engine takes the trick).
    """
    words = line.split()
    if words == ["collect"]:
        round_.collect_trick()
        return
    seat, verb, rest = int(words[0]), words[1], words[2:]
    if verb == "pass":
        round_.pass_turn(seat)
    elif verb == "bomb":
        round_.bomb(seat, cards(" ".join(rest)))
    elif verb == "wish":
        round_.make_wish(seat, int(rest[0]))
    elif verb == "dragon":
        round_.give_dragon(seat, int(rest[0]))
    elif verb == "tichu":
        round_.announce(seat)
    else:
        round_.play(seat, cards(" ".join(words[1:])))


def run(round_: Round, *lines: str) -> Round:
    """Apply script lines in order (see :func:`step`); returns the round for chaining."""
    for line in lines:
        step(round_, line)
    return round_


def finish(round_: Round) -> Round:
    """Play a round to its end with a fixed policy: pass when allowed, else the first legal play.

    Wishes take the first allowed value, Dragon tricks go to the first opponent offered.
    """
    for _ in range(1000):
        if round_.is_over:
            return round_
        actions = round_.legal_actions()
        if round_.decision == Decision.PLAY:
            passes = [action for action in actions if action.value is None]
            round_.apply(passes[0] if passes else actions[0])
        else:
            round_.apply(actions[0])
    raise AssertionError("the round did not end")


# -- state checks ------------------------------------------------------------------------


def state_names(round_: Round) -> list[str]:
    """The names of a round's attributes: those of its ``__dict__``, or, where the accelerator
    (``bin/accelerate.py``) compiled :class:`Round` into a class without one, every public or
    private name whose value is data, not a method."""
    if hasattr(round_, "__dict__"):
        return list(vars(round_))
    return [name for name in dir(round_) if not name.startswith("__") and not callable(getattr(round_, name))]


def snapshot(round_: Round) -> dict[str, Any]:
    """A deep copy of a round's whole state except lazily filled caches."""
    return copy.deepcopy({name: getattr(round_, name) for name in state_names(round_) if name not in _CACHES})


def assert_refused(round_: Round, code: Violation, action: Callable[[], object],
                   rule: str | None = None) -> RuleViolation:
    """Assert that an action raises :class:`RuleViolation` with ``code`` and changes nothing.

    :param rule: (Optional) The rule the violation must cite (prefix match, ``"R5"`` fits ``"R5.2"``).
    """
    before = snapshot(round_)
    with pytest.raises(RuleViolation) as caught:
        action()
    assert caught.value.violation == code, caught.value
    if rule is not None:
        assert caught.value.rule.startswith(rule), caught.value
    assert snapshot(round_) == before, "a refused action must not change the round"
    return caught.value


def legal_labels(round_: Round) -> list[set[str]]:
    """The legal plays of the seat at turn as label sets (the pass as the empty set)."""
    return [labels(play[0]) for play in round_.legal_plays()]


def planted_deal(rng: random.Random) -> list[tuple[int, int]]:
    """A deal with up to three bombs planted in random hands, so that R4.3 comes up often.

    Shuffled deals hold a bomb only now and then; planting keeps out-of-turn bombs,
    bombs on bombs and the R5.3 bomb obligation in most random rounds.
    """
    hands = [0, 0, 0, 0]
    used = 0
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.5:
            bomb = VALUE_MASK[rng.randint(2, 14)]
        else:
            suit, length = rng.randint(1, 4), rng.randint(5, 7)
            low = rng.randint(2, 15 - length)
            bomb = sum(1 << (4 * (value - 2) + suit - 1) for value in range(low, low + length))
        seat = rng.randrange(4)
        if not bomb & used and hands[seat].bit_count() + bomb.bit_count() <= 14:
            hands[seat] |= bomb
            used |= bomb
    rest = indices_of(DECK & ~used)
    rng.shuffle(rest)
    for seat in range(4):
        while hands[seat].bit_count() < 14:
            hands[seat] |= 1 << rest.pop()
    deal = []
    for hand in hands:
        order = indices_of(hand)
        rng.shuffle(order)
        deal.append((sum(1 << index for index in order[:8]), sum(1 << index for index in order[8:])))
    return deal
