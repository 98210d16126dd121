# The engine's part that was pachisi.fast._position (numba), in Cython.
#
# Compiled questions about a position: who moves, who stands where, what a landing does.
#
# The same rules as :mod:`pachisi.rules._position` and :mod:`pachisi.rules.deadlock`, over
# one state row (:mod:`pachisi.fast.layout`) and the parameter vector
# (:mod:`pachisi.fast.params`). Occupancy is built into caller-owned scratch arrays,
# ``occ_n[square]`` (how many pieces) and ``occ[square, i]`` (which, bottom to top), so that
# nothing is allocated in the hot loop.

cdef enum:
    _USED = 96
    _MEMO_POS = 135
    _MEMO_ORDER_LEN = 151
    _MEMO_ORDER = 152


# Searches of a handful of words, made side by side where the machine can.
cdef extern from *:
    """
    #if defined(__SSE2__)
    #include <emmintrin.h>
    #endif
    /* The pieces (a bitmask over g = 4 * seat + i) whose progress in pos[16] is one of
       their seat's progresses on a square: at[s] or at[4 + s] (-1: none), a row of
       SEAT_PROGRESS. With SSE2 (every x86-64) a seat's four pieces are compared at once. */
    static inline int64_t pachisi_pieces_on(const int32_t* pos, const int32_t* at) {
        int64_t on = 0;
    #if defined(__SSE2__)
        __m128i first = _mm_loadu_si128((const __m128i*)at);
        __m128i again = _mm_loadu_si128((const __m128i*)(at + 4));
        __m128i p, hit;
    #define PACHISI_SEAT_ON(s, lane)                                                   \
        p = _mm_loadu_si128((const __m128i*)(pos + 4 * (s)));                          \
        hit = _mm_or_si128(_mm_cmpeq_epi32(p, _mm_shuffle_epi32(first, lane)),          \
                           _mm_cmpeq_epi32(p, _mm_shuffle_epi32(again, lane)));         \
        on |= (int64_t)_mm_movemask_ps(_mm_castsi128_ps(hit)) << (4 * (s));
        PACHISI_SEAT_ON(0, 0x00)
        PACHISI_SEAT_ON(1, 0x55)
        PACHISI_SEAT_ON(2, 0xAA)
        PACHISI_SEAT_ON(3, 0xFF)
    #undef PACHISI_SEAT_ON
    #else
        for (int g = 0; g < 16; g++) {
            if (pos[g] == at[g >> 2] || pos[g] == at[4 + (g >> 2)]) {
                on |= (int64_t)1 << g;
            }
        }
    #endif
        return on;
    }
    /* The place of the first of the n (0..16) words of a[16] equal to v, or -1. With SSE2
       (every x86-64) all 16 are compared at once: where a piece stands in the stack order,
       or a square in the list of those with pieces, is as good as random, and a loop that
       stops there mispredicts its end. */
    static inline int64_t pachisi_find16(const int32_t* a, int64_t v, int64_t n) {
    #if defined(__SSE2__)
        __m128i x = _mm_set1_epi32((int32_t)v);
        int m = 0;
        for (int q = 0; q < 4; q++) {
            __m128i w = _mm_loadu_si128((const __m128i*)(a + 4 * q));
            m |= _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(w, x))) << (4 * q);
        }
        m &= (1 << n) - 1;
        return m ? __builtin_ctz((unsigned)m) : -1;
    #else
        for (int64_t j = 0; j < n; j++) {
            if (a[j] == v) {
                return j;
            }
        }
        return -1;
    #endif
    }
    /* The words of a[4] strictly between lo and hi, as a bitmask: with SSE2 (every x86-64)
       the four at once, else one unsigned comparison each; no branch either way. */
    static inline int64_t pachisi_between4(const int32_t* a, int32_t lo, int32_t hi) {
    #if defined(__SSE2__)
        __m128i w = _mm_loadu_si128((const __m128i*)a);
        __m128i in = _mm_and_si128(_mm_cmpgt_epi32(w, _mm_set1_epi32(lo)),
                                   _mm_cmplt_epi32(w, _mm_set1_epi32(hi)));
        return _mm_movemask_ps(_mm_castsi128_ps(in));
    #else
        uint32_t span = (uint32_t)(hi - lo - 1);
        int64_t mask = 0;
        for (int j = 0; j < 4; j++) {
            mask |= (int64_t)((uint32_t)(a[j] - lo - 1) < span) << j;
        }
        return mask;
    #endif
    }
    /* Whether the 16 words at a and at b are equal. With SSE2 (every x86-64) four loads a
       side, one test; a loop over them, which the compiler leaves as one, takes four times
       the instructions, and every list and move asks it (occupancy_fresh). */
    static inline int pachisi_same_words16(const int32_t* a, const int32_t* b) {
    #if defined(__SSE2__)
        __m128i d = _mm_setzero_si128();
        for (int q = 0; q < 4; q++) {
            d = _mm_or_si128(d, _mm_xor_si128(_mm_loadu_si128((const __m128i*)(a + 4 * q)),
                                              _mm_loadu_si128((const __m128i*)(b + 4 * q))));
        }
        return _mm_movemask_epi8(_mm_cmpeq_epi8(d, _mm_setzero_si128())) == 0xFFFF;
    #else
        for (int j = 0; j < 16; j++) {
            if (a[j] != b[j]) {
                return 0;
            }
        }
        return 1;
    #endif
    }
    """
    # The pieces standing on a square (a bitmask over g), from their progress ``pos``
    # (a row's POS) and the square's row of SEAT_PROGRESS.
    i64 pieces_on "pachisi_pieces_on"(const i32* pos, const i32* at) nogil
    # Where ``v`` first stands among the ``n`` (0..16) words of ``a`` (16 words), or -1.
    i64 find16 "pachisi_find16"(const i32* a, i64 v, i64 n) nogil
    # The words of ``a`` (4 words) strictly between ``lo`` and ``hi``, as a bitmask.
    i64 between4 "pachisi_between4"(const i32* a, i32 lo, i32 hi) nogil
    # Whether the 16 words at a and at b are equal (the pieces' progress of two rows).
    bint same_words16 "pachisi_same_words16"(const i32* a, const i32* b) nogil


