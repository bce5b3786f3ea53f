"""The Arena (:mod:`tichu.arena.arena`) and its command line ``tichu-arena``: reproducible runs on
any number of workers, duplicate deals, early stopping by the SPRT, statistics, records."""

from __future__ import annotations

import importlib
import io
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tichu.arena.arena import (
    Arena,
    ArenaReport,
    ChunkJob,
    GameSummary,
    ProgressBar,
    game_seed,
    plan_games,
    play_chunk,
)
from tichu.arena.stats import Sprt, TimeHistogram
from tichu.core.cards import format_mask
from tichu.core.flow import GameState
from tichu.core.ruleset import RuleSet
from tichu.records.record import json_object, read_records, replay

ROOT = Path(__file__).resolve().parents[2]
RANDOM4 = ["random"] * 4


def _report_facts(report: ArenaReport) -> dict[str, Any]:
    return {"games": report.games, "rounds": report.rounds, "wins": report.wins, "round_diffs": report.round_diffs,
            "calls": report.calls, "successes": report.successes, "double_victories": report.double_victories,
            "stopped_early": report.stopped_early, "sprt_llr": report.sprt_llr}


def _run(**kwargs: Any) -> tuple[ArenaReport, list[dict[str, Any]]]:
    records: list[dict[str, Any]] = []
    report = Arena(RANDOM4, **kwargs).run(on_record=records.append)
    return report, records


def _without_time(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key != "started_at"}


def _side_facts(record: dict[str, Any]) -> dict[str, Any]:
    """Statistics of one game from its record, from the agent teams' side (A, B)."""
    a_team = 0 if "-A" in record["players"][0]["name"] else 1  # team index (20, 31) of side A
    assert ("-A" in record["players"][2]["name"]) == (a_team == 0)

    def side(seat: int) -> int:
        return 0 if seat % 2 == a_team else 1

    calls = [[0, 0], [0, 0]]
    successes = [[0, 0], [0, 0]]
    doubles = [0, 0]
    diffs = []
    for round_ in record["rounds"]:
        diffs.append(round_["score"][a_team] - round_["score"][1 - a_team])
        first = round_["out_order"][0]
        callers = [(seat, 1) for seat in range(4) if round_["grand_tichu"][seat]]
        callers += [(event["seat"], 0) for event in round_["events"] if "tichu" in event]
        for seat, grand in callers:
            calls[side(seat)][grand] += 1
            successes[side(seat)][grand] += seat == first
        if round_["double_victory"]:
            doubles[side(first)] += 1
    winner_team = 0 if record["winner"] == 20 else 1
    return {"winner": 0 if winner_team == a_team else 1, "diffs": diffs, "calls": calls, "successes": successes,
            "doubles": doubles}


def _report_from_records(records: list[dict[str, Any]]) -> dict[str, Any]:
    facts = [_side_facts(record) for record in records]
    return {
        "games": len(records), "rounds": sum(len(record["rounds"]) for record in records),
        "wins": [sum(f["winner"] == 0 for f in facts), sum(f["winner"] == 1 for f in facts)],
        "round_diffs": [d for f in facts for d in f["diffs"]],
        "calls": [[sum(f["calls"][s][g] for f in facts) for g in (0, 1)] for s in (0, 1)],
        "successes": [[sum(f["successes"][s][g] for f in facts) for g in (0, 1)] for s in (0, 1)],
        "double_victories": [sum(f["doubles"][s] for f in facts) for s in (0, 1)],
    }


# -- planning -------------------------------------------------------------------------------


def test_plan_games_seeds_depend_on_run_seed_and_index_only() -> None:
    """Game i's seed comes from the run's seed and i alone (so any split into chunks or workers
    plays the same games); normal games are never swapped."""
    plan = plan_games(30, 7, duplicate=False)
    assert [spec.index for spec in plan] == list(range(30))
    assert len({spec.seed for spec in plan}) == 30
    assert not any(spec.swapped for spec in plan)
    assert plan_games(10, 7, duplicate=False) == plan[:10]
    assert [spec.seed for spec in plan_games(5, 8, duplicate=False)] != [spec.seed for spec in plan[:5]]
    assert plan[3].seed == game_seed(7, 3)


