# The engine's part that was pachisi.fast._actions (numba), in Cython.
#
# Compiled legal actions, one per outcome: what every game loop and entry point lists.
#
# :func:`pachisi.fast._legal.raw_legal_actions` lists every use of the throw or the items in
# the reference engine's order; here C.10b's "one outcome, one action" is applied on top,
# as :func:`pachisi.rules.engine.legal_actions` does: in the spending stage, of two actions
# whose resulting states are equal (the items and pyadas an action leaves lapse when it ends
# the turn or the game), only the first is listed. Only actions that take the same pieces to
# the same progress can give equal states, so only those are played out and compared; every
# other list is the raw one.


cdef i64 c_legal_actions(i32* st, Params params, i32* occ_n, i32* occ, i32* out, Pool* pool) noexcept nogil:
    """Every distinct legal action of the seat to act, in the reference engine's order;
    the ids go to ``out`` (which needs room for twice their number), the count is returned."""
    return legal_inline(st, params, occ_n, occ, out, pool)


cdef inline i64 legal_inline(i32* st, Params params, i32* occ_n, i32* occ, i32* out, Pool* pool) noexcept nogil:
    """:func:`legal_actions`, inlined into a game loop."""
    cdef Landed landed
    if not param(params, P_COLLECT):
        # Nothing is spent from collected items: no list has two actions of one outcome.
        return raw_legal_inline(st, params, occ_n, occ, out, pool, NULL)
    landed.untracked = True
    n = raw_legal_inline(st, params, occ_n, occ, out, pool, &landed)
    # The rest of a split lists one part per unused piece and length: never two of one
    # outcome.
    if st[STAGE] != SPEND_STAGE or n <= 2 or st[SPLIT_LEFT]:
        return n
    shared = _shared_landings(&landed, params, st + POS + 4 * mover_of(st, params, st[SEAT]))
    if shared == NONE_SHARED:
        return n
    if (
        shared == SHARED_APART
        and st[ITEMS_LEN] + st[PYADAS] >= 2
        and _moves_cannot_draw(st, params)
    ):
        # Every two actions that share a landing spend different things (_shared_landings)
        # and leave the turn going on, and no move or entry draws: each is an outcome of
        # its own, as _one_per_outcome would find with rows.
        return n
    if _keys_collide(st, params, out, n):
        n = _one_per_outcome(st, params, out, n)
    return n


cdef enum:
    # What _shared_landings finds.
    NONE_SHARED = 0
    SHARED_APART = 1
    SHARED_OTHERWISE = 2


cdef inline i64 _shared_landings(Landed* landed, Params params, i32* pos) noexcept nogil:
    """What the actions of a spending stage's list, as its making noted them in ``landed``,
    share: ``NONE_SHARED`` if no two take the same pieces to the same place (then no two
    can have one outcome); ``SHARED_APART`` if only moves of one piece short of home do, or
    entries, each spending something different; ``SHARED_OTHERWISE`` if anything else may
    (a landing home, two entries that spend one item, a group move, or a list that was not
    noted). ``pos`` is where the mover's four pieces' progress starts in the row.

    Two moves of one piece to one place short of home spend different things, which each
    leaves to spend: they come from different values' uses (a whole item, or a first part
    of a larger one; a split's first parts of one item are of different lengths), or one
    is a pyada's step. One value's uses take a piece to one place once, but for an exit and
    a one-step part, which both go home (legal.pxi, ``value_uses``). Entries (one landing
    key for all) spend their own values' items, or the pyada, unless one value lists both a
    free entry and a grace's. They count as apart only where every entry lands on progress
    75 or below, which the checks after an action treat as they treat a move
    (:func:`_moves_cannot_draw`): where no value of 62 up to the last square exists
    (``P_VALUES + 2``), an entry lands on 1 + 61 at most."""
    if landed.untracked:
        return SHARED_OTHERWISE
    shared = NONE_SHARED
    if landed.entries >= 2:
        if landed.entries_alike or param(params, P_VALUES + 2):
            return SHARED_OTHERWISE
        shared = SHARED_APART
    for i in range(4):
        twice = landed.twice[i]
        if twice:
            shared = SHARED_APART
            # A piece with a shared landing is on the board: 1 <= HOME - p < HOME.
            home = HOME - pos[i]
            if home < 64 and (twice >> home) & 1:
                return SHARED_OTHERWISE
    return shared


cdef enum:
    # Landing keys (_landing_key) are below KEY_LIMIT: 0 a decline, 1 an entry, then one
    # per lap flag, progress up to home, piece and group size.
    KEY_LIMIT = 2 + 2 * (HOME + 1) * 16
    KEY_WORDS = (KEY_LIMIT + 63) >> 6