cdef inline i64 team(Params params, i64 seat) noexcept nogil:
    """R-TEAMS: seats 0+2 and 1+3 are partners; under V-INDIVIDUAL every seat is alone."""
    if param(params, P_INDIVIDUAL):
        return seat
    return seat & 1


cdef inline i64 enemy_pieces(Params params, i64 seat) noexcept nogil:
    """The pieces (bit ``4 * s + i``) of every seat ``s`` on another side than ``seat``'s
    (:func:`team`)."""
    mask = 0
    for s in range(4):
        if team(params, s) != team(params, seat):
            mask |= (<i64>0xF) << (4 * s)
    return mask


cdef inline bint in_values(Params params, i64 mask, i64 v) noexcept nogil:
    """Whether the throw value ``v`` is in the value set given as a mask over ``k``: the
    bit of ``v``'s slot, since a set's mask has the bits of every ``k`` that throws it."""
    slot = value_slot(params, v)
    return slot >= 0 and (mask >> slot) & 1 == 1


cdef inline i64 value_slot(Params params, i64 v) noexcept nogil:
    """The lowest ``k`` whose throw has the value ``v`` (-1 if none): the action codec's
    name for a value."""
    if 0 <= v < VALUE_SLOTS:
        return <i64>(param(params, P_VALUE_SLOT + v))
    for k in range(param(params, P_COWRIES) + 1):
        if param(params, P_TABLE + k) == v:
            return k
    return -1


cdef inline bint seat_finished(i32* st, i64 seat) noexcept nogil:
    # All four compared at once, with no early exit: which piece is the first not home is
    # as good as random, and a loop that stopped there would mispredict its end.
    return between4(st + POS + 4 * seat, HOME - 1, HOME + 1) == 0xF


cdef inline i64 pieces_on_board(i32* st, i64 seat) noexcept nogil:
    """``seat``'s pieces on the board (a bitmask over a..d), the four compared at once."""
    return between4(st + POS + 4 * seat, 0, HOME)


