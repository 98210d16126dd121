# The engine's Python face: def functions over numpy arrays (typed memoryviews), each
# checking the sizes the kernels rely on, then handing raw pointers to the C functions of
# the other parts with the GIL released. The signatures are in _core.pyi; the callers are
# pachisi.fast.batch, pachisi.ai.playouts and the differential tests.
#
# The kernels trust what they are handed (a legal action, a reachable row): these functions
# check shapes, so that no call can write outside an array, and the actions and throws the
# single-step functions apply; the batch wrappers in pachisi.fast.batch check the rest.

cpdef enum:
    # Rows of the event buffer a Scratch keeps for apply_action / apply_chance: more events
    # than one throw or action can cause (a throw-off round of four seats is the most).
    MAX_EVENTS = 256
    # The players' codes in a ``bots`` vector (play_many, play_seeded, choose_batch).
    RANDOM = RANDOM_BOT
    GREEDY = GREEDY_BOT
    # What learner_step does first in each game, and the width of its rows of marks: of
    # a mask, and of an observation's counts.
    KEEP = LEARNER_KEEP
    ACT = LEARNER_ACT
    RENEW = LEARNER_RENEW
    MARKS = MASK_MARKS
    OBSERVATION_MARKS = OBS_MARKS

CHANCE = CHANCE_PLAYER
TERMINAL = TERMINAL_PLAYER


cdef int _check(bint ok, str what) except -1:
    if not ok:
        raise ValueError(what)
    return 0


cdef int _check_row(const i32[::1] st, const i32[::1] params) except -1:
    _check(st.shape[0] == STATE_SIZE, "a state row has STATE_SIZE entries")
    _check(params.shape[0] == PARAMS_SIZE, "params is pachisi.fast.params.compile_ruleset's vector")
    return 0


cdef int _check_rows(const i32[:, ::1] rows, const i32[::1] params) except -1:
    _check(rows.shape[1] == STATE_SIZE, "state rows have STATE_SIZE entries")
    _check(params.shape[0] == PARAMS_SIZE, "params is pachisi.fast.params.compile_ruleset's vector")
    return 0


cdef int _check_players(const double[::1] weights, const double[::1] hit, const i32[::1] bots) except -1:
    _check(weights.shape[0] > W_DANGER, "greedy's weights are pachisi.ai.compiled_bots.compiled's")
    _check(hit.shape[0] >= HIT_REACH, "hit has the chances of the distances 0..25")
    _check(bots.shape[0] == 4, "bots has one player per seat")
    for seat in range(4):
        _check(-1 <= bots[seat] <= GREEDY_BOT, "a player is -1 (none), RANDOM or GREEDY")
    return 0


cdef class Scratch:
    """The buffers the kernels work in (occupancy, legal lists, the split search's pool,
    the greedy player's trial row) and an event buffer. One per thread: the kernels write
    into it, so two calls that run at once need two."""

    cdef Work* work
    cdef i32 ev[MAX_EVENTS * EVENT_FIELDS]
    cdef i32 evn[3]

    def __cinit__(self):
        self.work = new_work()
        if self.work == NULL:
            raise MemoryError("no memory for the compiled engine's buffers")

    def __dealloc__(self):
        free_work(self.work)

    cdef object _events(self):
        """The events of the last single step, as an ``(n, EVENT_FIELDS)`` int32 array."""
        import numpy as np

        n = min(self.evn[0], MAX_EVENTS)
        out = np.empty((n, EVENT_FIELDS), dtype=np.int32)
        cdef i32[:, ::1] view = out
        if n:
            memcpy(&view[0, 0], self.ev, n * EVENT_FIELDS * sizeof(i32))
        return out

    cdef void _reset_events(self) noexcept:
        self.evn[0] = 0
        self.evn[1] = 0
        self.evn[2] = MAX_EVENTS


def specialization_of(const i32[::1] params):
    """Which ruleset of pachisi.fast.params.SPECIALIZED the parameter vector ``params`` is
    (its place there, from 1), whose kernels compiled with those parameters as constants
    the engine runs it on; 0: none, the general kernels."""
    _check(params.shape[0] == PARAMS_SIZE, "params is pachisi.fast.params.compile_ruleset's vector")
    return specialization(&params[0])


def state_size():
    """The length of a state row (pachisi.fast.layout.STATE_SIZE)."""
    return STATE_SIZE


def stream_bytes():
    """The size of a learner's step's new observations and masks (in one part of the
    batch) above which they are streamed out past the caches (kernels/learner.pxi)."""
    return stream_bytes_c()