cdef inline i64 _landing_key(i32* pos, Params params, i64 a) noexcept nogil:
    """The pieces an action moves and the progress it takes them to, as one number below
    ``KEY_LIMIT``: equal resulting states have equal keys (every entry has one key: the
    lowest waiting piece enters, whichever item it uses). ``pos`` is where the mover's
    four pieces' progress starts in the row. A move never passes home, and a second-lap
    move lands short of it, so each of them is one of ``HOME + 1`` places."""
    kind, piece, slot, size, steps, pyada = decode_listed(a)
    if kind == K_DECLINE:
        return 0
    if kind in (K_ENTER, K_FREE):
        return 1
    p = pos[piece]
    if kind == K_EXIT:
        t = HOME
    elif pyada:
        t = p + 1
    elif steps:
        t = p + steps
    elif kind == K_LAP:
        t = p + param(params, P_TABLE + slot) - 68 + HOME + 1
    else:
        t = p + param(params, P_TABLE + slot)
    return 2 + (t * 4 + piece) * 4 + size - 1


cdef inline bint _key_home(i64 key) noexcept nogil:
    """Whether a landing key (:func:`_landing_key`) takes its pieces home."""
    return key >= 2 and (key - 2) >> 4 == HOME


cdef bint _keys_collide(i32* st, Params params, i32* out, i64 n) noexcept nogil:
    """Whether two of the ``n`` actions in ``out`` share a key; the keys are left in
    ``out[n:2n]``."""
    # One bit per key: a spending stage with split throws lists hundreds of actions, too
    # many to compare every pair. Only the words the keys fall in are cleared, and only
    # those are read.
    cdef u64 seen[KEY_WORDS]
    cdef i64 k
    # The mover is asked once, not once an action.
    cdef i32* pos = st + POS + 4 * mover_of(st, params, st[SEAT])
    for i in range(n):
        k = _landing_key(pos, params, out[i])
        out[n + i] = k
        seen[k >> 6] = 0
    for i in range(n):
        k = out[n + i]
        if seen[k >> 6] & (<u64>1 << (k & 63)):
            return True
        seen[k >> 6] |= <u64>1 << (k & 63)
    return False


cdef enum:
    # The rows of actions that share a landing that _one_per_outcome keeps on the stack
    # (about 17 KB): a list of a random wikipedia-full game's spending stage that has any
    # has about 11 (169,380 rows in 14,888 lists); allocating them for each list took 1.5%
    # of its instructions.
    STACK_ROWS = 16


