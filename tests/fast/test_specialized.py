"""The kernels compiled for one ruleset (pachisi.fast.params.SPECIALIZED): which vectors run
them, and that they play the general kernels' games, move for move (issue 22, item 4).

The step-by-step comparisons with the reference engine (tests/fast/test_differential.py and
the others) reach these kernels too: ``classic`` and ``ludii`` run on their own kernels
there, every other ruleset on the general ones."""

from __future__ import annotations

import numpy as np
import pytest

from pachisi.ai.compiled_bots import compiled, player_codes
from pachisi.fast.convert import to_row
from pachisi.fast.layout import STATE_SIZE
from pachisi.fast.native import core
from pachisi.fast.params import SPECIALIZED, compile_ruleset
from pachisi.rules import engine
from pachisi.rules.ruleset import NAMED, get_ruleset, parse_ruleset


def test_each_specialized_ruleset_runs_its_own_kernels() -> None:
    for number, name in enumerate(SPECIALIZED, start=1):
        params, _ = compile_ruleset(get_ruleset(name))
        assert core.specialization_of(params) == number, name


@pytest.mark.parametrize(
    "rules", [*(name for name in NAMED if name not in SPECIALIZED), "classic+players=2"]
)
def test_other_rulesets_run_the_general_kernels(rules: str) -> None:
    params, _ = compile_ruleset(parse_ruleset(rules))
    assert core.specialization_of(params) == 0


def test_a_vector_that_differs_anywhere_runs_the_general_kernels() -> None:
    # The vector is compared whole: one entry off is another ruleset.
    for name in SPECIALIZED:
        params, _ = compile_ruleset(get_ruleset(name))
        for k in range(len(params)):
            changed = params.copy()
            changed[k] += 1
            assert core.specialization_of(changed) == 0, (name, k)


def test_a_vector_of_the_wrong_length_is_refused() -> None:
    params, _ = compile_ruleset(get_ruleset("classic"))
    with pytest.raises(ValueError, match="compile_ruleset's vector"):
        core.specialization_of(params[:-1])


@pytest.mark.parametrize("rules", SPECIALIZED)
@pytest.mark.parametrize("players", ["random", "greedy"])
def test_specialized_kernels_play_the_general_kernels_games(rules: str, players: str) -> None:
    ruleset = get_ruleset(rules)
    c = compiled(ruleset)
    codes = player_codes([players, "random"] * 2)
    start = to_row(engine.new_game(ruleset))
    played = []
    for general in (False, True):
        rows = np.empty((60, STATE_SIZE), dtype=np.int32)
        rows[:] = start
        stats = np.zeros((60, 3), dtype=np.int32)
        core.play_seeded(
            rows, c.params, c.p_mouth_up, c.weights, c.hit, codes, 5, 0, 2**31 - 1,
            2**31 - 1, stats, general,
        )  # fmt: skip
        played.append((rows, stats))
    (rows, stats), (general_rows, general_stats) = played
    assert stats[:, 1].sum() > 60 * 100  # whole games were played
    np.testing.assert_array_equal(stats, general_stats)
    np.testing.assert_array_equal(rows, general_rows)