cdef i64 _legal_list(i32* row, i32* params, i64 spec, Work* w) noexcept nogil:
    """The legal list of ``row`` into ``w.acts`` on the kernels ``spec`` names
    (:func:`specialization`); its length, 0 where a throw is due or the game is over."""
    if row[STAGE] == OVER_STAGE or row[STAGE] == THROW_STAGE or row[STAGE] == THROW_OFF_STAGE:
        return 0
    if spec == SPEC_LUDII:
        return c_legal_actions(row, <LudiiParams>params, w.occ_n, w.occ, w.acts, w.pool)
    if spec == SPEC_WIKIPEDIAFULL:
        return c_legal_actions(row, <WikipediaFullParams>params, w.occ_n, w.occ, w.acts, w.pool)
    if spec == SPEC_CLASSIC:
        return c_legal_actions(row, <ClassicParams>params, w.occ_n, w.occ, w.acts, w.pool)
    return c_legal_actions(row, params, w.occ_n, w.occ, w.acts, w.pool)


def legal_actions(i32[::1] st, const i32[::1] params, Scratch scratch):
    """The legal action ids of ``st`` in the reference engine's order (an int32 array;
    empty where a throw is due or the game is over). ``st`` keeps its meaning: only its
    caches (OVERFLOW aside, the fields past the position) may change."""
    import numpy as np

    _check_row(st, params)
    cdef i64 n = 0
    cdef Work* w = scratch.work
    cdef i32* row = &st[0]
    cdef i32* pp = <i32*>&params[0]
    cdef i64 spec = specialization(pp)
    with nogil:
        n = _legal_list(row, pp, spec, w)
    out = np.empty(n, dtype=np.int32)
    cdef i32[::1] view = out
    if n:
        memcpy(&view[0], w.acts, n * sizeof(i32))
    return out


def apply_action(i32[::1] st, const i32[::1] params, i64 a, Scratch scratch):
    """Apply the legal action ``a`` to ``st`` in place; its events (``(n, EVENT_FIELDS)``).
    An action that is not legal raises ValueError and leaves ``st`` as it was."""
    _check_row(st, params)
    cdef Work* w = scratch.work
    cdef i32* row = &st[0]
    cdef i32* p = <i32*>&params[0]
    cdef i64 n = 0
    cdef bint legal = False
    cdef i64 spec = specialization(p)
    with nogil:
        n = _legal_list(row, p, spec, w)
        for j in range(n):
            if w.acts[j] == a:
                legal = True
                break
    if not legal:
        raise ValueError(f"action {a} is not legal here")
    scratch._reset_events()
    with nogil:
        if spec == SPEC_LUDII:
            c_apply_action(row, <LudiiParams>p, a, w.occ_n, w.occ, scratch.ev, scratch.evn)
        elif spec == SPEC_WIKIPEDIAFULL:
            c_apply_action(row, <WikipediaFullParams>p, a, w.occ_n, w.occ, scratch.ev, scratch.evn)
        elif spec == SPEC_CLASSIC:
            c_apply_action(row, <ClassicParams>p, a, w.occ_n, w.occ, scratch.ev, scratch.evn)
        else:
            c_apply_action(row, p, a, w.occ_n, w.occ, scratch.ev, scratch.evn)
    return scratch._events()


def apply_chance(i32[::1] st, const i32[::1] params, i64 k, Scratch scratch):
    """Apply a throw of ``k`` cowries mouth up to ``st``, which waits for one, in place;
    its events. A throw that is not due or out of range raises ValueError."""
    _check_row(st, params)
    _check(st[STAGE] == THROW_STAGE or st[STAGE] == THROW_OFF_STAGE, "no throw is due")
    _check(0 <= k <= params[P_COWRIES], "a throw has 0..cowries mouths up")
    scratch._reset_events()
    cdef i32* pp = <i32*>&params[0]
    cdef i64 spec = specialization(pp)
    with nogil:
        if spec == SPEC_LUDII:
            c_apply_chance(&st[0], <LudiiParams>pp, k, scratch.ev, scratch.evn)
        elif spec == SPEC_WIKIPEDIAFULL:
            c_apply_chance(&st[0], <WikipediaFullParams>pp, k, scratch.ev, scratch.evn)
        elif spec == SPEC_CLASSIC:
            c_apply_chance(&st[0], <ClassicParams>pp, k, scratch.ev, scratch.evn)
        else:
            c_apply_chance(&st[0], pp, k, scratch.ev, scratch.evn)
    return scratch._events()


