# The engine's part that was pachisi.fast._legal (numba), in Cython.
#
# Compiled legal actions: the port of :mod:`pachisi.rules._legal`, in the same order.
#
# The order matters as much as the set: a random player picks an index into the list, so
# both engines must list the same actions in the same order for a seeded game to be the
# same game. Actions are ids of :mod:`pachisi.fast._codec`, written to ``out``; the
# functions return how many they wrote.

cdef enum:
    _PLAIN = 114
    _TAKES = 118
    _HOMES = 122
    _TOTAL = 126
    _BACKED = 130


cdef inline i64 movable(i32* st, Params params, i64 m, i64 exclude) noexcept nogil:
    """The mover's pieces on the board (a bitmask over a..d), one per group of
    interchangeable pieces; ``exclude`` leaves pieces out before grouping."""
    on = pieces_on_board(st, m) & ~exclude
    # Under Ludii's flow every piece is its own; one piece alone has no twin.
    if param(params, P_LUDII) or on & (on - 1) == 0:
        return on
    mask = 0
    in_records = record_pieces(st)
    for i in range(4):
        g = 4 * m + i
        p = st[POS + g]
        if (on >> i) & 1:
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
                mask |= (<i64>1) << i
    return mask


cdef i64 waiting(i32* st, i64 m) noexcept nogil:
    """The waiting piece with the lowest letter (C.10a step 5), or -1."""
    for i in range(4):
        if st[POS + 4 * m + i] == 0:
            return i
    return -1


cdef bint move_legal(i32* st, Params params, i32* occ_n, i32* occ, i64 m, i64 g, i64 n_moving, i64 k) noexcept nogil:
    """R-MOVE for ``n_moving`` pieces of ``m`` on the progress of piece ``g`` moving ``k``."""
    return move_legal_inline(st, params, occ_n, occ, m, g, n_moving, k)


cdef inline bint move_legal_inline(i32* st, Params params, i32* occ_n, i32* occ, i64 m, i64 g, i64 n_moving, i64 k) noexcept nogil:
    """:func:`move_legal`, inlined where every action list asks it: a throw's moves."""
    p = st[POS + g]
    t = p + k
    if t > HOME:
        return False
    if param(params, P_BLOCKADE) and n_moving == 1 and passes_blockade(params, occ_n, occ, m, p, t, False):
        return False
    if t == HOME:
        return may_go_home(st, params, g >> 2)
    return landing_inline(params, occ_n, occ, m, n_moving, SQUARES[m][t]) >= 0


cdef inline i64 entry_progress(Params params, i64 v) noexcept nogil:
    """Where an entry grace puts a piece (R-ENTRY-CONSUMES, R-TRACK)."""
    if param(params, P_LUDII):
        return LUDII_ENTRY
    mode = param(params, P_ENTRY_MODE)
    if mode == 0:
        return 1
    if mode == 1:
        return 1 + v
    return v


cdef i64 entry_target(i32* st, Params params, i32* occ_n, i32* occ, i64 m, i64 t) noexcept nogil:
    """-1 if an entry to ``t`` is illegal, else what it captures (R-ENTRY-SQUARE1)."""
    if t > LAST_SQUARE:
        return -1
    sq = SQUARES[m][t]
    if param(params, P_LUDII) or (param(params, P_ENTRY_MODE) == 0 and (t == 1 or t == LUDII_ENTRY)):
        if param(params, P_STACKING) != 0:
            mine = team(params, m)
            friends = 0
            for j in range(occ_n[sq]):
                if team(params, occ[(sq) * OCC_DEPTH + (j)] >> 2) == mine:
                    friends += 1
            if not stacking_allows(params, friends + 1, sq):
                return -1
        return 0
    return landing(params, occ_n, occ, m, 1, sq)


cdef i64 _free_use(i32* st, Params params, i32* occ_n, i32* occ, i64 m, i64 v, i64 bonus) noexcept nogil:
    """The first piece's entry without a grace (R-FIRST-PIECE-FREE): its id or -1."""
    i = waiting(st, m)
    if i < 0:
        return -1
    mode = param(params, P_FIRST_FREE)
    slot = value_slot(params, v)
    if mode == 3:
        return FREE_BASE + slot if LUDII_ENTRY - 1 + v <= LAST_SQUARE else -1
    if in_values(params, param(params, P_ENTRY), v):
        return -1
    if mode == 0:
        t = v + bonus
        if t > LAST_SQUARE or landing(params, occ_n, occ, m, 1, SQUARES[m][t]) < 0:
            return -1
    elif mode == 1 and entry_target(st, params, occ_n, occ, m, 1) < 0:
        return -1
    return FREE_BASE + slot


