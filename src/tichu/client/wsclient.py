"""A client of the WebSocket protocol (``shared/spec/protocol.md``) on aiohttp.

:class:`TableClient` holds one seat's connection: it logs every message both ways, keeps
the seat's view of the table (:class:`TableState`) up to date from the notifications and
hands each request to a :class:`Brain`, which answers it. :class:`RandomBrain` plays
uniformly random legal moves (a load-test bot and a test player); :func:`run_bot` joins a
table, plays and leaves. People play through :mod:`tichu.client.console` (``bin/wsclient.py``).
Cards travel as ``[value, suit]`` lists:

>>> bombs_against([[7, 1], [7, 2], [7, 3], [7, 4], [2, 1]], [[1, [[14, 1]], ["single", 1, 14]]])
[[[7, 4], [7, 3], [7, 2], [7, 1]]]
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import aiohttp

from tichu.core.cards import Card, cards_of, mask_of
from tichu.core.combos import bombs_of
from tichu.rules import Combination, CombinationType, beats
from tichu.server.codes import ErrorCode

__all__ = ["Brain", "JsonDict", "LoggedMessage", "RandomBrain", "TableClient", "TableState",
           "bombs_against", "build_url", "decider", "next_option", "response_options", "run_bot"]

log = logging.getLogger(__name__)

#: A JSON object as sent or received.
JsonDict = dict[str, Any]
#: A brain's answer to one request: the function of an action.
Decider = Callable[["TableClient", JsonDict], Awaitable[JsonDict]]

#: Errors that refuse a response while its request stays open: the client answers again.
REFUSAL_CODES = frozenset({ErrorCode.UNKNOWN_CARD, ErrorCode.NOT_HAND_CARD, ErrorCode.INVALID_ACTION,
                           ErrorCode.NOT_UNIQUE_CARDS, ErrorCode.INVALID_COMBINATION, ErrorCode.INVALID_WISH,
                           ErrorCode.INVALID_DRAGON_RECIPIENT})
#: Errors after which the answered request is known to be closed.
CLOSED_CODES = frozenset({ErrorCode.INVALID_RESPONSE, ErrorCode.REQUEST_OBSOLETE})


@dataclass(frozen=True, slots=True)
class LoggedMessage:
    """One message sent or received.

    :ivar time: :func:`time.monotonic` when it was sent or received.
    :ivar message: The message; text that is no JSON object is kept as ``{"raw": text}``.
    """

    time: float
    message: JsonDict


def build_url(host: str, port: int, *, player_name: str | None = None, table_name: str | None = None,
              session_id: str | None = None) -> str:
    """Build the endpoint's URL for a first join or a reconnect.

    :param host: The server's host.
    :param port: The server's port.
    :param player_name: The seat's name (first join).
    :param table_name: The table to join or open (first join).
    :param session_id: The session to resume (reconnect); the names are then left out.
    :result: ``ws://host:port/ws?...``.
    """
    if session_id is not None:
        query = {"session_id": session_id}
    else:
        query = {key: value for key, value in (("player_name", player_name), ("table_name", table_name))
                 if value is not None}
    return f"ws://{host}:{port}/ws?{urlencode(query)}"


# -- cards --------------------------------------------------------------------------------------

def _card(pair: Sequence[int]) -> Card:
    return Card(int(pair[0]), int(pair[1]))


def _without(cards: Iterable[Sequence[int]], removed: Iterable[Sequence[int]]) -> list[list[int]]:
    gone = {tuple(pair) for pair in removed}
    return [list(pair) for pair in cards if tuple(pair) not in gone]


def _combination(turn_combination: Sequence[Any]) -> Combination:
    kind, length, rank = turn_combination
    return Combination(CombinationType[str(kind).upper()], int(length), rank)


def bombs_against(hand: Sequence[Sequence[int]], trick_turns: Sequence[Sequence[Any]]) -> list[list[list[int]]]:
    """List the bombs of a hand that may land on the open trick now (R3.8, R4.3).

    :param hand: The hand as ``[value, suit]`` pairs.
    :param trick_turns: The open trick's plays ``[player_index, cards, combination]``.
    :result: Each bomb's cards; none before the first play of a trick and none on the Dog.
    """
    if not trick_turns:
        return []
    top = _combination(trick_turns[-1][2])
    if top.type == CombinationType.SINGLE and top.rank == 0:
        return []
    bombs = bombs_of(mask_of(_card(pair) for pair in hand))
    return [[list(card) for card in cards_of(bomb[0])] for bomb in bombs
            if beats(Combination(CombinationType.BOMB, bomb[2], bomb[3]), top)]


# -- the seat's view of the table ---------------------------------------------------------------

class TableState:
    """One seat's view of the table: ``public_state`` and ``private_state`` of protocol.md,
    as received on joining and kept up to date from the notifications after it.

    :ivar player_index: The own seat, or ``None`` before joining.
    :ivar public: The ``public_state`` object.
    :ivar private: The ``private_state`` object.
    :ivar client_seats: The seats known to be held by clients (this one and those that
        joined after it).
    :ivar revealed_hands: The hands of ``hands_revealed`` (R8.3), or ``None``.
    """

    def __init__(self) -> None:
        self.player_index: int | None = None
        self.public: JsonDict = {}
        self.private: JsonDict = {}
        self.client_seats: set[int] = set()
        self.revealed_hands: list[Any] | None = None

    def apply(self, event: str, context: JsonDict) -> None:
        """Apply one notification; an event without effect on the state is ignored.

        :param event: The notification's ``event``.
        :param context: Its ``context``.
        :raises KeyError, IndexError, TypeError, ValueError: For a context that is not as
            protocol.md describes it.
        """
        handler = getattr(self, f"_on_{event}", None)
        if handler is not None:
            handler(context)

    @property
    def hand(self) -> list[list[int]]:
        """The own hand cards."""
        return list(self.private.get("hand_cards") or [])

    def name(self, seat: int) -> str:
        """The name shown for a seat (``seat N`` while none is known)."""
        names = self.public.get("player_names") or []
        return str(names[seat]) if seat < len(names) and names[seat] else f"seat {seat}"

    def _seats(self, key: str) -> list[Any]:
        seats: list[Any] = self.public.setdefault(key, [0, 0, 0, 0])
        return seats

    def _is_me(self, seat: int) -> bool:
        return seat == self.player_index

    def _on_player_joined(self, context: JsonDict) -> None:
        seat = context["player_index"]
        if "session_id" in context:
            self.player_index = seat
            self.public = copy.deepcopy(context.get("public_state") or {})
            self.private = copy.deepcopy(context.get("private_state") or {})
            self.client_seats = {seat}
            return
        self._seats("player_names")[seat] = context["player_name"]
        self.client_seats.add(seat)

    def _on_player_left(self, context: JsonDict) -> None:
        self.public["host_index"] = context.get("host_index")
        self.client_seats.discard(context["player_index"])

    def _on_players_swapped(self, context: JsonDict) -> None:
        first, second = context["player_index_1"], context["player_index_2"]
        names = self._seats("player_names")
        names[first], names[second] = names[second], names[first]
        self.client_seats = {second if seat == first else first if seat == second else seat
                             for seat in self.client_seats}
        if self.player_index in (first, second):
            self.player_index = second if self.player_index == first else first
            self.private["player_index"] = self.player_index

    def _on_game_started(self, context: JsonDict) -> None:
        self.public.update(is_running=True, round_scores=[], total=[0, 0])

    def _on_round_started(self, context: JsonDict) -> None:
        self.public.update(round_index=context["round_index"], phase="grand_tichu", current_turn_index=None,
                           count_hand_cards=[0] * 4, announcements=[0] * 4, wish_value=0, wish_open=False,
                           trick_turns=[], trick_owner_index=None, trick_points=0, points=[0] * 4,
                           tricks_won=[0] * 4, out_order=[], played_cards=[])
        self.private.update(hand_cards=[], given_schupf_cards=None, received_schupf_cards=None)
        self.revealed_hands = None

    def _on_hand_cards_dealt(self, context: JsonDict) -> None:
        count = int(context["count"])
        self.public["count_hand_cards"] = [held + count for held in self._seats("count_hand_cards")]
        self.public["phase"] = "grand_tichu" if count == 8 else "schupf"
        if "hand_cards" in context:
            self.private["hand_cards"] = list(context["hand_cards"])

    def _on_player_announced(self, context: JsonDict) -> None:
        self._seats("announcements")[context["player_index"]] = 2 if context.get("grand") else 1

    def _on_player_schupfed(self, context: JsonDict) -> None:
        seat = context["player_index"]
        self._seats("count_hand_cards")[seat] -= 3
        given = self.private.get("given_schupf_cards")
        if self._is_me(seat) and given:
            self.private["hand_cards"] = _without(self.hand, given)

    def _on_start_playing(self, context: JsonDict) -> None:
        self.public["count_hand_cards"] = [held + 3 for held in self._seats("count_hand_cards")]
        self.public.update(phase="playing", current_turn_index=context["start_player_index"])
        received = context.get("received_schupf_cards")
        if received is not None:
            self.private.update(received_schupf_cards=received, hand_cards=self.hand + list(received))

    def _on_player_played(self, context: JsonDict) -> None:
        turn = context["turn"]
        seat, cards = turn[0], turn[1]
        self.public.setdefault("trick_turns", []).append(list(turn))
        self.public.setdefault("played_cards", []).extend(cards)
        self._seats("count_hand_cards")[seat] -= len(cards)
        self.public.update(trick_owner_index=context["trick_owner_index"], trick_points=context["trick_points"])
        if self._is_me(seat):
            self.private["hand_cards"] = _without(self.hand, cards)

    def _on_player_out(self, context: JsonDict) -> None:
        self.public.setdefault("out_order", []).append(context["player_index"])

    def _on_wish_made(self, context: JsonDict) -> None:
        self.public.update(wish_value=context["wish_value"], wish_open=context["wish_value"] != 0)

    def _on_wish_fulfilled(self, context: JsonDict) -> None:
        self.public["wish_open"] = False

    def _on_trick_taken(self, context: JsonDict) -> None:
        recipient = context.get("dragon_recipient")
        taker = context["player_index"] if recipient is None else recipient
        self._seats("points")[taker] += context["points"]
        self._seats("tricks_won")[taker] += 1
        self.public.update(trick_turns=[], trick_owner_index=None, trick_points=0)

    def _on_hands_revealed(self, context: JsonDict) -> None:
        self.revealed_hands = list(context["hands"])

    def _on_player_turn_changed(self, context: JsonDict) -> None:
        self.public["current_turn_index"] = context["current_turn_index"]

    def _on_round_over(self, context: JsonDict) -> None:
        self.public.setdefault("round_scores", []).append(list(context["points"]))
        self.public.update(phase="round_over", current_turn_index=None, total=context["total"])

    def _on_game_over(self, context: JsonDict) -> None:
        self.public.update(phase="game_over", is_running=False, current_turn_index=None, total=context["total"])


# -- brains -------------------------------------------------------------------------------------

def response_options(request: JsonDict) -> list[JsonDict]:
    """List answers to a request that a client may fall back on, most natural first.

    :param request: A ``request`` payload.
    :result: ``response_data`` objects: every legal play, ``no`` before ``yes`` to Grand
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
    if action == "wish":
        return [{"wish_value": value} for value in [*range(2, 15), 0]]
    if action == "give_dragon_away":
        return [{"dragon_recipient": seat} for seat in context.get("opponent_indexes") or []]
    return []


