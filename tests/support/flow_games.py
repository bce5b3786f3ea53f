"""Seeded random games of the core's flow that reach every kind of decision (issue 34, part 1):
Grand Tichu, the push, offered calls and bombs, plays, a pending wish and Dragon gift, bomb
offers on a closed trick and tricks whose owner went out with them."""

from __future__ import annotations

import random
from collections.abc import Iterator

from tichu.core.cards import DECK, DRAGON, VALUE_MASK, indices_of
from tichu.core.combos import BOMB
from tichu.core.flow import GameState
from tichu.core.game import Game
from tichu.core.round import Action, ActionKind, Decision
from tichu.core.ruleset import RuleSet
from tichu.core.views import TableInfo, follow


def _choose(state: GameState, rng: random.Random) -> Action:
    """A random legal action of the deciding seat, keeping bombs for closed tricks and playing
    the Dragon often enough to reach every kind of decision."""
    legal = state.legal_actions()
    round_ = state.round
    assert round_ is not None
    if state.decision == Decision.BOMB:
        chance = 0.5 if round_.trick_closed else 0.02
        return rng.choice(legal[1:]) if len(legal) > 1 and rng.random() < chance else legal[0]
    if state.decision == Decision.TICHU:
        return legal[1] if rng.random() < 0.15 else legal[0]
    if state.decision != Decision.PLAY:
        return rng.choice(legal)
    plays = [play for play in state.legal_plays() if play.kind != BOMB] or state.legal_plays()
    dragon = [play for play in plays if play.cards == DRAGON]
    play = dragon[0] if dragon and rng.random() < 0.7 else rng.choice(plays)
    return Action(ActionKind.PLAY, round_.turn or 0, play.cards) if play.cards else Action(ActionKind.PASS,
                                                                                          round_.turn or 0)


def _bomb_deal(rng: random.Random) -> list[tuple[int, int]]:
    """A deal in which every seat has a four of a kind among its first eight cards (bombs out of
    turn, also on closed tricks, are rare in random deals)."""
    values = rng.sample(range(2, 15), 4)
    bombs = [VALUE_MASK[value] for value in values]
    rest = indices_of(DECK & ~(bombs[0] | bombs[1] | bombs[2] | bombs[3]))
    rng.shuffle(rest)
    deal = []
    for seat in range(4):
        cards = rest[10 * seat:10 * seat + 10]
        deal.append((bombs[seat] | _mask(cards[:4]), _mask(cards[4:])))
    return deal


def _mask(indices: list[int]) -> int:
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def positions(seed: int) -> Iterator[tuple[GameState, TableInfo]]:
    """Every decision of the first round of a seeded random game, as (state, table facts); odd
    seeds deal every seat a bomb."""
    rng = random.Random(seed)
    state = GameState(RuleSet(), Game(RuleSet(), random.Random(seed)))
    state.deal(_bomb_deal(rng) if seed % 2 else None)
    info = TableInfo(is_running=True)
    while not state.is_over and state.round_index == 0 and state.round is not None and not state.round.is_over:
        follow(info, state)
        yield state, info
        state.apply(_choose(state, rng))


__all__ = ["positions"]
