"""Switches that carry others with them when a ruleset changes them (RULES.md D, E.1).

* ``cowries``: the other number of cowries brings its own score table and value sets.
* ``six_up_value`` (D-08): with 7 cowries, 35 takes 30's place in the score table and in
  every value set.
* ``big_values`` (V-PYADA): ``pyada_values`` follows it unless the ruleset set it apart.

:func:`pachisi.rules.ruleset.derive` applies these links before the explicit values, and
the canonical string (:func:`pachisi.rules.ruleset.ruleset_string`) applies them to the
named ruleset it compares with, so that a value that only followed a link is not written.
:mod:`pachisi.rules.ruleset` imports this module, so it reads :class:`Ruleset` only for
type checking.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from pachisi.rules.cowries import CLASSIC_6, SEEDS_7

if TYPE_CHECKING:
    from pachisi.rules.ruleset import Ruleset, ValueSet

__all__ = ["apply_cowries", "apply_six_up", "linked_pyada_values"]


def apply_six_up(ruleset: Ruleset, value: int) -> Ruleset:
    """D-08: with 35, 35 takes 30's place in the score table and in every value set."""
    if ruleset.cowries != 7 or value == ruleset.six_up_value:
        return dataclasses.replace(ruleset, six_up_value=value)
    old = ruleset.six_up_value

    def swap(values: ValueSet) -> ValueSet:
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


def apply_cowries(ruleset: Ruleset, cowries: int) -> Ruleset:
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


def linked_pyada_values(ruleset: Ruleset, big_values: ValueSet) -> ValueSet:
    """V-PYADA: ``pyada_values`` defaults to ``big_values``, so it follows a change of
    ``big_values`` unless the ruleset had already set it apart."""
    if ruleset.pyada_values == ruleset.big_values:
        return big_values
    return ruleset.pyada_values
