"""R-FROZEN in the compiled engine (RULES.md C.9, SC-53): the test runs after every action
that can change what it reads, and a decline on a board known not to be frozen carries the
answer over (kernels/step.pxi), exactly as the reference engine answers."""

from __future__ import annotations

import numpy as np
import pytest

from pachisi.fast import batch
from pachisi.fast.convert import action_id, to_row
from pachisi.fast.layout import SETTLED, WINNER
from pachisi.notation import read_position
from pachisi.rules import engine
from pachisi.rules.actions import Action
from pachisi.rules.state import CHANCE, DRAW, NO_WINNER, State

SC53 = (
    "84,84,84,84/84,84,84,84/81,82,0,0/83,82,0,0 s2 100 items=2 entered=0,1,2,3 "
    "kills=4,1,0,0 wikipedia-full+stacking=none"
)


def _both(state: State, text: str) -> tuple[State, np.ndarray]:
    """The reference's state after the action ``text`` and the compiled engine's row."""
    action = Action.parse(text)
    games = batch.from_states([state], chance="explicit")
    batch.step(games, [action_id(action, state.ruleset)])
    after, _ = engine.apply_action(state, action)
    return after, games.rows[0]


@pytest.mark.parametrize(
    ("text", "winner"),
    [("2a+2", DRAW), ("2b+1/2", DRAW), ("-", NO_WINNER)],
)
def test_sc_53_both_engines_end_or_go_on_alike(text: str, winner: int) -> None:
    state = read_position(SC53)
    after, row = _both(state, text)
    assert after.winner == winner
    assert int(row[WINNER]) == winner


def test_sc_53_the_decline_leaves_the_board_known_not_frozen() -> None:
    # The row read from notation does not know R-FROZEN's answer; the decline's own test
    # finds the board not frozen and records it, for the throws and declines that follow.
    state = read_position(SC53)
    assert to_row(state)[SETTLED] == 0
    _, row = _both(state, "-")
    assert row[SETTLED] == 1


def test_a_move_that_freezes_the_board_is_tested_after_a_decline() -> None:
    # The decline records that the board is not frozen; throws and declines carry that
    # over, and then seat 2's move freezes the board: the answer known before must not.
    ref = read_position(SC53)
    games = batch.from_states([ref], chance="explicit")
    decline = Action.parse("-")
    ref, _ = engine.apply_action(ref, decline)
    batch.step(games, [action_id(decline, ref.ruleset)])
    assert games.rows[0][SETTLED] == 1
    two = next(k for k, _ in engine.chance_outcomes(ref) if engine.value_of(ref.ruleset, k) == 2)
    for _ in range(50):
        if engine.current_player(ref) == CHANCE:
            ref, _ = engine.apply_chance(ref, two)
            batch.throw(games, [two])
        elif "2a+2" in [str(a) for a in engine.legal_actions(ref)]:
            break
        else:
            ref, _ = engine.apply_action(ref, decline)
            batch.step(games, [action_id(decline, ref.ruleset)])
        assert int(games.rows[0][WINNER]) == ref.winner == NO_WINNER
    else:
        pytest.fail("seat 2 never came to move 2a+2")
    move = Action.parse("2a+2")
    after, _ = engine.apply_action(ref, move)
    batch.step(games, [action_id(move, ref.ruleset)])
    assert after.winner == DRAW
    assert int(games.rows[0][WINNER]) == DRAW
