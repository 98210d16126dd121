"""How much thinking one decision of a computer player may take.

>>> Budget(playouts=200)
Budget(playouts=200, seconds=None)
>>> Budget(playouts=0)
Traceback (most recent call last):
...
ValueError: a budget's playouts must be at least 1, not 0
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

__all__ = ["Budget", "Deadline"]


@dataclass(frozen=True, slots=True)
class Budget:
    """The work a search may do for one decision.

    ``playouts`` counts the search's unit of work (an MCTS iteration with its rollout, an
    evaluated expectimax leaf): a search limited by it alone is reproducible, the same
    choice for the same seed. ``seconds`` caps the wall-clock time as well; a search that
    stops on the clock depends on the machine's speed. ``None`` leaves a limit to the
    player's default.
    """

    playouts: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.playouts is not None and self.playouts < 1:
            raise ValueError(f"a budget's playouts must be at least 1, not {self.playouts}")
        if self.seconds is not None and not (self.seconds > 0 and math.isfinite(self.seconds)):
            raise ValueError(f"a budget's seconds must be a positive number, not {self.seconds}")

    def or_default(self, default: Budget) -> Budget:
        """This budget with each limit it leaves open taken from ``default``."""
        return Budget(
            self.playouts if self.playouts is not None else default.playouts,
            self.seconds if self.seconds is not None else default.seconds,
        )


class Deadline:
    """A budget being spent: counts work and watches the clock."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.used = 0
        self._end = None if budget.seconds is None else time.perf_counter() + budget.seconds

    def spend(self, n: int = 1) -> None:
        self.used += n

    def exhausted(self) -> bool:
        """Whether the search must stop now."""
        if self.budget.playouts is not None and self.used >= self.budget.playouts:
            return True
        return self._end is not None and time.perf_counter() >= self._end
