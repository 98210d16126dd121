"""Play one seeded game in both engines at once and report the first difference.

At every step both engines must list the same legal actions in the same order, and after
the same throw or action reach the same state (compared as reference states, so through
the position string's fields) with the same events.
"""

from __future__ import annotations

import random

import numpy as np

from pachisi.fast.convert import action_id, action_of, events_of, to_row, to_state
from pachisi.fast.native import core
from pachisi.fast.params import compile_ruleset
from pachisi.notation import write_position
from pachisi.rules import cowries, engine
from pachisi.rules.actions import Action
from pachisi.rules.ruleset import parse_ruleset
from pachisi.rules.state import CHANCE, State

Scratch = core.Scratch


def compare_step(
    state: State, move: object, row: np.ndarray, params: np.ndarray, w: Scratch
) -> tuple[str, State]:
    """Apply ``move`` (a throw ``k`` or an Action) in both engines: ('' if they agree, else
    the difference; the reference state after the move)."""
    r = state.ruleset
    if isinstance(move, int):
        after, events = engine.apply_chance(state, move)
        ev = core.apply_chance(row, params, move, w)
    else:
        after, events = engine.apply_action(state, move)  # type: ignore[arg-type]
        ev = core.apply_action(row, params, action_id(move, r), w)  # type: ignore[arg-type]
    fast = to_state(row, r)
    if fast != after:
        return (
            f"state after {move}:\n  from {write_position(state)}\n"
            f"  ref  {write_position(after)}\n  fast {fast}"
        ), after
    fast_events = events_of(ev, len(ev))
    if fast_events != events:
        ref_events = [str(e) for e in events]
        return (
            f"events after {move}: ref {ref_events} fast {[str(e) for e in fast_events]}",
            after,
        )
    return "", after


def compare_legal(
    state: State, row: np.ndarray, params: np.ndarray, w: Scratch
) -> tuple[str, tuple[Action, ...]]:
    """The legal actions of both engines, in order: ('' if they agree, else the
    difference; the reference engine's list)."""
    actions = engine.legal_actions(state)
    ref = [action_id(a, state.ruleset) for a in actions]
    fast = core.legal_actions(row, params, w).tolist()
    if fast != ref:
        names = [str(action_of(a, state)) for a in fast]
        listed = [str(a) for a in actions]
        return f"legal actions at {write_position(state)}: ref {listed} fast {names}", actions
    return "", actions


def play_both(rules: str, seed: int, max_steps: int = 60_000) -> tuple[str, int]:
    """A seeded random game in both engines: ('', steps) or (the first difference, step)."""
    r = parse_ruleset(rules)
    params, _ = compile_ruleset(r)
    rng = random.Random(seed)
    w = Scratch()
    state = engine.new_game(r)
    row = to_row(state)
    for step in range(max_steps):
        if state.is_over:
            return "", step
        if engine.current_player(state) == CHANCE:
            move: object = cowries.throw(rng, r.cowries, r.p_mouth_up)
        else:
            problem, actions = compare_legal(state, row, params, w)
            if problem:
                return problem, step
            move = actions[rng.randrange(len(actions))]
        problem, state = compare_step(state, move, row, params, w)
        if problem:
            return problem, step
    return "", max_steps