cdef i64 _one_per_outcome(i32* st, Params params, i32* out, i64 n) noexcept nogil:
    """Drop every action whose resulting state equals that of an earlier kept one; the
    keys are in ``out[n:2n]``. Returns how many actions are left at the start of ``out``.

    Only actions that share their key with another are played out, each on its own row,
    and compared with the earlier kept ones of its key (found through ``prev``, without
    sorting). A row is played out without the checks that follow an action (R-DEADLOCK,
    R-FROZEN: :func:`_settle_action`), which can only end the game as a draw, and which
    are made only where two rows are told apart by nothing else (:func:`_same_outcome`).
    Most keys that collide are moves of one piece to one place that spend different
    things (two items, or a split's first part and a whole item, or a pyada): with at
    least two things to spend, each such action leaves the turn going on with something
    different left, so their states differ unless the board ends the turn or the game,
    which it does for all of them alike. Only the first action of such a group is played
    out: if its row goes on, the group is either all one outcome (the checks after it draw
    the game) or all different, and the others need no row (:func:`_spends_apart`).

    Up to ``STACK_ROWS`` rows are on the stack; more are allocated here, as their number
    is known only now, and if that fails every action is kept, which the callers' checks
    against the reference engine would show. The rest of the scratch is on the stack too
    (about 90 KB in all).
    """
    cdef i32 prev[MAX_DISTINCT]
    cdef i32 row_of[MAX_DISTINCT]
    cdef char kept_at[MAX_DISTINCT]
    # Whether the checks after the action draw the game on a row: -1 until asked.
    cdef char draws[MAX_DISTINCT]
    # The first action of each one's key, and (at that first action) whether its group
    # spends apart (_spends_apart) and, once its row is played out, what it decided: 1
    # all one outcome, 0 all different, -1 nothing (every row is played out and compared).
    cdef i32 head[MAX_DISTINCT]
    cdef char apart[MAX_DISTINCT]
    cdef char verdict[MAX_DISTINCT]
    cdef bint two_left, quiet
    # The last action seen with each key; only the keys of this list are cleared.
    cdef i32 last[KEY_LIMIT]
    cdef i32 occ_n[OCC_N_SIZE + OCC_SQUARES * OCC_DEPTH]
    cdef i32* occ = occ_n + OCC_N_SIZE
    cdef i32* keys = out + n
    cdef i32 stack_rows[STACK_ROWS * STATE_SIZE]
    cdef i32* rows
    cdef i32* row
    cdef i32 evn[3]
    cdef bint same
    cdef i64 i, j, shared, kept
    for i in range(n):
        last[keys[i]] = -1
    shared = 0
    # Something is left to spend after any one action: two items or pyadas, no split.
    two_left = st[ITEMS_LEN] + st[PYADAS] >= 2 and st[SPLIT_LEFT] == 0
    # Whether no move of this list can make the checks after it draw the game: then a group
    # that spends apart needs no row at all, unless it takes a piece home (which may end
    # the turn or the game). Asked once for the list, of this row. (A list whose every
    # shared landing is of that kind never comes here: legal_inline keeps it whole.)
    quiet = two_left and _moves_cannot_draw(st, params)
    for i in range(n):
        prev[i] = last[keys[i]]
        last[keys[i]] = i
        row_of[i] = -1
        if prev[i] >= 0:
            # Both this action and the one before it with its key may be played out.
            if row_of[prev[i]] < 0:
                row_of[prev[i]] = shared
                shared += 1
            row_of[i] = shared
            shared += 1
            head[i] = head[prev[i]]
            if apart[head[i]] and not _spends_apart(out, prev, i):
                apart[head[i]] = False
        else:
            head[i] = i
            apart[i] = two_left and _spent(out[i]) >= 0
            verdict[i] = -1
    rows = stack_rows
    if shared > STACK_ROWS:
        rows = <i32*>malloc(shared * STATE_SIZE * sizeof(i32))
        if rows == NULL:
            return n
    # Counts zero, as for an empty board: nothing reads a square's list beyond its count,
    # and a move fills what it reads (position.pxi).
    memset(occ_n, 0, OCC_N_SIZE * sizeof(i32))
    kept = 0
    for i in range(n):
        a = out[i]
        g = head[i]
        if row_of[i] >= 0 and g != i and verdict[g] >= 0:
            # Decided by the group's first row: one outcome (drop) or all different (keep).
            if verdict[g]:
                kept_at[i] = False
                continue
        elif row_of[i] >= 0 and g == i and apart[i] and quiet and not _key_home(keys[i]):
            # The group's first action goes on with something different left, and no move
            # draws: every action of the group is an outcome of its own.
            verdict[i] = 0
        elif row_of[i] >= 0:
            row = rows + row_of[i] * STATE_SIZE
            copy_state(row, st)
            evn[0] = 0
            evn[1] = 0
            evn[2] = 0
            _act(row, params, a, occ_n, occ, NULL, evn)
            draws[i] = -1
            if g == i and apart[i] and _goes_on(row, st):
                # Every action of the group goes on with something different left, on
                # the same board: the checks after them draw all of them or none.
                draws[i] = 1 if _settle_draws(row, params, occ_n, occ) else 0
                verdict[i] = draws[i]
            same = False
            j = prev[i]
            while j >= 0:
                if kept_at[j] and _same_outcome(
                    row, rows + row_of[j] * STATE_SIZE, params, occ_n, occ, draws, i, j
                ):
                    same = True
                    break
                j = prev[j]
            if same:
                kept_at[i] = False
                continue
        kept_at[i] = True
        out[kept] = a
        kept += 1
    if rows != stack_rows:
        free(rows)
    return kept


cdef inline i64 _spent(i64 a) noexcept nogil:
    """What a move or an exit spends, as one number: a pyada (0), or an item's slot and,
    for a split's part, its steps; -1 for any other action."""
    kind, piece, slot, size, steps, pyada = decode_listed(a)
    if kind != K_MOVE and kind != K_EXIT:
        return -1
    # A pyada's slot is -1; a part has 1..MAX_PART steps, a whole item 0.
    return (slot + 1) * (MAX_PART + 1) + steps


cdef bint _spends_apart(i32* out, i32* prev, i64 i) noexcept nogil:
    """Whether action ``i``, a move or an exit, spends something other than every earlier
    action of its key (``prev``'s chain).

    Actions of one key move the same pieces to the same place. Two that spend different
    things leave different things to spend: two items of different values, an item and a
    pyada, or a whole item and a split's first part (which leaves the rest of its item as
    the split's, and needs fewer steps than the item). Two first parts of one item that
    share a key have the same steps: they are one action, never two."""
    c = _spent(out[i])
    if c < 0:
        return False
    j = prev[i]
    while j >= 0:
        if _spent(out[j]) == c:
            return False
        j = prev[j]
    return True


