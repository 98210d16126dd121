"""Tests for the Game facade's history: push, pop, copy and last_events over long games.

The game keeps only some of its states (see :data:`pachisi.game.CHECKPOINT_EVERY`), so these
compare it, step by step, with a plain list of every state and event list.
"""

from __future__ import annotations

import random
import tracemalloc

from hypothesis import given, settings
from hypothesis import strategies as st

from pachisi.game import CHECKPOINT_EVERY, Game, Move
from pachisi.rules import engine
from pachisi.rules.actions import Action
from pachisi.rules.state import CHANCE, Event, State

RULESET = "classic+kill_before_home=seat+deadlock=continue"
"""Games that can go on for thousands of moves, far past several checkpoints."""


def random_move(game: Game, rng: random.Random) -> Move:
    if game.current_player() == CHANCE:
        return rng.getrandbits(game.ruleset.cowries).bit_count()
    return rng.choice(game.legal_actions())


class Reference:
    """Every state and event list kept, as the game used to."""

    def __init__(self, game: Game) -> None:
        self.states: list[State] = [game.state]
        self.events: list[list[Event]] = [[]]
        self.moves: list[Move] = []

    def push(self, move: Move, events: list[Event], state: State) -> None:
        self.states.append(state)
        self.events.append(events)
        self.moves.append(move)

    def pop(self) -> Move:
        self.states.pop()
        self.events.pop()
        return self.moves.pop()


def assert_same(game: Game, ref: Reference) -> None:
    assert game.state == ref.states[-1]
    assert game.last_events == ref.events[-1]
    assert list(game.moves) == ref.moves


def test_pop_walks_back_through_every_checkpoint() -> None:
    rng = random.Random(5)
    game = Game(RULESET)
    ref = Reference(game)
    total = 3 * CHECKPOINT_EVERY + 17
    while len(game.moves) < total and not game.is_over():
        move = random_move(game, rng)
        ref.push(move, game.push(move), game.state)
        assert_same(game, ref)
    assert len(game.moves) == total, "the game ended too early to cross the checkpoints"
    while ref.moves:
        assert game.pop() == ref.pop()
        assert_same(game, ref)
    assert game.state == game.start


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), script=st.lists(st.integers(-40, 120), max_size=40))
def test_any_sequence_of_pushes_pops_and_copies_matches_a_full_history(
    seed: int, script: list[int]
) -> None:
    """Runs of pushes (positive) and pops (negative), with a copy checked after each run."""
    rng = random.Random(seed)
    game = Game(RULESET)
    ref = Reference(game)
    for step in script:
        for _ in range(step):
            if game.is_over():
                break
            move = random_move(game, rng)
            ref.push(move, game.push(move), game.state)
        for _ in range(min(-step, len(ref.moves))):
            assert game.pop() == ref.pop()
        assert_same(game, ref)
        other = game.copy()
        assert_same(other, ref)
        if ref.moves:
            other.pop()
            assert_same(game, ref)  # the copy is independent


def test_push_pop_at_a_checkpoint_boundary_stays_cheap_and_exact() -> None:
    """Thrashing across a checkpoint (as a search would) gives the same states each time."""
    rng = random.Random(9)
    game = Game(RULESET)
    while len(game.moves) < 2 * CHECKPOINT_EVERY - 1:
        game.push(random_move(game, rng))
    before, events = game.state, game.last_events
    for _ in range(50):
        move = random_move(game, rng)
        after = engine.apply(game.state, move)[0]
        game.push(move)
        assert game.state == after
        game.pop()
        assert (game.state, game.last_events) == (before, events)


def test_copy_without_stack_keeps_only_the_current_state() -> None:
    rng = random.Random(3)
    game = Game(RULESET)
    for _ in range(CHECKPOINT_EVERY + 3):
        game.push(random_move(game, rng))
    light = game.copy(stack=False)
    assert (light.state, light.start, light.moves, light.last_events) == (
        game.state,
        game.state,
        (),
        [],
    )


def test_a_long_game_takes_a_few_bytes_a_move() -> None:
    """Keeping every state and event list took about 500 bytes a move (issue 5)."""
    rng = random.Random(7)  # a game that goes on past 24 checkpoints
    game = Game(RULESET)
    sizes = []
    tracemalloc.start()
    try:
        for length in (8 * CHECKPOINT_EVERY, 24 * CHECKPOINT_EVERY):
            while len(game.moves) < length and not game.is_over():
                game.push(random_move(game, rng))
            sizes.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    assert len(game.moves) == 24 * CHECKPOINT_EVERY
    # What each further move costs, after the fixed window of recent states.
    per_move = (sizes[1] - sizes[0]) / (16 * CHECKPOINT_EVERY)
    assert per_move < 40, f"{per_move:.0f} bytes a move"


def test_equal_actions_are_kept_once() -> None:
    """A long game holds one object per distinct action, however often it is played."""
    rng = random.Random(7)
    game = Game(RULESET)
    while len(game.moves) < 2000:
        move = random_move(game, rng)
        # A fresh but equal object each time, as a reader or a user would push.
        game.push(Action(*move) if isinstance(move, Action) else move)
    actions = [m for m in game.moves if isinstance(m, Action)]
    assert len({id(a) for a in actions}) == len(set(actions)) < len(actions) / 5