def test_plan_games_duplicate_pairs_deals() -> None:
    """Duplicate mode: games 2k and 2k+1 share a deal seed, the second with the teams' seats swapped."""
    plan = plan_games(8, 3, duplicate=True)
    for k in range(4):
        first, second = plan[2 * k], plan[2 * k + 1]
        assert first.seed == second.seed == game_seed(3, k)
        assert not first.swapped and second.swapped
    assert len({spec.seed for spec in plan}) == 4


# -- reproducibility --------------------------------------------------------------------------


def test_same_seed_same_results_with_one_or_two_workers() -> None:
    """One seed gives identical statistics and identical records (but ``started_at``) whether the
    games run in this process or on two workers, and whatever the chunk size."""
    one, records_one = _run(games=20, seed=42, workers=1, target_score=300, records=True)
    two, records_two = _run(games=20, seed=42, workers=2, target_score=300, records=True)
    chunks, records_chunks = _run(games=20, seed=42, workers=2, target_score=300, records=True, chunk_size=7)
    assert one.games == 20 and one.rounds >= 20
    assert _report_facts(one) == _report_facts(two) == _report_facts(chunks)
    assert len(records_one) == 20
    assert [_without_time(r) for r in records_one] == [_without_time(r) for r in records_two]
    assert [_without_time(r) for r in records_one] == [_without_time(r) for r in records_chunks]
    # in game order
    assert [record["id"] for record in records_one] == [f"arena-{game_seed(42, i)}-{i}" for i in range(20)]
    _, records_other = _run(games=20, seed=43, workers=1, target_score=300, records=True)
    assert records_other[0]["rounds"][0]["deal"] != records_one[0]["rounds"][0]["deal"]


def test_the_arena_owns_the_seeds_its_records_keep() -> None:
    """Issue 36: the Arena, not the rule set, owns each game's seed: a record keeps the seed
    its game was dealt from (records.md), which deals the same rounds again (R2.1), while its
    ``rules`` hold none."""
    _, records = _run(games=3, seed=42, workers=1, target_score=300, records=True)
    for index, record in enumerate(records):
        assert record["seed"] == game_seed(42, index) and "seed" not in record["rules"]
        state = GameState(RuleSet.from_json(record["rules"]), seed=record["seed"])
        state.deal()
        assert state.round is not None
        assert [format_mask(mask) for mask in state.round.first_deal] == record["rounds"][0]["deal"]


def test_report_agrees_with_the_records() -> None:
    """Wins, per-round score differences, calls, successful calls and double victories of the
    report are those of the games' records, seen from team A (seats 0+2)."""
    report, records = _run(games=30, seed=5, workers=1, target_score=500, records=True)
    assert {key: value for key, value in _report_facts(report).items()
            if key not in ("stopped_early", "sprt_llr")} == _report_from_records(records)
    for record in records:
        assert record["rules"]["target_score"] == 500
        assert [player["kind"] for player in record["players"]] == ["agent:random"] * 4
        assert max(record["score"]) >= 500
    assert sum(report.wins) == 30
    assert sum(sum(side) for side in report.calls) > 0


def test_records_only_when_asked() -> None:
    """Without ``records`` no record is produced (workers send summaries only)."""
    report, records = _run(games=4, seed=1, workers=1, target_score=200, records=False)
    assert report.games == 4 and records == []


# -- duplicate mode ---------------------------------------------------------------------------