def next_option(request: JsonDict, tried: Sequence[JsonDict]) -> JsonDict | None:
    """Return the first of :func:`response_options` not tried yet, or ``None``."""
    return next((option for option in response_options(request) if option not in tried), None)


class Brain(ABC):
    """What decides for a seat: one coroutine per request action, plus optional hooks.

    Each action method gets the client (for the table's state) and the request's
    ``context`` and returns the ``response_data``. The hooks are called from the client's
    receive loop, so they must return quickly; they may send ``announce`` or ``bomb``.
    """

    @abstractmethod
    async def announce_grand_tichu(self, client: TableClient, context: JsonDict) -> JsonDict:
        """Answer ``announce_grand_tichu``: ``{announced: bool}``."""

    @abstractmethod
    async def schupf(self, client: TableClient, context: JsonDict) -> JsonDict:
        """Answer ``schupf``: ``{given_schupf_cards: [to_right, to_partner, to_left]}``."""

    @abstractmethod
    async def play(self, client: TableClient, context: JsonDict) -> JsonDict:
        """Answer ``play``: ``{cards}``, ``[]`` to pass."""

    @abstractmethod
    async def wish(self, client: TableClient, context: JsonDict) -> JsonDict:
        """Answer ``wish``: ``{wish_value}``."""

    @abstractmethod
    async def give_dragon_away(self, client: TableClient, context: JsonDict) -> JsonDict:
        """Answer ``give_dragon_away``: ``{dragon_recipient}``."""

    async def refused(self, client: TableClient, request: JsonDict, tried: Sequence[JsonDict]) -> JsonDict | None:
        """Answer again after the server refused an answer (the request stays open).

        :param client: The client.
        :param request: The open request's payload.
        :param tried: The answers refused so far, oldest first.
        :result: The next answer, or ``None`` to give up (the server's timeout decides).
        """
        return next_option(request, tried)

    async def on_notification(self, client: TableClient, event: str, context: JsonDict) -> None:
        """Hook: a notification was applied to ``client.state``."""

    async def on_error(self, client: TableClient, error: JsonDict) -> None:
        """Hook: the server sent an ``error`` (its payload)."""


