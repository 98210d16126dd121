"""Compiled complete games: the random and greedy players, and the game loop.

The port of :func:`pachisi.simulate.play_game` and of :mod:`pachisi.ai.bots`, draw for
draw: throws come from one Mersenne Twister, the players' choices from another (or the
same one, as in bench/playouts.py), and the greedy player's score is computed with the
same floating-point operations in the same order, so a seeded game is the same game in
both engines.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pachisi.fast._actions import legal_inline
from pachisi.fast._jit import borrow, jit, kernel
from pachisi.fast._legal import Pool, new_pool
from pachisi.fast._ops import E_CAPTURE
from pachisi.fast._position import HOME, LAST_SQUARE, OCC_N_SIZE
from pachisi.fast._rng import randbelow, seed_mt, splitmix64, throw_cowries
from pachisi.fast._step import apply_action, chance_inline, play_inline, throw_inline
from pachisi.fast.layout import (
    OVER_STAGE,
    OVERFLOW,
    POS,
    SEAT,
    STAGE,
    STATE_SIZE,
    THROW_OFF_STAGE,
    THROW_STAGE,
    TURN,
)
from pachisi.fast.params import CASTLE, P_CASTLE, P_COWRIES, P_HALF, P_INDIVIDUAL, SQUARES

Row = npt.NDArray[np.int32]
Occ = npt.NDArray[np.int32]
Floats = npt.NDArray[np.float64]
MT = npt.NDArray[np.uint32]
Work = tuple[Row, Occ, Row, Pool, Row, Occ, Row, Row]
"""occupancy counts and lists, legal actions, split pool, and the greedy player's trial
row, event buffer and count, and best actions."""

RANDOM_BOT = 0
GREEDY_BOT = 1

# Weights, as pachisi.ai.bots.Weights (same order).
W_PROGRESS, W_ENEMY, W_OUT, W_HOME, W_CAPTURE, W_CASTLE, W_DANGER = range(7)


@kernel
def _friend(params: Row, seat: int, other: int) -> bool:
    if params[P_INDIVIDUAL]:
        return other == seat
    return other == seat or other == (seat + 2) % 4


@jit
def evaluate(st: Row, params: Row, weights: Floats, hit: Floats, seat: int) -> float:
    """:meth:`pachisi.ai.bots.GreedyBot.evaluate`: the score of ``st`` for ``seat``'s side.

    ``hit[d]`` is the chance that one throw is worth ``d`` (0.02 where none is), for
    d = 0..25.
    """
    miss = np.ones(96, dtype=np.float64)
    for g in range(16):
        enemy = g >> 2
        if _friend(params, seat, enemy):
            continue
        p = st[POS + g]
        if not 1 <= p <= LAST_SQUARE:
            continue
        for d in range(2, 26):
            t = p + d
            if t > LAST_SQUARE:
                break
            sq = SQUARES[enemy, t]
            miss[sq] = miss[sq] * (1.0 - hit[d])
    castles_protect = params[P_CASTLE] != 2
    score = 0.0
    for g in range(16):
        p = st[POS + g]
        if p == 0:
            continue
        if not _friend(params, seat, g >> 2):
            score -= weights[W_ENEMY] * p
            continue
        score += weights[W_PROGRESS] * p + weights[W_OUT]
        if p == HOME:
            score += weights[W_HOME]
            continue
        sq = SQUARES[g >> 2, p]
        if castles_protect and CASTLE[sq]:
            score += weights[W_CASTLE]
        else:
            exposed = weights[W_PROGRESS] * p + weights[W_OUT]
            score -= weights[W_DANGER] * exposed * (1.0 - miss[sq])
    return score


@kernel
def greedy_choice(
    st: Row,
    params: Row,
    weights: Floats,
    hit: Floats,
    acts: Row,
    n: int,
    mt: MT,
    work: Work,
) -> int:
    """:meth:`pachisi.ai.bots.GreedyBot.choose`: the index of the action to play."""
    if n == 1:
        return 0
    occ_n, occ, _, _, trial, ev, evn, best = work
    seat = st[SEAT]
    count = 0
    best_score = -np.inf
    for j in range(n):
        for q in range(st.shape[0]):
            trial[q] = st[q]
        evn[0] = 0
        evn[1] = 0
        apply_action(trial, params, acts[j], occ_n, occ, ev, evn)
        taken = 0
        for e in range(evn[0]):
            if ev[e, 0] == E_CAPTURE and _friend(params, seat, ev[e, 1]):
                pieces = ev[e, 6]
                while pieces:
                    taken += pieces & 1
                    pieces >>= 1
        score = evaluate(trial, params, weights, hit, seat) + weights[W_CAPTURE] * taken
        # A small tolerance so that float noise cannot split a genuine tie.
        if score > best_score + 1e-9:
            best[0] = j
            count = 1
            best_score = score
        elif score >= best_score - 1e-9:
            best[count] = j
            count += 1
    if count == 1:
        return int(best[0])
    return int(best[randbelow(mt, count)])


@jit
def new_work() -> Work:
    """The buffers one game's loop works in, allocated once for the whole game."""
    return (
        np.zeros(OCC_N_SIZE, dtype=np.int32),
        np.zeros((96, 16), dtype=np.int32),
        np.zeros(4096, dtype=np.int32),
        new_pool(),
        np.zeros(STATE_SIZE, dtype=np.int32),
        np.zeros((64, 8), dtype=np.int32),
        np.zeros(2, dtype=np.int32),
        np.zeros(4096, dtype=np.int32),
    )


