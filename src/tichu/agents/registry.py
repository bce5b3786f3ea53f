"""Agents by name, for the Arena's command line and the server's table settings.

A name is a kind, optionally with a search setting after a colon: ``montecarlo:0.1``
thinks 0.1 s per decision, ``montecarlo:n24`` samples 24 deals per decision whatever the
time (reproducible with a seed). ``montecarlo:v1`` is the Monte Carlo agent as it was
before the search over every decision (:data:`~tichu.agents.mc_search.V1`); settings
combine: ``montecarlo:v1:n16``. ``montecarlo:plays`` searches plays only, like v1, but with
the tuned heuristic for everything else (:data:`~tichu.agents.mc_search.PLAYS`).
``heuristic:v1`` is the first heuristic, kept for comparison
(:data:`~tichu.agents.heuristic_policy.V1`), like ``heuristic:v2`` and ``heuristic:v3``;
``heuristic:0.4`` bounds its rollouts to 0.4 s per decision (the level ``strong``).
``policy:package.module:factory`` plays the policy ``factory(seed)`` makes over the learning
agents' action catalogue (:class:`~tichu.agents.learning.policy_agent.PolicyAgent`,
docs/learning.md).
"""

from __future__ import annotations

from collections.abc import Callable

from tichu.agents.agent import Agent
from tichu.agents.beginner_agent import BeginnerAgent
from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.heuristic_policy import V1 as HEURISTIC_V1
from tichu.agents.heuristic_policy import V2 as HEURISTIC_V2
from tichu.agents.heuristic_policy import V3 as HEURISTIC_V3
from tichu.agents.heuristic_policy import WEIGHTS
from tichu.agents.mc_agent import DEFAULT_BUDGET, MonteCarloAgent
from tichu.agents.mc_search import PLAYS, SEARCH
from tichu.agents.mc_search import V1 as SEARCH_V1
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

#: Weight sets of the heuristic by setting (``heuristic:v1``).
HEURISTIC_VERSIONS = {"v1": HEURISTIC_V1, "v2": HEURISTIC_V2, "v3": HEURISTIC_V3}

#: The agent that fills empty seats at the server unless configured (the level ``expert``):
#: the strongest measured whose decisions stay under a second at the 99th percentile
#: (docs/agents.md): the play search with the tuned heuristic's calls, which beats the tuned
#: heuristic where ``montecarlo:v1`` (the first heuristic's calls) no longer does, and beats
#: ``montecarlo:v1`` itself at the same budget (run G: +9.8 per round, 200 games). The search
#: over every decision (``montecarlo``) is not the default: it has not measured stronger than
#: ``montecarlo:v1`` at the same budget, and it searches every bomb offer, which a seat
#: holding a bomb gets at every turn.
DEFAULT_AGENT = "montecarlo:plays"


def make_agent(kind: str, *, name: str | None = None, seed: int | None = None) -> Agent:
    """Make an agent of a named kind.

    :param kind: A key of :data:`AGENTS`, for ``montecarlo`` optionally with ``:v1`` or ``:plays``,
        ``:SECONDS`` or ``:nSAMPLES`` (``montecarlo:v1:n16``), for ``heuristic`` with a key of
        :data:`HEURISTIC_VERSIONS`; or ``policy:package.module:factory``.
    :param name: (Optional) Display name; the kind if omitted.
    :param seed: (Optional) Seed of its random choices.
    :raises ValueError: For an unknown kind or setting.
    """
    base, _, setting = kind.partition(":")
    if base == "policy":
        from tichu.agents.learning.policy_agent import PolicyAgent  # numpy: only for learning agents

        return PolicyAgent(name or kind, setting, seed)
    factory = AGENTS.get(base)
    if factory is None:
        raise ValueError(f"unknown agent {kind!r}; known: {', '.join(AGENTS)}")
    if not setting:
        return factory(name or kind, seed)
    if base == "heuristic":
        return _heuristic(name or kind, seed, setting)
    if base != "montecarlo":
        raise ValueError(f"agent {base!r} takes no setting")
    options, budget, samples = SEARCH, DEFAULT_BUDGET, None
    for part in setting.split(":"):
        if part in ("v1", "plays") and options is SEARCH:
            options = SEARCH_V1 if part == "v1" else PLAYS
            continue
        try:
            if part.startswith("n"):
                samples = int(part[1:])
                if samples < 1:
                    raise ValueError
                continue
            budget = float(part)
            if not 0 < budget <= 60:
                raise ValueError
        except ValueError:
            raise ValueError(f"bad setting {setting!r} for {base!r}: use seconds (0.1) or nSAMPLES (n24), "
                             "optionally after v1 or plays (v1:n24)") from None
    if samples is not None:
        return MonteCarloAgent(name or kind, seed, budget=None, max_samples=samples, min_samples=samples,
                               options=options)
    return MonteCarloAgent(name or kind, seed, budget=budget, options=options)

def _heuristic(name: str, seed: int | None, setting: str) -> HeuristicAgent:
    """The heuristic agent of a setting: a version of :data:`HEURISTIC_VERSIONS`, seconds per
    decision for its rollouts (``0.4``, :attr:`HeuristicAgent.budget`), or both (``v3:0.4``).

    :raises ValueError: For any other setting.
    """
    weights, budget = WEIGHTS, None
    parts = setting.split(":")
    if parts[0] in HEURISTIC_VERSIONS:
        weights = HEURISTIC_VERSIONS[parts.pop(0)]
    try:
        if len(parts) > 1:
            raise ValueError
        if parts:
            budget = float(parts[0])
            if not 0 < budget <= 60:
                raise ValueError
    except ValueError:
        raise ValueError(f"bad setting {setting!r} for 'heuristic': use one of {', '.join(HEURISTIC_VERSIONS)}, "
                         "seconds (0.4), or both (v3:0.4)") from None
    return HeuristicAgent(name, seed, weights=weights, budget=budget)


__all__ = ["AGENTS", "DEFAULT_AGENT", "DEFAULT_BUDGET", "make_agent"]
