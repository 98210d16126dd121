"""The compiled engine's edges (issue 19, item 4): arguments and states checked at the
Python boundary, and games that outgrow a state row going on in the reference engine."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from pachisi.ai import make_player
from pachisi.ai.games import play_game, play_on
from pachisi.ai.playouts import _seeded_pair, playouts, simulate_games
from pachisi.fast import batch
from pachisi.fast.generators import mt_random
from pachisi.notation import read_position
from pachisi.rules import engine
from pachisi.rules.cowries import game_rngs
from pachisi.rules.ruleset import parse_ruleset
from pachisi.simulate import simulate

START = "0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t0 1 classic"
LONG_SERIES = "classic+throw_usage=collect+reroll_values=2,3,4,5,6,10"
"""Every throw but a 25 is thrown again: a series takes 64 throws on average."""
EVERY_THROW_AGAIN = "wikipedia-full+reroll_values=2,3,4,7,10,14,25,30"
"""Every throw is thrown again; only a triple cancellation ends a series."""


# --------------------------------------------------------------------------- arguments


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"max_steps": 1.5}, TypeError, "max_steps must be a whole number"),
        ({"max_steps": True}, TypeError, "max_steps must be a whole number"),
        ({"max_steps": "500"}, TypeError, "max_steps must be a whole number"),
        ({"max_steps": 2**64}, ValueError, "max_steps must be 1..2,147,483,647"),
        ({"max_steps": 0}, ValueError, "max_steps must be 1"),
        ({"seed": 1.0}, TypeError, "seed must be a whole number"),
        ({"seed": -1}, ValueError, "seed must be 0"),
        ({"seed": np.float64(2)}, TypeError, "seed must be a whole number"),
    ],
)
def test_playouts_refuses_arguments_that_are_not_whole_numbers_in_range(
    kwargs: dict[str, object], error: type[Exception], words: str
) -> None:
    args: dict[str, object] = {"seed": 0, **kwargs}
    with pytest.raises(error, match=words):
        playouts(START, 2, **args)  # type: ignore[arg-type]


def test_playouts_takes_numpy_integers() -> None:
    expected = playouts(START, 4, seed=1, max_steps=500)
    got = playouts(START, np.int64(4), seed=np.int32(1), max_steps=np.int32(500))  # type: ignore[arg-type]
    assert np.array_equal(got.rows, expected.rows)
    assert np.array_equal(got.throws, expected.throws)


def test_playouts_refuses_a_count_that_is_not_a_whole_number() -> None:
    with pytest.raises(TypeError, match="number of playouts must be a whole number"):
        playouts(START, 2.0, seed=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="number of playouts must be 0"):
        playouts(START, -1, seed=0)


def test_simulate_refuses_caps_that_are_not_whole_numbers_in_range() -> None:
    r = parse_ruleset("classic")
    bots = [make_player("random")] * 4
    with pytest.raises(TypeError, match="max_steps must be a whole number"):
        simulate(r, 1, 1, bots, max_steps=1.5, engine_name="fast")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_turns must be 1"):
        simulate(r, 1, 1, bots, max_turns=2**64, engine_name="fast")


# --------------------------------------------------------------------------- states


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"pos": (200,) + (0,) * 15}, "pieces"),
        ({"pos": (-7,) + (0,) * 15}, "pieces"),
        ({"seat": 9}, "seat is 0..3"),
        ({"pos": (0,) * 15}, "pieces"),
        ({"kills": (1, 0, 0, 0)}, "never brought a piece out"),
    ],
)
def test_impossible_states_are_refused_by_playouts_and_batches(
    change: dict[str, object], words: str
) -> None:
    state = read_position(START)._replace(**change)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=words):
        playouts(state, 2, seed=0)
    with pytest.raises(ValueError, match=f"game 1 .*{words}"):
        batch.from_states([read_position(START), state])


def test_a_start_that_is_not_a_state_is_refused() -> None:
    with pytest.raises(TypeError, match="must be a State or a position string"):
        playouts(42, 2, seed=0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="batch size must be a whole number"):
        batch.init(parse_ruleset("classic"), 2.5)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- hand-over


@pytest.mark.parametrize(("rules", "games"), [(LONG_SERIES, 6), (EVERY_THROW_AGAIN, 3)])
def test_a_game_that_outgrows_its_row_goes_on_in_the_reference_engine(
    rules: str, games: int
) -> None:
    r = parse_ruleset(rules)
    bots = [make_player("random")] * 4
    fast = simulate_games(
        r, 1, list(range(games)), ["random"] * 4, max_turns=5000, max_steps=50_000
    )
    assert fast.handed_over, "the sample has a game that outgrows the row"
    for j in range(games):
        dice, choices = game_rngs(1, j)
        ref = play_game(r, dice, bots, bot_rng=choices, max_turns=5000, max_steps=50_000)
        assert (int(fast.throws[j]), int(fast.actions[j]), int(fast.captures[j])) == (
            ref.throws,
            ref.actions,
            ref.captures,
        ), f"game {j}"
        final = fast.final_state(j, r)
        result = engine.outcome(final)
        assert (result.winner if result else None) == ref.winner
        assert final.turn == ref.turns


def test_simulate_on_both_engines_agrees_where_games_outgrow_the_row() -> None:
    r = parse_ruleset(EVERY_THROW_AGAIN)
    bots = [make_player("random")] * 4
    summaries = [
        simulate(r, 4, 1, bots, engine_name=name, workers=workers)
        for name, workers in (("reference", 1), ("fast", 1), ("fast", 2))
    ]
    keys = [
        (s.draws, s.unfinished, s.throws, s.actions, s.captures, s.wins_by_seat) for s in summaries
    ]
    assert keys[0] == keys[1] == keys[2]


def test_playouts_hand_over_a_game_that_outgrows_its_row() -> None:
    start = engine.new_game(parse_ruleset(LONG_SERIES))
    results = playouts(start, 6, seed=3)
    assert results.handed_over
    bots = [make_player("random")] * 4
    for j in range(6):
        throws, choices = _seeded_pair(3, j)
        final, game = play_on(
            start,
            mt_random(throws),
            bots,
            bot_rng=mt_random(choices),
            max_turns=2**31 - 1,
            max_steps=50_000,
        )
        assert results.final_state(j, start.ruleset) == final
        assert (int(results.throws[j]), int(results.actions[j])) == (game.throws, game.actions)


# --------------------------------------------------------------------------- the command line


def _pachisi(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pachisi", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.parametrize("rules", [LONG_SERIES, EVERY_THROW_AGAIN])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_plays_rulesets_whose_games_outgrow_the_row(rules: str, workers: str) -> None:
    args = ("simulate", "--ruleset", rules, "--games", "3", "--seed", "1", "--json")
    fast = _pachisi(*args, "--workers", workers)
    assert fast.returncode == 0, fast.stderr
    assert "bug" not in fast.stderr
    reference = _pachisi(*args, "--engine", "reference")
    drop = ("seconds", "games_per_second")
    same = [
        {k: v for k, v in json.loads(done.stdout).items() if k not in drop}
        for done in (fast, reference)
    ]
    assert same[0] == same[1]


SPLIT_70 = (
    "classic+split_throw=split+score_table=70,10,2,3,4,5,6+reroll_values=6,10,70"
    "+entry_values=6,10,70+last_square_exit=6,10,70"
)
"""A split throw of 70: longer than any part the compiled engine's action space holds."""


def test_simulate_plays_a_ruleset_the_compiled_engine_cannot_on_the_reference_one() -> None:
    done = _pachisi("simulate", "--ruleset", SPLIT_70, "--games", "2", "--json")
    assert done.returncode == 0, done.stderr
    notice = done.stderr.strip().splitlines()
    assert len(notice) == 1 and "playing it with the reference engine" in notice[0]
    assert "bug" not in done.stderr and json.loads(done.stdout)["games"] == 2
    refused = _pachisi("simulate", "--ruleset", SPLIT_70, "--games", "2", "--engine", "fast")
    assert refused.returncode == 2 and "--engine fast cannot play this ruleset" in refused.stderr