def split_parts(i32[::1] st, const i32[::1] params, i64 v, i64 left, bint first_only, bint by_search, Scratch scratch):
    """The part actions a split of the throw ``v`` with ``left`` steps still to use offers
    the seat to act's mover (``first_only``: the first parts of a fresh split), worked out
    from the sums of the parts (by_search False) or by playing every part out (True); None
    where the parts are not independent (the sums do not apply). For tests."""
    _check_row(st, params)
    _check(2 <= v <= 35 and 1 <= left <= v, "a split is of a throw 2..35, 1..v steps left")
    cdef i32* row = &st[0]
    cdef i32* p = <i32*>&params[0]
    if not parts_independent(p, v):
        return None
    cdef Work* w = scratch.work
    cdef i64 m, pieces, n
    with nogil:
        m = mover_of(row, p, row[SEAT])
        occupancy(row, p, w.occ_n, w.occ)
        pieces = movable(row, p, m, row[SPLIT_USED])
        if by_search:
            n = split_parts_by_search(row, p, w.occ_n, w.occ, m, v, left, w.acts, 0, first_only, w.pool, pieces, NULL)
        else:
            n = split_parts_by_sums(row, p, w.occ_n, w.occ, m, v, left, w.acts, 0, first_only, pieces, NULL)
    return [int(w.acts[j]) for j in range(n)]


def observe_batch(const i32[:, ::1] rows, const i32[::1] params, const i32[::1] seats, float[:, ::1] obs):
    """The observation of every game, each from its ``seats[b]`` (a seat 0..3)."""
    _check_rows(rows, params)
    cdef i64 count = rows.shape[0]
    _check(seats.shape[0] == count and obs.shape[0] == count, "one seat and observation per game")
    _check(obs.shape[1] == OBS_SIZE, "an observation has OBS_SIZE values")
    for b in range(count):
        _check(0 <= seats[b] < 4, "a seat is 0..3")
    cdef i32* pp = <i32*>&params[0]
    cdef i64 spec = specialization(pp)
    if count:
        with nogil:
            if spec == SPEC_LUDII:
                c_observe_batch(<i32*>&rows[0, 0], count, <LudiiParams>pp, <i32*>&seats[0], &obs[0, 0])
            elif spec == SPEC_WIKIPEDIAFULL:
                c_observe_batch(<i32*>&rows[0, 0], count, <WikipediaFullParams>pp, <i32*>&seats[0], &obs[0, 0])
            elif spec == SPEC_CLASSIC:
                c_observe_batch(<i32*>&rows[0, 0], count, <ClassicParams>pp, <i32*>&seats[0], &obs[0, 0])
            else:
                c_observe_batch(<i32*>&rows[0, 0], count, pp, <i32*>&seats[0], &obs[0, 0])


cdef int _check_batch(const i32[:, ::1] rows, const i32[::1] params, i64 per_game, const char[:, ::1] masks, const i32[::1] players) except -1:
    _check_rows(rows, params)
    cdef i64 count = rows.shape[0]
    _check(per_game == count, "one entry per game")
    _check(masks.shape[0] == count and masks.shape[1] == NUM_ACTIONS, "masks are (games, NUM_ACTIONS)")
    _check(players.shape[0] == count, "one player entry per game")
    return 0


def start_batch(
    i32[:, ::1] rows, const i32[::1] params, double p, u32[:, ::1] rngs, bint sample,
    Scratch scratch, char[:, ::1] masks, i32[::1] players,
):
    """Throw for every game until it waits for a decision (when ``sample``), then write
    its mask and the player to act (a seat, CHANCE or TERMINAL)."""
    _check_batch(rows, params, rngs.shape[0], masks, players)
    _check(rngs.shape[1] == MT_SIZE, "a generator has MT_SIZE words")
    cdef i64 count = rows.shape[0]
    cdef i32* pp = <i32*>&params[0]
    cdef i64 spec = specialization(pp)
    if count:
        with nogil:
            if spec == SPEC_LUDII:
                c_start_batch(
                    &rows[0, 0], count, <LudiiParams>pp, p, &rngs[0, 0], sample, scratch.work,
                    &masks[0, 0], &players[0],
                )
            elif spec == SPEC_WIKIPEDIAFULL:
                c_start_batch(
                    &rows[0, 0], count, <WikipediaFullParams>pp, p, &rngs[0, 0], sample, scratch.work,
                    &masks[0, 0], &players[0],
                )
            elif spec == SPEC_CLASSIC:
                c_start_batch(
                    &rows[0, 0], count, <ClassicParams>pp, p, &rngs[0, 0], sample, scratch.work,
                    &masks[0, 0], &players[0],
                )
            else:
                c_start_batch(
                    &rows[0, 0], count, pp, p, &rngs[0, 0], sample, scratch.work,
                    &masks[0, 0], &players[0],
                )


