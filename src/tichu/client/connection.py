"""One seat's WebSocket connection to a table: the socket, the receive loop and the message logs.

:class:`TableClient` connects (a first join or a reconnect, :func:`build_url`), logs every
message both ways (:class:`LoggedMessage`), keeps the seat's
:class:`~tichu.client.state.TableState` up to date from the notifications and hands each
request to a :class:`~tichu.client.bots.Brain`. It answers again when the server refuses an
answer and drops requests that were cancelled or timed out, so that a brain only ever
decides. :func:`run_bot` joins a table, plays and leaves. This is the one module of the
client that talks to the network (aiohttp); ``tichu-client`` and ``poc/load_test.py``
run it, people play through :mod:`tichu.client.console`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import aiohttp

from tichu.client.bots import Brain, RandomBrain, decider, next_option
from tichu.client.messages import CLOSED_CODES, REFUSAL_CODES, JsonDict
from tichu.client.state import TableState
from tichu.server.codes import ErrorCode

__all__ = ["LoggedMessage", "TableClient", "build_url", "run_bot"]

log = logging.getLogger(__name__)


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
        """:param brain: What answers the requests (default: an unseeded :class:`~tichu.client.bots.RandomBrain`)."""
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
        """Return the contexts of the notifications received, in order.

        :param event: Only this event's (``None``: every event's).
        :returns: The ``context`` objects.
        """
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
        """Send one message ``{"type", "payload"}``.

        :param type_: The message's ``type``.
        :param payload: Its ``payload`` (``None``: left out).
        :raises ConnectionError: If the connection is closed.
        """
        message: JsonDict = {"type": type_} if payload is None else {"type": type_, "payload": payload}
        await self._send_text(json.dumps(message), message)

    async def send_raw(self, text: str) -> None:
        """Send a text frame as it is (for tests of malformed input); logged as ``{"raw": text}``.

        :param text: The frame's text.
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
        """Swap two seats (host only, lobby only).

        :param player_index_1: One seat.
        :param player_index_2: The other seat.
        """
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

        :param text: The frame's text; one that is no JSON object is logged and ignored.
        """
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
