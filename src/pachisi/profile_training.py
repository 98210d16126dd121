"""The workload the compiled engine's profile-guided build trains on (setup.py).

The build compiles ``pachisi.fast._core`` twice: once instrumented, so that the C compiler
can count which branches the engine's loops take and which functions are hot, and once
more with those counts (GCC's ``-fprofile-use``), which lays the hot paths out straight.
:func:`train` is the run in between: random and greedy playouts of every named ruleset
and of a few switch combinations that reach the rarer rules (collected throws, split
throws, pyadas, blockades, stack orders), and the step-by-step entry points that the
environments and the tests call. It plays through the engine's Python face only, so it
trains whichever build of the extension is imported, and it takes a few seconds.

The counts change only how fast the engine runs, never what it computes: the
differential tests check the engine as built, trained or not.
"""

from __future__ import annotations

import numpy as np

from pachisi.ai.compiled_bots import bot_actions
from pachisi.ai.playouts import playouts
from pachisi.fast import batch
from pachisi.fast.convert import to_row
from pachisi.fast.layout import (
    OVER_STAGE,
    OVERFLOW,
    STAGE,
    THROW_OFF_STAGE,
    THROW_STAGE,
)
from pachisi.fast.native import core
from pachisi.fast.params import compile_ruleset
from pachisi.rules import engine
from pachisi.rules.ruleset import NAMED, parse_ruleset

VARIANTS = (
    "classic+throw_usage=collect",
    "classic+split_throw=split",
    "classic+split_throw=group+blockade=true",
    "classic+pyada=true+pyada_use=attached",
    "classic+capture_scope=top_one+recapture_annul=true+kill_before_home=seat",
    "wikipedia-full+stacking=none",
)
"""Switch combinations beside the named rulesets, so that the rarer rules are trained too
(code that the training never runs is still optimised as usual: -fprofile-partial-training)."""

GAMES = 512
"""Random playouts per ruleset; the named rulesets, which the speed targets are measured
on, play twice as many. Greedy playouts are an eighth of them."""

STEPPED = 8
"""Games per ruleset played step by step through the single-state entry points."""


def _stepped(rules: str, seed: int) -> None:
    """A seeded random game through ``legal_actions``, ``apply_action`` and
    ``apply_chance``, as the environments and the differential tests call them."""
    ruleset = parse_ruleset(rules)
    params, _ = compile_ruleset(ruleset)
    rng = np.random.default_rng(seed)
    scratch = core.Scratch()
    row = to_row(engine.new_game(ruleset))
    for _ in range(20_000):
        if row[OVERFLOW] or row[STAGE] == OVER_STAGE:
            return
        if row[STAGE] in (THROW_OFF_STAGE, THROW_STAGE):
            core.apply_chance(row, params, int(rng.binomial(ruleset.cowries, 0.5)), scratch)
            continue
        actions = core.legal_actions(row, params, scratch)
        core.apply_action(row, params, int(actions[rng.integers(len(actions))]), scratch)


def _batched(rules: str, seed: int) -> None:
    """A batch of games stepped together, as the vector environment steps them."""
    games = batch.init(parse_ruleset(rules), 64, seed=seed)
    for _ in range(400):
        if games.terminated.all():
            return
        batch.step(games, bot_actions(games, ("random", "greedy", "random", "greedy")))


def train() -> None:
    """Run the training workload on the imported build of ``pachisi.fast._core``."""
    for i, name in enumerate((*NAMED, *VARIANTS)):
        games = 2 * GAMES if name in NAMED else GAMES
        start = engine.new_game(parse_ruleset(name))
        playouts(start, games, seed=i)
        playouts(start, games // 8, seed=i, players="greedy")
        for seed in range(STEPPED):
            _stepped(name, 1000 * i + seed)
        _batched(name, i)


if __name__ == "__main__":
    train()
