"""Deciding for a seat: the :class:`Brain` interface, the :class:`RandomBrain` bot and their helpers.

A brain answers each request that the connection hands it (one coroutine per request
action) and may act unprompted from its hooks (a Tichu call, a bomb). Whether a call or a
bomb is allowed now is not worked out here: the server says so in the seat's private state
(``may_announce``, ``bombs``; docs/server.md), which ``client.state`` keeps. The fallbacks
for a refused answer or a failing brain (:func:`response_options`, :func:`next_option`) live
here with the brains. :class:`RandomBrain` plays uniformly random legal moves (a load-test
bot and a test player); people decide through :class:`~tichu.client.console.ConsoleBrain`.

A brain gets the client (:class:`~tichu.client.connection.TableClient`) as an argument
only, so this module imports it for type hints alone: the connection imports this module
(for its default brain) and no import cycle arises. Cards travel as ``[value, suit]`` lists:

>>> response_options({"action": "give_dragon_away", "context": {"opponent_indexes": [1, 3]}})
[{'dragon_recipient': 1}, {'dragon_recipient': 3}]
"""

from __future__ import annotations

import asyncio
import random
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from tichu.client.messages import JsonDict
from tichu.client.state import TableState

if TYPE_CHECKING:
    from tichu.client.connection import TableClient

__all__ = ["Brain", "RandomBrain", "decider", "next_option", "response_options"]

#: A brain's answer to one request: the function of an action.
Decider = Callable[["TableClient", JsonDict], Awaitable[JsonDict]]


# -- brains -------------------------------------------------------------------------------------

def response_options(request: JsonDict) -> list[JsonDict]:
    """List answers to a request that a client may fall back on, most natural first.

    :param request: A ``request`` payload.
    :returns: ``response_data`` objects: every legal play, ``no`` before ``yes`` to Grand
        Tichu, each run of three hand cards to push, every wish, every opponent.
    """
    action, context = request.get("action"), request.get("context") or {}
    if action == "announce_grand_tichu":
        return [{"announced": False}, {"announced": True}]
    if action == "schupf":
        hand = list(context.get("hand_cards") or [])
        return [{"given_schupf_cards": hand[start:start + 3]} for start in range(len(hand) - 2)]
    if action == "play":
        return [{"cards": cards} for cards in context.get("legal_plays") or []]
    if action == "wish":  # the values the server lists (a server before issue 36 listed none)
        return [{"wish_value": value} for value in context.get("wish_values") or [*range(2, 15), 0]]
    if action == "give_dragon_away":
        return [{"dragon_recipient": seat} for seat in context.get("opponent_indexes") or []]
    return []


def next_option(request: JsonDict, tried: Sequence[JsonDict]) -> JsonDict | None:
    """Return the first of :func:`response_options` not tried yet.

    :param request: A ``request`` payload.
    :param tried: The answers tried so far.
    :returns: The next answer, or ``None`` when every option was tried.
    """
    return next((option for option in response_options(request) if option not in tried), None)


class Brain(ABC):
    """What decides for a seat: one coroutine per request action, plus optional hooks.

    Each action method gets the client (for the table's state) and the request's
    ``context`` and returns the ``response_data``. The hooks are called from the client's
    receive loop, so they must return quickly; they may send ``announce`` or ``bomb``.
    """

    @abstractmethod
    async def announce_grand_tichu(self, client: TableClient, context: JsonDict) -> JsonDict:
        """Answer ``announce_grand_tichu``: ``{announced: bool}``.

        :param client: The client, for the table's state.
        :param context: The request's ``context``.
        :returns: The ``response_data``.
        """

    @abstractmethod
    async def schupf(self, client: TableClient, context: JsonDict) -> JsonDict:
        """Answer ``schupf``: ``{given_schupf_cards: [to_right, to_partner, to_left]}``.

        :param client: The client, for the table's state.
        :param context: The request's ``context``.
        :returns: The ``response_data``.
        """

    @abstractmethod
    async def play(self, client: TableClient, context: JsonDict) -> JsonDict:
        """Answer ``play``: ``{cards}``, ``[]`` to pass.

        :param client: The client, for the table's state.
        :param context: The request's ``context``.
        :returns: The ``response_data``.
        """

    @abstractmethod
    async def wish(self, client: TableClient, context: JsonDict) -> JsonDict:
        """Answer ``wish``: ``{wish_value}``.

        :param client: The client, for the table's state.
        :param context: The request's ``context``.
        :returns: The ``response_data``.
        """

    @abstractmethod
    async def give_dragon_away(self, client: TableClient, context: JsonDict) -> JsonDict:
        """Answer ``give_dragon_away``: ``{dragon_recipient}``.

        :param client: The client, for the table's state.
        :param context: The request's ``context``.
        :returns: The ``response_data``.
        """

    async def refused(self, client: TableClient, request: JsonDict, tried: Sequence[JsonDict]) -> JsonDict | None:
        """Answer again after the server refused an answer (the request stays open).

        :param client: The client.
        :param request: The open request's payload.
        :param tried: The answers refused so far, oldest first.
        :returns: The next answer, or ``None`` to give up (the server's timeout decides).
        """
        return next_option(request, tried)

    async def on_notification(self, client: TableClient, event: str, context: JsonDict) -> None:
        """Hook: a notification was applied to ``client.state``.

        :param client: The client.
        :param event: The notification's ``event``.
        :param context: Its ``context``.
        """

    async def on_error(self, client: TableClient, error: JsonDict) -> None:
        """Hook: the server sent an ``error``.

        :param client: The client.
        :param error: The error's payload (``code``, ``message``, ``context``).
        """


