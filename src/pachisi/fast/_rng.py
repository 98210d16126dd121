"""Python's own random generator, compiled: the same Mersenne Twister, the same draws.

The reference engine throws with ``random.Random`` (:func:`pachisi.rules.cowries.throw`)
and its players choose with ``Random.choice``/``randrange``. To play the very same games
the compiled engine steps the same MT19937 state (taken from ``Random.getstate()``) with
the same algorithms: ``getrandbits(k)`` for k <= 32 is the top k bits of one tempered
word, ``_randbelow(n)`` draws ``n.bit_length()`` bits until the number is below ``n``,
and ``random()`` builds a double from two words. A state is a ``uint32`` array of 625:
the 624 words and the position.
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from pachisi.fast._jit import inline, kernel, popcount

MT = npt.NDArray[np.uint32]

_N = 624
_M = 397
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_MATRIX_A = 0x9908B0DF
_WORD = 0xFFFFFFFF


def mt_state(rng: random.Random) -> MT:
    """The generator state of ``rng`` as an array the kernels step (``rng`` is untouched)."""
    version, internal, _ = rng.getstate()
    if version != 3 or len(internal) != _N + 1:
        raise ValueError("not a Mersenne Twister state of this Python's random module")
    return np.array(internal, dtype=np.uint32)


def mt_random(state: MT) -> random.Random:
    """A ``random.Random`` that continues from ``state``, for checks and hand-overs."""
    rng = random.Random()
    rng.setstate((3, tuple(int(x) for x in state), None))
    return rng


@kernel
def _twist(mt: MT) -> None:
    # CPython's three loops: no modulo in the inner loops.
    for kk in range(_N - _M):
        y = (int(mt[kk]) & _UPPER) | (int(mt[kk + 1]) & _LOWER)
        mt[kk] = (int(mt[kk + _M]) ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)) & _WORD
    for kk in range(_N - _M, _N - 1):
        y = (int(mt[kk]) & _UPPER) | (int(mt[kk + 1]) & _LOWER)
        mt[kk] = (int(mt[kk + _M - _N]) ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)) & _WORD
    y = (int(mt[_N - 1]) & _UPPER) | (int(mt[0]) & _LOWER)
    mt[_N - 1] = (int(mt[_M - 1]) ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)) & _WORD
    mt[_N] = 0


@inline
def genrand(mt: MT) -> int:
    """The next tempered 32-bit word (CPython's ``genrand_uint32``)."""
    if mt[_N] >= _N:
        _twist(mt)
    i = int(mt[_N])
    y = int(mt[i])
    mt[_N] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & _WORD


@inline
def getrandbits(mt: MT, k: int) -> int:
    """``Random.getrandbits(k)`` for 0 <= k <= 32."""
    if k == 0:
        return 0
    return genrand(mt) >> (32 - k)


@inline
def randbelow(mt: MT, n: int) -> int:
    """``Random._randbelow(n)``, which ``randrange(n)`` and ``choice`` use; n >= 1."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    r = getrandbits(mt, k)
    while r >= n:
        r = getrandbits(mt, k)
    return r


@kernel
def random_double(mt: MT) -> float:
    """``Random.random()``: a double in [0, 1) from two words."""
    a = genrand(mt) >> 5
    b = genrand(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@inline
def throw_cowries(mt: MT, cowries: int, half: bool, p: float) -> int:
    """:func:`pachisi.rules.cowries.throw`: the number of cowries mouth up."""
    if half:
        return popcount(getrandbits(mt, cowries))
    count = 0
    for _ in range(cowries):
        if random_double(mt) < p:
            count += 1
    return count


@kernel
def splitmix64(x: int) -> int:
    """A well-mixed 64-bit value from ``x`` (SplitMix64), for deriving one seed per game."""
    z = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)


@kernel
def seed_mt(mt: MT, seed: int) -> None:
    """Seed a state with MT19937's own ``init_genrand`` from the low 32 bits of ``seed``."""
    mt[0] = seed & _WORD
    for i in range(1, _N):
        prev = int(mt[i - 1])
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & _WORD
    mt[_N] = _N
