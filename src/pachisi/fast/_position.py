"""Compiled questions about a position: who moves, who stands where, what a landing does.

The same rules as :mod:`pachisi.rules._position` and :mod:`pachisi.rules.deadlock`, over
one state row (:mod:`pachisi.fast.layout`) and the parameter vector
(:mod:`pachisi.fast.params`). Occupancy is built into caller-owned scratch arrays,
``occ_n[square]`` (how many pieces) and ``occ[square, i]`` (which, bottom to top), so that
nothing is allocated in the hot loop.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pachisi.fast._jit import inline, kernel, lowest_bit
from pachisi.fast.layout import KILLS, ORDER, ORDER_LEN, POS, REC_FIELDS, REC_LEN, RECS
from pachisi.fast.params import (
    CASTLE,
    P_BLOCKADE,
    P_CASTLE,
    P_COWRIES,
    P_FOR_PARTNER,
    P_INDIVIDUAL,
    P_KBH,
    P_STACK_IMMUNE,
    P_STACK_SET,
    P_STACKING,
    P_TABLE,
    P_TOP_ONE,
    P_VALUE_SLOT,
    PRIVATE,
    SQUARES,
    VALUE_SLOTS,
)

Row = npt.NDArray[np.int32]

HOME = 84
LAST_SQUARE = 83


@inline
def team(params: Row, seat: int) -> int:
    """R-TEAMS: seats 0+2 and 1+3 are partners; under V-INDIVIDUAL every seat is alone."""
    if params[P_INDIVIDUAL]:
        return seat
    return seat & 1


@inline
def enemy_pieces(params: Row, seat: int) -> int:
    """The pieces (bit ``4 * s + i``) of every seat ``s`` on another side than ``seat``'s
    (:func:`team`)."""
    mask = 0
    for s in range(4):
        if team(params, s) != team(params, seat):
            mask |= 0xF << (4 * s)
    return mask


@inline
def in_values(params: Row, mask: int, v: int) -> bool:
    """Whether the throw value ``v`` is in the value set given as a mask over ``k``: the
    bit of ``v``'s slot, since a set's mask has the bits of every ``k`` that throws it."""
    slot = value_slot(params, v)
    return slot >= 0 and (mask >> slot) & 1 == 1


@inline
def value_slot(params: Row, v: int) -> int:
    """The lowest ``k`` whose throw has the value ``v`` (-1 if none): the action codec's
    name for a value."""
    if 0 <= v < VALUE_SLOTS:
        return int(params[P_VALUE_SLOT + v])
    for k in range(params[P_COWRIES] + 1):
        if params[P_TABLE + k] == v:
            return k
    return -1


@inline
def seat_finished(st: Row, seat: int) -> bool:
    for i in range(4):
        if st[POS + 4 * seat + i] != HOME:
            return False
    return True


@inline
def on_board(st: Row, seat: int) -> bool:
    for i in range(4):
        p = st[POS + 4 * seat + i]
        if 1 <= p <= LAST_SQUARE:
            return True
    return False


@inline
def mover_of(st: Row, params: Row, seat: int) -> int:
    """The seat whose pieces ``seat``'s turn moves (V-PARTNER-THROWS)."""
    if params[P_FOR_PARTNER] and not params[P_INDIVIDUAL] and seat_finished(st, seat):
        return (seat + 2) % 4
    return seat


_USED = 96
USED_SQUARES = _USED
"""``occ_n[USED_SQUARES]`` squares hold pieces, listed from ``occ_n[USED_SQUARES + 1]`` on."""
SPLIT_CACHE = _USED + 1 + 16
"""``occ_n[SPLIT_CACHE]`` is the longest rest of a split throw whose answers for this
occupancy's position are cached in the slots after it, 0 for none
(:func:`pachisi.fast._legal.split_parts_by_sums`); a new fill clears it."""
SPLIT_CACHE_SIZE = 1 + 12 + 8
MEMO = SPLIT_CACHE + SPLIT_CACHE_SIZE
"""``occ_n[MEMO]`` is 1 + ``top_one`` while ``occ_n``/``occ`` hold the whole occupancy of
a position whose pieces (and, under ``top_one``, stack order) are kept after it, 0 while
they do not (:func:`occupancy_fresh`)."""
_MEMO_POS, _MEMO_ORDER_LEN, _MEMO_ORDER = MEMO + 1, MEMO + 17, MEMO + 18
OCC_N_SIZE = MEMO + 34
"""The length of an ``occ_n`` scratch array: 96 counts, then how many squares the last
fill used and which, so that the next fill clears only those (it starts as all zeros),
then the split cache, then the position the occupancy belongs to."""


