"""The Arena's statistics: Wilson and mean confidence intervals, Elo, and the SPRT (:mod:`tichu.arena.stats`)."""

from __future__ import annotations

import math

import pytest

from tichu.arena.stats import Sprt, elo_to_score, mean_interval, wilson_interval


@pytest.mark.parametrize(("successes", "trials", "low", "high"), [
    (50, 100, 0.4038, 0.5962),  # textbook values of the 95% Wilson interval
    (0, 10, 0.0, 0.2775),
    (8, 10, 0.4902, 0.9433),
    (10, 10, 0.7225, 1.0),
    (1, 1, 0.2065, 1.0),
    (81, 263, 0.2553, 0.3662),
])
def test_wilson_interval_known_values(successes: int, trials: int, low: float, high: float) -> None:
    """95% Wilson score intervals against published values."""
    result = wilson_interval(successes, trials)
    assert result == pytest.approx((low, high), abs=6e-5)


def test_wilson_interval_edges_and_z() -> None:
    """No trials: the whole range; a different z (1.0) gives the narrower interval computed by hand."""
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(8, 10, z=1.0) == pytest.approx((0.64908, 0.89638), abs=1e-5)
    low, high = wilson_interval(30, 100)
    assert 0 <= low < 0.3 < high <= 1
    # symmetric around one half
    assert wilson_interval(30, 100)[0] == pytest.approx(1 - wilson_interval(70, 100)[1])


def test_mean_interval_known_values() -> None:
    """Mean with the normal 95% interval: half width z * s / sqrt(n) with the sample deviation."""
    mean, low, high = mean_interval([1.0, 2.0, 3.0])
    assert mean == 2.0
    assert (low, high) == pytest.approx((2 - 1.131586, 2 + 1.131586), abs=1e-6)
    mean, low, high = mean_interval([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])  # s = sqrt(32 / 7)
    assert mean == 5.0
    assert high - mean == pytest.approx(1.959964 * math.sqrt(32 / 7) / math.sqrt(8), abs=1e-5)
    assert mean - low == pytest.approx(high - mean)
    assert mean_interval([4.0, 4.0, 4.0]) == (4.0, 4.0, 4.0)


def test_mean_interval_too_few_values() -> None:
    """With fewer than two values there is no interval."""
    assert mean_interval([]) == (0.0, -math.inf, math.inf)
    assert mean_interval([3.5]) == (3.5, -math.inf, math.inf)


def test_elo_to_score() -> None:
    """The logistic Elo model: equal strength 50%, 400 points 10:1."""
    assert elo_to_score(0) == 0.5
    assert elo_to_score(400) == pytest.approx(10 / 11)
    assert elo_to_score(-400) == pytest.approx(1 / 11)
    assert elo_to_score(35) == pytest.approx(0.55020, abs=1e-5)


def test_sprt_bounds() -> None:
    """Wald's bounds: log(beta / (1 - alpha)) and log((1 - beta) / alpha)."""
    sprt = Sprt()
    assert sprt.lower == pytest.approx(-math.log(19))
    assert sprt.upper == pytest.approx(math.log(19))
    loose = Sprt(alpha=0.45, beta=0.45)
    assert loose.upper == pytest.approx(math.log(0.55 / 0.45))


def test_sprt_accepts_h1_after_a_run_of_wins() -> None:
    """Elo 0 vs 35, alpha = beta = 0.05: each win adds log(0.5502 / 0.5) = 0.0957, so H1 comes with
    the 31st straight win (log 19 = 2.944), not before."""
    sprt = Sprt(0, 35)
    for _ in range(30):
        assert sprt.add(True) is None
    assert sprt.add(True) == "H1"
    assert sprt.decision == "H1"
    assert sprt.llr == pytest.approx(31 * math.log(0.5502 / 0.5), rel=1e-3)


def test_sprt_accepts_h0_after_a_run_of_losses() -> None:
    """Each loss adds log(0.4498 / 0.5) = -0.1058, so H0 comes with the 28th straight loss."""
    sprt = Sprt(0, 35)
    for _ in range(27):
        assert sprt.add(False) is None
    assert sprt.add(False) == "H0"


def test_sprt_decision_is_final() -> None:
    """Once decided, further results change neither the decision nor the LLR."""
    sprt = Sprt(0, 35, alpha=0.45, beta=0.45)
    assert [sprt.add(True) for _ in range(3)] == [None, None, "H1"]
    llr = sprt.llr
    for _ in range(50):
        assert sprt.add(False) == "H1"
    assert sprt.llr == llr


def test_sprt_even_results_drift_to_h0() -> None:
    """A 50% win rate is H0 (Elo 0), not H1 (Elo 35): alternating results end in H0."""
    sprt = Sprt(0, 35)
    games = 0
    while sprt.decision is None and games < 10000:
        sprt.add(games % 2 == 0)
        games += 1
    assert sprt.decision == "H0"
    assert 100 < games < 1000


def test_sprt_lopsided_results_stop_early() -> None:
    """A side winning 80% of games is recognised as stronger long before 1000 games."""
    sprt = Sprt(0, 35)
    games = 0
    while sprt.decision is None:
        sprt.add(games % 5 != 0)
        games += 1
    assert sprt.decision == "H1" and games < 100
