# The engine's part that was pachisi.fast._playout (numba), in Cython.
#
# Compiled complete games: the random and greedy players, and the game loop.
#
# The port of :func:`pachisi.simulate.play_game` and of :mod:`pachisi.ai.bots`, draw for
# draw: throws come from one Mersenne Twister, the players' choices from another (or the
# same one, as in bench/playouts.py), and the greedy player's score is computed with the
# same floating-point operations in the same order, so a seeded game is the same game in
# both engines.

cdef enum:
    RANDOM_BOT = 0
    GREEDY_BOT = 1
    W_PROGRESS = 0
    W_ENEMY = 1
    W_OUT = 2
    W_HOME = 3
    W_CAPTURE = 4
    W_CASTLE = 5
    W_DANGER = 6
    # Hit chances are tabled for distances 0..25.
    HIT_REACH = 26


cdef bint _friend(Params params, i64 seat, i64 other) noexcept nogil:
    if param(params, P_INDIVIDUAL):
        return other == seat
    return other == seat or other == partner_of(seat)


cdef double evaluate(i32* st, Params params, double* weights, double* hit, i64 seat) noexcept nogil:
    """:meth:`pachisi.ai.bots.GreedyBot.evaluate`: the score of ``st`` for ``seat``'s side.

    ``hit[d]`` is the chance that one throw is worth ``d`` (0.02 where none is), for
    d = 0..25.
    """
    cdef bint castles_protect
    cdef double miss[OCC_SQUARES]
    for sq in range(OCC_SQUARES):
        miss[sq] = 1.0
    for g in range(16):
        enemy = g >> 2
        if _friend(params, seat, enemy):
            continue
        p = st[POS + g]
        if not 1 <= p <= LAST_SQUARE:
            continue
        for d in range(2, 26):
            t = p + d
            if t > LAST_SQUARE:
                break
            sq = SQUARES[enemy][t]
            miss[sq] = miss[sq] * (1.0 - hit[d])
    castles_protect = param(params, P_CASTLE) != 2
    score = 0.0
    for g in range(16):
        p = st[POS + g]
        if p == 0:
            continue
        if not _friend(params, seat, g >> 2):
            score -= weights[W_ENEMY] * p
            continue
        score += weights[W_PROGRESS] * p + weights[W_OUT]
        if p == HOME:
            score += weights[W_HOME]
            continue
        sq = SQUARES[g >> 2][p]
        if castles_protect and CASTLE[sq]:
            score += weights[W_CASTLE]
        else:
            exposed = weights[W_PROGRESS] * p + weights[W_OUT]
            score -= weights[W_DANGER] * exposed * (1.0 - miss[sq])
    return score


cdef i64 greedy_choice(i32* st, Params params, double* weights, double* hit, i32* acts, i64 n, u32* mt, Work* work) noexcept nogil:
    """:meth:`pachisi.ai.bots.GreedyBot.choose`: the index of the action to play."""
    if n == 1:
        return 0
    occ_n = work.occ_n
    occ = work.occ
    trial = work.trial
    ev = work.ev
    evn = work.evn
    best = work.best
    evn[2] = TRIAL_EVENTS
    seat = st[SEAT]
    count = 0
    best_score = -INFINITY
    for j in range(n):
        for q in range(STATE_SIZE):
            trial[q] = st[q]
        evn[0] = 0
        evn[1] = 0
        c_apply_action(trial, params, acts[j], occ_n, occ, ev, evn)
        taken = 0
        for e in range(evn[0]):
            if ev[e * EVENT_FIELDS] == E_CAPTURE and _friend(params, seat, ev[e * EVENT_FIELDS + 1]):
                pieces = ev[e * EVENT_FIELDS + 6]
                while pieces:
                    taken += pieces & 1
                    pieces >>= 1
        score = evaluate(trial, params, weights, hit, seat) + weights[W_CAPTURE] * taken
        # A small tolerance so that float noise cannot split a genuine tie.
        if score > best_score + 1e-9:
            best[0] = j
            count = 1
            best_score = score
        elif score >= best_score - 1e-9:
            best[count] = j
            count += 1
    if count == 1:
        return <i64>(best[0])
    return <i64>(best[randbelow(mt, count)])


cdef Work* new_work() noexcept nogil:
    """The buffers one game's loop works in, allocated once for the whole game and zeroed;
    NULL if memory ran out. Free them with :func:`free_work`."""
    cdef Work* work = <Work*>calloc(1, sizeof(Work))
    if work == NULL:
        return NULL
    work.pool = new_pool()
    if work.pool == NULL:
        free(work)
        return NULL
    return work


cdef void free_work(Work* work) noexcept nogil:
    if work != NULL:
        free(work.pool)
        free(work)


