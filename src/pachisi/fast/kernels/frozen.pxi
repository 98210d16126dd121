# The engine's part that was pachisi.fast._frozen (numba), in Cython.
#
# Compiled R-FROZEN: a board on which no piece can ever move again ends the game.
#
# The port of :mod:`pachisi.rules.frozen`. A seat is stuck when, for every value of the
# score table, a throw of it as the seat's only throw (immediate mode) or only item
# (collect mode) would leave it nothing but to decline; the position is frozen when every
# seat that still takes turns is stuck. The exact test throws each value on a copy of the
# row with the engine's own throw (:func:`pachisi.fast._throws.throw`) and asks the engine's
# own legal actions. A cheap sufficient test comes first and settles almost every position:
# a piece that can make an ordinary move, or a waiting piece that can enter, by some value.
# The two engines' cheap tests need not agree; their answers do, because the exact test
# decides whatever the cheap one leaves open.


cdef inline bint _distinct(Params params, i64 k) noexcept nogil:
    """Whether ``k`` is the lowest number of mouths up that throws its value."""
    return value_slot(params, param(params, P_TABLE + k)) == k


cdef inline i64 smallest_slot(Params params) noexcept nogil:
    """The lowest ``k`` whose throw is worth the least (``P_SMALLEST``, worked out with
    the parameters): where :func:`can_use_something` starts trying values. A small step
    overshoots home least, so the first try usually settles it; the order does not change
    the answer, only how soon it comes."""
    return param(params, P_SMALLEST)


cdef inline bint can_use_something(i32* st, Params params, i32* occ_n, i32* occ, i64 seat, i64 first) noexcept nogil:
    """A sufficient test that ``seat`` is not stuck: a piece of its mover on the board can
    make an ordinary move by some value (R-MOVE, as the legal moves ask it), or a waiting
    piece can enter with an entry value other than a 7 or 14 (which may be void).

    ``occ_n``/``occ`` must hold ``st``'s occupancy. Under Ludii's flow (E.2 item 5) a
    piece on the board moves by any value that keeps it on the board, which is what that
    flow's legal moves list. Moves under an attached pyada (which add a step) are left to
    the exact test. Values are tried from ``first`` (:func:`smallest_slot`) up, wrapping
    around the table.
    """
    m = mover_of(st, params, seat)
    cowries = param(params, P_COWRIES)
    if param(params, P_LUDII):
        # Under Ludii's flow (E.2 items 4 and 5) every piece not yet home has a use for
        # some value: a piece in hand moves with the first phase's throw, or enters with
        # a grace after it (the entry square bars nobody); a piece on p <= 81 moves by 2
        # (or finishes, when p + k = 84); one on 82 finishes with k = 2 and one on 83
        # with k = 0. So a seat is stuck only with all its pieces home.
        for i in range(4):
            if st[POS + 4 * m + i] < HOME:
                return True
        return False
    if not (param(params, P_PYADA) and param(params, P_PYADA_ATTACHED)):
        for i in range(4):
            g = 4 * m + i
            p = st[POS + g]
            if 1 <= p <= LAST_SQUARE:
                k = first
                for _ in range(cowries + 1):
                    if _distinct(params, k) and move_legal_inline(
                        st, params, occ_n, occ, m, g, 1, param(params, P_TABLE + k)
                    ):
                        return True
                    k = 0 if k == cowries else k + 1
    if waiting(st, m) >= 0:
        for k in range(cowries + 1):
            v = param(params, P_TABLE + k)
            if (
                (param(params, P_ENTRY) >> k) & 1
                and v != 7
                and v != 14
                and entry_target(st, params, occ_n, occ, m, entry_progress(params, v)) >= 0
            ):
                return True
    return False


