"""Explore two rule switches with the variant explorer, and plot what they change.

``pachisi.explore`` plays the same seeded games under many rulesets and measures each one
(docs/variants.md). Here the grid is two switches on top of ``classic``:

- ``moves_compulsory``: whether a seat may decline a throw it could use (``false``) or
  must move (``true``);
- ``castle_mode``: what the twelve castle squares do (``block``: a piece there is safe and
  enemies cannot land there; ``coexist``: safe, but enemies may share it; ``inert``:
  ordinary squares).

Every combination plays ``--games`` games of four ``random`` players, with the same
throws in every variant, so that the rows differ by the rules and not by luck. The script
prints a table and draws three panels, each figure with its 95% interval: the game's
length in throws, the captures per game, and the comebacks (the share of decided games
won by the side that was behind at the game's midpoint).

    .venv/bin/python examples/explore_switches.py                # 1000 games a variant
    .venv/bin/python examples/explore_switches.py --games 100 --out grid.png
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from matplotlib.axes import Axes

# A Figure made directly (not through pyplot) draws to a file with the Agg renderer, and
# needs no screen and no backend setting.
from matplotlib.figure import Figure

from pachisi.explore import Settings, VariantResult, explore, grid_variants
from pachisi.explore.measures import Estimate
from pachisi.rules.ruleset import parse_ruleset

FIRST = ("moves_compulsory", ("false", "true"))
SECOND = ("castle_mode", ("block", "coexist", "inert"))
FIGURES: dict[str, tuple[str, Callable[[VariantResult], Estimate]]] = {
    "throws": ("throws per game", lambda r: r.throws.mean),
    "captures": ("captures per game", lambda r: r.captures),
    "comebacks": ("comebacks: the side behind at half time wins", lambda r: r.comeback),
}
"""What each panel shows: its title, and how to read its estimate off a variant's result."""


def panel(ax: Axes, table: list[list[VariantResult]], figure: str) -> None:
    """One bar per variant, grouped by the second switch, with 95% intervals."""
    title, estimate_of = FIGURES[figure]
    width = 0.8 / len(table)
    for i, row in enumerate(table):
        estimates = [estimate_of(result) for result in row]
        values = np.array([e.value for e in estimates])
        below = [e.value - e.low for e in estimates]
        above = [e.high - e.value for e in estimates]
        x = np.arange(len(row)) + (i - (len(table) - 1) / 2) * width
        ax.bar(x, values, width, yerr=[below, above], capsize=3, label=f"{FIRST[0]}={FIRST[1][i]}")
    ax.set_xticks(np.arange(len(SECOND[1])), [f"{SECOND[0]}=\n{c}" for c in SECOND[1]])
    ax.set_title(title)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games a variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes to play on")
    parser.add_argument("--out", default="switches.png", help="where to save the plot")
    args = parser.parse_args()

    grid = f"{FIRST[0]}={','.join(FIRST[1])};{SECOND[0]}={','.join(SECOND[1])}"
    plan = grid_variants(grid, base="classic")
    for text, reason in plan.skipped:  # combinations the rules core refuses, with why
        print(f"skipped {text}: {reason}")
    start = time.perf_counter()
    results = explore(plan, Settings(games=args.games, seed=args.seed, workers=args.workers))
    print(f"{len(results)} variants, {args.games} games each, {time.perf_counter() - start:.1f} s")

    # A variant is known by its canonical ruleset string, which leaves defaults out
    # ("classic+castle_mode=inert"): find each combination's by reading it the same way.
    by_label = {result.variant.label: result for result in results}
    table: list[list[VariantResult]] = []
    for first in FIRST[1]:
        row = []
        for second in SECOND[1]:
            label = str(parse_ruleset(f"classic+{FIRST[0]}={first}+{SECOND[0]}={second}"))
            result = by_label[label]
            row.append(result)
            print(
                f"{FIRST[0]}={first:<5} {SECOND[0]}={second:<7}  "
                f"throws {result.throws.mean.value:5.0f}  "
                f"captures {result.captures.value:4.1f}  "
                f"comebacks {result.comeback.value:5.1%}"
            )
        table.append(row)

    fig = Figure(figsize=(14, 4.4), layout="tight")
    axes = fig.subplots(1, len(FIGURES))
    for ax, figure in zip(axes, FIGURES, strict=True):
        panel(ax, table, figure)
    axes[0].legend(loc="lower left")
    fig.suptitle(f"classic, two switches: {args.games} random games a variant, seed {args.seed}")
    fig.savefig(args.out)
    print(f"plot saved to {args.out}")


if __name__ == "__main__":
    main()
