# Splitting one throw among several men (V-SPLIT-THROW's ``split``): the search of
# :mod:`pachisi.rules._legal`'s split parts, by sums where the parts cannot meet and by a
# depth-first search where they can, and the pool of scratch levels that search works in.
# Cut out of legal.pxi, which lists a seat's actions and calls in here for a split throw.

cdef enum:
    # A level's search bookkeeping, in its metadata row (types.pxi, META_SIZE) after the
    # occupancy counts and the three event counts (evn) its moves use.
    _META = OCC_N_SIZE + 3
    _LEFT = _META
    _UNUSED = _META + 1
    _PIECES = _META + 2
    _PIECE = _META + 3
    _NEXT = _META + 4


cdef inline void clear_pool(Pool* pool) noexcept nogil:
    """Make a pool on the stack ready, as :func:`new_pool` leaves one: only the levels'
    metadata must start at zero (empty occupancy counts, no memo, events off); the rows and
    occupancy lists are written before they are read. A whole pool is about 48 KB, and
    R-FROZEN's exact test sets one up each time it runs."""
    memset(pool.meta, 0, sizeof(pool.meta))


cdef Pool* new_pool() noexcept nogil:
    """Scratch for the split search: a state row, occupancy and event counts per level,
    zeroed (so every level's events are off); NULL if memory ran out. Free it with
    ``free``."""
    return <Pool*>calloc(1, sizeof(Pool))


cdef inline i64 _reach(i32* st, i64 m, i64 used) noexcept nogil:
    """How many steps the pieces of ``m`` on the board outside ``used`` could take together:
    a part never passes home (R-MOVE) and only a seat's own parts move its pieces, so no
    split can share out more. The search skips any part that leaves more than this."""
    total = 0
    for j in range(4):
        p = st[POS + 4 * m + j]
        if not (used >> j) & 1 and 0 < p < HOME:
            total += HOME - p
    return total


cdef inline i64 _split_parts(i32* st, Params params, i32* occ_n, i32* occ, i64 m, i64 v, i64 left, i32* out, i64 n, bint first_only, Pool* pool, i64 pieces, Landed* landed) noexcept nogil:
    """Parts of ``left`` steps (of the throw ``v``) that still lead to a full split.

    ``first_only``: the first parts of a new split, which are shorter than the throw.
    ``pieces``: the candidates, :func:`movable` of the pieces the split has not used.
    Where the parts cannot affect each other's legality (:func:`parts_independent`) the
    answer comes from sums of allowed parts (:func:`split_parts_by_sums`), else from a
    search that plays the parts out (:func:`split_parts_by_search`); both list the same
    parts in the same order, and note them in ``landed`` unless it is NULL.
    """
    if parts_independent(params, v):
        return split_parts_by_sums(
            st, params, occ_n, occ, m, v, left, out, n, first_only, pieces, landed
        )
    return split_parts_by_search(
        st, params, occ_n, occ, m, v, left, out, n, first_only, pool, pieces, landed
    )


cdef inline bint parts_independent(Params params, i64 v) noexcept nogil:
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
        param(params, P_STACKING) == 0
        and not param(params, P_BLOCKADE)
        and not (param(params, P_TOP_ONE) and param(params, P_KBH))
        and v <= 31
    )


cdef inline i64 _smear(i64 sums, i64 length, i64 limit) noexcept nogil:
    """Every total ``s + k`` with ``s`` in ``sums`` and ``0 <= k < length``, up to
    ``limit``: the mask ORed with itself shifted by 1, 2, 4, ..., then by what is left."""
    span = 1
    out = sums
    while 2 * span <= length:
        out |= out << span
        span *= 2
    if span < length:
        out |= out << (length - span)
    return out & limit


cdef inline i64 _spread(i64 sums, i64 parts, i64 limit) noexcept nogil:
    """Every total ``s + k`` with ``s`` in ``sums`` and ``k`` in ``parts`` (bitmasks over
    step counts, below bit 32), up to ``limit``: the other mask shifted by each set bit of
    the one with fewer bits. A piece that may take any part up to its reach (no enemy
    castle in the way) has every step count from 0 up: such a mask spreads the other in
    a few doublings (:func:`_smear`)."""
    if parts and parts & (parts + 1) == 0:
        return _smear(sums, 64 - leading_zeros(parts), limit)
    if sums and sums & (sums + 1) == 0:
        return _smear(parts, 64 - leading_zeros(sums), limit)
    if popcount(parts) < popcount(sums):
        sums, parts = parts, sums
    out = 0
    while sums:
        out |= parts << lowest_bit(sums)
        if out & limit == limit:
            break
        sums &= sums - 1
    return out & limit


