# The engine's part that was pachisi.fast._actions (numba), in Cython.
#
# Compiled legal actions, one per outcome: what every game loop and entry point lists.
#
# :func:`pachisi.fast._legal.raw_legal_actions` lists every use of the throw or the items in
# the reference engine's order; here C.10b's "one outcome, one action" is applied on top,
# as :func:`pachisi.rules.engine.legal_actions` does: in the spending stage, of two actions
# whose resulting states are equal (the items and pyadas an action leaves lapse when it ends
# the turn or the game), only the first is listed. Only actions that take the same pieces to
# the same progress can give equal states, so only those are played out and compared, which
# is rare; every other list is the raw one.


cdef i64 c_legal_actions(i32* st, i32* params, i32* occ_n, i32* occ, i32* out, Pool* pool) noexcept nogil:
    """Every distinct legal action of the seat to act, in the reference engine's order;
    the ids go to ``out`` (which needs room for twice their number), the count is returned."""
    return legal_inline(st, params, occ_n, occ, out, pool)


cdef inline i64 legal_inline(i32* st, i32* params, i32* occ_n, i32* occ, i32* out, Pool* pool) noexcept nogil:
    """:func:`legal_actions`, inlined into a game loop."""
    n = raw_legal_inline(st, params, occ_n, occ, out, pool)
    if st[STAGE] == SPEND_STAGE and n > 2 and _keys_collide(st, params, out, n):
        n = _one_per_outcome(st, params, out, n)
    return n


cdef inline i64 _landing_key(i32* st, i32* params, i64 a) noexcept nogil:
    """The pieces an action moves and the progress it takes them to, as one number: equal
    resulting states have equal keys (every entry has one key: the lowest waiting piece
    enters, whichever item it uses)."""
    kind, piece, slot, size, steps, pyada = decode(a)
    if kind == K_DECLINE:
        return -1
    if kind in (K_ENTER, K_FREE):
        return -2
    m = mover_of(st, params, st[SEAT])
    p = st[POS + 4 * m + piece]
    if kind == K_EXIT:
        t = HOME
    elif pyada:
        t = p + 1
    elif steps:
        t = p + steps
    elif kind == K_LAP:
        t = p + params[P_TABLE + slot] - 68 + 1000
    else:
        t = p + params[P_TABLE + slot]
    return (t * 4 + piece) * 8 + size


cdef void _sorted_keys(i32* keys, i64 n, i64* packed) noexcept nogil:
    """``packed[r]``: the r-th of the ``n`` keys in ascending order, with its index, as
    ``(key + 2) << 16 | index`` (keys are -2..40,000 and indices below MAX_LIST), so that
    equal keys form runs in index order. A stable radix sort, one byte of the key a pass:
    the keys are small integers, and a comparison sort cost more than the rest of a list."""
    cdef i64 low[MAX_LIST]
    cdef i64 count[257]
    cdef i64 k, v, b
    memset(count, 0, sizeof(count))
    for i in range(n):
        count[((keys[i] + 2) & 255) + 1] += 1
    for b in range(256):
        count[b + 1] += count[b]
    for i in range(n):
        k = keys[i] + 2
        low[count[k & 255]] = (k << 16) | i
        count[k & 255] += 1
    memset(count, 0, sizeof(count))
    for i in range(n):
        count[((low[i] >> 24) & 255) + 1] += 1
    for b in range(256):
        count[b + 1] += count[b]
    for i in range(n):
        v = low[i]
        b = (v >> 24) & 255
        packed[count[b]] = v
        count[b] += 1


cdef bint _keys_collide(i32* st, i32* params, i32* out, i64 n) noexcept nogil:
    """Whether two of the ``n`` actions in ``out`` share a key; the keys are left in
    ``out[n:2n]``."""
    # One bit per key (key + 2 is below 2**16): a spending stage with split throws lists
    # hundreds of actions, too many to compare every pair. Only the words the keys fall in
    # are cleared, and only those are read.
    cdef u64 seen[1024]
    cdef i64 k
    for i in range(n):
        k = _landing_key(st, params, out[i]) + 2
        out[n + i] = k - 2
        seen[k >> 6] = 0
    for i in range(n):
        k = out[n + i] + 2
        if seen[k >> 6] & (<u64>1 << (k & 63)):
            return True
        seen[k >> 6] |= <u64>1 << (k & 63)
    return False


