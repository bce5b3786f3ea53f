"""``poc/revision_agent.py``: an agent of another tree seated beside this tree's (issue 34,
"the expert against today's expert", ``poc/vs_revision.py``). Its translation is checked the
only way that proves it: this tree's own sources, loaded as another package and asked through
translated views, play seeded games exactly as this tree's agents do. And the duplicate deals
both scripts play (``poc/duplicate_deals.py``)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from poc.duplicate_deals import play_deals
from poc.revision_agent import RevisionAgent, install, package_name, rewrite_imports
from tichu.agents.agent import Agent
from tichu.agents.driver import play_game
from tichu.agents.registry import make_agent
from tichu.arena.arena import Arena, GameSpec
from tichu.core.flow import GameState
from tichu.core.ruleset import RuleSet

SOURCES = Path(__file__).resolve().parents[2] / "src" / "tichu"


def test_only_the_imports_of_the_package_are_renamed() -> None:
    source = ("from tichu.core.cards import DOG\nimport tichu.core.flow as flow\n    from tichu import x\n"
              "from tichuish import y\nname = 'tichu.core.cards'\n")
    assert rewrite_imports(source, "tichu_at_abc") == (
        "from tichu_at_abc.core.cards import DOG\nimport tichu_at_abc.core.flow as flow\n"
        "    from tichu_at_abc import x\nfrom tichuish import y\nname = 'tichu.core.cards'\n")


def test_a_revision_name_must_be_a_plain_word() -> None:
    assert package_name("e5c57bf") == "tichu_at_e5c57bf"
    with pytest.raises(ValueError, match="not a revision name"):
        package_name("HEAD; rm -rf /")


@pytest.mark.parametrize("spec", ["heuristic", "montecarlo:plays:n4"])
def test_this_tree_as_another_package_plays_the_same_games_R8(spec: str, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Every decision kind passes the translation both ways (views in, plays out): seeded games
    of four translated agents end round by round with the very points of four native ones."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    files = {path.relative_to(SOURCES): path.read_bytes() for path in SOURCES.rglob("*.py")}
    package = install(files, tmp_path, f"tichu_at_test_{spec.replace(':', '_')}")
    for seed in (1, 2):
        native: list[Agent] = [make_agent(spec, name=f"s{seat}", seed=10 * seed + seat) for seat in range(4)]
        translated: list[Agent] = [RevisionAgent(package, spec, f"s{seat}", 10 * seed + seat) for seat in range(4)]
        rules = RuleSet(target_score=300)
        ours, theirs = play_game(native, rules, seed=seed), play_game(translated, rules, seed=seed)
        assert ours.game is not None and theirs.game is not None
        assert [result.points for result in theirs.game.results] == [result.points for result in ours.game.results]
        assert [result.calls for result in theirs.game.results] == [result.calls for result in ours.game.results]


def test_duplicate_deals_seat_both_teams_on_both_sides() -> None:
    """``poc/duplicate_deals.py``: each deal is played twice with the teams' seats swapped, every
    seat's agent is made for its team, and each game is shown to the observer."""
    made: list[tuple[int, str]] = []
    seen: list[tuple[int, bool]] = []

    def make(side: int, label: str, seed: int) -> Agent:
        made.append((side, label))
        return make_agent("random", name=label, seed=seed)

    def observe(spec: GameSpec, state: GameState) -> None:
        assert state.game is not None and state.game.winner is not None
        seen.append((spec.index, spec.swapped))

    report = play_deals(make, ("one", "other"), 4, 5, 200, False, observe=observe)
    assert report.games == 4 and [swapped for _, swapped in seen] == [False, True, False, True]
    assert made[:4] == [(0, "one-A0"), (1, "other-B1"), (0, "one-A2"), (1, "other-B3")]
    assert made[4:8] == [(1, "other-B1"), (0, "one-A0"), (1, "other-B3"), (0, "one-A2")]


def test_duplicate_deals_write_the_records_the_arena_writes() -> None:
    """``poc/duplicate_deals.py`` with ``records``: one line per game, the very records the
    Arena writes for the same agents and seed (its start time aside), so
    ``bin/paired_rounds.py`` pairs a side-by-side run's rounds like an Arena run's."""
    lines = io.StringIO()

    def make(side: int, label: str, seed: int) -> Agent:
        return make_agent(("rule", "random")[side], name=label, seed=seed)

    play_deals(make, ("rule", "random"), 4, 5, 300, False, records=lines)
    ours = [json.loads(line) for line in lines.getvalue().splitlines()]
    arena: list[dict[str, Any]] = []
    Arena(["rule", "random", "rule", "random"], games=4, seed=5, workers=1, target_score=300, duplicate=True,
          records=True).run(on_record=arena.append)
    assert len(ours) == 4 and [record["seed"] for record in ours] == [record["seed"] for record in arena]
    assert [{key: value for key, value in record.items() if key != "started_at"} for record in ours] == \
        [{key: value for key, value in record.items() if key != "started_at"} for record in arena]
