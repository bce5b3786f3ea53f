"""Hints: a seat's legal plays ranked best first for its ``play`` request (docs/server.md,
"Table options and hints").

The ranking is an agent's (a :class:`HeuristicAgent` by default) from the seat's view only
(R8), computed in the server's :class:`~tichu.server.workers.agent_pool.AgentPool`, off the
event loop.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.core.combos import Play
from tichu.core.views import SeatView
from tichu.server.config import Settings
from tichu.server.tables.options import TableOptions
from tichu.server.workers.agent_pool import AgentPool

log = logging.getLogger(__name__)

#: Seed of a table's hint agent when the server deals at random (``Settings.seed`` is None).
HINT_SEED = 0
#: Milliseconds a hint may take before it is logged as slow.
SLOW_HINT_MS = 50.0
#: What a seat asks for its ``play`` request's hint: the legal plays best first from its view
#: (a table's :func:`ranked_hint`), or ``None``.
Hinter = Callable[[SeatView, Sequence[Play]], Awaitable[list[Play] | None]]


class HintRanker(Protocol):
    """Ranks a seat's legal plays, best first, from that seat's view only (R8); it pickles (it
    ranks in the agent pool)."""

    def hint(self, view: SeatView, legal: Sequence[Play]) -> list[Play]:
        """The plays of ``legal`` best first (it may leave some out)."""


def heuristic_hinter(settings: Settings) -> HintRanker:
    """The default hint ranker: a heuristic agent, seeded by the server's seed if it has one."""
    return HeuristicAgent("Hint", HINT_SEED if settings.seed is None else settings.seed)


async def ranked_hint(pool: AgentPool, ranker: HintRanker, view: SeatView, legal: Sequence[Play],
                      table_name: str) -> list[Play] | None:
    """The legal plays best first for a ``play`` request.

    Only legal plays, each once, and all of them (what the ranker leaves out is appended); a
    failing ranker gives no hint (``None``) rather than failing the request.

    :param pool: Where the ranking is computed.
    :param table_name: The table's name, for the log.
    """
    began = time.perf_counter()
    try:
        ranked = await pool.decide(ranker.hint, view, legal)
    except Exception:  # a hint is a courtesy: it must never break a game
        log.exception("table %r: the hint for seat %d failed", table_name, view.seat)
        return None
    allowed = set(legal)
    hint: list[Play] = []
    seen: set[Play] = set()
    for play in [*ranked, *legal]:
        if play in allowed and play not in seen:
            seen.add(play)
            hint.append(play)
    took = (time.perf_counter() - began) * 1000
    if took > SLOW_HINT_MS:
        log.info("table %r: hint for %d legal plays took %.0f ms", table_name, len(legal), took)
    return hint


class Hints:
    """A table's hints: its ``play`` requests' legal plays ranked, while its options give hints.

    :ivar ranker: Ranks the legal plays.
    """

    def __init__(self, pool: AgentPool, ranker: HintRanker, options: TableOptions, table_name: str) -> None:
        """:param pool: Where the ranking is computed.
        :param ranker: Ranks the legal plays.
        :param options: The table's options (whether hints are given).
        :param table_name: The table's name, for the log.
        """
        self._pool = pool
        self.ranker = ranker
        self._options = options
        self.table_name = table_name

    async def hint(self, view: SeatView, legal: Sequence[Play]) -> list[Play] | None:
        """The legal plays best first for a ``play`` request (:func:`ranked_hint`), or ``None``
        when hints are off."""
        if not self._options.hints or not legal:
            return None
        return await ranked_hint(self._pool, self.ranker, view, legal, self.table_name)
