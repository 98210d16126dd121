"""The Elo fit: known answers, draws as half wins, the prior, and honest intervals."""

from __future__ import annotations

import math
import random

import pytest

from pachisi.tournament.elo import ELO_PER_NATURAL_UNIT, fit_elo, win_probability


def test_two_players_known_answer() -> None:
    a, b = fit_elo(["a", "b"], [("a", "b", 75, 25, 0)], prior_draws=0)
    assert a.elo - b.elo == pytest.approx(400 * math.log10(3))
    assert a.elo + b.elo == pytest.approx(0, abs=1e-9)
    # The Fisher information of one log-odds difference is n p (1 - p); each of the two
    # mean-anchored ratings carries half the difference.
    se_difference = ELO_PER_NATURAL_UNIT / math.sqrt(100 * 0.75 * 0.25)
    assert a.se == pytest.approx(se_difference / 2)
    lo, hi = a.interval
    assert hi - lo == pytest.approx(2 * 1.959964 * a.se)


def test_draws_count_as_half_wins() -> None:
    with_draws = fit_elo(["a", "b"], [("a", "b", 50, 0, 50)], prior_draws=0)
    without = fit_elo(["a", "b"], [("a", "b", 75, 25, 0)], prior_draws=0)
    assert [r.elo for r in with_draws] == pytest.approx([r.elo for r in without])


def test_three_players_on_a_known_ladder() -> None:
    # Results that the ratings (100, 0, -100) predict exactly are fitted back exactly.
    truth = {"a": 100.0, "b": 0.0, "c": -100.0}
    n = 1000
    results = []
    for x, y in (("a", "b"), ("a", "c"), ("b", "c")):
        p = win_probability(truth[x] - truth[y])
        results.append((x, y, n * p, n * (1 - p), 0.0))
    fitted = fit_elo(list(truth), results, prior_draws=0)
    assert [r.elo for r in fitted] == pytest.approx(list(truth.values()), abs=1e-6)
    assert win_probability(200) == pytest.approx(1 / (1 + 10**-0.5))


def test_results_given_in_either_order_or_split_give_the_same_ratings() -> None:
    one = fit_elo(["a", "b", "c"], [("a", "b", 6, 4, 0), ("c", "b", 3, 5, 2)])
    other = fit_elo(
        ["a", "b", "c"], [("b", "a", 3, 4, 0), ("b", "a", 1, 2, 0), ("b", "c", 5, 3, 2)]
    )
    assert [r.elo for r in one] == pytest.approx([r.elo for r in other])


def test_the_prior_keeps_a_clean_sweep_finite() -> None:
    a, b = fit_elo(["a", "b"], [("a", "b", 20, 0, 0)])
    assert a.elo - b.elo == pytest.approx(400 * math.log10(20.5 / 0.5))
    with pytest.raises(ValueError, match="no finite ratings"):
        fit_elo(["a", "b"], [("a", "b", 20, 0, 0)], prior_draws=0)


def test_unlinked_or_repeated_players_are_refused() -> None:
    with pytest.raises(ValueError, match="not linked"):
        fit_elo(["a", "b", "c"], [("a", "b", 3, 2, 0)], prior_draws=0)
    with pytest.raises(ValueError, match="once"):
        fit_elo(["a", "a"], [])


def test_intervals_contain_the_truth_about_95_percent_of_the_time() -> None:
    truth = {"a": 150.0, "b": 0.0, "c": -50.0, "d": -100.0}
    names = list(truth)
    rng = random.Random(2024)
    covered = trials = 0
    for _ in range(200):
        results = []
        for i, x in enumerate(names):
            for y in names[i + 1 :]:
                p = win_probability(truth[x] - truth[y])
                wins = sum(rng.random() < p for _ in range(60))
                results.append((x, y, wins, 60 - wins, 0))
        for rating in fit_elo(names, results):
            lo, hi = rating.interval
            covered += lo <= truth[rating.name] <= hi
            trials += 1
    assert 0.91 <= covered / trials <= 0.99