def step_batch(
    i32[:, ::1] rows, const i32[::1] params, double p, const i32[::1] actions,
    const char[::1] active, u32[:, ::1] rngs, bint sample, Scratch scratch,
    char[:, ::1] masks, i32[::1] players, float[:, ::1] rewards,
):
    """Apply ``actions[b]`` to every ``active`` game with a seat to act (each must be
    legal: pachisi.fast.batch.step checks), throw for it when ``sample``, and update the
    masks, players and rewards."""
    _check_batch(rows, params, actions.shape[0], masks, players)
    cdef i64 count = rows.shape[0]
    _check(active.shape[0] == count and rngs.shape[0] == count, "one entry per game")
    _check(rngs.shape[1] == MT_SIZE, "a generator has MT_SIZE words")
    _check(rewards.shape[0] == count and rewards.shape[1] == 4, "rewards are (games, 4)")
    for b in range(count):
        if players[b] >= 0 and active[b]:
            _check(0 <= actions[b] < NUM_ACTIONS and masks[b, actions[b]], "an action is not legal")
    cdef i32* pp = <i32*>&params[0]
    cdef i64 spec = specialization(pp)
    if count:
        with nogil:
            if spec == SPEC_LUDII:
                c_step_batch(
                    &rows[0, 0], count, <LudiiParams>pp, p, <i32*>&actions[0], <char*>&active[0],
                    &rngs[0, 0], sample, scratch.work, &masks[0, 0], &players[0], &rewards[0, 0],
                )
            elif spec == SPEC_WIKIPEDIAFULL:
                c_step_batch(
                    &rows[0, 0], count, <WikipediaFullParams>pp, p, <i32*>&actions[0], <char*>&active[0],
                    &rngs[0, 0], sample, scratch.work, &masks[0, 0], &players[0], &rewards[0, 0],
                )
            elif spec == SPEC_CLASSIC:
                c_step_batch(
                    &rows[0, 0], count, <ClassicParams>pp, p, <i32*>&actions[0], <char*>&active[0],
                    &rngs[0, 0], sample, scratch.work, &masks[0, 0], &players[0], &rewards[0, 0],
                )
            else:
                c_step_batch(
                    &rows[0, 0], count, pp, p, <i32*>&actions[0], <char*>&active[0],
                    &rngs[0, 0], sample, scratch.work, &masks[0, 0], &players[0], &rewards[0, 0],
                )


def throw_batch(
    i32[:, ::1] rows, const i32[::1] params, const i32[::1] ks, Scratch scratch,
    char[:, ::1] masks, i32[::1] players, float[:, ::1] rewards,
):
    """Apply the throw ``ks[b]`` (cowries mouth up) to every game waiting for a throw."""
    _check_batch(rows, params, ks.shape[0], masks, players)
    cdef i64 count = rows.shape[0]
    _check(rewards.shape[0] == count and rewards.shape[1] == 4, "rewards are (games, 4)")
    for b in range(count):
        if players[b] == CHANCE_PLAYER:
            _check(0 <= ks[b] <= params[P_COWRIES], "a throw has 0..cowries mouths up")
    cdef i32* pp = <i32*>&params[0]
    cdef i64 spec = specialization(pp)
    if count:
        with nogil:
            if spec == SPEC_LUDII:
                c_throw_batch(
                    &rows[0, 0], count, <LudiiParams>pp, <i32*>&ks[0], scratch.work, &masks[0, 0],
                    &players[0], &rewards[0, 0],
                )
            elif spec == SPEC_WIKIPEDIAFULL:
                c_throw_batch(
                    &rows[0, 0], count, <WikipediaFullParams>pp, <i32*>&ks[0], scratch.work, &masks[0, 0],
                    &players[0], &rewards[0, 0],
                )
            elif spec == SPEC_CLASSIC:
                c_throw_batch(
                    &rows[0, 0], count, <ClassicParams>pp, <i32*>&ks[0], scratch.work, &masks[0, 0],
                    &players[0], &rewards[0, 0],
                )
            else:
                c_throw_batch(
                    &rows[0, 0], count, pp, <i32*>&ks[0], scratch.work, &masks[0, 0],
                    &players[0], &rewards[0, 0],
                )


def choose_batch(
    i32[:, ::1] rows, const i32[::1] params, const double[::1] weights, const double[::1] hit,
    const i32[::1] bots, u32[:, ::1] rngs, const i32[::1] players, Scratch scratch,
    i32[::1] actions,
):
    """For every game with a seat to act, the action its compiled player (``bots[seat]``)
    chooses, drawn from the game's generator; -1 where none is to choose."""
    _check_rows(rows, params)
    _check_players(weights, hit, bots)
    cdef i64 count = rows.shape[0]
    _check(rngs.shape[0] == count and rngs.shape[1] == MT_SIZE, "one generator per game")
    _check(players.shape[0] == count and actions.shape[0] == count, "one entry per game")
    cdef i32* pp = <i32*>&params[0]
    cdef i64 spec = specialization(pp)
    if count:
        with nogil:
            if spec == SPEC_LUDII:
                c_choose_batch(
                    &rows[0, 0], count, <LudiiParams>pp, <double*>&weights[0], <double*>&hit[0],
                    <i32*>&bots[0], &rngs[0, 0], <i32*>&players[0], scratch.work, &actions[0],
                )
            elif spec == SPEC_WIKIPEDIAFULL:
                c_choose_batch(
                    &rows[0, 0], count, <WikipediaFullParams>pp, <double*>&weights[0], <double*>&hit[0],
                    <i32*>&bots[0], &rngs[0, 0], <i32*>&players[0], scratch.work, &actions[0],
                )
            elif spec == SPEC_CLASSIC:
                c_choose_batch(
                    &rows[0, 0], count, <ClassicParams>pp, <double*>&weights[0], <double*>&hit[0],
                    <i32*>&bots[0], &rngs[0, 0], <i32*>&players[0], scratch.work, &actions[0],
                )
            else:
                c_choose_batch(
                    &rows[0, 0], count, pp, <double*>&weights[0], <double*>&hit[0],
                    <i32*>&bots[0], &rngs[0, 0], <i32*>&players[0], scratch.work, &actions[0],
                )


