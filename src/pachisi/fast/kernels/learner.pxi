# A learner's step, compiled: what pachisi.env's games do between two of the learner's
# decisions, for every game in one pass (pachisi.fast.batch.learner_step).
#
# For each game: start it anew, or apply the learner's action (or neither), then let the
# compiled players of the other seats play until one of the learner's seats is to act, the
# game is over or it has had ``max_steps`` actions; then write its legal-action mask and,
# when asked, what the learner sees: its observation and a mask that is empty where no
# learner's seat is to act. The games share nothing, so this is what the batch kernels
# (c_start_batch, c_step_batch, c_advance_batch, c_observe_batch) give called one after
# another, and each position's legal list is worked out once.
#
# The masks are written over the last ones: a row of ``marks`` (MASK_MARKS int16) lists
# the ids its mask has set (its count first; -1 where unknown, which clears the whole row),
# so a step clears a handful of bytes instead of NUM_ACTIONS. The learner's observations
# and masks are written over the ones of an earlier call in the same way, with rows of
# marks of their own (``obs_marks``, ``view_marks``): a few hundred bytes a game where
# writing them whole took 5 KB.

cdef enum:
    # What learner_step does first in a game (``modes[b]``).
    LEARNER_KEEP = 0  # nothing: the other seats play on from where the game stands
    LEARNER_ACT = 1  # apply ``actions[b]`` (legal: the caller checked) if a seat is to act
    LEARNER_RENEW = 2  # a new game in its place, as game ``first + i`` of init(..., seed)
    # where it is the ``i``-th of the games renewed in this call


cdef struct Learners:
    # The arrays of learner_step's games (all with ``count`` rows) and its settings.
    i32* rows
    double p
    double* weights
    double* hit
    i32* bots
    u32* rngs
    u32* choice_rngs
    char* masks
    int16_t* marks
    i32* players
    float* rewards
    i64* steps
    i64 max_steps
    i64 seat
    char* modes
    i32* actions
    i32* start
    i64 seed
    i64 first
    float* obs  # NULL: no observations
    int16_t* obs_marks  # what each observation's counts have set (OBS_MARKS a game);
    # NULL: ``obs`` is new, written whole
    char* view  # NULL: no learner's masks
    int16_t* view_marks  # what each learner's mask has set (MASK_MARKS a game); NULL:
    # ``view`` is new, written whole
    float* gained


# Reading ahead: a game's row and generators are far apart in memory and seldom in cache,
# and every game waits on them in turn; asking for the next games' lines early overlaps
# those waits with this game's work.
#
# GCC treats __builtin_prefetch as free of side effects: a function that only prefetches
# is taken as pure, and a call to it whose (void) result nobody uses is deleted. That is
# what became of read_ahead, which is not inlined: its prefetches were never in the
# binary. On x86-64 the prefetch is an asm statement the compiler must keep.
cdef extern from *:
    """
    #if defined(__x86_64__) && defined(__GNUC__)
    #define pachisi_prefetch(p) \
        __asm__ __volatile__("prefetcht0 %0" : : "m"(*(const char*)(p)))
    #else
    #define pachisi_prefetch(p) __builtin_prefetch((const void*)(p))
    #endif
    """
    void prefetch "pachisi_prefetch"(const void* p) nogil


