"""Playing levels: what people choose per table in the lobby, each an agent of the registry.

A level is a name a player understands (beginner, casual, strong, expert) for an agent spec
of :mod:`tichu.agents.registry` (``kind`` or ``kind:setting``). This table is the one place
where levels map to agents; each level is a measured rung of the ladder that beats the one
below (docs/agents.md, "Levels").

The server's table option ``agent`` takes a level name or an agent spec
(:func:`agent_spec` resolves either; docs/server.md).
"""

from __future__ import annotations

from typing import NamedTuple

from tichu.agents.agent import Agent
from tichu.agents.registry import DEFAULT_AGENT, make_agent


class Level(NamedTuple):
    """A playing level.

    :ivar agent: The agent spec it plays with (a name for :func:`~tichu.agents.registry.make_agent`).
    :ivar description: The i18n key of its one-sentence description (web/js/i18n.js).
    """

    agent: str
    description: str


#: Seconds per decision for the strong level's rollouts: its 99th percentile stays under a
#: second on a Raspberry Pi 4, where it plays on fewer deals (docs/agents.md, "Rollouts at
#: every play"); here the budget is seldom reached.
STRONG_BUDGET = 0.4
#: The levels by name, weakest first.
LEVELS: dict[str, Level] = {
    "beginner": Level("beginner", "level.beginner.about"),
    "casual": Level("rule", "level.casual.about"),
    "strong": Level(f"heuristic:{STRONG_BUDGET}", "level.strong.about"),
    "expert": Level(DEFAULT_AGENT, "level.expert.about"),
}

#: The level of the server's default agent (the strongest under 1 s per decision on a Pi 4).
DEFAULT_LEVEL = "expert"


def agent_spec(value: str) -> str:
    """The agent spec of a level name, or ``value`` itself (an agent spec) otherwise.

    :raises ValueError: For a value that is neither a level nor a known agent spec.
    """
    level = LEVELS.get(value)
    if level is not None:
        return level.agent
    try:
        make_agent(value)
    except ValueError as error:
        raise ValueError(f"{error}; or a level: {', '.join(LEVELS)}") from None
    return value


def make_level_agent(value: str, *, name: str | None = None, seed: int | None = None) -> Agent:
    """An agent for a level name or an agent spec (see :func:`agent_spec`)."""
    return make_agent(agent_spec(value), name=name or value, seed=seed)


__all__ = ["DEFAULT_LEVEL", "LEVELS", "STRONG_BUDGET", "Level", "agent_spec", "make_level_agent"]
