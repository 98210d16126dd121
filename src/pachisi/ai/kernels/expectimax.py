"""Expectimax with the learned evaluation, compiled: :mod:`pachisi.ai.expectimax`'s search
on the compiled engine's state rows.

The search is the reference one step for step (the same depth rule for throws, the same
best-first order, the same Star1 windows, the same count of positions visited), so that
it reaches the same values and spends the same budget; only its leaves cost microseconds
instead of the reference search's tens of microseconds. Its leaves are
:class:`pachisi.ai.learned.value.LearnedValue`'s view, computed by the compiled encoder and
network of :mod:`pachisi.ai.learned._selfplay`.

numba's on-disk cache is not safe for recursive functions, so the search keeps its own
stack of frames, one per node on the current path, and runs as a loop over three steps:
enter a node, start its next child, take a child's value back.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from pachisi.ai.expectimax import MAX_DEPTH
from pachisi.ai.learned import _selfplay
from pachisi.ai.learned._selfplay import (
    Weights,
    blocked_seats,
    encode,
    forward,
    greedy_scores,
    side_index,
    to_absolute,
)
from pachisi.ai.learned.features import MAX_ACTIVE
from pachisi.fast._actions import legal_actions
from pachisi.fast._jit import drop_stale_cache, jit
from pachisi.fast._legal import new_pool
from pachisi.fast._position import OCC_N_SIZE
from pachisi.fast._step import apply_action, apply_chance
from pachisi.fast.layout import (
    DRAW,
    OVER_STAGE,
    OVERFLOW,
    SEAT,
    STAGE,
    STATE_SIZE,
    THROW_OFF_STAGE,
    THROW_STAGE,
    WINNER,
)

# The kernels carry the machine code of the engine and of the learned player's encoder.
drop_stale_cache(
    Path(__file__).parent,
    also=(Path(_selfplay.__file__).parent, Path(_selfplay.__file__).parents[2] / "fast"),
)

Row = npt.NDArray[np.int32]
Floats = npt.NDArray[np.float64]

MAX_FRAMES = 2 * MAX_DEPTH + 4
"""Nodes on one path at the reference search's deepest level: a decision costs a level of
depth, and so does every throw but the first of a series, so a path holds at most two nodes
per level, the root's children and the leaf."""
MAX_ACTIONS = 4096
"""Room for one decision's actions (the engine's action buffers are this size)."""

OK = 0
OUT_OF_BUDGET = 1
"""The search visited as many positions as it was allowed before it finished."""
OVERFLOWED = 2
"""A position was past what a state row holds (a series of throws too long): the caller
must search it with the reference engine."""

_ENTER = 0
_NEXT = 1
_RETURN = 2
_DECIDE = 0
_CHANCE = 1


@jit
def leaf(
    st: Row, params: Row, hit: Floats, greedy: Floats, net: Weights, side: int, actor: int,
    work: tuple[Floats, Floats, Floats, Row, Floats, Floats],
) -> float:  # fmt: skip
    """The searching side's chance of winning from ``st`` as ``actor`` sees it: the result
    of a finished game, or the network's estimate."""
    scores, val, h, idx, rel, chances = work
    if st[STAGE] == OVER_STAGE:
        if st[WINNER] == DRAW:
            return 1.0 / float(rel.shape[0])
        return 1.0 if st[WINNER] == side else 0.0
    greedy_scores(st, params, greedy, hit, scores)
    blocked = blocked_seats(st, params)
    m = encode(st, params, hit, actor, blocked, scores, idx, val)
    forward(idx, val, m, net, h, rel)
    to_absolute(params, actor, rel, chances)
    return float(chances[side])


