"""A table's seats: who sits where, who is host, who left a seat and may take it back, and the
grace period of a dropped client (docs/server.md, "Leaving, idle seats and late joiners", "Who
a person is").

The first client is the host; when it leaves, the client that joined next becomes host. Seats
without a client are played by agents. A client that drops keeps its seat for the grace
period; then an agent takes over, and the client can still come back if nobody took the seat.
A seat is given back by proof, never by name: the person who left a seat last comes back with
their session id; during a game a name alone never receives a seat, and the names of the
game's people who left stay theirs. What a seat's change does to the game and who hears of
it is the :class:`~tichu.server.tables.table.Table`'s to say: :class:`Seats` only keeps the
seating.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from tichu.core.views import TableInfo
from tichu.server.codes import ErrorCode
from tichu.server.tables.peer import Peer
from tichu.server.wire.protocol import ProtocolError, agent_name


class Seats:
    """The four seats of a table and the people who sit or sat there.

    :ivar peers: The client at each seat, or ``None`` where an agent plays.
    :ivar joined: The clients seated, in the order they joined (the next host is the first).
    """

    def __init__(self, table_name: str, info: TableInfo, grace_period: float) -> None:
        """Four empty seats.

        :param table_name: The table's name (in refusals).
        :param info: The table's facts: the seats' names and the host are kept there.
        :param grace_period: Seconds a dropped client keeps its seat.
        """
        self.table_name = table_name
        self.info = info
        self.grace_period = grace_period
        self.peers: list[Peer | None] = [None] * 4
        self.joined: list[Peer] = []
        self._away: dict[Peer, asyncio.TimerHandle] = {}  # dropped clients within the grace period
        # per seat, the last person who left it (since the game started or the lobby opened): they
        # alone may take it back, with their session id; at most four, whatever the joins
        self._departed: dict[int, Peer] = {}

    @property
    def clients(self) -> list[Peer]:
        """The clients seated now (connected or within their grace period)."""
        return [peer for peer in self.peers if peer is not None]

    def knows(self, peer: Peer) -> bool:
        """Whether ``peer`` may come back with its session id: it is seated (connected or within
        its grace period), or it is the last person who left its seat."""
        return self.peers[peer.seat] is peer or self._departed.get(peer.seat) is peer

    def followed(self) -> bool:
        """Whether people follow the table: one sits at it, or one who left may come back."""
        return bool(self.clients or self._departed)

    def check_name(self, player_name: str, running: bool) -> None:
        """Refuse a name a seated client has, or during a game that of a person who left it (who
        may come back with their session id: nobody else may appear under their name).

        :raises ProtocolError: ``NAME_TAKEN``.
        """
        wanted = player_name.casefold()
        if any(peer.name.casefold() == wanted for peer in self.clients):
            raise ProtocolError(ErrorCode.NAME_TAKEN, table_name=self.table_name, player_name=player_name)
        if running and any(peer.name.casefold() == wanted for peer in self._departed.values()):
            raise ProtocolError(ErrorCode.NAME_TAKEN,
                                "a person of this game left under that name; they come back with their session id",
                                table_name=self.table_name, player_name=player_name)

    def free(self) -> list[int]:
        """The seats an agent holds, in order.

        :raises ProtocolError: ``TABLE_FULL`` when there is none.
        """
        free = [seat for seat in range(4) if self.peers[seat] is None]
        if not free:
            raise ProtocolError(ErrorCode.TABLE_FULL, table_name=self.table_name)
        return free

    def unclaimed(self, free: list[int]) -> int:
        """Of ``free`` seats, the first no person who left may take back, else the first (its
        person's claim goes: they get ``SESSION_EXPIRED``)."""
        unclaimed = [seat for seat in free if seat not in self._departed]
        return (unclaimed or free)[0]

    def take(self, peer: Peer) -> None:
        """Seat a person on its seat, last in the table's order (host if there is none)."""
        self.peers[peer.seat] = peer
        self.info.player_names[peer.seat] = peer.name
        self.joined.append(peer)
        if self.info.host_index is None:
            self.info.host_index = peer.seat

    def retake(self, peer: Peer) -> None:
        """A person who left takes its empty seat back (its claim to it is spent)."""
        self._departed.pop(peer.seat, None)
        self.take(peer)

    def unseat(self, peer: Peer, agent: str) -> None:
        """A person leaves its seat to an agent (named ``agent``); the next to join is host if it
        was; it alone may take the seat back, with its session id."""
        seat = peer.seat
        self.peers[seat] = None
        if peer in self.joined:
            self.joined.remove(peer)
        if self.info.host_index == seat:
            self.info.host_index = self.joined[0].seat if self.joined else None
        self._departed[seat] = peer
        self.info.player_names[seat] = agent

    def swap(self, first: int, second: int) -> list[Peer]:
        """Swap two seats' occupants and names (an agent's seat keeps its agent's name).

        :returns: The clients moved.
        """
        self.peers[first], self.peers[second] = self.peers[second], self.peers[first]
        names = self.info.player_names
        names[first], names[second] = names[second], names[first]
        moved: list[Peer] = []
        for seat in (first, second):
            peer = self.peers[seat]
            if peer is not None:
                peer.seat = seat
                moved.append(peer)
            else:
                names[seat] = agent_name(seat)
        return moved

    def forget_departed(self) -> None:
        """The people who left have no seat to take back any more (a game started or ended)."""
        self._departed.clear()

    # -- the grace period -------------------------------------------------------------------

    def hold(self, peer: Peer, grace_over: Callable[[Peer], None]) -> None:
        """Keep a dropped client's seat for the grace period; then ``grace_over`` is called."""
        loop = asyncio.get_running_loop()
        self._away[peer] = loop.call_later(self.grace_period, self._grace_over, peer, grace_over)

    def _grace_over(self, peer: Peer, grace_over: Callable[[Peer], None]) -> None:
        self._away.pop(peer, None)
        grace_over(peer)

    def back(self, peer: Peer) -> bool:
        """A client is back (or leaves for good): its grace period ends.

        :returns: Whether it was within its grace period.
        """
        timer = self._away.pop(peer, None)
        if timer is None:
            return False
        timer.cancel()
        return True

    def away_json(self) -> list[list[float]]:
        """The seats whose clients are away, with the seconds left until an agent takes them:
        ``[[seat, seconds], ...]`` (``public_state.away``)."""
        now = asyncio.get_running_loop().time()
        return [[peer.seat, round(max(0.0, timer.when() - now), 1)] for peer, timer in self._away.items()]

    def let_go(self) -> None:
        """The table stops: no grace period runs on and no person who left holds the table."""
        for timer in self._away.values():
            timer.cancel()
        self._away.clear()
        self._departed.clear()
