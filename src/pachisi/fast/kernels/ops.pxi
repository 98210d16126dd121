# The engine's part that was pachisi.fast._ops (numba), in Cython.
#
# Compiled board operations and turn flow, done in place on a state row.
#
# The port of :class:`pachisi.rules._builder.Builder`: moves, entries, captures with their
# kill credits and capture records, the end of a turn, the win and the draw. Events go to
# a caller-owned buffer ``ev[n, 8]`` of ``(kind, seat, piece, frm, to, value, pieces, k)``,
# ``pieces`` a bitmask; ``evn[0]`` counts the events written (those past the buffer's end
# are dropped, so a zero-row buffer turns events off), ``evn[1]`` the capture events, and
# ``evn[2]`` is the buffer's length in rows (0: events off, ``ev`` may be NULL).


cdef inline void emit(i32* ev, i32* evn, i64 kind, i64 seat = -1, i64 piece = -1, i64 frm = -1, i64 to = -1, i64 value = 0, i64 pieces = 0, i64 k = -1) noexcept nogil:
    if kind == E_CAPTURE:
        evn[1] += 1
    # No buffer, no events (its length is then 0): a caller that passes NULL lets the C
    # compiler drop the rest wherever this is inlined into it (playouts, learners' steps).
    if ev == NULL:
        return
    n = evn[0]
    if n < evn[2]:
        ev[(n) * EVENT_FIELDS + (0)] = kind
        ev[(n) * EVENT_FIELDS + (1)] = seat
        ev[(n) * EVENT_FIELDS + (2)] = piece
        ev[(n) * EVENT_FIELDS + (3)] = frm
        ev[(n) * EVENT_FIELDS + (4)] = to
        ev[(n) * EVENT_FIELDS + (5)] = value
        ev[(n) * EVENT_FIELDS + (6)] = pieces
        ev[(n) * EVENT_FIELDS + (7)] = k
        evn[0] = n + 1


cdef void _drop_record(i32* st, i64 r) noexcept nogil:
    last = st[REC_LEN] - 1
    for j in range(r, last):
        for f in range(REC_FIELDS):
            st[RECS + j * REC_FIELDS + f] = st[RECS + (j + 1) * REC_FIELDS + f]
    st[REC_LEN] = last


cdef void left_square(i32* st, Params params, i64 g) noexcept nogil:
    """A piece moved: it no longer stands where it captured (V-RECAPTURE-ANNUL)."""
    bit = (<i64>1) << g
    r = 0
    while r < st[REC_LEN]:
        base = RECS + r * REC_FIELDS
        if st[base + 1] == bit:
            _drop_record(st, r)
            continue
        st[base + 1] &= ~bit
        r += 1
    if param(params, P_TOP_ONE):
        n = st[ORDER_LEN]
        j = find16(st + ORDER, g, n)
        if j >= 0:
            for q in range(j, n - 1):
                st[ORDER + q] = st[ORDER + q + 1]
            st[ORDER_LEN] = n - 1


cdef inline void _push_order(i32* st, i64 g) noexcept nogil:
    st[ORDER + st[ORDER_LEN]] = g
    st[ORDER_LEN] += 1


cdef void capture(i32* st, Params params, i64 owner, i64 gmask, i64 captured, i64 sq, i32* ev, i32* evn) noexcept nogil:
    """Send captured pieces back; credit, record and annul kills (R-CAPTURE, C.6)."""
    victims = 0
    for c in range(16):
        if (captured >> c) & 1:
            victims |= (<i64>1) << (c >> 2)
    emit(ev, evn, E_CAPTURE, owner, -1, -1, sq, 0, captured)
    if param(params, P_ANNUL):
        r = 0
        while r < st[REC_LEN]:
            base = RECS + r * REC_FIELDS
            if owner == st[SEAT] and (st[base + 3] >> owner) & 1 and st[base + 1] & captured:
                st[KILLS + st[base]] -= 1
                emit(ev, evn, E_ANNUL, st[base], -1, -1, st[base + 2])
                _drop_record(st, r)
                continue
            r += 1
    for c in range(16):
        if (captured >> c) & 1:
            left_square(st, params, c)
            st[POS + c] = 0
            st[LAPS] &= ~((<i64>1) << c)
    st[KILLS + owner] += 1
    if param(params, P_ANNUL):
        base = RECS + st[REC_LEN] * REC_FIELDS
        st[base] = owner
        st[base + 1] = gmask
        st[base + 2] = sq
        st[base + 3] = victims
        st[base + 4] = st[TURN]
        st[REC_LEN] += 1
    st[CAPTURED] = 1