def play_many(
    i32[:, ::1] rows, const i32[::1] params, double p, const double[::1] weights,
    const double[::1] hit, const i32[::1] bots, u32[:, ::1] mt_throws, u32[:, ::1] mt_choices,
    i64 max_turns, i64 max_steps, i32[:, ::1] stats,
):
    """Play every row on to the end (or a cap), game ``b`` with its own pair of generators;
    ``stats[b]`` gets its throws, actions and capture events (pachisi.ai.playouts)."""
    _check_rows(rows, params)
    _check_players(weights, hit, bots)
    cdef i64 count = rows.shape[0]
    _check(mt_throws.shape[0] == count and mt_choices.shape[0] == count, "two generators per game")
    _check(mt_throws.shape[1] == MT_SIZE and mt_choices.shape[1] == MT_SIZE, "a generator has MT_SIZE words")
    _check(stats.shape[0] == count and stats.shape[1] == 3, "stats are (games, 3)")
    cdef i64 done = 0
    cdef i32* pp = <i32*>&params[0]
    cdef i64 spec = specialization(pp)
    if count:
        with nogil:
            if spec == SPEC_LUDII:
                done = c_play_many(
                    &rows[0, 0], count, <LudiiParams>pp, p, <double*>&weights[0], <double*>&hit[0],
                    <i32*>&bots[0], &mt_throws[0, 0], &mt_choices[0, 0], max_turns, max_steps,
                    &stats[0, 0],
                )
            elif spec == SPEC_WIKIPEDIAFULL:
                done = c_play_many(
                    &rows[0, 0], count, <WikipediaFullParams>pp, p, <double*>&weights[0], <double*>&hit[0],
                    <i32*>&bots[0], &mt_throws[0, 0], &mt_choices[0, 0], max_turns, max_steps,
                    &stats[0, 0],
                )
            elif spec == SPEC_CLASSIC:
                done = c_play_many(
                    &rows[0, 0], count, <ClassicParams>pp, p, <double*>&weights[0], <double*>&hit[0],
                    <i32*>&bots[0], &mt_throws[0, 0], &mt_choices[0, 0], max_turns, max_steps,
                    &stats[0, 0],
                )
            else:
                done = c_play_many(
                    &rows[0, 0], count, pp, p, <double*>&weights[0], <double*>&hit[0],
                    <i32*>&bots[0], &mt_throws[0, 0], &mt_choices[0, 0], max_turns, max_steps,
                    &stats[0, 0],
                )
    if done < 0:
        raise MemoryError("no memory for the compiled engine's buffers")


def play_seeded(
    i32[:, ::1] rows, const i32[::1] params, double p, const double[::1] weights,
    const double[::1] hit, const i32[::1] bots, i64 seed, i64 first, i64 max_turns,
    i64 max_steps, i32[:, ::1] stats, bint general=False,
):
    """Play every row on to the end (or a cap), row ``b`` as game ``first + b`` of the
    playouts seeded ``seed`` (its generators seeded in compiled code from both).
    ``general`` runs the general kernels even for a ruleset with kernels of its own
    (:func:`specialization_of`): the same games, to compare the two."""
    _check_rows(rows, params)
    _check_players(weights, hit, bots)
    cdef i64 count = rows.shape[0]
    _check(stats.shape[0] == count and stats.shape[1] == 3, "stats are (games, 3)")
    _check(first >= 0, "the first game's index is not negative")
    cdef i64 done = 0
    cdef i32* pp = <i32*>&params[0]
    cdef i64 spec = 0 if general else specialization(pp)
    if count:
        with nogil:
            if spec == SPEC_LUDII:
                done = c_play_seeded(
                    &rows[0, 0], count, first, <LudiiParams>pp, p, <double*>&weights[0],
                    <double*>&hit[0], <i32*>&bots[0], seed, max_turns, max_steps, &stats[0, 0],
                )
            elif spec == SPEC_WIKIPEDIAFULL:
                done = c_play_seeded(
                    &rows[0, 0], count, first, <WikipediaFullParams>pp, p, <double*>&weights[0],
                    <double*>&hit[0], <i32*>&bots[0], seed, max_turns, max_steps, &stats[0, 0],
                )
            elif spec == SPEC_CLASSIC:
                done = c_play_seeded(
                    &rows[0, 0], count, first, <ClassicParams>pp, p, <double*>&weights[0],
                    <double*>&hit[0], <i32*>&bots[0], seed, max_turns, max_steps, &stats[0, 0],
                )
            else:
                done = c_play_seeded(
                    &rows[0, 0], count, first, pp, p, <double*>&weights[0],
                    <double*>&hit[0], <i32*>&bots[0], seed, max_turns, max_steps, &stats[0, 0],
                )
    if done < 0:
        raise MemoryError("no memory for the compiled engine's buffers")


