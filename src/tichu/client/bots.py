"""Deciding for a seat: the :class:`Brain` interface, the :class:`RandomBrain` bot and their helpers.

A brain answers each request that the connection hands it (one coroutine per request
action, :func:`decide`) and may act unprompted from its hooks (a Tichu call, a bomb). Whether a
call or a bomb is allowed now is not worked out here: the server says so in the seat's private
state (``may_announce``, ``bombs``; docs/server.md), which ``client.state`` keeps. The fallbacks
for a refused answer or a failing brain (:func:`response_options`, :func:`next_option`) live
here with the brains. :class:`RandomBrain` plays uniformly random legal moves (a load-test
bot and a test player); people decide through :class:`~tichu.client.console.ConsoleBrain`.

A brain sees of the connection that asks it only :class:`Seat` (the table's state and the
messages a seat sends unprompted), so this module does not import the connection, which imports
it for its default brain. Requests and answers are the protocol's wire types
(:mod:`tichu.server.wire.outgoing`, :mod:`tichu.server.wire.incoming`); cards travel as
``[value, suit]`` lists and are answered as ``(value, suit)`` pairs:

>>> response_options({"request_id": "r1", "action": "give_dragon_away", "timeout": None,
...                   "context": {"opponent_indexes": [1, 3]}})
[DragonAnswer(dragon_recipient=1), DragonAnswer(dragon_recipient=3)]
"""

from __future__ import annotations

import asyncio
import random
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Mapping, Sequence
from typing import Protocol

from tichu.client.messages import Answer, request_context
from tichu.client.state import TableState
from tichu.server.wire.incoming import Card, DragonAnswer, GrandTichuAnswer, PlayAnswer, SchupfAnswer, WishAnswer
from tichu.server.wire.outgoing import (
    DragonContext,
    ErrorPayload,
    HandContext,
    PlayContext,
    RequestPayload,
    WishContext,
)

__all__ = ["Brain", "RandomBrain", "Seat", "decide", "next_option", "response_options"]


class Seat(Protocol):
    """What a brain may use of the connection that asks it
    (:class:`~tichu.client.connection.TableClient` is one)."""

    @property
    def state(self) -> TableState:
        """The seat's view of the table."""

    async def announce(self) -> None:
        """Call a plain Tichu (R6.1)."""

    async def bomb(self, cards: Sequence[Sequence[int]]) -> None:
        """Play a bomb out of turn (R4.3).

        :param cards: The bomb's ``[value, suit]`` pairs.
        """


# -- brains -------------------------------------------------------------------------------------

def _pairs(cards: Sequence[Sequence[int]]) -> tuple[Card, ...]:
    """Protocol cards as the answers' ``(value, suit)`` pairs."""
    return tuple((int(card[0]), int(card[1])) for card in cards)


def response_options(request: RequestPayload) -> list[Answer]:
    """List answers to a request that a client may fall back on, most natural first.

    :param request: A ``request`` payload.
    :returns: Every legal play, ``no`` before ``yes`` to Grand Tichu, each run of three hand
        cards to push, every wish the server lists, every opponent.
    """
    action = request["action"]
    if action == "announce_grand_tichu":
        return [GrandTichuAnswer(announced=False), GrandTichuAnswer(announced=True)]
    if action == "schupf":
        hand = _pairs(request_context(request, HandContext)["hand_cards"])
        return [SchupfAnswer(given_schupf_cards=hand[start:start + 3]) for start in range(len(hand) - 2)]
    if action == "play":
        return [PlayAnswer(cards=_pairs(cards)) for cards in request_context(request, PlayContext)["legal_plays"]]
    if action == "wish":
        return [WishAnswer(wish_value=value) for value in request_context(request, WishContext)["wish_values"]]
    if action == "give_dragon_away":
        return [DragonAnswer(dragon_recipient=seat)
                for seat in request_context(request, DragonContext)["opponent_indexes"]]
    return []


def next_option(request: RequestPayload, tried: Sequence[Answer]) -> Answer | None:
    """Return the first of :func:`response_options` not tried yet.

    :param request: A ``request`` payload.
    :param tried: The answers tried so far.
    :returns: The next answer, or ``None`` when every option was tried.
    """
    return next((option for option in response_options(request) if option not in tried), None)


