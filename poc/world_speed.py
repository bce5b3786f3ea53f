"""What a search world costs (issue 34, part 1): the core's world builder against the hand-built
resume it replaced, and both against the rollout that follows every world.

Positions: every play decision with a choice in the first rounds of seeded games played by the
rollout policy. At each, the deciding seat's hands are drawn from its knowledge once, then a
world is built many times: by :func:`tichu.core.worlds.world_of` (today), and by
``Round.resume`` at the turn plus ``GameState.within`` (what ``rollout.resume_at`` and
``at_decision`` did before; only valid where the old search resumed, so the same positions
are used for both). A rollout from the world gives the scale: the world is built once per
sample, the rollouts run once per candidate.

Run: ``PYTHONPATH=src python -m poc.world_speed [--games 6] [--repeat 200]``
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from tichu.agents.heuristic_policy import HeuristicPolicy
from tichu.agents.mc_agent import ROLLOUT_WEIGHTS
from tichu.agents.support.rollout import rollout
from tichu.agents.support.situation import situation_in
from tichu.agents.support.worlds import hand_sampler
from tichu.core.flow import GameState
from tichu.core.game import Game
from tichu.core.round import Decision, Round
from tichu.core.ruleset import RuleSet
from tichu.core.views import SeatView, TableInfo, follow, view_of
from tichu.core.worlds import Hidden, world_of


def positions(games: int, policy: HeuristicPolicy) -> list[tuple[SeatView, list[int]]]:
    """(view, drawn hands) at each play decision with a choice on an open trick whose owner
    holds cards or on a lead (where the old resume could build the round)."""
    found = []
    for seed in range(games):
        state = GameState(RuleSet(), Game(RuleSet(), random.Random(seed)))
        state.deal()
        info = TableInfo(is_running=True)
        rng = random.Random(seed)
        while state.round_index == 0 and not state.is_over:
            round_ = state.round
            assert round_ is not None
            if round_.is_over:
                break
            if state.decision == Decision.PLAY and len(state.legal_plays()) > 1:
                owner = round_.trick_owner
                if not round_.trick_turns or (owner is not None and round_.hands[owner]):
                    follow(info, state)
                    seat = state.decision_seat
                    assert seat is not None
                    view = view_of(info, round_, seat)
                    found.append((view, hand_sampler(view, True).sample(rng)))
            _step(state, policy)
    return found


def _step(state: GameState, policy: HeuristicPolicy) -> None:
    """One decision of the game by the rollout policy (a rollout's own loop, one step)."""
    seat = state.decision_seat
    assert seat is not None
    legal = state.legal_actions()
    if state.decision == Decision.PLAY:
        round_ = state.round
        assert round_ is not None
        state.apply_play(policy.play(situation_in(round_, seat), state.legal_plays()))
    else:
        state.apply(legal[0])


def old_world(view: SeatView, hands: list[int]) -> GameState:
    """The world as the expert built it before: the round resumed at the turn, its offers made."""
    public = view.public_state()
    round_ = Round.resume(view.rules, hands, turn=view.seat, announcements=public.announcements,
                          trick_turns=public.trick_turns, trick_owner=public.trick_owner_index,
                          wish_value=public.wish_value, wish_open=public.wish_open, won_points=public.points,
                          out_order=public.out_order, played=public.played_cards)
    return GameState.within(round_, offered=True)


def new_world(view: SeatView, hands: list[int]) -> GameState:
    """The world as the core builds it now."""
    return world_of(view, Decision.PLAY, Hidden(hands))


def per_call(build: Callable[[SeatView, list[int]], GameState], found: list[tuple[SeatView, list[int]]],
             repeat: int) -> float:
    """Microseconds per world built."""
    started = time.perf_counter()
    for _ in range(repeat):
        for view, hands in found:
            build(view, hands)
    return (time.perf_counter() - started) / (repeat * len(found)) * 1e6


def per_rollout(found: list[tuple[SeatView, list[int]]], policy: HeuristicPolicy) -> float:
    """Microseconds per rollout from a world."""
    started = time.perf_counter()
    for view, hands in found:
        rollout(new_world(view, hands), policy, quiet_seat=view.seat)
    return (time.perf_counter() - started) / len(found) * 1e6


def main() -> None:
    """Print the cost of a world both ways and of a rollout."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    policy = HeuristicPolicy(ROLLOUT_WEIGHTS, 0)
    found = positions(args.games, policy)
    rounds = 3
    old = min(per_call(old_world, found, args.repeat) for _ in range(rounds))
    new = min(per_call(new_world, found, args.repeat) for _ in range(rounds))
    roll = min(per_rollout(found, policy) for _ in range(rounds))
    print(f"positions {len(found)}; best of {rounds}")
    print(f"resume_at + at_decision (before): {old:8.1f} us per world")
    print(f"world_of (now):                   {new:8.1f} us per world  ({(new - old) / old:+.0%})")
    print(f"rollout from a world:             {roll:8.1f} us  (a world costs {new / roll:.1%} of one rollout,"
          f" before {old / roll:.1%})")


if __name__ == "__main__":
    main()
