"""A scripted person who plays as the expert but for planted blunders (issue 25, "Done means"),
and one-round games dealt so that the blunder's moment comes."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tichu.agents.driver import AgentDriver
from tichu.agents.mc_agent import MonteCarloAgent
from tichu.core.cards import DECK, DRAGON, MAHJONG, PHOENIX, VALUE_MASK, indices_of, parse_mask
from tichu.core.combos import BOMB, SINGLE, Play, bombs_of
from tichu.core.flow import GameState
from tichu.core.ruleset import RuleSet
from tichu.core.views import SeatView, TablePhase
from tichu.records.record import game_record

#: The expert's deals per decision in the planted games (few: the games must be quick to play).
EXPERT_SAMPLES = 8


def expert(name: str, seed: int) -> MonteCarloAgent:
    """The expert with a fixed number of deals (reproducible for a seed, no clock)."""
    return MonteCarloAgent(name, seed, budget=None, max_samples=EXPERT_SAMPLES, min_samples=EXPERT_SAMPLES)


def hopeless(hand: int) -> bool:
    """A hand without a Dragon, Phoenix, Ace, King or bomb: no one should call Tichu on it."""
    return not hand & (DRAGON | PHOENIX | VALUE_MASK[14] | VALUE_MASK[13]) and not bombs_of(hand)


class PlantedPerson(MonteCarloAgent):
    """The expert, but for the planted blunders named in ``plants``:

    - ``tichu``: a Tichu call at the first offer in play on a :func:`hopeless` hand (R6.1);
    - ``bomb``: a single out of a four-of-a-kind bomb, at the first play where one is allowed,
      breaking the bomb for nothing (R4.3; until then the bomb is kept; the push gives the
      lowest other cards, the Mah Jong kept for the first lead);
    - ``grand``: Grand Tichu called on the first eight cards, whatever they are (R2.1).

    :ivar planted: ``(kind, round, hand)`` of each planted decision (the analysis's kinds).
    """

    kind = "human"

    def __init__(self, name: str, seed: int, plants: Sequence[str]) -> None:
        super().__init__(name, seed, budget=None, max_samples=EXPERT_SAMPLES, min_samples=EXPERT_SAMPLES)
        self.plants = set(plants)
        self.planted: list[tuple[str, int, int]] = []

    def _plant(self, kind: str, view: SeatView) -> None:
        self.planted.append((kind, view.public_state().round_index, view.hand))

    def _broken(self) -> bool:
        """Whether the planted bomb was broken already."""
        return any(kind == "play" for kind, _, _ in self.planted)

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        if "bomb" not in self.plants:
            return super().decide_schupf(view)
        bomb = sum(VALUE_MASK[value] for value in range(2, 15) if (view.hand & VALUE_MASK[value]).bit_count() == 4)
        low = indices_of(view.hand & ~bomb & ~MAHJONG)[:3]  # the bomb and the first lead are kept
        return 1 << low[0], 1 << low[1], 1 << low[2]

    def decide_grand_tichu(self, view: SeatView) -> bool:
        if "grand" in self.plants:
            self._plant("grand_tichu", view)
            return True
        return super().decide_grand_tichu(view)

    def decide_tichu(self, view: SeatView) -> bool:
        if "tichu" in self.plants and view.public_state().phase == TablePhase.PLAYING and hopeless(view.hand):
            self._plant("tichu", view)  # not at the push, where the heuristic asks itself too
            return True
        return super().decide_tichu(view)

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        if "bomb" in self.plants and not self._broken():
            return None  # the bomb is kept for the planted blunder
        return super().decide_bomb(view, bombs)

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        if "bomb" not in self.plants or self._broken():
            return super().decide_play(view, legal)
        broken = [play for play in legal if play.kind == SINGLE and any(
            play.cards & VALUE_MASK[value] and (view.hand & VALUE_MASK[value]).bit_count() == 4
            for value in range(2, 15))]
        if broken:
            self._plant("play", view)
            return broken[0]
        kept = [play for play in legal if play.kind != BOMB]  # the bomb is kept for the planted blunder
        return super().decide_play(view, kept or legal)


def planted_game(hand: str, plants: Sequence[str], seed: int) -> tuple[dict[str, Any], PlantedPerson]:
    """A short game (to 50 points: one round, rarely more) in which seat 0, the planted
    person, is dealt ``hand`` (14 record labels; its lowest eight first) and the other cards
    go at random to the three experts.

    :returns: The record (seat 0's kind ``human``: the seat the analysis judges by default)
        and the person, whose :attr:`~PlantedPerson.planted` names the planted decisions.
    """
    own = parse_mask(hand)
    assert own.bit_count() == 14
    rest = indices_of(DECK & ~own)
    random.Random(seed).shuffle(rest)
    cards = [indices_of(own)] + [rest[14 * index:14 * index + 14] for index in range(3)]
    deal = [(_mask(seat_cards[:8]), _mask(seat_cards[8:])) for seat_cards in cards]
    person = PlantedPerson("Person", seed, plants)
    agents = [person, expert("East", seed * 10 + 1), expert("North", seed * 10 + 2), expert("West", seed * 10 + 3)]
    rules = RuleSet(target_score=50)
    state = GameState(rules, seed=seed, keep_rounds=True)
    state.deal(deal)
    AgentDriver(state, agents).advance()
    players = [(agent.name, agent.kind) for agent in agents]
    record = game_record(state.rounds, rules, players, record_id=f"planted-{seed}", seed=seed,
                         started_at="2026-11-26T00:00:00Z")
    return dict(record), person


def _mask(indices: Sequence[int]) -> int:
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


__all__ = ["EXPERT_SAMPLES", "PlantedPerson", "expert", "planted_game"]