cdef inline i64 _sums(i64* choices, i64 pieces, i64 limit) noexcept nogil:
    """Every total the ``pieces`` (a bitmask) can make, each adding one of its ``choices``
    (a mask over steps that includes 0), up to ``limit``."""
    if not pieces:
        return 1
    # The first piece's totals are its choices: no spreading, and no counting of bits,
    # which takes a dozen instructions without a popcnt.
    out = choices[lowest_bit(pieces)] & limit
    pieces &= pieces - 1
    while pieces:
        out = _spread(out, choices[lowest_bit(pieces)], limit)
        pieces &= pieces - 1
    return out


cdef inline i64 _cached(i32* occ_n, i64 at) noexcept nogil:
    """A 32-bit mask kept in the ``int32`` scratch (its top bit reads back as the sign)."""
    return <i64>(occ_n[at]) & 0xFFFFFFFFLL


cdef inline (i64, i64) _reach_of(i32* st, i64 m, i64 j, i64 used, i64 wide) noexcept nogil:
    """Piece ``j`` of ``m``'s progress and the most steps a part of it may take (at most
    ``wide``, and short of home), or (-100, 0) for a piece not on the board or used."""
    p = st[POS + 4 * m + j]
    if (used >> j) & 1 or not 0 < p < HOME:
        return -100, 0
    return p, min(wide, HOME - p - 1)


cdef inline i64 _offset(i64 t, i64 p, i64 most) noexcept nogil:
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


cdef inline bint _landings_by_square(Params params) noexcept nogil:
    """Whether what a single piece's landing does depends on the square alone (besides
    stacking=all, which the split sums already need): no immune stacks and every piece of
    a stack captured, so that a square with enemies is refused (a castle under
    ``castle_mode=block``), left alone (a castle under ``coexist``) or captured
    (:func:`landing`), whatever else stands there."""
    return not param(params, P_STACK_IMMUNE) and not param(params, P_TOP_ONE)


cdef inline u64 _window(u64 low, u64 high, i64 p) noexcept nogil:
    """Bits ``p`` to ``p + 63`` of the 128-bit mask ``high:low``, as the low bits (p >= 0)."""
    if p == 0:
        return low
    if p < 64:
        return (low >> p) | (high << (64 - p))
    return high >> (p - 64)


cdef inline void _parts_by_square(i32* st, Params params, i64 m, i64 enemies, i64* ps, i64* mosts, i32* occ_n) noexcept nogil:
    """:func:`_parts`'s plain and capturing parts where landings depend on the square
    alone (:func:`_landings_by_square`): the squares of the enemies (``enemies``, whole
    seats, :func:`enemy_pieces`) as masks over the mover's progress (the squares it may
    not land on, and those where it captures), each piece's parts (of at most
    ``mosts[j]`` steps from ``ps[j]``) then a shift of them, without a look at any square
    twice."""
    cdef u64 bad_low = 0, bad_high = 0, take_low = 0, take_high = 0, bit
    cdef bint block = param(params, P_CASTLE) == 0
    cdef bint coexist = param(params, P_CASTLE) == 1
    cdef bint castle
    cdef const i32* meets
    # Enemies come by whole seats: each seat's row of MEETS is looked up by progress alone.
    for s in range(4):
        if not (enemies >> (4 * s)) & 1:
            continue
        meets = &MEETS[m][(HOME + 1) * s]
        for i in range(4):
            t = meets[st[POS + 4 * s + i]]
            if t < 0:
                continue
            castle = t >= CASTLE_MARK
            t &= CASTLE_MARK - 1
            if coexist and castle:
                continue
            # The route passes its own column twice: progress t and HOME - t (t up to 8)
            # are one square.
            for q in range(2):
                if q == 1:
                    if t > 8:
                        break
                    t = HOME - t
                bit = (<u64>1) << (t & 63)
                if block and castle:
                    if t < 64:
                        bad_low |= bit
                    else:
                        bad_high |= bit
                elif t < 64:
                    take_low |= bit
                else:
                    take_high |= bit
    for j in range(4):
        most = mosts[j]
        plain = (((<i64>1) << (most + 1)) - 1) & ~1
        takes = 0
        if most > 0:
            takes = <i64>_window(take_low, take_high, ps[j]) & plain
            plain &= ~<i64>_window(bad_low | take_low, bad_high | take_high, ps[j])
        occ_n[_PLAIN + j] = plain
        occ_n[_TAKES + j] = takes