cdef void _play(i32* st, Params params, double p, double* weights, double* hit, i32* bots, u32* mt_throws, u32* mt_choices, i64 max_turns, i64 max_steps, i32* stats, Work* owned, i32* evn) noexcept nogil:
    """Play ``st`` on to the end (or a cap): :func:`pachisi.simulate.play_game`.

    ``bots[seat]`` is the player of each seat; ``stats`` gets throws, actions and capture
    events. The game stops early if it overflows its row (``OVERFLOW``). ``owned`` and
    ``evn`` are the caller's buffers (:func:`new_work`, the event counts, which the caller
    zeroes)."""
    cdef bint half, greedy
    occ_n = owned.occ_n
    occ = owned.occ
    acts = owned.acts
    pool = owned.pool
    work = owned
    ev = <i32*>NULL  # no events are kept
    evn[2] = 0
    cowries = param(params, P_COWRIES)
    half = param(params, P_HALF) == 1
    throws = 0
    actions = 0
    # Whether any seat's player is greedy: if none is, a choice is one draw, without
    # asking whose turn it is.
    greedy = False
    for seat in range(4):
        greedy = greedy or bots[seat] == GREEDY_BOT
    # Whether R-DEADLOCK has been checked since anything it looks at last changed.
    settled = False
    while (
        st[STAGE] != OVER_STAGE
        and st[TURN] <= max_turns
        and throws + actions < max_steps
        and not st[OVERFLOW]
    ):
        stage = st[STAGE]
        if stage in (THROW_STAGE, THROW_OFF_STAGE):
            k = throw_cowries(mt_throws, cowries, half, p)
            if settled:
                throw_inline(st, params, k, ev, evn)
            else:
                chance_inline(st, params, k, ev, evn)
                settled = True
            if st[OVERFLOW]:
                # Not applied: the caller goes on in the reference engine with this throw.
                break
            throws += 1
            continue
        n = legal_inline(st, params, occ_n, occ, acts, pool)
        if greedy and bots[st[SEAT]] == GREEDY_BOT:
            j = greedy_choice(st, params, weights, hit, acts, n, mt_choices, work)
        else:
            j = randbelow(mt_choices, n)
        play_inline(st, params, acts[j], occ_n, occ, ev, evn, settled)
        settled = True
        actions += 1
    stats[0] = throws
    stats[1] = actions
    stats[2] = evn[1]


cdef i64 c_play_many(i32* rows, i64 count, Params params, double p, double* weights, double* hit, i32* bots, u32* mt_throws, u32* mt_choices, i64 max_turns, i64 max_steps, i32* stats) noexcept nogil:
    """:func:`_play` for every one of ``count`` rows of a batch, each with its own pair of
    generators (MT_SIZE words each); ``stats`` gets three values per game. The games share
    one set of buffers (nothing in them carries from one game to the next: the occupancy
    knows which position it holds, the rest is written before it is read). Returns -1 if
    memory ran out (nothing was played), else 0."""
    cdef i32 evn[3]
    work = new_work()
    if work == NULL:
        return -1
    for i in range(count):
        evn[0] = 0
        evn[1] = 0
        _play(
            rows + i * STATE_SIZE, params, p, weights, hit, bots, mt_throws + i * MT_SIZE,
            mt_choices + i * MT_SIZE, max_turns, max_steps, stats + 3 * i, work, evn,
        )
    free_work(work)
    return 0


cdef i64 c_play_seeded(i32* rows, i64 count, i64 first, Params params, double p, double* weights, double* hit, i32* bots, i64 seed, i64 max_turns, i64 max_steps, i32* stats) noexcept nogil:
    """:func:`_play` for every one of ``count`` rows, row ``j`` as game ``first + j`` of
    the playouts ``seed``: game ``i`` has two generators seeded from ``(seed, i)``
    (``seed_mt(splitmix64(seed * 2**20 + 2 i))`` for the throws, ``+ 1`` for the choices;
    the arithmetic wraps around in 64 bits), so a batch split into parts plays the same
    games. Returns -1 if memory ran out (nothing was played), else 0."""
    cdef u32 mt_throws[MT_SIZE]
    cdef u32 mt_choices[MT_SIZE]
    cdef i32 evn[3]
    work = new_work()
    if work == NULL:
        return -1
    for j in range(count):
        base = <i64>((<u64>seed << 20) + <u64>(2 * (first + j)))
        seed_mt_pair(mt_throws, splitmix64(base), mt_choices, splitmix64(base + 1))
        evn[0] = 0
        evn[1] = 0
        _play(
            rows + j * STATE_SIZE, params, p, weights, hit, bots, mt_throws, mt_choices,
            max_turns, max_steps, stats + 3 * j, work, evn,
        )
    free_work(work)
    return 0
