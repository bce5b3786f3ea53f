"""Agents by name (:mod:`tichu.agents.registry`): the Arena's command line and the server's
table settings make agents with ``make_agent("kind[:setting]")``."""

from __future__ import annotations

import pytest

from tests.core.helpers import playing_round
from tichu.agents.agent import Agent
from tichu.agents.beginner_agent import BeginnerAgent
from tichu.agents.heuristic_agent import HeuristicAgent
from tichu.agents.heuristic_policy import DEFAULT
from tichu.agents.heuristic_policy import V1 as HEURISTIC_V1
from tichu.agents.mc_agent import DEFAULT_BUDGET, MonteCarloAgent
from tichu.agents.mc_search import PLAYS, SEARCH, V1
from tichu.agents.random_agent import RandomAgent
from tichu.agents.registry import AGENTS, DEFAULT_AGENT, make_agent
from tichu.agents.rule_agent import RuleAgent
from tichu.core.round import Round
from tichu.core.views import SeatView, TableInfo, TablePhase

KIND_CLASSES = {"random": RandomAgent, "beginner": BeginnerAgent, "rule": RuleAgent, "heuristic": HeuristicAgent,
                "montecarlo": MonteCarloAgent}


class Table:
    def __init__(self, round_: Round) -> None:
        self.info = TableInfo(phase=TablePhase.PLAYING)
        self.round = round_


def test_agents_lists_the_known_kinds_weakest_first() -> None:
    """Every kind has a factory; the default for empty seats is one of them."""
    assert list(AGENTS) == ["random", "beginner", "rule", "heuristic", "montecarlo"]
    assert DEFAULT_AGENT.split(":")[0] in AGENTS and isinstance(make_agent(DEFAULT_AGENT), MonteCarloAgent)


@pytest.mark.parametrize("kind", list(AGENTS))
def test_make_agent_for_every_kind(kind: str) -> None:
    """``make_agent(kind)`` gives that kind's agent, named after the kind unless named, with
    the record's kind ``agent:<kind>`` (records.md ``players[].kind``)."""
    agent = make_agent(kind, seed=3)
    assert isinstance(agent, Agent) and type(agent) is KIND_CLASSES[kind]
    assert agent.name == kind and agent.kind == f"agent:{kind}"
    assert make_agent(kind, name="Ann", seed=3).name == "Ann"
    assert make_agent(kind).name == kind  # no seed is fine too


@pytest.mark.parametrize("kind", list(AGENTS))
def test_same_seed_same_decisions(kind: str) -> None:
    """Two agents made with one name and seed decide alike (the Arena's reproducibility);
    the Monte Carlo agent is made with a fixed sample count for that."""
    name = "montecarlo:n4" if kind == "montecarlo" else kind
    round_ = playing_round(["Ma S3 B3", "", "", ""])
    plays = round_.legal_plays()
    first = make_agent(name, seed=5).decide_play(SeatView.of(Table(round_), 0), plays)
    assert make_agent(name, seed=5).decide_play(SeatView.of(Table(round_), 0), plays) == first
    assert first in plays


def test_montecarlo_default_budget() -> None:
    """Plain ``montecarlo`` thinks for the default budget per decision."""
    agent = make_agent("montecarlo", seed=1)
    assert isinstance(agent, MonteCarloAgent) and agent.budget == DEFAULT_BUDGET


def test_montecarlo_with_seconds() -> None:
    """``montecarlo:0.2``: 0.2 seconds per decision, the sample limits as by default."""
    agent = make_agent("montecarlo:0.2", seed=1)
    default = MonteCarloAgent()
    assert isinstance(agent, MonteCarloAgent)
    assert agent.budget == 0.2 and agent.name == "montecarlo:0.2"
    assert (agent.max_samples, agent.min_samples) == (default.max_samples, default.min_samples)
    assert make_agent("montecarlo:60").budget == 60  # type: ignore[attr-defined]


def test_montecarlo_with_a_sample_count() -> None:
    """``montecarlo:n16``: 16 deals per decision whatever the time (no budget)."""
    agent = make_agent("montecarlo:n16", name="MC", seed=1)
    assert isinstance(agent, MonteCarloAgent)
    assert agent.budget is None and agent.max_samples == 16 and agent.min_samples == 16
    assert agent.name == "MC"


@pytest.mark.parametrize("kind", ["nosuch", "rule:3", "random:n4", "heuristic:n4", "montecarlo:abc",
                                  "montecarlo:n0", "montecarlo:n-2", "montecarlo:n", "montecarlo:nabc",
                                  "montecarlo:-1", "montecarlo:0", "montecarlo:61", "montecarlo:nan",
                                  "montecarlo:inf", "Montecarlo", ""])
def test_make_agent_refuses_unknown_kinds_and_settings(kind: str) -> None:
    """Unknown kinds, settings on kinds that take none, and bad Monte Carlo settings (not a
    positive number of seconds up to 60, not ``n`` and a positive count) are ``ValueError``."""
    with pytest.raises(ValueError):
        make_agent(kind)


