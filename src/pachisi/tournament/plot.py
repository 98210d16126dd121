"""The ladder of a tournament as a picture: every player's Elo rating with its 95% interval.

matplotlib is imported only here, and only when a picture is asked for; the figure is
drawn with the Agg renderer, so no display is needed and no global pyplot state is used.
"""

from __future__ import annotations

import os
from typing import Final

from pachisi.tournament.report import Report

__all__ = ["PLOT_FORMATS", "save_ladder"]

PLOT_FORMATS: Final = (".png", ".svg", ".pdf")
"""The file name endings :func:`save_ladder` can write, each giving its format."""


def save_ladder(report: Report, path: str) -> None:
    """Draw the players from best to worst rated, with error bars, into ``path``.

    The format follows the ending (:data:`PLOT_FORMATS`); any other is a ``ValueError``.
    """
    ending = os.path.splitext(path)[1].lower()
    if ending not in PLOT_FORMATS:
        raise ValueError(
            f"{path}: a plot is saved as {', '.join(PLOT_FORMATS)}, not {ending or 'no ending'}"
        )
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    ratings = sorted(report.ratings, key=lambda r: r.elo)
    names = [r.name for r in ratings]
    elos = [r.elo for r in ratings]
    errors = [
        [r.elo - r.interval[0] for r in ratings],
        [r.interval[1] - r.elo for r in ratings],
    ]
    figure = Figure(figsize=(6.4, 1.2 + 0.6 * len(ratings)), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.errorbar(elos, names, xerr=errors, fmt="o", capsize=4)
    axes.margins(y=0.3)
    axes.axvline(0, color="grey", linewidth=0.8, linestyle=":")
    axes.set_xlabel("Elo (mean 0), 95% interval")
    plan = report.schedule
    axes.set_title(
        f"{plan.ruleset}: {report.standings.games} games, seed {plan.seed}", fontsize="medium"
    )
    figure.savefig(path, format=ending[1:])
