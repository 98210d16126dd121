"""How long a ruleset's throwing lasts: the throw-off and one series of throws in a turn.

A ruleset is refused when either can go on forever or is expected to take more than
:data:`MAX_EXPECTED_THROWS` throws (issue 5, "every turn and every game can end"). Both
are Markov-chain computations over the throw table. Whether a series can end at all is
decided exactly, from which throws are possible; how long it takes on average is computed
in floating point, which is precise enough for a limit that real rulesets miss by a factor
of twenty.

* The **throw-off** (R-ORDER): all four seats throw; the tied seats of the highest value
  throw again until one is left.
* A **series**: the throws of a seat that follow each other because each gives another
  throw (R-GRACE-REPEAT), until a stopping throw, a void 7 or 14 (V-7-14-NEEDS-PIECE) or a
  triple cancellation (V-TRIPLE-CANCEL). In immediate mode the seat moves between them, in
  collect mode it collects them (C.10a, C.10b). Capture bonuses (V-CAPTURE-BONUS) add at
  most one series per capture, and captures in one turn are bounded by the enemy pieces on
  the board, so they do not change whether a turn ends.

Internal to :mod:`pachisi.rules`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from math import comb

from pachisi.rules._switches import Switches
from pachisi.rules.choices import SevenFourteenNeedsPiece, TripleCancel

MAX_EXPECTED_THROWS = 100
"""The most throws a throw-off or a series may take on average. Real rulesets take 1 to
6; a ruleset beyond 100 is a mistake (``p_mouth_up=1/1000000``) rather than a game."""

_VOID_VALUES = (7, 14)

Run = tuple[int, int]
"""(triple-cancel class, run length)."""


def value_probabilities(r: Switches) -> dict[int, float]:
    """The probability of each throw value (values shared by several ``k`` add up)."""
    out: dict[int, float] = {}
    p = float(r.p_mouth_up)
    for k in range(r.cowries + 1):
        v = r.score_table[k]
        out[v] = out.get(v, 0.0) + comb(r.cowries, k) * p**k * (1 - p) ** (r.cowries - k)
    return out


@functools.lru_cache(maxsize=256)
def expected_throwoff_throws(r: Switches) -> float | None:
    """Expected throws of the throw-off (R-ORDER), or None if it may never end."""
    if len(set(r.score_table)) == 1:
        return None  # every seat always throws the same value: tie after tie
    probs = value_probabilities(r)
    below = 0.0
    below_of: dict[int, float] = {}
    for v in sorted(probs):
        below_of[v] = below
        below += probs[v]
    # expected[m]: throws still to come when m seats are tied for the highest value.
    expected = {1: 0.0}
    for m in range(2, 5):
        # P(exactly j of m seats throw the highest value of the round).
        ties = {
            j: sum(comb(m, j) * probs[v] ** j * below_of[v] ** (m - j) for v in probs)
            for j in range(1, m + 1)
        }
        stay = ties[m]
        if stay >= 1.0:
            return math.inf  # possible to end, but not within any float's reach
        rest = sum(ties[j] * expected[j] for j in range(2, m))
        expected[m] = (m + rest) / (1 - stay)
    return expected[4]


@functools.lru_cache(maxsize=256)
def expected_series_throws(r: Switches) -> float | None:
    """Expected throws in one series of a turn, or None if a series may never end.

    The worse of the two cases for V-7-14-NEEDS-PIECE: the seat has a piece on the board
    (7 and 14 count, and count towards triples), or it has none (they are void).
    """
    worst = 0.0
    for has_piece in (True, False):
        e = _series(r, has_piece)
        if e is None:
            return None
        worst = max(worst, e)
    return worst


def _series(r: Switches, has_piece: bool) -> float | None:
    probs = value_probabilities(r)
    triples = r.triple_cancel != TripleCancel.OFF

    def step(run: Run, v: int) -> Run | None:
        """The run after throwing ``v``, or None if the series ends with this throw."""
        if not has_piece and v in _VOID_VALUES:
            void_ends = r.seven_fourteen_needs_piece == SevenFourteenNeedsPiece.VOID
            return None if void_ends else run
        if triples:
            run = r.advance_run(run, v)
            if run[1] >= 3:
                return None
        return run if v in r.reroll_values else None

    return _expected_steps((0, 0), probs, step)


def _expected_steps(
    start: Run, probs: dict[int, float], step: Callable[[Run, int], Run | None]
) -> float | None:
    """Expected throws from ``start`` until ``step`` says the series ends.

    Every value has a positive probability (0 < p_mouth_up < 1), so the series ends with
    probability 1 exactly when every reachable state can reach an end; then the linear
    system for the expected times has a unique solution.
    """
    states = [start]
    index = {start: 0}
    moves: list[list[tuple[float, int | None]]] = []
    while len(moves) < len(states):
        here = states[len(moves)]
        row: list[tuple[float, int | None]] = []
        for v, pr in probs.items():
            nxt = step(here, v)
            if nxt is not None and nxt not in index:
                index[nxt] = len(states)
                states.append(nxt)
            row.append((pr, None if nxt is None else index[nxt]))
        moves.append(row)
    if not _all_can_end(moves):
        return None
    n = len(states)
    # E[i] - sum_j P(i -> j) E[j] = 1, by Gauss-Jordan elimination with partial pivoting.
    matrix = [[float(i == j) for j in range(n)] + [1.0] for i in range(n)]
    for i, row in enumerate(moves):
        for pr, j in row:
            if j is not None:
                matrix[i][j] -= pr
    for col in range(n):
        pivot = max(range(col, n), key=lambda i: abs(matrix[i][col]))
        if matrix[pivot][col] == 0.0:
            return math.inf  # it can end, but too rarely for floating point to tell
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        lead = matrix[col][col]
        matrix[col] = [x / lead for x in matrix[col]]
        for i in range(n):
            factor = matrix[i][col]
            if i != col and factor:
                matrix[i] = [a - factor * b for a, b in zip(matrix[i], matrix[col], strict=True)]
    return matrix[0][n]


def _all_can_end(moves: list[list[tuple[float, int | None]]]) -> bool:
    """Whether from every state some sequence of throws ends the series."""
    can_end = {i for i, row in enumerate(moves) if any(j is None for _, j in row)}
    changed = True
    while changed:
        changed = False
        for i, row in enumerate(moves):
            if i not in can_end and any(j in can_end for _, j in row):
                can_end.add(i)
                changed = True
    return len(can_end) == len(moves)
