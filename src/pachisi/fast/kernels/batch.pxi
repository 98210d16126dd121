# The engine's part that was pachisi.fast._batch (numba), in Cython.
#
# Compiled batch stepping and observations: the kernels behind :mod:`pachisi.fast.batch`.
#
# A batch is many games stepped together: each row is one game. After every step the
# games that wait for a throw are thrown for (when the batch samples its own chance), so a
# game in the batch is always either waiting for a seat's decision or over. These kernels
# also write each game's legal-action mask and, for learning code, observations.
#
# Observation layout (``float32``, :data:`OBS_SIZE` values), seen from an observing seat
# ``o``: the *relative seat* ``r`` is ``(seat - o) & 3``, so 0 is the observer, 1 the next
# seat (counter-clockwise), 2 the partner opposite, 3 the seat before. Progress is each
# seat's own (0 waiting, 84 home); squares are renumbered as if the board were turned so
# that the observer sits South.
#
# =================  =====  ===================================================
# offset             size   contents
# =================  =====  ===================================================
# ``O_PIECES``       16     progress / 84 of piece i of relative seat r, at 4 r + i
# ``O_PROGRESS``     340    count of r's pieces at progress p, at 85 r + p
# ``O_BOARD``        384    count of r's pieces on (turned) square q, at 96 r + q
# ``O_THROW_K``      9      one-hot mouths up of the throw being used (8: none)
# ``O_THROW``        2      its value / 35, and 1 if it gives another throw
# ``O_STAGE``        6      one-hot stage (throw-off, throw, act, pyada, spend, over)
# ``O_TURN``         16     again, captured, pyadas / 4, split left / 35, split
#                           value / 35, collected throws per value slot / 4 (8),
#                           run length / 3, phase flags (2)
# ``O_SEATS``        13     entered (4), kill credits / 4 (4), finished (4) per
#                           relative seat, and 1 if the observer moves its own
#                           pieces (0: its partner's, V-PARTNER-THROWS)
# =================  =====  ===================================================


from libc.stdint cimport int16_t

cdef enum:
    # The length of a row of marks: what an observation's counts (observe_over) or a
    # mask (mark_mask) had set, its count first, so that the next one clears only that.
    OBS_MARKS = 34
    MASK_MARKS = 32


cdef void observe(i32* st, Params params, i64 o, float* obs) noexcept nogil:
    """Write the observation of ``st`` seen from seat ``o`` into ``obs`` (layout above)."""
    for q in range(OBS_SIZE):
        obs[q] = 0.0
    observe_over(st, params, o, obs, NULL)


cdef void observe_over(i32* st, Params params, i64 o, float* obs, int16_t* marks) noexcept nogil:
    """Write the observation of ``st`` seen from seat ``o`` over an observation already in
    ``obs``: every entry outside the counts (O_PROGRESS, O_BOARD) is written anyway, so
    only the counts the last one set need clearing. ``marks`` lists them (its count, then
    the offsets: at most OBS_MARKS - 1; a count of -1 clears the whole observation) and
    gets this one's; NULL where ``obs`` holds zeros in the counts."""
    cdef i64 n = 0
    if marks != NULL:
        if marks[0] < 0:
            memset(obs, 0, OBS_SIZE * sizeof(float))
        else:
            for j in range(marks[0]):
                obs[marks[1 + j]] = 0.0
    for g in range(16):
        seat = g >> 2
        r = (seat - o) & 3
        p = st[POS + g]
        obs[O_PIECES + 4 * r + (g & 3)] = p / 84.0
        q = O_PROGRESS + 85 * r + p
        obs[q] += 1.0
        if marks != NULL:
            n += 1
            marks[n] = <int16_t>q
        if 0 < p < HOME:
            q = O_BOARD + 96 * r + TURNED[o][SQUARES[seat][p]]
            obs[q] += 1.0
            if marks != NULL:
                n += 1
                marks[n] = <int16_t>q
    if marks != NULL:
        marks[0] = <int16_t>n
    for q in range(9):
        obs[O_THROW_K + q] = 0.0
    k = st[THROW_K]
    obs[O_THROW_K + (k if k >= 0 else 8)] = 1.0
    obs[O_THROW] = 0.0
    obs[O_THROW + 1] = 0.0
    if k >= 0:
        v = param(params, P_TABLE + k)
        obs[O_THROW] = v / 35.0
        obs[O_THROW + 1] = 1.0 if in_values(params, param(params, P_REROLL), v) else 0.0
    for q in range(6):
        obs[O_STAGE + q] = 0.0
    obs[O_STAGE + st[STAGE]] = 1.0
    obs[O_TURN] = st[AGAIN]
    obs[O_TURN + 1] = st[CAPTURED]
    obs[O_TURN + 2] = st[PYADAS] / 4.0
    obs[O_TURN + 3] = st[SPLIT_LEFT] / 35.0
    obs[O_TURN + 4] = st[SPLIT_VALUE] / 35.0
    for q in range(8):
        obs[O_TURN + 5 + q] = 0.0
    for q in range(st[ITEMS_LEN]):
        slot = value_slot(params, st[ITEMS + q])
        obs[O_TURN + 5 + slot] += 0.25
    obs[O_TURN + 13] = st[RUN_LEN] / 3.0
    obs[O_TURN + 14] = st[FLAGS] & 1
    obs[O_TURN + 15] = (st[FLAGS] >> 1) & 1
    for seat in range(4):
        r = (seat - o) & 3
        obs[O_SEATS + r] = (st[ENTERED] >> seat) & 1
        obs[O_SEATS + 4 + r] = min(st[KILLS + seat], 4) / 4.0
        obs[O_SEATS + 8 + r] = 1.0 if seat_finished(st, seat) else 0.0
    obs[O_SEATS + 12] = 1.0 if mover_of(st, params, o) == o else 0.0