def test_error_messages_name_the_choices() -> None:
    """The errors say what is known or allowed."""
    with pytest.raises(ValueError, match="random, beginner, rule, heuristic, montecarlo"):
        make_agent("nosuch")
    with pytest.raises(ValueError, match="takes no setting"):
        make_agent("rule:3")
    with pytest.raises(ValueError, match="nSAMPLES"):
        make_agent("montecarlo:abc")


def test_montecarlo_n1_plays() -> None:
    """``montecarlo:n1`` is accepted, so it must be able to play (one deal per decision)."""
    round_ = playing_round(["Ma S3 B3", "", "", ""])
    plays = round_.legal_plays()
    assert make_agent("montecarlo:n1", seed=1).decide_play(SeatView.of(Table(round_), 0), plays) in plays


def test_montecarlo_v1_and_the_search_options() -> None:
    """``montecarlo`` searches every decision (issue 13 part 2); ``montecarlo:v1`` is the agent
    as before (every option off), also with a setting: ``montecarlo:v1:n16``, ``montecarlo:v1:0.2``."""
    assert make_agent("montecarlo", seed=1).options == SEARCH  # type: ignore[attr-defined]
    assert make_agent("montecarlo:n16", seed=1).options == SEARCH  # type: ignore[attr-defined]
    v1 = make_agent("montecarlo:v1", seed=1)
    assert isinstance(v1, MonteCarloAgent) and v1.options == V1 and v1.budget == DEFAULT_BUDGET
    v1n = make_agent("montecarlo:v1:n16", seed=1)
    assert isinstance(v1n, MonteCarloAgent) and v1n.options == V1 and v1n.max_samples == 16 and v1n.budget is None
    assert make_agent("montecarlo:v1:0.2").budget == 0.2  # type: ignore[attr-defined]
    assert V1.describe() == "v1" and "tichu" in SEARCH.describe() and PLAYS.describe() == "plays"
    plays = make_agent("montecarlo:plays:n16", seed=1)
    assert isinstance(plays, MonteCarloAgent) and plays.options == PLAYS and plays.max_samples == 16
    assert plays.policy.weights == DEFAULT and v1.policy.weights == HEURISTIC_V1
    for bad in ("montecarlo:v2", "montecarlo:v1:abc", "montecarlo:v1:v1", "montecarlo:v1:n0", "heuristic:v4",
                "montecarlo:plays:v1"):
        with pytest.raises(ValueError):
            make_agent(bad)


def test_heuristic_versions() -> None:
    """``heuristic`` is the tuned heuristic, ``heuristic:v1`` the first one (issue 13),
    ``heuristic:v2`` the tuned one without the exact endgames (issue 34), ``heuristic:v3`` the
    tuned one with its rollouts in the endgame only (before issue 34's rollouts at every play);
    other settings of the heuristic are refused with the known ones named."""
    tuned, first = make_agent("heuristic", seed=1), make_agent("heuristic:v1", name="H1", seed=1)
    assert isinstance(tuned, HeuristicAgent) and isinstance(first, HeuristicAgent)
    assert tuned.policy.weights == DEFAULT and first.policy.weights == HEURISTIC_V1 and first.name == "H1"
    assert make_agent("heuristic:v1").name == "heuristic:v1"
    before = make_agent("heuristic:v2", seed=1)
    assert isinstance(before, HeuristicAgent) and before.policy.weights.exact_nodes == 0
    assert tuned.policy.weights.exact_nodes > 0
    endgame_only = make_agent("heuristic:v3", seed=1)
    assert isinstance(endgame_only, HeuristicAgent) and endgame_only.policy.weights.rollout_cards == 5
    assert before.policy.weights.rollout_cards == 5 and tuned.policy.weights.rollout_cards == 14
    with pytest.raises(ValueError, match="use one of v1, v2, v3"):
        make_agent("heuristic:v4")


def test_heuristic_budget_setting() -> None:
    """``heuristic:SECONDS`` bounds the rollouts per decision (the level ``strong``), alone or
    after a version; without one there is no limit. Nothing else is taken."""
    plain, bounded, both = make_agent("heuristic"), make_agent("heuristic:0.4"), make_agent("heuristic:v3:0.25")
    assert isinstance(plain, HeuristicAgent) and plain.budget is None
    assert isinstance(bounded, HeuristicAgent) and bounded.budget == 0.4 and bounded.policy.weights == DEFAULT
    assert isinstance(both, HeuristicAgent) and both.budget == 0.25 and both.policy.weights.rollout_cards == 5
    for bad in ("heuristic:0", "heuristic:-1", "heuristic:61", "heuristic:0.4:v3", "heuristic:v3:v3", "heuristic:x",
                "heuristic:0.4:0.4", "heuristic:nan"):
        with pytest.raises(ValueError, match="bad setting"):
            make_agent(bad)
