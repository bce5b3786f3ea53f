"""Agents by name, for the Arena's command line and the server's table settings."""

from __future__ import annotations

from collections.abc import Callable

from tichu.players.agent import Agent
from tichu.players.random_agent import RandomAgent

#: Agent kinds by name; each makes an agent from a display name and a seed.
AGENTS: dict[str, Callable[[str, int | None], Agent]] = {
    "random": lambda name, seed: RandomAgent(name, seed),
}


def make_agent(kind: str, *, name: str | None = None, seed: int | None = None) -> Agent:
    """Make an agent of a named kind.

    :param kind: A key of :data:`AGENTS`.
    :param name: (Optional) Display name; the kind if omitted.
    :param seed: (Optional) Seed of its random choices.
    :raises ValueError: For an unknown kind.
    """
    factory = AGENTS.get(kind)
    if factory is None:
        raise ValueError(f"unknown agent {kind!r}; known: {', '.join(sorted(AGENTS))}")
    return factory(name or kind, seed)
