"""What the learned evaluation sees of a position: a sparse feature vector for one seat.

The encoder reads a compiled-engine state row (:mod:`pachisi.fast.layout`, from
:func:`pachisi.fast.convert.to_row` for a reference state) and writes the non-zero features
as index and value pairs. It is plain Python over numpy arrays or lists, so that playing
with the learned evaluation needs no compiler. The compiled players (self-play training,
``expert``'s search) run its Cython port, ``encode`` of :mod:`pachisi.ai._compiled`
(``src/pachisi/ai/kernels/features.pxi``), which tests/ai/test_compiled.py holds to this
reference bit for bit, so both see identical features.

Everything is seen from an observing seat ``o``: the *relative seat* ``r = (seat - o) % 4``
is 0 for the observer, 2 for its partner opposite. The features (offsets below):

==============  =====  ==================================================================
``F_PROGRESS``  340    count of r's pieces at progress p (0 waiting .. 84 home), 85 r + p
``F_BOARD``     384    count of r's pieces on square q of the board turned so that the
                       observer sits South, 96 r + q (the squares where pieces meet)
``F_DANGER``    48     chance that one throw of an enemy of r hits r's exposed pieces
                       (not home, not on a protecting castle), by progress band of 7
``F_SEAT``      28     per r: brought a piece out, kill credits / 4, finished, needs a
                       kill (V-KILL-BEFORE-HOME), can never earn one (R-DEADLOCK),
                       pieces home / 4, progress still to go / 336
``F_NEXT``      4      one-hot relative seat of the seat to throw or act next
``F_STAGE``     6      one-hot stage (throw-off, throw, act, pyada, spend, over)
``F_THROW_K``   9      one-hot mouths up of the throw being used (8: none)
``F_TURN``      16     as the compiled engine's observation: another throw due, captured
                       this turn, pyadas / 4, split steps left / 35, split value / 35,
                       collected throws per value slot / 4 (8), triple run / 3, phase
                       flags (2)
``F_GREEDY``    4      ``greedy``'s score of the position for r's side / 150
==============  =====  ==================================================================

The last feature lets training start from ``greedy``'s judgement (the network's linear
part begins as that score, calibrated as in :mod:`pachisi.ai.evaluation`) and learn what it
misses, rather than discover from nothing that progress is good.

The danger uses each ruleset's chances of a single throw's value (as ``greedy`` does), so
it knows which distances are likely to be thrown; everything else is the position itself.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from pachisi.fast.layout import (
    AGAIN,
    CAPTURED,
    ENTERED,
    FLAGS,
    ITEMS,
    ITEMS_LEN,
    KILLS,
    POS,
    PYADAS,
    RUN_LEN,
    SEAT,
    SPLIT_LEFT,
    SPLIT_VALUE,
    STAGE,
    THROW_K,
)
from pachisi.fast.params import (
    CASTLE,
    P_CASTLE,
    P_COWRIES,
    P_INDIVIDUAL,
    P_KBH,
    P_TABLE,
    SQUARES,
    TURNED,
)
from pachisi.rules.board import HOME, LAST_SQUARE, NUM_SQUARES, partner

__all__ = ["FEATURES", "MAX_ACTIVE", "encode", "tables"]

F_PROGRESS: Final = 0
F_BOARD: Final = F_PROGRESS + 4 * 85
F_DANGER: Final = F_BOARD + 4 * 96
F_SEAT: Final = F_DANGER + 4 * 12
F_NEXT: Final = F_SEAT + 4 * 7
F_STAGE: Final = F_NEXT + 4
F_THROW_K: Final = F_STAGE + 6
F_TURN: Final = F_THROW_K + 9
F_GREEDY: Final = F_TURN + 16
FEATURES: Final = F_GREEDY + 4
"""The length of the (dense) feature vector."""
MAX_ACTIVE: Final = 192
"""More than the most features one position can switch on (16 + 16 + 48 + 28 + 1 + 1 + 1
+ 16 + 4 = 131)."""
GREEDY_SCALE: Final = 150.0
"""Points of ``greedy``'s score per unit of ``F_GREEDY`` (the evaluation's scale)."""

_REACH = 26  # hit chances are tabled for distances 0..25


def tables() -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """The board tables :func:`encode` reads: ``squares[seat][p]`` (the square of progress
    ``p``), ``turned[o][square]`` (its number seen from ``o``) and ``reach[seat][square]``
    (the progress at which ``seat``'s pieces stand on the square, -1 if never), with the
    castles as ``reach[4][square]`` (1 for a castle)."""
    reach = np.full((5, NUM_SQUARES), -1, dtype=np.int32)
    for seat in range(4):
        for p in range(1, LAST_SQUARE + 1):
            reach[seat, SQUARES[seat, p]] = p
    reach[4] = CASTLE.astype(np.int32)
    return SQUARES.copy(), TURNED.copy(), reach


def encode(
    st: Any,
    params: Any,
    hit: Any,
    board: Any,
    o: int,
    blocked: int,
    greedy: Any,
    idx: npt.NDArray[np.int32],
    val: npt.NDArray[np.float64],
) -> int:
    """Write the features of ``st`` seen from seat ``o`` into ``idx``/``val``; their count.

    ``st``, ``params``, ``hit`` and the :func:`tables` in ``board`` are numpy arrays when
    compiled, and may be plain lists (faster to index in Python) when not. ``hit[d]`` is the
    chance that one throw is worth ``d`` (d < 26); ``blocked`` has bit ``seat`` set for
    every seat that can never earn the kill it needs (R-DEADLOCK's ``seat_blocked``, which
    the caller asks of its own engine), and ``greedy[seat]`` is ``greedy``'s score for each
    seat's side (its own engine's :meth:`~pachisi.ai.bots.GreedyBot.evaluate`). Indices come
    out in increasing order, with no repeats.
    """
    squares, turned, reach = board
    individual = params[P_INDIVIDUAL] != 0
    castles_protect = params[P_CASTLE] != 2
    kbh = params[P_KBH]
    n = 0
    # Counts by progress, then by turned square: each sorted by relative seat, then key.
    keys = [0, 0, 0, 0]
    for on_board in range(2):
        for r in range(4):
            seat = (o + r) % 4
            m = 0
            for i in range(4):
                p = st[POS + 4 * seat + i]
                if on_board == 0:
                    key = p
                elif 1 <= p <= LAST_SQUARE:
                    key = turned[o][squares[seat][p]]
                else:
                    continue
                j = m  # insertion sort of at most four keys
                while j > 0 and keys[j - 1] > key:
                    keys[j] = keys[j - 1]
                    j -= 1
                keys[j] = key
                m += 1
            base = F_BOARD + 96 * r if on_board else F_PROGRESS + 85 * r
            j = 0
            while j < m:
                count = 1
                while j + count < m and keys[j + count] == keys[j]:
                    count += 1
                idx[n] = base + keys[j]
                val[n] = float(count)
                n += 1
                j += count
    # Danger: for each exposed piece, the chance that no enemy piece's next throw is worth
    # exactly the distance to it.
    for r in range(4):
        seat = (o + r) % 4
        bands = [0.0] * 12
        for i in range(4):
            p = st[POS + 4 * seat + i]
            if p < 1 or p > LAST_SQUARE:
                continue
            sq = squares[seat][p]
            if castles_protect and reach[4][sq] == 1:
                continue
            safe = 1.0
            for g in range(16):
                t = g >> 2
                if t == seat or (not individual and (t & 1) == (seat & 1)):
                    continue
                d = reach[t][sq] - st[POS + g]
                if 2 <= d < _REACH and st[POS + g] >= 1:
                    safe *= 1.0 - hit[d]
            bands[(p - 1) * 12 // LAST_SQUARE] += 1.0 - safe
        for band in range(12):
            if bands[band] > 0.0:
                idx[n] = F_DANGER + 12 * r + band
                val[n] = bands[band]
                n += 1
    for r in range(4):
        seat = (o + r) % 4
        base = F_SEAT + 7 * r
        kills = st[KILLS + seat]
        if kbh == 2 and not individual:
            kills += st[KILLS + partner(seat)]
        home = 0
        togo = 0
        for i in range(4):
            p = st[POS + 4 * seat + i]
            if p == HOME:
                home += 1
            togo += HOME - p
        facts = (
            float((st[ENTERED] >> seat) & 1),
            min(st[KILLS + seat], 4) / 4.0,
            1.0 if home == 4 else 0.0,
            1.0 if kbh != 0 and kills == 0 and home < 4 else 0.0,
            float((blocked >> seat) & 1),
            home / 4.0,
            togo / 336.0,
        )
        for f in range(7):
            if facts[f] != 0.0:
                idx[n] = base + f
                val[n] = facts[f]
                n += 1
    idx[n] = F_NEXT + (st[SEAT] - o) % 4
    val[n] = 1.0
    n += 1
    idx[n] = F_STAGE + st[STAGE]
    val[n] = 1.0
    n += 1
    k = st[THROW_K]
    idx[n] = F_THROW_K + (k if k >= 0 else 8)
    val[n] = 1.0
    n += 1
    turn = [0.0] * 16
    turn[0] = float(st[AGAIN])
    turn[1] = float(st[CAPTURED])
    turn[2] = st[PYADAS] / 4.0
    turn[3] = st[SPLIT_LEFT] / 35.0
    turn[4] = st[SPLIT_VALUE] / 35.0
    for q in range(st[ITEMS_LEN]):
        v = st[ITEMS + q]
        for slot in range(params[P_COWRIES] + 1):
            if params[P_TABLE + slot] == v:
                turn[5 + slot] += 0.25
                break
    turn[13] = st[RUN_LEN] / 3.0
    turn[14] = float(st[FLAGS] & 1)
    turn[15] = float((st[FLAGS] >> 1) & 1)
    for f in range(16):
        if turn[f] != 0.0:
            idx[n] = F_TURN + f
            val[n] = turn[f]
            n += 1
    for r in range(4):
        score = greedy[(o + r) % 4] / GREEDY_SCALE
        if score != 0.0:
            idx[n] = F_GREEDY + r
            val[n] = score
            n += 1
    return n
