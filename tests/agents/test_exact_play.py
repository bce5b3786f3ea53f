"""The strong and expert levels play two-seat endgames exactly (issue 34, part 3: the exact
solver used by the agents, not only by the judge; R8: the seat's unseen cards are the other
hand).

Every play decision of the two-seat endgames of seeded Arena games and of the nine
Brettspielwelt games is checked against the independent plain minimax of
:mod:`tests.support.endgames` (positions of at most :data:`~tests.support.endgames.SMALL`
cards): the agents' play reaches the position's exact value.
"""

from __future__ import annotations

import pickle
import time
from pathlib import Path

from tests.support.endgames import SMALL, arena_points, bsw_points, cards_left, minimax
from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.heuristic_policy import V1
from tichu.agents.mc_agent import MonteCarloAgent
from tichu.agents.support.endgame import EndgameSolver, Solution
from tichu.agents.support.exact import endgame_world
from tichu.analysis import DecisionPoint
from tichu.core.combos import Play
from tichu.core.flow import GameState
from tichu.core.round import Decision


def play_value(state: GameState, seat: int, play: Play) -> int:
    """The plain minimax's value after ``seat`` makes ``play`` at its turn."""
    after = state.clone()
    after.apply_play(play)
    return minimax(after, seat)


def solved_plays() -> list[DecisionPoint]:
    """The play decisions of the Arena games whose world the seat knows."""
    return [point for point in arena_points() if point.kind == "play" and endgame_world(point.view, Decision.PLAY)]


def small_plays(points: tuple[DecisionPoint, ...]) -> list[DecisionPoint]:
    """The play decisions of at most :data:`SMALL` cards with more than one legal play."""
    return [point for point in points if point.kind == "play" and cards_left(point) <= SMALL
            and point.state is not None and len(point.state.legal_plays()) > 1]


def check_agents(points: list[DecisionPoint]) -> tuple[int, int]:
    """Each agent's play at each point reaches the exact value; the count of points where the
    world was known and of those where the heuristic's first-ranked play was worse."""
    known = worse = 0
    for point in points:
        state = point.state
        assert state is not None
        if endgame_world(point.view, Decision.PLAY) is None:
            continue
        legal = state.legal_plays()
        best = max(play_value(state, point.seat, play) for play in legal)
        for agent in (HeuristicAgent(seed=1), MonteCarloAgent(seed=1, budget=None, max_samples=2)):
            assert play_value(state, point.seat, agent.decide_play(point.view, legal)) == best, (point, agent)
        first = HeuristicAgent(seed=1).rank_plays(point.view, legal)[0][0]
        worse += play_value(state, point.seat, first) < best
        known += 1
    return known, worse


def test_the_levels_play_arena_endgames_exactly_R8() -> None:
    known, _ = check_agents(small_plays(arena_points()))
    assert known >= 10


def test_the_levels_play_brettspielwelt_endgames_exactly_R8(shared_dir: Path) -> None:
    known, worse = check_agents(small_plays(bsw_points(str(shared_dir / "data" / "bsw"))))
    assert known >= 60
    assert worse >= 1  # the heuristic's own ranking errs there: the solve makes a difference


def test_the_world_is_the_true_endgame_R8() -> None:
    """The one world the seat's view allows is the state it is in: the same hands, trick and
    decision (the unseen cards are the other hand), built by the core (:mod:`tichu.core.worlds`)."""
    checked = 0
    for point in arena_points():
        world = endgame_world(point.view, Decision.PLAY) if point.kind == "play" else None
        if world is None:
            continue
        state = point.state
        assert state is not None and state.round is not None and world.round is not None
        assert world.round.hands == state.round.hands
        assert world.round.trick_turns == state.round.trick_turns
        assert (world.decision, world.decision_seat) == (state.decision, state.decision_seat)
        assert world.legal_plays() == state.legal_plays()
        checked += 1
    assert checked >= 20


