"""Tournaments between computer players: who beats whom, how often, and their Elo ratings.

A tournament is planned (:mod:`~pachisi.tournament.schedule`: pairings, seat rotations
with shared throws, seeds), played game by game, here or on worker processes
(:mod:`~pachisi.tournament.run`) or on a Ray cluster
(:mod:`~pachisi.tournament.ray_backend`), counted (:mod:`~pachisi.tournament.stats`),
rated (:mod:`~pachisi.tournament.elo`) and reported (:mod:`~pachisi.tournament.report`,
and :mod:`~pachisi.tournament.plot` for a picture). ``pachisi tournament`` runs all of it.

>>> from pachisi.rules.ruleset import get_ruleset
>>> plan = make_schedule(["greedy", "random"], get_ruleset("classic"), games=2, seed=3)
>>> report = summarise(plan, run_games(plan.specs), seconds=0.0)
>>> [p.wins for p in report.standings.players]
[2, 0]
"""

from pachisi.tournament.elo import Rating, fit_elo
from pachisi.tournament.ray_backend import RayError, run_games_on_ray
from pachisi.tournament.report import Report, games_csv, summarise
from pachisi.tournament.run import GameResult, play, run_games
from pachisi.tournament.schedule import GameSpec, Schedule, TournamentError, make_schedule
from pachisi.tournament.stats import PairRecord, PlayerRecord, Standings, tally

__all__ = [
    "GameResult",
    "GameSpec",
    "PairRecord",
    "PlayerRecord",
    "Rating",
    "RayError",
    "Report",
    "Schedule",
    "Standings",
    "TournamentError",
    "fit_elo",
    "games_csv",
    "make_schedule",
    "play",
    "run_games",
    "run_games_on_ray",
    "summarise",
    "tally",
]
