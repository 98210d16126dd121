"""Positions for the players' tests: real choices reached by play from the start."""

from __future__ import annotations

import random

from pachisi.rules import cowries, engine
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import CHANCE, State

RULESETS = [
    "classic",
    "wikipedia-full",
    "herklots-6",
    "tylor-1879",
    "ludii",
    "classic+teams=individual",
    "classic+kill_before_home=team",
]
"""Rulesets the compiled players are checked on: the named ones with splits, groups, the
Ludii rules, and the switches that change sides and credits."""

ACTING = (
    "0,29,35,10/72,35,1,0/84,32,1,0/42,41,28,31 a3 165 k=4 entered=0,1,2,3 kills=0,0,0,1 classic"
)
"""A classic position where seat 3 uses a throw of 4: 3b+4, 3c+4, 3d+4 or decline."""


def decisions(ruleset: Ruleset, seed: int, count: int, every: int = 7) -> list[State]:
    """Every ``every``-th position with more than one legal action, reached by random play
    from the start, until ``count`` are found or the game ends."""
    rng = random.Random(seed)
    state = engine.new_game(ruleset)
    found: list[State] = []
    step = 0
    while not state.is_over and len(found) < count:
        if engine.current_player(state) == CHANCE:
            k = cowries.throw(rng, ruleset.cowries, ruleset.p_mouth_up)
            state, _ = engine.apply_chance(state, k)
            continue
        actions = engine.legal_actions(state)
        step += 1
        if len(actions) > 1 and step % every == 0:
            found.append(state)
        state, _ = engine.apply_action(state, rng.choice(actions))
    return found
