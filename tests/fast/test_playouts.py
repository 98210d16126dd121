"""Complete games in the compiled engine: simulations equal to the reference engine's, game
for game, and playouts from any position (issue 6, items 1 and 5)."""

from __future__ import annotations

import numpy as np
import pytest

from pachisi.ai.bots import GreedyBot, Weights
from pachisi.ai.compiled_bots import compiled, player_codes
from pachisi.ai.players import make_player
from pachisi.ai.playouts import _seeded_pair, final_states, playouts
from pachisi.fast.convert import to_row
from pachisi.fast.layout import STATE_SIZE
from pachisi.fast.native import core
from pachisi.fast.params import FastEngineError
from pachisi.rules import engine
from pachisi.rules.ruleset import NAMED, get_ruleset
from pachisi.simulate import simulate

TIMING = ("seconds", "games_per_second")


def _figures(summary: object) -> dict[str, object]:
    data = summary.as_dict()  # type: ignore[attr-defined]
    return {k: v for k, v in data.items() if k not in TIMING}


@pytest.mark.parametrize("rules", list(NAMED))
def test_simulate_gives_the_same_games_on_both_engines(rules: str) -> None:
    ruleset = get_ruleset(rules)
    bots = [make_player("greedy"), make_player("random")] * 2
    reference = simulate(ruleset, 24, 11, bots, engine_name="reference")
    fast = simulate(ruleset, 24, 11, bots, engine_name="fast")
    assert _figures(fast) == _figures(reference)
    assert fast.games == 24 and fast.actions > 0


def test_simulate_results_do_not_depend_on_the_number_of_workers() -> None:
    ruleset = get_ruleset("wikipedia-full")
    bots = [make_player("random")] * 4
    one = simulate(ruleset, 140, 5, bots, engine_name="fast")
    two = simulate(ruleset, 140, 5, bots, engine_name="fast", workers=2)
    assert _figures(one) == _figures(two)
    assert one.draws > 0  # wikipedia-full draws about a third of random games


def test_simulate_fast_refuses_bots_it_does_not_play() -> None:
    odd = GreedyBot(Weights(capture=1.0))
    with pytest.raises(ValueError, match="fast engine"):
        simulate(get_ruleset("classic"), 2, 1, [odd] * 4, engine_name="fast")
    with pytest.raises(ValueError, match="engine"):
        simulate(get_ruleset("classic"), 2, 1, [make_player("random")] * 4, engine_name="turbo")


def test_playouts_from_a_position_are_reproducible() -> None:
    start = engine.new_game(get_ruleset("classic"))
    a = playouts(start, 20, seed=3)
    b = playouts(start, 20, seed=3)
    c = playouts(start, 20, seed=4)
    assert np.array_equal(a.winners, b.winners) and np.array_equal(a.actions, b.actions)
    assert not np.array_equal(a.actions, c.actions)
    assert set(a.winners.tolist()) <= {0, 1}
    assert all(s.is_over for s in final_states(a, start.ruleset))


def test_playouts_seed_each_game_as_their_overflow_replay_does() -> None:
    """A game that outgrows its row is replayed from the start with ``_seeded_pair``'s
    generators: the compiled seeding (both generators of a game side by side) must give
    those very generators, so every game, played again with them, ends the same."""
    start = engine.new_game(get_ruleset("ludii"))
    n, seed = 12, 5
    got = playouts(start, n, seed=seed, max_steps=400)
    c = compiled(start.ruleset)
    rows = np.empty((n, STATE_SIZE), dtype=np.int32)
    rows[:] = to_row(start)
    pairs = [_seeded_pair(seed, j) for j in range(n)]
    stats = np.zeros((n, 3), dtype=np.int32)
    core.play_many(
        rows, c.params, c.p_mouth_up, c.weights, c.hit, player_codes(["random"] * 4),
        np.stack([t for t, _ in pairs]), np.stack([ch for _, ch in pairs]), 2**31 - 1, 400,
        stats,
    )  # fmt: skip
    assert np.array_equal(rows, got.rows)
    assert np.array_equal(stats[:, 0], got.throws) and np.array_equal(stats[:, 1], got.actions)


def test_playouts_take_a_position_string_and_per_seat_players() -> None:
    text = "20,0,0,0/30,0,0,0/0,0,0,0/0,0,0,0 t1 12 entered=0,1 classic"
    result = playouts(text, 4, seed=1, players=["greedy", "random", "greedy", "random"])
    assert result.winners.shape == (4,)


def test_playouts_stop_at_the_step_cap_unfinished() -> None:
    start = engine.new_game(get_ruleset("classic"))
    result = playouts(start, 3, seed=1, max_steps=10)
    assert result.winners.tolist() == [-1, -1, -1]
    assert (result.throws + result.actions).tolist() == [10, 10, 10]


def test_playouts_refuse_unknown_players() -> None:
    start = engine.new_game(get_ruleset("classic"))
    with pytest.raises(FastEngineError, match="random"):
        playouts(start, 1, seed=1, players="minimax")


def test_threads_play_the_same_games() -> None:
    # Every game has its own row and generators: spreading them over threads changes none.
    start = engine.new_game(get_ruleset("classic"))
    one = playouts(start, 37, seed=9, players="greedy", max_steps=3000)
    three = playouts(start, 37, seed=9, players="greedy", max_steps=3000, threads=3)
    assert np.array_equal(one.rows, three.rows)
    assert np.array_equal(one.actions, three.actions)
    ruleset = get_ruleset("ludii")
    bots = [make_player("greedy"), make_player("random")] * 2
    alone = simulate(ruleset, 50, 4, bots, engine_name="fast")
    spread = simulate(ruleset, 50, 4, bots, engine_name="fast", threads=4)
    assert _figures(alone) == _figures(spread)
    with pytest.raises(ValueError, match="threads"):
        playouts(start, 2, seed=1, threads=0)
