"""Switches that carry others with them when a ruleset changes them (RULES.md D, E.1).

* ``cowries``: the other number of cowries brings its own score table and value sets.
* ``six_up_value`` (D-08): with 7 cowries, 35 takes 30's place in the score table and in
  every value set.
* ``big_values`` (V-PYADA): ``pyada_values`` follows it unless the ruleset set it apart.

:func:`pachisi.rules.ruleset.derive` applies these links before the explicit values, and
the canonical string (:func:`pachisi.rules.ruleset_type.ruleset_string`) applies them to
the named ruleset it compares with, so that a value that only followed a link is not
written. The ruleset's own module (:mod:`pachisi.rules.ruleset_type`) needs these links to
write its canonical string, so this module sits below it and reads a ruleset through
:class:`Linked`, the few switches the links touch, which :class:`~pachisi.rules.ruleset.Ruleset`
satisfies as it is.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Protocol, TypeVar

from pachisi.rules.choices import LastSquareExit
from pachisi.rules.cowries import CLASSIC_6, SEEDS_7

__all__ = ["Linked", "apply_cowries", "apply_six_up", "linked_pyada_values"]


class Linked(Protocol):
    """A ruleset as the links read it: a dataclass (so that :func:`dataclasses.replace`
    builds the changed one) with the switches that the links carry."""

    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    @property
    def cowries(self) -> int: ...
    @property
    def six_up_value(self) -> int: ...
    @property
    def score_table(self) -> tuple[int, ...]: ...
    @property
    def reroll_values(self) -> frozenset[int]: ...
    @property
    def entry_values(self) -> frozenset[int]: ...
    @property
    def big_values(self) -> frozenset[int]: ...
    @property
    def pyada_values(self) -> frozenset[int]: ...
    @property
    def last_square_exit(self) -> LastSquareExit | frozenset[int]: ...


R = TypeVar("R", bound=Linked)
"""The ruleset type: a change gives a ruleset of the same type."""


def apply_six_up(ruleset: R, value: int) -> R:
    """D-08: with 35, 35 takes 30's place in the score table and in every value set."""
    if ruleset.cowries != 7 or value == ruleset.six_up_value:
        return dataclasses.replace(ruleset, six_up_value=value)
    old = ruleset.six_up_value

    def swap(values: frozenset[int]) -> frozenset[int]:
        return frozenset(value if v == old else v for v in values)

    table = list(ruleset.score_table)
    if table[6] == old:
        table[6] = value
    exit_values = ruleset.last_square_exit
    return dataclasses.replace(
        ruleset,
        six_up_value=value,
        score_table=tuple(table),
        reroll_values=swap(ruleset.reroll_values),
        entry_values=swap(ruleset.entry_values),
        big_values=swap(ruleset.big_values),
        pyada_values=swap(ruleset.pyada_values),
        last_square_exit=exit_values if isinstance(exit_values, str) else swap(exit_values),
    )


def apply_cowries(ruleset: R, cowries: int) -> R:
    """Switching the number of cowries also switches to that count's default table."""
    if cowries == ruleset.cowries:
        return ruleset
    if cowries == 7:
        return dataclasses.replace(
            ruleset,
            cowries=7,
            score_table=SEEDS_7,
            reroll_values=frozenset({7, 10, 25, 30, 14}),
            entry_values=frozenset({10, 25, 30}),
            last_square_exit=frozenset({10, 25, 30}),
            big_values=frozenset({10, 25, 30}),
            pyada_values=frozenset({10, 25, 30}),
            six_up_value=30,
        )
    return dataclasses.replace(
        ruleset,
        cowries=6,
        score_table=CLASSIC_6,
        reroll_values=frozenset({6, 10, 25}),
        entry_values=frozenset({6, 10, 25}),
        last_square_exit=frozenset({6, 10, 25}),
        big_values=frozenset({10, 25}),
        pyada_values=frozenset({10, 25}),
        six_up_value=30,
    )


def linked_pyada_values(ruleset: Linked, big_values: frozenset[int]) -> frozenset[int]:
    """V-PYADA: ``pyada_values`` defaults to ``big_values``, so it follows a change of
    ``big_values`` unless the ruleset had already set it apart."""
    if ruleset.pyada_values == ruleset.big_values:
        return big_values
    return ruleset.pyada_values
