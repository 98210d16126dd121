"""Compiled legal actions: the port of :mod:`pachisi.rules._legal`, in the same order.

The order matters as much as the set: a random player picks an index into the list, so
both engines must list the same actions in the same order for a seeded game to be the
same game. Actions are ids of :mod:`pachisi.fast._codec`, written to ``out``; the
functions return how many they wrote.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pachisi.fast._codec import (
    DECLINE_ID,
    ENTER_BASE,
    FREE_BASE,
    PYADA_ENTER_ID,
    PYADA_MOVE_BASE,
    exit_id,
    group_id,
    lap_id,
    move_id,
    part_id,
)
from pachisi.fast._jit import inline, jit, kernel, lowest_bit, popcount, reverse32
from pachisi.fast._ops import move
from pachisi.fast._position import (
    HOME,
    LAST_SQUARE,
    OCC_N_SIZE,
    SPLIT_CACHE,
    enemy_pieces,
    in_values,
    landing,
    landing_inline,
    may_go_home,
    mover_of,
    occupancy,
    passes_blockade,
    record_pieces,
    stacking_allows,
    team,
    value_slot,
)
from pachisi.fast.layout import (
    ACT_STAGE,
    ENTERED,
    ITEMS,
    ITEMS_LEN,
    LAPS,
    POS,
    PYADA_STAGE,
    PYADAS,
    SEAT,
    SPEND_STAGE,
    SPLIT_LEFT,
    SPLIT_USED,
    SPLIT_VALUE,
    STAGE,
    STATE_SIZE,
    THROW_K,
)
from pachisi.fast.params import (
    P_BLOCKADE,
    P_COMPULSORY,
    P_ENTRY,
    P_ENTRY_MODE,
    P_EXTRA_LAP,
    P_FIRST_FREE,
    P_GRACE_MUST_ENTER,
    P_KBH,
    P_LSE,
    P_LSE_LUDII,
    P_LUDII,
    P_PYADA_ATTACHED,
    P_PYADA_ENTER,
    P_REROLL,
    P_SPLIT,
    P_STACKING,
    P_TABLE,
    P_TOP_ONE,
    PROGRESS_ON,
    SQUARES,
)

Row = npt.NDArray[np.int32]
Occ = npt.NDArray[np.int32]
Pool = tuple[
    npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int32]
]
"""Split-search scratch, one level per row: state rows, occupancy counts (with an event
count and the level's search position), occupancy; and an empty event buffer, for moves
whose events nobody reads."""

LUDII_ENTRY = 13


@inline
def movable(st: Row, params: Row, m: int, exclude: int) -> int:
    """The mover's pieces on the board (a bitmask over a..d), one per group of
    interchangeable pieces; ``exclude`` leaves pieces out before grouping."""
    mask = 0
    if params[P_LUDII]:
        for i in range(4):
            p = st[POS + 4 * m + i]
            if 0 < p < HOME and not (exclude >> i) & 1:
                mask |= 1 << i
        return mask
    in_records = record_pieces(st)
    for i in range(4):
        g = 4 * m + i
        p = st[POS + g]
        if 0 < p < HOME and not (exclude >> i) & 1:
            same = False
            for j in range(i):
                h = 4 * m + j
                if (
                    (mask >> j) & 1
                    and st[POS + h] == p
                    and (st[LAPS] >> h) & 1 == (st[LAPS] >> g) & 1
                    and (in_records >> h) & 1 == (in_records >> g) & 1
                ):
                    same = True
                    break
            if not same:
                mask |= 1 << i
    return mask


@kernel
def waiting(st: Row, m: int) -> int:
    """The waiting piece with the lowest letter (C.10a step 5), or -1."""
    for i in range(4):
        if st[POS + 4 * m + i] == 0:
            return i
    return -1


@kernel
def move_legal(
    st: Row, params: Row, occ_n: Row, occ: Occ, m: int, g: int, n_moving: int, k: int
) -> bool:
    """R-MOVE for ``n_moving`` pieces of ``m`` on the progress of piece ``g`` moving ``k``."""
    return move_legal_inline(st, params, occ_n, occ, m, g, n_moving, k)


@inline
def move_legal_inline(
    st: Row, params: Row, occ_n: Row, occ: Occ, m: int, g: int, n_moving: int, k: int
) -> bool:
    """:func:`move_legal`, inlined where every action list asks it: a throw's moves."""
    p = st[POS + g]
    t = p + k
    if t > HOME:
        return False
    if params[P_BLOCKADE] and n_moving == 1 and passes_blockade(params, occ_n, occ, m, p, t, False):
        return False
    if t == HOME:
        return may_go_home(st, params, g >> 2)
    return landing_inline(params, occ_n, occ, m, n_moving, SQUARES[m, t]) >= 0


@inline
def entry_progress(params: Row, v: int) -> int:
    """Where an entry grace puts a piece (R-ENTRY-CONSUMES, R-TRACK)."""
    if params[P_LUDII]:
        return LUDII_ENTRY
    mode = params[P_ENTRY_MODE]
    if mode == 0:
        return 1
    if mode == 1:
        return 1 + v
    return v


@kernel
def entry_target(st: Row, params: Row, occ_n: Row, occ: Occ, m: int, t: int) -> int:
    """-1 if an entry to ``t`` is illegal, else what it captures (R-ENTRY-SQUARE1)."""
    if t > LAST_SQUARE:
        return -1
    sq = SQUARES[m, t]
    if params[P_LUDII] or (params[P_ENTRY_MODE] == 0 and (t == 1 or t == LUDII_ENTRY)):
        if params[P_STACKING] != 0:
            mine = team(params, m)
            friends = 0
            for j in range(occ_n[sq]):
                if team(params, occ[sq, j] >> 2) == mine:
                    friends += 1
            if not stacking_allows(params, friends + 1, sq):
                return -1
        return 0
    return landing(params, occ_n, occ, m, 1, sq)


@kernel
def _free_use(st: Row, params: Row, occ_n: Row, occ: Occ, m: int, v: int, bonus: int) -> int:
    """The first piece's entry without a grace (R-FIRST-PIECE-FREE): its id or -1."""
    i = waiting(st, m)
    if i < 0:
        return -1
    mode = params[P_FIRST_FREE]
    slot = value_slot(params, v)
    if mode == 3:
        return FREE_BASE + slot if LUDII_ENTRY - 1 + v <= LAST_SQUARE else -1
    if in_values(params, params[P_ENTRY], v):
        return -1
    if mode == 0:
        t = v + bonus
        if t > LAST_SQUARE or landing(params, occ_n, occ, m, 1, SQUARES[m, t]) < 0:
            return -1
    elif mode == 1 and entry_target(st, params, occ_n, occ, m, 1) < 0:
        return -1
    return FREE_BASE + slot


@inline
def value_uses(
    st: Row,
    params: Row,
    occ_n: Row,
    occ: Occ,
    m: int,
    v: int,
    bonus: int,
    out: Row,
    n: int,
    pool: Pool,
) -> int:
    """Every use of a throw of value ``v`` by seat ``m`` (C.10a step 5), after ``out[:n]``."""
    if params[P_LUDII]:
        return ludii_uses(st, params, m, v, out, n)
    start = n
    steps = v + bonus
    slot = value_slot(params, v)
    pieces = movable(st, params, m, 0)
    # A new split needs two pieces on the board. Where its parts will be summed, the
    # sums' cache of every piece's single moves answers the whole throw's moves too (the
    # same landings, looked at once).
    splits = params[P_SPLIT] == 1 and not bonus and v >= 2 and _two_on_board(st, m)
    split = splits and parts_independent(params, v)
    credit = False
    if split:
        if occ_n[SPLIT_CACHE] < v:
            _fill_split_cache(st, params, occ_n, occ, m, v, pieces)
        credit = may_go_home(st, params, m)
    for i in range(4):
        if not (pieces >> i) & 1:
            continue
        g = 4 * m + i
        p = st[POS + g]
        if split:
            home = _cached(occ_n, _HOMES + i) if credit else 0
            reach = _cached(occ_n, _PLAIN + i) | _cached(occ_n, _TAKES + i) | home
            legal = (reach >> steps) & 1 == 1
        else:
            legal = move_legal_inline(st, params, occ_n, occ, m, g, 1, steps)
        if legal:
            out[n] = move_id(i, slot)
            n += 1
        if params[P_EXTRA_LAP] and not (st[LAPS] >> g) & 1 and p <= 75 and p + steps >= 76:
            t = p + steps - 68
            if (
                t <= LAST_SQUARE
                and not (
                    params[P_BLOCKADE]
                    and passes_blockade(params, occ_n, occ, m, p, p + steps, True)
                )
                and landing(params, occ_n, occ, m, 1, SQUARES[m, t]) >= 0
            ):
                out[n] = lap_id(i, slot)
                n += 1
        if (
            p == LAST_SQUARE
            and not params[P_LSE_LUDII]
            and (params[P_LSE] >> slot) & 1
            and steps != 1
            and may_go_home(st, params, m)
        ):
            out[n] = exit_id(i, slot)
            n += 1
    if params[P_SPLIT] == 2:
        n = _group_uses(st, params, occ_n, occ, m, steps, slot, out, n)
    if splits:
        n = _split_parts(st, params, occ_n, occ, m, v, v, out, n, True, pool, pieces)
    free = -1
    if not (st[ENTERED] >> m) & 1 and params[P_FIRST_FREE] != 2:
        free = _free_use(st, params, occ_n, occ, m, v, bonus)
    enter = -1
    # in_values(params, mask, v) is the mask's bit at v's slot: the slot is v's lowest k.
    grace = (params[P_ENTRY] >> slot) & 1 == 1
    if grace:
        i = waiting(st, m)
        if i >= 0 and entry_target(st, params, occ_n, occ, m, entry_progress(params, v)) >= 0:
            enter = ENTER_BASE + slot
    if params[P_GRACE_MUST_ENTER] and (free >= 0 or enter >= 0) and grace:
        # V-GRACE-MUST-ENTER: no move of any kind with the grace, split parts included.
        n = start
    if free >= 0:
        out[n] = free
        n += 1
    if enter >= 0:
        out[n] = enter
        n += 1
    return n


@inline
def _two_on_board(st: Row, m: int) -> bool:
    """Whether two or more of ``m``'s pieces are on the board: a new split needs them."""
    count = 0
    for i in range(4):
        if 0 < st[POS + 4 * m + i] < HOME:
            count += 1
    return count >= 2


@kernel
def _group_uses(
    st: Row, params: Row, occ_n: Row, occ: Occ, m: int, steps: int, slot: int, out: Row, n: int
) -> int:
    """Two or more own pieces on the same progress moving together (V-SPLIT-THROW group)."""
    done = 0
    for i in range(4):
        p = st[POS + 4 * m + i]
        if not 0 < p < HOME or (done >> i) & 1:
            continue
        members = 0
        for j in range(i, 4):
            if st[POS + 4 * m + j] == p:
                members += 1
                done |= 1 << j
        for size in range(2, members + 1):
            if move_legal(st, params, occ_n, occ, m, 4 * m + i, size, steps):
                out[n] = group_id(i, size, slot)
                n += 1
    return n


@kernel
def pyada_uses(st: Row, params: Row, occ_n: Row, occ: Occ, m: int, out: Row, n: int) -> int:
    """A pyada: one step for any piece, or an entry with ``pyada_can_enter`` (V-PYADA)."""
    pieces = movable(st, params, m, 0)
    for i in range(4):
        if (pieces >> i) & 1 and move_legal(st, params, occ_n, occ, m, 4 * m + i, 1, 1):
            out[n] = PYADA_MOVE_BASE + i
            n += 1
    if params[P_PYADA_ENTER]:
        i = waiting(st, m)
        if i >= 0 and entry_target(st, params, occ_n, occ, m, 1) >= 0:
            out[n] = PYADA_ENTER_ID
            n += 1
    return n


@inline
def ludii_uses(st: Row, params: Row, m: int, v: int, out: Row, n: int) -> int:
    """Ludii's main-phase moves for one throw (E.2 item 5)."""
    k = st[THROW_K]
    grace = in_values(params, params[P_REROLL], v)
    slot = value_slot(params, v)
    for i in range(4):
        p = st[POS + 4 * m + i]
        if not 0 < p < HOME:
            continue
        if p + k == HOME and k == v:
            out[n] = move_id(i, slot)
            n += 1
        elif p == LAST_SQUARE and grace:
            out[n] = exit_id(i, slot)
            n += 1
        elif p + v <= LAST_SQUARE:
            out[n] = move_id(i, slot)
            n += 1
    if grace and waiting(st, m) >= 0:
        out[n] = ENTER_BASE + slot
        n += 1
    return n


# --------------------------------------------------------------------------- split throws

SPLIT_DEPTH = 6
"""Levels of the split search's scratch pool: each level moves one more piece (4 at most)."""


@jit
def new_pool() -> Pool:
    """Scratch for the split search: a state row, occupancy and an event count per level."""
    return (
        np.zeros((SPLIT_DEPTH, STATE_SIZE), dtype=np.int32),
        np.zeros((SPLIT_DEPTH, OCC_N_SIZE + 7), dtype=np.int32),
        np.zeros((SPLIT_DEPTH, 96, 16), dtype=np.int32),
        np.zeros((0, 8), dtype=np.int32),
    )


@inline
def _reach(st: Row, m: int, used: int) -> int:
    """How many steps the pieces of ``m`` on the board outside ``used`` could take together:
    a part never passes home (R-MOVE) and only a seat's own parts move its pieces, so no
    split can share out more. The search skips any part that leaves more than this."""
    total = 0
    for j in range(4):
        p = st[POS + 4 * m + j]
        if not (used >> j) & 1 and 0 < p < HOME:
            total += HOME - p
    return total


@inline
def _split_parts(
    st: Row,
    params: Row,
    occ_n: Row,
    occ: Occ,
    m: int,
    v: int,
    left: int,
    out: Row,
    n: int,
    first_only: bool,
    pool: Pool,
    pieces: int,
) -> int:
    """Parts of ``left`` steps (of the throw ``v``) that still lead to a full split.

    ``first_only``: the first parts of a new split, which are shorter than the throw.
    ``pieces``: the candidates, :func:`movable` of the pieces the split has not used.
    Where the parts cannot affect each other's legality (:func:`parts_independent`) the
    answer comes from sums of allowed parts (:func:`split_parts_by_sums`), else from a
    search that plays the parts out (:func:`split_parts_by_search`); both list the same
    parts in the same order.
    """
    if parts_independent(params, v):
        return split_parts_by_sums(st, params, occ_n, occ, m, v, left, out, n, first_only, pieces)
    return split_parts_by_search(
        st, params, occ_n, occ, m, v, left, out, n, first_only, pool, pieces
    )


@inline
def parts_independent(params: Row, v: int) -> bool:
    """Whether one part of a split throw can never change whether another part is legal.

    A part is a single piece's ordinary move (R-MOVE). With every friendly stack allowed
    (``stacking=all``) and no blockades, the only things a part changes that another
    landing looks at are enemies it captures, and it can capture only where a single
    piece may land, so every square's legality for a single piece stays as it was; what it
    can change is the mover's kill credit (V-KILL-BEFORE-HOME), which only grows, and which
    square still holds an enemy to capture. Under ``top_one`` a part that leaves a stack
    can uncover an enemy beneath it, so a later part could capture where it would not have:
    that matters only for kill credits, so ``top_one`` with kill-before-home is searched.
    Throws above 31 are searched too: the sums are masks of 64-bit integers, and a
    product of two of them must not overflow (:func:`_spread`).
    """
    return (
        params[P_STACKING] == 0
        and not params[P_BLOCKADE]
        and not (params[P_TOP_ONE] and params[P_KBH])
        and v <= 31
    )


@inline
def _spread(sums: int, parts: int, limit: int) -> int:
    """Every total ``s + k`` with ``s`` in ``sums`` and ``k`` in ``parts`` (bitmasks over
    step counts, below bit 32), up to ``limit``: the other mask shifted by each set bit of
    the one with fewer bits."""
    if popcount(parts) < popcount(sums):
        sums, parts = parts, sums
    out = 0
    while sums:
        out |= parts << lowest_bit(sums)
        if out & limit == limit:
            break
        sums &= sums - 1
    return out & limit


@inline
def _sums(choices: tuple[int, int, int, int], skip: int, skip_too: int, limit: int) -> int:
    """Every total the pieces other than ``skip`` and ``skip_too`` can make, each adding
    one of its ``choices`` (a mask over steps that includes 0), up to ``limit``."""
    out = 1
    for j in range(4):
        if j != skip and j != skip_too and choices[j] != 1:
            out = _spread(out, choices[j], limit)
    return out


_PLAIN, _TAKES, _HOMES = SPLIT_CACHE + 1, SPLIT_CACHE + 5, SPLIT_CACHE + 9
_TOTAL, _BACKED = SPLIT_CACHE + 13, SPLIT_CACHE + 17


@inline
def _cached(occ_n: Row, at: int) -> int:
    """A 32-bit mask kept in the ``int32`` scratch (its top bit reads back as the sign)."""
    return int(occ_n[at]) & 0xFFFFFFFF


@inline
def _reach_of(st: Row, m: int, j: int, used: int, wide: int) -> tuple[int, int]:
    """Piece ``j`` of ``m``'s progress and the most steps a part of it may take (at most
    ``wide``, and short of home), or (-100, 0) for a piece not on the board or used."""
    p = st[POS + 4 * m + j]
    if (used >> j) & 1 or not 0 < p < HOME:
        return -100, 0
    return p, min(wide, HOME - p - 1)


@inline
def _offset(t: int, p: int, most: int) -> int:
    """The steps from progress ``p`` to the square at progress ``t`` if a part of at most
    ``most`` steps gets there, else 0. The route passes its own column twice: progress
    ``t`` and ``HOME - t`` (``t`` up to 8) are the same square."""
    d = t - p
    if 1 <= d <= most:
        return d
    d = HOME - t - p
    if t <= 8 and 1 <= d <= most:
        return d
    return 0


@inline
def _parts(st: Row, params: Row, occ_n: Row, occ: Occ, m: int, used: int, wide: int) -> None:
    """Cache the parts of at most ``wide`` steps each piece of ``m`` may take now, as masks
    over steps: plain landings, landings that capture, and the part that takes it home
    (none for a piece not on the board or already used).

    Under stacking=all a square without enemies takes any single piece, so only the
    squares that hold enemies need a look, each once: what a single piece's landing there
    does is the same for every piece that can reach it."""
    p0, most0 = _reach_of(st, m, 0, used, wide)
    p1, most1 = _reach_of(st, m, 1, used, wide)
    p2, most2 = _reach_of(st, m, 2, used, wide)
    p3, most3 = _reach_of(st, m, 3, used, wide)
    plain0 = ((1 << (most0 + 1)) - 1) & ~1
    plain1 = ((1 << (most1 + 1)) - 1) & ~1
    plain2 = ((1 << (most2 + 1)) - 1) & ~1
    plain3 = ((1 << (most3 + 1)) - 1) & ~1
    takes0 = takes1 = takes2 = takes3 = 0
    # A square without enemies takes a single piece (stacking=all): only the enemies'
    # squares need a look, each once (``seen``, two words of square bits).
    enemies = enemy_pieces(params, m)
    seen_low = seen_high = 0
    while enemies:
        g = lowest_bit(enemies)
        enemies &= enemies - 1
        pg = st[POS + g]
        if not 0 < pg < HOME:
            continue
        sq = SQUARES[g >> 2, pg]
        if sq < 64:
            if (seen_low >> sq) & 1:
                continue
            seen_low |= 1 << sq
        else:
            if (seen_high >> (sq - 64)) & 1:
                continue
            seen_high |= 1 << (sq - 64)
        t = PROGRESS_ON[m, sq]
        if t < 0:
            continue
        d0 = _offset(t, p0, most0)
        d1 = _offset(t, p1, most1)
        d2 = _offset(t, p2, most2)
        d3 = _offset(t, p3, most3)
        if not (d0 or d1 or d2 or d3):
            continue
        got = landing(params, occ_n, occ, m, 1, sq)
        if got == 0:
            continue
        # Bit 0 is never a part, so a piece that does not reach the square (offset 0)
        # changes nothing.
        plain0 &= ~(1 << d0)
        plain1 &= ~(1 << d1)
        plain2 &= ~(1 << d2)
        plain3 &= ~(1 << d3)
        if got > 0:
            takes0 |= (1 << d0) & ~1
            takes1 |= (1 << d1) & ~1
            takes2 |= (1 << d2) & ~1
            takes3 |= (1 << d3) & ~1
    for j in range(4):
        p = (p0, p1, p2, p3)[j]
        occ_n[_PLAIN + j] = (plain0, plain1, plain2, plain3)[j]
        occ_n[_TAKES + j] = (takes0, takes1, takes2, takes3)[j]
        occ_n[_HOMES + j] = (1 << (HOME - p)) if p > 0 and HOME - p <= wide else 0


@kernel
def _fill_split_cache(
    st: Row, params: Row, occ_n: Row, occ: Occ, m: int, wide: int, pieces: int
) -> None:
    """Cache, for the position of this occupancy and rests of up to ``wide`` steps, every
    unused piece's parts (plain, capturing, home) and, for each of ``pieces`` (the unused
    ones, :func:`movable`), the totals the other pieces can make: all of them (``total``),
    and those that need no kill credit or bring their own capture (``backed``). A shorter
    rest masks them: totals only grow as parts are added, so none of a shorter rest is
    lost."""
    used = st[SPLIT_USED]
    limit = (1 << (wide + 1)) - 1
    credit = may_go_home(st, params, m)
    _parts(st, params, occ_n, occ, m, used, wide)
    plain = (_cached(occ_n, _PLAIN), _cached(occ_n, _PLAIN + 1), _cached(occ_n, _PLAIN + 2),
             _cached(occ_n, _PLAIN + 3))  # fmt: skip
    takes = (_cached(occ_n, _TAKES), _cached(occ_n, _TAKES + 1), _cached(occ_n, _TAKES + 2),
             _cached(occ_n, _TAKES + 3))  # fmt: skip
    home = (_cached(occ_n, _HOMES), _cached(occ_n, _HOMES + 1), _cached(occ_n, _HOMES + 2),
            _cached(occ_n, _HOMES + 3))  # fmt: skip
    # Each piece gives at most one part: every piece's choices, nothing included (bit 0).
    full = (1 | plain[0] | takes[0] | home[0], 1 | plain[1] | takes[1] | home[1],
            1 | plain[2] | takes[2] | home[2], 1 | plain[3] | takes[3] | home[3])  # fmt: skip
    homeless = (1 | plain[0] | takes[0], 1 | plain[1] | takes[1], 1 | plain[2] | takes[2],
                1 | plain[3] | takes[3])  # fmt: skip
    for i in range(4):
        if not (pieces >> i) & 1:
            continue
        total = _sums(full, i, i, limit)
        homes = 0
        for j in range(4):
            if j != i:
                homes |= home[j]
        if credit or not homes:
            backed = total
        else:
            # Without a credit a total is backed when it takes no piece home, or when one
            # of its parts captures (whatever the others do).
            backed = _sums(homeless, i, i, limit)
            for j in range(4):
                if j != i and takes[j]:
                    backed |= _spread(takes[j], _sums(full, i, j, limit), limit)
        occ_n[_TOTAL + i] = total
        occ_n[_BACKED + i] = backed
    occ_n[SPLIT_CACHE] = wide


@inline
def split_parts_by_sums(
    st: Row,
    params: Row,
    occ_n: Row,
    occ: Occ,
    m: int,
    v: int,
    left: int,
    out: Row,
    n: int,
    first_only: bool,
    pieces: int,
) -> int:
    """:func:`split_parts_by_search`'s answer where parts are independent
    (:func:`parts_independent`): the rest of a throw can be shared out exactly when it is a
    sum of allowed parts of distinct unused pieces, with a part home (which needs a kill
    credit) only if the mover has one or another of the parts captures.

    The parts and sums depend on the position, not on the throw: they are computed once
    per occupancy (:func:`_fill_split_cache`) for all the throws a legal-action list asks
    about, which it asks highest first.

    With at most one unused piece on the board no sum is needed, and half the questions of
    a random ``wikipedia-full`` game are of that kind: a new split needs two pieces, and the
    last part of one is the last piece's move of the whole rest."""
    used = st[SPLIT_USED]
    starting = left == v and used == 0
    slot = value_slot(params, v)
    alone = -1
    for j in range(4):
        p = st[POS + 4 * m + j]
        if not (used >> j) & 1 and 0 < p < HOME:
            if alone >= 0:
                alone = 4
                break
            alone = j
    if alone < 0:
        return n
    if alone < 4:
        if first_only or starting:
            return n
        if move_legal_inline(st, params, occ_n, occ, m, 4 * m + alone, 1, left):
            out[n] = part_id(alone, slot, left)
            n += 1
        return n
    if occ_n[SPLIT_CACHE] < left:
        _fill_split_cache(st, params, occ_n, occ, m, left, pieces)
    credit = may_go_home(st, params, m)
    for i in range(4):
        if not (pieces >> i) & 1:
            continue
        takes = _cached(occ_n, _TAKES + i)
        total = _cached(occ_n, _TOTAL + i)
        backed = _cached(occ_n, _BACKED + i)
        top = left - 1 if starting else left
        home = _cached(occ_n, _HOMES + i) if credit else 0
        tries = (_cached(occ_n, _PLAIN + i) | takes | home) & ((2 << top) - 1)
        # A part of k < left steps is good when the others can make the other left - k:
        # bit left - k of their totals, which the totals reversed and shifted put at bit k,
        # so that all the good parts come out of one mask, shortest first.
        shift = 31 - left
        rest = reverse32(total) >> shift
        rest_backed = rest if credit else reverse32(backed) >> shift
        good = tries & ((1 << left) - 1) & ((takes & rest) | (~takes & rest_backed))
        if not first_only:
            good |= tries & (1 << left)
        while good:
            out[n] = part_id(i, slot, lowest_bit(good))
            n += 1
            good &= good - 1
    return n


@kernel
def split_parts_by_search(
    st: Row,
    params: Row,
    occ_n: Row,
    occ: Occ,
    m: int,
    v: int,
    left: int,
    out: Row,
    n: int,
    first_only: bool,
    pool: Pool,
    pieces: int,
) -> int:
    """:func:`_split_parts` by playing the parts out: each candidate part is made on a copy
    and the rest searched depth first (:func:`_completable`)."""
    used = st[SPLIT_USED]
    starting = left == v and used == 0
    slot = value_slot(params, v)
    for i in range(4):
        if not (pieces >> i) & 1:
            continue
        g = 4 * m + i
        top = left - 1 if starting else left
        others = _reach(st, m, used | (1 << i))
        for k in range(1, top + 1):
            if k < left and left - k > others:
                continue
            if not move_legal(st, params, occ_n, occ, m, g, 1, k):
                continue
            if k == left:
                if not first_only:
                    out[n] = part_id(i, slot, k)
                    n += 1
                continue
            if _completes_directly(st, params, occ_n, occ, m, i, k, left):
                out[n] = part_id(i, slot, k)
                n += 1
                continue
            _after_part(st, params, m, i, k, left, pool, 0)
            if _completable(params, m, left - k, pool, 0):
                out[n] = part_id(i, slot, k)
                n += 1
    return n


@kernel
def _completes_directly(
    st: Row, params: Row, occ_n: Row, occ: Occ, m: int, i: int, k: int, left: int
) -> bool:
    """Quick sufficient test: after a capture-free part, one other piece takes the rest.

    The moved piece's square is patched in the occupancy, then put back as it was.
    """
    g = 4 * m + i
    p = st[POS + g]
    t = p + k
    if t >= HOME:
        return False
    sq_from = SQUARES[m, p]
    sq_to = SQUARES[m, t]
    if landing(params, occ_n, occ, m, 1, sq_to) > 0:
        return False
    at = -1
    for q in range(occ_n[sq_from]):
        if occ[sq_from, q] == g:
            at = q
    for q in range(at, occ_n[sq_from] - 1):
        occ[sq_from, q] = occ[sq_from, q + 1]
    occ_n[sq_from] -= 1
    occ[sq_to, occ_n[sq_to]] = g
    occ_n[sq_to] += 1
    used = st[SPLIT_USED] | (1 << i)
    result = False
    pieces = movable(st, params, m, used)
    for j in range(4):
        if (pieces >> j) & 1 and move_legal(st, params, occ_n, occ, m, 4 * m + j, 1, left - k):
            result = True
            break
    occ_n[sq_to] -= 1
    for q in range(occ_n[sq_from], at, -1):
        occ[sq_from, q] = occ[sq_from, q - 1]
    occ[sq_from, at] = g
    occ_n[sq_from] += 1
    return result


@kernel
def _after_part(
    st: Row, params: Row, m: int, i: int, k: int, left: int, pool: Pool, d: int
) -> None:
    """Level ``d`` of the pool becomes ``st`` after piece ``i`` of ``m`` takes ``k`` steps."""
    after = pool[0][d]
    for q in range(st.shape[0]):
        after[q] = st[q]
    occ_n = pool[1][d]
    g = 4 * m + i
    move(after, params, m, 1 << g, st[POS + g] + k, False, occ_n, pool[2][d], pool[3],
         occ_n[OCC_N_SIZE:])  # fmt: skip
    after[SPLIT_LEFT] = left - k
    after[SPLIT_USED] |= 1 << i


_META = OCC_N_SIZE + 2
"""Where a pool level keeps its search position: steps left, unused pieces, candidate
pieces, the piece being tried and the next part to try for it (0: go to the next piece)."""
_LEFT, _UNUSED, _PIECES, _PIECE, _NEXT = range(_META, _META + 5)


@kernel
def _open(params: Row, m: int, pool: Pool, d: int, left: int) -> None:
    """Start searching level ``d``: its occupancy, and its candidates from the first."""
    st = pool[0][d]
    meta = pool[1][d]
    occupancy(st, params, meta, pool[2][d])
    used = st[SPLIT_USED]
    # Each piece takes at most one part, so sharing the rest further needs two unused pieces.
    unused = 0
    for j in range(4):
        if not (used >> j) & 1 and 0 < st[POS + 4 * m + j] < HOME:
            unused += 1
    meta[_LEFT] = left
    meta[_UNUSED] = unused
    meta[_PIECES] = movable(st, params, m, used) if _reach(st, m, used) >= left else 0
    meta[_PIECE] = -1
    meta[_NEXT] = 0


@kernel
def _completable(params: Row, m: int, left: int, pool: Pool, d0: int) -> bool:
    """Whether the remaining ``left`` steps of level ``d0``'s state can be shared among its
    unused pieces: a depth-first search, one pool level per piece that takes a part
    (numba cannot cache a recursive function, so the stack is the pool)."""
    _open(params, m, pool, d0, left)
    d = d0
    while True:
        st = pool[0][d]
        meta = pool[1][d]
        occ = pool[2][d]
        deeper = False
        while not deeper:
            if meta[_NEXT] == 0:
                i = meta[_PIECE] + 1
                while i < 4 and not (meta[_PIECES] >> i) & 1:
                    i += 1
                if i == 4:
                    break
                meta[_PIECE] = i
                if move_legal(st, params, meta, occ, m, 4 * m + i, 1, meta[_LEFT]):
                    return True
                if meta[_UNUSED] >= 2:
                    shortest = meta[_LEFT] - _reach(st, m, st[SPLIT_USED] | (1 << i))
                    meta[_NEXT] = max(shortest, 1)
                continue
            i = meta[_PIECE]
            k = meta[_NEXT]
            if k >= meta[_LEFT]:
                meta[_NEXT] = 0
                continue
            meta[_NEXT] = k + 1
            if move_legal(st, params, meta, occ, m, 4 * m + i, 1, k):
                _after_part(st, params, m, i, k, meta[_LEFT], pool, d + 1)
                _open(params, m, pool, d + 1, meta[_LEFT] - k)
                d += 1
                deeper = True
        if not deeper:
            if d == d0:
                return False
            d -= 1


# --------------------------------------------------------------------------- entry point


@kernel
def _finish_list(params: Row, out: Row, n: int) -> int:
    """Add DECLINE unless moves are compulsory and something else is legal."""
    if n > 0 and params[P_COMPULSORY]:
        return n
    out[n] = DECLINE_ID
    return n + 1


@kernel
def raw_legal_actions(st: Row, params: Row, occ_n: Row, occ: Occ, out: Row, pool: Pool) -> int:
    """The legal actions of the seat to act, in the reference engine's order, before
    C.10b's "one outcome, one action" (:func:`pachisi.fast._actions.legal_actions`, which
    needs the transitions): enough for asking whether an action other than a decline
    exists."""
    return raw_legal_inline(st, params, occ_n, occ, out, pool)


@inline
def raw_legal_inline(st: Row, params: Row, occ_n: Row, occ: Occ, out: Row, pool: Pool) -> int:
    """:func:`raw_legal_actions`, inlined into a game loop (its searches stay calls)."""
    stage = st[STAGE]
    m = mover_of(st, params, st[SEAT])
    if stage == ACT_STAGE:
        v = params[P_TABLE + st[THROW_K]]
        if params[P_LUDII] and (st[ENTERED] >> m) & 1:
            n = ludii_uses(st, params, m, v, out, 0)
            out[n] = DECLINE_ID
            return n + 1
        occupancy(st, params, occ_n, occ)
        if st[SPLIT_LEFT]:
            pieces = movable(st, params, m, st[SPLIT_USED])
            return _split_parts(
                st, params, occ_n, occ, m, st[SPLIT_VALUE], st[SPLIT_LEFT], out, 0, False, pool,
                pieces,
            )  # fmt: skip
        if params[P_FIRST_FREE] == 3 and not (st[ENTERED] >> m) & 1:
            free = _free_use(st, params, occ_n, occ, m, v, 0)
            if free < 0:
                return 0
            out[0] = free
            return 1
        bonus = 1 if st[PYADAS] and params[P_PYADA_ATTACHED] else 0
    elif stage == PYADA_STAGE:
        occupancy(st, params, occ_n, occ)
        n = pyada_uses(st, params, occ_n, occ, m, out, 0)
        return _finish_list(params, out, n)
    elif stage == SPEND_STAGE:
        occupancy(st, params, occ_n, occ)
        if st[SPLIT_LEFT]:
            pieces = movable(st, params, m, st[SPLIT_USED])
            return _split_parts(
                st, params, occ_n, occ, m, st[SPLIT_VALUE], st[SPLIT_LEFT], out, 0, False, pool,
                pieces,
            )  # fmt: skip
        bonus = 0
        v = _next_item(st, 1 << 30)
    else:
        return 0
    # The throw's uses, or every distinct collected value's, highest first (as
    # sorted(set(items), reverse=True)): one call site, so that value_uses is inlined.
    n = 0
    while v >= 0:
        n = value_uses(st, params, occ_n, occ, m, v, bonus, out, n, pool)
        v = _next_item(st, v) if stage == SPEND_STAGE else -1
    if stage == SPEND_STAGE and st[PYADAS]:
        n = pyada_uses(st, params, occ_n, occ, m, out, n)
    return _finish_list(params, out, n)


@inline
def _next_item(st: Row, done: int) -> int:
    """The highest collected value below ``done``, or -1."""
    best = -1
    for q in range(st[ITEMS_LEN]):
        v = st[ITEMS + q]
        if best < v < done:
            best = v
    return best