cdef inline bint on_board(i32* st, i64 seat) noexcept nogil:
    """Whether any of ``seat``'s pieces is on the board."""
    return pieces_on_board(st, seat) != 0


cdef inline i64 partner_of(i64 seat) noexcept nogil:
    """R-TEAMS: the seat opposite ``seat``, its partner under ``teams=pairs``."""
    return (seat + 2) & 3


cdef inline i64 mover_of(i32* st, Params params, i64 seat) noexcept nogil:
    """The seat whose pieces ``seat``'s turn moves (V-PARTNER-THROWS)."""
    if param(params, P_FOR_PARTNER) and not param(params, P_INDIVIDUAL) and seat_finished(st, seat):
        return partner_of(seat)
    return seat


cdef inline void _occupy(i32* occ_n, i32* occ, i64 g, i64 sq) noexcept nogil:
    n = occ_n[sq]
    if n == 0:
        occ_n[_USED + 1 + occ_n[_USED]] = sq
        occ_n[_USED] += 1
    occ[(sq) * OCC_DEPTH + (n)] = g
    occ_n[sq] = n + 1


cdef inline void _fill(i32* st, Params params, i32* occ_n, i32* occ, i64 only) noexcept nogil:
    """Clear the last fill, then fill the squares with pieces (only ``only``, if it is not
    -1), bottom to top under ``top_one``."""
    for j in range(occ_n[_USED]):
        occ_n[occ_n[_USED + 1 + j]] = 0
    occ_n[_USED] = 0
    occ_n[SPLIT_CACHE] = 0
    top_one = param(params, P_TOP_ONE)
    for j in range(st[ORDER_LEN] if top_one else 16):
        g = st[ORDER + j] if top_one else j
        p = st[POS + g]
        if 0 < p < HOME:
            sq = SQUARES[g >> 2][p]
            if only < 0 or sq == only:
                _occupy(occ_n, occ, g, sq)


cdef inline bint occupancy_fresh(i32* st, Params params, i32* occ_n) noexcept nogil:
    """Whether ``occ_n``/``occ`` already hold the whole occupancy of ``st``: they were
    filled (or kept up to date, :func:`relocate`) for a position with the same pieces on
    the same progress and, under ``top_one``, the same stack order, which is all the
    occupancy depends on. The test compares contents, so it holds for any row: a copy, a
    row of a batch, a row written from Python."""
    top_one = param(params, P_TOP_ONE)
    if occ_n[MEMO] != 1 + top_one:
        return False
    if not same_words16(st + POS, occ_n + _MEMO_POS):
        return False
    if top_one:
        if st[ORDER_LEN] != occ_n[_MEMO_ORDER_LEN]:
            return False
        for j in range(st[ORDER_LEN]):
            if st[ORDER + j] != occ_n[_MEMO_ORDER + j]:
                return False
    return True


cdef inline void _remember(i32* st, Params params, i32* occ_n) noexcept nogil:
    """Record that ``occ_n``/``occ`` hold the whole occupancy of ``st`` as it is now."""
    occ_n[MEMO] = 1 + param(params, P_TOP_ONE)
    memcpy(occ_n + _MEMO_POS, st + POS, 16 * sizeof(i32))
    if param(params, P_TOP_ONE):
        occ_n[_MEMO_ORDER_LEN] = st[ORDER_LEN]
        for j in range(st[ORDER_LEN]):
            occ_n[_MEMO_ORDER + j] = st[ORDER + j]


cdef void occupancy(i32* st, Params params, i32* occ_n, i32* occ) noexcept nogil:
    """Fill ``occ_n``/``occ``: the pieces on every square, bottom to top under ``top_one``;
    nothing to do when they hold ``st``'s already (:func:`occupancy_fresh`). The split
    cache is cleared either way: it also depends on more than the occupancy."""
    occ_n[SPLIT_CACHE] = 0
    if occupancy_fresh(st, params, occ_n):
        return
    _fill(st, params, occ_n, occ, -1)
    _remember(st, params, occ_n)


