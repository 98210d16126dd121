"""Checks at the Python boundary of the compiled engine and the simulations, before
anything reaches a kernel.

The kernels take C integers: a float or a bool where a count is meant would be silently
truncated or accepted, and an int too large for 64 bits would overflow at the C boundary.
:func:`whole` refuses them with an error naming the argument, and converts numpy integers.
A state row holds what a reference state holds, so a state that no game can reach (a
piece on progress 200, a seat 9) would be played as nonsense: :func:`reachable` refuses it
with the invariants the position reader checks (:func:`pachisi.rules.invariants.check_state`).
"""

from __future__ import annotations

import operator

import numpy as np

from pachisi.rules.invariants import InvalidStateError, check_state
from pachisi.rules.state import State

__all__ = ["INT32_MAX", "MAX_THREADS", "reachable", "whole"]

INT32_MAX = 2**31 - 1
"""The largest count the kernels keep (turns, steps and statistics are ``int32``)."""
MAX_THREADS = 256
"""The most threads the compiled engine spreads one call's games over (``simulate``,
playouts, batches)."""


def whole(name: str, value: object, low: int, high: int) -> int:
    """``value`` as a Python int in ``low..high``; TypeError or ValueError naming ``name``.

    Python and numpy integers are taken; bools, floats, strings and the rest are not.
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be a whole number, not {type(value).__name__} {value!r}")
    number = operator.index(value)
    if not low <= number <= high:
        raise ValueError(f"{name} must be {low:,}..{high:,}, got {number:,}")
    return number


def reachable(state: object, what: str = "the start position") -> State:
    """``state`` if it is a :class:`State` that keeps every invariant of the engine, else
    TypeError or ValueError saying which field is wrong and why."""
    if not isinstance(state, State):
        raise TypeError(f"{what} must be a State or a position string, not {type(state).__name__}")
    try:
        check_state(state)
    except InvalidStateError as exc:
        raise ValueError(f"{what} is not a position a game can reach: {exc}") from None
    except (TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"{what} is not a well-formed State: {exc}") from None
    return state
