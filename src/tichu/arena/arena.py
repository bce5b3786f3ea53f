"""The Arena: many agent-vs-agent games on all cores, with statistics and early stopping.

Games are numbered; game ``i``'s seed comes from the run's seed and ``i`` alone, and the
parent processes results in game order, so a run gives the same results (and records)
whatever the number of workers. Workers play chunks of games and send back only
summaries, plus records when asked for.
"""

from __future__ import annotations

import gc
import json
import os
import random
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, Any

from tichu.agents.agent import Agent
from tichu.agents.driver import play_game
from tichu.agents.registry import make_agent
from tichu.arena.runners import ProcessRunner, RayRunner, Runner
from tichu.arena.stats import POCOCK_Z10, Sprt, TimeHistogram, clearly_nonzero, mean_interval, wilson_interval
from tichu.arena.timed import TimedAgent
from tichu.core.outcomes import RoundResult
from tichu.core.round import ANNOUNCE_GRAND
from tichu.core.ruleset import RuleSet
from tichu.core.seats import TEAM_NAMES, team_of
from tichu.records.record import game_record_line, now_iso

#: Team labels of the two agent teams: "A" sits on seats 0 and 2 in a normal game.
SIDES = ("A", "B")


@dataclass(frozen=True)
class GameSpec:
    """One game to play.

    :ivar index: The game's number in the run.
    :ivar seed: Seed of the shuffles and of the agents.
    :ivar swapped: Duplicate mode's second game of a deal: team A plays seats 1 and 3.
    """

    index: int
    seed: int
    swapped: bool


@dataclass
class GameSummary:
    """What a worker reports of one game, from the agent teams' side (A, B).

    :ivar index: The game's number.
    :ivar winner: 0 if team A won, 1 if team B.
    :ivar score: Final ``[A, B]`` points.
    :ivar round_diffs: Per round, A's points minus B's.
    :ivar calls: ``[[tichu, grand] for A, for B]`` numbers of calls.
    :ivar successes: The same, counting calls that were won.
    :ivar double_victories: Per side, the rounds it won with a double victory.
    :ivar times: Per side, the durations of its agents' decisions.
    :ivar record: The game record as its JSON line (records.md, :func:`~tichu.records.record.game_record_line`),
        when requested: cheaper to build, to send from a worker and to write than the object.
    :ivar bonus_diffs: Per round, A's Tichu bonus minus B's (R6: 100 or 200 per call won, less
        as much per call lost).
    """

    index: int
    winner: int
    score: tuple[int, int]
    round_diffs: list[int]
    calls: list[list[int]]
    successes: list[list[int]]
    double_victories: list[int]
    times: tuple[TimeHistogram, TimeHistogram]
    record: str | None = None
    bonus_diffs: list[int] = field(default_factory=list)


def game_seed(run_seed: int, index: int) -> int:
    """The seed of a run's game ``index`` (independent of workers and chunks)."""
    return random.Random(f"tichu-arena:{run_seed}:{index}").getrandbits(63)


