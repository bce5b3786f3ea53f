"""Statistics for the Arena: confidence intervals and the sequential probability ratio test."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion.

    :param successes: Number of successes.
    :param trials: Number of trials.
    :param z: (Optional) The normal quantile; 95% by default.
    :returns: ``(low, high)``; ``(0.0, 1.0)`` without trials.

    >>> tuple(round(x, 3) for x in wilson_interval(50, 100))
    (0.404, 0.596)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean of a sample with its normal-approximation confidence interval.

    :returns: ``(mean, low, high)``; ``(0, -inf, inf)`` with fewer than two values.

    >>> mean_interval([1.0, 2.0, 3.0])[0]
    2.0
    """
    n = len(values)
    if n < 2:
        return (values[0] if values else 0.0), -math.inf, math.inf
    mean = sum(values) / n
    variance = sum((value - mean) ** 2 for value in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def elo_to_score(elo: float) -> float:
    """Expected score of a side that is ``elo`` points stronger (logistic Elo model)."""
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass
class Sprt:
    """Wald's sequential probability ratio test on win/loss results, as chess engine testing uses.

    H0: the first side's win probability matches ``elo0``; H1: it matches ``elo1``. Feed
    results with :meth:`add`; :attr:`decision` becomes ``"H1"`` (the first side is at
    least ``elo1`` stronger) or ``"H0"`` once the log-likelihood ratio crosses a bound.

    :ivar elo0: Elo difference under H0.
    :ivar elo1: Elo difference under H1.
    :ivar alpha: False positive rate.
    :ivar beta: False negative rate.
    :ivar llr: The current log-likelihood ratio.
    """

    elo0: float = 0.0
    elo1: float = 35.0
    alpha: float = 0.05
    beta: float = 0.05
    llr: float = 0.0
    decision: str | None = None

    def __post_init__(self) -> None:
        p0, p1 = elo_to_score(self.elo0), elo_to_score(self.elo1)
        self._win = math.log(p1 / p0)
        self._loss = math.log((1 - p1) / (1 - p0))
        self.lower = math.log(self.beta / (1 - self.alpha))
        self.upper = math.log((1 - self.beta) / self.alpha)

    def add(self, won: bool) -> str | None:
        """Add one game's result for the first side; return the decision once there is one."""
        if self.decision is None:
            self.llr += self._win if won else self._loss
            if self.llr >= self.upper:
                self.decision = "H1"
            elif self.llr <= self.lower:
                self.decision = "H0"
        return self.decision


#: Pocock's boundary for ten equally spaced looks at a two-sided 5% level: stopping at
#: any of up to ten interim looks when the mean's z exceeds it keeps the overall false
#: positive rate at 5% (Pocock 1977).
POCOCK_Z10 = 2.555


def clearly_nonzero(values: Sequence[float], z: float = POCOCK_Z10) -> bool:
    """Whether the mean of ``values`` differs from zero by more than ``z`` standard errors."""
    mean, low, high = mean_interval(values, z)
    return low > 0 or high < 0


#: Buckets of :class:`TimeHistogram` per factor of ten, and in all (1 µs .. 100 s).
_PER_DECADE = 20
_BUCKETS = 8 * _PER_DECADE


class TimeHistogram:
    """Durations in log-spaced buckets (20 per decade from 1 µs): cheap to merge across
    processes, quantiles within 12% of the true value.

    :ivar counts: Count per bucket.
    """

    PER_DECADE = _PER_DECADE
    BUCKETS = _BUCKETS

    def __init__(self) -> None:
        self.counts = [0] * self.BUCKETS

    def add(self, seconds: float) -> None:
        """Count one duration (once per agent decision in the Arena: kept cheap)."""
        micro = seconds * 1e6
        bucket = int(math.log10(micro) * _PER_DECADE) if micro > 1.0 else 0
        self.counts[bucket if bucket < _BUCKETS else _BUCKETS - 1] += 1

    def merge(self, other: TimeHistogram) -> None:
        """Add another histogram's counts."""
        self.counts = [a + b for a, b in zip(self.counts, other.counts)]

    @property
    def total(self) -> int:
        """Number of durations counted."""
        return sum(self.counts)

    def quantile(self, q: float) -> float:
        """The ``q`` quantile in seconds (the bucket's geometric middle); 0 when empty.

        >>> h = TimeHistogram()
        >>> for _ in range(99): h.add(0.001)
        >>> h.add(1.0)
        >>> 0.9 < h.quantile(0.5) / 0.001 < 1.13, 0.9 < h.quantile(0.999) < 1.13
        (True, True)
        """
        total = self.total
        if not total:
            return 0.0
        rank = q * total
        seen = 0
        for bucket, count in enumerate(self.counts):
            seen += count
            if seen >= rank and count:
                return 10 ** ((bucket + 0.5) / self.PER_DECADE) / 1e6
        return 0.0
