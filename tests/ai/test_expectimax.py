"""Tests for the expectimax player (pachisi.ai.expectimax) and its evaluation."""

from __future__ import annotations

import random

import pytest

from pachisi.ai.budget import Budget, Deadline
from pachisi.ai.evaluation import side_of, win_chances
from pachisi.ai.expectimax import ExpectimaxPlayer, _hand_weighted, _Search
from pachisi.rules import engine
from pachisi.rules.ruleset import NAMED, derive, get_ruleset
from pachisi.rules.state import CHANCE, Stage, State
from tests.ai.positions import decisions

SMALL = Budget(playouts=150)


def brute(state: State, depth: int, side: int, chained: bool = False) -> float:
    """Expectimax without pruning, as the module describes it."""
    if state.is_over:
        return win_chances(state)[side]
    if engine.current_player(state) == CHANCE:
        depth -= 1 if chained else 0
        if depth <= 0:
            return win_chances(state)[side]
        return sum(
            float(p) * brute(engine.apply_chance(state, k)[0], depth, side, True)
            for k, p in engine.chance_outcomes(state)
        )
    if depth <= 0:
        return win_chances(state)[side]
    values = [
        brute(engine.apply_action(state, a)[0], depth - 1, side)
        for a in engine.legal_actions(state)
    ]
    return max(values) if side_of(state, state.seat) == side else min(values)


@pytest.mark.parametrize("name", ["classic", "ludii", "herklots-6"])
def test_star1_pruning_keeps_the_exact_root_values(name: str) -> None:
    for state in decisions(NAMED[name], seed=3, count=3, every=11):
        search = _Search(state, Deadline(Budget(playouts=10**9)), _hand_weighted)
        side = side_of(state, state.seat)
        for action, value in search.root(state, 2):
            child = engine.apply_action(state, action)[0]
            assert value == pytest.approx(brute(child, 1, side), abs=1e-9)


@pytest.mark.parametrize("name", sorted(NAMED))
def test_chooses_only_legal_actions_in_every_named_ruleset(name: str) -> None:
    player = ExpectimaxPlayer()
    for i, state in enumerate(decisions(NAMED[name], seed=len(name), count=4)):
        assert player.choose(state, random.Random(i), SMALL) in engine.legal_actions(state)


def test_four_individual_seats() -> None:
    ruleset = derive(get_ruleset("classic"), {"teams": "individual"})
    player = ExpectimaxPlayer()
    for i, state in enumerate(decisions(ruleset, seed=5, count=4)):
        ranked = player.rank(state, random.Random(i), SMALL)
        assert {r.action for r in ranked} == set(engine.legal_actions(state))


def test_same_seed_and_playouts_same_choice() -> None:
    player = ExpectimaxPlayer()
    for state in decisions(get_ruleset("classic"), seed=9, count=5):
        first = player.choose(state, random.Random(4), SMALL)
        assert player.choose(state, random.Random(4), SMALL) == first


def test_rank_lists_every_action_best_first() -> None:
    state = decisions(get_ruleset("classic"), seed=2, count=3)[-1]
    ranked = ExpectimaxPlayer().rank(state, random.Random(0), SMALL)
    assert sorted(str(r.action) for r in ranked) == sorted(
        str(a) for a in engine.legal_actions(state)
    )
    wins = [r.win for r in ranked]
    assert wins == sorted(wins, reverse=True)
    assert all(0.0 <= w <= 1.0 for w in wins)


def test_single_action_is_returned_without_search() -> None:
    # Every piece waits and a 2 cannot bring one out: declining is all there is.
    state = State(
        get_ruleset("classic"), (0,) * 16, Stage.ACT, 0, turn=5, entered=0b1111, throw_k=2
    )
    (only,) = engine.legal_actions(state)
    assert ExpectimaxPlayer().choose(state, random.Random(0), Budget(playouts=1)) == only


def test_takes_the_capture() -> None:
    # Capturing a far-advanced enemy piece is the obvious best use of the throw.
    state = _capture_position()
    assert state is not None
    choice = ExpectimaxPlayer().choose(state, random.Random(0), Budget(playouts=400))
    _, events = engine.apply_action(state, choice)
    assert any(e.kind == "capture" for e in events), str(choice)


def _capture_position() -> State | None:
    """A classic position where seat 0 can capture with a throw of 5 (k = 5)."""
    from pachisi.rules.board import SQUARE_OF

    for p0 in range(30, 60):
        square = SQUARE_OF[0][p0 + 5]
        for p1 in range(1, 76):
            if SQUARE_OF[1][p1] != square:
                continue
            pos = [0] * 16
            pos[0], pos[1] = p0, 3
            pos[4] = p1
            state = State(
                get_ruleset("classic"),
                tuple(pos),
                Stage.ACT,
                0,
                turn=5,
                entered=0b1111,
                throw_k=5,
            )
            actions = engine.legal_actions(state)
            if any(
                any(e.kind == "capture" for e in engine.apply_action(state, a)[1]) for a in actions
            ):
                return state
    return None
