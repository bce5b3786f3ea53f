"""The policy agent: a policy for the environment plays in the Arena and at a server's seat
through the registry (``policy:package.module:factory``), sees only its seat's view (R8), and a
policy that breaks its mask is a clear error."""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Sequence

import numpy as np
import pytest

from tests.support.extras import require

require("numpy", "learn")

from tests.agents.test_agent_r8 import PHASE_NAMES, Point, Table, _record_games, _select, r8_violations  # noqa: E402
from tichu.agents.learning.observation import SIZE, Question, observe  # noqa: E402
from tichu.agents.learning.policy_agent import PolicyAgent, PolicyError, load_policy, random_policy  # noqa: E402
from tichu.agents.registry import make_agent  # noqa: E402
from tichu.arena.arena import Arena  # noqa: E402
from tichu.core.views import SeatView  # noqa: E402

HASH = "policy:tests.learn.policies:observation_hash_policy"
RANDOM = "policy:tichu.agents.learning.policy_agent:random_policy"


@pytest.fixture(scope="module")
def points() -> list[Point]:
    """Every decision point of the R8 test's seeded games."""
    return _record_games()


def test_r8_a_policy_sees_nothing_hidden_from_its_seat(points: Sequence[Point]) -> None:
    """R8 for the observation: with the hidden cards dealt anew, a policy that chooses by a
    checksum of its whole observation chooses the same at every kind of decision."""
    chosen = _select(points, {"grand": 40, "schupf": 40, "play": 300, "wish": 30, "dragon": 30,
                              "tichu": 100, "bomb": 50}, seed=5, wishes=True)
    assert len(chosen) >= 500
    assert r8_violations(lambda: make_agent(HASH, seed=1), chosen, seed=6) == []


def test_a_policy_plays_whole_games_in_the_arena_on_two_workers() -> None:
    report = Arena([RANDOM, "random", RANDOM, "random"], games=4, seed=8, workers=2, target_score=300,
                   records=True).run()
    assert report.games == 4 and report.rounds > 0


def test_a_policy_agent_pickles_without_its_policy_and_loads_it_again() -> None:
    agent = make_agent(RANDOM, seed=3)
    assert isinstance(agent, PolicyAgent) and agent.kind == "agent:policy"
    copy = pickle.loads(pickle.dumps(agent))
    assert isinstance(copy, PolicyAgent) and copy._policy is None and copy.path == agent.path
    assert callable(copy.policy)


def test_a_policy_that_breaks_its_mask_is_a_clear_error() -> None:
    agent = make_agent("policy:tests.learn.policies:forbidden_policy")
    with pytest.raises(PolicyError, match="does not allow"):
        Arena(["policy:tests.learn.policies:forbidden_policy", "random", "random", "random"], games=1,
              workers=1, target_score=200).run()
    assert isinstance(agent, PolicyAgent)


def test_unknown_factories_are_refused() -> None:
    for path in ("no.such.module:policy", "tichu.agents.learning.policy_agent:nothing", "nocolon"):
        with pytest.raises(ValueError, match="no policy factory"):
            load_policy(path)
    with pytest.raises(ValueError):
        Arena(["policy:no.such:thing", "random", "random", "random"])


def test_an_observation_is_bounded_and_marks_the_question(points: Sequence[Point]) -> None:
    point = next(found for found in points if found.kind == "play")
    info = dataclasses.replace(point.info, phase=PHASE_NAMES[point.round.phase])
    view = SeatView.of(Table(info, point.round), point.seat)
    vector = observe(view, Question.PLAY)
    assert vector.shape == (SIZE,) and vector.dtype == np.float32
    assert vector.min() >= -2 and vector.max() <= 2
    assert vector[269 + Question.PLAY] == 1 and vector[269:277].sum() == 1
    assert vector[:56].sum() == point.round.hands[point.seat].bit_count()
    given, received = point.round.given[point.seat], point.round.received(point.seat)
    assert given is not None and received is not None
    for block, cards in enumerate((*given, *received)):  # R2.3: to / from seats 1, 2, 3
        start = 284 + 56 * block
        assert [int(index) for index in np.flatnonzero(vector[start:start + 56])] == [cards.bit_length() - 1]



def test_the_random_policy_picks_allowed_actions_but_never_calls() -> None:
    """A baseline: uniform over what the mask allows, except the call (R6, games must end)."""
    policy = random_policy(1)
    mask = np.zeros(737, dtype=np.int8)
    mask[[0, 1]] = 1
    assert {policy(np.zeros(SIZE, dtype=np.float32), mask) for _ in range(50)} == {0}
    mask[[80, 90]] = 1
    assert {policy(np.zeros(SIZE, dtype=np.float32), mask) for _ in range(200)} == {0, 80, 90}
