"""Compiled self-play: TD(lambda) training games and evaluation matches of the learned player.

The games run on the compiled engine's kernels (:mod:`pachisi.fast`), so they follow the
rules exactly as the reference engine does; only the choice of action is new here. They
call the engine's entry points (``legal_actions``, ``apply_action``, ``apply_chance``)
rather than inlining them as the playout loop does: the network's choice costs far more
than a call, and an inlined copy of the engine took minutes to compile. The
learned player looks one action ahead: it applies each legal action to a copy of the
state, encodes the result from its own seat (:func:`pachisi.ai.learned.features.encode`,
compiled from the same source the numpy player runs) and takes the action whose result
the network rates best for its side.

Training (:func:`train_games`) is TD(lambda) in its forward view, game by game as in
TD-Gammon's self-play: every seat is played by the network being trained; after a game,
each position the network chose gets as its target the lambda-return, a mix of the
network's own values of the positions that followed and the game's result; one stochastic
gradient step per position moves the softmax output towards it (cross-entropy).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from pachisi.ai.learned import features
from pachisi.ai.learned.features import MAX_ACTIVE
from pachisi.fast._actions import legal_actions
from pachisi.fast._jit import drop_stale_cache, jit
from pachisi.fast._playout import GREEDY_BOT as GREEDY_BOT
from pachisi.fast._playout import evaluate, greedy_choice, new_work
from pachisi.fast._position import OCC_N_SIZE, seat_blocked
from pachisi.fast._rng import randbelow, random_double, seed_mt, splitmix64, throw_cowries
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
from pachisi.fast.params import P_COWRIES, P_HALF, P_INDIVIDUAL, P_KBH

# The kernels below carry the compiled engine's machine code (numba links a callee's code into
# its caller's cache entry): their cache must go when either package's sources change.
drop_stale_cache(Path(__file__).parent, also=(Path(features.__file__).parents[2] / "fast",))

Row = npt.NDArray[np.int32]
Floats = npt.NDArray[np.float64]
MT = npt.NDArray[np.uint32]

LEARNED_BOT = 2
"""The code of the learned player in a ``bots`` vector (0 random, 1 greedy as in
:mod:`pachisi.fast._playout`)."""

_encode = jit(features.encode)
_SQUARES, _TURNED, _REACH = features.tables()


@jit
def encode(
    st: Row, params: Row, hit: Floats, o: int, blocked: int, greedy: Floats, idx: Row,
    val: Floats,
) -> int:  # fmt: skip
    """:func:`pachisi.ai.learned.features.encode`, compiled, with the board tables."""
    return _encode(st, params, hit, (_SQUARES, _TURNED, _REACH), o, blocked, greedy, idx, val)


Weights = tuple[Floats, Floats, Floats, Floats, Floats]
"""The network as the kernels take it: w1, b1, w2, b2, w3 (:class:`~.net.Net`)."""


@jit
def forward(idx: Row, val: Floats, n: int, net: Weights, h: Floats, out: Floats) -> None:
    """The network's hidden units (into ``h``) and the sides' chances (into ``out``)."""
    w1, b1, w2, b2, w3 = net
    hidden = b1.shape[0]
    sides = b2.shape[0]
    for u in range(hidden):
        h[u] = b1[u]
    for a in range(n):
        row = idx[a]
        v = val[a]
        for u in range(hidden):
            h[u] += w1[row, u] * v
    for u in range(hidden):
        h[u] = np.tanh(h[u])
    top = -np.inf
    for k in range(sides):
        z = b2[k]
        for u in range(hidden):
            z += h[u] * w2[u, k]
        for a in range(n):
            z += w3[idx[a], k] * val[a]
        out[k] = z
        top = max(top, z)
    total = 0.0
    for k in range(sides):
        out[k] = np.exp(out[k] - top)
        total += out[k]
    for k in range(sides):
        out[k] /= total


@jit
def blocked_seats(st: Row, params: Row) -> int:
    """Bit ``seat`` set for every seat R-DEADLOCK calls blocked (0 without kill-before-home)."""
    if params[P_KBH] == 0:
        return 0
    mask = 0
    for seat in range(4):
        if seat_blocked(st, params, seat):
            mask |= 1 << seat
    return mask


@jit
def greedy_scores(st: Row, params: Row, weights: Floats, hit: Floats, out: Floats) -> None:
    """``greedy``'s score of ``st`` for every seat's side (partners share theirs)."""
    if params[P_INDIVIDUAL]:
        for seat in range(4):
            out[seat] = evaluate(st, params, weights, hit, seat)
    else:
        for seat in range(2):
            out[seat] = out[seat + 2] = evaluate(st, params, weights, hit, seat)


@jit
def side_index(params: Row, seat: int) -> int:
    """The absolute side of ``seat``: its team, or itself under teams=individual."""
    return seat if params[P_INDIVIDUAL] else seat & 1


@jit
def to_absolute(params: Row, o: int, rel: Floats, out: Floats) -> None:
    """Turn chances by side relative to observer ``o`` into chances by absolute side."""
    if params[P_INDIVIDUAL]:
        for r in range(4):
            out[(o + r) % 4] = rel[r]
    else:
        out[o & 1] = rel[0]
        out[1 - (o & 1)] = rel[1]


@jit
def outcome(st: Row, params: Row, out: Floats) -> None:
    """The result of a finished game as chances by absolute side (a draw shares them)."""
    sides = out.shape[0]
    for k in range(sides):
        out[k] = 1.0 / sides if st[WINNER] == DRAW else 0.0
    if st[WINNER] >= 0:
        out[st[WINNER]] = 1.0


@jit
def new_scratch(hidden: int, sides: int) -> tuple[
    Row, Row, npt.NDArray[np.int32], Row, Floats, Floats, Floats, npt.NDArray[np.int32],
]:  # fmt: skip
    """trial row, occupancy counts, occupancy lists, event count, feature values, hidden
    units, relative chances, feature indices."""
    return (
        np.zeros(STATE_SIZE, dtype=np.int32),
        np.zeros(OCC_N_SIZE, dtype=np.int32),
        np.zeros((96, 16), dtype=np.int32),
        np.zeros(2, dtype=np.int32),
        np.zeros(MAX_ACTIVE, dtype=np.float64),
        np.zeros(hidden, dtype=np.float64),
        np.zeros(sides, dtype=np.float64),
        np.zeros(MAX_ACTIVE, dtype=np.int32),
    )


@jit
def learned_choice(
    st: Row, params: Row, hit: Floats, weights: Floats, acts: Row, n: int, net: Weights,
    mt: MT, eps: float,
) -> int:  # fmt: skip
    """The index of the action the network rates best for the mover's side (uniformly
    among ties); with chance ``eps`` a uniformly random one instead (exploration)."""
    if n == 1:
        return 0
    if eps > 0.0 and random_double(mt) < eps:
        return randbelow(mt, n)
    sides = net[3].shape[0]
    trial, occ_n, occ, evn, val, h, rel, idx = new_scratch(net[1].shape[0], sides)
    scores = np.zeros(4, dtype=np.float64)
    ev = np.zeros((0, 8), dtype=np.int32)
    o = st[SEAT]
    mine = side_index(params, o)
    best = np.empty(n, dtype=np.int64)
    count = 0
    best_value = -np.inf
    for j in range(n):
        for q in range(st.shape[0]):
            trial[q] = st[q]
        apply_action(trial, params, acts[j], occ_n, occ, ev, evn)
        if trial[STAGE] == OVER_STAGE:
            won = 1.0 if trial[WINNER] == mine else 0.0
            value = 1.0 / sides if trial[WINNER] == DRAW else won
        else:
            greedy_scores(trial, params, weights, hit, scores)
            blocked = blocked_seats(trial, params)
            m = encode(trial, params, hit, o, blocked, scores, idx, val)
            forward(idx, val, m, net, h, rel)
            value = rel[0]
        if value > best_value + 1e-12:
            best_value = value
            best[0] = j
            count = 1
        elif value >= best_value - 1e-12:
            best[count] = j
            count += 1
    if count == 1:
        return int(best[0])
    return int(best[randbelow(mt, count)])


@jit
def _seed_game(mt_throws: MT, mt_choices: MT, seed: int, game: int) -> None:
    base = (seed << 24) + 2 * game
    seed_mt(mt_throws, splitmix64(base))
    seed_mt(mt_choices, splitmix64(base + 1))


@jit
def train_games(
    start: Row, params: Row, p: float, hit: Floats, greedy_weights: Floats, bots: Row,
    net: Weights,
    seed: int, first_game: int, games: int, lam: float, alpha: float, eps: float,
    max_steps: int, stats: npt.NDArray[np.int64],
) -> None:  # fmt: skip
    """Play ``games`` games from ``start`` (game numbers ``first_game`` on, each seeded from
    ``(seed, number)``) and train the network in place after each.

    ``bots[seat]`` plays each seat: 2 the network itself (self-play, exploring with chance
    ``eps``), 1 ``greedy`` (to learn the value of good play before the network plays well
    enough to finish its own games).

    ``stats`` gets: games finished, games left unfinished (over ``max_steps``, not trained
    on), positions trained on, and wins per absolute side (from index 3).
    """
    w1, b1, w2, b2, w3 = net
    sides = b2.shape[0]
    hidden = b1.shape[0]
    cap = 8192
    scores = np.zeros(4, dtype=np.float64)
    rec_idx = np.zeros((cap, MAX_ACTIVE), dtype=np.int32)
    rec_val = np.zeros((cap, MAX_ACTIVE), dtype=np.float64)
    rec_n = np.zeros(cap, dtype=np.int32)
    rec_o = np.zeros(cap, dtype=np.int32)
    rec_v = np.zeros((cap, sides), dtype=np.float64)
    st = np.empty(STATE_SIZE, dtype=np.int32)
    mt_throws = np.empty(625, dtype=np.uint32)
    mt_choices = np.empty(625, dtype=np.uint32)
    work = new_work()
    occ_n, occ, acts, pool = work[0], work[1], work[2], work[3]
    ev = np.zeros((0, 8), dtype=np.int32)
    evn = np.zeros(2, dtype=np.int32)
    h = np.zeros(hidden, dtype=np.float64)
    rel = np.zeros(sides, dtype=np.float64)
    target = np.zeros(sides, dtype=np.float64)
    g_ret = np.zeros(sides, dtype=np.float64)
    dz = np.zeros(sides, dtype=np.float64)
    dh = np.zeros(hidden, dtype=np.float64)
    cowries = params[P_COWRIES]
    half = params[P_HALF] == 1
    for game in range(first_game, first_game + games):
        _seed_game(mt_throws, mt_choices, seed, game)
        for q in range(STATE_SIZE):
            st[q] = start[q]
        steps = 0
        t = 0
        while st[STAGE] != OVER_STAGE and steps < max_steps and not st[OVERFLOW]:
            steps += 1
            if st[STAGE] == THROW_STAGE or st[STAGE] == THROW_OFF_STAGE:
                apply_chance(st, params, throw_cowries(mt_throws, cowries, half, p), ev, evn)
                continue
            n = legal_actions(st, params, occ_n, occ, acts, pool)
            o = st[SEAT]
            if bots[o] == GREEDY_BOT:
                j = greedy_choice(st, params, greedy_weights, hit, acts, n, mt_choices, work)
            else:
                j = learned_choice(st, params, hit, greedy_weights, acts, n, net, mt_choices, eps)
            apply_action(st, params, acts[j], occ_n, occ, ev, evn)
            if n == 1 or st[STAGE] == OVER_STAGE or t == cap:
                continue
            greedy_scores(st, params, greedy_weights, hit, scores)
            blocked = blocked_seats(st, params)
            m = encode(st, params, hit, o, blocked, scores, rec_idx[t], rec_val[t])
            rec_n[t] = m
            rec_o[t] = o
            forward(rec_idx[t], rec_val[t], m, net, h, rel)
            to_absolute(params, o, rel, rec_v[t])
            t += 1
        if st[STAGE] != OVER_STAGE:
            stats[1] += 1
            continue
        stats[0] += 1
        outcome(st, params, g_ret)
        for k in range(sides):
            if g_ret[k] == 1.0:
                stats[3 + k] += 1
        # Targets, last position first: the lambda-return G_t = (1 - lam) V_{t+1} + lam G_{t+1}.
        targets = np.empty((t, sides), dtype=np.float64)
        for i in range(t - 1, -1, -1):
            for k in range(sides):
                targets[i, k] = g_ret[k]
                g_ret[k] = (1.0 - lam) * rec_v[i, k] + lam * g_ret[k]
        for i in range(t):
            o = rec_o[i]
            m = rec_n[i]
            forward(rec_idx[i], rec_val[i], m, net, h, rel)
            # the target, turned to the observer's frame
            if params[P_INDIVIDUAL]:
                for r in range(4):
                    target[r] = targets[i, (o + r) % 4]
            else:
                target[0] = targets[i, o & 1]
                target[1] = targets[i, 1 - (o & 1)]
            for k in range(sides):
                dz[k] = rel[k] - target[k]
            for u in range(hidden):
                back = 0.0
                for k in range(sides):
                    back += w2[u, k] * dz[k]
                dh[u] = back * (1.0 - h[u] * h[u])
            for u in range(hidden):
                for k in range(sides):
                    w2[u, k] -= alpha * h[u] * dz[k]
            for k in range(sides):
                b2[k] -= alpha * dz[k]
            for a in range(m):
                row = rec_idx[i, a]
                v = alpha * rec_val[i, a]
                for u in range(hidden):
                    w1[row, u] -= v * dh[u]
                for k in range(sides):
                    w3[row, k] -= v * dz[k]
            for u in range(hidden):
                b1[u] -= alpha * dh[u]
        stats[2] += t


@jit
def match_games(
    start: Row, params: Row, p: float, hit: Floats, greedy_weights: Floats, bots: Row,
    net: Weights, seed: int, first_game: int, games: int, max_steps: int, winners: Row,
) -> None:  # fmt: skip
    """Play ``games`` games from ``start`` with ``bots[seat]`` (0 random, 1 greedy, 2 the
    network) and write each game's winner (-1 unfinished, -2 a draw)."""
    st = np.empty(STATE_SIZE, dtype=np.int32)
    mt_throws = np.empty(625, dtype=np.uint32)
    mt_choices = np.empty(625, dtype=np.uint32)
    work = new_work()
    occ_n, occ, acts, pool = work[0], work[1], work[2], work[3]
    ev = np.zeros((0, 8), dtype=np.int32)
    evn = np.zeros(2, dtype=np.int32)
    cowries = params[P_COWRIES]
    half = params[P_HALF] == 1
    for i in range(games):
        _seed_game(mt_throws, mt_choices, seed, first_game + i)
        for q in range(STATE_SIZE):
            st[q] = start[q]
        steps = 0
        while st[STAGE] != OVER_STAGE and steps < max_steps and not st[OVERFLOW]:
            steps += 1
            if st[STAGE] == THROW_STAGE or st[STAGE] == THROW_OFF_STAGE:
                apply_chance(st, params, throw_cowries(mt_throws, cowries, half, p), ev, evn)
                continue
            n = legal_actions(st, params, occ_n, occ, acts, pool)
            bot = bots[st[SEAT]]
            if bot == LEARNED_BOT:
                j = learned_choice(st, params, hit, greedy_weights, acts, n, net, mt_choices, 0.0)
            elif bot == GREEDY_BOT:
                j = greedy_choice(st, params, greedy_weights, hit, acts, n, mt_choices, work)
            else:
                j = randbelow(mt_choices, n)
            apply_action(st, params, acts[j], occ_n, occ, ev, evn)
        winners[i] = st[WINNER] if st[STAGE] == OVER_STAGE else -1
