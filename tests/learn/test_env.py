"""The PettingZoo environment: PettingZoo's own API test (of the raw environment and of the
wrapped one), 200 episodes of random masked actions (every action a mask allows is legal in the
rules, every episode ends with the game's score), refusals that change nothing, and the seats
our agents play."""

from __future__ import annotations

import logging
import random
import threading
from typing import Any

import numpy as np
import pytest

from tests.support.extras import require
from tichu.core.round import Round

require("pettingzoo", "learn")

from pettingzoo.test import api_test  # noqa: E402

from tichu.agents.learning import actions  # noqa: E402
from tichu.agents.learning.observation import Question  # noqa: E402
from tichu.learn.bounds import ROUND_SWING  # noqa: E402
from tichu.learn.env import TichuEnv, env, illegal_reward, raw_env  # noqa: E402

#: PettingZoo's api_test warns of a dict observation (and its space) except for its own classic
#: games, which it names: their observation is the same dict of "observation" and "action_mask".
DICT_OBSERVATION = ["ignore:Observation space for each agent probably should be:UserWarning",
                    "ignore:Observation is not a NumPy array:UserWarning"]


@pytest.mark.filterwarnings(*DICT_OBSERVATION)
def test_pettingzoo_api_test_passes_with_four_learners_and_with_two() -> None:
    api_test(TichuEnv(target_score=300, max_rounds=4), num_cycles=3000)
    api_test(TichuEnv(learners=(1, 3), opponents="rule", target_score=300, max_rounds=4), num_cycles=1000)


@pytest.mark.filterwarnings(*DICT_OBSERVATION)
def test_env_is_wrapped_as_pettingzoos_classic_games_and_raw_env_is_not(caplog: pytest.LogCaptureFixture) -> None:
    """PettingZoo's convention: a module-level ``env()`` with the classic games' wrappers (an
    illegal action ends the game for its agent) and ``raw_env`` unwrapped."""
    wrapped = env(target_score=300, max_rounds=2)
    api_test(wrapped, num_cycles=500)
    assert raw_env is TichuEnv and isinstance(wrapped.unwrapped, TichuEnv)


def test_an_illegal_action_through_env_costs_the_worst_result_of_the_game(caplog: pytest.LogCaptureFixture) -> None:
    """Issue 34, finding "PettingZoo": an illegal action through ``env()`` cost -1 where a round
    is worth hundreds of points, so a losing learner escaped cheaply. It now ends the game with the
    worst result the game's rounds allow for its agent (every round lost by a round's largest
    swing), worse than any legal continuation from any point; the other agents get 0, as
    PettingZoo's ``TerminateIllegalWrapper`` gives them. Here the learner first plays on legally
    into the second round."""
    wrapped = env(target_score=1000, max_rounds=3)
    wrapped.reset(seed=1)
    while wrapped.unwrapped.state.game.results == []:
        agent = wrapped.agent_selection
        wrapped.step(int(np.flatnonzero(wrapped.observe(agent)["action_mask"])[0]))
    agent = wrapped.agent_selection
    forbidden = int(np.flatnonzero(wrapped.observe(agent)["action_mask"] == 0)[0])
    with caplog.at_level(logging.WARNING):
        wrapped.step(forbidden)
    assert "Illegal move" in caplog.text
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[agent] == illegal_reward(3) == -3 * ROUND_SWING == -2400
    assert all(reward == 0 for name, reward in wrapped.rewards.items() if name != agent)
    rounds_left = 3 - len(wrapped.unwrapped.state.game.results)
    assert wrapped.rewards[agent] < -rounds_left * ROUND_SWING


def test_env_needs_a_last_round_for_its_penalty() -> None:
    """Without ``max_rounds`` no result is the worst: ``env()`` refuses it by name, ``raw_env``
    (no penalty) plays on without a bound."""
    with pytest.raises(ValueError, match="env\\(\\) needs max_rounds"):
        env(max_rounds=None)
    with pytest.raises(ValueError, match="at least one round"):
        env(max_rounds=0)
    assert TichuEnv(max_rounds=None).max_rounds is None


