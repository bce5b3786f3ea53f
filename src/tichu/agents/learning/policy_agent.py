"""An agent that plays a policy over the action catalogue: any policy for the PettingZoo
environment (the observation and the legal-action mask in, an action index out) sits at a
table this way, in the Arena and at the server, where the engine asks it like any agent.

The push (R2.3) is asked as three actions, to the right opponent, the partner and the left
opponent, each observation showing the cards chosen so far: the same as in the environment.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from tichu.agents.agent import Agent
from tichu.agents.learning.actions import (
    CALL,
    Choice,
    bomb_choice,
    dragon_choice,
    grand_tichu_choice,
    play_choice,
    push_choice,
    tichu_choice,
    wish_choice,
)
from tichu.agents.learning.observation import observe
from tichu.core.combos import Play
from tichu.core.views import SeatView

#: A policy: ``(observation float32[620], action_mask int8[737])`` -> an allowed action.
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]


class PolicyError(ValueError):
    """A policy chose an action its mask did not allow."""


def load_policy(path: str, seed: int | None = None) -> Policy:
    """The policy a factory makes: ``path`` is ``"package.module:factory"``, and
    ``factory(seed)`` returns the policy (:func:`random_policy` is one).

    :raises ValueError: If the path names no importable factory.
    """
    module_name, _, attribute = path.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError, ValueError) as error:
        raise ValueError(f"no policy factory {path!r} (use package.module:factory): {error}") from None
    policy: Policy = factory(seed)
    return policy


class PolicyAgent(Agent):
    """Decides every question by a policy over the action catalogue.

    An agent made from a factory's path (the registry's ``policy:package.module:factory``)
    pickles without its policy and loads it again where it decides (a server's worker
    process); one made from a policy object pickles only if the policy does.

    :ivar path: The factory's path, or ``None``.
    """

    kind = "agent:policy"

    def __init__(self, name: str, policy: Policy | str, seed: int | None = None) -> None:
        super().__init__(name)
        self.path = policy if isinstance(policy, str) else None
        self.seed = seed
        self._policy: Policy | None = load_policy(policy, seed) if isinstance(policy, str) else policy

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        if self.path is not None:
            state["_policy"] = None
        return state

    @property
    def policy(self) -> Policy:
        """The policy (loaded again after unpickling, from :attr:`path`)."""
        if self._policy is None:
            assert self.path is not None
            self._policy = load_policy(self.path, self.seed)
        return self._policy

    def _ask(self, view: SeatView, choice: Choice, pushed: int = 0) -> object:
        action = int(self.policy(observe(view, choice.question, pushed), choice.mask()))
        if action not in choice.answers:
            raise PolicyError(f"the policy chose action {action}, which the mask does not allow "
                              f"(allowed: {sorted(choice.answers)})")
        return choice.answers[action]

    def decide_grand_tichu(self, view: SeatView) -> bool:
        return self._ask(view, grand_tichu_choice()) is True

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        pushed = 0
        cards: list[int] = []
        for _ in range(3):
            card = self._ask(view, push_choice(view.hand, pushed), pushed)
            assert isinstance(card, int)
            cards.append(card)
            pushed |= card
        return cards[0], cards[1], cards[2]

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        play = self._ask(view, play_choice(legal, view.hand))
        assert isinstance(play, Play)
        return play

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        value = self._ask(view, wish_choice(choices))
        assert isinstance(value, int)
        return value

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        seat = self._ask(view, dragon_choice(view.seat, recipients))
        assert isinstance(seat, int)
        return seat

    def decide_tichu(self, view: SeatView) -> bool:
        return self._ask(view, tichu_choice()) is True

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        bomb = self._ask(view, bomb_choice(bombs, view.hand))
        assert bomb is None or isinstance(bomb, Play)
        return bomb


def random_policy(seed: int | None = None) -> Policy:
    """A baseline that picks uniformly among the allowed actions, but never calls Grand Tichu
    or Tichu: random calls fail so often that both teams' scores would fall and a game to
    1000 might never end (R7.4)."""
    rng = random.Random(seed)

    def choose(observation: npt.NDArray[np.float32], action_mask: npt.NDArray[np.int8]) -> int:
        allowed = [int(action) for action in np.flatnonzero(action_mask) if action != CALL]
        return allowed[rng.randrange(len(allowed))]

    return choose
