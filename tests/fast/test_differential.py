"""The compiled engine plays exactly as the reference engine (issue 6, item 2).

A sample that fits CI: every named ruleset and every variant combination of the property
tests, seeded random games compared at every step (legal actions in order, state, events).
bench/differential.py runs the same comparison on many more games.
"""

from __future__ import annotations

import pytest

from pachisi.fast.convert import to_row
from pachisi.fast.params import compile_ruleset
from pachisi.notation import read_position
from pachisi.rules import _legal, engine
from pachisi.rules.ruleset import NAMED
from pachisi.rules.state import DRAW
from tests.fast.differential import Scratch, compare_legal, play_both
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


BLOCKADE_IMMUNE_COEXIST = [
    "tylor-1879+blockade=true+castle_mode=coexist",
    "classic+blockade=true+stack_immune=true+castle_mode=coexist+split_throw=group",
]
"""V-BLOCKADE with V-STACK-IMMUNE and R-CASTLE-BLOCK's coexist, refused until issue 47 as
"leaving no capture rule": a lone enemy piece off the castles is still captured, a stack
only by a group landing, nobody on a castle. Accepted because both engines play it alike."""


@pytest.mark.parametrize("rules", BLOCKADE_IMMUNE_COEXIST)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_v_blockade_with_v_stack_immune_and_coexisting_castles_play_identically(
    rules: str, seed: int
) -> None:
    problem, steps = play_both(rules, seed)
    assert not problem, f"{rules} seed {seed}, step {steps}: {problem}"
    assert steps > 50


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


LAST_CAPTURER = (
    "84,84,84,84/84,84,84,80/75,80,84,84/84,84,84,0 s2 100 pyadas=1 items=10,3 flags=3 "
    "entered=0,1,2,3 kills=0,0,0,0 wikipedia-full"
)
"""Seat 2 spends a 10, a 3 and a pyada. Nobody has a kill credit and seat 1 cannot earn
one, so team 1 is blocked (R-DEADLOCK); 2a on 75 is team 0's last piece that could still
capture. The pyada step ``2a+p`` and the split's first part ``2a+1/3`` both take it to 76
while something is left to spend (the 10, and the pyada or the 3's other 2 steps)."""


@pytest.mark.parametrize(("deadlock", "one_outcome"), [("draw", True), ("continue", False)])
def test_c10b_moves_that_spend_different_things_are_one_outcome_only_if_the_checks_draw(
    deadlock: str, one_outcome: bool
) -> None:
    # Under draw both actions end the game at once (R-DEADLOCK) and what was left to spend
    # lapses: one outcome, the first listed is kept (C.10b). Under continue they leave
    # different things to spend. The compiled engine decides such a group from its first
    # action alone; both engines must list the same actions.
    state = read_position(f"{LAST_CAPTURER}+deadlock={deadlock}")
    listed = [str(a) for a in engine.legal_actions(state)]
    assert "2a+1/3" in listed
    assert ("2a+p" not in listed) is one_outcome
    # 2b's two ways to 81 leave 2a a capturer: never one outcome.
    assert {"2b+1/3", "2b+p"} <= set(listed)
    params, _ = compile_ruleset(state.ruleset)
    problem, _ = compare_legal(state, to_row(state), params, Scratch())
    assert not problem


SPENDING_DRAWS = [
    "83,83,83,82/84,84,71,52/83,83,0,0/83,83,77,53 s3 209 pyadas=2 items=30,25,2 flags=3 "
    "entered=0,1,2,3 kills=0,1,0,0 wikipedia-full",
    "83,83,65,82/83,83,83,83/84,84,84,84/83,83,73,76 s3 326 pyadas=1 items=10,4 flags=3 "
    "entered=0,1,2,3 kills=0,0,2,0 wikipedia-full",
    "84,84,84,84/84,84,76,75/81,83,83,45/83,83,83,83 s1 238 pyadas=1 items=10,4 flags=3 "
    "entered=0,1,2,3 kills=2,2,0,0 wikipedia-full",
]
"""Spending stages (found in random games) with something left after any one action, in
which moves that spend different things draw the game and so are one outcome (C.10b). The
compiled one-outcome pass plays no move out where it can tell that no move draws
(kernels/actions.pxi, ``_moves_cannot_draw``); here some do, and both engines must drop
the same actions."""


@pytest.mark.parametrize("position", SPENDING_DRAWS)
def test_c10b_moves_that_draw_are_one_outcome_in_both_engines(position: str) -> None:
    state = read_position(position)
    # Every use the rules list, before one outcome, one action: some that draw are dropped.
    uses = _legal.legal_actions(state)
    listed = engine.legal_actions(state)
    dropped = [a for a in uses if a not in listed]
    assert any(engine._apply(state, a)[0].winner == DRAW for a in dropped)
    params, _ = compile_ruleset(state.ruleset)
    problem, _ = compare_legal(state, to_row(state), params, Scratch())
    assert not problem


ENTRIES_APART = (
    "84,1,0,0/84,84,17,8/84,76,0,0/84,84,78,8 s0 134 items=10,30,2 flags=1 "
    "entered=0,1,2,3 kills=1,3,1,1 wikipedia-full"
)
"""Seat 0 spends a 30, a 10 and a 2 with 0c and 0d waiting (found in a random game): the
entries ``0c@30`` and ``0c@10`` put the same piece on the same square and leave different
items to spend, and no move or entry can draw the game here. The compiled engine keeps
both without playing either out (kernels/actions.pxi, ``_shared_landings``)."""


def test_c10b_entries_that_spend_different_items_are_outcomes_of_their_own() -> None:
    state = read_position(ENTRIES_APART)
    listed = [str(a) for a in engine.legal_actions(state)]
    assert {"0c@30", "0c@10"} <= set(listed)
    assert len(listed) == len(_legal.legal_actions(state))
    params, _ = compile_ruleset(state.ruleset)
    problem, _ = compare_legal(state, to_row(state), params, Scratch())
    assert not problem