cdef bint move(i32* st, Params params, i64 seat, i64 gmask, i64 t, bint lap, i32* occ_n, i32* occ, i32* ev, i32* evn) noexcept nogil:
    """Move ``seat``'s pieces of ``gmask`` (all on one progress) to ``t`` (84 = home),
    resolving the landing. True if it captured."""
    cdef bint fresh, ludii, other
    ludii = param(params, P_LUDII) == 1
    sq = SQUARES[seat][t] if t != HOME else -1
    # A scratch that holds the whole board is kept up to date (relocate) rather than
    # filled again; Ludii's moves never read it.
    fresh = not ludii and occupancy_fresh(st, params, occ_n)
    if not ludii and t != HOME and not fresh:
        occupancy_at(st, params, occ_n, occ, sq)
    top = top_piece(st, sq) if ludii and t != HOME else -1
    n_moving = 0
    frm = 0
    for i in range(4):
        g = 4 * seat + i
        if (gmask >> g) & 1:
            frm = st[POS + g]
            if st[REC_LEN] or param(params, P_TOP_ONE):
                left_square(st, params, g)
            st[POS + g] = t
            if lap:
                st[LAPS] |= (<i64>1) << g
            emit(ev, evn, E_MOVE, seat, g, frm, t)
            if t == HOME:
                emit(ev, evn, E_FINISH, seat, g)
            n_moving += 1
    captured = 0
    if t != HOME:
        if ludii:
            # E.2 5a: the top piece of the destination goes back if it is the other team's.
            other = top >= 0 and team(params, top >> 2) != team(params, seat)
            captured = ((<i64>1) << top) if other else 0
        else:
            captured = max(landing(params, occ_n, occ, seat, n_moving, sq), 0)
    if captured:
        capture(st, params, seat, gmask, captured, sq, ev, evn)
    if param(params, P_TOP_ONE) and t != HOME:
        for i in range(4):
            if (gmask >> (4 * seat + i)) & 1:
                _push_order(st, 4 * seat + i)
    # One call site, so that the update is inlined (home is the square -1).
    if fresh:
        relocate(st, params, occ_n, occ, seat, gmask, frm, captured, sq)
    return captured != 0


cdef bint place(i32* st, Params params, i64 g, i64 t, bint captures, i32* occ_n, i32* occ, i32* ev, i32* evn) noexcept nogil:
    """Bring a waiting piece out to ``t`` (R-GRACE-ENTRY, R-FIRST-PIECE-FREE)."""
    cdef bint fresh
    seat = g >> 2
    sq = SQUARES[seat][t]
    fresh = occupancy_fresh(st, params, occ_n)
    if captures and not fresh:
        occupancy_at(st, params, occ_n, occ, sq)
    st[POS + g] = t
    st[ENTERED] |= (<i64>1) << seat
    emit(ev, evn, E_ENTER, seat, g, 0, t)
    captured = 0
    if captures:
        captured = landing(params, occ_n, occ, seat, 1, sq)
        if captured < 0:
            captured = 0
        if captured:
            capture(st, params, seat, (<i64>1) << g, captured, sq, ev, evn)
    if param(params, P_TOP_ONE):
        _push_order(st, g)
    if fresh:
        relocate(st, params, occ_n, occ, seat, (<i64>1) << g, 0, captured, sq)
    return captured != 0


cdef inline bint takes_turns(i32* st, Params params, i64 seat) noexcept nogil:
    if param(params, P_LUDII) or param(params, P_FOR_PARTNER):
        return True
    return not seat_finished(st, seat)


