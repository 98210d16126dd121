"""An exploration as one self-contained HTML page: its table and three plots, the plots
embedded as PNG data, so the file opens anywhere without anything beside it.

- **Length**: each variant's distribution of throws per game (its histogram, as a line
  of the share of games per throw).
- **Fairness**: the first mover's edge of each variant with its 95% interval.
- **Skill against luck**: each variant as a point, its comebacks (the side behind at
  halfway wins: luck) across and ``greedy``'s wins against ``random`` (skill) up, with
  their intervals; ``learned`` against ``greedy`` instead where every variant has it.

matplotlib is imported only here (as for the tournament's plot), with the Agg renderer.
"""

from __future__ import annotations

import base64
import html
import io
import itertools
from collections.abc import Sequence
from typing import Any

from pachisi.explore.measures import Estimate
from pachisi.explore.settings import Settings
from pachisi.explore.tally import VariantResult

__all__ = ["as_html", "plot_png"]

PLOTS = ("length", "fairness", "skill")
"""The plots of the page, in order (each also written alone by :func:`plot_png`)."""


def _errors(values: Sequence[Estimate], scale: float = 100.0) -> list[list[float]]:
    """Error bars below and above each value (never negative: an interval computed in
    floating point may miss its own value by a rounding error)."""
    return [
        [max(0.0, (e.value - e.low) * scale) for e in values],
        [max(0.0, (e.high - e.value) * scale) for e in values],
    ]


def _figure(height: float) -> tuple[Any, Any]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8.0, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure, figure.add_subplot()


def _png(figure: Any) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110)
    return buffer.getvalue()


def _length(results: Sequence[VariantResult]) -> Any:
    figure, axes = _figure(4.5)
    for r in results:
        h = r.throws.histogram
        if not h["counts"]:
            continue
        edges = h["edges"]
        middles = [(a + b) / 2 for a, b in itertools.pairwise(edges)]
        # Per throw, not per bin: each variant's bins have a width of their own.
        width = edges[1] - edges[0]
        density = [c / (r.games * width) for c in h["counts"]]
        axes.plot(middles, density, marker=".", label=r.variant.label)
    axes.set_xlabel("throws per game")
    axes.set_ylabel("share of games per throw")
    axes.set_title("How long the games are", fontsize="medium")
    if len(results) <= 12:
        axes.legend(fontsize="x-small")
    return figure


def _bars(axes: Any, labels: list[str], values: Sequence[Estimate], scale: float = 100.0) -> None:
    xs = [e.value * scale for e in values]
    errors = _errors(values, scale)
    axes.errorbar(xs, labels, xerr=errors, fmt="o", capsize=3)
    axes.axvline(0, color="grey", linewidth=0.8, linestyle=":")
    axes.invert_yaxis()


def _fairness(results: Sequence[VariantResult]) -> Any:
    figure, axes = _figure(1.2 + 0.32 * len(results))
    _bars(axes, [r.variant.label for r in results], [r.first_mover_edge for r in results])
    axes.set_xlabel("the first mover's side wins, points above its fair share (95% interval)")
    axes.set_title("Does beginning help?", fontsize="medium")
    return figure


def _skill(results: Sequence[VariantResult]) -> Any:
    figure, axes = _figure(5.0)
    strong = all(r.strong is not None for r in results)
    for r in results:
        skill = r.strong if strong else r.skill
        if skill is None:
            continue
        luck = r.comeback
        axes.errorbar(
            [luck.value * 100],
            [skill.value * 100],
            xerr=_errors([luck]),
            yerr=_errors([skill]),
            fmt="o",
            capsize=2,
        )
        axes.annotate(r.variant.label, (luck.value * 100, skill.value * 100), fontsize="x-small")
    axes.set_xlabel("comebacks: the side behind at halfway wins (%): luck")
    who = "learned beats greedy" if strong else "greedy beats random"
    axes.set_ylabel(f"{who} (%): skill")
    axes.set_title("Skill against luck", fontsize="medium")
    return figure


def plot_png(results: Sequence[VariantResult], which: str) -> bytes:
    """One plot of :data:`PLOTS` as PNG data."""
    draw = {"length": _length, "fairness": _fairness, "skill": _skill}[which]
    return _png(draw(results))


def _cell(e: Estimate | None, percent: bool) -> str:
    if e is None:
        return ""
    if percent:
        return f"{e.value:.1%} [{e.low:.1%}, {e.high:.1%}]"
    return f"{e.value:.1f} [{e.low:.1f}, {e.high:.1f}]"


def as_html(
    results: Sequence[VariantResult],
    settings: Settings,
    skipped: Sequence[tuple[str, str]],
    version: str,
    command: str,
) -> str:
    """The page: what was run, the table of every figure, the plots."""
    rows = []
    for r in results:
        cells = [
            html.escape(r.variant.label),
            _cell(r.throws.mean, False),
            f"{r.throws.median.value:.0f} / {r.throws.p90.value:.0f}",
            _cell(r.minutes, False),
            _cell(r.draws, True),
            _cell(r.first_mover_edge, True),
            _cell(r.captures, False),
            _cell(r.comeback, True),
            _cell(r.capture_from_castle, True),
            _cell(r.capture_of_stack, True),
            _cell(r.skill, True),
            _cell(r.strong, True) if r.strong is not None else "",
        ]
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    head = [
        "variant",
        "throws, mean",
        "median / p90",
        f"minutes ({settings.pace:g} s a step)",
        "draws",
        "first mover's edge",
        "captures / game",
        "comebacks",
        "captures from a castle",
        "captures of stacks",
        "greedy beats random",
        "learned beats greedy",
    ]
    images = "\n".join(
        f'<figure><img alt="{name}" src="data:image/png;base64,'
        f'{base64.b64encode(plot_png(results, name)).decode()}"></figure>'
        for name in PLOTS
    )
    skipped_items = "".join(
        f"<li><code>{html.escape(text)}</code>: {html.escape(why)}</li>" for text, why in skipped
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>pachisi explore: {len(results)} variants</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2rem; color: #222; }}
table {{ border-collapse: collapse; font-size: 0.85rem; }}
td, th {{ border: 1px solid #ccc; padding: 0.2rem 0.5rem; text-align: right; }}
td:first-child, th:first-child {{ text-align: left; font-family: monospace; }}
img {{ max-width: 100%; }}
</style></head><body>
<h1>What each rule changes</h1>
<p><code>{html.escape(command)}</code></p>
<p>pachisi {html.escape(version)}; {settings.games} games per round, {settings.players}
players, seed {settings.seed}; every figure with its 95% interval.</p>
<table><thead><tr>{"".join(f"<th>{html.escape(h)}</th>" for h in head)}</tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table>
{images}
{f"<h2>Skipped</h2><ul>{skipped_items}</ul>" if skipped else ""}
</body></html>
"""
