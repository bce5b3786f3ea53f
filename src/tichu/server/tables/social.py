"""What the people at a table say to each other, and who is ready: chat, reactions, readiness
(docs/server.md, "Table chat, reactions, readiness and the target score").

The state here is small and bounded whatever the clients send: the recent chat lines (at most
:data:`CHAT_HISTORY`), and per client at the table a readiness flag and a token bucket for its
chat (the table has at most four clients, and a client is forgotten when it leaves). Nothing
here knows the wire; the table turns it into messages.

Only clients that said they speak the extension (``table_sync``) hear chat, reactions and
readiness, and only their readiness counts: a client that follows protocol.md alone receives
nothing new and never holds up a start.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from tichu.server.guard.limits import TokenBucket

#: Longest chat text, in characters (after trimming).
CHAT_LENGTH = 200
#: Chat lines a table keeps for clients that (re)join; older lines are forgotten.
CHAT_HISTORY = 30
#: Chat messages and reactions a client may send at once ...
CHAT_BURST = 5
#: ... and then per second.
CHAT_RATE = 1.0
#: The quick reactions, by id (the clients translate them).
REACTIONS = ("nice", "good_luck", "oops", "well_played", "thanks")
#: The target scores the host may choose (the server's setting is the default, whatever it is).
TARGET_SCORE_MIN = 100
TARGET_SCORE_MAX = 10000

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class ChatLine:
    """One chat message as the table keeps it.

    :ivar seat: The sender's seat when it was sent.
    :ivar name: The sender's name.
    :ivar text: The text, as checked (:func:`tichu.server.wire.protocol.clean_chat_text`).
    """

    seat: int
    name: str
    text: str


class Social(Generic[K]):
    """The chat log, the readiness and the chat rate of one table's clients.

    :ivar log: The recent chat lines, oldest first (at most :data:`CHAT_HISTORY`).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        """Start with no line and no listener.

        :param clock: Gives the time in seconds (for the chat rate).
        """
        self.log: deque[ChatLine] = deque(maxlen=CHAT_HISTORY)
        self._clock = clock
        self._ready: dict[K, bool] = {}  # the clients that speak the extension, and whether ready
        self._buckets: dict[K, TokenBucket] = {}

    # -- who listens ----------------------------------------------------------------------------

    def subscribe(self, who: K) -> bool:
        """``who`` speaks the extension: it hears chat and readiness, and its readiness counts
        (not ready until it says so; a client that syncs again keeps its readiness).

        :returns: Whether it is new (the readiness shown changes: null becomes false).
        """
        if who in self._ready:
            return False
        self._ready[who] = False
        return True

    def listens(self, who: K) -> bool:
        """Whether ``who`` has subscribed."""
        return who in self._ready

    def forget(self, who: K) -> bool:
        """``who`` left the table.

        :returns: Whether it was ready (the readiness shown changes).
        """
        self._buckets.pop(who, None)
        return self._ready.pop(who, False)

    # -- readiness ------------------------------------------------------------------------------

    def ready(self, who: K) -> bool | None:
        """Whether ``who`` is ready; ``None`` for a client that never subscribed."""
        return self._ready.get(who)

    def set_ready(self, who: K, ready: bool) -> bool:
        """Mark ``who`` ready or not (it subscribes, too).

        :returns: Whether that changed anything.
        """
        changed = self._ready.get(who) is not ready
        self._ready[who] = ready
        return changed

    def clear(self, whom: Iterable[K] | None = None) -> bool:
        """Make ``whom`` (default: everyone) not ready.

        :returns: Whether anyone was ready.
        """
        changed = False
        for who in list(self._ready) if whom is None else whom:
            if self._ready.get(who):
                self._ready[who] = False
                changed = True
        return changed

    # -- chat -----------------------------------------------------------------------------------

    def allow(self, who: K) -> bool:
        """Take a token of ``who``'s chat bucket (:data:`CHAT_BURST` at once, then
        :data:`CHAT_RATE` a second; kept while it sits at the table, reconnects included).

        :returns: Whether the message may go out.
        """
        bucket = self._buckets.get(who)
        if bucket is None:
            bucket = self._buckets[who] = TokenBucket(CHAT_RATE, CHAT_BURST, self._clock)
        return bucket.take()

    def remember(self, line: ChatLine) -> None:
        """Keep a chat line for the clients that join later (the oldest goes beyond :data:`CHAT_HISTORY`)."""
        self.log.append(line)
