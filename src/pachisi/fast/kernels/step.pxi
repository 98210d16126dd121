# The engine's part that was pachisi.fast._step (numba), in Cython.
#
# Compiled transitions: a throw or an action applied to a state row in place.
#
# The port of :func:`pachisi.rules.engine.apply_chance` and
# :func:`~pachisi.rules.engine.apply_action` (C.10a, C.10b, R-DEADLOCK, R-FROZEN; the throws
# themselves are :mod:`pachisi.fast._throws`). The action must be legal; the callers check it
# against :func:`pachisi.fast._actions.legal_actions`.


cdef inline void _settle_throw(i32* st, Params params, i32* ev, i32* evn) noexcept nogil:
    """R-DEADLOCK, then R-FROZEN, after a throw: a game that no side can win any more, or
    in which no piece can ever move again, ends as a draw. A throw changes nothing
    R-FROZEN looks at, so its test runs only where the row does not know the answer for
    its board yet (``SETTLED``)."""
    if st[STAGE] == OVER_STAGE or st[OVERFLOW]:
        return
    if param(params, P_DRAWS) and every_side_blocked(st, params):
        draw(st, ev, evn)
    elif param(params, P_FROZEN) and not st[SETTLED]:
        if frozen_alone(st, params):
            draw(st, ev, evn)
        else:
            st[SETTLED] = 1


cdef inline void _settle_action(i32* st, Params params, i64 a, i32* occ_n, i32* occ, i32* ev, i32* evn, bint deadlock) noexcept nogil:
    """R-DEADLOCK (if ``deadlock``: the caller may know it would answer as before), then
    R-FROZEN, after the action ``a``, which may have changed anything either looks at.

    R-FROZEN's test reads the pieces' progress, the stack order, the laps, the entered
    seats and the kill credits, and a decline changes none of them: after a decline on a
    board known not to be frozen (``SETTLED``) the answer is known. Declines are about
    half of all actions in random games."""
    if st[STAGE] == OVER_STAGE:
        return
    if deadlock and param(params, P_DRAWS) and every_side_blocked(st, params):
        draw(st, ev, evn)
    elif param(params, P_FROZEN):
        if a == DECLINE_ID and st[SETTLED]:
            return
        if is_frozen(st, params, occ_n, occ):
            draw(st, ev, evn)
        else:
            st[SETTLED] = 1


cdef inline void chance_inline(i32* st, Params params, i64 k, i32* ev, i32* evn) noexcept nogil:
    """Apply a throw with ``k`` cowries mouth up (inlined into a game loop)."""
    throw(st, params, k, ev, evn)
    _settle_throw(st, params, ev, evn)


cdef inline void throw_inline(i32* st, Params params, i64 k, i32* ev, i32* evn) noexcept nogil:
    """:func:`chance_inline` without the checks, for a game loop that has made them since
    the last piece moved: a throw moves no piece and credits no kill, so R-DEADLOCK and
    R-FROZEN would answer as they did then."""
    throw(st, params, k, ev, evn)


cdef void c_apply_chance(i32* st, Params params, i64 k, i32* ev, i32* evn) noexcept nogil:
    """Apply a throw with ``k`` cowries mouth up."""
    chance_inline(st, params, k, ev, evn)


cdef inline void action_inline(i32* st, Params params, i64 a, i32* occ_n, i32* occ, i32* ev, i32* evn) noexcept nogil:
    """Apply the legal action ``a`` (inlined into a game loop)."""
    _act(st, params, a, occ_n, occ, ev, evn)
    _settle_action(st, params, a, occ_n, occ, ev, evn, True)


cdef inline void play_inline(i32* st, Params params, i64 a, i32* occ_n, i32* occ, i32* ev, i32* evn, bint settled) noexcept nogil:
    """:func:`action_inline` for a game loop that has made R-DEADLOCK's check since the
    last action that changed what it looks at (``settled``): then an action that captured
    nothing and took no piece beyond progress 75 skips that check, which would answer as
    it did. The check looks at kill credits (only a capture changes them), which pieces
    stand at or below progress 75 or 76 (a capture sends pieces back to 0; a move forwards
    changes the answer only by passing 75) and which seats are home (past 75 too).
    R-FROZEN's test runs after every action."""
    cdef bint deadlock
    m = mover_of(st, params, st[SEAT])
    captures = evn[1]
    _act(st, params, a, occ_n, occ, ev, evn)
    piece = decode(a)[1]
    deadlock = not settled or evn[1] != captures or (piece >= 0 and st[POS + 4 * m + piece] > 75)
    _settle_action(st, params, a, occ_n, occ, ev, evn, deadlock)


cdef void c_apply_action(i32* st, Params params, i64 a, i32* occ_n, i32* occ, i32* ev, i32* evn) noexcept nogil:
    """Apply the legal action ``a`` (an id of :mod:`pachisi.fast._codec`)."""
    action_inline(st, params, a, occ_n, occ, ev, evn)