@inline
def _occupy(occ_n: Row, occ: npt.NDArray[np.int32], g: int, sq: int) -> None:
    n = occ_n[sq]
    if n == 0:
        occ_n[_USED + 1 + occ_n[_USED]] = sq
        occ_n[_USED] += 1
    occ[sq, n] = g
    occ_n[sq] = n + 1


@inline
def _fill(st: Row, params: Row, occ_n: Row, occ: npt.NDArray[np.int32], only: int) -> None:
    """Clear the last fill, then fill the squares with pieces (only ``only``, if it is not
    -1), bottom to top under ``top_one``."""
    for j in range(occ_n[_USED]):
        occ_n[occ_n[_USED + 1 + j]] = 0
    occ_n[_USED] = 0
    occ_n[SPLIT_CACHE] = 0
    top_one = params[P_TOP_ONE]
    for j in range(st[ORDER_LEN] if top_one else 16):
        g = st[ORDER + j] if top_one else j
        p = st[POS + g]
        if 0 < p < HOME:
            sq = SQUARES[g >> 2, p]
            if only < 0 or sq == only:
                _occupy(occ_n, occ, g, sq)


@inline
def occupancy_fresh(st: Row, params: Row, occ_n: Row) -> bool:
    """Whether ``occ_n``/``occ`` already hold the whole occupancy of ``st``: they were
    filled (or kept up to date, :func:`relocate`) for a position with the same pieces on
    the same progress and, under ``top_one``, the same stack order, which is all the
    occupancy depends on. The test compares contents, so it holds for any row: a copy, a
    row of a batch, a row written from Python."""
    top_one = params[P_TOP_ONE]
    if occ_n[MEMO] != 1 + top_one:
        return False
    diff = 0
    for g in range(16):
        diff |= st[POS + g] ^ occ_n[_MEMO_POS + g]
    if top_one:
        diff |= st[ORDER_LEN] ^ occ_n[_MEMO_ORDER_LEN]
        if diff == 0:
            for j in range(st[ORDER_LEN]):
                diff |= st[ORDER + j] ^ occ_n[_MEMO_ORDER + j]
    return diff == 0


@inline
def _remember(st: Row, params: Row, occ_n: Row) -> None:
    """Record that ``occ_n``/``occ`` hold the whole occupancy of ``st`` as it is now."""
    occ_n[MEMO] = 1 + params[P_TOP_ONE]
    for g in range(16):
        occ_n[_MEMO_POS + g] = st[POS + g]
    if params[P_TOP_ONE]:
        occ_n[_MEMO_ORDER_LEN] = st[ORDER_LEN]
        for j in range(st[ORDER_LEN]):
            occ_n[_MEMO_ORDER + j] = st[ORDER + j]


@kernel
def occupancy(st: Row, params: Row, occ_n: Row, occ: npt.NDArray[np.int32]) -> None:
    """Fill ``occ_n``/``occ``: the pieces on every square, bottom to top under ``top_one``;
    nothing to do when they hold ``st``'s already (:func:`occupancy_fresh`). The split
    cache is cleared either way: it also depends on more than the occupancy."""
    occ_n[SPLIT_CACHE] = 0
    if occupancy_fresh(st, params, occ_n):
        return
    _fill(st, params, occ_n, occ, -1)
    _remember(st, params, occ_n)


@kernel
def occupancy_at(st: Row, params: Row, occ_n: Row, occ: npt.NDArray[np.int32], sq: int) -> None:
    """:func:`occupancy` for the square ``sq`` alone, every other square reading as empty:
    all a landing there needs (:func:`landing` looks at its own square only), for a move
    whose scratch does not hold the whole occupancy already; a full fill follows before
    anything else reads the board."""
    occ_n[MEMO] = 0
    _fill(st, params, occ_n, occ, sq)


@inline
def _unoccupy(occ_n: Row, occ: npt.NDArray[np.int32], g: int, sq: int) -> None:
    """Take piece ``g`` off ``sq``, the others keeping their order."""
    n = occ_n[sq]
    found = False
    for j in range(n):
        if found:
            occ[sq, j - 1] = occ[sq, j]
        elif occ[sq, j] == g:
            found = True
    if not found:
        # Under top_one a fill shows only the pieces of the stack order.
        return
    occ_n[sq] = n - 1
    if n == 1:
        used = occ_n[_USED]
        for q in range(used):
            if occ_n[_USED + 1 + q] == sq:
                occ_n[_USED + 1 + q] = occ_n[_USED + used]
                break
        occ_n[_USED] = used - 1