@jit
def search_root(
    root: Row, params: Row, hit: Floats, greedy: Floats, net: Weights, ks: Row, ps: Floats,
    depth: int, limit: int, count: npt.NDArray[np.int64], values: Floats,
) -> int:  # fmt: skip
    """Every legal action's value at ``depth`` for the side to move in ``root``, in the
    engine's order of the legal actions, into ``values``; the number of actions.

    ``ks``/``ps`` are the throws and their probabilities (the engine's chance outcomes).
    ``count[0]`` is the positions visited so far, and the search stops (``count[1] =``
    :data:`OUT_OF_BUDGET`) on entering a position once it has reached ``limit``; the values
    of the actions searched until then stand in ``values``."""
    sides = net[3].shape[0]
    work = (
        np.zeros(4, dtype=np.float64),
        np.zeros(MAX_ACTIVE, dtype=np.float64),
        np.zeros(net[1].shape[0], dtype=np.float64),
        np.zeros(MAX_ACTIVE, dtype=np.int32),
        np.zeros(sides, dtype=np.float64),
        np.zeros(sides, dtype=np.float64),
    )
    occ_n = np.zeros(OCC_N_SIZE, dtype=np.int32)
    occ = np.zeros((96, 16), dtype=np.int32)
    pool = new_pool()
    ev = np.zeros((0, 8), dtype=np.int32)
    evn = np.zeros(2, dtype=np.int32)
    root_acts = np.zeros(MAX_ACTIONS, dtype=np.int32)
    n_root = legal_actions(root, params, occ_n, occ, root_acts, pool)
    side = side_index(params, root[SEAT])
    # The frames: one row per node on the path.
    rows = np.zeros((MAX_FRAMES, STATE_SIZE), dtype=np.int32)
    acts = np.zeros((MAX_FRAMES, MAX_ACTIONS), dtype=np.int32)
    order = np.zeros((MAX_FRAMES, MAX_ACTIONS), dtype=np.int32)
    keys = np.zeros(MAX_ACTIONS, dtype=np.float64)
    kind = np.zeros(MAX_FRAMES, dtype=np.int32)
    dep = np.zeros(MAX_FRAMES, dtype=np.int32)
    actor = np.zeros(MAX_FRAMES, dtype=np.int32)
    chained = np.zeros(MAX_FRAMES, dtype=np.int32)
    size = np.zeros(MAX_FRAMES, dtype=np.int32)
    at = np.zeros(MAX_FRAMES, dtype=np.int32)
    ours = np.zeros(MAX_FRAMES, dtype=np.int32)
    alpha = np.zeros(MAX_FRAMES, dtype=np.float64)
    beta = np.zeros(MAX_FRAMES, dtype=np.float64)
    best = np.zeros(MAX_FRAMES, dtype=np.float64)
    done = np.zeros(MAX_FRAMES, dtype=np.float64)
    left = np.zeros(MAX_FRAMES, dtype=np.float64)
    lo = np.zeros(MAX_FRAMES, dtype=np.float64)
    hi = np.zeros(MAX_FRAMES, dtype=np.float64)
    trial = np.zeros(STATE_SIZE, dtype=np.int32)
    n_ks = ks.shape[0]
    for r in range(n_root):
        rows[0, :] = root
        apply_action(rows[0], params, root_acts[r], occ_n, occ, ev, evn)
        if rows[0, OVERFLOW]:
            count[1] = OVERFLOWED
            return n_root
        dep[0] = depth - 1
        alpha[0] = 0.0
        beta[0] = 1.0
        actor[0] = root[SEAT]
        chained[0] = 0
        top = 0
        mode = _ENTER
        ret = 0.0
        while True:
            f = top
            if mode == _ENTER:
                if count[0] >= limit:
                    count[1] = OUT_OF_BUDGET
                    return n_root
                count[0] += 1
                st = rows[f]
                stage = st[STAGE]
                if stage == OVER_STAGE:
                    ret = leaf(st, params, hit, greedy, net, side, actor[f], work)
                    mode = _RETURN
                elif st[STAGE] == THROW_STAGE or st[STAGE] == THROW_OFF_STAGE:
                    if chained[f]:
                        dep[f] -= 1
                    if dep[f] <= 0:
                        ret = leaf(st, params, hit, greedy, net, side, actor[f], work)
                        mode = _RETURN
                    else:
                        kind[f] = _CHANCE
                        at[f] = 0
                        done[f] = 0.0
                        left[f] = 1.0
                        mode = _NEXT
                elif dep[f] <= 0:
                    ret = leaf(st, params, hit, greedy, net, side, actor[f], work)
                    mode = _RETURN
                else:
                    kind[f] = _DECIDE
                    mine = side_index(params, st[SEAT]) == side
                    ours[f] = 1 if mine else 0
                    best[f] = -1.0 if mine else 2.0
                    n = legal_actions(st, params, occ_n, occ, acts[f], pool)
                    size[f] = n
                    at[f] = 0
                    for j in range(n):
                        order[f, j] = j
                    if dep[f] >= 2 and n > 1:
                        # Best-first by the static value, ties in the engine's order.
                        for j in range(n):
                            trial[:] = st
                            apply_action(trial, params, acts[f, j], occ_n, occ, ev, evn)
                            if trial[OVERFLOW]:
                                count[1] = OVERFLOWED
                                return n_root
                            keys[j] = leaf(trial, params, hit, greedy, net, side, st[SEAT], work)
                        for j in range(1, n):
                            o = order[f, j]
                            q = j
                            while q > 0 and (
                                keys[order[f, q - 1]] < keys[o]
                                if mine
                                else keys[order[f, q - 1]] > keys[o]
                            ):
                                order[f, q] = order[f, q - 1]
                                q -= 1
                            order[f, q] = o
                    mode = _NEXT
            elif mode == _NEXT:
                g = f + 1
                if kind[f] == _CHANCE:
                    i = at[f]
                    if i == n_ks:
                        ret = done[f]
                        mode = _RETURN
                        continue
                    p = ps[i]
                    left[f] -= p
                    lo[f] = (alpha[f] - done[f] - left[f]) / p
                    hi[f] = (beta[f] - done[f]) / p
                    rows[g, :] = rows[f]
                    apply_chance(rows[g], params, ks[i], ev, evn)
                    dep[g] = dep[f]
                    alpha[g] = max(lo[f], 0.0)
                    beta[g] = min(hi[f], 1.0)
                    actor[g] = actor[f]
                    chained[g] = 1
                else:
                    if at[f] == size[f]:
                        ret = best[f]
                        mode = _RETURN
                        continue
                    rows[g, :] = rows[f]
                    apply_action(rows[g], params, acts[f, order[f, at[f]]], occ_n, occ, ev, evn)
                    dep[g] = dep[f] - 1
                    alpha[g] = alpha[f]
                    beta[g] = beta[f]
                    actor[g] = rows[f, SEAT]
                    chained[g] = 0
                if rows[g, OVERFLOW]:
                    count[1] = OVERFLOWED
                    return n_root
                top = g
                mode = _ENTER
            else:
                if top == 0:
                    break
                top -= 1
                f = top
                v = ret
                if kind[f] == _CHANCE:
                    done[f] += ps[at[f]] * v
                    if v >= hi[f]:
                        ret = done[f]  # a lower bound, at least beta
                        continue
                    if v <= lo[f]:
                        ret = done[f] + left[f]  # an upper bound, at most alpha
                        continue
                    at[f] += 1
                    mode = _NEXT
                else:
                    if ours[f]:
                        if v > best[f]:
                            best[f] = v
                        alpha[f] = max(alpha[f], v)
                    else:
                        if v < best[f]:
                            best[f] = v
                        beta[f] = min(beta[f], v)
                    if alpha[f] >= beta[f]:
                        ret = best[f]
                        continue
                    at[f] += 1
                    mode = _NEXT
        values[r] = ret
    return n_root
