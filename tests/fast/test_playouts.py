"""Complete games in the compiled engine: simulations equal to the reference engine's, game
for game, and playouts from any position (issue 6, items 1 and 5)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from pachisi.ai.bots import GreedyBot, Weights
from pachisi.ai.players import make_player
from pachisi.fast import _playout, warm_up
from pachisi.fast.params import FastEngineError
from pachisi.fast.playouts import final_states, playouts
from pachisi.progress import compiling_notice
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


def test_warm_up_reports_whether_it_compiled() -> None:
    warm_up()
    assert warm_up() is False  # the second time everything is loaded already


def test_warm_up_does_not_count_compiles_earlier_in_the_process() -> None:
    # On a fresh install the tests (or a command) compile the kernels before warm_up runs;
    # numba's counters keep those compiles for the life of the process.
    warm_up()
    earlier = _playout.play_many.stats.cache_misses
    earlier[("an earlier compile",)] += 1
    try:
        assert warm_up() is False
    finally:
        del earlier[("an earlier compile",)]


def test_compiling_notice_says_how_long_compiling_took() -> None:
    err = io.StringIO()
    compiling_notice(lambda: True, stream=err)
    assert "compiled the fast engine in" in err.getvalue()
    quiet = io.StringIO()
    compiling_notice(lambda: False, stream=quiet)
    assert quiet.getvalue() == ""