def test_duplicate_mode_plays_each_deal_twice_with_seats_swapped() -> None:
    """Each deal is played twice: the same deals round by round, and the agents' seats swapped
    (team A on seats 1+3 in the second game)."""
    report, records = _run(games=8, seed=9, workers=1, target_score=300, records=True, duplicate=True)
    assert report.games == 8
    for k in range(4):
        first, second = records[2 * k], records[2 * k + 1]
        assert first["seed"] == second["seed"]
        shared = min(len(first["rounds"]), len(second["rounds"]))
        for a, b in zip(first["rounds"][:shared], second["rounds"][:shared]):
            assert a["deal"] == b["deal"] and a["deal_rest"] == b["deal_rest"]
        names_first = [player["name"] for player in first["players"]]
        names_second = [player["name"] for player in second["players"]]
        assert names_second == [names_first[1], names_first[0], names_first[3], names_first[2]]
        assert all("-A" in name for name in names_first[0::2]) and all("-B" in name for name in names_second[0::2])
    # the statistics count the swapped games for the right side
    assert {key: value for key, value in _report_facts(report).items()
            if key not in ("stopped_early", "sprt_llr")} == _report_from_records(records)


def test_duplicate_mode_is_reproducible_on_two_workers() -> None:
    """Duplicate runs are the same on one or two workers."""
    one, records_one = _run(games=6, seed=4, workers=1, target_score=300, records=True, duplicate=True)
    two, records_two = _run(games=6, seed=4, workers=2, target_score=300, records=True, duplicate=True)
    assert _report_facts(one) == _report_facts(two)
    assert [_without_time(r) for r in records_one] == [_without_time(r) for r in records_two]


# -- early stopping -----------------------------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2])
def test_sprt_stops_the_run_early(workers: int) -> None:
    """With loose bounds (alpha = beta = 0.45) the SPRT decides after a few games: the run stops
    there, and the decision is the one a fresh SPRT reaches on the same results."""
    sprt = Sprt(0, 35, alpha=0.45, beta=0.45)
    report, records = _run(games=60, seed=3, workers=workers, target_score=200, records=True, sprt=sprt)
    assert report.stopped_early in ("H0", "H1")
    assert report.games < 60 and len(records) == report.games
    check = Sprt(0, 35, alpha=0.45, beta=0.45)
    decisions = [check.add(_side_facts(record)["winner"] == 0) for record in records]
    assert decisions[-1] == report.stopped_early and all(d is None for d in decisions[:-1])
    assert report.sprt_llr == pytest.approx(check.llr)
    assert any(line.startswith(f"SPRT stopped the run: {report.stopped_early}") for line in report.lines())


def test_sprt_undecided_runs_all_games() -> None:
    """A strict SPRT that cannot decide in 5 games lets all of them run and says so."""
    report, _ = _run(games=5, seed=3, workers=1, target_score=200, sprt=Sprt(0, 35))
    assert report.games == 5 and report.stopped_early is None
    assert any(line.startswith("SPRT undecided") for line in report.lines())


# -- pieces -------------------------------------------------------------------------------------


def test_play_chunk_summaries() -> None:
    """A worker's chunk returns one summary per game, in order, with the record when asked."""
    specs = tuple(plan_games(3, 11, duplicate=True))
    summaries = play_chunk(ChunkJob(("random",) * 4, 200, specs, True, "2026-01-01T00:00:00Z"))
    assert [summary.index for summary in summaries] == [0, 1, 2]
    for summary in summaries:
        assert isinstance(summary, GameSummary) and summary.record is not None
        record = json.loads(summary.record)  # the record's JSON line (records.md)
        assert "\n" not in summary.record and record["started_at"] == "2026-01-01T00:00:00Z"
        assert len(summary.round_diffs) == len(record["rounds"])
        assert summary.score[0] - summary.score[1] == sum(summary.round_diffs)
        assert replay(record) is None
        facts = _side_facts(record)
        assert summary.winner == facts["winner"] and summary.round_diffs == facts["diffs"]


