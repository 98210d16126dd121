"""Tests for the Monte Carlo tree search player (pachisi.ai.mcts)."""

from __future__ import annotations

import random

import pytest

import pachisi.ai.playouts
from pachisi.ai._mcts_tree import Node
from pachisi.ai.budget import Budget
from pachisi.ai.mcts import MctsPlayer
from pachisi.fast.params import FastEngineError
from pachisi.rules import cowries, engine
from pachisi.rules.actions import Action
from pachisi.rules.board import HOME, progress_of_square, square_of
from pachisi.rules.ruleset import NAMED, Ruleset, derive, get_ruleset
from pachisi.rules.state import CHANCE, Stage, State

SMALL = Budget(playouts=12)


def act_state(pos: dict[int, int], k: int, seat: int = 0) -> State:
    """A classic position with ``seat`` to use a throw of ``k`` mouths up."""
    full = [0] * 16
    for g, p in pos.items():
        full[g] = p
    return State(
        get_ruleset("classic"), tuple(full), Stage.ACT, seat, turn=5, entered=0b1111, throw_k=k
    )


def decisions(ruleset: Ruleset, seed: int, count: int, every: int = 7) -> list[State]:
    """Positions with a real choice, reached by random play from the start."""
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


@pytest.mark.parametrize("name", sorted(NAMED))
def test_chooses_only_legal_actions(name: str) -> None:
    player = MctsPlayer()
    positions = decisions(NAMED[name], seed=len(name), count=6)
    assert positions
    for i, state in enumerate(positions):
        assert player.choose(state, random.Random(i), SMALL) in engine.legal_actions(state)


@pytest.mark.parametrize("rollout", ["none", "greedy"])
def test_same_seed_and_playouts_same_search(rollout: str) -> None:
    (state, *_) = decisions(get_ruleset("classic"), seed=5, count=1, every=20)
    player = MctsPlayer(rollout=rollout)
    first = player.rank(state, random.Random(9), Budget(playouts=60))
    again = player.rank(state, random.Random(9), Budget(playouts=60))
    assert first == again
    assert player.choose(state, random.Random(9), Budget(playouts=60)) == first[0].action


def test_single_legal_action_is_returned_without_search() -> None:
    state = act_state({}, k=2)
    (only,) = engine.legal_actions(state)
    rng = random.Random(3)
    before = rng.getstate()
    assert MctsPlayer().choose(state, rng, Budget(playouts=10**9)) == only
    assert rng.getstate() == before


def test_rank_covers_every_legal_action_best_first() -> None:
    for state in decisions(get_ruleset("classic"), seed=2, count=4):
        ranked = MctsPlayer().rank(state, random.Random(0), Budget(playouts=40))
        assert sorted(map(str, (r.action for r in ranked))) == sorted(
            map(str, engine.legal_actions(state))
        )
        assert [r.effort for r in ranked] == sorted((r.effort for r in ranked), reverse=True)
        assert sum(r.effort for r in ranked) == 40
        assert all(0.0 <= r.win <= 1.0 for r in ranked)


def test_rank_with_fewer_playouts_than_actions() -> None:
    state = act_state({0: 20, 1: 30}, k=3)
    ranked = MctsPlayer().rank(state, random.Random(0), Budget(playouts=1))
    assert len(ranked) == 3 and [r.effort for r in ranked] == [1, 0, 0]


def test_finds_the_capture_that_decides_the_endgame() -> None:
    # Seat 1's last piece stands three squares ahead of seat 0's piece a, 10 steps from home;
    # seat 3 needs 14 steps. Without the capture team 1 wins about 94% of greedy playouts,
    # with it team 0 wins about 67%.
    (enemy_p,) = progress_of_square(1, square_of(0, 23))
    pos = {0: 20, 1: 60, 2: HOME, 3: HOME, 4: enemy_p, 10: 40, 15: 70}
    pos.update({g: HOME for g in (5, 6, 7, 8, 9, 11, 12, 13, 14)})
    state = act_state(pos, k=3)
    capture = Action.parse("0a+3")
    assert any(e.kind == "capture" for e in engine.apply_action(state, capture)[1])
    for seed in range(3):
        assert MctsPlayer().choose(state, random.Random(seed), Budget(playouts=40)) == capture


@pytest.mark.parametrize("teams, sides", [("pairs", 2), ("individual", 4)])
def test_values_are_kept_per_side(teams: str, sides: int) -> None:
    ruleset = derive(get_ruleset("classic"), {"teams": teams})
    (state, *_) = decisions(ruleset, seed=4, count=1, every=30)
    root = MctsPlayer().search(state, random.Random(1), Budget(playouts=50))
    assert len(root.totals) == sides + 1 and root.visits == 50
    # One side wins each rollout (a draw or an unfinished game would give each half).
    assert sum(root.totals[:sides]) == pytest.approx(50)
    ranked = MctsPlayer().rank(state, random.Random(1), Budget(playouts=50))
    assert ranked[0].action in engine.legal_actions(state)