cdef i64 _one_per_outcome(i32* st, i32* params, i32* out, i64 n) noexcept nogil:
    """Drop every action whose resulting state equals that of an earlier kept one; the
    keys are in ``out[n:2n]``. Returns how many actions are left at the start of ``out``.

    Rare (only lists with colliding keys come here), so it allocates its own scratch; if
    that fails it keeps every action, which the callers' checks against the reference
    engine would show.
    """
    cdef i32* keys = <i32*>malloc(n * sizeof(i32))
    cdef i32* rows = <i32*>malloc(n * STATE_SIZE * sizeof(i32))
    cdef char* kept_at = <char*>calloc(n, 1)
    cdef i32* occ_n = <i32*>calloc(OCC_N_SIZE + OCC_SQUARES * OCC_DEPTH, sizeof(i32))
    cdef i32* occ = occ_n + OCC_N_SIZE
    # The keys in ascending order (runs of equal keys in index order), and each action's
    # place in that order: an action's equals are its run's neighbours.
    cdef i64* packed = <i64*>malloc(n * sizeof(i64))
    cdef i64* rank = <i64*>malloc(n * sizeof(i64))
    cdef i32 evn[3]
    cdef bint shared, same
    if keys == NULL or rows == NULL or kept_at == NULL or occ_n == NULL or packed == NULL or rank == NULL:
        free(keys)
        free(rows)
        free(kept_at)
        free(occ_n)
        free(packed)
        free(rank)
        return n
    memcpy(keys, out + n, n * sizeof(i32))
    _sorted_keys(keys, n, packed)
    for r in range(n):
        rank[packed[r] & 0xFFFF] = r
    kept = 0
    for i in range(n):
        a = out[i]
        r = rank[i]
        shared = (r > 0 and (packed[r - 1] >> 16) == (packed[r] >> 16)) or (
            r + 1 < n and (packed[r + 1] >> 16) == (packed[r] >> 16)
        )
        if shared:
            memcpy(rows + i * STATE_SIZE, st, STATE_SIZE * sizeof(i32))
            evn[0] = 0
            evn[1] = 0
            evn[2] = 0
            c_apply_action(rows + i * STATE_SIZE, params, a, occ_n, occ, NULL, evn)
            same = False
            # The earlier actions with this key: the run before ``r``.
            q = r - 1
            while q >= 0 and (packed[q] >> 16) == (packed[r] >> 16):
                j = packed[q] & 0xFFFF
                if kept_at[j] and same_state(rows + i * STATE_SIZE, rows + j * STATE_SIZE):
                    same = True
                    break
                q -= 1
            if same:
                continue
        kept_at[i] = True
        out[kept] = a
        kept += 1
    free(keys)
    free(rows)
    free(kept_at)
    free(occ_n)
    free(packed)
    free(rank)
    return kept


cdef bint same_state(i32* a, i32* b) noexcept nogil:
    """Whether two rows hold the same state: every field the reference state has, the
    used parts of the lists only, and not the derived ``SETTLED``."""
    for q in range(ORDER):
        if a[q] != b[q]:
            return False
    if a[ORDER_LEN] != b[ORDER_LEN] or a[REC_LEN] != b[REC_LEN] or a[ITEMS_LEN] != b[ITEMS_LEN]:
        return False
    for j in range(a[ORDER_LEN]):
        if a[ORDER + j] != b[ORDER + j]:
            return False
    for q in range(ORDER_LEN + 1, RECS):
        if a[q] != b[q]:
            return False
    for q in range(RECS, RECS + a[REC_LEN] * REC_FIELDS):
        if a[q] != b[q]:
            return False
    for q in range(THROW_K, ITEMS):
        if a[q] != b[q]:
            return False
    for j in range(a[ITEMS_LEN]):
        if a[ITEMS + j] != b[ITEMS + j]:
            return False
    return <bint>(a[OVERFLOW] == b[OVERFLOW])