cdef inline void _act(i32* st, Params params, i64 a, i32* occ_n, i32* occ, i32* ev, i32* evn) noexcept nogil:
    cdef bint captured, old_captured
    kind, piece, slot, size, steps, pyada = decode(a)
    seat = st[SEAT]
    stage = st[STAGE]
    if (
        kind == K_DECLINE
        and st[AGAIN]
        and stage == ACT_STAGE
        and not st[PYADAS]
        and not st[SPLIT_LEFT]
        and not param(params, P_COLLECT)
        and not param(params, P_FORFEIT_TURN)
    ):
        # A declined grace (R-DECLINE, R-GRACE-REPEAT): the seat simply throws again.
        emit(ev, evn, E_DECLINE, seat)
        emit(ev, evn, E_AGAIN, seat)
        st[STAGE] = THROW_STAGE
        st[THROW_K] = -1
        st[AGAIN] = 0
        st[CAPTURED] = 0
        return
    old_split_left = st[SPLIT_LEFT]
    old_split_used = st[SPLIT_USED]
    old_captured = st[CAPTURED] == 1
    # What R-UNUSABLE-THROW's forfeit_turn asks of the position before the decline.
    only_decline = False
    pyada_usable = False
    if kind == K_DECLINE and param(params, P_FORFEIT_TURN) and stage == ACT_STAGE:
        only_decline, pyada_usable = _forfeit_check(st, params, occ_n, occ)
    v = param(params, P_TABLE + slot) if slot >= 0 else 0
    captured = False
    if kind == K_DECLINE:
        emit(ev, evn, E_DECLINE, seat)
    else:
        captured = _carry_out(st, params, kind, piece, v, size, steps, pyada, occ_n, occ, ev, evn)
    if param(params, P_COLLECT):
        _after_spend(
            st, params, kind, piece, v, steps, pyada, old_split_left, old_split_used, ev, evn
        )
    elif stage == PYADA_STAGE:
        st[PYADAS] = 0
        _after_throw(st, params, captured, ev, evn, False)
    else:
        _after_act(
            st, params, kind, piece, v, steps, captured, old_split_left, old_split_used,
            old_captured, only_decline, pyada_usable, ev, evn,
        )  # fmt: skip


cdef (bint, bint) _forfeit_check(i32* st, Params params, i32* occ_n, i32* occ) noexcept nogil:
    """Whether declining is the only legal action, and whether a pyada would still be
    usable then (R-UNUSABLE-THROW's forfeit_turn). Its scratch is its own, on the stack,
    so that its callers need none for this rare case."""
    cdef bint only_decline, pyada_usable
    cdef i32 out[MAX_LIST]
    cdef Pool pool
    clear_pool(&pool)
    n = raw_legal_actions(st, params, occ_n, occ, out, &pool)
    only_decline = n == 1 and out[0] == 0
    pyada_usable = False
    if only_decline and st[PYADAS] and not param(params, P_PYADA_ATTACHED):
        occupancy(st, params, occ_n, occ)
        m = mover_of(st, params, st[SEAT])
        pyada_usable = pyada_uses(st, params, occ_n, occ, m, out, 0, NULL) > 0
    return only_decline, pyada_usable


cdef inline bint _carry_out(i32* st, Params params, i64 kind, i64 piece, i64 v, i64 size, i64 steps, bint pyada, i32* occ_n, i32* occ, i32* ev, i32* evn) noexcept nogil:
    """Do what the action says to the board; True if it captured."""
    cdef bint attached
    cdef bint captures
    m = mover_of(st, params, st[SEAT])
    if kind == K_ENTER:
        g = 4 * m + waiting(st, m)
        t = 1 if pyada else entry_progress(params, v)
        captures = not (param(params, P_LUDII) or param(params, P_ENTRY_MODE) == 0 or pyada)
        return place(st, params, g, t, captures, occ_n, occ, ev, evn)
    if kind == K_FREE:
        g = 4 * m + waiting(st, m)
        mode = param(params, P_FIRST_FREE)
        if mode == 3:
            return place(st, params, g, LUDII_ENTRY - 1 + v, True, occ_n, occ, ev, evn)
        if mode == 1:
            return place(st, params, g, 1, False, occ_n, occ, ev, evn)
        bonus = 1 if st[PYADAS] and param(params, P_PYADA_ATTACHED) else 0
        return place(st, params, g, v + bonus, True, occ_n, occ, ev, evn)
    g = 4 * m + piece
    gmask = (<i64>1) << g
    if size > 1:
        p = st[POS + g]
        count = 1
        for j in range(piece + 1, 4):
            if count < size and st[POS + 4 * m + j] == p:
                gmask |= (<i64>1) << (4 * m + j)
                count += 1
    if kind == K_EXIT:
        move(st, params, m, gmask, HOME, False, occ_n, occ, ev, evn)
        return False
    p = st[POS + g]
    if pyada:
        n = 1
    elif steps:
        n = steps
    else:
        attached = st[STAGE] == ACT_STAGE and st[PYADAS] and param(params, P_PYADA_ATTACHED)
        n = v + (1 if attached else 0)
    if kind == K_LAP:
        return move(st, params, m, gmask, p + n - 68, True, occ_n, occ, ev, evn)
    return move(st, params, m, gmask, p + n, False, occ_n, occ, ev, evn)