@inline
def _occupy_in_order(
    occ_n: Row, occ: npt.NDArray[np.int32], g: int, sq: int, top_one: bool
) -> None:
    """Put piece ``g`` on ``sq`` where a fill would: on top under ``top_one`` (it was the
    last to arrive), else by its number."""
    n = occ_n[sq]
    if n == 0:
        occ_n[_USED + 1 + occ_n[_USED]] = sq
        occ_n[_USED] += 1
    j = n
    if not top_one:
        while j > 0 and occ[sq, j - 1] > g:
            occ[sq, j] = occ[sq, j - 1]
            j -= 1
    occ[sq, j] = g
    occ_n[sq] = n + 1


@inline
def relocate(
    st: Row,
    params: Row,
    occ_n: Row,
    occ: npt.NDArray[np.int32],
    seat: int,
    moved: int,
    frm: int,
    captured: int,
    sq: int,
) -> None:
    """Keep a fresh occupancy (:func:`occupancy_fresh`) up to date after a move or an
    entry, instead of filling it again: ``seat``'s pieces ``moved`` (a mask over all 16)
    left progress ``frm`` (0: they were waiting) for the square ``sq`` (-1: home), and the
    pieces ``captured`` left ``sq``. ``st`` is the row after the move; the pieces arrive
    in the order a fill would put them."""
    top_one = params[P_TOP_ONE] == 1
    if 0 < frm < HOME:
        left = SQUARES[seat, frm]
        bits = moved
        while bits:
            _unoccupy(occ_n, occ, lowest_bit(bits), left)
            bits &= bits - 1
    bits = captured
    while bits:
        _unoccupy(occ_n, occ, lowest_bit(bits), sq)
        bits &= bits - 1
    if sq >= 0:
        bits = moved
        while bits:
            _occupy_in_order(occ_n, occ, lowest_bit(bits), sq, top_one)
            bits &= bits - 1
    occ_n[SPLIT_CACHE] = 0
    # Only the pieces that moved or were captured changed progress.
    bits = moved | captured
    while bits:
        g = lowest_bit(bits)
        occ_n[_MEMO_POS + g] = st[POS + g]
        bits &= bits - 1
    if top_one:
        occ_n[_MEMO_ORDER_LEN] = st[ORDER_LEN]
        for j in range(st[ORDER_LEN]):
            occ_n[_MEMO_ORDER + j] = st[ORDER + j]


@inline
def stacking_allows(params: Row, friendly: int, sq: int) -> bool:
    """V-STACK-RESTRICTED: may ``friendly`` friendly pieces stand together on ``sq``."""
    mode = params[P_STACKING]
    if mode == 0 or friendly <= 1:
        return True
    if mode == 2:
        return False
    if mode == 1:
        return bool(CASTLE[sq])
    return bool(params[P_STACK_SET + sq] == 1)


@kernel
def _two_of_one_side(params: Row, pieces: int) -> bool:
    seen = 0
    for g in range(16):
        if (pieces >> g) & 1:
            t = team(params, g >> 2)
            if (seen >> t) & 1:
                return True
            seen |= 1 << t
    return False


@kernel
def blockade_at(params: Row, occ_n: Row, occ: npt.NDArray[np.int32], sq: int) -> bool:
    """V-BLOCKADE: two or more friendly pieces on a loop square."""
    n = occ_n[sq]
    if n < 2 or PRIVATE[sq]:
        return False
    here = 0
    for j in range(n):
        here |= 1 << occ[sq, j]
    return _two_of_one_side(params, here)


@kernel
def passes_blockade(
    params: Row, occ_n: Row, occ: npt.NDArray[np.int32], seat: int, p: int, t: int, lap: bool
) -> bool:
    """Whether a single piece moving from ``p`` to ``t`` passes over a blockade."""
    if lap:
        for q in range(p + 1, 76):
            if blockade_at(params, occ_n, occ, SQUARES[seat, q]):
                return True
        for q in range(8, t - 68):
            if blockade_at(params, occ_n, occ, SQUARES[seat, q]):
                return True
        return False
    for q in range(p + 1, min(t, HOME)):
        if blockade_at(params, occ_n, occ, SQUARES[seat, q]):
            return True
    return False


