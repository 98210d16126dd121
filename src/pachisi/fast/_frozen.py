"""Compiled R-FROZEN: a board on which no piece can ever move again ends the game.

The port of :mod:`pachisi.rules.frozen`. A seat is stuck when, for every value of the
score table, a throw of it as the seat's only throw (immediate mode) or only item
(collect mode) would leave it nothing but to decline; the position is frozen when every
seat that still takes turns is stuck. The exact test throws each value on a copy of the
row with the engine's own throw (:func:`pachisi.fast._throws.throw`) and asks the engine's
own legal actions. A cheap sufficient test comes first and settles almost every position:
a piece that can make an ordinary move, or a waiting piece that can enter, by some value.
The two engines' cheap tests need not agree; their answers do, because the exact test
decides whatever the cheap one leaves open.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pachisi.fast._codec import DECLINE_ID
from pachisi.fast._jit import inline, jit, kernel
from pachisi.fast._legal import (
    entry_progress,
    entry_target,
    move_legal_inline,
    new_pool,
    pyada_uses,
    raw_legal_actions,
    waiting,
)
from pachisi.fast._ops import fresh_turn, takes_turns
from pachisi.fast._position import (
    HOME,
    LAST_SQUARE,
    OCC_N_SIZE,
    mover_of,
    occupancy,
    value_slot,
)
from pachisi.fast._throws import end_throwing, throw
from pachisi.fast.layout import (
    ACT_STAGE,
    ENTERED,
    ITEMS_LEN,
    NO_WINNER,
    POS,
    PYADAS,
    SEAT,
    SPEND_STAGE,
    STAGE,
    THROW_OFF_STAGE,
    THROW_STAGE,
    WINNER,
)
from pachisi.fast.params import (
    P_COLLECT,
    P_COWRIES,
    P_ENTRY,
    P_LUDII,
    P_PYADA,
    P_PYADA_ATTACHED,
    P_TABLE,
)

Row = npt.NDArray[np.int32]
Occ = npt.NDArray[np.int32]


@inline
def _distinct(params: Row, k: int) -> bool:
    """Whether ``k`` is the lowest number of mouths up that throws its value."""
    return value_slot(params, params[P_TABLE + k]) == k


@inline
def can_use_something(st: Row, params: Row, occ_n: Row, occ: Occ, seat: int) -> bool:
    """A sufficient test that ``seat`` is not stuck: a piece of its mover on the board can
    make an ordinary move by some value (R-MOVE, as the legal moves ask it), or a waiting
    piece can enter with an entry value other than a 7 or 14 (which may be void).

    ``occ_n``/``occ`` must hold ``st``'s occupancy. Under Ludii's flow (E.2 item 5) a
    piece on the board moves by any value that keeps it on the board, which is what that
    flow's legal moves list. Moves under an attached pyada (which add a step) are left to
    the exact test.
    """
    m = mover_of(st, params, seat)
    cowries = params[P_COWRIES]
    if params[P_LUDII]:
        if not (st[ENTERED] >> m) & 1:
            return False
        for i in range(4):
            p = st[POS + 4 * m + i]
            if 0 < p < HOME:
                for k in range(cowries + 1):
                    if p + params[P_TABLE + k] <= LAST_SQUARE:
                        return True
        return False
    if not (params[P_PYADA] and params[P_PYADA_ATTACHED]):
        for i in range(4):
            g = 4 * m + i
            p = st[POS + g]
            if 1 <= p <= LAST_SQUARE:
                for k in range(cowries + 1):
                    if _distinct(params, k) and move_legal_inline(
                        st, params, occ_n, occ, m, g, 1, params[P_TABLE + k]
                    ):
                        return True
    if waiting(st, m) >= 0:
        for k in range(cowries + 1):
            v = params[P_TABLE + k]
            if (
                (params[P_ENTRY] >> k) & 1
                and v != 7
                and v != 14
                and entry_target(st, params, occ_n, occ, m, entry_progress(params, v)) >= 0
            ):
                return True
    return False


@kernel
def is_frozen(st: Row, params: Row, occ_n: Row, occ: Occ) -> bool:
    """R-FROZEN's test for ``st`` (False during the throw-off); ``occ_n``/``occ`` are the
    caller's occupancy scratch, filled here."""
    if st[STAGE] == THROW_OFF_STAGE:
        return False
    occupancy(st, params, occ_n, occ)
    seats = 0
    for j in range(4):
        seat = (st[SEAT] + j) % 4
        if takes_turns(st, params, seat):
            if can_use_something(st, params, occ_n, occ, seat):
                return False
            seats |= 1 << seat
    return all_stuck(st, params, seats)


@jit
def frozen_alone(st: Row, params: Row) -> bool:
    """:func:`is_frozen` with scratch of its own, for callers that have none (a throw)."""
    occ_n = np.zeros(OCC_N_SIZE, dtype=np.int32)
    occ = np.zeros((96, 16), dtype=np.int32)
    return is_frozen(st, params, occ_n, occ)


@jit
def all_stuck(st: Row, params: Row, seats: int) -> bool:
    """The exact test for every seat in the bitmask ``seats``: each throws every value
    once, as the first throw of a turn on this board, on a copy of the row."""
    occ_n = np.zeros(OCC_N_SIZE, dtype=np.int32)
    occ = np.zeros((96, 16), dtype=np.int32)
    out = np.zeros(4096, dtype=np.int32)
    pool = new_pool()
    ev = np.zeros((0, 8), dtype=np.int32)
    evn = np.zeros(2, dtype=np.int32)
    fresh = np.empty_like(st)
    trial = np.empty_like(st)
    for seat in range(4):
        if not (seats >> seat) & 1:
            continue
        fresh[:] = st
        _turn_of(fresh, params, seat)
        for k in range(params[P_COWRIES] + 1):
            if not _distinct(params, k):
                continue
            trial[:] = fresh
            if not _single_throw(trial, params, k, ev, evn):
                continue
            n = raw_legal_actions(trial, params, occ_n, occ, out, pool)
            for j in range(n):
                if out[j] != DECLINE_ID:
                    return False
            if trial[STAGE] == ACT_STAGE and trial[PYADAS] and not params[P_PYADA_ATTACHED]:
                # Immediate mode, free pyada: after the throw (declined) comes its step.
                occupancy(trial, params, occ_n, occ)
                m = mover_of(trial, params, seat)
                if pyada_uses(trial, params, occ_n, occ, m, out, 0) > 0:
                    return False
    return True


@inline
def _turn_of(st: Row, params: Row, seat: int) -> None:
    """``seat`` about to make the first throw of a turn on this board."""
    st[SEAT] = seat
    st[WINNER] = NO_WINNER
    fresh_turn(st, params)


@inline
def _single_throw(st: Row, params: Row, k: int, ev: Occ, evn: Row) -> bool:
    """Throw ``k`` as the only throw or collected item of the turn in ``st``; False if it
    is void (V-7-14-NEEDS-PIECE)."""
    seat = st[SEAT]
    throw(st, params, k, ev, evn)
    if params[P_COLLECT]:
        if st[STAGE] == THROW_STAGE and st[SEAT] == seat and st[ITEMS_LEN]:
            # A grace would throw on; the test takes it as the phase's only throw.
            end_throwing(st, params, ev, evn)
        return bool(st[STAGE] == SPEND_STAGE and st[ITEMS_LEN] > 0)
    return bool(st[STAGE] == ACT_STAGE)