# Writing new arrays: their lines are in no cache, and an ordinary store first reads each
# line it writes from memory; streaming stores (x86-64's movntdq and movnti) skip that
# read. They are used for whole new observations and for clearing new masks.
cdef extern from *:
    """
    #if defined(__x86_64__)
    #include <immintrin.h>
    /* Sixteen bytes a store (SSE2's movntdq) where the destination allows it: this
       machine streams 24 GB/s so, and 13-19 GB/s eight bytes at a time (movnti), whose
       stores also fill the store buffer twice as fast. An observation's row is 3,144
       bytes, so every other one starts 8 bytes off a 16-byte boundary: one movnti first. */
    static inline void pachisi_stream_out(void* dst, const void* src, size_t bytes) {
        char* d = (char*)dst;
        const char* s = (const char*)src;
        if (((uintptr_t)d & 7) != 0 || (bytes & 7) != 0) {
            memcpy(dst, src, bytes);
            return;
        }
        if (((uintptr_t)d & 15) != 0 && bytes >= 8) {
            long long w;
            memcpy(&w, s, 8);
            _mm_stream_si64((long long*)d, w);
            d += 8;
            s += 8;
            bytes -= 8;
        }
        for (; bytes >= 16; bytes -= 16, d += 16, s += 16) {
            _mm_stream_si128((__m128i*)d, _mm_loadu_si128((const __m128i*)s));
        }
        if (bytes) {
            long long w;
            memcpy(&w, s, 8);
            _mm_stream_si64((long long*)d, w);
        }
    }
    static inline void pachisi_stream_zero(void* dst, size_t bytes) {
        char* d = (char*)dst;
        size_t head = (16 - ((uintptr_t)d & 15)) & 15;
        if (head > bytes) head = bytes;
        memset(d, 0, head);
        d += head;
        bytes -= head;
        __m128i z = _mm_setzero_si128();
        for (size_t i = 0; i < bytes / 16; i++) _mm_stream_si128((__m128i*)d + i, z);
        memset(d + (bytes & ~(size_t)15), 0, bytes & 15);
    }
    static inline void pachisi_stream_done(void) { _mm_sfence(); }
    #else
    static inline void pachisi_stream_out(void* dst, const void* src, size_t bytes) {
        memcpy(dst, src, bytes);
    }
    static inline void pachisi_stream_zero(void* dst, size_t bytes) { memset(dst, 0, bytes); }
    static inline void pachisi_stream_done(void) {}
    #endif
    /* Above this size, a call's new arrays are streamed. Arrays that fit in the
       last-level cache are read back from it, but streamed, from memory: on this
       machine (32 MB of it, shared) streaming made 1,024 games' steps (5.5 MB of new
       arrays) 11-17% slower and 2,048 games' (11 MB) 5-10% faster. glibc's
       sysconf(_SC_LEVEL3_CACHE_SIZE) is no guide: it says 320 MB here. */
    static inline size_t pachisi_stream_bytes(void) { return (size_t)8 << 20; }
    """
    void stream_out "pachisi_stream_out"(void* dst, const void* src, size_t bytes) nogil
    void stream_zero "pachisi_stream_zero"(void* dst, size_t bytes) nogil
    void stream_done "pachisi_stream_done"() nogil
    size_t stream_bytes_c "pachisi_stream_bytes"() nogil


cdef inline void read_ahead(Learners* L, i64 b, i64 count) noexcept nogil:
    """Ask for the memory game ``b + 1`` will read first (where its generators stand, the
    ids its mask has set) and the rows and generator positions of game ``b + 2``."""
    cdef u32* mt
    cdef i64 c
    if b + 2 < count:
        row = L.rows + (b + 2) * STATE_SIZE
        for q in range(0, STATE_SIZE, 16):
            prefetch(row + q)
        prefetch(L.rngs + (b + 2) * MT_SIZE + MT_N)
        prefetch(L.choice_rngs + (b + 2) * MT_SIZE + MT_N)
        prefetch(L.marks + (b + 2) * MASK_MARKS)
    if b + 1 < count:
        mt = L.rngs + (b + 1) * MT_SIZE
        prefetch(mt + (mt[MT_N] % MT_N))
        prefetch(mt + (mt[MT_N] % MT_N) + 16)
        mt = L.choice_rngs + (b + 1) * MT_SIZE
        prefetch(mt + (mt[MT_N] % MT_N))
        marks = L.marks + (b + 1) * MASK_MARKS
        mask = L.masks + (b + 1) * NUM_ACTIONS
        c = marks[0]
        for j in range(c):
            prefetch(mask + marks[1 + j])
        if L.obs_marks != NULL:
            # The observation's fields outside the counts, all written: its first and last
            # lines (O_PROGRESS and O_BOARD, between them, are read through the marks).
            prefetch(L.obs + (b + 1) * OBS_SIZE)
            prefetch(L.obs + (b + 1) * OBS_SIZE + O_THROW_K)
            prefetch(L.obs + (b + 1) * OBS_SIZE + O_TURN)
            prefetch(L.obs + (b + 1) * OBS_SIZE + O_SEATS)


cdef void mark_mask(char* mask, int16_t* marks, i32* acts, i64 n) noexcept nogil:
    """Make ``mask`` hold exactly the ids ``acts[:n]``, clearing only the ones ``marks``
    lists, and list these in ``marks`` (-1 when there are too many to list)."""
    cdef i64 c = marks[0]
    if c < 0:
        memset(mask, 0, NUM_ACTIONS)
    else:
        for j in range(c):
            mask[marks[1 + j]] = 0
    for j in range(n):
        mask[acts[j]] = 1
    if n < MASK_MARKS:
        marks[0] = <int16_t>n
        for j in range(n):
            marks[1 + j] = <int16_t>acts[j]
    else:
        marks[0] = -1


cdef inline i64 player_of(i32* st) noexcept nogil:
    """Who is to play (as :func:`status` says): a seat, CHANCE_PLAYER or TERMINAL_PLAYER."""
    stage = st[STAGE]
    if stage == OVER_STAGE:
        return TERMINAL_PLAYER
    if stage == THROW_STAGE or stage == THROW_OFF_STAGE:
        return CHANCE_PLAYER
    return <i64>(st[SEAT])