cdef void _close_windows(i32* st, i64 seat) noexcept nogil:
    bit = (<i64>1) << seat
    r = 0
    while r < st[REC_LEN]:
        base = RECS + r * REC_FIELDS
        if st[base + 3] & bit and st[base + 4] < st[TURN]:
            st[base + 3] &= ~bit
        if st[base + 3] == 0:
            _drop_record(st, r)
            continue
        r += 1


cdef inline void begin_phase(i32* st, Params params) noexcept nogil:
    """A new throwing phase; in collect mode its flags (C.10b step 2)."""
    st[STAGE] = THROW_STAGE
    st[ITEMS_LEN] = 0
    st[RUN_KEY] = 0
    st[RUN_LEN] = 0
    st[CAPTURED] = 0
    st[PYADAS] = 0
    if param(params, P_COLLECT):
        m = mover_of(st, params, st[SEAT])
        flags = 0
        none_waiting = True
        for i in range(4):
            p = st[POS + 4 * m + i]
            if 1 <= p <= LAST_SQUARE:
                flags |= HAS_PIECE
            if p == 0:
                none_waiting = False
        if none_waiting:
            flags |= NONE_WAITING
        st[FLAGS] = flags


cdef void end_turn(i32* st, Params params, i32* ev, i32* evn) noexcept nogil:
    """Pass the turn on, skipping finished seats under ``skip`` (R-ORDER, R-FINISHED-SEAT)."""
    # Capture records are rare: most turns have no window to close.
    if st[REC_LEN]:
        _close_windows(st, st[SEAT])
    seat = st[SEAT]
    for _ in range(4):
        seat = (seat + 1) & 3
        if takes_turns(st, params, seat):
            break
        if st[REC_LEN]:
            _close_windows(st, seat)
    st[SEAT] = seat
    st[TURN] += 1
    fresh_turn(st, params)
    emit(ev, evn, E_TURN, seat)


cdef inline void fresh_turn(i32* st, Params params) noexcept nogil:
    """Nothing of a turn in progress: the seat to play is about to throw (as
    :meth:`pachisi.rules._builder.Builder.end_turn_fields` and ``begin_phase``)."""
    st[THROW_K] = -1
    st[AGAIN] = 0
    st[SPLIT_LEFT] = 0
    st[SPLIT_VALUE] = 0
    st[SPLIT_USED] = 0
    begin_phase(st, params)


cdef void _game_over(i32* st, i64 winner) noexcept nogil:
    st[STAGE] = OVER_STAGE
    st[WINNER] = winner
    st[THROW_K] = -1
    st[AGAIN] = 0
    st[CAPTURED] = 0
    st[RUN_KEY] = 0
    st[RUN_LEN] = 0
    st[FLAGS] = 0
    st[ITEMS_LEN] = 0
    st[PYADAS] = 0
    st[SPLIT_LEFT] = 0
    st[SPLIT_VALUE] = 0
    st[SPLIT_USED] = 0


cdef inline bint check_win(i32* st, Params params, i32* ev, i32* evn) noexcept nogil:
    """R-TEAM-WIN / V-INDIVIDUAL-WIN: end the game the moment a side is home."""
    if param(params, P_INDIVIDUAL):
        for s in range(4):
            if seat_finished(st, s):
                _game_over(st, s)
                emit(ev, evn, E_WIN, s)
                return True
        return False
    for t in range(2):
        if seat_finished(st, t) and seat_finished(st, t + 2):
            _game_over(st, t)
            emit(ev, evn, E_WIN, t)
            return True
    return False


cdef void draw(i32* st, i32* ev, i32* evn) noexcept nogil:
    """R-DEADLOCK: the game ends as a draw."""
    _game_over(st, DRAW)
    emit(ev, evn, E_DRAW)


cdef inline bint seat_done(i32* st, Params params) noexcept nogil:
    """C.9: under ``skip`` the turn's seat, once finished, ends its turn at once."""
    if param(params, P_LUDII) or param(params, P_FOR_PARTNER):
        return False
    return seat_finished(st, st[SEAT])