def seed_generator(u32[::1] mt, i64 seed):
    """Seed the Mersenne Twister state ``mt`` (MT_SIZE words) as the kernels do."""
    _check(mt.shape[0] == MT_SIZE, "a generator has MT_SIZE words")
    seed_mt(&mt[0], seed)


def mix_seed(i64 x):
    """SplitMix64 of ``x``, wrapping in signed 64 bits as the kernels do."""
    return splitmix64(x)


def seed_generators_by_keys(u32[:, ::1] mts, const u32[:, ::1] keys, const i64[::1] lengths):
    """Seed generator ``g`` (a row of ``mts``) with ``init_by_array`` from the first
    ``lengths[g]`` words of row ``g`` of ``keys``."""
    cdef i64 count = mts.shape[0]
    _check(mts.shape[1] == MT_SIZE, "a generator has MT_SIZE words")
    _check(keys.shape[0] == count and lengths.shape[0] == count, "one key per generator")
    cdef u32 base[MT_SIZE]
    cdef u32* lane_mts[SEED_LANES]
    cdef u32* lane_keys[SEED_LANES]
    cdef i64 lane_ns[SEED_LANES]
    cdef i64 g, lane
    for g in range(count):
        _check(1 <= lengths[g] <= keys.shape[1], "a key has 1..its row's words")
    g = 0
    with nogil:
        seed_mt(base, 19650218)
        # SEED_LANES generators at a time while their keys are short enough for the
        # lanes to keep step (seed_mt_by_keys); the rest one at a time.
        while g < count:
            if g + SEED_LANES <= count and _short_keys(&lengths[g]):
                for lane in range(SEED_LANES):
                    lane_mts[lane] = &mts[g + lane, 0]
                    lane_keys[lane] = <u32*>&keys[g + lane, 0]
                    lane_ns[lane] = lengths[g + lane]
                seed_mt_by_keys(lane_mts, lane_keys, lane_ns, base)
                g += SEED_LANES
            else:
                seed_mt_by_key(&mts[g, 0], <u32*>&keys[g, 0], lengths[g], base)
                g += 1


cdef inline bint _short_keys(const i64* lengths) noexcept nogil:
    """Whether SEED_LANES keys from ``lengths`` on are each at most MT_N words long."""
    for lane in range(SEED_LANES):
        if lengths[lane] > MT_N:
            return False
    return True