def decider(brain: Brain, action: str) -> Decider | None:
    """Return the brain's method for a request action.

    :param brain: The brain.
    :param action: The request's ``action``.
    :returns: The method, or ``None`` for an unknown action.
    """
    methods: dict[str, Decider] = {
        "announce_grand_tichu": brain.announce_grand_tichu, "schupf": brain.schupf, "play": brain.play,
        "wish": brain.wish, "give_dragon_away": brain.give_dragon_away}
    return methods.get(action)


class RandomBrain(Brain):
    """Uniformly random legal decisions from a seeded generator; calls and bombs are rare, and
    only where the server's private state allows them (``may_announce``, R6.1; ``bombs``, R4.3).

    :cvar GRAND_TICHU_RATE: Chance of calling Grand Tichu.
    :cvar TICHU_RATE: Chance of calling Tichu at each opportunity (a turn change or a change of
        the private state while the call is allowed).
    :cvar BOMB_RATE: Chance of bombing at each opportunity (a turn change or a pass while the seat
        is not at turn and may bomb; not at a change of the private state, which may come just
        before the turn passes to this seat).
    """

    GRAND_TICHU_RATE = 0.02
    TICHU_RATE = 0.01
    BOMB_RATE = 0.1

    def __init__(self, seed: int | None = None, think: float = 0.0) -> None:
        """:param seed: Seed of the generator (``None``: from the system).
        :param think: Mean seconds to wait before answering a request (0.5 to 1.5 times it).
        """
        self.rng = random.Random(seed)
        self.think = think

    async def _pause(self) -> None:
        if self.think > 0:  # jittered, as people are: bots at many tables do not answer in lockstep
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))

    async def announce_grand_tichu(self, client: TableClient, context: JsonDict) -> JsonDict:
        await self._pause()
        return {"announced": self.rng.random() < self.GRAND_TICHU_RATE}

    async def schupf(self, client: TableClient, context: JsonDict) -> JsonDict:
        await self._pause()
        return {"given_schupf_cards": self.rng.sample(list(context["hand_cards"]), 3)}

    async def play(self, client: TableClient, context: JsonDict) -> JsonDict:
        await self._pause()
        return {"cards": self.rng.choice(context["legal_plays"])}

    async def wish(self, client: TableClient, context: JsonDict) -> JsonDict:
        await self._pause()
        return {"wish_value": self.rng.choice(context.get("wish_values") or range(2, 15))}

    async def give_dragon_away(self, client: TableClient, context: JsonDict) -> JsonDict:
        await self._pause()
        return {"dragon_recipient": self.rng.choice(context["opponent_indexes"])}

    async def on_notification(self, client: TableClient, event: str, context: JsonDict) -> None:
        state = client.state
        if event in _TICHU_CHANCES and state.may_announce and self.rng.random() < self.TICHU_RATE:
            await client.announce()
        bombs = state.bombs  # at its own turn a bomb is the play (R4.3): play() may choose it
        if event in _BOMB_CHANCES and bombs and not _at_turn(state) and self.rng.random() < self.BOMB_RATE:
            await client.bomb(self.rng.choice(bombs))


#: The notifications after which :class:`RandomBrain` may call Tichu, and may bomb.
_TICHU_CHANCES = frozenset({"player_turn_changed", "private_state_changed"})
_BOMB_CHANCES = frozenset({"player_turn_changed", "player_passed"})


def _at_turn(state: TableState) -> bool:
    return state.public.get("current_turn_index") == state.player_index
