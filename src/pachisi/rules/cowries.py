"""Cowrie throws (RULES.md B, R-THROW-TABLE): exact chance outcomes and seeded throwing.

A throw is ``n`` independent cowries, each mouth up with probability ``p``. The chance
outcome is ``k``, the number of mouths up; the ruleset's score table turns it into a value.

>>> from fractions import Fraction
>>> [(k, str(pr)) for k, pr in chance_outcomes(6, Fraction(1, 2))][:3]
[(0, '1/64'), (1, '3/32'), (2, '15/64')]
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

HALF = Fraction(1, 2)

CLASSIC_6: tuple[int, ...] = (25, 10, 2, 3, 4, 5, 6)
"""Six cowries, Wikipedia/Masters/Ludii table (B.1)."""
HERKLOTS_6: tuple[int, ...] = (6, 10, 2, 3, 4, 25, 12)
"""Six cowries, Herklots 1832 = Tylor 1879 (B.1)."""
SEEDS_7: tuple[int, ...] = (7, 10, 2, 3, 4, 25, 30, 14)
"""Seven cowries with the seeds' values, six up = 30 (B.1, D-08)."""
HERKLOTS_7: tuple[int, ...] = (6, 10, 2, 3, 4, 25, 30, 12)
"""Seven cowries, Herklots 1832 (B.1)."""


def chance_outcomes(cowries: int, p_mouth_up: Fraction) -> list[tuple[int, Fraction]]:
    """Every ``k`` (mouths up) with its exact binomial probability (B.2).

    The probabilities are exact fractions for any rational ``p`` and sum to exactly 1.
    """
    q = 1 - p_mouth_up
    return [(k, comb(cowries, k) * p_mouth_up**k * q ** (cowries - k)) for k in range(cowries + 1)]


def throw_cowries(rng: random.Random, cowries: int, p_mouth_up: Fraction) -> tuple[int, ...]:
    """Throw every cowrie once, in order, with the caller's generator; 1 = mouth up."""
    if p_mouth_up == HALF:
        # One random bit per cowrie: the same distribution as a fair draw each, and fast.
        bits = rng.getrandbits(cowries)
        return tuple((bits >> i) & 1 for i in range(cowries))
    pf = float(p_mouth_up)
    return tuple(1 if rng.random() < pf else 0 for _ in range(cowries))


def throw(rng: random.Random, cowries: int, p_mouth_up: Fraction) -> int:
    """Throw and return ``k``, the number of mouths up."""
    if p_mouth_up is HALF or p_mouth_up == HALF:
        return rng.getrandbits(cowries).bit_count()
    return sum(throw_cowries(rng, cowries, p_mouth_up))


def game_seeds(seed: int, index: int) -> tuple[str, str]:
    """The seeds of :func:`game_rngs`: the texts the two generators are seeded with (the
    compiled engine seeds its copies of them from the same texts)."""
    return f"pachisi:{seed}:{index}:throws", f"pachisi:{seed}:{index}:bots"


def game_rngs(seed: int, index: int) -> tuple[random.Random, random.Random]:
    """The generators of game ``index`` of a run: one for the cowries, one for the bots.

    Seeding from a string is stable across Python runs and platforms, unlike ``hash``.
    Keeping the bots' choices apart from the throws means a change of bot does not shift
    the throws at the start of the game.
    """
    throws, bots = game_seeds(seed, index)
    return random.Random(throws), random.Random(bots)