def advance_batch(
    i32[:, ::1] rows, const i32[::1] params, double p, const double[::1] weights,
    const double[::1] hit, const i32[::1] bots, u32[:, ::1] rngs, u32[:, ::1] choice_rngs,
    bint sample, Scratch scratch, char[:, ::1] masks, i32[::1] players, float[:, ::1] rewards,
    i64[::1] steps, i64 max_steps, i64 seat, float[::1] gained,
):
    """Let the compiled players (``bots[seat]``; -1 for a seat played from outside) play
    every game on until a seat without one is to act, the game is over or waits for a
    throw, or it has had ``max_steps`` actions; ``steps`` counts the actions and
    ``gained`` adds up ``seat``'s rewards."""
    _check_batch(rows, params, rngs.shape[0], masks, players)
    _check_players(weights, hit, bots)
    cdef i64 count = rows.shape[0]
    _check(rngs.shape[1] == MT_SIZE and choice_rngs.shape[0] == count and choice_rngs.shape[1] == MT_SIZE, "two generators per game")
    _check(rewards.shape[0] == count and rewards.shape[1] == 4, "rewards are (games, 4)")
    _check(steps.shape[0] == count and gained.shape[0] == count, "one entry per game")
    _check(0 <= seat < 4, "the seat is 0..3")
    cdef i32* pp = <i32*>&params[0]
    cdef i64 spec = specialization(pp)
    if count:
        with nogil:
            if spec == SPEC_LUDII:
                c_advance_batch(
                    &rows[0, 0], count, <LudiiParams>pp, p, <double*>&weights[0], <double*>&hit[0],
                    <i32*>&bots[0], &rngs[0, 0], &choice_rngs[0, 0], sample, scratch.work,
                    &masks[0, 0], &players[0], &rewards[0, 0], &steps[0], max_steps, seat, &gained[0],
                )
            elif spec == SPEC_WIKIPEDIAFULL:
                c_advance_batch(
                    &rows[0, 0], count, <WikipediaFullParams>pp, p, <double*>&weights[0], <double*>&hit[0],
                    <i32*>&bots[0], &rngs[0, 0], &choice_rngs[0, 0], sample, scratch.work,
                    &masks[0, 0], &players[0], &rewards[0, 0], &steps[0], max_steps, seat, &gained[0],
                )
            elif spec == SPEC_CLASSIC:
                c_advance_batch(
                    &rows[0, 0], count, <ClassicParams>pp, p, <double*>&weights[0], <double*>&hit[0],
                    <i32*>&bots[0], &rngs[0, 0], &choice_rngs[0, 0], sample, scratch.work,
                    &masks[0, 0], &players[0], &rewards[0, 0], &steps[0], max_steps, seat, &gained[0],
                )
            else:
                c_advance_batch(
                    &rows[0, 0], count, pp, p, <double*>&weights[0], <double*>&hit[0],
                    <i32*>&bots[0], &rngs[0, 0], &choice_rngs[0, 0], sample, scratch.work,
                    &masks[0, 0], &players[0], &rewards[0, 0], &steps[0], max_steps, seat, &gained[0],
                )


cdef inline bint _marks_inside(const int16_t* marks, i64 width, i64 size) noexcept nogil:
    """Whether a row of marks (its count, then as many offsets) counts -1..width - 1
    offsets, each in 0..size - 1."""
    cdef i64 c = marks[0]
    if not -1 <= c < width:
        return False
    for j in range(c):
        if not 0 <= marks[1 + j] < size:
            return False
    return True


def first_illegal(const char[:, ::1] masks, const i64[::1] actions, const char[::1] games):
    """The first game ``b`` with ``games[b]`` set whose ``actions[b]`` is outside
    0..NUM_ACTIONS - 1 or not set in its mask ``masks[b]``, else -1: a batch's actions
    checked before any game changes. One load a game, each from a line of its own that is
    seldom in cache; numpy's fancy indexing took about 0.2 ms for 4,096 games."""
    cdef i64 count = masks.shape[0]
    _check(masks.shape[1] == NUM_ACTIONS, "masks are (games, NUM_ACTIONS)")
    _check(actions.shape[0] == count and games.shape[0] == count, "one entry per game")
    cdef i64 bad = -1
    cdef i64 a
    with nogil:
        for b in range(count):
            if games[b]:
                a = actions[b]
                if not (0 <= a < NUM_ACTIONS and masks[b, a]):
                    bad = b
                    break
    return bad