cdef inline bint _goes_on(i32* row, i32* st) noexcept nogil:
    """Whether ``row``, an action played out on ``st`` without the checks after it, is
    still the same seat's spending in the same turn: no win, no finished seat, no end of
    the turn."""
    return row[STAGE] == SPEND_STAGE and row[SEAT] == st[SEAT] and row[TURN] == st[TURN]


cdef bint _same_outcome(i32* a, i32* b, Params params, i32* occ_n, i32* occ, char* draws, i64 i, i64 j) noexcept nogil:
    """Whether rows ``a`` (action ``i``) and ``b`` (action ``j``), each played out without
    the checks after an action, hold equal states once those checks are made.

    The checks change a row only by ending the game as a draw, which writes the fields of
    a turn in progress (:func:`_game_over`) and nothing else. So rows that differ
    elsewhere stay different, equal rows stay equal, and rows that differ only in those
    fields end equal exactly when the checks draw both (``draws``, asked once a row).

    The checks themselves read only fields a draw leaves alone, and whether the game is
    over already: R-DEADLOCK's the kills and progress, R-FROZEN's the board and, for its
    exact test, a copy of the row on which every field of a turn in progress is set
    afresh (``_turn_of``). So two such rows, neither of them over, get the same answer,
    and one of them is asked for both."""
    if not _same_but_turn(a, b):
        return False
    if same_state(a, b):
        return True
    if a[STAGE] == OVER_STAGE or b[STAGE] == OVER_STAGE:
        # Ended by a win: the checks do not draw it.
        return False
    if draws[j] < 0:
        if draws[i] >= 0:
            draws[j] = draws[i]
        else:
            draws[j] = 1 if _settle_draws(b, params, occ_n, occ) else 0
    draws[i] = draws[j]
    return draws[j] == 1


cdef inline bint _moves_cannot_draw(i32* st, Params params) noexcept nogil:
    """Whether no move of the seat to act's pieces on ``st`` can make the checks after an
    action draw the game: neither R-DEADLOCK (:func:`unblocked_after_any_move`) nor
    R-FROZEN (:func:`unstuck_after_any_move`), for those that are on.

    The answer holds for an entry onto progress 75 or below too: it moves none of the
    pieces on the board, the piece it brings in stays a capturer and a possible victim
    (R-DEADLOCK), and it captures at most the pieces of one square, as a move does."""
    if param(params, P_DRAWS) and not unblocked_after_any_move(st, params):
        return False
    return not param(params, P_FROZEN) or unstuck_after_any_move(st, params)


cdef inline bint _settle_draws(i32* st, Params params, i32* occ_n, i32* occ) noexcept nogil:
    """Whether :func:`_settle_action` (with R-DEADLOCK's check) would draw the game on
    ``st``, an action other than a decline just played; ``st`` is left as it is."""
    if st[STAGE] == OVER_STAGE:
        return False
    if param(params, P_DRAWS) and every_side_blocked(st, params):
        return True
    return param(params, P_FROZEN) and is_frozen(st, params, occ_n, occ)


cdef inline void copy_state(i32* dst, i32* src) noexcept nogil:
    """Copy the state in ``src`` to ``dst``: the used parts of its lists only (the rest of
    ``dst`` is left as it was, which no reader looks at: they stop at the lists' lengths)."""
    memcpy(dst, src, (RECS + src[REC_LEN] * REC_FIELDS) * sizeof(i32))
    memcpy(dst + THROW_K, src + THROW_K, (ITEMS - THROW_K + src[ITEMS_LEN]) * sizeof(i32))
    dst[OVERFLOW] = src[OVERFLOW]
    dst[SETTLED] = src[SETTLED]


cdef bint _same_but_turn(i32* a, i32* b) noexcept nogil:
    """Whether two rows agree in every field of :func:`same_state` that the end of a game
    (:func:`_game_over`) leaves alone: the board, the seat and turn, the stack order, the
    laps, entries, kills and capture records, the throw-off and the overflow mark."""
    for q in range(STAGE):
        if a[q] != b[q]:
            return False
    if a[SEAT] != b[SEAT] or a[TURN] != b[TURN]:
        return False
    if a[ORDER_LEN] != b[ORDER_LEN] or a[REC_LEN] != b[REC_LEN]:
        return False
    for j in range(a[ORDER_LEN]):
        if a[ORDER + j] != b[ORDER + j]:
            return False
    for q in range(ORDER_LEN + 1, RECS + a[REC_LEN] * REC_FIELDS):
        if a[q] != b[q]:
            return False
    for q in range(THROWOFF, WINNER):
        if a[q] != b[q]:
            return False
    return <bint>(a[OVERFLOW] == b[OVERFLOW])


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