cdef inline void _after_act(i32* st, Params params, i64 kind, i64 piece, i64 v, i64 steps, bint captured, i64 old_split_left, i64 old_split_used, bint old_captured, bint only_decline, bint pyada_usable, i32* ev, i32* evn) noexcept nogil:
    """C.10a steps 6-9 after the main action with the throw."""
    if steps:
        left = (old_split_left if old_split_left else v) - steps
        if left:
            st[SPLIT_LEFT] = left
            st[SPLIT_VALUE] = v
            st[SPLIT_USED] = old_split_used | ((<i64>1) << piece)
            st[CAPTURED] = 1 if (old_captured or captured) else 0
            check_win(st, params, ev, evn)
            return
        st[SPLIT_LEFT] = 0
        st[SPLIT_VALUE] = 0
        st[SPLIT_USED] = 0
        captured = captured or old_captured
    if param(params, P_FIRST_FREE) == 3 and kind == K_FREE:
        end_turn(st, params, ev, evn)
        return
    if (
        kind == K_DECLINE
        and param(params, P_FORFEIT_TURN)
        and only_decline
        and not (st[PYADAS] and not param(params, P_PYADA_ATTACHED) and pyada_usable)
    ):
        end_turn(st, params, ev, evn)
        return
    st[CAPTURED] = 1 if captured else 0
    if check_win(st, params, ev, evn):
        return
    if seat_done(st, params):
        end_turn(st, params, ev, evn)
        return
    if st[PYADAS] and not param(params, P_PYADA_ATTACHED):
        st[STAGE] = PYADA_STAGE
        emit(ev, evn, E_PYADA, st[SEAT], -1, -1, -1, 1)
        return
    st[PYADAS] = 0
    # The win and the finished seat were asked just above, of the same board.
    _after_throw(st, params, captured, ev, evn, True)


cdef inline void _after_throw(i32* st, Params params, bint captured, i32* ev, i32* evn, bint checked) noexcept nogil:
    """C.10a steps 8-9: win, finished seat (unless ``checked``: the caller has just asked
    both of this board), then another throw or the next seat."""
    captured = captured or st[CAPTURED] == 1
    if not checked:
        if st[STAGE] != OVER_STAGE and check_win(st, params, ev, evn):
            return
        if seat_done(st, params):
            end_turn(st, params, ev, evn)
            return
    if st[AGAIN] or (captured and param(params, P_CAPTURE_BONUS)):
        st[STAGE] = THROW_STAGE
        st[THROW_K] = -1
        st[AGAIN] = 0
        st[CAPTURED] = 0
        st[PYADAS] = 0
        emit(ev, evn, E_AGAIN, st[SEAT])
        return
    end_turn(st, params, ev, evn)


cdef void _remove_item(i32* st, i64 v) noexcept nogil:
    n = st[ITEMS_LEN]
    for q in range(n):
        if st[ITEMS + q] == v:
            for r in range(q, n - 1):
                st[ITEMS + r] = st[ITEMS + r + 1]
            st[ITEMS_LEN] = n - 1
            return


cdef inline void _after_spend(i32* st, Params params, i64 kind, i64 piece, i64 v, i64 steps, bint pyada, i64 old_split_left, i64 old_split_used, i32* ev, i32* evn) noexcept nogil:
    """C.10b step 4-6 after one spent item (or a stop)."""
    if kind == K_DECLINE:
        _end_spending(st, params, ev, evn)
        return
    if pyada:
        st[PYADAS] -= 1
    elif steps:
        if not old_split_left:
            _remove_item(st, v)
        left = (old_split_left if old_split_left else v) - steps
        st[SPLIT_LEFT] = left
        st[SPLIT_VALUE] = v if left else 0
        st[SPLIT_USED] = (old_split_used | ((<i64>1) << piece)) if left else 0
    else:
        _remove_item(st, v)
    # A side wins, and a seat is done, only when a piece reaches home: this one, if it did.
    if piece >= 0 and st[POS + 4 * mover_of(st, params, st[SEAT]) + piece] == HOME:
        if check_win(st, params, ev, evn):
            return
        if seat_done(st, params):
            end_turn(st, params, ev, evn)
            return
    if st[SPLIT_LEFT]:
        return
    if not st[ITEMS_LEN] and not st[PYADAS]:
        _end_spending(st, params, ev, evn)


cdef void _end_spending(i32* st, Params params, i32* ev, i32* evn) noexcept nogil:
    if st[CAPTURED] and param(params, P_CAPTURE_BONUS):
        emit(ev, evn, E_AGAIN, st[SEAT])
        begin_phase(st, params)
        return
    end_turn(st, params, ev, evn)
