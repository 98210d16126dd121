"""What an exploration measures of one variant's games, each with a 95% interval.

Rates (draws, wins, the first mover's side winning, a stronger player winning) take the
Wilson interval the tournament uses (:func:`pachisi.simulate.wilson_interval`). A mean takes
the normal interval of the mean (the games are independent and many), and a quantile the
distribution-free interval between two order statistics of the sample.

>>> m = mean_of([1, 2, 3, 4])
>>> m.value, round(m.low, 2), round(m.high, 2)
(2.5, 1.23, 3.77)
>>> rate(50, 100).value, [round(x, 3) for x in rate(50, 100).interval]
(0.5, [0.404, 0.596])
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from pachisi.simulate import wilson_interval

__all__ = [
    "HISTOGRAM_BINS",
    "Estimate",
    "Length",
    "histogram",
    "mean_of",
    "quantile_of",
    "rate",
]

Z95: Final = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""
HISTOGRAM_BINS: Final = 20


@dataclass(frozen=True, slots=True)
class Estimate:
    """A measured value and its 95% interval."""

    value: float
    low: float
    high: float

    @property
    def interval(self) -> tuple[float, float]:
        return (self.low, self.high)

    @property
    def width(self) -> float:
        """The interval's width (what ``--precision`` asks to be small enough)."""
        return self.high - self.low

    def as_dict(self, digits: int = 4) -> dict[str, float]:
        return {
            "value": round(self.value, digits),
            "low": round(self.low, digits),
            "high": round(self.high, digits),
        }


def rate(hits: int, trials: int) -> Estimate:
    """``hits`` out of ``trials``, with its Wilson interval (0 of 0 is 0 in [0, 1])."""
    low, high = wilson_interval(hits, trials, Z95)
    return Estimate(hits / trials if trials else 0.0, low, high)


def mean_of(values: Sequence[float]) -> Estimate:
    """The sample mean with its normal 95% interval (one value: no width known, the
    interval is the value itself)."""
    return mean_of_counts(Counter(values))


def mean_of_counts(counts: Mapping[Any, int]) -> Estimate:
    """:func:`mean_of` the sample in which value ``v`` occurs ``counts[v]`` times."""
    n = sum(counts.values())
    if n == 0:
        return Estimate(0.0, 0.0, 0.0)
    mean = math.fsum(v * c for v, c in counts.items()) / n
    if n == 1:
        return Estimate(mean, mean, mean)
    variance = math.fsum(c * (v - mean) ** 2 for v, c in counts.items()) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return Estimate(mean, mean - half, mean + half)


def quantile_of(sorted_values: Sequence[float], q: float) -> Estimate:
    """The ``q`` quantile of a sample (the lower of two middle values, for ranks), with
    the order statistics around rank ``n q`` that cover it 95% of the time (the binomial's
    normal approximation, clipped to the sample)."""
    return quantile_of_counts(Counter(sorted_values), q)


def quantile_of_counts(counts: Mapping[Any, int], q: float) -> Estimate:
    """:func:`quantile_of` the sample in which value ``v`` occurs ``counts[v]`` times."""
    n = sum(counts.values())
    if n == 0:
        return Estimate(0.0, 0.0, 0.0)
    rank = min(n - 1, max(0, math.ceil(n * q) - 1))
    spread = Z95 * math.sqrt(n * q * (1 - q))
    lo = min(n - 1, max(0, math.floor(n * q - spread) - 1))
    hi = min(n - 1, max(0, math.ceil(n * q + spread)))
    value, low, high = _order_statistics(counts, (rank, lo, hi))
    return Estimate(value, low, high)


def _order_statistics(counts: Mapping[Any, int], ranks: Sequence[int]) -> list[float]:
    """The values at the given 0-based ranks of the sorted sample."""
    out = [0.0] * len(ranks)
    order = sorted(range(len(ranks)), key=lambda i: ranks[i])
    seen = 0
    j = 0
    for value in sorted(counts):
        seen += counts[value]
        while j < len(order) and ranks[order[j]] < seen:
            out[order[j]] = float(value)
            j += 1
    return out


def histogram(values: Sequence[int], bins: int = HISTOGRAM_BINS) -> dict[str, list[int]]:
    """Counts of ``values`` in ``bins`` equal bins from the smallest to the largest
    (``edges`` has one more entry than ``counts``; the last bin includes its right edge)."""
    return histogram_of_counts(Counter(values), bins)


def histogram_of_counts(
    counts: Mapping[int, int], bins: int = HISTOGRAM_BINS
) -> dict[str, list[int]]:
    """:func:`histogram` of the sample in which value ``v`` occurs ``counts[v]`` times."""
    present = [v for v, c in counts.items() if c]
    if not present:
        return {"edges": [], "counts": []}
    low, high = min(present), max(present)
    step = max(1, math.ceil((high - low + 1) / bins))
    edges = [low + i * step for i in range(bins + 1)]
    out = [0] * bins
    for v, c in counts.items():
        out[min(bins - 1, (v - low) // step)] += c
    return {"edges": edges, "counts": out}


@dataclass(frozen=True, slots=True)
class Length:
    """How long the games of a variant are in one unit (throws, actions or turns)."""

    mean: Estimate
    median: Estimate
    p90: Estimate
    histogram: dict[str, list[int]]

    @classmethod
    def of(cls, values: Sequence[int]) -> Length:
        return cls.of_counts(Counter(values))

    @classmethod
    def of_counts(cls, counts: Mapping[int, int]) -> Length:
        """The length of the sample in which ``v`` occurs ``counts[v]`` times: memory
        for the distinct values only, however many games."""
        return cls(
            mean_of_counts(counts),
            quantile_of_counts(counts, 0.5),
            quantile_of_counts(counts, 0.9),
            histogram_of_counts(counts),
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "mean": self.mean.as_dict(2),
            "median": self.median.as_dict(2),
            "p90": self.p90.as_dict(2),
            "histogram": self.histogram,
        }