def learner_step(
    i32[:, ::1] rows, const i32[::1] params, double p, const double[::1] weights,
    const double[::1] hit, const i32[::1] bots, u32[:, ::1] rngs, u32[:, ::1] choice_rngs,
    Scratch scratch, char[:, ::1] masks, int16_t[:, ::1] marks, i32[::1] players,
    float[:, ::1] rewards, i64[::1] steps, i64 max_steps, i64 seat, const char[::1] modes,
    const i32[::1] actions, const i32[::1] start, i64 seed, i64 first,
    float[:, ::1] obs, int16_t[:, ::1] obs_marks, char[:, ::1] view,
    int16_t[:, ::1] view_marks, float[::1] gained,
):
    """Every game's step to its learner's next decision (kernels/learner.pxi): start it
    anew (``modes[b]`` RENEW, as game ``first + i`` of a batch seeded ``seed`` where it is
    the ``i``-th renewed here, from the row ``start``), apply ``actions[b]`` (LEARNER_ACT; it must be legal) or neither
    (LEARNER_KEEP), then let the compiled players (``bots[seat]``; -1 for the learner's
    seats) play; ``gained`` gets ``seat``'s rewards. ``marks`` lists what each mask has set
    (-1 where unknown). ``obs`` and ``view`` (or None for none) get what the learner sees:
    the observation from its seat to act (else ``seat``) and that seat's mask (empty where
    none of its seats is to act or ``max_steps`` is reached): written whole, or with
    ``obs_marks`` / ``view_marks`` over what those say the last call left there (count
    -1: not known, written whole). True if a game's row overflowed (pachisi.fast.batch
    raises)."""
    _check_batch(rows, params, rngs.shape[0], masks, players)
    _check_players(weights, hit, bots)
    cdef i64 count = rows.shape[0]
    _check(rngs.shape[1] == MT_SIZE and choice_rngs.shape[0] == count and choice_rngs.shape[1] == MT_SIZE, "two generators per game")
    _check(rewards.shape[0] == count and rewards.shape[1] == 4, "rewards are (games, 4)")
    _check(marks.shape[0] == count and marks.shape[1] == MASK_MARKS, "marks are (games, MASK_MARKS)")
    _check(steps.shape[0] == count and gained.shape[0] == count and modes.shape[0] == count, "one entry per game")
    _check(actions.shape[0] == count, "one entry per game")
    _check(first >= 0, "the first new game's index is not negative")
    _check(start.shape[0] == STATE_SIZE, "a state row has STATE_SIZE entries")
    _check(0 <= seat < 4, "the seat is 0..3")
    _check(0 <= seed < 2 ** 40, "the seed is 0..2**40 - 1")
    cdef Learners L
    L.obs = NULL
    L.obs_marks = NULL
    L.view = NULL
    L.view_marks = NULL
    if obs is not None:
        _check(obs.shape[0] == count and obs.shape[1] == OBS_SIZE, "observations are (games, OBS_SIZE)")
        _check(obs_marks is None or (obs_marks.shape[0] == count and obs_marks.shape[1] == OBS_MARKS), "observation marks are (games, OBSERVATION_MARKS)")
        if count:
            L.obs = &obs[0, 0]
            if obs_marks is not None:
                L.obs_marks = &obs_marks[0, 0]
    if view is not None:
        _check(view.shape[0] == count and view.shape[1] == NUM_ACTIONS, "masks are (games, NUM_ACTIONS)")
        _check(view_marks is None or (view_marks.shape[0] == count and view_marks.shape[1] == MASK_MARKS), "mask marks are (games, MARKS)")
        if count:
            L.view = &view[0, 0]
            if view_marks is not None:
                L.view_marks = &view_marks[0, 0]
    if not count:
        return False
    # Every game is looked at before any changes, without the GIL: the other parts' calls
    # go on meanwhile. The first game that fails names what is wrong. The marks are
    # written through, so every id they list must be inside its row.
    cdef i64 bad = -1
    cdef i64 why = 0
    with nogil:
        for b in range(count):
            if not _marks_inside(&marks[b, 0], MASK_MARKS, NUM_ACTIONS):
                bad, why = b, 1
            elif L.obs_marks != NULL and not _marks_inside(&obs_marks[b, 0], OBS_MARKS, OBS_SIZE):
                bad, why = b, 4
            elif L.view_marks != NULL and not _marks_inside(&view_marks[b, 0], MASK_MARKS, NUM_ACTIONS):
                bad, why = b, 1
            elif modes[b] == LEARNER_ACT:
                if players[b] >= 0 and not (0 <= actions[b] < NUM_ACTIONS and masks[b, actions[b]]):
                    bad, why = b, 2
            elif modes[b] != LEARNER_KEEP and modes[b] != LEARNER_RENEW:
                bad, why = b, 3
            if bad >= 0:
                break
    _check(why != 1, "a row of marks counts -1..MARKS - 1 ids, each an action id")
    _check(why != 4, "a row of observation marks counts -1..OBSERVATION_MARKS - 1 offsets, each inside an observation")
    _check(why != 2, "an action is not legal")
    _check(why != 3, "a mode is KEEP, ACT or RENEW")
    L.rows = &rows[0, 0]
    L.p = p
    L.weights = <double*>&weights[0]
    L.hit = <double*>&hit[0]
    L.bots = <i32*>&bots[0]
    L.rngs = &rngs[0, 0]
    L.choice_rngs = &choice_rngs[0, 0]
    L.masks = &masks[0, 0]
    L.marks = &marks[0, 0]
    L.players = &players[0]
    L.rewards = &rewards[0, 0]
    L.steps = &steps[0]
    L.max_steps = max_steps
    L.seat = seat
    L.modes = <char*>&modes[0]
    L.actions = <i32*>&actions[0]
    L.start = <i32*>&start[0]
    L.seed = seed
    L.first = first
    L.gained = &gained[0]
    cdef bint overflow
    cdef i32* pp = <i32*>&params[0]
    cdef i64 spec = specialization(pp)
    with nogil:
        if spec == SPEC_LUDII:
            overflow = c_learner_step(&L, <LudiiParams>pp, count, scratch.work)
        elif spec == SPEC_WIKIPEDIAFULL:
            overflow = c_learner_step(&L, <WikipediaFullParams>pp, count, scratch.work)
        elif spec == SPEC_CLASSIC:
            overflow = c_learner_step(&L, <ClassicParams>pp, count, scratch.work)
        else:
            overflow = c_learner_step(&L, pp, count, scratch.work)
    return overflow