cdef i64 settle_chance(i32* st, Params params, double p, u32* mt, i32* ev, i32* evn) noexcept nogil:
    """Throw for the game until a seat must decide or the game is over; the throws made."""
    cdef bint half
    cowries = param(params, P_COWRIES)
    half = param(params, P_HALF) == 1
    throws = 0
    while (st[STAGE] == THROW_STAGE or st[STAGE] == THROW_OFF_STAGE) and not st[OVERFLOW]:
        c_apply_chance(st, params, throw_cowries(mt, cowries, half, p), ev, evn)
        throws += 1
    return throws


cdef i64 status(i32* st, Params params, i32* occ_n, i32* occ, i32* out, Pool* pool, char* mask) noexcept nogil:
    """Write the legal-action mask of ``st`` (NUM_ACTIONS entries) and return who is to
    play: a seat, -1 while a throw is due, -4 once the game is over."""
    memset(mask, 0, NUM_ACTIONS)
    stage = st[STAGE]
    if stage == OVER_STAGE:
        return TERMINAL_PLAYER
    if stage in (THROW_STAGE, THROW_OFF_STAGE):
        return CHANCE_PLAYER
    n = c_legal_actions(st, params, occ_n, occ, out, pool)
    for j in range(n):
        mask[out[j]] = True
    return <i64>(st[SEAT])


cdef void rewards_of(i32* st, Params params, float* seat_rewards) noexcept nogil:
    """+1 for the seats of the winning side, -1 for the others, 0 for all in a draw."""
    winner = st[WINNER]
    for seat in range(4):
        if winner == DRAW:
            seat_rewards[seat] = 0.0
        elif param(params, P_INDIVIDUAL):
            seat_rewards[seat] = 1.0 if seat == winner else -1.0
        else:
            seat_rewards[seat] = 1.0 if (seat & 1) == winner else -1.0


# The batch kernels below take ``count`` games: ``rows`` holds STATE_SIZE values per game,
# ``masks`` NUM_ACTIONS, ``rngs`` MT_SIZE words, ``rewards`` 4 and ``obs`` OBS_SIZE.


cdef void c_step_batch(i32* rows, i64 count, Params params, double p, i32* actions, char* active, u32* rngs, bint sample, Work* work, char* masks, i32* players, float* rewards) noexcept nogil:
    """Apply ``actions[b]`` to every ``active`` game waiting for a decision (the caller
    checked that each is legal), throw for it when ``sample``, and update masks, players
    and rewards (set on the step that ends a game, else 0)."""
    cdef i32 evn[3]
    memset(evn, 0, sizeof(evn))
    for b in range(count):
        st = rows + b * STATE_SIZE
        for seat in range(4):
            rewards[4 * b + seat] = 0.0
        if players[b] < 0 or not active[b]:
            continue
        c_apply_action(st, params, actions[b], work.occ_n, work.occ, NULL, evn)
        if sample:
            settle_chance(st, params, p, rngs + b * MT_SIZE, NULL, evn)
        players[b] = status(st, params, work.occ_n, work.occ, work.acts, work.pool, masks + b * NUM_ACTIONS)
        if players[b] == TERMINAL_PLAYER:
            rewards_of(st, params, rewards + 4 * b)


