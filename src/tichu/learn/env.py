"""A PettingZoo AEC environment of Tichu, stepping the rules core's game directly
(``pip install tichu[learn]``; docs/learning.md).

Each step applies the selected agent's action to the game's
:class:`~tichu.core.flow.GameState`, then lets our agents make the decisions of the other
seats (:class:`~tichu.agents.driver.AgentDriver`) until a learning seat must decide again:
no engine, no event loop, no thread. The learning agents (``seat_0`` .. ``seat_3``, those
named in ``learners``) are asked every decision of the game as the state offers it: Grand
Tichu (R2.1), the push as three cards (R2.3), each play with the pass (R4.1), the Tichu call
(R6.1) and the bomb out of turn (R4.3) wherever the game's flow offers them, the wish (R5.1)
and the Dragon gift (R4.5). Decisions that seats make at once (Grand Tichu, the push) come one
seat after another in seat order; the state shows no seat another's answer before its own.
The other seats are our agents (``opponents``, a registry name).

- Observation: as PettingZoo's classic games give it, a dict of ``"observation"``,
  ``float32[620]`` from the seat's frozen :class:`~tichu.core.views.SeatView` only (R8,
  :mod:`tichu.agents.learning.observation`), and ``"action_mask"``.
- Legal-action mask: ``int8[737]``, allowing the actions of the selected agent's decision
  (:mod:`tichu.agents.learning.actions`), all 0 for the others; in the observation and, the
  same, in ``infos[agent]["action_mask"]``.
- Action: an index of the catalogue; an action the mask does not allow is refused with a
  :class:`ValueError` and changes nothing (:func:`env` wraps the environment as PettingZoo's
  classic games are, so that an illegal action ends the game instead, at the worst result the
  game allows for its agent).
- Reward: at the end of each round, every learning seat gets its team's points minus the
  other team's for that round (R7.3), so an episode's rewards add up to the game's score
  difference. An episode is one game, to ``target_score`` (R7.4), or truncated after
  ``max_rounds`` rounds (a game of random calls may never reach the target).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tichu.agents.agent import Agent
from tichu.agents.driver import AgentDriver
from tichu.agents.learning import actions
from tichu.agents.learning.actions import Choice, apply_answer, choice_of
from tichu.agents.learning.observation import SIZE as OBSERVATION_SIZE
from tichu.agents.learning.observation import Question, observe
from tichu.agents.registry import make_agent
from tichu.core.flow import GameState
from tichu.core.ruleset import RuleSet
from tichu.core.seats import team_of
from tichu.learn.bounds import game_swing

Observation = dict[str, npt.NDArray[Any]]
#: Rounds before an episode is truncated, unless told otherwise (random calls can keep both teams
#: below the target forever).
MAX_ROUNDS = 50

class TichuEnv(AECEnv[str, Observation, int]):
    """Tichu for learning agents, one game per episode (PettingZoo's ``raw_env``).

    :param learners: The seats the environment's agents play (the others: ``opponents``).
    :param opponents: The registry name of the agent in the other seats.
    :param target_score: The score a game is played to (R7.4).
    :param max_rounds: Truncate the episode after this many rounds (``None``: never).
    :param render_mode: ``"ansi"`` renders the table as text, or ``None``.
    :ivar state: The game being played (``None`` before the first reset).
    :ivar driver: Our agents at the other seats.
    """

    metadata = {"name": "tichu_v1", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, learners: Sequence[int] = (0, 1, 2, 3), opponents: str = "heuristic", *,
                 target_score: int = 1000, max_rounds: int | None = MAX_ROUNDS, render_mode: str | None = None) -> None:
        super().__init__()
        if not learners or any(seat not in range(4) for seat in learners) or len(set(learners)) != len(learners):
            raise ValueError("learners are distinct seats 0..3, at least one")
        make_agent(opponents)  # fail early on an unknown name
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: use 'ansi' or None")
        self.learners = tuple(sorted(learners))
        self.opponents = opponents
        self.target_score = target_score
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in self.learners]
        observation_space = spaces.Dict({"observation": spaces.Box(-2.0, 2.0, (OBSERVATION_SIZE,), np.float32),
                                         "action_mask": spaces.Box(0, 1, (actions.SIZE,), np.int8)})
        action_space = spaces.Discrete(actions.SIZE)
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: action_space for agent in self.possible_agents}
        self.state: GameState | None = None
        self.driver: AgentDriver | None = None
        self._choice: Choice | None = None
        self._push: list[int] = []  # the cards chosen so far in the selected seat's push, in order
        self._masks: dict[str, npt.NDArray[np.int8]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- PettingZoo -----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (its deals and the opponents' choices seeded by ``seed``)."""
        rng = random.Random(seed)
        seats: list[Agent | None] = []
        for seat in range(4):
            if seat in self.learners:
                seats.append(None)
            else:
                seats.append(make_agent(self.opponents, name=f"{self.opponents}-{seat}", seed=rng.getrandbits(63)))
        self.state = GameState(RuleSet(target_score=self.target_score), seed=rng.getrandbits(63))
        self.driver = AgentDriver(self.state, seats)
        self.driver.info.player_names = [f"seat_{seat}" if agent is None else agent.name
                                         for seat, agent in enumerate(seats)]
        self._booked = 0
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._push = []
        self._advance()

    def _advance(self) -> None:
        """Let our agents decide until a learning seat must, then select it (or end the episode)."""
        driver, state = self.driver, self.state
        assert driver is not None and state is not None
        driver.advance()
        self._book_rounds()
        game = state.game
        assert game is not None
        ended = state.is_over
        truncated = not ended and self.max_rounds is not None and self._booked >= self.max_rounds
        if ended or truncated:
            self._choice = None
            total = game.total
            for name in self.agents:
                team = team_of(int(name.removeprefix("seat_")))
                self.terminations[name] = ended
                self.truncations[name] = truncated
                self.infos[name] = {"score": (total[team], total[1 - team])}
        else:
            self._choice = choice_of(state)
            self.agent_selection = f"seat_{state.decision_seat}"
        self._select()

    def _select(self) -> None:
        """Give every agent its mask (all 0 but the selected agent's), in its info and its
        observation alike."""
        if self._choice is None and self.agents:
            self.agent_selection = self.agents[0]
        for name in self.agents:
            self._masks[name] = self.infos[name]["action_mask"] = self._mask(name)

    def _mask(self, agent: str) -> npt.NDArray[np.int8]:
        if self._choice is None or agent != self.agent_selection:
            return actions.NO_ACTIONS
        return self._choice.mask()

    def observe(self, agent: str) -> Observation:
        """The agent's observation: of its seat's view now, with its question if it is asked,
        and its action mask (PettingZoo's classic games' ``{"observation", "action_mask"}``)."""
        assert self.driver is not None
        seat = int(agent.removeprefix("seat_"))
        asked = self._choice is not None and agent == self.agent_selection
        question = self._choice.question if asked and self._choice is not None else Question.NONE
        return {"observation": observe(self.driver.view(seat), question, sum(self._push) if asked else 0),
                "action_mask": self._masks[agent]}

    def step(self, action: int | None) -> None:
        """Answer the selected agent's question with ``action``.

        :raises ValueError: For an action its mask does not allow (nothing changes then).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        choice = self._choice
        if choice is None or action is None or int(action) not in choice.answers:
            allowed = sorted(choice.answers) if choice is not None else []
            raise ValueError(f"action {action} is not allowed for {agent} now (allowed: {allowed})")
        state = self.state
        assert state is not None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        answer = choice.answers[int(action)]
        seat = int(agent.removeprefix("seat_"))
        if choice.question == Question.PUSH:
            assert isinstance(answer, int)
            self._push.append(answer)
            if len(self._push) < 3:
                self._choice = choice_of(state, sum(self._push))
                self._accumulate_rewards()
                self._select()
                return
            answer, self._push = tuple(self._push), []
        apply_answer(state, choice.question, seat, answer)
        self._advance()
        self._accumulate_rewards()

    def _book_rounds(self) -> None:
        """Reward the learning seats for each round finished since the last step (R7.3)."""
        assert self.state is not None and self.state.game is not None
        results = self.state.game.results
        for result in results[self._booked:]:
            for name in self.agents:
                team = team_of(int(name.removeprefix("seat_")))
                self.rewards[name] += float(result.points[team] - result.points[1 - team])
        self._booked = len(results)

    def answer_of(self, action: int) -> object:
        """What the selected agent's ``action`` stands for (a bool, a card mask, a play or
        ``None``, a wished value, a seat), without answering.

        :raises ValueError: For an action its mask does not allow.
        """
        if self._choice is None or action not in self._choice.answers:
            raise ValueError(f"action {action} is not allowed for {self.agent_selection} now")
        return self._choice.answers[action]

    def question(self) -> Question:
        """What the selected agent is asked (``NONE`` once the episode is over)."""
        return self._choice.question if self._choice is not None else Question.NONE

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``): scores, the trick, the hands' sizes."""
        if self.render_mode != "ansi" or self.state is None or self.state.game is None:
            return None
        round_ = self.state.round
        total = self.state.game.total
        lines = [f"score {total[0]} : {total[1]}, round {len(self.state.game.results) + 1}"]
        if round_ is not None:
            lines.append(f"hands {[hand.bit_count() for hand in round_.hands]}, trick {round_.trick}, "
                         f"turn {round_.turn}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing runs beside a step: closing only forgets the game."""
        self.state = None
        self.driver = None
        self._choice = None


#: PettingZoo's name for the unwrapped environment.
raw_env = TichuEnv


def illegal_reward(max_rounds: int) -> float:
    """The reward of an action outside the mask through :func:`env`: the worst result a game of
    ``max_rounds`` rounds allows, so that no legal continuation, however badly a round goes, is
    worse than it (the classic games' -1 is a loss there because their rewards are ±1; here a
    round is worth hundreds of points, and a losing learner would escape cheaply).

    :raises ValueError: For fewer than one round.
    """
    return -float(game_swing(max_rounds))


def env(**kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's classic games are: an illegal action ends the
    game, its agent receiving :func:`illegal_reward` (the others 0, as PettingZoo's
    ``TerminateIllegalWrapper`` gives them), actions outside the space are refused, and the
    order of reset, step and observe is enforced.

    :raises ValueError: For ``max_rounds=None``: without a last round no result is the worst.
    """
    max_rounds = kwargs.get("max_rounds", MAX_ROUNDS)
    if max_rounds is None:
        raise ValueError("env() needs max_rounds: the illegal action's penalty is the worst result of the game's "
                         "rounds (raw_env plays without a bound)")
    environment: Any = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=illegal_reward(max_rounds))
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)
