"""Compiled batch stepping and observations: the kernels behind :mod:`pachisi.fast.batch`.

A batch is many games stepped together: each row is one game. After every step the
games that wait for a throw are thrown for (when the batch samples its own chance), so a
game in the batch is always either waiting for a seat's decision or over. These kernels
also write each game's legal-action mask and, for learning code, observations.

Observation layout (``float32``, :data:`OBS_SIZE` values), seen from an observing seat
``o``: the *relative seat* ``r`` is ``(seat - o) % 4``, so 0 is the observer, 1 the next
seat (counter-clockwise), 2 the partner opposite, 3 the seat before. Progress is each
seat's own (0 waiting, 84 home); squares are renumbered as if the board were turned so
that the observer sits South.

=================  =====  ===================================================
offset             size   contents
=================  =====  ===================================================
``O_PIECES``       16     progress / 84 of piece i of relative seat r, at 4 r + i
``O_PROGRESS``     340    count of r's pieces at progress p, at 85 r + p
``O_BOARD``        384    count of r's pieces on (turned) square q, at 96 r + q
``O_THROW_K``      9      one-hot mouths up of the throw being used (8: none)
``O_THROW``        2      its value / 35, and 1 if it gives another throw
``O_STAGE``        6      one-hot stage (throw-off, throw, act, pyada, spend, over)
``O_TURN``         16     again, captured, pyadas / 4, split left / 35, split
                          value / 35, collected throws per value slot / 4 (8),
                          run length / 3, phase flags (2)
``O_SEATS``        13     entered (4), kill credits / 4 (4), finished (4) per
                          relative seat, and 1 if the observer moves its own
                          pieces (0: its partner's, V-PARTNER-THROWS)
=================  =====  ===================================================
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pachisi.fast._actions import legal_actions
from pachisi.fast._jit import jit, kernel
from pachisi.fast._legal import Pool
from pachisi.fast._playout import GREEDY_BOT, Work, greedy_choice
from pachisi.fast._position import HOME, in_values, mover_of, seat_finished, value_slot
from pachisi.fast._rng import randbelow, throw_cowries
from pachisi.fast._step import apply_action, apply_chance
from pachisi.fast.layout import (
    AGAIN,
    CAPTURED,
    DRAW,
    ENTERED,
    FLAGS,
    ITEMS,
    ITEMS_LEN,
    KILLS,
    OVER_STAGE,
    OVERFLOW,
    POS,
    PYADAS,
    RUN_LEN,
    SEAT,
    SPLIT_LEFT,
    SPLIT_VALUE,
    STAGE,
    THROW_K,
    THROW_OFF_STAGE,
    THROW_STAGE,
    WINNER,
)
from pachisi.fast.params import P_COWRIES, P_HALF, P_INDIVIDUAL, P_REROLL, P_TABLE, SQUARES, TURNED

Row = npt.NDArray[np.int32]
Occ = npt.NDArray[np.int32]
MT = npt.NDArray[np.uint32]

O_PIECES = 0
O_PROGRESS = 16
O_BOARD = O_PROGRESS + 4 * 85
O_THROW_K = O_BOARD + 4 * 96
O_THROW = O_THROW_K + 9
O_STAGE = O_THROW + 2
O_TURN = O_STAGE + 6
O_SEATS = O_TURN + 16
OBS_SIZE = O_SEATS + 13

CHANCE_PLAYER = -1
TERMINAL_PLAYER = -4


@kernel
def observe(st: Row, params: Row, o: int, obs: npt.NDArray[np.float32]) -> None:
    """Write the observation of ``st`` seen from seat ``o`` into ``obs`` (layout above)."""
    for q in range(OBS_SIZE):
        obs[q] = 0.0
    for g in range(16):
        seat = g >> 2
        r = (seat - o) % 4
        p = st[POS + g]
        obs[O_PIECES + 4 * r + (g & 3)] = p / 84.0
        obs[O_PROGRESS + 85 * r + p] += 1.0
        if 0 < p < HOME:
            obs[O_BOARD + 96 * r + TURNED[o, SQUARES[seat, p]]] += 1.0
    k = st[THROW_K]
    obs[O_THROW_K + (k if k >= 0 else 8)] = 1.0
    if k >= 0:
        v = params[P_TABLE + k]
        obs[O_THROW] = v / 35.0
        obs[O_THROW + 1] = 1.0 if in_values(params, params[P_REROLL], v) else 0.0
    obs[O_STAGE + st[STAGE]] = 1.0
    obs[O_TURN] = st[AGAIN]
    obs[O_TURN + 1] = st[CAPTURED]
    obs[O_TURN + 2] = st[PYADAS] / 4.0
    obs[O_TURN + 3] = st[SPLIT_LEFT] / 35.0
    obs[O_TURN + 4] = st[SPLIT_VALUE] / 35.0
    for q in range(st[ITEMS_LEN]):
        slot = value_slot(params, st[ITEMS + q])
        obs[O_TURN + 5 + slot] += 0.25
    obs[O_TURN + 13] = st[RUN_LEN] / 3.0
    obs[O_TURN + 14] = st[FLAGS] & 1
    obs[O_TURN + 15] = (st[FLAGS] >> 1) & 1
    for seat in range(4):
        r = (seat - o) % 4
        obs[O_SEATS + r] = (st[ENTERED] >> seat) & 1
        obs[O_SEATS + 4 + r] = min(st[KILLS + seat], 4) / 4.0
        obs[O_SEATS + 8 + r] = 1.0 if seat_finished(st, seat) else 0.0
    obs[O_SEATS + 12] = 1.0 if mover_of(st, params, o) == o else 0.0


@kernel
def settle_chance(st: Row, params: Row, p: float, mt: MT, ev: Occ, evn: Row) -> int:
    """Throw for the game until a seat must decide or the game is over; the throws made."""
    cowries = params[P_COWRIES]
    half = params[P_HALF] == 1
    throws = 0
    while st[STAGE] in (THROW_STAGE, THROW_OFF_STAGE) and not st[OVERFLOW]:
        apply_chance(st, params, throw_cowries(mt, cowries, half, p), ev, evn)
        throws += 1
    return throws


@kernel
def status(
    st: Row,
    params: Row,
    occ_n: Row,
    occ: Occ,
    out: Row,
    pool: Pool,
    mask: npt.NDArray[np.bool_],
) -> int:
    """Write the legal-action mask of ``st`` and return who is to play: a seat, -1 while a
    throw is due, -4 once the game is over."""
    for a in range(mask.shape[0]):
        mask[a] = False
    stage = st[STAGE]
    if stage == OVER_STAGE:
        return TERMINAL_PLAYER
    if stage in (THROW_STAGE, THROW_OFF_STAGE):
        return CHANCE_PLAYER
    n = legal_actions(st, params, occ_n, occ, out, pool)
    for j in range(n):
        mask[out[j]] = True
    return int(st[SEAT])


@kernel
def rewards_of(st: Row, params: Row, seat_rewards: npt.NDArray[np.float32]) -> None:
    """+1 for the seats of the winning side, -1 for the others, 0 for all in a draw."""
    winner = st[WINNER]
    for seat in range(4):
        if winner == DRAW:
            seat_rewards[seat] = 0.0
        elif params[P_INDIVIDUAL]:
            seat_rewards[seat] = 1.0 if seat == winner else -1.0
        else:
            seat_rewards[seat] = 1.0 if (seat & 1) == winner else -1.0


@jit
def step_batch(
    rows: Row,
    params: Row,
    p: float,
    actions: Row,
    active: npt.NDArray[np.bool_],
    rngs: MT,
    sample: bool,
    occ_n: Row,
    occ: Occ,
    out: Row,
    pool: Pool,
    masks: npt.NDArray[np.bool_],
    players: Row,
    rewards: npt.NDArray[np.float32],
) -> None:
    """Apply ``actions[b]`` to every ``active`` game waiting for a decision (the caller
    checked that each is legal), throw for it when ``sample``, and update masks, players
    and rewards (set on the step that ends a game, else 0)."""
    ev = np.empty((0, 8), dtype=np.int32)
    evn = np.zeros(2, dtype=np.int32)
    for b in range(rows.shape[0]):
        st = rows[b]
        for seat in range(4):
            rewards[b, seat] = 0.0
        if players[b] < 0 or not active[b]:
            continue
        apply_action(st, params, actions[b], occ_n, occ, ev, evn)
        if sample:
            settle_chance(st, params, p, rngs[b], ev, evn)
        players[b] = status(st, params, occ_n, occ, out, pool, masks[b])
        if players[b] == TERMINAL_PLAYER:
            rewards_of(st, params, rewards[b])


@jit
def throw_batch(
    rows: Row,
    params: Row,
    ks: Row,
    occ_n: Row,
    occ: Occ,
    out: Row,
    pool: Pool,
    masks: npt.NDArray[np.bool_],
    players: Row,
    rewards: npt.NDArray[np.float32],
) -> None:
    """Apply the throw ``ks[b]`` (cowries mouth up) to every game waiting for a throw."""
    ev = np.empty((0, 8), dtype=np.int32)
    evn = np.zeros(2, dtype=np.int32)
    for b in range(rows.shape[0]):
        for seat in range(4):
            rewards[b, seat] = 0.0
        if players[b] != CHANCE_PLAYER:
            continue
        apply_chance(rows[b], params, ks[b], ev, evn)
        players[b] = status(rows[b], params, occ_n, occ, out, pool, masks[b])
        if players[b] == TERMINAL_PLAYER:
            rewards_of(rows[b], params, rewards[b])


@jit
def start_batch(
    rows: Row,
    params: Row,
    p: float,
    rngs: MT,
    sample: bool,
    occ_n: Row,
    occ: Occ,
    out: Row,
    pool: Pool,
    masks: npt.NDArray[np.bool_],
    players: Row,
) -> None:
    """Throw for every game until it waits for a decision (when ``sample``), then write
    its mask and player."""
    ev = np.empty((0, 8), dtype=np.int32)
    evn = np.zeros(2, dtype=np.int32)
    for b in range(rows.shape[0]):
        if sample:
            settle_chance(rows[b], params, p, rngs[b], ev, evn)
        players[b] = status(rows[b], params, occ_n, occ, out, pool, masks[b])


@kernel
def observe_batch(rows: Row, params: Row, seats: Row, obs: npt.NDArray[np.float32]) -> None:
    """The observation of every game, each from its ``seats[b]`` (a seat 0..3)."""
    for b in range(rows.shape[0]):
        observe(rows[b], params, seats[b], obs[b])


@kernel
def choose_batch(
    rows: Row,
    params: Row,
    weights: npt.NDArray[np.float64],
    hit: npt.NDArray[np.float64],
    bots: Row,
    rngs: MT,
    players: Row,
    work: Work,
    actions: Row,
) -> None:
    """For every game with a seat to act, the action its compiled player (``bots[seat]``:
    0 random, 1 greedy, -1 none) chooses, drawn from the game's generator; -1 otherwise."""
    occ_n, occ, out, pool, _, _, _, _ = work
    for b in range(rows.shape[0]):
        actions[b] = -1
        seat = players[b]
        if seat < 0 or bots[seat] < 0:
            continue
        n = legal_actions(rows[b], params, occ_n, occ, out, pool)
        if bots[seat] == GREEDY_BOT:
            j = greedy_choice(rows[b], params, weights, hit, out, n, rngs[b], work)
        else:
            j = randbelow(rngs[b], n)
        actions[b] = out[j]