cdef inline bint _landings_free(Params params) noexcept nogil:
    """Whether a single piece's ordinary move short of home is legal wherever it lands,
    but on a castle that enemies hold under ``castle_mode=block``: with every friendly
    stack allowed (``stacking=all``), no blockades and no immune stacks, a landing is
    refused for nothing else (:func:`landing`). Moves under an attached pyada are left out,
    as in :func:`can_use_something`."""
    return (
        param(params, P_STACKING) == 0
        and not param(params, P_BLOCKADE)
        and not param(params, P_STACK_IMMUNE)
        and not (param(params, P_PYADA) and param(params, P_PYADA_ATTACHED))
    )


cdef inline bint _free_move(Params params, i64 m, i64 p, i64 first) noexcept nogil:
    """Whether a piece of ``m`` on progress ``p`` has a move that is legal wherever landings
    are free, whatever stands anywhere: by some value onto a square short of home that is
    no castle (or any, where castles do not block). Every value below ``FREE_STEPS`` is
    asked at once (``P_VALUES``); larger ones, in a ruleset that has them, one by one from
    ``first``."""
    cdef bint block = param(params, P_CASTLE) == 0
    cdef u64 values = <u64>param(params, P_VALUES) | (<u64>param(params, P_VALUES + 1) << 31)
    if not 1 <= p <= LAST_SQUARE:
        return False
    if block:
        if <u64>FREE_LANDINGS[m][p] & values:
            return True
    elif LAST_SQUARE - p >= FREE_STEPS:
        if values:
            return True
    elif values & (((<u64>2) << (LAST_SQUARE - p)) - 2):
        return True
    if not param(params, P_VALUES + 2):
        return False
    cowries = param(params, P_COWRIES)
    k = first
    for _ in range(cowries + 1):
        if _distinct(params, k):
            t = p + param(params, P_TABLE + k)
            if t <= LAST_SQUARE and not (block and CASTLE[SQUARES[m][t]]):
                return True
        k = 0 if k == cowries else k + 1
    return False


cdef inline bint _moves_unseen(i32* st, Params params, i64 seat, i64 first) noexcept nogil:
    """Where landings are free (:func:`_landings_free`), a sufficient test that ``seat`` is
    not stuck that reads no occupancy: a piece of its mover on the board has an ordinary
    move by some value onto a square that is no castle (or onto any square, where castles
    do not block), short of home (:func:`_free_move`). After most actions the first piece
    and value settle it, and the occupancy is then not filled at all."""
    m = mover_of(st, params, seat)
    for i in range(4):
        if _free_move(params, m, st[POS + 4 * m + i], first):
            return True
    return False


cdef bint unstuck_after_any_move(i32* st, Params params) noexcept nogil:
    """Whether, after any move of the seat to act's pieces (one piece, or a group on one
    progress, forward, capturing what stands on the one square it lands on), some seat that
    takes turns is certainly not stuck, so that R-FROZEN cannot draw the game then.

    Where landings are free (:func:`_landings_free`), a piece with a free move
    (:func:`_free_move`) keeps it whatever the move does, unless the move takes it along or
    captures it. So the mover's seat is not stuck if such pieces of its stand on two
    progresses (one stays; the seat cannot finish with a piece on the board), and another
    seat is not if its stand on two squares (one is not captured)."""
    if param(params, P_LUDII) or not _landings_free(params):
        return False
    first = smallest_slot(params)
    m = mover_of(st, params, st[SEAT])
    for seat in range(4):
        if not takes_turns(st, params, seat):
            continue
        x = mover_of(st, params, seat)
        place = -1
        for i in range(4):
            p = st[POS + 4 * x + i]
            if _free_move(params, x, p, first):
                here = p if x == m else SQUARES[x][p]
                if place < 0:
                    place = here
                elif here != place:
                    return True
    return False


