"""Two agents on duplicate deals in one process: the loop that ``poc/vs_frohlfing.py`` and
``poc/vs_revision.py`` share (docs/agents.md's method).

Team A and team B play every deal twice with the teams' seats swapped, games seeded as the
Arena seeds them (:func:`tichu.arena.arena.plan_games`), each seat's agent seeded by its place
in the line-up as the Arena seeds it. Both teams' decisions alternate in the one process, so a
machine that is busier for a while slows both alike (which matters for agents with a time
budget). The report is the Arena's (:class:`tichu.arena.arena.ArenaReport`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TextIO

from tichu.agents.agent import Agent
from tichu.agents.driver import play_game
from tichu.arena.arena import SIDES, ArenaReport, GameSpec, plan_games, summarize_game
from tichu.arena.stats import TimeHistogram, clearly_nonzero, mean_interval, wilson_interval
from tichu.arena.timed import TimedAgent
from tichu.core.flow import GameState
from tichu.core.ruleset import RuleSet
from tichu.core.seats import TEAM_NAMES
from tichu.records.record import game_record_line

#: Makes one seat's agent: its team (0 for A, 1 for B), its label and its seed.
MakeAgent = Callable[[int, str, int], Agent]


def interim_looks(games: int) -> set[int]:
    """The game counts after which ``until_clear`` looks: each tenth of the planned games,
    rounded to whole deals, as the Arena's (:class:`tichu.arena.arena.Arena`)."""
    return {2 * round(games * step / 20) for step in range(1, 10)}


def seat_agents(make: MakeAgent, names: tuple[str, str], spec: GameSpec,
                times: tuple[TimeHistogram, TimeHistogram]) -> list[Agent]:
    """The four timed agents of a game: team A's on seats 0 and 2 (1 and 3 in the swapped game
    of a deal), team B's on the others, each seeded by its place in the line-up."""
    order = [1, 0, 3, 2] if spec.swapped else [0, 1, 2, 3]
    agents: list[Agent] = []
    for source in order:
        seed = random.Random(f"{spec.seed}:{source}").getrandbits(63)
        side = source & 1
        agents.append(TimedAgent(make(side, f"{names[side]}-{SIDES[side]}{source}", seed), times[side]))
    return agents


def play_deals(make: MakeAgent, names: tuple[str, str], games: int, seed: int, target: int,
               until_clear: bool, minutes: float | None = None,
               observe: Callable[[GameSpec, GameState], None] | None = None,
               records: TextIO | None = None) -> ArenaReport:
    """Play the duplicate games (or until the difference is clear of zero at an interim look,
    or until ``minutes`` have passed at the end of a deal) and return the report.

    :param make: Makes the seats' agents.
    :param names: Team A's and team B's names in the report.
    :param games: The games planned, two per deal.
    :param seed: The seed of the whole run.
    :param target: The target score of a game.
    :param until_clear: Stop at the first interim look where the difference is clear of zero.
    :param minutes: Stop after the deal that ends past this time (``None``: no limit).
    :param observe: (Optional) Called with each game's plan and final state.
    :param records: (Optional) Where each game's record goes as a line, as the Arena writes it
        (docs/records.md; ``bin/paired_rounds.py`` pairs two runs' rounds by them).
    """
    report = ArenaReport((names[0], names[1], names[0], names[1]))
    looks = interim_looks(games)
    started = time.perf_counter()
    for spec in plan_games(games, seed, duplicate=True):
        times = (TimeHistogram(), TimeHistogram())
        agents = seat_agents(make, names, spec, times)
        rules = RuleSet(target_score=target)
        state = play_game(agents, rules, seed=spec.seed, keep_rounds=records is not None)
        assert state.game is not None
        if observe is not None:
            observe(spec, state)
        if records is not None:
            records.write(game_record_line(state.rounds, rules, [(agent.name, agent.kind) for agent in agents],
                                           record_id=f"arena-{spec.seed}-{spec.index}", seed=spec.seed) + "\n")
            records.flush()
        report.add(summarize_game(spec.index, state.game.results, spec.swapped,
                                  TEAM_NAMES.index(state.game.winner), times))
        if until_clear and report.games in looks and clearly_nonzero([float(d) for d in report.round_diffs]):
            report.stopped_early = "clear"
            break
        if minutes is not None and spec.swapped and time.perf_counter() - started > 60 * minutes:
            break
    report.elapsed = time.perf_counter() - started
    return report


def table_row(report: ArenaReport, opponent: str, command: str) -> str:
    """The run as a row of docs/agents.md's strength tables: A vs ``opponent``, games
    (rounds), A's game wins, difference per round, calls of A; B, bonus difference, A's time
    per decision, command."""
    low, high = wilson_interval(report.wins[0], report.games)
    mean, mean_low, mean_high = mean_interval([float(diff) for diff in report.round_diffs])
    bonus, bonus_low, bonus_high = mean_interval([float(diff) for diff in report.bonus_diffs])

    def calls(side: int) -> str:
        parts = []
        for grand in (0, 1):
            called = report.calls[side][grand]
            won = report.successes[side][grand]
            parts.append(f"{called}, {won / called:.0%}" if called else "0")
        return " / ".join(parts)

    times = report.times[0]
    time_cell = (f"{times.quantile(0.5) * 1e3:.2f} / {times.quantile(0.99) * 1e3:.1f} ms" if times.total else "–")
    return (f"| `{report.agents[0]}` vs {opponent} | {report.games} ({report.rounds}) "
            f"| {report.wins[0] / max(report.games, 1):.1%} ({low:.1%} .. {high:.1%}) "
            f"| {mean:+.1f} ({mean_low:+.1f} .. {mean_high:+.1f}) | {calls(0)}; {calls(1)} "
            f"| {bonus:+.1f} ({bonus_low:+.1f} .. {bonus_high:+.1f}) | {time_cell} | `{command}` |")
