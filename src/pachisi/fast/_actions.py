"""Compiled legal actions, one per outcome: what every game loop and entry point lists.

:func:`pachisi.fast._legal.raw_legal_actions` lists every use of the throw or the items in
the reference engine's order; here C.10b's "one outcome, one action" is applied on top,
as :func:`pachisi.rules.engine.legal_actions` does: in the spending stage, of two actions
whose resulting states are equal (the items and pyadas an action leaves lapse when it ends
the turn or the game), only the first is listed. Only actions that take the same pieces to
the same progress can give equal states, so only those are played out and compared, which
is rare; every other list is the raw one.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pachisi.fast._codec import K_DECLINE, K_ENTER, K_EXIT, K_FREE, K_LAP, decode
from pachisi.fast._jit import inline, jit, kernel
from pachisi.fast._legal import Pool, raw_legal_inline
from pachisi.fast._position import HOME, OCC_N_SIZE, mover_of
from pachisi.fast._step import apply_action
from pachisi.fast.layout import (
    ITEMS,
    ITEMS_LEN,
    ORDER,
    ORDER_LEN,
    OVERFLOW,
    POS,
    REC_FIELDS,
    REC_LEN,
    RECS,
    SEAT,
    SPEND_STAGE,
    STAGE,
    STATE_SIZE,
    THROW_K,
)
from pachisi.fast.params import P_TABLE

Row = npt.NDArray[np.int32]
Occ = npt.NDArray[np.int32]

__all__ = ["legal_actions", "legal_inline"]


@kernel
def legal_actions(st: Row, params: Row, occ_n: Row, occ: Occ, out: Row, pool: Pool) -> int:
    """Every distinct legal action of the seat to act, in the reference engine's order;
    the ids go to ``out`` (which needs room for twice their number), the count is returned."""
    return legal_inline(st, params, occ_n, occ, out, pool)


@inline
def legal_inline(st: Row, params: Row, occ_n: Row, occ: Occ, out: Row, pool: Pool) -> int:
    """:func:`legal_actions`, inlined into a game loop."""
    n = raw_legal_inline(st, params, occ_n, occ, out, pool)
    if st[STAGE] == SPEND_STAGE and n > 2 and _keys_collide(st, params, out, n):
        n = _one_per_outcome(st, params, out, n)
    return n


@inline
def _landing_key(st: Row, params: Row, a: int) -> int:
    """The pieces an action moves and the progress it takes them to, as one number: equal
    resulting states have equal keys (every entry has one key: the lowest waiting piece
    enters, whichever item it uses)."""
    kind, piece, slot, size, steps, pyada = decode(a)
    if kind == K_DECLINE:
        return -1
    if kind in (K_ENTER, K_FREE):
        return -2
    m = mover_of(st, params, st[SEAT])
    p = st[POS + 4 * m + piece]
    if kind == K_EXIT:
        t = HOME
    elif pyada:
        t = p + 1
    elif steps:
        t = p + steps
    elif kind == K_LAP:
        t = p + params[P_TABLE + slot] - 68 + 1000
    else:
        t = p + params[P_TABLE + slot]
    return (t * 4 + piece) * 8 + size


@kernel
def _keys_collide(st: Row, params: Row, out: Row, n: int) -> bool:
    """Whether two of the ``n`` actions in ``out`` share a key; the keys are left in
    ``out[n:2n]``."""
    for i in range(n):
        out[n + i] = _landing_key(st, params, out[i])
    for i in range(1, n):
        for j in range(i):
            if out[n + i] == out[n + j]:
                return True
    return False


@jit
def _one_per_outcome(st: Row, params: Row, out: Row, n: int) -> int:
    """Drop every action whose resulting state equals that of an earlier kept one; the
    keys are in ``out[n:2n]``. Returns how many actions are left at the start of ``out``."""
    keys = out[n : 2 * n].copy()
    rows = np.empty((n, STATE_SIZE), dtype=np.int32)
    kept_at = np.zeros(n, dtype=np.bool_)
    occ_n = np.zeros(OCC_N_SIZE, dtype=np.int32)
    occ = np.zeros((96, 16), dtype=np.int32)
    ev = np.zeros((0, 8), dtype=np.int32)
    evn = np.zeros(2, dtype=np.int32)
    kept = 0
    for i in range(n):
        a = out[i]
        shared = False
        for j in range(n):
            if j != i and keys[j] == keys[i]:
                shared = True
                break
        if shared:
            rows[i, :] = st
            evn[:] = 0
            apply_action(rows[i], params, a, occ_n, occ, ev, evn)
            same = False
            for j in range(i):
                if kept_at[j] and keys[j] == keys[i] and same_state(rows[i], rows[j]):
                    same = True
                    break
            if same:
                continue
        kept_at[i] = True
        out[kept] = a
        kept += 1
    return kept


@kernel
def same_state(a: Row, b: Row) -> bool:
    """Whether two rows hold the same state: every field the reference state has, the
    used parts of the lists only, and not the derived ``SETTLED``."""
    for q in range(ORDER):
        if a[q] != b[q]:
            return False
    if a[ORDER_LEN] != b[ORDER_LEN] or a[REC_LEN] != b[REC_LEN] or a[ITEMS_LEN] != b[ITEMS_LEN]:
        return False
    for j in range(a[ORDER_LEN]):
        if a[ORDER + j] != b[ORDER + j]:
            return False
    for q in range(ORDER_LEN + 1, RECS):
        if a[q] != b[q]:
            return False
    for q in range(RECS, RECS + a[REC_LEN] * REC_FIELDS):
        if a[q] != b[q]:
            return False
    for q in range(THROW_K, ITEMS):
        if a[q] != b[q]:
            return False
    for j in range(a[ITEMS_LEN]):
        if a[ITEMS + j] != b[ITEMS + j]:
            return False
    return bool(a[OVERFLOW] == b[OVERFLOW])
