"""Rulesets (RULES.md C, D, E): every variant switch as a validated, declarative option.

A ruleset is a frozen :class:`Ruleset`. Named rulesets live in a registry with aliases, and
every ruleset has a canonical string, the name of the closest named ruleset plus the switches
that differ, which parses back to an equal ruleset:

>>> r = parse_ruleset("classic+capture_bonus=false")
>>> r.capture_bonus, str(r)
(False, 'classic+capture_bonus=false')
>>> str(parse_ruleset("tylor"))
'tylor-1879'

This module reads whole ruleset strings, resolves names and aliases, and derives a validated
ruleset from switch changes. Modules below it hold the rest:
:mod:`pachisi.rules.ruleset_type` holds :class:`Ruleset` itself, the named rulesets and the
canonical string; :mod:`pachisi.rules.switch_text` declares the switches and reads and
writes one switch value as text; :mod:`pachisi.rules.linked_switches` carries a change of one
switch over to the values that follow it; :mod:`pachisi.rules.ruleset_checks` refuses a
ruleset that cannot be played, and :mod:`pachisi.rules.refusals` holds every refusal's
message. The names that callers have always imported from here still import from here.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Final

from pachisi.rules import refusals
from pachisi.rules.linked_switches import apply_cowries, apply_six_up, linked_pyada_values
from pachisi.rules.ruleset_checks import check_ruleset, without_effect

# The ruleset value and the named rulesets live in ruleset_type, the switch table, the
# reading and writing of one switch value and RulesetError in switch_text, both below this
# module; callers import them from here, as they always have.
from pachisi.rules.ruleset_type import (
    NAMED,
    ORDER_FIRST,
    LastSquareExitValue,
    Ruleset,
    StackingValue,
    ValueSet,
    canonical_keys,
    ruleset_string,
)
from pachisi.rules.switch_text import (
    SWITCH_BY_KEY,
    SWITCHES,
    RulesetError,
    Switch,
    excerpt,
    format_value,
    parse_value,
)

__all__ = [
    "ALIASES",
    "DEFAULT_RULESET",
    "MAX_RULESET_LENGTH",
    "NAMED",
    "SWITCHES",
    "SWITCH_BY_KEY",
    "LastSquareExitValue",
    "Ruleset",
    "RulesetError",
    "StackingValue",
    "Switch",
    "ValueSet",
    "derive",
    "describe",
    "format_value",
    "get_ruleset",
    "parse_ruleset",
    "parse_value",
    "resolve_name",
    "ruleset_string",
    "unwritable",
    "validate",
]

ALIASES: Final[dict[str, str]] = {
    "default": "classic",
    "wikipedia": "wikipedia-full",
    "wiki": "wikipedia-full",
    "seeds": "wikipedia-full",
    "herklots": "herklots-6",
    "deccan-6": "herklots-6",
    "deccan-7": "herklots-7",
    "tylor": "tylor-1879",
    "bengal": "tylor-1879",
    "mitra": "tylor-1879",
}

DEFAULT_RULESET: Final = "classic"


def derive(base: Ruleset, changes: dict[str, Any]) -> Ruleset:
    """``base`` with the given switch values, validated.

    ``cowries`` and ``six_up_value`` are applied first because they bring their own tables
    and value sets (D-08); explicit values for those keys then override.
    """
    ruleset = base
    if "cowries" in changes:
        ruleset = apply_cowries(ruleset, changes["cowries"])
    if "six_up_value" in changes:
        ruleset = apply_six_up(ruleset, changes["six_up_value"])
    rest = {k: v for k, v in changes.items() if k not in ORDER_FIRST}
    linked = "pyada_values" not in rest and ruleset.pyada_values == ruleset.big_values
    if "big_values" in rest and "pyada_values" not in rest:
        rest["pyada_values"] = linked_pyada_values(ruleset, rest["big_values"])
    ruleset = dataclasses.replace(ruleset, **rest)
    # The canonical string lists the switches that differ from the base: none of them may be
    # idle either, or a ruleset built in several steps would not read back from its string.
    given = set(changes) | set(canonical_keys(ruleset))
    idle = [
        reason
        for switch in SWITCHES
        if switch.key in given and (reason := without_effect(ruleset, switch.key, linked))
    ]
    validate(ruleset, idle)
    return ruleset


def validate(r: Ruleset, problems: list[str] | None = None) -> None:
    """Refuse a switch combination that makes no sense, naming the switches involved.

    ``problems`` are reasons already found (by :func:`derive`) to report with the others.
    The checks are :func:`pachisi.rules.ruleset_checks.check_ruleset`'s; a ruleset with
    ``track=ludii`` is held to the named ``ludii`` ruleset.
    """
    check_ruleset(r, problems)


def resolve_name(name: str) -> str:
    """The registered name for ``name`` or one of its aliases."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in NAMED:
        known = ", ".join(list(NAMED) + sorted(ALIASES))
        raise RulesetError(refusals.UNKNOWN_RULESET(name=excerpt(name), known=known))
    return key


