"""The variant explorer: what each rule really changes, measured on many games.

It plays the same seeded games under many rulesets (:mod:`~pachisi.explore.variants`: the
named ones, every one-switch flip of a base, or a grid), measures each
(:mod:`~pachisi.explore.run`, with the intervals of :mod:`~pachisi.explore.measures`) and
reports them side by side (:mod:`~pachisi.explore.report`); ``pachisi explore`` is its
command (:mod:`~pachisi.explore.command`).

>>> from pachisi.explore.run import Settings
>>> plan = grid_variants("capture_bonus=true,false")
>>> results = explore(plan, Settings(games=20, seed=1))
>>> [r.variant.label for r in results]
['classic', 'classic+capture_bonus=false']
>>> results[0].games, 0 <= results[0].draws.value <= 1
(20, True)
"""

from __future__ import annotations

from collections.abc import Callable

from pachisi.explore.run import Settings, VariantResult, measure
from pachisi.explore.variants import (
    ExplorePlanError,
    Plan,
    Variant,
    flip_variants,
    grid_variants,
    named_variants,
)

__all__ = [
    "ExplorePlanError",
    "Plan",
    "Settings",
    "Variant",
    "VariantResult",
    "explore",
    "flip_variants",
    "grid_variants",
    "named_variants",
]


def explore(
    plan: Plan, settings: Settings, progress: Callable[[int], None] | None = None
) -> list[VariantResult]:
    """Measure every variant of ``plan`` under ``settings``, in the plan's order;
    ``progress(n)`` is called as each batch of ``n`` games is played."""
    return [measure(variant, settings, progress) for variant in plan.variants]