cdef void occupancy_at(i32* st, Params params, i32* occ_n, i32* occ, i64 sq) noexcept nogil:
    """:func:`occupancy` for the square ``sq`` alone, every other square reading as empty:
    all a landing there needs (:func:`landing` looks at its own square only), for a move
    whose scratch does not hold the whole occupancy already; a full fill follows before
    anything else reads the board."""
    occ_n[MEMO] = 0
    _fill(st, params, occ_n, occ, sq)


cdef inline void _unoccupy(i32* occ_n, i32* occ, i64 g, i64 sq) noexcept nogil:
    """Take piece ``g`` off ``sq``, the others keeping their order."""
    n = occ_n[sq]
    found = False
    for j in range(n):
        if found:
            occ[(sq) * OCC_DEPTH + (j - 1)] = occ[(sq) * OCC_DEPTH + (j)]
        elif occ[(sq) * OCC_DEPTH + (j)] == g:
            found = True
    if not found:
        # Under top_one a fill shows only the pieces of the stack order.
        return
    occ_n[sq] = n - 1
    if n == 1:
        used = occ_n[_USED]
        # At most 16 squares have pieces.
        q = find16(occ_n + _USED + 1, sq, used)
        if q >= 0:
            occ_n[_USED + 1 + q] = occ_n[_USED + used]
        occ_n[_USED] = used - 1


cdef inline void _occupy_in_order(i32* occ_n, i32* occ, i64 g, i64 sq, bint top_one) noexcept nogil:
    """Put piece ``g`` on ``sq`` where a fill would: on top under ``top_one`` (it was the
    last to arrive), else by its number."""
    n = occ_n[sq]
    if n == 0:
        occ_n[_USED + 1 + occ_n[_USED]] = sq
        occ_n[_USED] += 1
    j = n
    if not top_one:
        while j > 0 and occ[(sq) * OCC_DEPTH + (j - 1)] > g:
            occ[(sq) * OCC_DEPTH + (j)] = occ[(sq) * OCC_DEPTH + (j - 1)]
            j -= 1
    occ[(sq) * OCC_DEPTH + (j)] = g
    occ_n[sq] = n + 1


cdef inline void relocate(i32* st, Params params, i32* occ_n, i32* occ, i64 seat, i64 moved, i64 frm, i64 captured, i64 sq) noexcept nogil:
    """Keep a fresh occupancy (:func:`occupancy_fresh`) up to date after a move or an
    entry, instead of filling it again: ``seat``'s pieces ``moved`` (a mask over all 16)
    left progress ``frm`` (0: they were waiting) for the square ``sq`` (-1: home), and the
    pieces ``captured`` left ``sq``. ``st`` is the row after the move; the pieces arrive
    in the order a fill would put them."""
    cdef bint top_one
    top_one = param(params, P_TOP_ONE) == 1
    if 0 < frm < HOME:
        left = SQUARES[seat][frm]
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


cdef inline bint stacking_allows(Params params, i64 friendly, i64 sq) noexcept nogil:
    """V-STACK-RESTRICTED: may ``friendly`` friendly pieces stand together on ``sq``."""
    mode = param(params, P_STACKING)
    if mode == 0 or friendly <= 1:
        return True
    if mode == 2:
        return False
    if mode == 1:
        return <bint>(CASTLE[sq])
    return <bint>(param(params, P_STACK_SET + sq) == 1)


cdef bint _two_of_one_side(Params params, i64 pieces) noexcept nogil:
    seen = 0
    for g in range(16):
        if (pieces >> g) & 1:
            t = team(params, g >> 2)
            if (seen >> t) & 1:
                return True
            seen |= (<i64>1) << t
    return False


cdef bint blockade_at(Params params, i32* occ_n, i32* occ, i64 sq) noexcept nogil:
    """V-BLOCKADE: two or more friendly pieces on a loop square."""
    n = occ_n[sq]
    if n < 2 or PRIVATE[sq]:
        return False
    here = 0
    for j in range(n):
        here |= (<i64>1) << occ[(sq) * OCC_DEPTH + (j)]
    return _two_of_one_side(params, here)


