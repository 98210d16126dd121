"""Python's random generators as the compiled engine steps them, and back.

The reference engine throws with ``random.Random`` (:func:`pachisi.rules.cowries.throw`)
and its players choose with ``Random.choice``/``randrange``. To play the very same games,
the compiled engine steps the same MT19937 state with CPython's own algorithms
(``kernels/rng.pxi``). A state is a ``uint32`` array of 625: the 624 words and the
position, exactly ``Random.getstate()``'s.
"""

from __future__ import annotations

import random
from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = ["MT_SIZE", "mt_random", "mt_state"]

MT_SIZE: Final = 625
"""The words of one generator state (624 and the position)."""

MT = npt.NDArray[np.uint32]


def mt_state(rng: random.Random) -> MT:
    """The generator state of ``rng`` as an array the kernels step (``rng`` is untouched)."""
    version, internal, _ = rng.getstate()
    if version != 3 or len(internal) != MT_SIZE:
        raise ValueError("not a Mersenne Twister state of this Python's random module")
    return np.array(internal, dtype=np.uint32)


def mt_random(state: MT) -> random.Random:
    """A ``random.Random`` that continues from ``state``: a game handed over from the
    compiled engine to the reference one goes on with the same draws."""
    rng = random.Random()
    rng.setstate((3, tuple(int(x) for x in state), None))
    return rng
