"""The variant explorer: what each rule really changes, measured on many games.

It plays the same seeded games under many rulesets (:mod:`~pachisi.explore.variants`: the
named ones, every one-switch flip of a base, or a grid), in rounds
(:mod:`~pachisi.explore.run`), counts them in bounded memory
(:mod:`~pachisi.explore.tally`, with the intervals of :mod:`~pachisi.explore.measures`),
streams every game to a results file it can resume from (:mod:`~pachisi.explore.results`)
and reports the variants side by side (:mod:`~pachisi.explore.report`); ``pachisi explore``
is its command (:mod:`~pachisi.explore.command`).

The names below are this package's face; each is imported from its module when first
asked for, so that ``pachisi --help`` (whose parser names ``explore``) loads none of them.

>>> from pachisi.explore import explore, grid_variants
>>> explore.__module__
'pachisi.explore.explorer'
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "ExplorePlanError",
    "Plan",
    "ResultsError",
    "Settings",
    "Variant",
    "VariantResult",
    "explore",
    "flip_variants",
    "grid_variants",
    "named_variants",
    "narrow_enough",
]

_HOMES = {
    "ExplorePlanError": "variants",
    "Plan": "variants",
    "Variant": "variants",
    "flip_variants": "variants",
    "grid_variants": "variants",
    "named_variants": "variants",
    "ResultsError": "results",
    "Settings": "settings",
    "VariantResult": "tally",
    "explore": "explorer",
    "narrow_enough": "explorer",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'pachisi.explore' has no attribute {name!r}")
    return getattr(importlib.import_module(f"pachisi.explore.{home}"), name)
