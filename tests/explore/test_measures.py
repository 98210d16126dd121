"""The intervals of ``pachisi explore`` (issue 23): each must cover what it estimates."""

from __future__ import annotations

import random
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pachisi.explore.measures import Length, histogram, mean_of, quantile_of, rate


def test_a_rate_is_its_share_with_the_tournaments_wilson_interval() -> None:
    e = rate(30, 100)
    assert e.value == 0.3 and 0.21 < e.low < 0.22 and 0.39 < e.high < 0.40
    assert rate(0, 0).interval == (0.0, 1.0)
    assert rate(0, 50).low == pytest.approx(0.0, abs=1e-12)
    assert rate(50, 50).high == pytest.approx(1.0)


def test_a_mean_has_the_normal_interval_of_the_mean() -> None:
    values = [float(v) for v in range(1, 101)]
    e = mean_of(values)
    half = 1.959963984540054 * statistics.stdev(values) / 10
    assert e.value == pytest.approx(50.5)
    assert e.low == pytest.approx(50.5 - half) and e.high == pytest.approx(50.5 + half)
    assert mean_of([]).interval == (0.0, 0.0) and mean_of([7]).interval == (7, 7)


@pytest.mark.parametrize("q", [0.5, 0.9])
def test_the_quantiles_interval_covers_the_true_quantile_about_95_percent_of_the_time(
    q: float,
) -> None:
    # Samples of 400 from a uniform distribution on 0..9999: the true quantile is known.
    rng = random.Random(5)
    truth = q * 10_000
    covered = 0
    for _ in range(400):
        sample = sorted(rng.randrange(10_000) for _ in range(400))
        e = quantile_of(sample, q)
        assert e.low <= e.value <= e.high
        covered += e.low <= truth <= e.high
    assert 0.92 <= covered / 400 <= 0.99


def test_the_means_interval_covers_the_true_mean_about_95_percent_of_the_time() -> None:
    rng = random.Random(6)
    covered = sum(
        (e := mean_of([rng.expovariate(1 / 700) for _ in range(300)])).low <= 700 <= e.high
        for _ in range(400)
    )
    assert 0.92 <= covered / 400 <= 0.98


@given(st.lists(st.integers(0, 5000), min_size=1, max_size=300), st.integers(1, 40))
def test_a_histogram_counts_every_value_once(values: list[int], bins: int) -> None:
    h = histogram(values, bins)
    assert sum(h["counts"]) == len(values) and len(h["edges"]) == bins + 1
    assert h["edges"][0] == min(values) and h["edges"][-1] > max(values)


def test_a_length_is_its_mean_median_and_p90() -> None:
    length = Length.of(list(range(1, 1001)))
    assert length.mean.value == 500.5
    assert length.median.value == 500 and length.p90.value == 900
    assert length.median.low < 500 < length.median.high
    assert set(length.as_dict()) == {"mean", "median", "p90", "histogram"}
