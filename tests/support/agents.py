"""Seeded agents for the servers the tests start.

The server makes unseeded agents (:func:`tichu.server.tables.agent_seat.registry_agent`), so two runs of
one test would see different games. The tests hand :func:`tichu.server.app.create_app` a
factory of seeded agents instead, so that a test's games repeat from its settings and its
clients' seeds.
"""

from __future__ import annotations

import itertools

from tests.support.pool_agents import BoldAgent
from tichu.agents.agent import Agent
from tichu.agents.registry import make_agent
from tichu.server.tables.agent_seat import AgentFactory


def seeded_agents() -> AgentFactory:
    """An agent factory for ``create_app(..., agents=...)``: the registry's agents, seeded 1, 2,
    3, ... in the order they are made (one count for every server that shares the factory)."""
    counter = itertools.count(1)

    def make_seeded_agent(kind: str, name: str) -> Agent:
        return make_agent(kind, name=name, seed=next(counter))

    return make_seeded_agent


def bold_agents() -> AgentFactory:
    """An agent factory of seeded :class:`~tests.support.pool_agents.BoldAgent` s (every kind):
    agents that call Grand Tichu and Tichu whenever offered."""
    counter = itertools.count(1)

    def make_bold_agent(kind: str, name: str) -> Agent:
        return BoldAgent(name, seed=next(counter))

    return make_bold_agent
