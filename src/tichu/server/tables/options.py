"""A table's options: what the host may choose in the lobby (``set_options``, docs/server.md).

They start from the server's settings: the agent kind of the empty seats and whether ``play``
requests carry a hint; the turn clock; what happens when a person leaves a running game (an
agent finishes it, or it ends); whether newcomers may take an agent's seat during a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from tichu.agents.levels import LEVELS
from tichu.agents.registry import AGENTS
from tichu.server.codes import ErrorCode
from tichu.server.tables.social import TARGET_SCORE_MAX, TARGET_SCORE_MIN
from tichu.server.wire import outgoing as out
from tichu.server.wire.protocol import ProtocolError, clip

#: The turn clocks the host may choose (seconds per decision; 0: no clock).
TURN_CLOCKS = (0, 30, 60, 120)
#: What may happen when a person leaves a running game for good.
ON_LEAVE = ("agent", "end")


class StoredOptions(TypedDict):
    """The options as the store keeps them (:meth:`TableOptions.stored`)."""

    agent: str
    hints: bool
    turn_clock: float
    on_leave: str
    newcomers: bool


class StartOptions(StoredOptions):
    """What the store keeps beside a game that starts: the options and who began it
    (``starters``: ``[name, kind]`` per seat)."""

    starters: list[list[str]]


@dataclass
class TableOptions:
    """What the host may choose in the lobby (``set_options``).

    :ivar agent: Who plays the empty seats: a level of :data:`tichu.agents.levels.LEVELS`
        (``expert``), an agent kind of :data:`tichu.agents.registry.AGENTS`, or the server's
        setting, which may carry a search setting such as ``montecarlo:0.2``.
    :ivar hints: Whether ``play`` requests carry the ranked legal plays as ``hint``.
    :ivar turn_clock: Seconds a person has for each decision (0: no clock); one of
        :data:`TURN_CLOCKS`, or the server's setting.
    :ivar on_leave: ``"agent"`` (an agent finishes a game a person left) or ``"end"`` (it ends).
    :ivar newcomers: Whether a newcomer may take an agent's seat while a game runs.
    """

    agent: str
    hints: bool
    turn_clock: float = 0.0
    on_leave: str = "agent"
    newcomers: bool = False

    def to_json(self) -> out.TableOptions:
        """The options as clients get them: ``{agent, hints, agents, levels, turn_clock,
        turn_clocks, on_leave, newcomers}`` (``agents``: the kinds the host may choose, weakest
        first; ``levels``: the levels, weakest first, each as ``{level, agent}`` with its agent
        spec; ``turn_clocks``: the clocks the host may choose)."""
        return {"agent": self.agent, "hints": self.hints, "agents": list(AGENTS),
                "levels": [{"level": name, "agent": level.agent} for name, level in LEVELS.items()],
                "turn_clock": self.turn_clock, "turn_clocks": list(TURN_CLOCKS), "on_leave": self.on_leave,
                "newcomers": self.newcomers}

    def stored(self) -> StoredOptions:
        """The options as the store keeps them (beside a running game, or with a kept lobby)."""
        return {"agent": self.agent, "hints": self.hints, "turn_clock": self.turn_clock,
                "on_leave": self.on_leave, "newcomers": self.newcomers}

    def restore(self, stored: Mapping[str, object]) -> None:
        """Take the options the store kept (:meth:`stored`, read back as JSON); what it lacks
        stays as it is.

        :raises TypeError, ValueError: For a ``turn_clock`` that is no number.
        """
        self.agent = str(stored.get("agent", self.agent))
        self.hints = bool(stored.get("hints", self.hints))
        self.turn_clock = as_number(stored.get("turn_clock", self.turn_clock))
        self.on_leave = str(stored.get("on_leave", self.on_leave))
        self.newcomers = bool(stored.get("newcomers", self.newcomers))


def as_number(value: object) -> float:
    """A number read back from the store (JSON: a number, or a text of one).

    :raises TypeError: For a value of another kind.
    :raises ValueError: For a text that is no number.
    """
    if isinstance(value, int | float | str):
        return float(value)
    raise TypeError(f"not a number: {value!r}")


def check_options(agent: str | None, target_score: int | None, turn_clock: int | None, on_leave: str | None) -> None:
    """Check the options a host asks for (``None``: not changed).

    :raises ProtocolError: ``INVALID_ACTION`` for an unknown agent kind or level, a target score
        out of range, a turn clock not in :data:`TURN_CLOCKS` or an unknown ``on_leave``.
    """
    if turn_clock is not None and turn_clock not in TURN_CLOCKS:
        raise ProtocolError(ErrorCode.INVALID_ACTION,
                            f"turn_clock must be one of {', '.join(map(str, TURN_CLOCKS))} (0: off)",
                            turn_clocks=list(TURN_CLOCKS))
    if on_leave is not None and on_leave not in ON_LEAVE:
        raise ProtocolError(ErrorCode.INVALID_ACTION, f"on_leave must be one of {', '.join(ON_LEAVE)}",
                            on_leave=list(ON_LEAVE))
    if agent is not None and agent not in AGENTS and agent not in LEVELS:
        known = f"known: {', '.join(AGENTS)}; levels: {', '.join(LEVELS)}"
        raise ProtocolError(ErrorCode.INVALID_ACTION, f"unknown agent {clip(agent)!r}; {known}",
                            agents=list(AGENTS), levels=list(LEVELS))
    if target_score is not None and not TARGET_SCORE_MIN <= target_score <= TARGET_SCORE_MAX:
        raise ProtocolError(ErrorCode.INVALID_ACTION,
                            f"target_score must be {TARGET_SCORE_MIN} to {TARGET_SCORE_MAX}",
                            target_score=target_score, min=TARGET_SCORE_MIN, max=TARGET_SCORE_MAX)