def test_report_lines() -> None:
    """The report's text names the teams, the games and rounds, wins with their interval, the score
    difference, calls with their rate and Tichu bonus per round (R6: +-100 for Tichu, +-200 for
    Grand Tichu), the bonus difference per round with its interval, and double victories."""
    report = ArenaReport(("random", "random", "random", "random"))
    times = (TimeHistogram(), TimeHistogram())
    for _ in range(99):
        times[0].add(0.002)
    times[0].add(0.5)
    report.add(GameSummary(0, 0, (1000, 400), [600, 0], [[1, 0], [0, 1]], [[1, 0], [0, 0]], [1, 0], times,
                           bonus_diffs=[100, 200]))
    report.add(GameSummary(1, 1, (300, 1100), [-400, -400], [[0, 0], [0, 0]], [[0, 0], [0, 0]], [0, 0], times,
                           bonus_diffs=[0, 0]))
    report.elapsed = 2.0
    text = "\n".join(report.lines())
    assert "games 2, rounds 4 (2.00 per game)" in text
    assert "team A wins 1 (50.0%" in text and "team B wins 1" in text
    assert "score difference A - B per round: -50.0" in text
    assert ("team A: Tichu 1 calls, 100% won, Grand Tichu 0 calls, calls per round 0.250, "
            "Tichu bonus per round +25.0, double victories 1") in text
    assert ("team B: Tichu 0 calls, Grand Tichu 1 calls, 0% won, calls per round 0.250, "
            "Tichu bonus per round -50.0, double victories 0") in text
    assert (report.tichu_bonus(0), report.tichu_bonus(1)) == (100, -200)
    assert "Tichu bonus difference A - B per round: +75.0 (95% CI " in text
    assert "1.0 games/s" in text
    assert "team A: " in text and "200 decisions, median 2." in text and "p99 " in text


def test_the_bonus_difference_per_round_adds_up_to_the_sides_tichu_bonus_R6() -> None:
    """Each round's Tichu bonus difference A - B (R6) is counted once: over a run with calls, the
    per-round differences sum to side A's bonus minus side B's, one per round."""
    report = Arena(["heuristic", "rule", "heuristic", "rule"], games=2, seed=4, workers=1, duplicate=True).run()
    assert len(report.bonus_diffs) == report.rounds
    assert any(report.bonus_diffs), "no Tichu call in the run: pick another seed"
    assert sum(report.bonus_diffs) == report.tichu_bonus(0) - report.tichu_bonus(1)


def test_until_clear_stops_at_an_interim_look() -> None:
    """The round difference of a clearly stronger team is clear of zero at the first look
    (a tenth of the planned games), and the run stops there; equal teams play on."""
    strong = Arena(["rule", "random", "rule", "random"], games=40, seed=3, workers=1, until_clear=True,
                   duplicate=True).run()
    assert strong.games == 4 and strong.stopped_early == "clear"
    assert any("stopped at an interim look" in line for line in strong.lines())
    equal = Arena(["random"] * 4, games=20, seed=3, workers=1, until_clear=True, target_score=200).run()
    assert equal.games == 20 and equal.stopped_early is None


def test_decision_times_are_counted_per_side_when_asked_for() -> None:
    """With ``time_decisions`` every decision the engine asks of an agent is timed for its side
    (A or B); without, nothing is timed and the report says so, and the games are the same."""
    timed = Arena(["rule", "random", "rule", "random"], games=2, seed=5, workers=1, target_score=200,
                  time_decisions=True).run()
    assert timed.times[0].total > 0 and timed.times[1].total > 0
    assert 0 < timed.times[0].quantile(0.5) <= timed.times[0].quantile(0.99)
    assert any("decisions, median" in line for line in timed.lines())
    bare = Arena(["rule", "random", "rule", "random"], games=2, seed=5, workers=1, target_score=200).run()
    assert bare.times[0].total == 0 and bare.times[1].total == 0
    assert sum("decisions not timed" in line for line in bare.lines()) == 2
    assert bare.round_diffs == timed.round_diffs


