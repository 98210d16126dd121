"""Python's random generators as the compiled engine steps them, and back.

The reference engine throws with ``random.Random`` (:func:`pachisi.rules.cowries.throw`)
and its players choose with ``Random.choice``/``randrange``. To play the very same games,
the compiled engine steps the same MT19937 state with CPython's own algorithms
(``kernels/rng.pxi``). A state is a ``uint32`` array of 625: the 624 words and the
position, exactly ``Random.getstate()``'s.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from hashlib import sha512
from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = ["MT_SIZE", "mt_random", "mt_state", "text_seeded"]

MT_SIZE: Final = 625
"""The words of one generator state (624 and the position)."""

MT = npt.NDArray[np.uint32]


def mt_state(rng: random.Random) -> MT:
    """The generator state of ``rng`` as an array the kernels step (``rng`` is untouched)."""
    version, internal, _ = rng.getstate()
    if version != 3 or len(internal) != MT_SIZE:
        raise ValueError("not a Mersenne Twister state of this Python's random module")
    return np.array(internal, dtype=np.uint32)


def text_seeded(texts: Sequence[str]) -> MT:
    """The states of ``random.Random(text)`` for every text, one row each, seeded in
    compiled code: what ``mt_state(random.Random(text))`` gives, many times faster.

    ``random.seed`` turns a text into the number ``int.from_bytes(t + sha512(t))`` (``t``
    its UTF-8 bytes) and seeds MT19937's ``init_by_array`` with that number's 32-bit
    words, least significant first; the kernel does the seeding. Those words are the
    bytes reversed (little-endian), without the zero bytes a big-endian number's leading
    zeros leave at the end, padded to whole words: one bytes operation each instead of
    two conversions through a Python integer.
    """
    from pachisi.fast.native import core

    keys = []
    for text in texts:
        raw = text.encode()
        # A number of zero still has one word (init_by_array([0])).
        keys.append((raw + sha512(raw).digest())[::-1].rstrip(b"\0") or b"\0")
    width = max((-(-len(k) // 4) for k in keys), default=1)
    words = np.frombuffer(b"".join(k.ljust(4 * width, b"\0") for k in keys), dtype="<u4")
    lengths = np.array([-(-len(k) // 4) for k in keys], dtype=np.int64)
    states = np.empty((len(keys), MT_SIZE), dtype=np.uint32)
    core.seed_generators_by_keys(states, words.reshape(len(keys), width), lengths)
    return states


def mt_random(state: MT) -> random.Random:
    """A ``random.Random`` that continues from ``state``: a game handed over from the
    compiled engine to the reference one goes on with the same draws."""
    rng = random.Random()
    rng.setstate((3, tuple(int(x) for x in state), None))
    return rng