@kernel
def landing(
    params: Row, occ_n: Row, occ: npt.NDArray[np.int32], seat: int, n_moving: int, sq: int
) -> int:
    """Resolve a landing on ``sq``: -1 if illegal, else the mask of the pieces it captures.

    R-MOVE item 4, R-CASTLE-BLOCK, R-CASTLE-SAFE, R-CAPTURE, V-STACK-RESTRICTED,
    V-STACK-IMMUNE and V-BLOCKADE, as :func:`pachisi.rules._position.landing`.
    """
    return landing_inline(params, occ_n, occ, seat, n_moving, sq)


@inline
def landing_inline(
    params: Row, occ_n: Row, occ: npt.NDArray[np.int32], seat: int, n_moving: int, sq: int
) -> int:
    """:func:`landing`, inlined where every legal list asks it: a piece's move."""
    n = occ_n[sq]
    mine = team(params, seat)
    enemies = 0
    n_enemies = 0
    for j in range(n):
        g = occ[sq, j]
        if team(params, g >> 2) != mine:
            enemies |= 1 << g
            n_enemies += 1
    if not stacking_allows(params, n - n_enemies + n_moving, sq):
        return -1
    if n_enemies == 0:
        return 0
    castle = CASTLE[sq]
    mode = params[P_CASTLE]
    if castle and mode == 0:
        return -1
    blockaded = (
        params[P_BLOCKADE] == 1
        and blockade_at(params, occ_n, occ, sq)
        and _two_of_one_side(params, enemies)
    )
    if blockaded and n_moving < 2:
        return -1
    if castle and mode == 1:
        return 0
    if blockaded and castle:
        return -1
    if params[P_STACK_IMMUNE] and n_moving == 1 and n_enemies >= 2:
        return -1
    if params[P_TOP_ONE]:
        top = occ[sq, n - 1]
        return (1 << top) if team(params, top >> 2) != mine else 0
    return enemies


@kernel
def top_piece(st: Row, sq: int) -> int:
    """The top piece on ``sq`` under a kept stack order (C.11), or -1: the last to arrive."""
    for j in range(st[ORDER_LEN] - 1, -1, -1):
        g = st[ORDER + j]
        p = st[POS + g]
        if 0 < p < HOME and SQUARES[g >> 2, p] == sq:
            return int(g)
    return -1


@inline
def credits(st: Row, params: Row, seat: int) -> int:
    if params[P_KBH] == 2 and not params[P_INDIVIDUAL]:
        return int(st[KILLS + seat] + st[KILLS + (seat + 2) % 4])
    return int(st[KILLS + seat])


@inline
def may_go_home(st: Row, params: Row, seat: int) -> bool:
    """V-KILL-BEFORE-HOME: the final step needs a kill credit."""
    return params[P_KBH] == 0 or credits(st, params, seat) >= 1


@inline
def record_pieces(st: Row) -> int:
    """The pieces named by any capture record (they are told apart from their twins)."""
    mask = 0
    for r in range(st[REC_LEN]):
        mask |= st[RECS + r * REC_FIELDS + 1]
    return mask


# --------------------------------------------------------------------------- R-DEADLOCK


@inline
def seat_blocked(st: Row, params: Row, seat: int) -> bool:
    """As :func:`pachisi.rules.deadlock.seat_blocked`."""
    if params[P_KBH] == 0 or seat_finished(st, seat):
        return False
    pooled = params[P_KBH] == 2 and not params[P_INDIVIDUAL]
    partner = (seat + 2) % 4
    if st[KILLS + seat] or (pooled and st[KILLS + partner]):
        return False
    capturer = False
    for i in range(4):
        if st[POS + 4 * seat + i] <= 75 or (pooled and st[POS + 4 * partner + i] <= 75):
            capturer = True
    if not capturer:
        return True
    limit = 76 if params[P_CASTLE] == 2 else 75
    mine = team(params, seat)
    for g in range(16):
        if team(params, g >> 2) != mine and st[POS + g] <= limit:
            return False
    return True


@inline
def every_side_blocked(st: Row, params: Row) -> bool:
    if params[P_KBH] == 0:
        return False
    if params[P_INDIVIDUAL]:
        for s in range(4):
            if not seat_blocked(st, params, s):
                return False
        return True
    for t in range(2):
        if not (seat_blocked(st, params, t) or seat_blocked(st, params, t + 2)):
            return False
    return True