cdef inline void _parts(i32* st, Params params, i32* occ_n, i32* occ, i64 m, i64 used, i64 wide) noexcept nogil:
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
    cdef i64[4] ps = [p0, p1, p2, p3]
    cdef i64[4] mosts = [most0, most1, most2, most3]
    for j in range(4):
        p = ps[j]
        occ_n[_HOMES + j] = ((<i64>1) << (HOME - p)) if p > 0 and HOME - p <= wide else 0
    enemies = enemy_pieces(params, m)
    if _landings_by_square(params):
        _parts_by_square(st, params, m, enemies, ps, mosts, occ_n)
        return
    plain0 = (((<i64>1) << (most0 + 1)) - 1) & ~1
    plain1 = (((<i64>1) << (most1 + 1)) - 1) & ~1
    plain2 = (((<i64>1) << (most2 + 1)) - 1) & ~1
    plain3 = (((<i64>1) << (most3 + 1)) - 1) & ~1
    takes0 = takes1 = takes2 = takes3 = 0
    # A square without enemies takes a single piece (stacking=all): only the enemies'
    # squares need a look, each once (``seen``, two words of square bits).
    seen_low = seen_high = 0
    while enemies:
        g = lowest_bit(enemies)
        enemies &= enemies - 1
        pg = st[POS + g]
        if not 0 < pg < HOME:
            continue
        sq = SQUARES[g >> 2][pg]
        if sq < 64:
            if (seen_low >> sq) & 1:
                continue
            seen_low |= (<i64>1) << sq
        else:
            if (seen_high >> (sq - 64)) & 1:
                continue
            seen_high |= (<i64>1) << (sq - 64)
        t = PROGRESS_ON[m][sq]
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
        plain0 &= ~((<i64>1) << d0)
        plain1 &= ~((<i64>1) << d1)
        plain2 &= ~((<i64>1) << d2)
        plain3 &= ~((<i64>1) << d3)
        if got > 0:
            takes0 |= ((<i64>1) << d0) & ~1
            takes1 |= ((<i64>1) << d1) & ~1
            takes2 |= ((<i64>1) << d2) & ~1
            takes3 |= ((<i64>1) << d3) & ~1
    cdef i64[4] plains = [plain0, plain1, plain2, plain3]
    cdef i64[4] takes = [takes0, takes1, takes2, takes3]
    for j in range(4):
        occ_n[_PLAIN + j] = plains[j]
        occ_n[_TAKES + j] = takes[j]