cdef inline void _land(Landed* landed, i64 i, u64 steps) noexcept nogil:
    """Note in ``landed`` (if it is not NULL) that listed actions move piece ``i`` of the
    mover alone each a number of steps in the mask ``steps``, one action per bit."""
    if landed != NULL:
        landed.twice[i] |= landed.once[i] & steps
        landed.once[i] |= steps


cdef inline void _land_steps(Landed* landed, i64 i, i64 steps) noexcept nogil:
    """:func:`_land` for one action of ``steps`` steps."""
    if landed != NULL:
        if steps < 64:
            _land(landed, i, (<u64>1) << steps)
        else:
            landed.untracked = True


cdef inline i64 value_uses(i32* st, Params params, i32* occ_n, i32* occ, i64 m, i64 v, i64 bonus, i32* out, i64 n, Pool* pool, Landed* landed) noexcept nogil:
    """Every use of a throw of value ``v`` by seat ``m`` (C.10a step 5), after ``out[:n]``;
    noted in ``landed`` unless it is NULL."""
    cdef bint credit, grace, legal, split, splits
    if param(params, P_LUDII):
        return ludii_uses(st, params, m, v, out, n)
    start = n
    steps = v + bonus
    slot = value_slot(params, v)
    pieces = movable(st, params, m, 0)
    # A new split needs two pieces on the board. Where its parts will be summed, the
    # sums' cache of every piece's single moves answers the whole throw's moves too (the
    # same landings, looked at once).
    splits = param(params, P_SPLIT) == 1 and not bonus and v >= 2 and _two_on_board(st, m)
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
            _land_steps(landed, i, steps)
        if param(params, P_EXTRA_LAP) and not (st[LAPS] >> g) & 1 and p <= 75 and p + steps >= 76:
            t = p + steps - 68
            if (
                t <= LAST_SQUARE
                and not (
                    param(params, P_BLOCKADE)
                    and passes_blockade(params, occ_n, occ, m, p, p + steps, True)
                )
                and landing(params, occ_n, occ, m, 1, SQUARES[m][t]) >= 0
            ):
                out[n] = lap_id(i, slot)
                n += 1
        if (
            p == LAST_SQUARE
            and not param(params, P_LSE_LUDII)
            and (param(params, P_LSE) >> slot) & 1
            and steps != 1
            and may_go_home(st, params, m)
        ):
            out[n] = exit_id(i, slot)
            n += 1
            _land_steps(landed, i, HOME - p)
    if param(params, P_SPLIT) == 2:
        grouped = n
        n = _group_uses(st, params, occ_n, occ, m, steps, slot, out, n)
        if landed != NULL and n > grouped:
            landed.untracked = True
    if splits:
        n = _split_parts(st, params, occ_n, occ, m, v, v, out, n, True, pool, pieces, landed)
    free = -1
    if not (st[ENTERED] >> m) & 1 and param(params, P_FIRST_FREE) != 2:
        free = _free_use(st, params, occ_n, occ, m, v, bonus)
    enter = -1
    # in_values(params, mask, v) is the mask's bit at v's slot: the slot is v's lowest k.
    grace = (param(params, P_ENTRY) >> slot) & 1 == 1
    if grace:
        i = waiting(st, m)
        if i >= 0 and entry_target(st, params, occ_n, occ, m, entry_progress(params, v)) >= 0:
            enter = ENTER_BASE + slot
    if param(params, P_GRACE_MUST_ENTER) and (free >= 0 or enter >= 0) and grace:
        # V-GRACE-MUST-ENTER: no move of any kind with the grace, split parts included.
        n = start
    if free >= 0:
        out[n] = free
        n += 1
    if enter >= 0:
        out[n] = enter
        n += 1
    if landed != NULL:
        landed.entries += (free >= 0) + (enter >= 0)
        if free >= 0 and enter >= 0:
            landed.entries_alike = True
    return n


cdef inline bint _two_on_board(i32* st, i64 m) noexcept nogil:
    """Whether two or more of ``m``'s pieces are on the board: a new split needs them."""
    on = pieces_on_board(st, m)
    return on & (on - 1) != 0


cdef i64 _group_uses(i32* st, Params params, i32* occ_n, i32* occ, i64 m, i64 steps, i64 slot, i32* out, i64 n) noexcept nogil:
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
                done |= (<i64>1) << j
        for size in range(2, members + 1):
            if move_legal(st, params, occ_n, occ, m, 4 * m + i, size, steps):
                out[n] = group_id(i, size, slot)
                n += 1
    return n