def test_the_action_mask_is_in_the_observation_as_in_pettingzoos_classic_games() -> None:
    """Issue 34, finding "PettingZoo": the observation is the classic games' dict of
    ``observation`` and ``action_mask``; the mask is the one in the agent's info, all 0 for an
    agent not asked."""
    environment = TichuEnv(learners=(0, 1, 2, 3), opponents="random", target_score=300, max_rounds=1)
    environment.reset(seed=6)
    checked = 0
    for agent in environment.agent_iter():
        observation, _, terminated, truncation, info = environment.last()
        assert set(observation) == {"observation", "action_mask"}
        assert environment.observation_space(agent).contains(observation)
        for name in environment.agents:
            mask = environment.observe(name)["action_mask"]
            assert mask.dtype == np.int8 and np.array_equal(mask, environment.infos[name]["action_mask"])
            assert (name == agent and not terminated) or not mask.any()
        checked += 1
        environment.step(None if terminated or truncation else int(np.flatnonzero(info["action_mask"])[-1]))
    assert checked > 50


def _is_legal(round_: Round, seat: int, question: Question, answer: Any, pushed: int) -> bool:
    """Whether the rules allow ``answer`` to ``question`` of ``seat`` now (asked of the round
    itself, not of the environment's mapping)."""
    if question == Question.GRAND_TICHU:
        return answer is False or (answer is True and not round_.grand_decided[seat])
    if question == Question.TICHU:
        return answer is False or (answer is True and round_.can_announce(seat))
    if question == Question.PUSH:
        return isinstance(answer, int) and answer.bit_count() == 1 and bool(answer & round_.hands[seat] & ~pushed)
    if question == Question.PLAY:
        return seat == round_.turn and answer in round_.legal_plays()
    if question == Question.BOMB:
        return answer is None or answer in round_.bombs_for(seat)
    if question == Question.WISH:
        return answer in round_.wish_choices()
    if question == Question.DRAGON:
        return answer in round_.dragon_recipients()
    return False


def test_200_episodes_of_random_masked_actions_are_legal_and_end_with_the_engines_score(
        caplog: pytest.LogCaptureFixture) -> None:
    """At every step every action the mask allows stands for an answer the rules allow (R2.1
    Grand Tichu, R2.3 push, R4.1 play, R4.3 bomb, R5.1 wish, R4.5 Dragon, R6.1 Tichu, each
    asked of the round itself); the engine never has to replace an answer; each episode's
    rewards add up to its score (R7.3)."""
    env = TichuEnv(target_score=500, max_rounds=3)
    rng = random.Random(2026)
    questions: set[Question] = set()
    ended = truncated = 0
    with caplog.at_level(logging.WARNING, logger="tichu"):
        for episode in range(200):
            env.reset(seed=episode)
            returns = dict.fromkeys(env.agents, 0.0)
            for agent in env.agent_iter():
                observation, reward, terminated, truncation, info = env.last()
                returns[agent] += reward
                if terminated or truncation:
                    env.step(None)
                    continue
                assert env.observation_space(agent).contains(observation)
                question = env.question()
                questions.add(question)
                allowed = np.flatnonzero(info["action_mask"])
                assert len(allowed) > 0
                assert env.state is not None and env.state.round is not None
                seat = int(agent.removeprefix("seat_"))
                pushed = sum(1 << int(index) for index in np.flatnonzero(observation["observation"][56:112]))
                for action in allowed:
                    answer = env.answer_of(int(action))
                    assert _is_legal(env.state.round, seat, question, answer, pushed), \
                        (question, actions.CATALOGUE[action], answer)
                env.step(int(allowed[rng.randrange(len(allowed))]))
            assert env.state is not None and env.state.game is not None
            game = env.state.game
            for agent, total in returns.items():
                team = int(agent.removeprefix("seat_")) % 2
                assert total == game.total[team] - game.total[1 - team], (episode, agent)
            ended += game.is_over
            truncated += not game.is_over
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert questions == set(Question) - {Question.NONE}, "every kind of question was asked"
    assert ended > 0 and truncated > 0


def test_an_action_the_mask_does_not_allow_is_refused_and_changes_nothing() -> None:
    env = TichuEnv(target_score=300)
    env.reset(seed=3)
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    mask = env.infos[agent]["action_mask"]
    forbidden = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not allowed"):
        env.step(forbidden)
    with pytest.raises(ValueError, match="not allowed"):
        env.answer_of(forbidden)
    assert env.agent_selection == agent
    assert np.array_equal(env.observe(agent)["observation"], before)
    assert np.array_equal(env.infos[agent]["action_mask"], mask)
    env.close()