def test_chance_visits_follow_the_probabilities() -> None:
    (state, *_) = decisions(get_ruleset("classic"), seed=6, count=1, every=10)
    root = MctsPlayer().search(state, random.Random(0), Budget(playouts=400))
    chance = [c for c in root.children if c.mover == CHANCE and c.children]
    assert chance
    for node in chance:
        assert sum(node.probs) == pytest.approx(1.0)
        n = sum(node.counts)
        assert n == node.visits - 1  # its first visit was valued as a leaf
        for count, p in zip(node.counts, node.probs, strict=True):
            assert abs(count - p * n) <= 1.0
        # Every visit of a child came through one of the throws leading to it.
        by_child: dict[int, int] = {}
        for child, count in zip(node.slots, node.counts, strict=True):
            if child is not None:
                by_child[id(child)] = by_child.get(id(child), 0) + count
        assert sorted(by_child.values()) == sorted(c.visits for c in node.children)


def test_falls_back_to_the_reference_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise FastEngineError("not here")

    monkeypatch.setattr(pachisi.ai.playouts, "playouts", refuse)
    state = act_state({0: 60, 1: 70, 4: 60, 8: 60, 12: 60}, k=3)
    root = MctsPlayer(rollout="greedy").search(state, random.Random(2), Budget(playouts=4))
    assert root.visits == 4 and sum(root.totals[:2]) == pytest.approx(4)


def test_a_budget_in_seconds() -> None:
    state = act_state({0: 20, 1: 30}, k=3)
    root = MctsPlayer().search(state, random.Random(0), Budget(seconds=0.05))
    assert root.visits >= 1


def test_terminal_and_chance_roots_are_refused() -> None:
    start = engine.new_game(get_ruleset("classic"))
    with pytest.raises(ValueError):
        MctsPlayer().choose(start, random.Random(0))
    with pytest.raises(ValueError):
        MctsPlayer().rank(start, random.Random(0))
    assert Node(start).mover == CHANCE


@pytest.mark.parametrize(
    "kwargs",
    [
        {"default_budget": Budget()},
        {"rollout": "expert"},
        {"exploration": -1.0},
        {"per_leaf": 0},
        {"rollout_steps": 0},
        {"prior_temperature": 0.0},
        {"rollout_weight": 0.0},
        {"rollout_weight": 1.5},
    ],
)
def test_bad_parameters_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        MctsPlayer(**kwargs)  # type: ignore[arg-type]


def test_parameters() -> None:
    player = MctsPlayer("mcts-big", Budget(playouts=30), exploration=1.0, rollout="random")
    state = act_state({0: 20, 1: 30}, k=3)
    assert player.name == "mcts-big"
    assert sum(r.effort for r in player.rank(state, random.Random(0))) == 30


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rollout": "none"},
        {"rollout": "greedy", "rollout_steps": 6, "per_leaf": 3},
        {"rollout": "greedy", "rollout_weight": 0.25},
    ],
)
def test_other_leaf_values(kwargs: dict[str, object]) -> None:
    player = MctsPlayer(**kwargs)  # type: ignore[arg-type]
    for i, state in enumerate(decisions(get_ruleset("classic"), seed=9, count=3)):
        root = player.search(state, random.Random(i), Budget(playouts=30))
        assert root.visits == 30
        assert sum(root.totals[:2]) == pytest.approx(30)
        assert player.choose(state, random.Random(i), SMALL) in engine.legal_actions(state)


def test_priors_order_the_expansion() -> None:
    (enemy_p,) = progress_of_square(1, square_of(0, 23))
    pos = {0: 20, 1: 60, 2: HOME, 3: HOME, 4: enemy_p, 10: 40, 15: 70}
    pos.update({g: HOME for g in (5, 6, 7, 8, 9, 11, 12, 13, 14)})
    state = act_state(pos, k=3)
    player = MctsPlayer(rollout="none", exploration=0.3, prior_temperature=0.05)
    root = player.search(state, random.Random(0), Budget(playouts=1))
    # The capture is the evaluation's favourite, so it is expanded first.
    assert root.actions[0] == Action.parse("0a+3") and len(root.children) == 1
    assert sum(root.priors) == pytest.approx(1.0)
    assert root.priors == sorted(root.priors, reverse=True)
    assert player.choose(state, random.Random(0), Budget(playouts=30)) == Action.parse("0a+3")


def test_an_evaluation_can_be_plugged_in() -> None:
    calls: list[State] = []

    def even(state: State) -> list[float]:
        calls.append(state)
        return [0.5, 0.5]

    state = act_state({0: 20, 1: 30}, k=3)
    ranked = MctsPlayer(evaluate=even).rank(state, random.Random(0), Budget(playouts=20))
    assert calls and all(r.win == 0.5 for r in ranked)