cdef i64 pyada_uses(i32* st, Params params, i32* occ_n, i32* occ, i64 m, i32* out, i64 n, Landed* landed) noexcept nogil:
    """A pyada: one step for any piece, or an entry with ``pyada_can_enter`` (V-PYADA);
    noted in ``landed`` unless it is NULL."""
    pieces = movable(st, params, m, 0)
    for i in range(4):
        if (pieces >> i) & 1 and move_legal(st, params, occ_n, occ, m, 4 * m + i, 1, 1):
            out[n] = PYADA_MOVE_BASE + i
            n += 1
            _land_steps(landed, i, 1)
    if param(params, P_PYADA_ENTER):
        i = waiting(st, m)
        if i >= 0 and entry_target(st, params, occ_n, occ, m, 1) >= 0:
            out[n] = PYADA_ENTER_ID
            n += 1
            if landed != NULL:
                landed.entries += 1
    return n


cdef inline i64 ludii_uses(i32* st, Params params, i64 m, i64 v, i32* out, i64 n) noexcept nogil:
    """Ludii's main-phase moves for one throw (E.2 item 5)."""
    cdef bint grace
    k = st[THROW_K]
    grace = in_values(params, param(params, P_REROLL), v)
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


cdef i64 _finish_list(Params params, i32* out, i64 n) noexcept nogil:
    """Add DECLINE unless moves are compulsory and something else is legal."""
    if n > 0 and param(params, P_COMPULSORY):
        return n
    out[n] = DECLINE_ID
    return n + 1


cdef i64 raw_legal_actions(i32* st, Params params, i32* occ_n, i32* occ, i32* out, Pool* pool) noexcept nogil:
    """The legal actions of the seat to act, in the reference engine's order, before
    C.10b's "one outcome, one action" (:func:`pachisi.fast._actions.legal_actions`, which
    needs the transitions): enough for asking whether an action other than a decline
    exists."""
    return raw_legal_inline(st, params, occ_n, occ, out, pool, NULL)


cdef inline i64 raw_legal_inline(i32* st, Params params, i32* occ_n, i32* occ, i32* out, Pool* pool, Landed* landed) noexcept nogil:
    """:func:`raw_legal_actions`, inlined into a game loop (its searches stay calls). A
    spending stage's list that is not the rest of a split is noted in ``landed`` (which may
    be NULL); it is left as it was otherwise."""
    stage = st[STAGE]
    m = mover_of(st, params, st[SEAT])
    if stage == ACT_STAGE:
        v = param(params, P_TABLE + st[THROW_K])
        if param(params, P_LUDII) and (st[ENTERED] >> m) & 1:
            n = ludii_uses(st, params, m, v, out, 0)
            out[n] = DECLINE_ID
            return n + 1
        occupancy(st, params, occ_n, occ)
        if st[SPLIT_LEFT]:
            pieces = movable(st, params, m, st[SPLIT_USED])
            return _split_parts(
                st, params, occ_n, occ, m, st[SPLIT_VALUE], st[SPLIT_LEFT], out, 0, False, pool,
                pieces, NULL,
            )  # fmt: skip
        if param(params, P_FIRST_FREE) == 3 and not (st[ENTERED] >> m) & 1:
            free = _free_use(st, params, occ_n, occ, m, v, 0)
            if free < 0:
                return 0
            out[0] = free
            return 1
        bonus = 1 if st[PYADAS] and param(params, P_PYADA_ATTACHED) else 0
    elif stage == PYADA_STAGE:
        occupancy(st, params, occ_n, occ)
        n = pyada_uses(st, params, occ_n, occ, m, out, 0, NULL)
        return _finish_list(params, out, n)
    elif stage == SPEND_STAGE:
        occupancy(st, params, occ_n, occ)
        if st[SPLIT_LEFT]:
            pieces = movable(st, params, m, st[SPLIT_USED])
            return _split_parts(
                st, params, occ_n, occ, m, st[SPLIT_VALUE], st[SPLIT_LEFT], out, 0, False, pool,
                pieces, NULL,
            )  # fmt: skip
        bonus = 0
        v = _next_item(st, (<i64>1) << 30)
        if landed != NULL:
            memset(landed, 0, sizeof(Landed))
    else:
        return 0
    # The throw's uses, or every distinct collected value's, highest first (as
    # sorted(set(items), reverse=True)): one call site, so that value_uses is inlined.
    # Only a spending stage's list is noted (and none at all where nothing is collected:
    # the test then goes from every game loop of the specialized kernels).
    if stage != SPEND_STAGE or not param(params, P_COLLECT):
        landed = NULL
    n = 0
    while v >= 0:
        n = value_uses(st, params, occ_n, occ, m, v, bonus, out, n, pool, landed)
        v = _next_item(st, v) if stage == SPEND_STAGE else -1
    if stage == SPEND_STAGE and st[PYADAS]:
        n = pyada_uses(st, params, occ_n, occ, m, out, n, landed)
    return _finish_list(params, out, n)


cdef inline i64 _next_item(i32* st, i64 done) noexcept nogil:
    """The highest collected value below ``done``, or -1."""
    best = -1
    for q in range(st[ITEMS_LEN]):
        v = st[ITEMS + q]
        if best < v < done:
            best = v
    return best
