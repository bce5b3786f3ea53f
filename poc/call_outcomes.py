#!/usr/bin/env python3
"""How the heuristic's Tichu and Grand Tichu calls turn out against frohlfing/tichu's
``HeuristicAgent``, by the score the call rests on (issue 34: the strong level's calls).

Run: ``PYTHONPATH=src ../ext/fvenv/bin/python -m poc.call_outcomes --frohlfing ../ext/frohlfing
--games 400 --seed 31 --minutes 25 heuristic``

Team A plays the given heuristic (``heuristic``, ``heuristic:v2``), team B frohlfing's agent,
on duplicate deals (:func:`poc.duplicate_deals.play_deals`). At each call decision a seat of
team A writes down the score of its hand: :func:`~tichu.agents.heuristic_policy.grand_score`
of the first eight cards, and at a plain Tichu offer with 14 cards
:func:`~tichu.agents.heuristic_policy.tichu_score` from a fresh sample of deals (the agent
decides on a sample of its own, so near the margin the two differ by the sampling's noise).
After the run: per score bucket the calls made and the share won, and per threshold the bonus
per round that calling only from it would have kept (the calls below it left out, their
rounds as they were played: a bound of the effect, not a replay). Nothing here is a test.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path

from poc.duplicate_deals import play_deals
from poc.frohlfing_agent import FrohlfingAgent, Tally, TheirCode
from poc.vs_frohlfing import THEIRS
from tichu.agents.agent import Agent
from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.heuristic_policy import Weights, grand_score, hand_strength, tichu_score
from tichu.agents.registry import make_agent
from tichu.arena.arena import GameSpec
from tichu.core.flow import GameState
from tichu.core.views import SeatView

#: Width of a score bucket (log-odds).
BUCKET = 0.25
#: The thresholds the bonus is shown for.
THRESHOLDS = (-0.75, -0.6, -0.5, -0.4, -0.3, -0.2, -0.1, 0.0, 0.25, 0.5)


@dataclass
class Call:
    """One call decision of team A.

    :ivar game: The game's index in the run.
    :ivar round: The round's index in its game.
    :ivar seat: The deciding seat.
    :ivar grand: Grand Tichu (else a plain Tichu).
    :ivar score: The hand's score.
    :ivar called: Whether the seat called.
    """

    game: int
    round: int
    seat: int
    grand: bool
    score: float
    called: bool


class ScoredHeuristic(HeuristicAgent):
    """A heuristic seat that writes down the score of each call decision into ``calls``."""

    def __init__(self, name: str, seed: int, weights: Weights, calls: list[Call], game: list[int]) -> None:
        """:param calls: Where the decisions are written down.
        :param game: The index of the game being played (one item, set by the run).
        """
        super().__init__(name, seed, weights)
        self._calls, self._game, self._round = calls, game, -1

    def decide_grand_tichu(self, view: SeatView) -> bool:
        self._round += 1
        called = super().decide_grand_tichu(view)
        score = grand_score(hand_strength(view.hand, None))
        self._calls.append(Call(self._game[0], self._round, view.seat, True, score, called))
        return called

    def decide_tichu(self, view: SeatView) -> bool:
        called = super().decide_tichu(view)
        s, knowledge, _, _ = self._facts(view)
        if s.counts[s.seat] == 14 and not s.calls[s.seat] and not s.calls[s.partner]:
            policy = self.policy
            score = tichu_score(hand_strength(s.hand, (policy, knowledge, policy.sample_hands(knowledge))))
            self._calls.append(Call(self._game[0], self._round, view.seat, False, score, called))
        return called


def report(calls: list[Call], first_out: dict[tuple[int, int], int], rounds: int) -> list[str]:
    """The calls made by score bucket with the share won, and the bonus per round by threshold."""
    lines = []
    for grand, stake, name in ((False, 100, "Tichu"), (True, 200, "Grand Tichu")):
        made = [(call.score, first_out[call.game, call.round] == call.seat) for call in calls
                if call.grand == grand and call.called and (call.game, call.round) in first_out]
        lines.append(f"{name}: {len(made)} calls in {rounds} rounds")
        buckets: dict[float, list[bool]] = {}
        for score, won in made:
            buckets.setdefault(math.floor(score / BUCKET) * BUCKET, []).append(won)
        for low in sorted(buckets):
            outcomes = buckets[low]
            share = sum(outcomes) / len(outcomes)
            lines.append(f"  score {low:+.2f} .. {low + BUCKET:+.2f}: {len(outcomes):4d} calls, {share:.0%} won")
        for threshold in THRESHOLDS:
            kept = [won for score, won in made if score >= threshold]
            bonus = sum(stake if won else -stake for won in kept) / max(rounds, 1)
            share = sum(kept) / len(kept) if kept else 0.0
            lines.append(f"  from {threshold:+.2f}: {len(kept):4d} calls, {share:.0%} won, "
                         f"bonus {bonus:+.2f} per round")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Play the games and print the calls' outcomes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent", help="team A's heuristic: heuristic, heuristic:v2")
    parser.add_argument("--frohlfing", type=Path, required=True, help="a checkout of frohlfing/tichu")
    parser.add_argument("--games", type=int, default=400, help="games, an even number: two per deal (default 400)")
    parser.add_argument("--seed", type=int, default=31, help="seed of the whole run (default 31)")
    parser.add_argument("--minutes", type=float, default=None, help="stop after the deal that ends past this time")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be an even number of at least 2, not {args.games}")
    chosen = make_agent(args.agent)
    if not isinstance(chosen, HeuristicAgent):
        parser.error(f"{args.agent} is no heuristic agent")
    weights = chosen.policy.weights
    code = TheirCode(args.frohlfing)
    tally, calls, game = Tally(), list[Call](), [0]
    first_out: dict[tuple[int, int], int] = {}

    def make(side: int, label: str, seed: int) -> Agent:
        if side == 1:
            return FrohlfingAgent(code, label, seed, tally)
        return ScoredHeuristic(label, seed, weights, calls, game)

    def observe(spec: GameSpec, state: GameState) -> None:
        assert state.game is not None
        for index, result in enumerate(state.game.results):
            first_out[spec.index, index] = result.out_order[0]
        game[0] = spec.index + 1

    result = play_deals(make, (args.agent, THEIRS), args.games, args.seed, 1000, False, args.minutes, observe)
    print("\n".join(result.lines()))
    print("\n".join(report(calls, first_out, result.rounds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
