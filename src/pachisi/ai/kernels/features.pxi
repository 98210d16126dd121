# The learned evaluation's encoder, compiled: pachisi.ai.learned.features.encode (its plain
# Python reference, which the numpy player runs) step for step, on a state row. The features,
# their offsets and their order are documented there; tests/ai/test_compiled.py checks that
# both encoders write the same indices and the same values, bit for bit.

cdef enum:  # pachisi.ai.learned.features
    F_PROGRESS = 0
    F_BOARD = F_PROGRESS + 4 * 85
    F_DANGER = F_BOARD + 4 * 96
    F_SEAT = F_DANGER + 4 * 12
    F_NEXT = F_SEAT + 4 * 7
    F_STAGE = F_NEXT + 4
    F_THROW_K = F_STAGE + 6
    F_TURN = F_THROW_K + 9
    F_GREEDY = F_TURN + 16

cpdef enum:
    # The length of the (dense) feature vector.
    FEATURES = F_GREEDY + 4
    # More than the most features one position can switch on.
    MAX_ACTIVE = 192

# Points of greedy's score per unit of F_GREEDY (the evaluation's scale).
cdef double GREEDY_SCALE = 150.0

# reach[seat][square]: the progress at which seat's pieces stand on the square (-1 if never;
# the last of two), with the castles as reach[4][square] (1 for a castle): features.tables().
cdef i32 REACH[5][NUM_SQUARES]


cdef void fill_reach() noexcept nogil:
    """Fill :data:`REACH` (once, when the module loads)."""
    cdef i64 seat, p, sq
    for seat in range(4):
        for sq in range(NUM_SQUARES):
            REACH[seat][sq] = -1
        for p in range(1, LAST_SQUARE + 1):
            REACH[seat][SQUARES[seat][p]] = <i32>p
    for sq in range(NUM_SQUARES):
        REACH[4][sq] = CASTLE[sq]


fill_reach()


cdef i64 c_encode(i32* st, i32* params, double* hit, i64 o, i64 blocked, double* greedy, i32* idx, double* val) noexcept nogil:
    """Write the features of ``st`` seen from seat ``o`` into ``idx``/``val``; their count.

    ``hit[d]`` is the chance that one throw is worth ``d`` (d < 26); ``blocked`` has bit
    ``seat`` set for every seat that can never earn the kill it needs, and ``greedy[seat]``
    is ``greedy``'s score for each seat's side. Indices come out in increasing order, with
    no repeats. As pachisi.ai.learned.features.encode."""
    cdef bint individual = params[P_INDIVIDUAL] != 0
    cdef bint castles_protect = params[P_CASTLE] != 2
    cdef i64 kbh = params[P_KBH]
    cdef i64 n = 0
    cdef i64 keys[4]
    cdef double bands[12]
    cdef double facts[7]
    cdef double turn[16]
    cdef i64 on_board, r, seat, m, i, p, key, j, count, base, sq, g, t, d, band, f
    cdef i64 kills, home, togo, k, q, v, slot
    cdef double safe, score
    # Counts by progress, then by turned square: each sorted by relative seat, then key.
    for on_board in range(2):
        for r in range(4):
            seat = (o + r) % 4
            m = 0
            for i in range(4):
                p = st[POS + 4 * seat + i]
                if on_board == 0:
                    key = p
                elif 1 <= p <= LAST_SQUARE:
                    key = TURNED[o][SQUARES[seat][p]]
                else:
                    continue
                j = m  # insertion sort of at most four keys
                while j > 0 and keys[j - 1] > key:
                    keys[j] = keys[j - 1]
                    j -= 1
                keys[j] = key
                m += 1
            base = F_BOARD + 96 * r if on_board else F_PROGRESS + 85 * r
            j = 0
            while j < m:
                count = 1
                while j + count < m and keys[j + count] == keys[j]:
                    count += 1
                idx[n] = <i32>(base + keys[j])
                val[n] = <double>count
                n += 1
                j += count
    # Danger: for each exposed piece, the chance that no enemy piece's next throw is worth
    # exactly the distance to it.
    for r in range(4):
        seat = (o + r) % 4
        for band in range(12):
            bands[band] = 0.0
        for i in range(4):
            p = st[POS + 4 * seat + i]
            if p < 1 or p > LAST_SQUARE:
                continue
            sq = SQUARES[seat][p]
            if castles_protect and REACH[4][sq] == 1:
                continue
            safe = 1.0
            for g in range(16):
                t = g >> 2
                if t == seat or (not individual and (t & 1) == (seat & 1)):
                    continue
                d = REACH[t][sq] - st[POS + g]
                if 2 <= d < HIT_REACH and st[POS + g] >= 1:
                    safe *= 1.0 - hit[d]
            bands[(p - 1) * 12 // LAST_SQUARE] += 1.0 - safe
        for band in range(12):
            if bands[band] > 0.0:
                idx[n] = <i32>(F_DANGER + 12 * r + band)
                val[n] = bands[band]
                n += 1
    for r in range(4):
        seat = (o + r) % 4
        base = F_SEAT + 7 * r
        kills = st[KILLS + seat]
        if kbh == 2 and not individual:
            kills += st[KILLS + (seat + 2) % 4]
        home = 0
        togo = 0
        for i in range(4):
            p = st[POS + 4 * seat + i]
            if p == HOME:
                home += 1
            togo += HOME - p
        facts[0] = <double>((st[ENTERED] >> seat) & 1)
        facts[1] = min(<i64>st[KILLS + seat], 4) / 4.0
        facts[2] = 1.0 if home == 4 else 0.0
        facts[3] = 1.0 if kbh != 0 and kills == 0 and home < 4 else 0.0
        facts[4] = <double>((blocked >> seat) & 1)
        facts[5] = home / 4.0
        facts[6] = togo / 336.0
        for f in range(7):
            if facts[f] != 0.0:
                idx[n] = <i32>(base + f)
                val[n] = facts[f]
                n += 1
    idx[n] = <i32>(F_NEXT + (st[SEAT] - o) % 4)
    val[n] = 1.0
    n += 1
    idx[n] = <i32>(F_STAGE + st[STAGE])
    val[n] = 1.0
    n += 1
    k = st[THROW_K]
    idx[n] = <i32>(F_THROW_K + (k if k >= 0 else 8))
    val[n] = 1.0
    n += 1
    for f in range(16):
        turn[f] = 0.0
    turn[0] = <double>st[AGAIN]
    turn[1] = <double>st[CAPTURED]
    turn[2] = st[PYADAS] / 4.0
    turn[3] = st[SPLIT_LEFT] / 35.0
    turn[4] = st[SPLIT_VALUE] / 35.0
    for q in range(st[ITEMS_LEN]):
        v = st[ITEMS + q]
        for slot in range(params[P_COWRIES] + 1):
            if params[P_TABLE + slot] == v:
                turn[5 + slot] += 0.25
                break
    turn[13] = st[RUN_LEN] / 3.0
    turn[14] = <double>(st[FLAGS] & 1)
    turn[15] = <double>((st[FLAGS] >> 1) & 1)
    for f in range(16):
        if turn[f] != 0.0:
            idx[n] = <i32>(F_TURN + f)
            val[n] = turn[f]
            n += 1
    for r in range(4):
        score = greedy[(o + r) % 4] / GREEDY_SCALE
        if score != 0.0:
            idx[n] = <i32>(F_GREEDY + r)
            val[n] = score
            n += 1
    return n