class Brain(ABC):
    """What decides for a seat: one coroutine per request action, plus optional hooks.

    Each action method gets the seat (for the table's state) and the request's ``context``
    and returns the answer. The hooks are called from the client's receive loop, so they must
    return quickly; they may send ``announce`` or ``bomb``.
    """

    @abstractmethod
    async def announce_grand_tichu(self, client: Seat, context: HandContext) -> GrandTichuAnswer:
        """Answer ``announce_grand_tichu``: whether to call Grand Tichu (R2.4).

        :param client: The seat, for the table's state.
        :param context: The request's ``context``.
        :returns: The answer.
        """

    @abstractmethod
    async def schupf(self, client: Seat, context: HandContext) -> SchupfAnswer:
        """Answer ``schupf``: the cards to the right, the partner and the left (R2.5).

        :param client: The seat, for the table's state.
        :param context: The request's ``context``.
        :returns: The answer.
        """

    @abstractmethod
    async def play(self, client: Seat, context: PlayContext) -> PlayAnswer:
        """Answer ``play``: the cards, none to pass.

        :param client: The seat, for the table's state.
        :param context: The request's ``context``.
        :returns: The answer.
        """

    @abstractmethod
    async def wish(self, client: Seat, context: WishContext) -> WishAnswer:
        """Answer ``wish``: one of the values the server lists (R5.1).

        :param client: The seat, for the table's state.
        :param context: The request's ``context``.
        :returns: The answer.
        """

    @abstractmethod
    async def give_dragon_away(self, client: Seat, context: DragonContext) -> DragonAnswer:
        """Answer ``give_dragon_away``: the opponent who gets the trick (R4.5).

        :param client: The seat, for the table's state.
        :param context: The request's ``context``.
        :returns: The answer.
        """

    async def refused(self, client: Seat, request: RequestPayload, tried: Sequence[Answer]) -> Answer | None:
        """Answer again after the server refused an answer (the request stays open).

        :param client: The seat.
        :param request: The open request's payload.
        :param tried: The answers refused so far, oldest first.
        :returns: The next answer, or ``None`` to give up (the server's timeout decides).
        """
        return next_option(request, tried)

    async def on_notification(self, client: Seat, event: str, context: Mapping[str, object]) -> None:
        """Hook: a notification was applied to ``client.state``.

        :param client: The seat.
        :param event: The notification's ``event``.
        :param context: Its ``context`` (:func:`~tichu.client.messages.context_of` types it).
        """

    async def on_error(self, client: Seat, error: ErrorPayload) -> None:
        """Hook: the server sent an ``error``.

        :param client: The seat.
        :param error: The error's payload (``code``, ``message``, ``context``).
        """


def decide(brain: Brain, client: Seat, request: RequestPayload) -> Awaitable[Answer]:
    """Ask the brain's method for a request's action.

    :param brain: The brain.
    :param client: The seat asked.
    :param request: The request (checked by :func:`~tichu.client.messages.read_message`).
    :returns: The brain's answer to come.
    :raises ValueError: For an action of no request (:func:`~tichu.client.messages.read_message`
        refuses such a request).
    """
    action = request["action"]
    if action == "announce_grand_tichu":
        return brain.announce_grand_tichu(client, request_context(request, HandContext))
    if action == "schupf":
        return brain.schupf(client, request_context(request, HandContext))
    if action == "play":
        return brain.play(client, request_context(request, PlayContext))
    if action == "wish":
        return brain.wish(client, request_context(request, WishContext))
    if action == "give_dragon_away":
        return brain.give_dragon_away(client, request_context(request, DragonContext))
    raise ValueError(f"no request action {action!r}")


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

    async def announce_grand_tichu(self, client: Seat, context: HandContext) -> GrandTichuAnswer:
        await self._pause()
        return GrandTichuAnswer(announced=self.rng.random() < self.GRAND_TICHU_RATE)

    async def schupf(self, client: Seat, context: HandContext) -> SchupfAnswer:
        await self._pause()
        return SchupfAnswer(given_schupf_cards=_pairs(self.rng.sample(context["hand_cards"], 3)))

    async def play(self, client: Seat, context: PlayContext) -> PlayAnswer:
        await self._pause()
        return PlayAnswer(cards=_pairs(self.rng.choice(context["legal_plays"])))

    async def wish(self, client: Seat, context: WishContext) -> WishAnswer:
        await self._pause()
        return WishAnswer(wish_value=self.rng.choice(context["wish_values"]))

    async def give_dragon_away(self, client: Seat, context: DragonContext) -> DragonAnswer:
        await self._pause()
        return DragonAnswer(dragon_recipient=self.rng.choice(context["opponent_indexes"]))

    async def on_notification(self, client: Seat, event: str, context: Mapping[str, object]) -> None:
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
