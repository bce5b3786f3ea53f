"""Playing levels (:mod:`tichu.agents.levels`) and the beginner's human-like mistakes
(:mod:`tichu.agents.beginner_agent`)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from tests.core.helpers import playing_round
from tichu.agents.agent import Agent, AgentPlayer
from tichu.agents.beginner_agent import BeginnerAgent
from tichu.agents.levels import DEFAULT_LEVEL, LEVELS, agent_spec, make_level_agent
from tichu.agents.registry import AGENTS, DEFAULT_AGENT
from tichu.agents.rule_agent import RuleAgent
from tichu.core.combos import BOMB, SINGLE, Play
from tichu.core.round import Round
from tichu.core.ruleset import RuleSet
from tichu.core.views import SeatView, TableInfo, TablePhase
from tichu.engine.engine import GameEngine


class Table:
    def __init__(self, round_: Round) -> None:
        self.info = TableInfo(phase=TablePhase.PLAYING)
        self.round = round_


def test_levels_weakest_first_each_an_agent_of_the_registry() -> None:
    """Four levels, weakest first, each naming a registry agent; the default level plays the
    server's default agent."""
    assert list(LEVELS) == ["beginner", "casual", "strong", "expert"]
    assert [level.agent for level in LEVELS.values()] == ["beginner", "rule", "heuristic:0.4", "montecarlo:plays"]
    assert LEVELS[DEFAULT_LEVEL].agent == DEFAULT_AGENT
    for name, level in LEVELS.items():
        assert level.description == f"level.{name}.about"
        assert isinstance(make_level_agent(name, seed=1), Agent)


def test_agent_spec_takes_a_level_or_an_agent_kind() -> None:
    """A level resolves to its agent; an agent spec is itself; anything else is refused,
    naming the kinds and the levels."""
    assert agent_spec("casual") == "rule"
    for kind in AGENTS:
        assert agent_spec(kind) == kind
    assert agent_spec("montecarlo:n8") == "montecarlo:n8"
    with pytest.raises(ValueError, match="or a level: beginner, casual, strong, expert"):
        agent_spec("grandmaster")
    assert make_level_agent("strong").name == "strong"
    assert make_level_agent("casual", name="Bot 2").kind == "agent:rule"


def _game_players(agents: list[Agent]) -> list[AgentPlayer]:
    players = [AgentPlayer(agent) for agent in agents]
    engine = GameEngine(players, RuleSet(target_score=500), seed=21)
    asyncio.run(engine.run())
    return players


class Counting(BeginnerAgent):
    """A beginner that counts its plays that differ from the rules'."""

    def __init__(self, name: str, seed: int) -> None:
        super().__init__(name, seed)
        self.plays = 0
        self.differ = 0
        self.rule = RuleAgent("rule")

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        choice = super().decide_play(view, legal)
        if len(legal) > 1:
            self.plays += 1
            self.differ += choice != self.rule.decide_play(view, legal)
        return choice


def test_beginner_never_bombs_out_of_turn_and_errs_sometimes() -> None:
    """Over a game the beginner plays otherwise than the rules at some, but not most, of its
    choices (mistakes are the exception); it declines every bomb offer."""
    counting = [Counting("B0", 1), Counting("B2", 2)]
    _game_players([counting[0], RuleAgent("R1", 1), counting[1], RuleAgent("R3", 3)])
    plays = sum(agent.plays for agent in counting)
    differ = sum(agent.differ for agent in counting)
    assert plays > 50 and 0.05 * plays < differ < 0.6 * plays, (differ, plays)
    round_ = playing_round(["Ma S5 B5 G5 R5 S3", "", "", ""])
    view = SeatView.of(Table(round_), 0)
    bombs = [play for play in round_.legal_plays() if play.kind == BOMB]
    assert bombs and BeginnerAgent("b", 1).decide_bomb(view, bombs) is None


def test_beginner_leads_its_lowest_single_sometimes() -> None:
    """On a lead where the rules play a pair, the beginner sometimes leads its lowest single
    instead (seeded: the same over runs)."""
    round_ = playing_round(["Ma S3 B3 S9 SK", "", "", ""])
    legal = round_.legal_plays()
    rule = RuleAgent("rule").decide_play(SeatView.of(Table(round_), 0), legal)
    choices = [BeginnerAgent("b", seed).decide_play(SeatView.of(Table(round_), 0), legal) for seed in range(40)]
    lowest = [play for play in choices if play.kind == SINGLE and play != rule]
    assert any(play == rule for play in choices) and lowest
    assert [BeginnerAgent("b", 7).decide_play(SeatView.of(Table(round_), 0), legal) for _ in range(2)] \
        == [choices[7]] * 2


def test_beginner_calls_tichu_impulsively_with_high_cards() -> None:
    """With the Dragon and two Aces among 14 cards but a weak rest, the rules do
    not call Tichu; the beginner does for some seeds."""
    round_ = playing_round(["Dr SA BA S2 B3 G4 R6 S7 B9 GB RD S5 B8 GZ", "", "", ""])
    view = SeatView.of(Table(round_), 0)
    assert not RuleAgent("rule").decide_tichu(view)
    calls = [BeginnerAgent("b", seed).decide_tichu(view) for seed in range(20)]
    assert any(calls) and not all(calls)
