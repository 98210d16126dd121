"""What a tournament tells: standings and ratings as text, as JSON-ready data, and its
games as CSV rows.

>>> from pachisi.rules.ruleset import get_ruleset
>>> from pachisi.tournament.run import run_games
>>> from pachisi.tournament.schedule import make_schedule
>>> plan = make_schedule(["greedy", "random"], get_ruleset("classic"), games=2, seed=1)
>>> results = run_games(plan.specs)
>>> report = summarise(plan, results, seconds=0.0)
>>> report.as_dict()["players"][0]["wins"]
2
>>> games_csv(results).splitlines()[0]
'game,deal,rotation,seat0,seat1,seat2,seat3,winner,winning_seats,draw,unfinished,throws,actions,captures,turns'
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from pachisi.tournament.elo import Rating, fit_elo
from pachisi.tournament.run import GameResult
from pachisi.tournament.schedule import Schedule
from pachisi.tournament.stats import Standings, tally

__all__ = ["PRIOR_DRAWS", "RATING_METHOD", "Report", "games_csv", "summarise"]

PRIOR_DRAWS: Final = 1.0
"""Virtual drawn games given to every pair before fitting the ratings."""
RATING_METHOD: Final = (
    "Bradley-Terry (Elo scale) maximum likelihood, draws as half wins, "
    f"{PRIOR_DRAWS:g} virtual draw per pair; mean rating 0; "
    "95% intervals from the Fisher information"
)
"""How the ratings and their intervals are found (see :mod:`pachisi.tournament.elo`)."""

CSV_COLUMNS: Final = (
    "game",
    "deal",
    "rotation",
    "seat0",
    "seat1",
    "seat2",
    "seat3",
    "winner",
    "winning_seats",
    "draw",
    "unfinished",
    "throws",
    "actions",
    "captures",
    "turns",
)
"""The columns of :func:`games_csv`, one row per game."""


@dataclass(frozen=True, slots=True)
class Report:
    """A finished tournament: how it was set up, the standings and the ratings."""

    schedule: Schedule
    standings: Standings
    ratings: tuple[Rating, ...]
    seconds: float
    throws: int
    actions: int

    def as_dict(self) -> dict[str, Any]:
        """Everything as plain JSON-ready data; only ``seconds`` varies between runs."""
        plan, table = self.schedule, self.standings
        return {
            "settings": {
                "ruleset": plan.ruleset,
                "seed": plan.seed,
                "players": list(plan.players),
                "mode": plan.mode,
                "games_requested": plan.games_requested,
                "games_per_pairing": plan.games_per_pairing,
                "rotations": plan.rotations,
                "max_turns": plan.max_turns,
                "max_steps": plan.max_steps,
            },
            "games": table.games,
            "draws": table.draws,
            "unfinished": table.unfinished,
            "seconds": round(self.seconds, 3),
            "mean_throws": round(self.throws / table.games, 3) if table.games else 0.0,
            "mean_actions": round(self.actions / table.games, 3) if table.games else 0.0,
            "players": [
                {
                    "name": p.name,
                    "games": p.games,
                    "wins": p.wins,
                    "draws": p.draws,
                    "losses": p.losses,
                    "unfinished": p.unfinished,
                    "win_rate": round(p.win_rate, 4),
                    "interval": [round(x, 4) for x in p.interval],
                }
                for p in table.players
            ],
            "pairs": [
                {
                    "a": q.a,
                    "b": q.b,
                    "games": q.games,
                    "a_wins": q.a_wins,
                    "b_wins": q.b_wins,
                    "draws": q.draws,
                    "a_share": round(q.a_share, 4),
                    "interval": [round(x, 4) for x in q.interval],
                    "a_score": round(q.a_score, 4),
                }
                for q in table.pairs
            ],
            "ratings": {
                "method": RATING_METHOD,
                "anchor": "mean",
                "prior_draws": PRIOR_DRAWS,
                "players": [
                    {
                        "name": r.name,
                        "elo": round(r.elo, 1),
                        "se": round(r.se, 1),
                        "interval": [round(x, 1) for x in r.interval],
                    }
                    for r in self.ratings
                ],
            },
        }

    def text(self) -> str:
        """The report for people: settings, players, pairs and the ladder."""
        plan, table = self.schedule, self.standings
        rotations = "both seatings" if plan.rotations == 2 else f"all {plan.rotations} seatings"
        per = "per pair" if plan.mode == "pairs" else "(all four seated)"
        deals = plan.games_per_pairing // plan.rotations
        lines = [
            f"ruleset  {plan.ruleset}",
            f"players  {', '.join(plan.players)}",
            f"seed     {plan.seed}",
            f"games    {plan.games_per_pairing} {per}: {deals} throw sequences, each played in "
            f"{rotations}; {table.games} in all",
            f"time     {self.seconds:.2f} s",
        ]
        if table.draws or table.unfinished:
            lines.append(f"draws    {table.draws}, unfinished {table.unfinished}")
        width = max(len(n) for n in plan.players)
        lines += [
            "",
            f"{'player'.ljust(width)}  games   wins  draws  win rate  95% Wilson",
        ]
        for p in table.players:
            lo, hi = p.interval
            lines.append(
                f"{p.name.ljust(width)}  {p.games:>5}  {p.wins:>5}  {p.draws:>5}  "
                f"{p.win_rate:>8.1%}  [{lo:.1%}, {hi:.1%}]"
            )
        pair_width = 2 * width + 4
        lines += [
            "",
            f"{'pair (A vs B)'.ljust(pair_width)}  A wins  B wins  draws  A's share  95% Wilson",
        ]
        for q in table.pairs:
            lo, hi = q.interval
            label = f"{q.a} vs {q.b}".ljust(pair_width)
            lines.append(
                f"{label}  {q.a_wins:>6}  {q.b_wins:>6}  {q.draws:>5}  {q.a_share:>9.1%}  "
                f"[{lo:.1%}, {hi:.1%}]"
            )
        lines += ["", f"{'Elo'.ljust(width)}  rating  95% interval"]
        for r in sorted(self.ratings, key=lambda r: -r.elo):
            lo, hi = r.interval
            lines.append(f"{r.name.ljust(width)}  {r.elo:>+6.0f}  [{lo:+.0f}, {hi:+.0f}]")
        lines.append(f"({RATING_METHOD})")
        return "\n".join(lines)


def summarise(schedule: Schedule, results: Sequence[GameResult], *, seconds: float) -> Report:
    """Count the results, fit the ratings and keep the settings, ready to report."""
    standings = tally(schedule.players, results)
    pairs = [(q.a, q.b, q.a_wins, q.b_wins, q.draws) for q in standings.pairs]
    return Report(
        schedule=schedule,
        standings=standings,
        ratings=fit_elo(schedule.players, pairs, prior_draws=PRIOR_DRAWS),
        seconds=seconds,
        throws=sum(r.throws for r in results),
        actions=sum(r.actions for r in results),
    )


def games_csv(results: Sequence[GameResult]) -> str:
    """One CSV row per game (:data:`CSV_COLUMNS`), with a header line.

    ``winner`` is the winning player's name and ``winning_seats`` its seats (``0+2``);
    both are empty for a draw or an unfinished game.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in results:
        spec = r.spec
        writer.writerow(
            [
                spec.number,
                spec.deal,
                spec.rotation,
                *spec.seats,
                "+".join(r.winners),
                "+".join(map(str, r.winning_seats)),
                int(r.drawn),
                int(not r.finished),
                r.throws,
                r.actions,
                r.captures,
                r.turns,
            ]
        )
    return out.getvalue()
