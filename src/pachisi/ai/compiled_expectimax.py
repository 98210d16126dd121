"""Expectimax with the learned evaluation on the compiled engine: the ``expert`` search.

:class:`CompiledExpectimaxPlayer` ranks and chooses as
``ExpectimaxPlayer(evaluate=LearnedEvaluation())`` does, with the same values, the same
iterative deepening and the same count of positions against a budget in playouts, but its
search runs in compiled code (:func:`pachisi.ai._compiled.search_root`, whose source is
``src/pachisi/ai/kernels/expectimax.pxi``), so that the same second reaches a level or two
deeper. A position the compiled engine cannot hold (a series of throws longer than a state
row keeps) is searched by the reference search.

>>> import random
>>> from pachisi.notation import read_position
>>> state = read_position(EXAMPLE)  # seat 3 uses a throw of 4
>>> [(str(r.action), round(r.win, 3)) for r in CompiledExpectimaxPlayer(max_depth=3).rank(
...     state, random.Random(1), Budget(playouts=20_000))]
[('3d+4', 0.606), ('3b+4', 0.579), ('-', 0.573), ('3c+4', 0.571)]
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pachisi.ai.budget import Budget
from pachisi.ai.expectimax import MAX_DEPTH, ExpectimaxPlayer
from pachisi.ai.learned.net import Weights
from pachisi.ai.learned.value import LearnedEvaluation
from pachisi.ai.ranked import Ranked
from pachisi.rules import engine
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import State

__all__ = ["CompiledExpectimaxPlayer", "warm_up"]

EXAMPLE = (
    "0,29,35,10/72,35,1,0/84,32,1,0/42,41,28,31 a3 165 k=4 entered=0,1,2,3 kills=0,0,0,1 classic"
)
"""A ``classic`` position with a choice to make (the warm-up's)."""


@dataclass(frozen=True)
class _Tables:
    """One ruleset as the kernel takes it: the engine's parameters, the learned network,
    ``greedy``'s weights and the throws with their probabilities."""

    params: npt.NDArray[np.int32]
    hit: npt.NDArray[np.float64]
    greedy: npt.NDArray[np.float64]
    net: Weights
    ks: npt.NDArray[np.int32]
    ps: npt.NDArray[np.float64]


class CompiledExpectimaxPlayer(ExpectimaxPlayer):
    """Chooses by expectimax with the learned evaluation, searched in compiled code; the
    reference search (the parent class) takes the positions the kernel cannot hold."""

    def __init__(
        self,
        name: str = "expectimax-learned",
        default_budget: Budget | None = None,
        max_depth: int = MAX_DEPTH,
    ) -> None:
        if not 1 <= max_depth <= MAX_DEPTH:
            raise ValueError(f"the depth must be between 1 and {MAX_DEPTH}, not {max_depth}")
        self.learned = LearnedEvaluation()
        super().__init__(name, default_budget, max_depth, self.learned)
        self._tables: dict[Ruleset, _Tables] = {}
        self.visited = 0
        """The positions the last compiled search visited, every level counted (0 after a
        search the reference search took over)."""

    def tables(self, ruleset: Ruleset) -> _Tables:
        """The kernel's tables for ``ruleset`` (built once)."""
        found = self._tables.get(ruleset)
        if found is None:
            from pachisi.ai.compiled_bots import compiled

            value = self.learned.value(ruleset)
            net = value.net
            outcomes = engine.chance_outcomes(engine.new_game(ruleset))
            found = self._tables[ruleset] = _Tables(
                value.params,
                value.hit,
                compiled(ruleset).weights,
                net.weights(),
                np.array([k for k, _ in outcomes], dtype=np.int32),
                np.array([float(p) for _, p in outcomes], dtype=np.float64),
            )
        return found

    def rank(self, state: State, rng: random.Random, budget: Budget | None = None) -> list[Ranked]:
        """Every legal action with its value for the mover's side, best first; each
        action's effort is the depth its value comes from."""
        from pachisi.ai.native import players as kernel
        from pachisi.fast.convert import to_row
        from pachisi.fast.params import FastEngineError

        actions = engine.legal_actions(state)
        if not actions:
            raise ValueError("no action to choose: a throw is due or the game is over")
        spend = (budget or Budget()).or_default(self.default_budget)
        self.visited = 0
        try:
            row = to_row(state)
        except FastEngineError:
            return super().rank(state, rng, spend)
        t = self.tables(state.ruleset)
        playouts = spend.playouts if spend.playouts is not None else 2**62
        start = time.perf_counter()
        count = np.zeros(2, dtype=np.int64)
        values = np.zeros(kernel.MAX_ACTIONS, dtype=np.float64)
        best: list[float] = []
        reached = 0
        limit = playouts
        for depth in range(1, self.max_depth + 1):
            count[1] = kernel.OK
            before, began = int(count[0]), time.perf_counter()
            n = kernel.search_root(
                row, t.params, t.hit, t.greedy, t.net, t.ks, t.ps, depth, limit, count, values
            )
            if n != len(actions) or count[1] == kernel.OVERFLOWED:
                return super().rank(state, rng, spend)
            if count[1] == kernel.OUT_OF_BUDGET:
                if not best:
                    # Not even depth 1 fitted: the values it reached, zero for the rest.
                    best = values[:n].tolist()
                break
            best = values[:n].tolist()
            reached = depth
            if len(actions) == 1:
                break
            if spend.seconds is not None:
                now = time.perf_counter()
                remaining = spend.seconds - (now - start)
                if remaining <= 0:
                    break
                if depth >= 2 and now > began:
                    # The clock cannot be read in compiled code: allow the next level as
                    # many positions as this level's pace fits in the time left.
                    pace = (int(count[0]) - before) / (now - began)
                    limit = min(playouts, int(count[0]) + max(1, int(pace * remaining)))
        self.visited = int(count[0])
        order = sorted(range(len(actions)), key=lambda i: (-best[i], i))
        return [Ranked(actions[i], best[i], reached) for i in order]


def warm_up() -> None:
    """Load the search's extension and its ``classic`` tables, with a small search of a
    ``classic`` position."""
    from pachisi.notation import read_position

    CompiledExpectimaxPlayer().rank(read_position(EXAMPLE), random.Random(0), Budget(100))
