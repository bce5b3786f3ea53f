"""Agents by name, for the Arena's command line and the server's table settings.

A name is a kind, optionally with a search setting after a colon: ``montecarlo:0.1``
thinks 0.1 s per decision, ``montecarlo:n24`` samples 24 deals per decision whatever the
time (reproducible with a seed).
"""

from __future__ import annotations

from collections.abc import Callable

from tichu.agents.agent import Agent
from tichu.agents.beginner_agent import BeginnerAgent
from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.mc_agent import DEFAULT_BUDGET, MonteCarloAgent
from tichu.agents.random_agent import RandomAgent
from tichu.agents.rule_agent import RuleAgent

#: Agent kinds by name, weakest first; each makes an agent from a display name and a seed.
AGENTS: dict[str, Callable[[str, int | None], Agent]] = {
    "random": lambda name, seed: RandomAgent(name, seed),
    "beginner": lambda name, seed: BeginnerAgent(name, seed),
    "rule": lambda name, seed: RuleAgent(name, seed),
    "heuristic": lambda name, seed: HeuristicAgent(name, seed),
    "montecarlo": lambda name, seed: MonteCarloAgent(name, seed),
}

#: The kind that fills empty seats at the server unless configured: the strongest whose
#: decisions stay under a second at the 99th percentile (docs/agents.md).
DEFAULT_AGENT = "montecarlo"


def make_agent(kind: str, *, name: str | None = None, seed: int | None = None) -> Agent:
    """Make an agent of a named kind.

    :param kind: A key of :data:`AGENTS`, for ``montecarlo`` optionally with ``:SECONDS``
        or ``:nSAMPLES``.
    :param name: (Optional) Display name; the kind if omitted.
    :param seed: (Optional) Seed of its random choices.
    :raises ValueError: For an unknown kind or setting.
    """
    base, _, setting = kind.partition(":")
    factory = AGENTS.get(base)
    if factory is None:
        raise ValueError(f"unknown agent {kind!r}; known: {', '.join(AGENTS)}")
    if not setting:
        return factory(name or kind, seed)
    if base != "montecarlo":
        raise ValueError(f"agent {base!r} takes no setting")
    try:
        if setting.startswith("n"):
            samples = int(setting[1:])
            if samples < 1:
                raise ValueError
            return MonteCarloAgent(name or kind, seed, budget=None, max_samples=samples, min_samples=samples)
        budget = float(setting)
        if not 0 < budget <= 60:
            raise ValueError
    except ValueError:
        raise ValueError(f"bad setting {setting!r} for {base!r}: use seconds (0.1) or nSAMPLES (n24)") from None
    return MonteCarloAgent(name or kind, seed, budget=budget)


__all__ = ["AGENTS", "DEFAULT_AGENT", "DEFAULT_BUDGET", "make_agent"]
