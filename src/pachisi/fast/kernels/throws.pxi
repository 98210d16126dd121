# The engine's part that was pachisi.fast._throws (numba), in Cython.
#
# Compiled throws: a cowrie throw applied to a state row in place.
#
# The port of :mod:`pachisi.rules._throws` (C.10a steps 2-4, C.10b steps 2-3, R-ORDER).
# :func:`pachisi.fast._step.apply_chance` is the entry point; R-FROZEN's test
# (:mod:`pachisi.fast._frozen`) asks the same code what a single throw would give a seat.


cdef inline i64 _run_class(Params params, i64 v) noexcept nogil:
    """The triple-cancel class of a value, as :meth:`Ruleset.run_class`."""
    if param(params, P_TRIPLE) == 2:
        return v
    if in_values(params, param(params, P_BIG), v):
        return 1
    if v == 7:
        return 2
    if v == 14:
        return 3
    return 0


cdef inline void _advance_run(i32* st, Params params, i64 v) noexcept nogil:
    key = _run_class(params, v)
    if key == 0:
        st[RUN_KEY] = 0
        st[RUN_LEN] = 0
    elif st[RUN_KEY] == key:
        st[RUN_LEN] += 1
    else:
        st[RUN_KEY] = key
        st[RUN_LEN] = 1


cdef inline void throw(i32* st, Params params, i64 k, i32* ev, i32* evn) noexcept nogil:
    v = param(params, P_TABLE + k)
    seat = st[SEAT]
    if st[STAGE] == THROW_OFF_STAGE:
        _throw_off(st, params, k, v, ev, evn)
        return
    if param(params, P_COLLECT) and st[ITEMS_LEN] >= MAX_ITEMS:
        # Far beyond almost any real series: the row cannot hold another item, so the
        # throw is left unapplied, and noted, for the caller to go on in the reference
        # engine with the very same throw (pachisi.ai.playouts).
        st[OVERFLOW] = 1 + k
        return
    emit(ev, evn, E_THROW, seat, -1, -1, -1, v, 0, k)
    if param(params, P_COLLECT):
        _collect_throw(st, params, v, ev, evn)
        return
    m = mover_of(st, params, seat)
    if (v == 7 or v == 14) and not on_board(st, m):
        # V-7-14-NEEDS-PIECE: no value; void ends the turn, rethrow_only throws again.
        emit(ev, evn, E_VOID, seat, -1, -1, -1, v)
        if not param(params, P_714_RETHROW):
            end_turn(st, params, ev, evn)
        return
    if param(params, P_TRIPLE):
        key, length = st[RUN_KEY], st[RUN_LEN]
        _advance_run(st, params, v)
        if st[RUN_LEN] >= 3:
            st[RUN_KEY] = key
            st[RUN_LEN] = length
            emit(ev, evn, E_CANCEL, seat, -1, -1, -1, v)
            end_turn(st, params, ev, evn)
            return
    pyadas = 0
    if param(params, P_PYADA) and in_values(params, param(params, P_PYADA_VALUES), v):
        none_waiting = True
        for i in range(4):
            if st[POS + 4 * m + i] == 0:
                none_waiting = False
        if param(params, P_PYADA_ALWAYS) or none_waiting:
            pyadas = 1
    st[STAGE] = ACT_STAGE
    st[THROW_K] = k
    st[AGAIN] = 1 if in_values(params, param(params, P_REROLL), v) else 0
    st[CAPTURED] = 0
    st[PYADAS] = pyadas


cdef void _throw_off(i32* st, Params params, i64 k, i64 v, i32* ev, i32* evn) noexcept nogil:
    """R-ORDER: every seat throws; the highest value begins; ties throw again."""
    seat = st[SEAT]
    st[THROWOFF + seat] = v
    emit(ev, evn, E_THROW_OFF, seat, -1, -1, -1, v, 0, k)
    for s in range(4):
        if st[THROWOFF + s] == -1:
            st[SEAT] = s
            return
    best = -3
    for s in range(4):
        best = max(best, st[THROWOFF + s])
    tied = 0
    first = -1
    for s in range(4):
        if st[THROWOFF + s] == best:
            tied += 1
            if first < 0:
                first = s
    if tied > 1:
        for s in range(4):
            st[THROWOFF + s] = -1 if st[THROWOFF + s] == best else -2
        st[SEAT] = first
        return
    for s in range(4):
        st[THROWOFF + s] = 0
    st[SEAT] = first
    st[TURN] = 1
    emit(ev, evn, E_BEGINS, first)
    begin_phase(st, params)


cdef inline void _collect_throw(i32* st, Params params, i64 v, i32* ev, i32* evn) noexcept nogil:
    """One throw of a throwing phase in collect mode (C.10b step 2)."""
    seat = st[SEAT]
    if (v == 7 or v == 14) and not st[FLAGS] & HAS_PIECE:
        emit(ev, evn, E_VOID, seat, -1, -1, -1, v)
        if not param(params, P_714_RETHROW):
            end_throwing(st, params, ev, evn)
        return
    n = st[ITEMS_LEN]
    st[ITEMS + n] = v
    st[ITEMS_LEN] = n + 1
    if param(params, P_TRIPLE):
        _advance_run(st, params, v)
        if st[RUN_LEN] >= 3:
            emit(ev, evn, E_CANCEL, seat, -1, -1, -1, v)
            st[ITEMS_LEN] = 0 if param(params, P_SCOPE_TURN) else n + 1 - 3
            end_throwing(st, params, ev, evn)
            return
    if not in_values(params, param(params, P_REROLL), v):
        end_throwing(st, params, ev, evn)


cdef void end_throwing(i32* st, Params params, i32* ev, i32* evn) noexcept nogil:
    """Close the throwing phase: count pyadas, then spend or pass the turn (C.10b 3-4)."""
    st[PYADAS] = 0
    if param(params, P_PYADA) and (param(params, P_PYADA_ALWAYS) or st[FLAGS] & NONE_WAITING):
        count = 0
        for q in range(st[ITEMS_LEN]):
            if in_values(params, param(params, P_PYADA_VALUES), st[ITEMS + q]):
                count += 1
        st[PYADAS] = count
        if count:
            emit(ev, evn, E_PYADA, st[SEAT], -1, -1, -1, count)
    if st[ITEMS_LEN] or st[PYADAS]:
        st[STAGE] = SPEND_STAGE
        st[CAPTURED] = 0
    else:
        end_turn(st, params, ev, evn)
