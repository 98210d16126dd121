"""The compiled expectimax (``expert``'s search) against the reference search it mirrors:
the same values at every depth, the same spending of a budget in playouts, and the
reference search's answer where the compiled engine cannot hold a position."""

from __future__ import annotations

import random

import pytest

from pachisi.ai.budget import Budget
from pachisi.ai.compiled_expectimax import CompiledExpectimaxPlayer
from pachisi.ai.expectimax import ExpectimaxPlayer
from pachisi.ai.learned.value import LearnedEvaluation
from pachisi.fast.params import FastEngineError
from pachisi.rules import engine
from pachisi.rules.ruleset import parse_ruleset
from tests.ai.positions import decisions

SETUPS = [
    "classic",
    "wikipedia-full",  # kill-before-home: the blocked seats reach the features
    "ludii",
    "classic+teams=individual",  # four sides, each seat on its own
]


def _values(player: object, state: object, budget: Budget) -> dict[str, tuple[float, int]]:
    ranked = player.rank(state, random.Random(0), budget)  # type: ignore[attr-defined]
    return {str(r.action): (r.win, r.effort) for r in ranked}


@pytest.mark.parametrize("name", SETUPS)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_compiled_search_finds_the_reference_searchs_values(name: str, depth: int) -> None:
    """Unlimited budget, fixed depth: every root action's value agrees to rounding."""
    ruleset = parse_ruleset(name)
    reference = ExpectimaxPlayer(evaluate=LearnedEvaluation(), max_depth=depth)
    compiled = CompiledExpectimaxPlayer(max_depth=depth)
    unlimited = Budget(playouts=10**9)
    for state in decisions(ruleset, seed=4, count=3 if depth == 3 else 6, every=11):
        theirs = _values(reference, state, unlimited)
        mine = _values(compiled, state, unlimited)
        assert mine.keys() == theirs.keys()
        for action, (win, reached) in theirs.items():
            assert mine[action][0] == pytest.approx(win, abs=1e-9), action
            assert mine[action][1] == reached


@pytest.mark.parametrize("playouts", [5, 40, 300, 1500])
def test_a_budget_in_playouts_is_spent_as_the_reference_search_spends_it(playouts: int) -> None:
    """The same positions counted, the same level reached and abandoned: the same answer."""
    reference = ExpectimaxPlayer(evaluate=LearnedEvaluation())
    compiled = CompiledExpectimaxPlayer()
    budget = Budget(playouts=playouts)
    for state in decisions(parse_ruleset("classic"), seed=6, count=5, every=9):
        theirs = _values(reference, state, budget)
        mine = _values(compiled, state, budget)
        assert mine.keys() == theirs.keys()
        for action, (win, reached) in theirs.items():
            assert mine[action] == (pytest.approx(win, abs=1e-9), reached), action


def test_the_same_seed_and_budget_give_the_same_choice() -> None:
    state = decisions(parse_ruleset("classic"), seed=2, count=1)[0]
    budget = Budget(playouts=2_000)
    first = CompiledExpectimaxPlayer().choose(state, random.Random(9), budget)
    assert first in engine.legal_actions(state)
    for _ in range(3):
        assert CompiledExpectimaxPlayer().choose(state, random.Random(9), budget) == first


def test_a_position_the_compiled_engine_cannot_hold_goes_to_the_reference_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pachisi.fast.convert as convert

    def refuse(state: object) -> object:
        raise FastEngineError("too many collected throws")

    state = decisions(parse_ruleset("classic"), seed=5, count=1)[0]
    budget = Budget(playouts=400)
    expected = _values(ExpectimaxPlayer(evaluate=LearnedEvaluation()), state, budget)
    monkeypatch.setattr(convert, "to_row", refuse)
    assert _values(CompiledExpectimaxPlayer(), state, budget) == expected


def test_a_time_limit_still_gives_every_action_a_value() -> None:
    state = decisions(parse_ruleset("classic"), seed=7, count=1)[0]
    ranked = CompiledExpectimaxPlayer().rank(
        state, random.Random(0), Budget(playouts=10**9, seconds=0.05)
    )
    assert sorted(map(str, (r.action for r in ranked))) == sorted(
        map(str, engine.legal_actions(state))
    )
    assert all(0.0 <= r.win <= 1.0 for r in ranked) and ranked[0].effort >= 1


def test_a_depth_outside_the_kernel_is_refused() -> None:
    with pytest.raises(ValueError, match="depth"):
        CompiledExpectimaxPlayer(max_depth=9)
    with pytest.raises(ValueError, match="depth"):
        CompiledExpectimaxPlayer(max_depth=0)


def test_no_action_to_rank_is_an_error() -> None:
    state = engine.new_game(parse_ruleset("classic"))  # a throw is due
    with pytest.raises(ValueError, match="no action"):
        CompiledExpectimaxPlayer().rank(state, random.Random(0))


def test_the_player_counts_the_positions_its_search_visited() -> None:
    state = decisions(parse_ruleset("classic"), seed=3, count=1)[0]
    player = CompiledExpectimaxPlayer(max_depth=1)
    player.rank(state, random.Random(0), Budget(playouts=10**6))
    assert player.visited == len(engine.legal_actions(state))  # each action's position once
    deeper = CompiledExpectimaxPlayer()
    deeper.rank(state, random.Random(0), Budget(playouts=77))
    assert deeper.visited == 77  # stopped on entering the 78th