cdef bint is_frozen(i32* st, Params params, i32* occ_n, i32* occ) noexcept nogil:
    """R-FROZEN's test for ``st`` (False during the throw-off); ``occ_n``/``occ`` are the
    caller's occupancy scratch, filled here if the test needs it."""
    cdef bint free, filled
    if st[STAGE] == THROW_OFF_STAGE:
        return False
    if param(params, P_LUDII):
        # Under Ludii's flow every seat takes turns and is stuck only with all its pieces
        # home (can_use_something): any piece not home answers at once.
        for g in range(16):
            if st[POS + g] < HOME:
                return False
    free = not param(params, P_LUDII) and _landings_free(params)
    # Ludii's cheap test reads progress only (its moves never look at other pieces), and
    # under Ludii's flow the scratch is not kept up to date, so filling it would cost a
    # whole fill after every action.
    filled = param(params, P_LUDII) == 1
    seats = 0
    first = smallest_slot(params)
    for j in range(4):
        seat = (st[SEAT] + j) & 3
        if takes_turns(st, params, seat):
            if free and _moves_unseen(st, params, seat, first):
                return False
            if not filled:
                occupancy(st, params, occ_n, occ)
                filled = True
            if can_use_something(st, params, occ_n, occ, seat, first):
                return False
            seats |= (<i64>1) << seat
    return all_stuck(st, params, seats)


cdef bint frozen_alone(i32* st, Params params) noexcept nogil:
    """:func:`is_frozen` with scratch of its own, for callers that have none (a throw)."""
    cdef i32 occ_n[OCC_N_SIZE]
    cdef i32 occ[OCC_SQUARES * OCC_DEPTH]
    memset(occ_n, 0, sizeof(occ_n))
    return is_frozen(st, params, occ_n, occ)


cdef bint all_stuck(i32* st, Params params, i64 seats) noexcept nogil:
    """The exact test for every seat in the bitmask ``seats``: each throws every value
    once, as the first throw of a turn on this board, on a copy of the row.

    Its scratch is on the stack (about 70 KB), so that the test needs no allocation.
    """
    cdef i32 occ_n[OCC_N_SIZE]
    cdef i32 occ[OCC_SQUARES * OCC_DEPTH]
    cdef i32 out[MAX_LIST]
    cdef Pool pool
    cdef i32 evn[3]
    cdef i32 fresh[STATE_SIZE]
    cdef i32 trial[STATE_SIZE]
    memset(occ_n, 0, sizeof(occ_n))
    clear_pool(&pool)
    memset(evn, 0, sizeof(evn))
    for seat in range(4):
        if not (seats >> seat) & 1:
            continue
        memcpy(fresh, st, sizeof(fresh))
        _turn_of(fresh, params, seat)
        for k in range(param(params, P_COWRIES) + 1):
            if not _distinct(params, k):
                continue
            memcpy(trial, fresh, sizeof(trial))
            if not _single_throw(trial, params, k, NULL, evn):
                continue
            n = raw_legal_actions(trial, params, occ_n, occ, out, &pool)
            for j in range(n):
                if out[j] != DECLINE_ID:
                    return False
            if trial[STAGE] == ACT_STAGE and trial[PYADAS] and not param(params, P_PYADA_ATTACHED):
                # Immediate mode, free pyada: after the throw (declined) comes its step.
                occupancy(trial, params, occ_n, occ)
                m = mover_of(trial, params, seat)
                if pyada_uses(trial, params, occ_n, occ, m, out, 0, NULL) > 0:
                    return False
    return True


cdef inline void _turn_of(i32* st, Params params, i64 seat) noexcept nogil:
    """``seat`` about to make the first throw of a turn on this board."""
    st[SEAT] = seat
    st[WINNER] = NO_WINNER
    fresh_turn(st, params)


cdef inline bint _single_throw(i32* st, Params params, i64 k, i32* ev, i32* evn) noexcept nogil:
    """Throw ``k`` as the only throw or collected item of the turn in ``st``; False if it
    is void (V-7-14-NEEDS-PIECE)."""
    seat = st[SEAT]
    throw(st, params, k, ev, evn)
    if param(params, P_COLLECT):
        if st[STAGE] == THROW_STAGE and st[SEAT] == seat and st[ITEMS_LEN]:
            # A grace would throw on; the test takes it as the phase's only throw.
            end_throwing(st, params, ev, evn)
        return <bint>(st[STAGE] == SPEND_STAGE and st[ITEMS_LEN] > 0)
    return <bint>(st[STAGE] == ACT_STAGE)
