"""Another line: a table that plays a stored game's round on from one of its positions
(docs/server.md, "Another line").

A person looking at a stored game (the replay viewer, its analysis) asks to play on from a step
(``POST /api/games/{id}/lines``): the record is replayed to that step in a replay process
(:func:`tichu.records.positions.position_after`) and the position waits here as a *pending line*
under a table name nobody can guess. The first person who joins that table takes the line's
seat, the table's agents take the others, and the round is played on from the position to its
end (``GameEngine.play_round``); then everyone at the table hears ``line_over`` and the table is
a lobby again. A line is practice: it writes no journal, no record and no statistics.

:class:`PendingLines` is bounded: at most :data:`MAX_PENDING_LINES` wait, each at most
:data:`LINE_TTL` seconds (the oldest goes first); a line is taken once.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from tichu.records.positions import Position

#: Lines asked for and not yet joined, at most (each holds a game's journal up to its step).
MAX_PENDING_LINES = 32
#: Seconds a line waits for its person to join.
LINE_TTL = 600.0
#: How a line's table name begins (the rest is random).
LINE_PREFIX = "line-"


@dataclass(frozen=True)
class Line:
    """A position to play on from, and for whom.

    :ivar game_id: The stored game it comes from.
    :ivar seat: The seat the person plays.
    :ivar position: The game up to the step (its rules, journal and names).
    """

    game_id: str
    seat: int
    position: Position


class PendingLines:
    """The lines asked for whose person has not joined yet, by table name; bounded in number and age."""

    def __init__(self, limit: int = MAX_PENDING_LINES, ttl: float = LINE_TTL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """No line yet.

        :param limit: The most lines that wait (the oldest is dropped for a new one).
        :param ttl: Seconds a line waits.
        :param clock: The clock of the ages (tests pass their own).
        """
        self.limit = limit
        self.ttl = ttl
        self._clock = clock
        self._lines: OrderedDict[str, tuple[float, Line]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._lines)

    def add(self, line: Line) -> str:
        """Keep a line for its person.

        :returns: The table name to join (:data:`LINE_PREFIX` and 16 random hex digits).
        """
        self._drop_old()
        while len(self._lines) >= self.limit:
            self._lines.popitem(last=False)
        name = LINE_PREFIX + secrets.token_hex(8)
        self._lines[name] = (self._clock(), line)
        return name

    def take(self, table_name: str) -> Line | None:
        """The line waiting under a table name, which no longer waits; ``None`` for none (or one
        that waited too long)."""
        self._drop_old()
        found = self._lines.pop(table_name, None)
        return None if found is None else found[1]

    def _drop_old(self) -> None:
        oldest = self._clock() - self.ttl
        while self._lines and next(iter(self._lines.values()))[0] < oldest:
            self._lines.popitem(last=False)