def decider(brain: Brain, action: str) -> Decider | None:
    """Return the brain's method for a request action, or ``None`` for an unknown action."""
    methods: dict[str, Decider] = {
        "announce_grand_tichu": brain.announce_grand_tichu, "schupf": brain.schupf, "play": brain.play,
        "wish": brain.wish, "give_dragon_away": brain.give_dragon_away}
    return methods.get(action)


class RandomBrain(Brain):
    """Uniformly random legal decisions from a seeded generator; calls and bombs are rare.

    :cvar GRAND_TICHU_RATE: Chance of calling Grand Tichu.
    :cvar TICHU_RATE: Chance of calling Tichu at each opportunity (a turn change while
        the call is allowed).
    :cvar BOMB_RATE: Chance of bombing at each opportunity (another seat's turn or a pass
        while a bomb in the hand beats the trick).
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
        return {"wish_value": self.rng.randint(2, 14)}

    async def give_dragon_away(self, client: TableClient, context: JsonDict) -> JsonDict:
        await self._pause()
        return {"dragon_recipient": self.rng.choice(context["opponent_indexes"])}

    async def on_notification(self, client: TableClient, event: str, context: JsonDict) -> None:
        tichu_chance = event in ("start_playing", "player_turn_changed") and _may_call_tichu(client.state)
        if tichu_chance and self.rng.random() < self.TICHU_RATE:
            await client.announce()
        if event in ("player_turn_changed", "player_passed") and not _at_turn(client.state):
            bombs = bombs_against(client.state.hand, client.state.public.get("trick_turns") or [])
            if bombs and self.rng.random() < self.BOMB_RATE:
                await client.bomb(self.rng.choice(bombs))


def _at_turn(state: TableState) -> bool:
    return state.public.get("current_turn_index") == state.player_index


def _may_call_tichu(state: TableState) -> bool:
    """R2.4, R6.1, R6.3: playing, no call yet, no card played yet."""
    seat = state.player_index
    public = state.public
    return (seat is not None and public.get("phase") == "playing"
            and not (public.get("announcements") or [0] * 4)[seat] and len(state.hand) == 14)


# -- the client ---------------------------------------------------------------------------------

@dataclass(slots=True)
class _Answered:
    request: JsonDict
    tried: list[JsonDict]


class TableClient:
    """One seat's WebSocket connection to a table.

    :ivar brain: What answers the requests.
    :ivar state: The seat's view of the table.
    :ivar session_id: The session to reconnect with, once joined.
    :ivar pending_request: The open request not yet answered (a ``request`` payload), or
        ``None``.
    :ivar received: Every message received, in order.
    :ivar sent: Every message sent, in order.
    :ivar games_over: The number of ``game_over`` notifications received.
    :ivar close_code: The WebSocket close code once the connection closed.
    :ivar has_left: Whether this client sent ``leave``.
    """

    def __init__(self, brain: Brain | None = None) -> None:
        """:param brain: What answers the requests (default: an unseeded :class:`RandomBrain`)."""
        self.brain = brain if brain is not None else RandomBrain()
        self.state = TableState()
        self.session_id: str | None = None
        self.pending_request: JsonDict | None = None
        self.received: list[LoggedMessage] = []
        self.sent: list[LoggedMessage] = []
        self.games_over = 0
        self.close_code: int | None = None
        self.has_left = False
        self._answered: _Answered | None = None
        self._last_play_message = ""  # "response" or "bomb": which one an error may refuse
        self._decision: asyncio.Task[None] | None = None
        self._starts_sent = 0
        self._news = asyncio.Event()
        self._session: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None

    # -- state shortcuts --

    @property
    def player_index(self) -> int | None:
        """The own seat, or ``None`` before joining."""
        return self.state.player_index

    @property
    def public_state(self) -> JsonDict:
        """The latest ``public_state``."""
        return self.state.public

    @property
    def private_state(self) -> JsonDict:
        """The latest ``private_state``."""
        return self.state.private

    @property
    def closed(self) -> bool:
        """Whether there is no open connection."""
        return self._ws is None or self._ws.closed

    def notifications(self, event: str | None = None) -> list[JsonDict]:
        """Return the contexts of the notifications received, optionally of one event only."""
        return [entry.message.get("payload", {}).get("context", {}) for entry in self.received
                if entry.message.get("type") == "notification"
                and (event is None or entry.message.get("payload", {}).get("event") == event)]

    # -- connecting --

    async def connect(self, host: str, port: int, *, player_name: str | None = None, table_name: str | None = None,
                      session_id: str | None = None, session: aiohttp.ClientSession | None = None) -> None:
        """Open the WebSocket: a first join (names) or a reconnect (``session_id``).

        :param host: The server's host.
        :param port: The server's port.
        :param player_name: The seat's name (first join).
        :param table_name: The table (first join).
        :param session_id: The session to resume (reconnect).
        :param session: (Optional) An aiohttp session to use; by default the client opens
            and closes its own.
        :raises aiohttp.ClientError: If the connection fails.
        """
        url = build_url(host, port, player_name=player_name, table_name=table_name, session_id=session_id)
        if session is None:
            session = self._session = aiohttp.ClientSession()
        try:
            self._ws = await session.ws_connect(url)
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        """Stop deciding and close the connection (and the client's own aiohttp session)."""
        self._cancel_decision()
        if self._ws is not None:
            await self._ws.close()
            self.close_code = self._ws.close_code
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def finish(self) -> None:
        """Leave the table unless left or disconnected already, then :meth:`close`."""
        try:
            if not self.has_left and not self.closed:
                with _logged_send_failure():
                    await self.leave()
        finally:
            await self.close()

    # -- sending --

    async def send(self, type_: str, payload: JsonDict | None = None) -> None:
        """Send one message ``{"type", "payload"}`` (``payload`` left out when ``None``).

        :raises ConnectionError: If the connection is closed.
        """
        message: JsonDict = {"type": type_} if payload is None else {"type": type_, "payload": payload}
        await self._send_text(json.dumps(message), message)

    async def send_raw(self, text: str) -> None:
        """Send a text frame as it is (for tests of malformed input); logged as ``{"raw": text}``.

        :raises ConnectionError: If the connection is closed.
        """
        await self._send_text(text, {"raw": text})

    async def _send_text(self, text: str, logged: JsonDict) -> None:
        if self._ws is None or self._ws.closed:
            raise ConnectionResetError("the connection is closed")
        self.sent.append(LoggedMessage(time.monotonic(), logged))
        await self._ws.send_str(text)

    async def leave(self) -> None:
        """Leave the table (an agent takes the seat)."""
        self.has_left = True
        await self.send("leave")

    async def swap_players(self, player_index_1: int, player_index_2: int) -> None:
        """Swap two seats (host only, lobby only)."""
        await self.send("swap_players", {"player_index_1": player_index_1, "player_index_2": player_index_2})

    async def start_game(self) -> None:
        """Start the game (host only, lobby only)."""
        await self.send("start_game")

    async def announce(self) -> None:
        """Call a plain Tichu (R6.1)."""
        await self.send("announce")

    async def bomb(self, cards: Sequence[Sequence[int]]) -> None:
        """Play a bomb out of turn (R4.3).

        :param cards: The bomb's ``[value, suit]`` pairs.
        """
        self._last_play_message = "bomb"
        await self.send("bomb", {"cards": [list(card) for card in cards]})

    async def ping(self) -> None:
        """Ask for a ``pong``."""
        await self.send("ping")

    async def respond(self, response_data: JsonDict) -> None:
        """Answer the pending request; it stays known until the server accepts or refuses it.

        :param response_data: The answer (see protocol.md, "Requests and responses").
        :raises RuntimeError: If no request is pending.
        """
        request = self.pending_request
        if request is None:
            raise RuntimeError("no request is pending")
        self.pending_request = None
        self._answered = _Answered(request, [response_data])
        await self._send_response(request, response_data)

    async def _send_response(self, request: JsonDict, response_data: JsonDict) -> None:
        if request.get("action") == "schupf":
            self.state.private["given_schupf_cards"] = response_data.get("given_schupf_cards")
        self._last_play_message = "response"
        await self.send("response", {"request_id": request.get("request_id"), "action": request.get("action"),
                                     "response_data": response_data})

    # -- receiving --

    async def run(self, *, games: int | None = None, start_when: int | None = None) -> None:
        """Handle the messages until the connection closes or enough games are over.

        :param games: Return after this many ``game_over`` (``None``: only on close).
        :param start_when: Act as host: send ``start_game`` once this many clients
            (this one included) are seated, again after each game while ``games`` asks for more.
        :raises RuntimeError: If not connected.
        """
        if self._ws is None:
            raise RuntimeError("not connected")
        try:
            async for frame in self._ws:
                if frame.type == aiohttp.WSMsgType.TEXT:
                    await self.receive_text(frame.data)
                elif frame.type == aiohttp.WSMsgType.ERROR:
                    log.warning("connection error: %s", self._ws.exception())
                    break
                if games is not None and self.games_over >= games:
                    break
                if start_when is not None:
                    await self._start_when_seated(start_when, games)
        finally:
            self._cancel_decision()
            self.close_code = self._ws.close_code
            self._news.set()

    async def _start_when_seated(self, clients: int, games: int | None) -> None:
        public = self.state.public
        wanted = games is None or self._starts_sent < games
        if (wanted and self._starts_sent == self.games_over and not public.get("is_running")
                and len(self.state.client_seats) >= clients):
            self._starts_sent += 1
            await self.start_game()

    async def wait_for(self, predicate: Callable[[JsonDict], bool], timeout: float | None = None) -> JsonDict:
        """Wait for a received message (already received ones included) while :meth:`run` runs.

        :param predicate: Tells the wanted message.
        :param timeout: Seconds to wait at most (``None``: no limit).
        :result: The first message that satisfies ``predicate``.
        :raises TimeoutError: If none came in time.
        :raises ConnectionError: If the connection closed first.
        """
        checked = 0
        async with asyncio.timeout(timeout):
            while True:
                found = next((entry.message for entry in self.received[checked:] if predicate(entry.message)), None)
                if found is not None:
                    return found
                checked = len(self.received)
                if self.closed:
                    raise ConnectionResetError("the connection closed")
                self._news.clear()
                await self._news.wait()

    async def receive_text(self, text: str) -> None:
        """Log and handle one text frame from the server (what :meth:`run` does per frame)."""
        try:
            message = json.loads(text)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            self._log_received({"raw": text})
            log.warning("not a JSON object from the server: %.200s", text)
            return
        self._log_received(message)
        payload = message.get("payload") or {}
        kind = message.get("type")
        if kind == "notification":
            await self._on_notification(str(payload.get("event")), payload.get("context") or {})
        elif kind == "request":
            self._open_request(payload)
        elif kind == "error":
            await self._on_error(payload)

    def _log_received(self, message: JsonDict) -> None:
        self.received.append(LoggedMessage(time.monotonic(), message))
        self._news.set()

    async def _on_notification(self, event: str, context: JsonDict) -> None:
        try:
            self.state.apply(event, context)
        except (KeyError, IndexError, TypeError, ValueError) as error:
            log.warning("could not apply %s %r: %r", event, context, error)
        if event == "player_joined" and "session_id" in context:
            self.session_id = context["session_id"]
            if context.get("pending_request"):
                self._open_request(context["pending_request"])
        elif event == "request_cancelled" and self._is_pending(context.get("request_id")):
            self._cancel_decision()
            self.pending_request = None
        elif event == "game_over":
            self.games_over += 1
        try:
            await self.brain.on_notification(self, event, context)
        except Exception:
            log.exception("the brain's hook failed on %s", event)

    def _is_pending(self, request_id: Any) -> bool:
        return self.pending_request is not None and self.pending_request.get("request_id") == request_id

    async def _on_error(self, error: JsonDict) -> None:
        code = error.get("code")
        log.warning("error %s from the server: %s %s", code, error.get("message"), error.get("context") or "")
        try:
            await self.brain.on_error(self, error)
        except Exception:
            log.exception("the brain's hook failed on an error")
        if code == ErrorCode.ACTION_TIMEOUT and self._concerns_open_request(error):
            self._cancel_decision()
            self.pending_request = self._answered = None
        elif code in CLOSED_CODES:
            self._answered = None
        elif code in REFUSAL_CODES and self._answered is not None and self._last_play_message == "response":
            self._start_decision(self._answer_again(self._answered))

    def _concerns_open_request(self, error: JsonDict) -> bool:
        request_id = (error.get("context") or {}).get("request_id")
        open_request = self.pending_request or (self._answered.request if self._answered else None)
        return request_id is None or (open_request is not None and open_request.get("request_id") == request_id)

    # -- deciding --

    def _open_request(self, request: JsonDict) -> None:
        hand = (request.get("context") or {}).get("hand_cards")
        if hand is not None:
            self.state.private["hand_cards"] = list(hand)
        self.pending_request = request
        self._answered = None
        self._start_decision(self._decide(request))

    def _start_decision(self, decision: Coroutine[Any, Any, None]) -> None:
        self._cancel_decision()
        self._decision = asyncio.create_task(decision)

    def _cancel_decision(self) -> None:
        if self._decision is not None and not self._decision.done():
            self._decision.cancel()
        self._decision = None

    async def _decide(self, request: JsonDict) -> None:
        action = str(request.get("action"))
        method = decider(self.brain, action)
        if method is None:
            log.warning("unknown request action %r; not answered", action)
            return
        try:
            answer = await method(self, request.get("context") or {})
        except Exception:
            log.exception("the brain failed on %s; answering the first option", action)
            answer = next_option(request, []) or {}
        if self.pending_request is request:
            with _logged_send_failure():
                await self.respond(answer)

    async def _answer_again(self, answered: _Answered) -> None:
        try:
            answer = await self.brain.refused(self, answered.request, list(answered.tried))
        except Exception:
            log.exception("the brain failed on a refused answer")
            answer = next_option(answered.request, answered.tried)
        if answer is None:
            log.warning("no answer left for request %s", answered.request.get("request_id"))
            return
        answered.tried.append(answer)
        with _logged_send_failure():
            await self._send_response(answered.request, answer)


@contextlib.contextmanager
def _logged_send_failure() -> Iterator[None]:
    try:
        yield
    except ConnectionError as error:
        log.warning("could not send: %s", error)


async def run_bot(host: str, port: int, name: str | None = None, table: str | None = None, *,
                  brain: Brain | None = None, session_id: str | None = None, start_when: int | None = None,
                  games: int | None = 1) -> TableClient:
    """Join a table (or rejoin with ``session_id``), play, leave and return the client with its logs.

    :param host: The server's host.
    :param port: The server's port.
    :param name: The seat's name (first join).
    :param table: The table's name (first join).
    :param brain: What decides (default: an unseeded :class:`RandomBrain`).
    :param session_id: Rejoin this session instead of joining by name.
    :param start_when: Act as host: start each game once this many clients are seated.
    :param games: Leave after this many games (``None``: stay until the connection closes).
    :result: The closed client.
    :raises aiohttp.ClientError: If the connection fails.
    """
    client = TableClient(brain)
    await client.connect(host, port, player_name=name, table_name=table, session_id=session_id)
    try:
        await client.run(games=games, start_when=start_when)
    finally:
        await client.finish()
    return client
