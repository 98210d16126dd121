"""Elo ratings fitted to a tournament's head-to-head results (the Bradley-Terry model).

The model: player ``i`` beats player ``j`` with probability ``1 / (1 + 10 ** (-(R_i - R_j)
/ 400))``, so 200 points more means winning about 76% of the time. A draw counts as half a
win for each. The ratings are the maximum-likelihood fit, found by Newton's method.

* **Anchor**: the ratings average 0; only differences mean anything.
* **Prior**: every pair of players gets ``prior_draws`` (default 1) virtual drawn game.
  Without it a player that wins every game would have an infinite rating; with it the
  ratings are finite, pulled towards each other by about what one drawn game weighs
  (a few points after a hundred games).
* **Intervals**: 95%, from the Fisher information at the fit: the covariance of the
  mean-anchored ratings is the pseudo-inverse of the information matrix, and an interval
  is the rating plus or minus 1.96 standard errors. This treats the comparisons as
  independent, like the Wilson intervals of :mod:`pachisi.tournament.stats`.

>>> rating = fit_elo(["a", "b"], [("a", "b", 75, 25, 0)], prior_draws=0)
>>> [round(r.elo, 1) for r in rating]
[95.4, -95.4]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = ["ELO_PER_NATURAL_UNIT", "Rating", "fit_elo", "win_probability"]

ELO_PER_NATURAL_UNIT: Final = 400 / math.log(10)
"""Elo points per unit of log-odds (about 173.7)."""
_Z95: Final = 1.959963984540054
"""The two-sided 95% point of the standard normal distribution."""
_MAX_ITERATIONS: Final = 200
_DIVERGED: Final = 40.0
"""Strengths (log-odds) past which the fit is taken to run off to infinity (~7,000 Elo)."""

Result = tuple[str, str, float, float, float]
"""One pair's results: ``(a, b, a_wins, b_wins, draws)``."""
Vector = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's fitted Elo rating (the mean of all players is 0) and its 95% interval."""

    name: str
    elo: float
    se: float
    """The standard error of :attr:`elo`."""

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval: the rating plus or minus 1.96 standard errors."""
        return (self.elo - _Z95 * self.se, self.elo + _Z95 * self.se)


def win_probability(elo_difference: float) -> float:
    """The chance that a player rated ``elo_difference`` above another beats it.

    >>> round(win_probability(200), 3)
    0.76
    """
    return 1 / (1 + 10 ** (-elo_difference / 400))


def fit_elo(
    players: Sequence[str], results: Sequence[Result], *, prior_draws: float = 1.0
) -> tuple[Rating, ...]:
    """The Elo ratings of ``players`` (in their order) that best explain ``results``.

    ``results`` holds ``(a, b, a_wins, b_wins, draws)`` per pair; pairs may repeat and
    need not cover every pair. Every pair of players also gets ``prior_draws`` virtual
    drawn games (see the module's notes). With ``prior_draws=0`` every player must be
    linked to every other through games that are not all won by one side, or the fit has
    no finite answer and :class:`ValueError` is raised.
    """
    names = list(players)
    if len(set(names)) != len(names):
        raise ValueError("every player may be rated once")
    if prior_draws < 0:
        raise ValueError("prior_draws cannot be negative")
    k = len(names)
    index = {name: i for i, name in enumerate(names)}
    score = np.zeros((k, k))  # score[i, j]: i's points against j
    for a, b, a_wins, b_wins, draws in results:
        i, j = index[a], index[b]
        score[i, j] += a_wins + draws / 2
        score[j, i] += b_wins + draws / 2
    score += (prior_draws / 2) * (1 - np.eye(k))
    games = score + score.T
    theta = _maximise(score, games)
    cov = np.linalg.pinv(_information(theta, games))
    return tuple(
        Rating(name, float(theta[i]) * ELO_PER_NATURAL_UNIT, _se(cov[i, i]))
        for i, name in enumerate(names)
    )


def _se(variance: float) -> float:
    return math.sqrt(max(float(variance), 0.0)) * ELO_PER_NATURAL_UNIT


def _win(theta: Vector) -> Vector:
    """``p[i, j]``: the chance that ``i`` beats ``j`` at strengths ``theta`` (log-odds)."""
    return 1 / (1 + np.exp(theta[None, :] - theta[:, None]))


def _log_likelihood(theta: Vector, score: Vector) -> float:
    diff = theta[:, None] - theta[None, :]
    return float(-(score * np.logaddexp(0, -diff)).sum())


def _information(theta: Vector, games: Vector) -> Vector:
    """The Fisher information of the strengths: a weighted graph Laplacian."""
    p = _win(theta)
    weights = games * p * (1 - p)
    return np.diag(weights.sum(axis=1)) - weights


def _maximise(score: Vector, games: Vector) -> Vector:
    """Newton's method with step halving; the strengths are kept at mean 0."""
    k = len(score)
    theta = np.zeros(k)
    if k < 2:
        return theta
    if not _connected(games):
        raise ValueError("some players are not linked to the others by any game")
    best = _log_likelihood(theta, score)
    for _ in range(_MAX_ITERATIONS):
        gradient = score.sum(axis=1) - (games * _win(theta)).sum(axis=1)
        step: Vector = np.linalg.pinv(_information(theta, games)) @ gradient
        size = 1.0
        while True:
            trial = theta + size * step
            trial -= trial.mean()
            value = _log_likelihood(trial, score)
            if value >= best or size < 1e-9:
                break
            size /= 2
        theta, best = trial, value
        if float(np.abs(size * step).max()) < 1e-10:
            return theta
        if float(np.abs(theta).max()) > _DIVERGED:
            break
    raise ValueError(
        "no finite ratings: a player won (or lost) every game against the others "
        "(a prior of virtual draws keeps the fit finite)"
    )


def _connected(games: Vector) -> bool:
    """Whether every player is linked to every other through games."""
    seen = {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for j in np.flatnonzero(games[i] > 0):
            if int(j) not in seen:
                seen.add(int(j))
                frontier.append(int(j))
    return len(seen) == len(games)