cdef bint passes_blockade(Params params, i32* occ_n, i32* occ, i64 seat, i64 p, i64 t, bint lap) noexcept nogil:
    """Whether a single piece moving from ``p`` to ``t`` passes over a blockade."""
    if lap:
        for q in range(p + 1, 76):
            if blockade_at(params, occ_n, occ, SQUARES[seat][q]):
                return True
        for q in range(8, t - 68):
            if blockade_at(params, occ_n, occ, SQUARES[seat][q]):
                return True
        return False
    for q in range(p + 1, min(t, HOME)):
        if blockade_at(params, occ_n, occ, SQUARES[seat][q]):
            return True
    return False


cdef i64 landing(Params params, i32* occ_n, i32* occ, i64 seat, i64 n_moving, i64 sq) noexcept nogil:
    """Resolve a landing on ``sq``: -1 if illegal, else the mask of the pieces it captures.

    R-MOVE item 4, R-CASTLE-BLOCK, R-CASTLE-SAFE, R-CAPTURE, V-STACK-RESTRICTED,
    V-STACK-IMMUNE and V-BLOCKADE, as :func:`pachisi.rules._position.landing`.
    """
    return landing_inline(params, occ_n, occ, seat, n_moving, sq)


cdef inline i64 landing_inline(Params params, i32* occ_n, i32* occ, i64 seat, i64 n_moving, i64 sq) noexcept nogil:
    """:func:`landing`, inlined where every legal list asks it: a piece's move."""
    cdef bint blockaded
    n = occ_n[sq]
    mine = team(params, seat)
    enemies = 0
    n_enemies = 0
    for j in range(n):
        g = occ[(sq) * OCC_DEPTH + (j)]
        if team(params, g >> 2) != mine:
            enemies |= (<i64>1) << g
            n_enemies += 1
    if not stacking_allows(params, n - n_enemies + n_moving, sq):
        return -1
    if n_enemies == 0:
        return 0
    castle = CASTLE[sq]
    mode = param(params, P_CASTLE)
    if castle and mode == 0:
        return -1
    blockaded = (
        param(params, P_BLOCKADE) == 1
        and blockade_at(params, occ_n, occ, sq)
        and _two_of_one_side(params, enemies)
    )
    if blockaded and n_moving < 2:
        return -1
    if castle and mode == 1:
        return 0
    if blockaded and castle:
        return -1
    if param(params, P_STACK_IMMUNE) and n_moving == 1 and n_enemies >= 2:
        return -1
    if param(params, P_TOP_ONE):
        top = occ[(sq) * OCC_DEPTH + (n - 1)]
        return ((<i64>1) << top) if team(params, top >> 2) != mine else 0
    return enemies


cdef i64 top_piece(i32* st, i64 sq) noexcept nogil:
    """The top piece on ``sq`` under a kept stack order (C.11), or -1: the last to arrive."""
    # Which pieces stand there comes first, in a few instructions: most squares a piece
    # lands on are empty, and then the stack order (up to 16 pieces) is not read at all.
    on = pieces_on(st + POS, &SEAT_PROGRESS[sq][0])
    if on == 0:
        return -1
    for j in range(st[ORDER_LEN] - 1, -1, -1):
        g = st[ORDER + j]
        if (on >> g) & 1:
            return <i64>(g)
    return -1


cdef inline bint credits_pooled(Params params) noexcept nogil:
    """V-KILL-BEFORE-HOME under ``kill_before_home=team`` with ``teams=pairs``: partners
    share their kill credits."""
    return param(params, P_KBH) == 2 and not param(params, P_INDIVIDUAL)


cdef inline i64 credits(i32* st, Params params, i64 seat) noexcept nogil:
    if credits_pooled(params):
        return <i64>(st[KILLS + seat] + st[KILLS + partner_of(seat)])
    return <i64>(st[KILLS + seat])


cdef inline bint may_go_home(i32* st, Params params, i64 seat) noexcept nogil:
    """V-KILL-BEFORE-HOME: the final step needs a kill credit."""
    return param(params, P_KBH) == 0 or credits(st, params, seat) >= 1


cdef inline i64 record_pieces(i32* st) noexcept nogil:
    """The pieces named by any capture record (they are told apart from their twins)."""
    mask = 0
    for r in range(st[REC_LEN]):
        mask |= st[RECS + r * REC_FIELDS + 1]
    return mask