cdef void _fill_split_cache(i32* st, Params params, i32* occ_n, i32* occ, i64 m, i64 wide, i64 pieces) noexcept nogil:
    """Cache, for the position of this occupancy and rests of up to ``wide`` steps, every
    unused piece's parts (plain, capturing, home) and, for each of ``pieces`` (the unused
    ones, :func:`movable`), the totals the other pieces can make: all of them (``total``),
    and those that need no kill credit or bring their own capture (``backed``), each
    reversed (total ``s`` at bit ``31 - s``), as every throw's parts read them
    (:func:`split_parts_by_sums`). A shorter rest masks them: totals only grow as parts are
    added, so none of a shorter rest is lost."""
    cdef bint credit
    used = st[SPLIT_USED]
    limit = ((<i64>1) << (wide + 1)) - 1
    credit = may_go_home(st, params, m)
    _parts(st, params, occ_n, occ, m, used, wide)
    cdef i64 plain[4]
    cdef i64 takes[4]
    cdef i64 home[4]
    cdef i64 full[4]
    cdef i64 homeless[4]
    # Bitmasks over the pieces: those with a part (some choice besides nothing), with one
    # short of home, with a part home, and with a capturing one.
    moving = short = homing = taking = 0
    for j in range(4):
        plain[j] = _cached(occ_n, _PLAIN + j)
        takes[j] = _cached(occ_n, _TAKES + j)
        home[j] = _cached(occ_n, _HOMES + j)
        # Each piece gives at most one part: every piece's choices, nothing included (bit 0).
        full[j] = 1 | plain[j] | takes[j] | home[j]
        homeless[j] = 1 | plain[j] | takes[j]
        bit = (<i64>1) << j
        if full[j] != 1:
            moving |= bit
        if homeless[j] != 1:
            short |= bit
        if home[j]:
            homing |= bit
        if takes[j]:
            taking |= bit
    for i in range(4):
        if not (pieces >> i) & 1:
            continue
        others = ~((<i64>1) << i)
        total = _sums(full, moving & others, limit)
        if credit or not homing & others:
            backed = total
        else:
            # Without a credit a total is backed when it takes no piece home, or when one
            # of its parts captures (whatever the others do).
            backed = _sums(homeless, short & others, limit)
            takers = taking & others
            while takers:
                j = lowest_bit(takers)
                takers &= takers - 1
                rest = _sums(full, moving & others & ~((<i64>1) << j), limit)
                backed |= _spread(takes[j], rest, limit)
        reversed_total = reverse32(total)
        occ_n[_TOTAL + i] = reversed_total
        occ_n[_BACKED + i] = reversed_total if backed == total else reverse32(backed)
    occ_n[SPLIT_CACHE] = wide


cdef inline i64 split_parts_by_sums(i32* st, Params params, i32* occ_n, i32* occ, i64 m, i64 v, i64 left, i32* out, i64 n, bint first_only, i64 pieces, Landed* landed) noexcept nogil:
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
    cdef bint credit, starting
    used = st[SPLIT_USED]
    starting = left == v and used == 0
    slot = value_slot(params, v)
    unused = pieces_on_board(st, m) & ~used
    if not unused:
        return n
    alone = lowest_bit(unused) if unused & (unused - 1) == 0 else 4
    if alone < 4:
        if first_only or starting:
            return n
        if move_legal_inline(st, params, occ_n, occ, m, 4 * m + alone, 1, left):
            out[n] = part_id(alone, slot, left)
            n += 1
            _land_steps(landed, alone, left)
        return n
    if occ_n[SPLIT_CACHE] < left:
        _fill_split_cache(st, params, occ_n, occ, m, left, pieces)
    credit = may_go_home(st, params, m)
    for i in range(4):
        if not (pieces >> i) & 1:
            continue
        takes = _cached(occ_n, _TAKES + i)
        top = left - 1 if starting else left
        home = _cached(occ_n, _HOMES + i) if credit else 0
        tries = (_cached(occ_n, _PLAIN + i) | takes | home) & (((<i64>2) << top) - 1)
        # A part of k < left steps is good when the others can make the other left - k:
        # bit left - k of their totals, which the cache's reversed totals shifted put at
        # bit k, so that all the good parts come out of one mask, shortest first. With a
        # credit every total is backed.
        shift = 31 - left
        rest = _cached(occ_n, _TOTAL + i) >> shift
        rest_backed = _cached(occ_n, _BACKED + i) >> shift
        good = tries & (((<i64>1) << left) - 1) & ((takes & rest) | (~takes & rest_backed))
        if not first_only:
            good |= tries & ((<i64>1) << left)
        _land(landed, i, <u64>good)
        while good:
            out[n] = part_id(i, slot, lowest_bit(good))
            n += 1
            good &= good - 1
    return n


