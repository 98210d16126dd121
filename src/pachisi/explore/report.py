"""An exploration's results as a terminal table, CSV rows and a JSON document.

The CSV has one row per variant with every figure and its interval as columns; the JSON
holds the settings, the seed, the package's version, the skipped combinations and, per
variant, every measure with its interval and the length histograms.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from pachisi.explore.measures import Estimate, Length
from pachisi.explore.settings import Settings
from pachisi.explore.tally import VariantResult

__all__ = ["as_csv", "as_json", "print_table"]


def _pm(e: Estimate, digits: int = 0) -> str:
    return f"{e.value:.{digits}f} [{e.low:.{digits}f}, {e.high:.{digits}f}]"


def _pct(e: Estimate, signed: bool = False) -> str:
    sign = "+" if signed else ""
    return f"{e.value:{sign}.1%} [{e.low:{sign}.1%}, {e.high:{sign}.1%}]"


def print_table(
    results: Sequence[VariantResult], settings: Settings, console: Console | None = None
) -> None:
    """The results side by side, one row per variant (rich draws it)."""
    out = console or Console()
    table = Table(
        title=(
            f"{settings.games} games per variant, {settings.players} players, seed "
            f"{settings.seed}; 95% intervals in brackets"
        ),
        title_justify="left",
    )
    table.add_column("variant", overflow="fold")
    table.add_column("throws mean", justify="right")
    table.add_column("median / p90", justify="right")
    table.add_column(f"minutes ({settings.pace:g} s a step)", justify="right")
    table.add_column("draws", justify="right")
    table.add_column("unfinished", justify="right")
    table.add_column("first mover's edge", justify="right")
    table.add_column("captures / game", justify="right")
    table.add_column("comebacks", justify="right")
    if settings.capture_games:
        table.add_column("captures from a castle", justify="right")
        table.add_column("captures of stacks", justify="right")
    if settings.skill_games:
        table.add_column("greedy beats random", justify="right")
    if settings.strong_games:
        table.add_column("learned beats greedy", justify="right")
    for r in results:
        row = [
            r.variant.label,
            _pm(r.throws.mean),
            f"{r.throws.median.value:.0f} / {r.throws.p90.value:.0f}",
            _pm(r.minutes),
            _pct(r.draws),
            _pct(r.unfinished),
            _pct(r.first_mover_edge, signed=True),
            _pm(r.captures, 1),
            _pct(r.comeback),
        ]
        if settings.capture_games:
            for e in (r.capture_from_castle, r.capture_of_stack):
                row.append(_pct(e) if e is not None else "no captures")
        if settings.skill_games:
            row.append(_pct(r.skill) if r.skill is not None else "")
        if settings.strong_games:
            row.append(_pct(r.strong) if r.strong is not None else "no network")
        table.add_row(*row)
    out.print(table)


def _columns(prefix: str, e: Estimate) -> dict[str, float]:
    return {prefix: e.value, f"{prefix}_low": e.low, f"{prefix}_high": e.high}


def _length_columns(prefix: str, length: Length) -> dict[str, float]:
    return {
        **_columns(f"{prefix}_mean", length.mean),
        **_columns(f"{prefix}_median", length.median),
        **_columns(f"{prefix}_p90", length.p90),
    }


def _optional(prefix: str, e: Estimate | None) -> dict[str, float | str]:
    """:func:`_columns`, or empty cells where the figure was not measured."""
    if e is None:
        return {prefix: "", f"{prefix}_low": "", f"{prefix}_high": ""}
    return {**_columns(prefix, e)}


def _row(r: VariantResult) -> dict[str, Any]:
    row: dict[str, Any] = {
        "variant": r.variant.label,
        "switch": r.variant.switch or "",
        "choice": r.variant.choice or "",
        "games": r.games,
        "engine": r.engine,
        "seconds": round(r.seconds, 3),
        **_length_columns("throws", r.throws),
        **_length_columns("actions", r.actions),
        **_length_columns("turns", r.turns),
        **_columns("minutes", r.minutes),
        **_columns("draw_rate", r.draws),
        **_columns("deadlock_rate", r.deadlocks),
        **_columns("frozen_rate", r.frozen),
        **_columns("unfinished_rate", r.unfinished),
    }
    for seat, e in enumerate(r.seat_wins):
        row.update(_columns(f"seat{seat}_wins", e))
    for team in range(2):
        if r.team_wins is None:
            row.update({f"team{team}_wins": "", f"team{team}_wins_low": ""})
            row[f"team{team}_wins_high"] = ""
        else:
            row.update(_columns(f"team{team}_wins", r.team_wins[team]))
    row.update(_columns("first_mover_wins", r.first_mover))
    row["fair_share"] = r.fair_share
    row.update(_columns("captures_per_game", r.captures))
    row.update(_columns("comeback_rate", r.comeback))
    row.update(_optional("captures_from_castle", r.capture_from_castle))
    row.update(_optional("captures_of_stacks", r.capture_of_stack))
    row.update(_optional("greedy_vs_random", r.skill))
    row["strong_player"] = r.strong_player or ""
    row.update(_optional("strong_vs_greedy", r.strong))
    return row


def _maybe(e: Estimate | None) -> dict[str, float] | None:
    return None if e is None else e.as_dict()


def as_csv(results: Sequence[VariantResult]) -> str:
    """One row per variant, every figure with its interval (``_low``, ``_high``)."""
    rows = [_row(r) for r in results]
    buffer = io.StringIO()
    if rows:
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return buffer.getvalue()


def as_json(
    results: Sequence[VariantResult],
    settings: Settings,
    skipped: Sequence[tuple[str, str]],
    version: str,
) -> str:
    """The whole exploration: settings, seed, version, skipped combinations, and each
    variant's measures with their intervals and histograms."""

    def variant(r: VariantResult) -> dict[str, Any]:
        return {
            "variant": r.variant.label,
            "switch": r.variant.switch,
            "choice": r.variant.choice,
            "games": r.games,
            "engine": r.engine,
            "seconds": round(r.seconds, 3),
            "throws": r.throws.as_dict(),
            "actions": r.actions.as_dict(),
            "turns": r.turns.as_dict(),
            "minutes": r.minutes.as_dict(2),
            "draw_rate": r.draws.as_dict(),
            "deadlock_rate": r.deadlocks.as_dict(),
            "frozen_rate": r.frozen.as_dict(),
            "unfinished_rate": r.unfinished.as_dict(),
            "seat_wins": [e.as_dict() for e in r.seat_wins],
            "team_wins": None if r.team_wins is None else [e.as_dict() for e in r.team_wins],
            "first_mover_wins": r.first_mover.as_dict(),
            "fair_share": r.fair_share,
            "first_mover_edge": r.first_mover_edge.as_dict(),
            "captures_per_game": r.captures.as_dict(3),
            "comeback_rate": r.comeback.as_dict(),
            "captures_from_castle": None
            if r.capture_from_castle is None
            else r.capture_from_castle.as_dict(),
            "captures_of_stacks": None
            if r.capture_of_stack is None
            else r.capture_of_stack.as_dict(),
            "greedy_vs_random": None if r.skill is None else r.skill.as_dict(),
            "strong_player": r.strong_player,
            "strong_vs_greedy": None if r.strong is None else r.strong.as_dict(),
        }

    document = {
        "pachisi": version,
        "settings": settings.as_dict(),
        "skipped": [{"ruleset": text, "reason": why} for text, why in skipped],
        "variants": [variant(r) for r in results],
    }
    return json.dumps(document, indent=1) + "\n"