cdef inline bint seat_blocked(i32* st, Params params, i64 seat) noexcept nogil:
    """As :func:`pachisi.rules.deadlock.seat_blocked`."""
    cdef bint pooled
    if param(params, P_KBH) == 0 or seat_finished(st, seat):
        return False
    pooled = credits_pooled(params)
    partner = partner_of(seat)
    if st[KILLS + seat] or (pooled and st[KILLS + partner]):
        return False
    capturer = False
    for i in range(4):
        if st[POS + 4 * seat + i] <= 75 or (pooled and st[POS + 4 * partner + i] <= 75):
            capturer = True
    if not capturer:
        return True
    limit = 76 if param(params, P_CASTLE) == 2 else 75
    mine = team(params, seat)
    for g in range(16):
        if team(params, g >> 2) != mine and st[POS + g] <= limit:
            return False
    return True


cdef inline bint every_side_blocked(i32* st, Params params) noexcept nogil:
    if param(params, P_KBH) == 0:
        return False
    if param(params, P_INDIVIDUAL):
        for s in range(4):
            if not seat_blocked(st, params, s):
                return False
        return True
    for t in range(2):
        if not (seat_blocked(st, params, t) or seat_blocked(st, params, t + 2)):
            return False
    return True


# Whether the checks after an action could draw the game after a move not yet made: the
# one-outcome pass (actions.pxi) asks it of a whole spending list at once, instead of
# playing a row out for each group of actions that land alike.


cdef inline bint _low_after_any_move(i32* st, i64 x, i64 m) noexcept nogil:
    """Whether seat ``x`` keeps a piece waiting or on ``p <= 75`` (a capturer, or a possible
    victim, of R-DEADLOCK) after any move of seat ``m``'s pieces: one piece, or a group on
    one progress, forward, sending what it captures back to 0. Another seat's such pieces
    stay such; ``m`` keeps one if one waits or if they stand on two progresses."""
    if x != m:
        for i in range(4):
            if st[POS + 4 * x + i] <= 75:
                return True
        return False
    first = -1
    for i in range(4):
        p = st[POS + 4 * m + i]
        if p == 0:
            return True
        if p <= 75:
            if first < 0:
                first = p
            elif p != first:
                return True
    return False


cdef inline bint _unblocked_after_any_move(i32* st, Params params, i64 s, i64 m) noexcept nogil:
    """Whether seat ``s`` is certainly not blocked (R-DEADLOCK, :func:`seat_blocked`) after
    any move of seat ``m``'s pieces. A finished seat stays finished. Kill credits of
    ``m``'s side only grow; an enemy of ``m`` loses at most one for each capture record it
    holds (V-RECAPTURE-ANNUL). Capturers and victims: :func:`_low_after_any_move` (a
    piece on 76 is left out, which only makes the answer more cautious)."""
    cdef bint pooled
    if seat_finished(st, s):
        return True
    pooled = credits_pooled(params)
    partner = partner_of(s)
    kills = credits(st, params, s)
    if param(params, P_ANNUL) and team(params, s) != team(params, m):
        for r in range(st[REC_LEN]):
            holder = st[RECS + r * REC_FIELDS]
            if holder == s or (pooled and holder == partner):
                kills -= 1
    if kills >= 1:
        return True
    if not (_low_after_any_move(st, s, m) or (pooled and _low_after_any_move(st, partner, m))):
        return False
    mine = team(params, s)
    for e in range(4):
        if team(params, e) != mine and _low_after_any_move(st, e, m):
            return True
    return False


cdef bint unblocked_after_any_move(i32* st, Params params) noexcept nogil:
    """Whether, after any move of the seat to act's pieces (as
    :func:`_low_after_any_move` has them), some side is certainly not blocked, so that
    R-DEADLOCK cannot draw the game then."""
    if param(params, P_KBH) == 0:
        return True
    m = mover_of(st, params, st[SEAT])
    if param(params, P_INDIVIDUAL):
        for s in range(4):
            if _unblocked_after_any_move(st, params, s, m):
                return True
        return False
    for t in range(2):
        if _unblocked_after_any_move(st, params, t, m) and _unblocked_after_any_move(
            st, params, t + 2, m
        ):
            return True
    return False