def test_progress_bar() -> None:
    """The progress bar writes only when enabled (by default only on a terminal)."""
    stream = io.StringIO()
    bar = ProgressBar(5, stream=stream, enabled=True)
    bar.update(5)
    bar.close()
    assert "5/5 games" in stream.getvalue() and stream.getvalue().endswith("\n")
    quiet = io.StringIO()
    silent = ProgressBar(5, stream=quiet)  # a StringIO is no terminal
    silent.update(5)
    silent.close()
    assert quiet.getvalue() == ""


def test_arena_refuses_bad_agents() -> None:
    """Four known agents are needed."""
    with pytest.raises(ValueError):
        Arena(["random"] * 3)
    with pytest.raises(ValueError):
        Arena(["random", "random", "nonsense", "random"])


# -- tichu-arena -------------------------------------------------------------------------------


def _cli() -> ModuleType:
    return importlib.import_module("tichu.cli.arena")


def test_run_arena_cli_prints_statistics_and_writes_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``run_arena.py --games 5 --workers 1 --no-progress --records FILE`` prints the statistics and
    writes 5 valid records (records.md)."""
    path = tmp_path / "games.jsonl"
    cli = _cli()
    code = cli.main(["--games", "5", "--workers", "1", "--no-progress", "--records", str(path), "--target", "300"])
    assert code == 0
    out = capsys.readouterr().out
    assert "games 5, rounds" in out
    assert "team A wins" in out and "95% CI" in out
    assert "score difference A - B per round" in out
    assert f"records: {path}" in out
    records = list(read_records(path))
    assert len(records) == 5
    assert all(replay(record) is None for record in records)
    assert all(json_object(record["rules"])["target_score"] == 300 for record in records)
    # the same command gives the same games
    again = tmp_path / "again.jsonl"
    cli.main(["--games", "5", "--workers", "1", "--no-progress", "--records", str(again), "--target", "300"])
    capsys.readouterr()
    assert [_without_time(r) for r in read_records(again)] == [_without_time(r) for r in records]
    assert "decisions not timed" in out
    # --times adds each side's decision times
    cli.main(["--games", "2", "--workers", "1", "--no-progress", "--target", "300", "--times"])
    assert capsys.readouterr().out.count("decisions, median") == 2


def test_run_arena_cli_defaults_and_two_agents() -> None:
    """Two agent names stand for team A's and team B's; the default is four random agents."""
    cli = _cli()
    args = cli.parse_args(["random", "random", "--games", "3"])
    assert args.agents == ["random"] * 4 and args.games == 3 and args.workers is None
    assert args.cluster is None and not args.times
    assert cli.parse_args([]).agents == ["random"] * 4
    with pytest.raises(SystemExit):
        cli.parse_args(["random", "random", "random"])


def test_a_chunk_collects_garbage_less_often_and_restores_the_thresholds(monkeypatch: pytest.MonkeyPatch) -> None:
    """While a chunk plays the collector's first threshold is raised (a game's small objects are
    freed by reference counting); after it, also after a failure, the thresholds are as before."""
    import gc

    from tichu.agents.driver import play_game
    from tichu.arena import arena as arena_module

    seen: list[tuple[int, int, int]] = []
    original = play_game

    def watching(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.get_threshold())
        return original(*args, **kwargs)

    before = gc.get_threshold()
    monkeypatch.setattr(arena_module, "play_game", watching)
    play_chunk(ChunkJob(("random",) * 4, 200, tuple(plan_games(2, 3, False)), False, "x"))
    assert seen and all(found[0] == arena_module.CHUNK_GC_THRESHOLD for found in seen)
    assert gc.get_threshold() == before

    def failing(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a game failed")

    monkeypatch.setattr(arena_module, "play_game", failing)
    with pytest.raises(RuntimeError):
        play_chunk(ChunkJob(("random",) * 4, 200, tuple(plan_games(1, 3, False)), False, "x"))
    assert gc.get_threshold() == before
