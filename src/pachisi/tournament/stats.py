"""Counting a tournament's results: every player's record and every pair's head-to-head.

Rates come with 95% Wilson intervals (:func:`pachisi.simulate.wilson_interval`), which
treat games as independent. Games of one deal share their throws and, with a seat
advantage, tend to go opposite ways, so the intervals are, if anything, a little wide.

>>> from pachisi.rules.ruleset import get_ruleset
>>> from pachisi.tournament.run import run_games
>>> from pachisi.tournament.schedule import make_schedule
>>> plan = make_schedule(["greedy", "random"], get_ruleset("classic"), games=2, seed=1)
>>> standings = tally(plan.players, run_games(plan.specs))
>>> [(p.name, p.games, p.wins) for p in standings.players]
[('greedy', 2, 2), ('random', 2, 0)]
>>> pair = standings.pairs[0]
>>> (pair.a, pair.b, pair.a_wins, pair.b_wins, pair.draws)
('greedy', 'random', 2, 0, 0)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from pachisi.simulate import wilson_interval
from pachisi.tournament.run import GameResult

__all__ = ["PairRecord", "PlayerRecord", "Standings", "tally"]


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One player's results over every game it took part in."""

    name: str
    games: int
    wins: int
    draws: int
    """Games that ended as a draw (R-DEADLOCK)."""
    unfinished: int
    """Games abandoned by a cap, with no result."""

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws - self.unfinished

    @property
    def win_rate(self) -> float:
        """Wins per game played (draws and unfinished games count as games)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`win_rate`."""
        return wilson_interval(self.wins, self.games)


@dataclass(frozen=True, slots=True)
class PairRecord:
    """Two players' head-to-head: the games where both sat and what they said between them.

    In a two-player game one of them wins, or it is drawn. In a four-player game
    (``teams=individual``) the winner beats each of the other three, and a game someone
    else won says nothing about these two.
    """

    a: str
    b: str
    games: int
    """Games in which both took part."""
    a_wins: int
    b_wins: int
    draws: int

    @property
    def decided(self) -> int:
        """Games one of the two won."""
        return self.a_wins + self.b_wins

    @property
    def a_share(self) -> float:
        """A's share of the games one of the two won."""
        return self.a_wins / self.decided if self.decided else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`a_share`."""
        return wilson_interval(self.a_wins, self.decided)

    @property
    def a_score(self) -> float:
        """A's points per game that the two decided or drew: a win 1, a draw 1/2."""
        played = self.decided + self.draws
        return (self.a_wins + self.draws / 2) / played if played else 0.5


@dataclass(frozen=True, slots=True)
class Standings:
    """Every player's record (in the order the players were given) and every pair's."""

    players: tuple[PlayerRecord, ...]
    pairs: tuple[PairRecord, ...]
    games: int
    draws: int
    unfinished: int


def tally(players: Sequence[str], results: Sequence[GameResult]) -> Standings:
    """The standings of ``players`` after ``results``; every pair of them gets a record."""
    names = tuple(players)
    record = {n: [0, 0, 0, 0] for n in names}  # games, wins, draws, unfinished
    pairs = {pair: [0, 0, 0, 0] for pair in itertools.combinations(names, 2)}  # games, a, b, d
    draws = unfinished = 0
    for result in results:
        present = set(result.spec.seats)
        winners = set(result.winners)
        draws += result.drawn
        unfinished += not result.finished
        for name in present:
            counts = record[name]
            counts[0] += 1
            counts[1] += name in winners
            counts[2] += result.drawn
            counts[3] += not result.finished
        for (a, b), counts in pairs.items():
            if a in present and b in present:
                counts[0] += 1
                counts[1] += a in winners
                counts[2] += b in winners
                counts[3] += result.drawn
    return Standings(
        players=tuple(PlayerRecord(n, *record[n]) for n in names),
        pairs=tuple(PairRecord(a, b, *counts) for (a, b), counts in pairs.items()),
        games=len(results),
        draws=draws,
        unfinished=unfinished,
    )