cdef void c_throw_batch(i32* rows, i64 count, Params params, i32* ks, Work* work, char* masks, i32* players, float* rewards) noexcept nogil:
    """Apply the throw ``ks[b]`` (cowries mouth up) to every game waiting for a throw."""
    cdef i32 evn[3]
    memset(evn, 0, sizeof(evn))
    for b in range(count):
        st = rows + b * STATE_SIZE
        for seat in range(4):
            rewards[4 * b + seat] = 0.0
        if players[b] != CHANCE_PLAYER:
            continue
        c_apply_chance(st, params, ks[b], NULL, evn)
        players[b] = status(st, params, work.occ_n, work.occ, work.acts, work.pool, masks + b * NUM_ACTIONS)
        if players[b] == TERMINAL_PLAYER:
            rewards_of(st, params, rewards + 4 * b)


cdef void c_start_batch(i32* rows, i64 count, Params params, double p, u32* rngs, bint sample, Work* work, char* masks, i32* players) noexcept nogil:
    """Throw for every game until it waits for a decision (when ``sample``), then write
    its mask and player."""
    cdef i32 evn[3]
    memset(evn, 0, sizeof(evn))
    for b in range(count):
        st = rows + b * STATE_SIZE
        if sample:
            settle_chance(st, params, p, rngs + b * MT_SIZE, NULL, evn)
        players[b] = status(st, params, work.occ_n, work.occ, work.acts, work.pool, masks + b * NUM_ACTIONS)


cdef void c_observe_batch(i32* rows, i64 count, Params params, i32* seats, float* obs) noexcept nogil:
    """The observation of every game, each from its ``seats[b]`` (a seat 0..3)."""
    for b in range(count):
        observe(rows + b * STATE_SIZE, params, seats[b], obs + b * OBS_SIZE)


cdef void c_choose_batch(i32* rows, i64 count, Params params, double* weights, double* hit, i32* bots, u32* rngs, i32* players, Work* work, i32* actions) noexcept nogil:
    """For every game with a seat to act, the action its compiled player (``bots[seat]``:
    0 random, 1 greedy, -1 none) chooses, drawn from the game's generator; -1 otherwise."""
    for b in range(count):
        actions[b] = -1
        seat = players[b]
        if seat < 0 or bots[seat] < 0:
            continue
        st = rows + b * STATE_SIZE
        n = c_legal_actions(st, params, work.occ_n, work.occ, work.acts, work.pool)
        if bots[seat] == GREEDY_BOT:
            j = greedy_choice(st, params, weights, hit, work.acts, n, rngs + b * MT_SIZE, work)
        else:
            j = randbelow(rngs + b * MT_SIZE, n)
        actions[b] = work.acts[j]


cdef void c_advance_batch(i32* rows, i64 count, Params params, double p, double* weights, double* hit, i32* bots, u32* rngs, u32* choice_rngs, bint sample, Work* work, char* masks, i32* players, float* rewards, i64* steps, i64 max_steps, i64 seat, float* gained) noexcept nogil:
    """Let the compiled players play every game on until a seat without one is to act
    (``bots[seat]`` -1: the learner's), the game is over or waits for a throw, or it has
    had ``max_steps`` actions: for the seat to act, its player's action (drawn from the
    game's ``choice_rngs`` as :func:`c_choose_batch` draws it), applied as
    :func:`c_step_batch` applies it. ``steps[b]`` counts the actions, and ``gained[b]``
    adds up the rewards of ``seat`` they bring. Game by game: the games share nothing, so
    this is what stepping them together round by round gives."""
    cdef i32 evn[3]
    memset(evn, 0, sizeof(evn))
    cdef i64 n, j, who
    for b in range(count):
        st = rows + b * STATE_SIZE
        mt = choice_rngs + b * MT_SIZE
        while steps[b] < max_steps:
            who = players[b]
            if who < 0 or bots[who] < 0:
                break
            n = c_legal_actions(st, params, work.occ_n, work.occ, work.acts, work.pool)
            if bots[who] == GREEDY_BOT:
                j = greedy_choice(st, params, weights, hit, work.acts, n, mt, work)
            else:
                j = randbelow(mt, n)
            for s in range(4):
                rewards[4 * b + s] = 0.0
            c_apply_action(st, params, work.acts[j], work.occ_n, work.occ, NULL, evn)
            if sample:
                settle_chance(st, params, p, rngs + b * MT_SIZE, NULL, evn)
            players[b] = status(st, params, work.occ_n, work.occ, work.acts, work.pool, masks + b * NUM_ACTIONS)
            if players[b] == TERMINAL_PLAYER:
                rewards_of(st, params, rewards + 4 * b)
            steps[b] += 1
            gained[b] += rewards[4 * b + seat]