cdef bint c_learner_step(Learners* L, Params params, i64 count, Work* work) noexcept nogil:
    """Every game's step to the learner's next decision (see the top of this file), under
    the parameters ``params``: ``gained[b]`` gets the rewards of seat ``L.seat`` the step
    brought, ``steps[b]`` counts the actions, ``rewards`` holds the last action's as after
    c_step_batch (0 in a game where none was applied). True if a game's row overflowed
    (OVERFLOW)."""
    cdef i32 evn[3]
    memset(evn, 0, sizeof(evn))
    cdef i64 n, j, who, key
    cdef float gained
    cdef bint acting
    cdef bint overflow = False
    cdef i64 renewed = L.first
    # Into new arrays (no marks), the observation is put together here, where it stays in
    # cache, then streamed out whole: writes in order instead of scattered ones into
    # memory far away, and without reading each line first; the learner's masks are
    # cleared in one streamed pass (glibc's memset reads each line first at these sizes:
    # 9 MB at 4,096 games), then only the ids of the games where the learner acts are set.
    # Only arrays too large to stay in the last-level cache are streamed (stream_bytes).
    cdef float seen[OBS_SIZE]
    cdef int16_t seen_marks[OBS_MARKS]
    seen_marks[0] = -1
    cdef bint stream = count * (OBS_SIZE * sizeof(float) + NUM_ACTIONS) > stream_bytes_c()
    if L.view != NULL and L.view_marks == NULL:
        if stream:
            stream_zero(L.view, count * NUM_ACTIONS)
            stream_done()
        else:
            memset(L.view, 0, count * NUM_ACTIONS)
    for b in range(count):
        read_ahead(L, b, count)
        st = L.rows + b * STATE_SIZE
        rw = L.rewards + 4 * b
        mt = L.rngs + b * MT_SIZE
        choice = L.choice_rngs + b * MT_SIZE
        for s in range(4):
            rw[s] = 0.0
        gained = 0.0
        mode = L.modes[b]
        if mode == LEARNER_RENEW:
            memcpy(st, L.start, STATE_SIZE * sizeof(i32))
            # As pachisi.fast.batch._seeded seeds game ``renewed`` of a new batch.
            key = (L.seed << 21) + 2 * renewed
            renewed += 1
            seed_mt_pair(mt, splitmix64(key), choice, splitmix64(key + 1))
            settle_chance(st, params, L.p, mt, NULL, evn)
            L.players[b] = player_of(st)
            L.steps[b] = 0
        elif mode == LEARNER_ACT and L.players[b] >= 0:
            c_apply_action(st, params, L.actions[b], work.occ_n, work.occ, NULL, evn)
            settle_chance(st, params, L.p, mt, NULL, evn)
            L.players[b] = player_of(st)
            if L.players[b] == TERMINAL_PLAYER:
                rewards_of(st, params, rw)
            L.steps[b] += 1
            gained += rw[L.seat]
        who = L.players[b]
        n = 0
        if who >= 0:
            n = c_legal_actions(st, params, work.occ_n, work.occ, work.acts, work.pool)
        while who >= 0 and L.bots[who] >= 0 and L.steps[b] < L.max_steps:
            if L.bots[who] == GREEDY_BOT:
                j = greedy_choice(st, params, L.weights, L.hit, work.acts, n, choice, work)
            else:
                j = randbelow(choice, n)
            for s in range(4):
                rw[s] = 0.0
            c_apply_action(st, params, work.acts[j], work.occ_n, work.occ, NULL, evn)
            settle_chance(st, params, L.p, mt, NULL, evn)
            who = player_of(st)
            L.players[b] = who
            if who == TERMINAL_PLAYER:
                rewards_of(st, params, rw)
            L.steps[b] += 1
            gained += rw[L.seat]
            n = 0
            if who >= 0:
                n = c_legal_actions(st, params, work.occ_n, work.occ, work.acts, work.pool)
        mark_mask(L.masks + b * NUM_ACTIONS, L.marks + b * MASK_MARKS, work.acts, n)
        acting = who >= 0 and L.bots[who] < 0 and L.steps[b] < L.max_steps
        if L.view_marks != NULL:
            mark_mask(
                L.view + b * NUM_ACTIONS, L.view_marks + b * MASK_MARKS, work.acts,
                n if acting else 0,
            )
        elif L.view != NULL and acting:
            for j in range(n):
                L.view[b * NUM_ACTIONS + work.acts[j]] = 1
        if L.obs_marks != NULL:
            observe_over(
                st, params, who if acting else L.seat, L.obs + b * OBS_SIZE,
                L.obs_marks + b * OBS_MARKS,
            )
        elif L.obs != NULL:
            observe_over(st, params, who if acting else L.seat, seen, seen_marks)
            if stream:
                stream_out(L.obs + b * OBS_SIZE, seen, OBS_SIZE * sizeof(float))
            else:
                memcpy(L.obs + b * OBS_SIZE, seen, OBS_SIZE * sizeof(float))
        L.gained[b] = gained
        overflow |= st[OVERFLOW] != 0
    # The streamed stores are ordered before anything that follows (another thread's
    # reads of the observations among them).
    stream_done()
    return overflow
