"""A PettingZoo AEC environment of Tichu, driven by the same :class:`~tichu.engine.engine.GameEngine`
as the server and the Arena (``pip install tichu[learn]``; docs/learning.md).

The engine runs on an event loop in a daemon thread shared by all environments (so an
environment works from any thread, also inside a running event loop such as a notebook's)
and asks its players as at any table; the seats of the learning agents (``seat_0`` ..
``seat_3``, those named in ``learners``) answer :class:`~tichu.engine.player.Later`, and the
environment hands each question to its agent as one step: Grand Tichu (R2.1), the push as
three cards (R2.3), each play with the pass (R4.1), the Tichu call (R6.1) and the bomb out
of turn (R4.3) wherever the engine offers them, the wish (R5.1) and the Dragon gift (R4.5).
The other seats are our agents (``opponents``, a registry name). Questions asked at once
(Grand Tichu, the push) are handed out in seat order.

- Observation: ``float32[620]`` from the seat's frozen :class:`~tichu.engine.views.SeatView`
  only (R8, :mod:`tichu.agents.learning.observation`).
- Legal-action mask: ``infos[agent]["action_mask"]``, ``int8[737]``, allowing the actions of
  the selected agent's question (:mod:`tichu.agents.learning.actions`); all 0 for the others,
  also for an agent whose question waits its turn (Grand Tichu, the push).
- Action: an index of the catalogue; an action the mask does not allow is refused with a
  :class:`ValueError` and changes nothing.
- Reward: at the end of each round, every learning seat gets its team's points minus the
  other team's for that round (R7.3), so an episode's rewards add up to the game's score
  difference. An episode is one game, to ``target_score`` (R7.4), or truncated after
  ``max_rounds`` rounds (a game of random calls may never reach the target).
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import random
import threading
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from tichu.agents.agent import AgentPlayer
from tichu.agents.learning import actions
from tichu.agents.learning.actions import Choice
from tichu.agents.learning.observation import SIZE as OBSERVATION_SIZE
from tichu.agents.learning.observation import Question, observe
from tichu.agents.registry import make_agent
from tichu.core.combos import Play
from tichu.core.ruleset import RuleSet
from tichu.core.seats import team_of
from tichu.engine.engine import GameEngine
from tichu.engine.player import Later, Player
from tichu.engine.views import SeatView

Observation = npt.NDArray[np.float32]

_LOOP_LOCK = threading.Lock()
_LOOP: asyncio.AbstractEventLoop | None = None


def _engine_loop() -> asyncio.AbstractEventLoop:
    """The event loop every environment's engine runs on, in a daemon thread of its own: an
    environment then works from any thread, also one that runs an event loop itself (a
    Jupyter notebook, an async trainer), and all of them share one loop and thread."""
    global _LOOP
    with _LOOP_LOCK:
        if _LOOP is None:
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="tichu-env-engines", daemon=True)
            thread.start()
            atexit.register(_shut_down, loop, thread)
            _LOOP = loop
        return _LOOP


def _shut_down(loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    """At exit: cancel the engines still waiting (environments not closed), stop the loop."""

    async def cancel_all() -> None:
        pending = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    asyncio.run_coroutine_threadsafe(cancel_all(), loop).result(timeout=10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=10)
    loop.close()


def _answer(future: asyncio.Future[Any], value: object) -> None:
    """Give the engine its answer (in the loop's thread; an engine cancelled meanwhile wants none)."""
    if not future.done():
        future.set_result(value)


@dataclass
class _Question:
    """An open question of a learning seat.

    :ivar pushed: For the push, the cards chosen so far, in order.
    """

    seat: int
    view: SeatView
    choice: Choice
    answer: asyncio.Future[Any]
    pushed: list[int] = field(default_factory=list)


class _Episode:
    """One game's engine on the shared loop, and the questions it asked the learning seats.

    The engine runs only while no question is open. Its questions are published once it
    waits for their answers (a callback after its current step, which may ask several seats
    at once), so the environment reads them only while the engine stands still. A stopped
    episode's engine is cancelled; a question it still asks goes nowhere.

    :ivar questions: The open questions, in the order asked.
    :ivar game: The engine's game, running on the loop.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._changed = threading.Condition()
        self._published = False
        self.questions: list[_Question] = []
        self.game: concurrent.futures.Future[Any] = concurrent.futures.Future()

    def start(self, engine: GameEngine) -> None:
        """Start the engine's game on the loop."""
        self.game = asyncio.run_coroutine_threadsafe(engine.run(), self._loop)
        self.game.add_done_callback(self._notify)

    def ask(self, seat: int, view: SeatView, choice: Choice) -> Awaitable[Any]:
        """Queue a question (in the loop's thread); the engine awaits the answer."""
        answer: asyncio.Future[Any] = self._loop.create_future()
        with self._changed:
            self.questions.append(_Question(seat, view, choice, answer))
        self._loop.call_soon(self._publish)
        return answer

    def _publish(self) -> None:
        with self._changed:
            self._published = True
            self._changed.notify_all()

    def _notify(self, _: object) -> None:
        with self._changed:
            self._changed.notify_all()

    def wait(self) -> None:
        """Wait until the engine asks a learning seat something or the game is over.

        :raises Exception: What the engine raised, if it failed.
        """
        with self._changed:
            self._changed.wait_for(lambda: (self._published and bool(self.questions)) or self.game.done())
        if self.game.done() and not self.questions:
            self.game.result()

    def answer(self, value: object) -> None:
        """Answer the first open question; the engine goes on once every open one is answered."""
        with self._changed:
            question = self.questions.pop(0)
            if not self.questions:
                self._published = False
        self._loop.call_soon_threadsafe(_answer, question.answer, value)

    def stop(self) -> None:
        """Cancel the engine (from any thread)."""
        self.game.cancel()


class _LearnerSeat(Player):
    """A learning agent's seat: every question becomes a step of the environment."""

    kind = "agent:learner"
    listens = False

    def __init__(self, episode: _Episode, seat: int) -> None:
        super().__init__(f"seat_{seat}")
        self._episode = episode
        self._seat = seat

    def _later(self, view: SeatView, choice: Choice) -> Later[Any]:
        return Later(self._episode.ask(self._seat, view, choice))

    def grand_tichu(self, view: SeatView) -> Later[bool]:
        return self._later(view, actions.grand_tichu_choice())

    def schupf(self, view: SeatView) -> Later[tuple[int, int, int]]:
        return self._later(view, actions.push_choice(view.hand, 0))

    def play(self, view: SeatView, legal: Sequence[Play]) -> Later[Play]:
        return self._later(view, actions.play_choice(legal, view.hand))

    def wish(self, view: SeatView, choices: Sequence[int]) -> Later[int]:
        return self._later(view, actions.wish_choice(choices))

    def give_dragon(self, view: SeatView, recipients: Sequence[int]) -> Later[int]:
        return self._later(view, actions.dragon_choice(self._seat, recipients))

    def offer_tichu(self, view: SeatView) -> Later[bool]:
        return self._later(view, actions.tichu_choice())

    def offer_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Later[Play | None]:
        return self._later(view, actions.bomb_choice(bombs, view.hand))


class TichuEnv(AECEnv[str, Observation, int]):
    """Tichu for learning agents, one game per episode.

    :param learners: The seats the environment's agents play (the others: ``opponents``).
    :param opponents: The registry name of the agent in the other seats.
    :param target_score: The score a game is played to (R7.4).
    :param max_rounds: Truncate the episode after this many rounds (``None``: never).
    :param render_mode: ``"ansi"`` renders the table as text, or ``None``.
    """

    metadata = {"name": "tichu_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, learners: Sequence[int] = (0, 1, 2, 3), opponents: str = "heuristic", *,
                 target_score: int = 1000, max_rounds: int | None = 50, render_mode: str | None = None) -> None:
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
        observation_space = spaces.Box(-2.0, 2.0, (OBSERVATION_SIZE,), np.float32)
        action_space = spaces.Discrete(actions.SIZE)
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: action_space for agent in self.possible_agents}
        self._loop = _engine_loop()
        self._episode: _Episode | None = None
        self.engine: GameEngine | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the engine ---------------------------------------------------------------------------

    @property
    def _questions(self) -> list[_Question]:
        return self._episode.questions if self._episode is not None else []

    def _stop(self) -> None:
        """Cancel the engine of an episode not played to its end (from any thread)."""
        episode, self._episode = self._episode, None
        if episode is not None:
            episode.stop()

    # -- PettingZoo -----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (its deals and the opponents' choices seeded by ``seed``)."""
        self._stop()
        rng = random.Random(seed)
        episode = _Episode(self._loop)
        players: list[Player] = []
        for seat in range(4):
            if seat in self.learners:
                players.append(_LearnerSeat(episode, seat))
            else:
                agent = make_agent(self.opponents, name=f"{self.opponents}-{seat}", seed=rng.getrandbits(63))
                players.append(AgentPlayer(agent))
        self.engine = GameEngine(players, RuleSet(target_score=self.target_score, seed=rng.getrandbits(63)))
        self._booked = 0
        self._episode = episode
        episode.start(self.engine)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        episode.wait()
        self._select()

    def _select(self) -> None:
        """Select the agent of the first open question, and give every agent its mask."""
        if self._questions:
            self.agent_selection = f"seat_{self._questions[0].seat}"
        elif self.agents:
            self.agent_selection = self.agents[0]
        for name in self.agents:
            self.infos[name]["action_mask"] = self._mask(name)

    def _mask(self, agent: str) -> npt.NDArray[np.int8]:
        question = self._questions[0] if self._questions else None
        if question is None or f"seat_{question.seat}" != agent:
            return np.zeros(actions.SIZE, dtype=np.int8)
        return question.choice.mask()

    def observe(self, agent: str) -> Observation:
        """The agent's observation: at its open question's view, or of its view now."""
        seat = int(agent.removeprefix("seat_"))
        question = next((found for found in self._questions if found.seat == seat), None)
        if question is None:
            assert self.engine is not None
            return observe(SeatView.of(self.engine, seat))
        return observe(question.view, question.choice.question, sum(question.pushed))

    def step(self, action: int | None) -> None:
        """Answer the selected agent's question with ``action``.

        :raises ValueError: For an action its mask does not allow (nothing changes then).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        question = self._questions[0]
        if action is None or int(action) not in question.choice.answers:
            raise ValueError(f"action {action} is not allowed for {agent} now "
                             f"(allowed: {sorted(question.choice.answers)})")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        answer = question.choice.answers[int(action)]
        if question.choice.question == Question.PUSH:
            assert isinstance(answer, int)
            question.pushed.append(answer)
            if len(question.pushed) < 3:
                question.choice = actions.push_choice(question.view.hand, sum(question.pushed))
                self._accumulate_rewards()
                self._select()
                return
            answer = tuple(question.pushed)
        episode = self._episode
        assert episode is not None and self.engine is not None
        episode.answer(answer)
        episode.wait()
        self._book_rounds()
        ended = episode.game.done()
        truncated = not ended and self.max_rounds is not None and self._booked >= self.max_rounds
        if ended or truncated:
            self._stop()
            total = self.engine.game.total
            for name in self.agents:
                team = team_of(int(name.removeprefix("seat_")))
                self.terminations[name] = ended
                self.truncations[name] = truncated
                self.infos[name] = {"score": (total[team], total[1 - team])}
        self._accumulate_rewards()
        self._select()

    def _book_rounds(self) -> None:
        """Reward the learning seats for each round finished since the last step (R7.3)."""
        assert self.engine is not None
        results = self.engine.game.results
        for result in results[self._booked:]:
            for name in self.agents:
                team = team_of(int(name.removeprefix("seat_")))
                self.rewards[name] += float(result.points[team] - result.points[1 - team])
        self._booked = len(results)

    def answer_of(self, action: int) -> object:
        """What the engine would be answered for the selected agent's ``action`` (a bool, a
        card mask, a play or ``None``, a wished value, a seat), without answering.

        :raises ValueError: For an action its mask does not allow.
        """
        question = self._questions[0] if self._questions else None
        if question is None or action not in question.choice.answers:
            raise ValueError(f"action {action} is not allowed for {self.agent_selection} now")
        return question.choice.answers[action]

    def question(self) -> Question:
        """What the selected agent is asked (``NONE`` once the episode is over)."""
        return self._questions[0].choice.question if self._questions else Question.NONE

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``): scores, the trick, the hands' sizes."""
        if self.render_mode != "ansi" or self.engine is None:
            return None
        round_ = self.engine.round
        total = self.engine.game.total
        lines = [f"score {total[0]} : {total[1]}, round {len(self.engine.game.results) + 1}"]
        if round_ is not None:
            lines.append(f"hands {[hand.bit_count() for hand in round_.hands]}, trick {round_.trick}, "
                         f"turn {round_.turn}")
        return "\n".join(lines)

    def close(self) -> None:
        """Stop the engine of an episode not played to its end."""
        self._stop()

    def __del__(self) -> None:
        if getattr(self, "_episode", None) is not None:
            self._stop()  # an episode left half-played: cancel its engine before its loop goes
