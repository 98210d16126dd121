"""The figures of the documentation's performance page (docs/performance.md): the median
and the range of ``--rounds`` rounds, each figure measured in turns with its baseline.

    .venv/bin/python bench/spread.py [--rounds 5] [--seconds 1.0] [--reference-games 40]
        [--ruleset NAME ...] [--markdown]

A round measures every pair once, one side after the other:

- each ruleset: the reference engine's random playouts (``--reference-games`` of them,
  bench/playouts.py), then the compiled engine's at batch 4096 on one thread for about
  ``--seconds`` (bench/fast.py); the ratio is the round's compiled over its reference rate;
- ``ludii``: the plain C loop of ../shared/yardstick (decisions/s, bench/yardstick.py), then
  the compiled engine's actions/s;
- the vector environment at 4,096 games on one thread (bench/env.py), then the batch API it
  is built on, ``batch.step`` with the compiled random player choosing (bench/fast.py);
- the Gymnasium and the PettingZoo AEC environments (``classic``), one after the other.

Every figure is reported as the median of the rounds with their lowest and highest, never
the best round alone: this machine's speed moves from second to second, and a best round
says more about a quiet moment than about the engine. ``--markdown`` prints the table as
the performance page holds it.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

sys.path.insert(0, "bench")

from rich.console import Console
from rich.table import Table

import yardstick
from env import aec_rate, gym_rate, vector_rate
from fast import batch_step_rate, compiled_rate
from pachisi.rules.ruleset import NAMED, get_ruleset
from playouts import measure as reference_measure

SIZE = 4096


@dataclass
class Figure:
    """One reported figure: its rounds' values, in the order they were taken."""

    what: str
    unit: str
    values: list[float] = field(default_factory=list)

    def summary(self) -> tuple[float, float, float]:
        """(median, lowest, highest) of the rounds."""
        return statistics.median(self.values), min(self.values), max(self.values)


def _fmt(value: float) -> str:
    return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"


def _pairs(
    names: list[str], seconds: float, games: int
) -> list[tuple[Figure, Figure, Figure, Callable[[int], float], Callable[[int], float]]]:
    """(baseline figure, figure, ratio figure, baseline side, side) for each pair."""
    pairs = []
    for name in names:
        ruleset = get_ruleset(name)
        pairs.append(
            (
                Figure(f"{name}: reference engine", "playouts/s"),
                Figure(f"{name}: compiled, batch {SIZE}", "playouts/s"),
                Figure(f"{name}: compiled / reference", "x"),
                lambda r, rs=ruleset: games / reference_measure(rs, games, 1)[0],
                lambda r, rs=ruleset: compiled_rate(rs, seconds, 9_000_000 + r * 100_000)[0],
            )
        )
    ludii = get_ruleset("ludii")
    pairs.append(
        (
            Figure("ludii: plain C loop", "decisions/s"),
            Figure(f"ludii: compiled, batch {SIZE}", "actions/s"),
            Figure("ludii: compiled / C loop", "x"),
            lambda r: yardstick.decisions_per_second(100_000, seed=1 + r),
            lambda r: compiled_rate(ludii, seconds, 8_000_000 + r * 100_000)[1],
        )
    )
    classic = get_ruleset("classic")
    pairs.append(
        (
            Figure(f"classic: batch.step, {SIZE} games", "steps/s"),
            Figure(f"classic: vector environment, {SIZE} games", "steps/s"),
            Figure("classic: vector environment / batch.step", "x"),
            lambda r: batch_step_rate(classic, SIZE, seconds / 3),
            lambda r: vector_rate("classic", SIZE, seconds),
        )
    )
    pairs.append(
        (
            Figure("classic: PettingZoo AEC environment", "steps/s"),
            Figure("classic: Gymnasium environment", "steps/s"),
            Figure("classic: Gymnasium / AEC", "x"),
            lambda r: aec_rate("classic", seconds, False),
            lambda r: gym_rate("classic", seconds),
        )
    )
    return pairs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--reference-games", type=int, default=40)
    parser.add_argument("--ruleset", action="append", help="ruleset (default: all named)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)
    if args.rounds < 5:
        parser.error("--rounds: at least 5, so that a median and a range mean something")
    names = args.ruleset or list(NAMED)
    console = Console(stderr=True)
    pairs = _pairs(names, args.seconds, args.reference_games)
    try:
        yardstick.binary()
    except yardstick.YardstickMissing as missing:
        console.print(f"the C loop is not measured: {missing}")
        pairs = [p for p in pairs if not p[0].what.startswith("ludii: plain C")]
    with console.status("measuring") as status:
        for r in range(args.rounds):
            for base, figure, ratio, base_side, side in pairs:
                status.update(f"round {r + 1} of {args.rounds}: {figure.what}")
                b = base_side(r)
                f = side(r)
                base.values.append(b)
                figure.values.append(f)
                ratio.values.append(f / b)
    figures = [fig for pair in pairs for fig in pair[:3]]
    machine = f"python {platform.python_version()}, {platform.machine()}, one core"
    command = ".venv/bin/python bench/spread.py " + " ".join(sys.argv[1:])
    if args.markdown:
        print(f"`{command}` ({machine}, {args.rounds} rounds)\n")
        print("| figure | unit | median | range |")
        print("|---|---|---:|---:|")
        for fig in figures:
            med, lo, hi = fig.summary()
            print(f"| {fig.what} | {fig.unit} | {_fmt(med)} | {_fmt(lo)} – {_fmt(hi)} |")
        return 0
    table = Table(title=f"{command}\n{machine}, {args.rounds} rounds, each pair in turns")
    for column in ("figure", "unit", "median", "lowest", "highest"):
        table.add_column(column, justify="left" if column in ("figure", "unit") else "right")
    for fig in figures:
        med, lo, hi = fig.summary()
        table.add_row(fig.what, fig.unit, _fmt(med), _fmt(lo), _fmt(hi))
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