def test_no_world_where_more_than_two_seats_hold_cards_R8() -> None:
    """Three hands with cards: the seat does not know how the unseen cards lie."""
    from tests.analysis.games import heuristic_record
    from tichu.analysis import decision_points
    points = [point for point in decision_points(heuristic_record(5, 500)) if point.kind == "play"]
    crowded = [point for point in points if sum(1 for count in point.view.public_state().count_hand_cards if count) > 2]
    assert crowded and all(endgame_world(point.view, Decision.PLAY) is None for point in crowded)


def test_a_solve_gives_up_at_its_deadline() -> None:
    """A deadline already past ends the solve as an exhausted node budget does, after at most
    1,024 nodes: not exact, and the agent decides as without."""
    point = max(solved_plays(), key=cards_left)
    world = endgame_world(point.view, Decision.PLAY)
    assert world is not None
    assert EndgameSolver(10**9).solve(world, point.seat).nodes > 1_024
    late = EndgameSolver(10**9).solve(world, point.seat, deadline=time.monotonic() - 1)
    assert not late.exact and late.nodes <= 1_025


def test_the_first_heuristic_does_not_solve() -> None:
    """``heuristic:v1`` (and the expert's v1) decide as they did: their golden decisions hold."""
    assert V1.exact_nodes == 0
    agent = HeuristicAgent(weights=V1)
    point = solved_plays()[0]
    assert point.state is not None
    assert agent.exact_play(point.view, point.state.legal_plays(), []) is None


def test_an_agent_travels_without_its_solvers_table() -> None:
    """A server sends the agent to a worker and back at every decision
    (:mod:`tichu.server.workers.agent_pool`): the solver's table, a cache of up to
    :data:`~tichu.agents.support.exact.AGENT_TABLE_LIMIT` entries, stays behind."""
    agent = MonteCarloAgent(seed=1, budget=None, max_samples=2)
    point = max(solved_plays(), key=cards_left)
    assert point.state is not None
    empty = len(pickle.dumps(agent))
    agent.decide_play(point.view, point.state.legal_plays())
    assert agent._solver.table_size > 0
    copy = pickle.loads(pickle.dumps(agent))
    assert copy._solver.table_size == 0 and copy._solver.nodes == agent._solver.nodes
    assert len(pickle.dumps(agent._solver)) < 200
    assert len(pickle.dumps(agent)) <= empty + 2_000  # the random state and the last search's figures


class CountingSolver(EndgameSolver):
    """A solver that notes whether each of its solves was exact."""

    def __init__(self, max_nodes: int) -> None:
        super().__init__(max_nodes)
        self.solves: list[bool] = []

    def solve(self, state: GameState, seat: int, deadline: float | None = None) -> Solution:
        solution = super().solve(state, seat, deadline)
        self.solves.append(solution.exact)
        return solution


def test_the_expert_solves_a_wish_or_a_dragon_gift_once_R8(shared_dir: Path) -> None:
    """The expert's candidates of a wish or a Dragon gift are the policy's answers, not the
    strong level's decision: a solve that gives up (one node) is tried once per decision, and
    the search decides (an Arena's agent has no ``asked_at``)."""
    decisions = {"wish": Decision.WISH, "dragon": Decision.DRAGON}
    points = [point for point in bsw_points(str(shared_dir / "data" / "bsw"))
              if point.kind in decisions and endgame_world(point.view, decisions[point.kind]) is not None]
    assert {point.kind for point in points} == {"wish", "dragon"}
    for point in points:
        state = point.state
        assert state is not None and state.round is not None
        agent = MonteCarloAgent(seed=1, budget=None, max_samples=4)
        solver = agent._solver = CountingSolver(1)
        if point.kind == "wish":
            agent.decide_wish(point.view, state.round.wish_choices())
        else:
            agent.decide_dragon(point.view, state.round.dragon_recipients())
        assert solver.solves == [False], (point.kind, solver.solves)
