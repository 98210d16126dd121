"""The compiled engine: Pachisi at compiled speed, with exactly the reference semantics.

The reference engine (:mod:`pachisi.rules`) is the specification; this package is the one
second implementation STYLE.md allows, proven identical to it by differential tests
(tests/fast). Game states are rows of ``int32`` (:mod:`pachisi.fast.layout`), rulesets a
parameter vector (:mod:`pachisi.fast.params`), actions ids of a fixed action space
(:mod:`pachisi.fast._codec`), and transitions numba-compiled kernels that work in place.
:mod:`pachisi.fast.convert` maps states, actions and events to the reference ones and back.
"""

from __future__ import annotations

from typing import Any


def warm_up() -> bool:
    """Make sure the kernels are ready: load them from the on-disk cache, or compile them
    (minutes, once after an install: README.md). True if they had to be compiled."""
    from pachisi.fast import _playout
    from pachisi.fast.playouts import playouts, simulate_games
    from pachisi.rules import engine
    from pachisi.rules.ruleset import get_ruleset

    # numba's dispatchers count the signatures they had to compile rather than load; the
    # counts last for the process, so only what this call adds means it compiled.
    kernels: tuple[Any, ...] = (_playout.play_many, _playout.play_seeded)

    def misses() -> int:
        return sum(sum(kernel.stats.cache_misses.values()) for kernel in kernels)

    before = misses()
    # Games capped at one step run each entry point's compiled code once.
    classic = get_ruleset("classic")
    playouts(engine.new_game(classic), 1, seed=0, players="greedy", max_steps=1)
    simulate_games(classic, 0, [0], ["greedy"] * 4, max_turns=1, max_steps=1)
    return misses() > before


def warm_up_batch() -> None:
    """Load or compile the kernels of batched and single steps (:mod:`pachisi.fast.batch`,
    which the RL environments use, and the legal-list and step entry points that the
    learned player's self-play calls). :func:`warm_up` covers the playout loop: the two
    share little machine code, so two processes can compile them side by side."""
    from pachisi.fast import batch
    from pachisi.rules.ruleset import get_ruleset

    classic = get_ruleset("classic")
    sampled = batch.init(classic, 1, seed=0)
    sampled.observation()
    batch.step(sampled, batch.bot_actions(sampled, ["greedy"] * 4))
    explicit = batch.init(classic, 1, seed=0, chance="explicit")
    batch.throw(explicit, [2])