@kernel
def _play(
    st: Row,
    params: Row,
    p: float,
    weights: Floats,
    hit: Floats,
    bots: Row,
    mt_throws: MT,
    mt_choices: MT,
    max_turns: int,
    max_steps: int,
    stats: Row,
    owned: Work,
    evn: Row,
) -> None:
    """Play ``st`` on to the end (or a cap): :func:`pachisi.simulate.play_game`.

    ``bots[seat]`` is the player of each seat; ``stats`` gets throws, actions and capture
    events. The game stops early if it overflows its row (``OVERFLOW``). ``owned`` and
    ``evn`` are the caller's buffers (:func:`new_work`, the event counts, which the caller
    zeroes); the loop works on borrowed views of all its arrays, which the caller keeps
    alive."""
    st = borrow(st)
    params = borrow(params)
    weights = borrow(weights)
    hit = borrow(hit)
    bots = borrow(bots)
    mt_throws = borrow(mt_throws)
    mt_choices = borrow(mt_choices)
    occ_n = borrow(owned[0])
    occ = borrow(owned[1])
    acts = borrow(owned[2])
    pool = (borrow(owned[3][0]), borrow(owned[3][1]), borrow(owned[3][2]), borrow(owned[3][3]))
    work = (occ_n, occ, acts, pool, borrow(owned[4]), borrow(owned[5]), borrow(owned[6]),
            borrow(owned[7]))  # fmt: skip
    evn = borrow(evn)
    ev = pool[3]  # no events are kept: a zero-row buffer
    cowries = params[P_COWRIES]
    half = params[P_HALF] == 1
    throws = 0
    actions = 0
    # Whether R-DEADLOCK has been checked since anything it looks at last changed.
    settled = False
    while (
        st[STAGE] != OVER_STAGE
        and st[TURN] <= max_turns
        and throws + actions < max_steps
        and not st[OVERFLOW]
    ):
        stage = st[STAGE]
        if stage in (THROW_STAGE, THROW_OFF_STAGE):
            k = throw_cowries(mt_throws, cowries, half, p)
            if settled:
                throw_inline(st, params, k, ev, evn)
            else:
                chance_inline(st, params, k, ev, evn)
                settled = True
            if st[OVERFLOW]:
                # Not applied: the caller goes on in the reference engine with this throw.
                break
            throws += 1
            continue
        n = legal_inline(st, params, occ_n, occ, acts, pool)
        if bots[st[SEAT]] == GREEDY_BOT:
            j = greedy_choice(st, params, weights, hit, acts, n, mt_choices, work)
        else:
            j = randbelow(mt_choices, n)
        play_inline(st, params, acts[j], occ_n, occ, ev, evn, settled)
        settled = True
        actions += 1
    stats[0] = throws
    stats[1] = actions
    stats[2] = evn[1]


@jit
def play_many(
    rows: Row,
    params: Row,
    p: float,
    weights: Floats,
    hit: Floats,
    bots: Row,
    mt_throws: MT,
    mt_choices: MT,
    max_turns: int,
    max_steps: int,
    stats: Row,
) -> None:
    """:func:`_play` for every row of a batch, each with its own pair of generators; the
    games share one set of buffers (nothing in them carries from one game to the next: the
    occupancy knows which position it holds, the rest is written before it is read)."""
    work = new_work()
    evn = np.zeros(2, dtype=np.int32)
    for i in range(rows.shape[0]):
        evn[0] = 0
        evn[1] = 0
        _play(
            rows[i], params, p, weights, hit, bots, mt_throws[i], mt_choices[i],
            max_turns, max_steps, stats[i], work, evn,
        )  # fmt: skip


@jit
def play_seeded(
    rows: Row,
    params: Row,
    p: float,
    weights: Floats,
    hit: Floats,
    bots: Row,
    seed: int,
    max_turns: int,
    max_steps: int,
    stats: Row,
) -> None:
    """:func:`_play` for every row, game ``j`` with two generators seeded from ``(seed, j)``
    (``seed_mt(splitmix64(seed * 2**20 + 2 j))`` for the throws, ``+ 1`` for the choices)."""
    mt_throws = np.empty(625, dtype=np.uint32)
    mt_choices = np.empty(625, dtype=np.uint32)
    work = new_work()
    evn = np.zeros(2, dtype=np.int32)
    for j in range(rows.shape[0]):
        base = (seed << 20) + 2 * j
        seed_mt(mt_throws, splitmix64(base))
        seed_mt(mt_choices, splitmix64(base + 1))
        evn[0] = 0
        evn[1] = 0
        _play(
            rows[j], params, p, weights, hit, bots, mt_throws, mt_choices, max_turns,
            max_steps, stats[j], work, evn,
        )  # fmt: skip