def test_the_push_is_three_steps_of_the_same_seat_in_seat_order() -> None:
    """After Grand Tichu (asked of all four at once, handed out in seat order) each seat pushes
    three cards in three steps; the chosen cards show in its observation and leave its mask."""
    env = TichuEnv(target_score=300)
    env.reset(seed=5)
    order = []
    while env.question() == Question.GRAND_TICHU:
        order.append(env.agent_selection)
        env.step(actions.NO)
    assert order == ["seat_0", "seat_1", "seat_2", "seat_3"]
    assert env.question() == Question.PUSH and env.agent_selection == "seat_0"
    chosen = []
    for step in range(3):
        assert env.agent_selection == "seat_0"
        allowed = np.flatnonzero(env.infos["seat_0"]["action_mask"])
        assert len(allowed) == 14 - step
        observation = env.observe("seat_0")
        assert observation["observation"][56:112].sum() == step
        chosen.append(int(allowed[0]))
        env.step(int(allowed[0]))
    assert env.agent_selection == "seat_1"
    env.close()


def test_opponent_seats_are_played_by_our_agents_and_only_learners_are_agents() -> None:
    env = TichuEnv(learners=(2,), opponents="heuristic", target_score=200, max_rounds=2)
    env.reset(seed=1)
    assert env.agents == ["seat_2"]
    for _ in env.agent_iter():
        _, _, terminated, truncation, info = env.last()
        env.step(None if terminated or truncation else int(np.flatnonzero(info["action_mask"])[-1]))
    assert env.driver is not None
    assert [agent.kind if agent is not None else None for agent in env.driver.agents] == [
        "agent:heuristic", "agent:heuristic", None, "agent:heuristic"]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        TichuEnv(learners=())
    with pytest.raises(ValueError):
        TichuEnv(learners=(0, 4))
    with pytest.raises(ValueError):
        TichuEnv(opponents="nobody")
    with pytest.raises(ValueError):
        TichuEnv(render_mode="human")


def test_render_shows_the_score_and_the_table() -> None:
    env = TichuEnv(target_score=300, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None and text.startswith("score 0 : 0, round 1")
    assert TichuEnv().render() is None
    env.close()


def _episode_actions(env: TichuEnv, seed: int, steps: int | None = None) -> list[tuple[str, int]]:
    """Play ``seed``'s episode with the lowest allowed action (``steps`` steps, or to its end)."""
    env.reset(seed=seed)
    taken: list[tuple[str, int]] = []
    for agent in env.agent_iter():
        _, _, terminated, truncation, info = env.last()
        if terminated or truncation:
            env.step(None)
            continue
        if steps is not None and len(taken) == steps:
            break
        action = int(np.flatnonzero(info["action_mask"])[0])
        taken.append((agent, action))
        env.step(action)
    return taken


async def test_the_environment_works_inside_a_running_event_loop() -> None:
    """As in a notebook or an async trainer: a step steps the rules core, no event loop of its own."""
    env = TichuEnv(target_score=300, max_rounds=2)
    assert len(_episode_actions(env, 4)) > 100
    env.close()


def test_a_reset_in_the_middle_of_an_episode_starts_afresh() -> None:
    """Nothing of the episode left behind reaches the new one."""
    fresh = _episode_actions(TichuEnv(target_score=300, max_rounds=2), 7)
    env = TichuEnv(target_score=300, max_rounds=2)
    for steps in (1, 5, 13, 40):
        _episode_actions(env, 7, steps)
        assert _episode_actions(env, 7) == fresh


def test_environments_in_two_threads_play_as_they_would_alone() -> None:
    alone = [_episode_actions(TichuEnv(target_score=300, max_rounds=2), seed) for seed in (1, 2)]
    found: dict[int, list[tuple[str, int]]] = {}

    def play(seed: int) -> None:
        found[seed] = _episode_actions(TichuEnv(target_score=300, max_rounds=2), seed)

    threads = [threading.Thread(target=play, args=(seed,)) for seed in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert [found[1], found[2]] == alone
