"""``pachisi review RECORD``: a review printed in the terminal with :mod:`rich`, and the
progress bar shown while it is made.

The printout has a per-seat summary table, the judged decisions (step, seat, played, grade,
loss, the better action) and a sparkline of the first side's win chance over the steps.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Final

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from pachisi.review.model import DECISION_GRADES, Review
from pachisi.rules.board import SEAT_NAMES

__all__ = ["SPARKS", "print_review", "side_name", "sparkline", "steps_bar"]

SPARKS: Final = "▁▂▃▄▅▆▇█"
"""The sparkline's levels, from a win chance of 0 to 1."""
GRAPH_WIDTH: Final = 64
"""The most characters the sparkline takes: each stands for an equal run of steps."""
_STYLE: Final = {
    "best": "green",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "red",
}


def side_name(review: Review, side: int) -> str:
    """A side as people say it: ``South and North``, or one seat's name."""
    return " and ".join(SEAT_NAMES[s] for s in review.sides[side])


def sparkline(values: Sequence[float], width: int = GRAPH_WIDTH) -> str:
    """``values`` (0..1) as at most ``width`` block characters, each the mean of its run."""
    if not values:
        return ""
    n = min(width, len(values))
    out = []
    for i in range(n):
        run = values[i * len(values) // n : (i + 1) * len(values) // n]
        mean = sum(run) / len(run)
        out.append(SPARKS[min(len(SPARKS) - 1, int(mean * len(SPARKS)))])
    return "".join(out)


def print_review(review: Review, console: Console) -> None:
    """The whole review on ``console``."""
    t = review.thresholds
    console.print(
        f"Review by {review.level} (seed {review.seed}) of a {review.ruleset} game, "
        f"result {review.result}: {len(review.steps)} steps, "
        f"{sum(1 for v in review.steps if v.judged)} decisions judged"
    )
    console.print(
        f"Grades by the win chance lost against the best action: below {t.inaccuracy:g} points "
        f"best, from {t.inaccuracy:g} an inaccuracy, from {t.mistake:g} a mistake, "
        f"from {t.blunder:g} a blunder"
    )
    console.print(_summary_table(review))
    console.print(_decisions_table(review))
    chances = review.chances(0)
    console.print(
        f"{side_name(review, 0)}'s win chance over the steps ({SPARKS[0]} 0% .. "
        f"{SPARKS[-1]} 100%; start {100 * chances[0]:.0f}%, end {100 * chances[-1]:.0f}%):",
        highlight=False,
    )
    console.print(f"  {sparkline(chances)}", highlight=False)


def _summary_table(review: Review) -> Table:
    table = Table(title="Per seat", box=box.SIMPLE_HEAD)
    for heading in ("seat", "player", *DECISION_GRADES, "forced", "avg loss"):
        table.add_column(heading, justify="left" if heading in ("seat", "player") else "right")
    for s in review.summary:
        average = "-" if s.average_loss is None else f"{s.average_loss:.2f}"
        counts = [str(s.counts[g]) for g in (*DECISION_GRADES, "forced")]
        table.add_row(f"{s.seat} {SEAT_NAMES[s.seat]}", s.name or "-", *counts, average)
    return table


def _decisions_table(review: Review) -> Table:
    table = Table(title="Decisions judged (loss in points of win chance)", box=box.SIMPLE_HEAD)
    for heading in ("step", "seat", "played", "grade", "loss", "better"):
        table.add_column(heading, justify="right" if heading in ("step", "loss") else "left")
    for v in review.steps:
        if not v.judged:
            continue
        style = _STYLE.get(v.grade, "")
        better = "" if v.grade == "best" or v.best == v.played else (v.best or "")
        table.add_row(
            str(v.step + 1),
            str(v.seat),
            v.played,
            f"[{style}]{v.grade}[/]",
            f"{v.loss:.1f}" if v.loss is not None else "",
            better,
        )
    return table


@contextlib.contextmanager
def steps_bar(*, show: bool) -> Iterator[Callable[[int, int], None]]:
    """A progress bar of steps judged on standard error, as a ``progress(done, total)``."""
    if not show:
        yield lambda done, total: None
        return
    bar = Progress(
        TextColumn("steps judged"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task("review", total=None)
    with bar:
        yield lambda done, total: bar.update(task, completed=done, total=total)
