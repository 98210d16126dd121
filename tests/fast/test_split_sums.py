"""The split search's shortcut gives the search's answer (V-SPLIT-THROW, issue 6).

Where the parts of a split throw cannot change each other's legality, the compiled engine
lists the parts that lead to a full split from sums of allowed parts
(``split_parts_by_sums`` in ``kernels/splits.pxi``) instead of playing every part out
(``split_parts_by_search``), both reached through ``pachisi.fast._core.split_parts``.
Here both answer for every split question of seeded random games, in rulesets that stress
what the shortcut must get right: kill credits needed for the part home
(V-KILL-BEFORE-HOME, seat and team), captures that earn them, castles that block, coexist
or do nothing, lone men only (V-STACK-IMMUNE), and ``top_one`` captures without
kill-before-home.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from pachisi.fast.convert import to_row
from pachisi.fast.native import core
from pachisi.fast.params import compile_ruleset
from pachisi.rules import cowries, engine
from pachisi.rules.ruleset import parse_ruleset
from pachisi.rules.state import CHANCE, Stage, State
from tests.fast.differential import Scratch

RULESETS = [
    "wikipedia-full",
    "wikipedia-full+kill_before_home=team",
    "wikipedia-full+teams=individual",
    "classic+split_throw=split+kill_before_home=seat",
    "classic+split_throw=split+kill_before_home=seat+castle_mode=inert",
    "classic+split_throw=split+kill_before_home=team+castle_mode=coexist",
    "classic+split_throw=split+stack_immune=true+kill_before_home=seat",
    "classic+split_throw=split+capture_scope=top_one",
]


def _questions(state: State) -> list[tuple[int, int, bool]]:
    """The split questions the engine asks in ``state``: (throw, steps left, first parts)."""
    if state.split_left:
        return [(state.split_value, state.split_left, False)]
    if state.stage is Stage.ACT and state.throw_k >= 0 and not state.pyadas:
        v = state.ruleset.score_table[state.throw_k]
        return [(v, v, True)] if v >= 2 else []
    if state.stage is Stage.SPEND:
        return [(v, v, True) for v in sorted(set(state.items)) if v >= 2]
    return []


def _compare(state: State, params: np.ndarray, w: Scratch) -> tuple[int, str]:
    """How many questions ``state`` asked, and the first disagreement ('' if none)."""
    row = to_row(state)
    asked = 0
    for v, left, first_only in _questions(state):
        by_sums = core.split_parts(row, params, v, left, first_only, False, w)
        if by_sums is None:
            continue  # the parts are not independent: the engine does not use the sums
        by_search = core.split_parts(row, params, v, left, first_only, True, w)
        asked += 1
        if by_sums != by_search:
            return asked, f"v={v} left={left}: sums {by_sums} search {by_search}"
    return asked, ""


@pytest.mark.parametrize("rules", RULESETS)
def test_split_sums_answer_as_the_search(rules: str) -> None:
    r = parse_ruleset(rules)
    params, _ = compile_ruleset(r)
    w = Scratch()
    asked = answered_yes = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = engine.new_game(r)
        for _ in range(4000):
            if state.is_over:
                break
            if engine.current_player(state) == CHANCE:
                state = engine.apply_chance(state, cowries.throw(rng, r.cowries, r.p_mouth_up))[0]
                continue
            count, problem = _compare(state, params, w)
            assert not problem, f"{rules} seed {seed}: {problem}"
            asked += count
            actions = engine.legal_actions(state)
            answered_yes += any(a.part for a in actions)
            state = engine.apply_action(state, actions[rng.randrange(len(actions))])[0]
    # The games must have asked the question often, and sometimes found parts.
    assert asked > 200
    assert answered_yes > 20


def _spend_ten(enemies: tuple[int, int]) -> State:
    """Seat 0, no kill credit, spends a 10 (wikipedia-full): a on p83, one step from home;
    b on p18, whose 2 lands on p20 and 3 on the castle p21; c on p30; seat 1's pieces on
    its progresses ``enemies`` (71 is seat 0's p20, 72 its p21; 0 leaves one out)."""
    r = parse_ruleset("wikipedia-full")
    pos = (83, 18, 30, 0, *enemies, 0, 0, *(0,) * 8)
    return engine.new_game(r)._replace(
        pos=pos, stage=Stage.SPEND, seat=0, turn=30, entered=15, items=(10,), phase_flags=1
    )


@pytest.mark.parametrize(
    ("enemies", "offered"),
    [
        # c takes 7; the rest, 3, only as b's 2 (capturing on p20: a kill credit) and then a's
        # last step home (V-KILL-BEFORE-HOME): b's 3 would land on the enemy's castle.
        ((71, 72), True),
        # No enemy on p20 to capture: a cannot go home, so c's 7 leaves a rest nobody takes.
        ((0, 72), False),
    ],
)
def test_v_split_throw_home_part_backed_by_a_capture_in_the_rest(
    enemies: tuple[int, int], offered: bool
) -> None:
    state = _spend_ten(enemies)
    listed = [str(a) for a in engine.legal_actions(state)]
    assert ("0c+7/10" in listed) is offered
    params, _ = compile_ruleset(state.ruleset)
    asked, problem = _compare(state, params, Scratch())
    assert asked == 1
    assert not problem