cdef i64 split_parts_by_search(i32* st, Params params, i32* occ_n, i32* occ, i64 m, i64 v, i64 left, i32* out, i64 n, bint first_only, Pool* pool, i64 pieces, Landed* landed) noexcept nogil:
    """:func:`_split_parts` by playing the parts out: each candidate part is made on a copy
    and the rest searched depth first (:func:`_completable`)."""
    cdef bint starting
    used = st[SPLIT_USED]
    starting = left == v and used == 0
    slot = value_slot(params, v)
    for i in range(4):
        if not (pieces >> i) & 1:
            continue
        g = 4 * m + i
        top = left - 1 if starting else left
        others = _reach(st, m, used | ((<i64>1) << i))
        for k in range(1, top + 1):
            if k < left and left - k > others:
                continue
            if not move_legal(st, params, occ_n, occ, m, g, 1, k):
                continue
            if k == left:
                if first_only:
                    continue
            elif not _completes_directly(st, params, occ_n, occ, m, i, k, left):
                _after_part(st, params, m, i, k, left, pool, 0)
                if not _completable(params, m, left - k, pool, 0):
                    continue
            out[n] = part_id(i, slot, k)
            n += 1
            _land_steps(landed, i, k)
    return n


cdef bint _completes_directly(i32* st, Params params, i32* occ_n, i32* occ, i64 m, i64 i, i64 k, i64 left) noexcept nogil:
    """Quick sufficient test: after a capture-free part, one other piece takes the rest.

    The moved piece's square is patched in the occupancy, then put back as it was.
    """
    g = 4 * m + i
    p = st[POS + g]
    t = p + k
    if t >= HOME:
        return False
    sq_from = SQUARES[m][p]
    sq_to = SQUARES[m][t]
    if landing(params, occ_n, occ, m, 1, sq_to) > 0:
        return False
    at = -1
    for q in range(occ_n[sq_from]):
        if occ[(sq_from) * OCC_DEPTH + (q)] == g:
            at = q
    for q in range(at, occ_n[sq_from] - 1):
        occ[(sq_from) * OCC_DEPTH + (q)] = occ[(sq_from) * OCC_DEPTH + (q + 1)]
    occ_n[sq_from] -= 1
    occ[(sq_to) * OCC_DEPTH + (occ_n[sq_to])] = g
    occ_n[sq_to] += 1
    used = st[SPLIT_USED] | ((<i64>1) << i)
    result = False
    pieces = movable(st, params, m, used)
    for j in range(4):
        if (pieces >> j) & 1 and move_legal(st, params, occ_n, occ, m, 4 * m + j, 1, left - k):
            result = True
            break
    occ_n[sq_to] -= 1
    for q in range(occ_n[sq_from], at, -1):
        occ[(sq_from) * OCC_DEPTH + (q)] = occ[(sq_from) * OCC_DEPTH + (q - 1)]
    occ[(sq_from) * OCC_DEPTH + (at)] = g
    occ_n[sq_from] += 1
    return result


cdef void _after_part(i32* st, Params params, i64 m, i64 i, i64 k, i64 left, Pool* pool, i64 d) noexcept nogil:
    """Level ``d`` of the pool becomes ``st`` after piece ``i`` of ``m`` takes ``k`` steps."""
    after = pool.rows[d]
    for q in range(STATE_SIZE):
        after[q] = st[q]
    occ_n = pool.meta[d]
    g = 4 * m + i
    move(after, params, m, (<i64>1) << g, st[POS + g] + k, False, occ_n, pool.occ[d], NULL,
         occ_n + OCC_N_SIZE)
    after[SPLIT_LEFT] = left - k
    after[SPLIT_USED] |= (<i64>1) << i


cdef void _open(Params params, i64 m, Pool* pool, i64 d, i64 left) noexcept nogil:
    """Start searching level ``d``: its occupancy, and its candidates from the first."""
    st = pool.rows[d]
    meta = pool.meta[d]
    occupancy(st, params, meta, pool.occ[d])
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


cdef bint _completable(Params params, i64 m, i64 left, Pool* pool, i64 d0) noexcept nogil:
    """Whether the remaining ``left`` steps of level ``d0``'s state can be shared among its
    unused pieces: a depth-first search, one pool level per piece that takes a part
    (numba cannot cache a recursive function, so the stack is the pool)."""
    _open(params, m, pool, d0, left)
    d = d0
    while True:
        st = pool.rows[d]
        meta = pool.meta[d]
        occ = pool.occ[d]
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
                    shortest = meta[_LEFT] - _reach(st, m, st[SPLIT_USED] | ((<i64>1) << i))
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
