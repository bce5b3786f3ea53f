"""One seat's WebSocket connection to a table: the socket, the receive loop and the message logs.

:class:`TableClient` connects (a first join or a reconnect, :func:`build_url`), logs every
message both ways (:class:`LoggedMessage`), keeps the seat's
:class:`~tichu.client.state.TableState` up to date from the notifications and hands each
request to a :class:`~tichu.client.bots.Brain`. Each frame is read once at the edge
(:func:`~tichu.client.messages.read_message`) into the server's wire types; what the client
sends are the commands of :mod:`tichu.server.wire.incoming`. It answers again when the server refuses an
answer and drops requests that were cancelled or timed out, so that a brain only ever
decides. :func:`run_bot` joins a table, plays and leaves. This is the one module of the
client that talks to the network (aiohttp); ``tichu-client`` and ``poc/load_test.py``
run it, people play through :mod:`tichu.client.console`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar
from urllib.parse import urlencode

import aiohttp

from tichu.client.bots import Brain, RandomBrain, decide, next_option
from tichu.client.messages import (
    CLOSED_CODES,
    REFUSAL_CODES,
    Answer,
    BadFrame,
    JsonDict,
    RawFrame,
    context_of,
    encode,
    notification_of,
    read_message,
    response,
)
from tichu.client.state import TableState
from tichu.server.codes import ErrorCode
from tichu.server.wire.incoming import (
    Announce,
    Bomb,
    Command,
    Leave,
    Ping,
    SchupfAnswer,
    StartGame,
    SwapPlayers,
)
from tichu.server.wire.outgoing import (
    ErrorPayload,
    NotificationPayload,
    PlayerJoined,
    RequestCancelled,
    RequestPayload,
    ServerMessage,
)

__all__ = ["LoggedMessage", "RawText", "Received", "Sent", "TableClient", "build_url", "run_bot"]

log = logging.getLogger(__name__)

M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class RawText:
    """A text frame sent as it is (:meth:`TableClient.send_raw`), as the client logs it."""

    TYPE: ClassVar[str] = "raw"
    text: str


#: A message received: the server's, or a frame that is none (kept as ``{"raw": text}``).
Received = ServerMessage | RawFrame
#: A message sent: a command, or text sent as it is.
Sent = Command | RawText


@dataclass(frozen=True, slots=True)
class LoggedMessage(Generic[M]):
    """One message sent or received.

    :ivar time: :func:`time.monotonic` when it was sent or received.
    :ivar message: The message (:data:`Received` or :data:`Sent`).
    """

    time: float
    message: M



def build_url(host: str, port: int, *, player_name: str | None = None, table_name: str | None = None,
              session_id: str | None = None) -> str:
    """Build the endpoint's URL for a first join or a reconnect.

    :param host: The server's host.
    :param port: The server's port.
    :param player_name: The seat's name (first join).
    :param table_name: The table to join or open (first join).
    :param session_id: The session to resume (reconnect); the names are then left out.
    :returns: ``ws://host:port/ws?...``.
    """
    if session_id is not None:
        query = {"session_id": session_id}
    else:
        query = {key: value for key, value in (("player_name", player_name), ("table_name", table_name))
                 if value is not None}
    return f"ws://{host}:{port}/ws?{urlencode(query)}"



# -- the client ---------------------------------------------------------------------------------

@dataclass(slots=True)
class _Answered:
    request: RequestPayload
    tried: list[Answer]


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
        """:param brain: What answers the requests (default: an unseeded :class:`~tichu.client.bots.RandomBrain`)."""
        self.brain = brain if brain is not None else RandomBrain()
        self.state = TableState()
        self.session_id: str | None = None
        self.pending_request: RequestPayload | None = None
        self.received: list[LoggedMessage[Received]] = []
        self.sent: list[LoggedMessage[Sent]] = []
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

    def notifications(self, event: str | None = None) -> list[Mapping[str, object]]:
        """Return the contexts of the notifications received, in order.

        :param event: Only this event's (``None``: every event's).
        :returns: The ``context`` objects (:func:`~tichu.client.messages.context_of` types them).
        """
        payloads = (notification_of(entry.message) for entry in self.received)
        return [payload["context"] for payload in payloads
                if payload is not None and (event is None or payload["event"] == event)]

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

    async def send(self, command: Command) -> None:
        """Send one message.

        :param command: The message (:mod:`tichu.server.wire.incoming`).
        :raises ConnectionError: If the connection is closed.
        """
        await self._send_text(encode(command), command)

    async def send_raw(self, text: str) -> None:
        """Send a text frame as it is (for tests of malformed input); logged as :class:`RawText`.

        :param text: The frame's text.
        :raises ConnectionError: If the connection is closed.
        """
        await self._send_text(text, RawText(text))

    async def _send_text(self, text: str, logged: Sent) -> None:
        if self._ws is None or self._ws.closed:
            raise ConnectionResetError("the connection is closed")
        self.sent.append(LoggedMessage(time.monotonic(), logged))
        await self._ws.send_str(text)

    async def leave(self) -> None:
        """Leave the table (an agent takes the seat)."""
        self.has_left = True
        await self.send(Leave())

    async def swap_players(self, player_index_1: int, player_index_2: int) -> None:
        """Swap two seats (host only, lobby only).

        :param player_index_1: One seat.
        :param player_index_2: The other seat.
        """
        await self.send(SwapPlayers(player_index_1=player_index_1, player_index_2=player_index_2))

    async def start_game(self) -> None:
        """Start the game (host only, lobby only)."""
        await self.send(StartGame())

    async def announce(self) -> None:
        """Call a plain Tichu (R6.1)."""
        await self.send(Announce())

    async def bomb(self, cards: Sequence[Sequence[int]]) -> None:
        """Play a bomb out of turn (R4.3).

        :param cards: The bomb's ``[value, suit]`` pairs.
        """
        self._last_play_message = "bomb"
        await self.send(Bomb(cards=tuple((int(card[0]), int(card[1])) for card in cards)))

    async def ping(self) -> None:
        """Ask for a ``pong``."""
        await self.send(Ping())

    async def respond(self, answer: Answer) -> None:
        """Answer the pending request; it stays known until the server accepts or refuses it.

        :param answer: The answer, of the request's action (see protocol.md, "Requests and responses").
        :raises RuntimeError: If no request is pending.
        """
        request = self.pending_request
        if request is None:
            raise RuntimeError("no request is pending")
        self.pending_request = None
        self._answered = _Answered(request, [answer])
        await self._send_response(request, answer)

    async def _send_response(self, request: RequestPayload, answer: Answer) -> None:
        if isinstance(answer, SchupfAnswer):
            self.state.private["given_schupf_cards"] = [list(card) for card in answer.given_schupf_cards]
        self._last_play_message = "response"
        await self.send(response(request, answer))

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

    async def wait_for(self, predicate: Callable[[Received], bool], timeout: float | None = None) -> Received:
        """Wait for a received message (already received ones included) while :meth:`run` runs.

        :param predicate: Tells the wanted message.
        :param timeout: Seconds to wait at most (``None``: no limit).
        :returns: The first message that satisfies ``predicate``.
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
        """Log and handle one text frame from the server (what :meth:`run` does per frame).

        :param text: The frame's text; one that is no message of the protocol
            (:func:`~tichu.client.messages.read_message`) is logged as ``{"raw": text}`` and ignored.
        """
        try:
            message = read_message(text)
        except BadFrame as error:
            self._log_received({"raw": text})
            log.warning("no message of the protocol from the server (%s): %.200s", error, text)
            return
        self._log_received(message)
        if message["type"] == "notification":
            await self._on_notification(message["payload"])
        elif message["type"] == "request":
            self._open_request(message["payload"])
        elif message["type"] == "error":
            await self._on_error(message["payload"])

    def _log_received(self, message: Received) -> None:
        self.received.append(LoggedMessage(time.monotonic(), message))
        self._news.set()

    async def _on_notification(self, payload: NotificationPayload) -> None:
        event, context = payload["event"], payload["context"]
        try:
            self.state.apply(event, dict(context))
        except (KeyError, IndexError, TypeError, ValueError) as error:
            log.warning("could not apply %s %r: %r", event, context, error)
        if event == "player_joined":
            self._on_joined(context_of(payload, PlayerJoined))
        elif event == "request_cancelled" and self._is_pending(context_of(payload, RequestCancelled)["request_id"]):
            self._cancel_decision()
            self.pending_request = None
        elif event == "game_over":
            self.games_over += 1
        try:
            await self.brain.on_notification(self, event, context)
        except Exception:
            log.exception("the brain's hook failed on %s", event)

    def _on_joined(self, joined: PlayerJoined) -> None:
        """This client joined (its session told) or another one did (no session): open the request
        left pending while away."""
        if "session_id" not in joined:
            return
        self.session_id = joined["session_id"]
        pending = joined.get("pending_request")
        if pending:
            self._open_request(pending)

    def _is_pending(self, request_id: str) -> bool:
        return self.pending_request is not None and self.pending_request["request_id"] == request_id

    async def _on_error(self, error: ErrorPayload) -> None:
        code = error["code"]
        log.warning("error %s from the server: %s %s", code, error["message"], error["context"] or "")
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

    def _concerns_open_request(self, error: ErrorPayload) -> bool:
        request_id = error["context"].get("request_id")
        open_request = self.pending_request or (self._answered.request if self._answered else None)
        return request_id is None or (open_request is not None and open_request["request_id"] == request_id)

    # -- deciding --

    def _open_request(self, request: RequestPayload) -> None:
        hand = request["context"].get("hand_cards")
        if isinstance(hand, list):
            self.state.private["hand_cards"] = list(hand)
        self.pending_request = request
        self._answered = None
        self._start_decision(self._decide(request))

    def _start_decision(self, decision: Coroutine[object, None, None]) -> None:
        self._cancel_decision()
        self._decision = asyncio.create_task(decision)

    def _cancel_decision(self) -> None:
        if self._decision is not None and not self._decision.done():
            self._decision.cancel()
        self._decision = None

    async def _decide(self, request: RequestPayload) -> None:
        action = request["action"]
        try:
            answer: Answer | None = await decide(self.brain, self, request)
        except Exception:
            log.exception("the brain failed on %s; answering the first option", action)
            answer = next_option(request, [])
        if answer is not None and self.pending_request is request:
            with _logged_send_failure():
                await self.respond(answer)

    async def _answer_again(self, answered: _Answered) -> None:
        try:
            answer = await self.brain.refused(self, answered.request, list(answered.tried))
        except Exception:
            log.exception("the brain failed on a refused answer")
            answer = next_option(answered.request, answered.tried)
        if answer is None:
            log.warning("no answer left for request %s", answered.request["request_id"])
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
    :param brain: What decides (default: an unseeded :class:`~tichu.client.bots.RandomBrain`).
    :param session_id: Rejoin this session instead of joining by name.
    :param start_when: Act as host: start each game once this many clients are seated.
    :param games: Leave after this many games (``None``: stay until the connection closes).
    :returns: The closed client.
    :raises aiohttp.ClientError: If the connection fails.
    """
    client = TableClient(brain)
    await client.connect(host, port, player_name=name, table_name=table, session_id=session_id)
    try:
        await client.run(games=games, start_when=start_when)
    finally:
        await client.finish()
    return client