def plan_games(games: int, seed: int, duplicate: bool) -> list[GameSpec]:
    """Number the games; in duplicate mode every deal is played twice, the teams' seats swapped."""
    if not duplicate:
        return [GameSpec(index, game_seed(seed, index), False) for index in range(games)]
    return [GameSpec(index, game_seed(seed, index // 2), index % 2 == 1) for index in range(games)]


@dataclass(frozen=True)
class ChunkJob:
    """A worker's job: some games with the same agents and rules.

    :ivar time_decisions: Measure every decision's duration (a wrapper around each decision
        on the hot path, so only when asked for).
    """

    agents: tuple[str, str, str, str]
    target_score: int
    specs: tuple[GameSpec, ...]
    records: bool
    started_at: str
    time_decisions: bool = False


def _seat_agents(job: ChunkJob, spec: GameSpec, times: tuple[TimeHistogram, TimeHistogram]) -> list[Agent]:
    names = list(job.agents)
    order = [1, 0, 3, 2] if spec.swapped else [0, 1, 2, 3]  # seat -> index into names
    agents: list[Agent] = []
    for source in order:
        # Seeded by the agent's place in the line-up, not its seat: in duplicate mode the
        # swapped game then differs beyond the cards instead of mirroring the first.
        agent_seed = random.Random(f"{spec.seed}:{source}").getrandbits(63)
        label = f"{names[source]}-{SIDES[source & 1]}{source}"
        agent = make_agent(names[source], name=label, seed=agent_seed)
        agents.append(TimedAgent(agent, times[source & 1]) if job.time_decisions else agent)
    return agents


def summarize_game(index: int, results: Sequence[RoundResult], swapped: bool, winner_team: int,
                   times: tuple[TimeHistogram, TimeHistogram], record: str | None = None) -> GameSummary:
    """A finished game from the agent teams' side (A, B): per round the score difference, the
    calls and their success (R6), the double victories (R7.1).

    :param results: The rounds' results, ``points`` per team of seats 0+2 and 1+3.
    :param swapped: Team A sat on seats 1 and 3.
    :param winner_team: The winning team of seats: 0 for seats 0+2, 1 for 1+3 (R7.4).
    """
    side_of_team = (1, 0) if swapped else (0, 1)  # seat team -> agent side
    score = [0, 0]
    calls = [[0, 0], [0, 0]]
    successes = [[0, 0], [0, 0]]
    double_victories = [0, 0]
    diffs, bonus_diffs = [], []
    for result in results:
        side_points = [0, 0]
        for team in (0, 1):
            side_points[side_of_team[team]] = result.points[team]
        diffs.append(side_points[0] - side_points[1])
        score = [score[0] + side_points[0], score[1] + side_points[1]]
        if result.double_victory:
            double_victories[side_of_team[team_of(result.out_order[0])]] += 1
        bonus = [0, 0]
        for seat, success in enumerate(result.tichu_success):
            if success is not None:
                side = side_of_team[team_of(seat)]
                grand = 1 if result.calls[seat] == ANNOUNCE_GRAND else 0
                calls[side][grand] += 1
                successes[side][grand] += int(success)
                bonus[side] += (200 if grand else 100) * (1 if success else -1)
        bonus_diffs.append(bonus[0] - bonus[1])
    return GameSummary(index, side_of_team[winner_team], (score[0], score[1]), diffs, calls, successes,
                       double_victories, times, record, bonus_diffs)


def play_chunk(job: ChunkJob) -> list[GameSummary]:
    """Play a chunk of games in this process (the worker's entry point): each game a plain
    loop of its agents over the rules core (:func:`~tichu.agents.driver.play_game`)."""
    with _fewer_collections():
        return _play_chunk(job)


#: The garbage collector's first threshold while a chunk plays (Python's default: 700).
CHUNK_GC_THRESHOLD = 50_000


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """Let the garbage collector run less often while a chunk plays: a game makes and drops
    many small objects (plays, views, events), which reference counting frees, and a
    collection every 700 of them found nothing but cost several percent of the time
    (docs/benchmarks.md). The thresholds are restored after, whatever happens."""
    thresholds = gc.get_threshold()
    gc.set_threshold(CHUNK_GC_THRESHOLD, thresholds[1], thresholds[2])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def _play_chunk(job: ChunkJob) -> list[GameSummary]:
    summaries = []
    for spec in job.specs:
        times = (TimeHistogram(), TimeHistogram())
        agents = _seat_agents(job, spec, times)
        rules = RuleSet(target_score=job.target_score)
        state = play_game(agents, rules, seed=spec.seed, keep_rounds=job.records)
        game = state.game
        assert game is not None
        record = None
        if job.records:
            record = game_record_line(state.rounds, rules, [(agent.name, agent.kind) for agent in agents],
                                      record_id=f"arena-{spec.seed}-{spec.index}", seed=spec.seed,
                                      started_at=job.started_at)
        summaries.append(summarize_game(spec.index, game.results, spec.swapped, TEAM_NAMES.index(game.winner),
                                        times, record))
    return summaries


@dataclass(frozen=True)
class _RecordSinks:
    """Who receives the records of a run: as objects, as JSON lines, or both."""

    objects: Callable[[dict[str, Any]], None] | None
    lines: Callable[[str], None] | None

    def take(self, line: str) -> None:
        """Pass one game's record (its JSON line) on."""
        if self.lines is not None:
            self.lines(line)
        if self.objects is not None:
            self.objects(json.loads(line))


@dataclass
class ArenaReport:
    """Statistics of a run, from the agent teams' side (A = the first and third agent).

    :ivar agents: The four agent names.
    :ivar games: Games played (and counted).
    :ivar stopped_early: The SPRT's decision when it stopped the run, else ``None``.
    :ivar elapsed: Seconds of wall time.
    """

    agents: tuple[str, str, str, str]
    games: int = 0
    rounds: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    round_diffs: list[int] = field(default_factory=list)
    bonus_diffs: list[int] = field(default_factory=list)
    calls: list[list[int]] = field(default_factory=lambda: [[0, 0], [0, 0]])
    successes: list[list[int]] = field(default_factory=lambda: [[0, 0], [0, 0]])
    double_victories: list[int] = field(default_factory=lambda: [0, 0])
    times: tuple[TimeHistogram, TimeHistogram] = field(default_factory=lambda: (TimeHistogram(), TimeHistogram()))
    stopped_early: str | None = None
    sprt_llr: float | None = None
    elapsed: float = 0.0

    def add(self, summary: GameSummary) -> None:
        """Count one game."""
        self.games += 1
        self.rounds += len(summary.round_diffs)
        self.wins[summary.winner] += 1
        self.round_diffs += summary.round_diffs
        self.bonus_diffs += summary.bonus_diffs
        for side in (0, 1):
            self.times[side].merge(summary.times[side])
            self.double_victories[side] += summary.double_victories[side]
            for grand in (0, 1):
                self.calls[side][grand] += summary.calls[side][grand]
                self.successes[side][grand] += summary.successes[side][grand]

    def tichu_bonus(self, side: int) -> int:
        """A side's Tichu and Grand Tichu points: 100 (200) per call won, less as much per call lost (R6)."""
        return sum(value * (2 * self.successes[side][grand] - self.calls[side][grand])
                   for grand, value in ((0, 100), (1, 200)))

    def lines(self) -> list[str]:
        """The report as text lines."""
        low, high = wilson_interval(self.wins[0], self.games)
        mean, mean_low, mean_high = mean_interval([float(diff) for diff in self.round_diffs])
        seconds = max(self.elapsed, 1e-9)
        lines = [
            f"Team A (seats 0+2 in normal games): {self.agents[0]} + {self.agents[2]}",
            f"Team B (seats 1+3 in normal games): {self.agents[1]} + {self.agents[3]}",
            f"games {self.games}, rounds {self.rounds} ({self.rounds / max(self.games, 1):.2f} per game)",
            f"team A wins {self.wins[0]} ({self.wins[0] / max(self.games, 1):.1%}, "
            f"95% CI {low:.1%} .. {high:.1%}); team B wins {self.wins[1]}",
            f"score difference A - B per round: {mean:+.1f} (95% CI {mean_low:+.1f} .. {mean_high:+.1f})",
        ]
        for side in (0, 1):
            parts = []
            for grand, label in ((0, "Tichu"), (1, "Grand Tichu")):
                called = self.calls[side][grand]
                won = self.successes[side][grand]
                parts.append(f"{label} {called} calls, {won / called:.0%} won" if called else f"{label} 0 calls")
            rounds = max(self.rounds, 1)
            parts.append(f"calls per round {sum(self.calls[side]) / rounds:.3f}, "
                         f"Tichu bonus per round {self.tichu_bonus(side) / rounds:+.1f}")
            parts.append(f"double victories {self.double_victories[side]}")
            times = self.times[side]
            if times.total:
                parts.append(f"{times.total} decisions, median {times.quantile(0.5) * 1e3:.2f} ms, "
                             f"p99 {times.quantile(0.99) * 1e3:.2f} ms")
            else:
                parts.append("decisions not timed")
            lines.append(f"team {SIDES[side]}: " + ", ".join(parts))
        if len(self.bonus_diffs) > 1:
            bonus, bonus_low, bonus_high = mean_interval([float(diff) for diff in self.bonus_diffs])
            lines.append(f"Tichu bonus difference A - B per round: {bonus:+.1f} "
                         f"(95% CI {bonus_low:+.1f} .. {bonus_high:+.1f})")
        if self.stopped_early == "clear":
            lines.append(f"stopped at an interim look: the mean difference per round is clear of 0 "
                         f"(|z| > {POCOCK_Z10}, Pocock's boundary for ten looks)")
        elif self.stopped_early:
            lines.append(f"SPRT stopped the run: {self.stopped_early} (LLR {self.sprt_llr:.2f})")
        elif self.sprt_llr is not None:
            lines.append(f"SPRT undecided (LLR {self.sprt_llr:.2f})")
        lines.append(f"{self.elapsed:.1f} s: {self.games / seconds:.1f} games/s, {self.rounds / seconds:.1f} rounds/s")
        return lines


class ProgressBar:
    """A one-line progress bar on a terminal (silent elsewhere)."""

    def __init__(self, total: int, stream: IO[str] | None = None, enabled: bool | None = None) -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.started = time.perf_counter()
        self._last = 0.0

    def update(self, done: int) -> None:
        """Show ``done`` of ``total`` (at most ten times a second, and at the end)."""
        now = time.perf_counter()
        if not self.enabled or (now - self._last < 0.1 and done < self.total):
            return
        self._last = now
        width = 30
        filled = int(width * done / max(self.total, 1))
        rate = done / max(now - self.started, 1e-9)
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} games, {rate:.1f}/s")
        self.stream.flush()

    def close(self) -> None:
        """End the line."""
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


class Arena:
    """Runs games of four agents and collects the statistics.

    :ivar agents: Agent names by seat of a normal game (see :mod:`tichu.agents.registry`).
    :ivar cluster: A Ray cluster's address (or ``auto``) to play the chunks on instead of
        local worker processes; ``None`` plays here.
    :ivar time_decisions: Time every decision for the report (off: the hot path stays bare).
    """

    def __init__(self, agents: Sequence[str], *, games: int = 1000, seed: int = 1, workers: int | None = None,
                 target_score: int = 1000, duplicate: bool = False, records: bool = False,
                 sprt: Sprt | None = None, until_clear: bool = False, chunk_size: int | None = None,
                 cluster: str | None = None, time_decisions: bool = False) -> None:
        if len(agents) != 4:
            raise ValueError("four agents are needed")
        self.agents = (agents[0], agents[1], agents[2], agents[3])
        for name in self.agents:
            make_agent(name)  # fail early on an unknown name
        self.games = games
        self.seed = seed
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.target_score = target_score
        self.duplicate = duplicate
        self.records = records
        self.sprt = sprt
        self.until_clear = until_clear
        unit = 2 if duplicate else 1  # a duplicate deal is looked at after both its games
        self.looks = {unit * round(games * step / (10 * unit)) for step in range(1, 10)}
        self.chunk_size = chunk_size
        self.cluster = cluster
        self.time_decisions = time_decisions

    def _jobs(self, workers: int) -> Iterator[ChunkJob]:
        """The chunks: about eight per worker, at most 25 games each (unless a size was given)."""
        size = self.chunk_size or max(1, min(25, self.games // (workers * 8) or 1))
        specs = plan_games(self.games, self.seed, self.duplicate)
        started_at = now_iso()
        for start in range(0, len(specs), size):
            yield ChunkJob(self.agents, self.target_score, tuple(specs[start:start + size]),
                           self.records, started_at, self.time_decisions)

    def run(self, *, on_record: Callable[[dict[str, Any]], None] | None = None,
            on_record_line: Callable[[str], None] | None = None,
            progress: ProgressBar | None = None) -> ArenaReport:
        """Play the games (or until the SPRT decides) and return the report.

        :param on_record: (Optional) Receives each game's record, in game order.
        :param on_record_line: (Optional) Receives each game's record as its JSON line, in game
            order (what a record file holds: :meth:`~tichu.records.record.RecordWriter.write_line`).
        :param progress: (Optional) A progress bar to update.
        """
        report = ArenaReport(self.agents)
        started = time.perf_counter()
        if self.cluster is None and self.workers == 1:
            for summaries in map(play_chunk, self._jobs(1)):
                if self._consume(summaries, report, _RecordSinks(on_record, on_record_line), progress):
                    break
        else:
            runner: Runner[ChunkJob, list[GameSummary]] = (
                ProcessRunner(play_chunk, self.workers) if self.cluster is None
                else RayRunner(play_chunk, self.cluster))
            self._run_parallel(runner, report, _RecordSinks(on_record, on_record_line), progress)
        report.elapsed = time.perf_counter() - started
        if self.sprt is not None:
            report.sprt_llr = self.sprt.llr
        if progress:
            progress.close()
        return report

    def _run_parallel(self, runner: Runner[ChunkJob, list[GameSummary]], report: ArenaReport,
                      records: _RecordSinks, progress: ProgressBar | None) -> None:
        """Keep two chunks per worker in flight and consume the results in game order.

        After an early stop no chunk is submitted any more and the runner closes normally
        (:meth:`~tichu.arena.runners.Runner.close`); an error or an interrupt aborts it.
        """
        jobs = self._jobs(runner.slots)
        in_flight: deque[Callable[[], list[GameSummary]]] = deque()

        def submit() -> None:
            job = next(jobs, None)
            if job is not None:
                in_flight.append(runner.submit(job))

        try:
            for _ in range(2 * runner.slots):
                submit()
            while in_flight:
                if self._consume(in_flight.popleft()(), report, records, progress):
                    break
                submit()
        except BaseException:
            runner.abort()
            raise
        runner.close()

    def _consume(self, summaries: list[GameSummary], report: ArenaReport,
                 records: _RecordSinks, progress: ProgressBar | None) -> bool:
        """Count a chunk's games in order; return whether a stopping rule ended the run.

        With ``until_clear`` the mean score difference per round is looked at after each
        tenth of the planned games (nine interim looks and the end) and the run stops once it is
        :data:`~tichu.arena.stats.POCOCK_Z10` standard errors from zero.
        """
        for summary in summaries:
            report.add(summary)
            if summary.record is not None:
                records.take(summary.record)
            if self.sprt is not None and self.sprt.add(summary.winner == 0):
                report.stopped_early = self.sprt.decision
                return True
            if self.until_clear and report.games in self.looks \
                    and clearly_nonzero([float(diff) for diff in report.round_diffs]):
                report.stopped_early = "clear"
                return True
        if progress:
            progress.update(report.games)
        return False
