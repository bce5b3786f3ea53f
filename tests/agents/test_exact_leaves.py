"""Exact leaves of the expert's rollouts (issue 34, part 3: deeper than one ply).

In a sampled world every hand is known, so where a rollout reaches a two-seat endgame the
rest of the round is a game of perfect information (R8): with
:attr:`~tichu.agents.mc_search.SearchOptions.leaf_nodes` the rollout stops there and the
solver's exact value is the branch's value. Checked against the tests' own solver
(:class:`tests.support.endgames.MemoSolver`) on the two-seat endgames of seeded Arena games.
"""

from __future__ import annotations

from dataclasses import replace

from tests.support.endgames import MemoSolver, arena_points, cards_left
from tichu.agents.heuristic_policy import HeuristicPolicy
from tichu.agents.mc_agent import ROLLOUT_WEIGHTS, MonteCarloAgent, is_leaf, play_out
from tichu.agents.mc_search import LEAF_NODES, PLAYS
from tichu.agents.registry import make_agent
from tichu.agents.support.endgame import EndgameSolver
from tichu.agents.support.rollout import rollout
from tichu.analysis import DecisionPoint
from tichu.core.flow import GameState

LEAVES = replace(PLAYS, leaf_nodes=LEAF_NODES)


def leaf_points() -> list[DecisionPoint]:
    """The Arena games' play decisions that are leaves (two seats, at most ``leaf_cards`` cards)."""
    return [point for point in arena_points() if point.kind == "play" and point.state is not None
            and is_leaf(point.state, LEAVES.leaf_cards)]


def test_a_leaf_is_valued_exactly_R8() -> None:
    """At a leaf the branch's value is the exact value, whatever the rollout policy would play."""
    points = leaf_points()
    assert len(points) >= 10
    policy = HeuristicPolicy(ROLLOUT_WEIGHTS)
    theirs = MemoSolver()
    exact = 0
    for point in points:
        state = point.state
        assert state is not None
        value = play_out(state.clone(), point.seat, policy, LEAVES, EndgameSolver(10**6))
        assert value == theirs.value(state, point.seat), point
        exact += play_out(state.clone(), point.seat, policy, PLAYS) != value
    assert exact >= 1  # the rollout policy's own play of some leaf is worse: the solve matters


def test_a_leaf_beyond_the_nodes_is_played_out() -> None:
    """A solve that gives up leaves the rollout to finish the round as without leaves."""
    policy = HeuristicPolicy(ROLLOUT_WEIGHTS)
    point = max(leaf_points(), key=cards_left)
    state = point.state
    assert state is not None
    assert EndgameSolver(1).value(state, point.seat) is None
    assert play_out(state.clone(), point.seat, policy, LEAVES, EndgameSolver(1)) == \
        play_out(state.clone(), point.seat, policy, PLAYS)


def test_a_rollout_stops_where_asked() -> None:
    """``stop`` ends the rollout at the first state it holds for, before the round's end."""
    point = next(point for point in arena_points() if point.kind == "play" and point.state is not None
                 and not is_leaf(point.state, LEAVES.leaf_cards))
    state = point.state
    assert state is not None
    answers: list[bool] = []

    def stop(world: GameState) -> bool:
        answers.append(is_leaf(world, LEAVES.leaf_cards))
        return answers[-1]

    world = state.clone()
    rollout(world, HeuristicPolicy(ROLLOUT_WEIGHTS), stop=stop)
    assert len(answers) >= 2 and True not in answers[:-1]
    assert answers[-1] == (not world.is_over) == is_leaf(world, LEAVES.leaf_cards)

def test_leaves_by_name() -> None:
    """``montecarlo:plays:leaves`` is the expert's search with exact leaves; without, none."""
    agent = make_agent("montecarlo:plays:leaves:n16", seed=1)
    assert isinstance(agent, MonteCarloAgent) and agent.options == LEAVES and agent.max_samples == 16
    plain = make_agent("montecarlo:plays:n16", seed=1)
    assert isinstance(plain, MonteCarloAgent) and plain.options.leaf_nodes == 0