def get_ruleset(name: str = DEFAULT_RULESET) -> Ruleset:
    """A named ruleset (or alias), without changes."""
    return NAMED[resolve_name(name)]


MAX_RULESET_LENGTH: Final = 2000
"""The longest ruleset string read; canonical strings of real rulesets are far shorter
(an explicit stacking set of all 96 squares takes about 400 characters)."""
_RULESET_TEXT: Final = re.compile(r"[A-Za-z0-9_+=,/.\-]+")


def parse_ruleset(text: str) -> Ruleset:
    """Read a ruleset string ``NAME(+key=value)*``; errors name the offending switch.

    The string is ASCII letters, digits and ``+ = , / . _ -``, at most
    :data:`MAX_RULESET_LENGTH` characters; spaces and tabs around it are ignored. Every
    refusal is one of :mod:`pachisi.rules.refusals`.
    """
    if not isinstance(text, str):
        raise RulesetError(refusals.NOT_TEXT(type=type(text).__name__))
    if len(text) > MAX_RULESET_LENGTH:
        raise RulesetError(
            refusals.TOO_LONG(length=f"{len(text):,}", limit=f"{MAX_RULESET_LENGTH:,}")
        )
    text = text.strip(" \t")
    if not text:
        raise RulesetError(refusals.EMPTY())
    if not _RULESET_TEXT.fullmatch(text):
        bad = next(c for c in text if not _RULESET_TEXT.fullmatch(c))
        raise RulesetError(refusals.BAD_CHARACTER(text=excerpt(text), char=repr(bad)))
    head, *parts = text.split("+")
    base = get_ruleset(head)
    changes: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise RulesetError(refusals.NOT_KEY_VALUE(part=excerpt(part)))
        if key in changes:
            raise RulesetError(refusals.GIVEN_TWICE(key=key))
        changes[key] = parse_value(key, value)
    return derive(base, changes)


def unwritable(r: Ruleset, key: str) -> str | None:
    """Why the value that ``r`` holds for the switch ``key`` cannot be written back into its
    ruleset string (``str(r) + "+key=value"``, or in place of the ``key=`` already there),
    or None if it can: written back, it gives ``r`` again.

    Every switch has a value, but not every value is one the ruleset string may state: a
    switch whose rule another switch turns off (RULES.md E.1's ``—``: ``six_up_value``
    without 7 cowries, ``pyada_values`` without a pyada, ...) holds the value that would
    apply if that rule came on, and stating it is refused (:func:`without_effect`). And
    ``pyada_values`` may hold only what followed ``big_values`` (V-PYADA): stated apart, it
    stops following, which can leave ``big_values`` with no effect.
    """
    changes = {k: getattr(r, k) for k in canonical_keys(r)}
    changes[key] = getattr(r, key)
    try:
        again = derive(NAMED[r.name], changes)
    except RulesetError as exc:
        reason = str(exc).removeprefix(refusals.INVALID(problems=""))
        if without_effect(r, key, pyada_follows=False) is None and key == "pyada_values":
            return (
                f"pyada_values follows big_values here (V-PYADA); written out, it would stop "
                f"following it, and then {reason}"
            )
        return f"it has no effect here: {reason}"
    if again != r:  # the links carry nothing when a value is stated as it already is
        raise AssertionError(f"{r}+{key}={format_value(key, changes[key])} gives {again}")
    return None


def describe(r: Ruleset) -> list[dict[str, str]]:
    """Every switch with its value, the classic default and the rule it implements.

    ``note`` is empty where the value can be written back into the ruleset string, and
    says why not elsewhere (:func:`unwritable`).
    """
    classic = NAMED["classic"]
    return [
        {
            "key": s.key,
            "value": format_value(s.key, getattr(r, s.key)),
            "default": format_value(s.key, getattr(classic, s.key)),
            "rule": s.rule,
            "help": s.help,
            "note": unwritable(r, s.key) or "",
        }
        for s in SWITCHES
    ]
