"""The compiled engine plays exactly as the reference engine (issue 6, item 2).

A sample that fits CI: every named ruleset and every variant combination of the property
tests, seeded random games compared at every step (legal actions in order, state, events).
bench/differential.py runs the same comparison on many more games.
"""

from __future__ import annotations

import pytest

from pachisi.rules.ruleset import NAMED
from tests.fast.differential import play_both
from tests.rules.test_properties import VARIANTS


@pytest.mark.parametrize("rules", list(NAMED))
@pytest.mark.parametrize("seed", [101, 102])
def test_named_rulesets_play_identically(rules: str, seed: int) -> None:
    problem, steps = play_both(rules, seed)
    assert not problem, f"{rules} seed {seed}, step {steps}: {problem}"
    assert steps > 50


@pytest.mark.parametrize("rules", VARIANTS)
def test_variants_play_identically(rules: str) -> None:
    problem, steps = play_both(rules, 7)
    assert not problem, f"{rules}, step {steps}: {problem}"


FROZEN = [
    "wikipedia-full+stacking=none",
    "classic+stacking=none+kill_before_home=seat",
    "wikipedia-full+stacking=castles_only",
    "classic+stacking=castles_only+kill_before_home=team+last_square_exit=none",
    "herklots-7+stacking=none",
]
"""Rulesets whose games often end in an R-FROZEN draw: both engines must draw at the same
step, and list the same actions in collect mode's one-outcome rule (C.10b)."""


@pytest.mark.parametrize("rules", FROZEN)
@pytest.mark.parametrize("seed", [1, 2])
def test_frozen_draws_come_at_the_same_step(rules: str, seed: int) -> None:
    problem, steps = play_both(rules, seed)
    assert not problem, f"{rules} seed {seed}, step {steps}: {problem}"
