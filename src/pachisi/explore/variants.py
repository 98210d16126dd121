"""Which rulesets an exploration compares: the named ones, every one-switch flip of a base,
or a grid of switch values the user gives.

Every variant is a ruleset the rules core accepts: a flip or a grid point that it refuses
(a switch without effect in that ruleset, or a combination under which no game could start
or end, R-PLAYABLE-RULESET) is not played but listed as skipped, with the reader's reason.

>>> [v.label for v in named_variants()][:2]
['classic', 'wikipedia-full']
>>> plan = flip_variants("classic")
>>> [v.label for v in plan.variants][:3]
['classic', 'classic+cowries=7', 'classic+entry_mode=consume_plus_move']
>>> grid = grid_variants("stacking=all,none;capture_bonus=true,false")
>>> [v.label for v in grid.variants][1:3]
['classic+capture_bonus=false', 'classic+stacking=none']
>>> grid.variants[3].label
'classic+stacking=none+capture_bonus=false'
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Final

from pachisi.explore.errors import ExplorePlanError
from pachisi.rules.ruleset import (
    NAMED,
    SWITCHES,
    Ruleset,
    RulesetError,
    derive,
    format_value,
    parse_ruleset,
    parse_value,
)

__all__ = [
    "ExplorePlanError",
    "Plan",
    "Variant",
    "flip_choices",
    "flip_variants",
    "grid_variants",
    "named_variants",
]


@dataclass(frozen=True, slots=True)
class Variant:
    """One ruleset to measure, with what makes it differ from its base."""

    label: str
    """The ruleset's canonical string (``classic+stacking=none``)."""
    ruleset: Ruleset
    switch: str | None = None
    """For a one-switch flip: the switch flipped (None for a base or a named ruleset)."""
    choice: str | None = None
    """For a one-switch flip: the choice it was given."""


@dataclass(frozen=True, slots=True)
class Plan:
    """The variants to play, and the ones the rules core refused, with its reasons."""

    variants: tuple[Variant, ...]
    skipped: tuple[tuple[str, str], ...] = field(default=())
    """``(ruleset text, reason)`` for every combination not played."""


MAX_VARIANTS: Final = 10_000
"""The most variants one grid may make (its axes' choices multiplied)."""


def named_variants() -> tuple[Variant, ...]:
    """Every named ruleset, in the table's order (rules reference, section E)."""
    return tuple(Variant(name, ruleset) for name, ruleset in NAMED.items())


def flip_choices(key: str) -> tuple[str, ...]:
    """The choices a one-switch flip tries for ``key``: its named choices (the enum's
    members for a switch that also takes a set), none for a free-form switch (tables,
    value sets, a probability), whose values cannot be listed."""
    switch = next(s for s in SWITCHES if s.key == key)
    if switch.choices:
        return switch.choices
    if switch.enum is not None:
        return tuple(member.value for member in switch.enum)
    return ()


def flip_variants(base: str) -> Plan:
    """The base, then every choice of every listable switch that differs from the base's
    own (:func:`flip_choices`), one at a time, in the switch table's order."""
    start = _read_base(base)
    variants = [Variant(str(start), start)]
    skipped: list[tuple[str, str]] = []
    for switch in SWITCHES:
        current = format_value(switch.key, getattr(start, switch.key))
        for choice in flip_choices(switch.key):
            if choice == current:
                continue
            text = f"{start}+{switch.key}={choice}"
            try:
                ruleset = derive(start, {switch.key: parse_value(switch.key, choice)})
            except RulesetError as exc:
                skipped.append((text, str(exc)))
                continue
            variants.append(Variant(str(ruleset), ruleset, switch.key, choice))
    return Plan(tuple(variants), tuple(skipped))


def grid_variants(spec: str, base: str = "classic") -> Plan:
    """Every combination of the values a grid lists, on top of ``base``.

    ``spec`` is axes separated by ``;``, each ``key=value,value,...``. A value that is a
    set itself (``reroll_values=2,3,4``) is separated from the next one by ``|``: an axis
    that holds a ``|`` is split on it alone (``reroll_values=2,3|6,25``).
    """
    start = _read_base(base)
    axes: list[tuple[str, list[Any], list[str]]] = []
    known = {s.key for s in SWITCHES}
    if not isinstance(spec, str) or not spec.strip():
        raise ExplorePlanError("an empty grid: give key=value,value;key=value,...")
    for part in spec.split(";"):
        key, sep, values = part.strip().partition("=")
        if not sep or not key or not values:
            raise ExplorePlanError(f"grid axis {part.strip()!r} must be written key=value,value")
        if key not in known:
            raise ExplorePlanError(f"grid axis {key!r} is not a switch (pachisi rules lists them)")
        if any(key == k for k, _, _ in axes):
            raise ExplorePlanError(f"grid axis {key!r} is given twice")
        texts = values.split("|") if "|" in values else values.split(",")
        parsed = []
        for text in texts:
            try:
                parsed.append(parse_value(key, text.strip()))
            except RulesetError as exc:
                raise ExplorePlanError(f"grid axis {key!r}: {exc}") from None
        axes.append((key, parsed, [t.strip() for t in texts]))
    total = 1
    for _, parsed, _ in axes:
        total *= len(parsed)
    if total > MAX_VARIANTS:
        raise ExplorePlanError(f"the grid makes {total:,} variants; at most {MAX_VARIANTS:,}")
    variants: list[Variant] = []
    skipped: list[tuple[str, str]] = []
    seen: set[str] = set()
    for combo in itertools.product(*(range(len(parsed)) for _, parsed, _ in axes)):
        changes = {key: parsed[i] for (key, parsed, _), i in zip(axes, combo, strict=True)}
        text = "+".join(
            [str(start)]
            + [f"{key}={texts[i]}" for (key, _, texts), i in zip(axes, combo, strict=True)]
        )
        try:
            ruleset = derive(start, _without_defaults(start, changes))
        except RulesetError as exc:
            skipped.append((text, str(exc)))
            continue
        if str(ruleset) not in seen:
            seen.add(str(ruleset))
            variants.append(Variant(str(ruleset), ruleset))
    return Plan(tuple(variants), tuple(skipped))


def _without_defaults(start: Ruleset, changes: dict[str, Any]) -> dict[str, Any]:
    """The changes that differ from ``start`` (a grid point may keep the base's value, and
    the rules core refuses a switch given without effect only when it changes something)."""
    return {key: value for key, value in changes.items() if getattr(start, key) != value}


def _read_base(base: str) -> Ruleset:
    try:
        return parse_ruleset(base)
    except RulesetError as exc:
        raise ExplorePlanError(f"base ruleset: {exc}") from None
