# The compiled players' Python face: def functions over numpy arrays (typed memoryviews),
# each checking the sizes the kernels rely on, then handing raw pointers to the C kernel of
# the same name (c_ prefixed) with the GIL released. The signatures are in _compiled.pyi.

cpdef enum:
    # An actions buffer's length (values of search_root): the engine's.
    MAX_ACTIONS = MAX_LIST

BOTS = {"random": RANDOM_BOT, "greedy": GREEDY_BOT, "learned": LEARNED_BOT}
"""The codes of the players in a ``bots`` vector (train_games, match_games)."""


cdef int _check(bint ok, str what) except -1:
    if not ok:
        raise ValueError(what)
    return 0


cdef int _as_net(tuple net, Net* out, bint writable) except -1:
    """The five arrays w1, b1, w2, b2, w3 of ``net`` (row-major float64, consistent shapes,
    writable when the kernel trains them) as a :c:type:`Net`. The arrays stay alive as
    long as the caller's tuple does, which outlives the kernel's call."""
    cdef const double[:, ::1] w1, w2, w3
    cdef const double[::1] b1, b2
    cdef double[:, ::1] m1, m2, m3
    cdef double[::1] v1, v2
    _check(len(net) == 5, "the network is five arrays: w1, b1, w2, b2, w3")
    if writable:
        m1, v1, m2, v2, m3 = net
        w1, b1, w2, b2, w3 = m1, v1, m2, v2, m3
    else:
        w1, b1, w2, b2, w3 = net
    out.hidden = b1.shape[0]
    out.sides = b2.shape[0]
    _check(out.sides == 2 or out.sides == 4, "the network rates 2 or 4 sides")
    _check(
        out.hidden >= 1
        and w1.shape[0] == FEATURES and w1.shape[1] == out.hidden
        and w2.shape[0] == out.hidden and w2.shape[1] == out.sides
        and w3.shape[0] == FEATURES and w3.shape[1] == out.sides,
        "the network's arrays have inconsistent shapes",
    )
    out.w1 = <double*>&w1[0, 0]
    out.b1 = <double*>&b1[0]
    out.w2 = <double*>&w2[0, 0]
    out.b2 = <double*>&b2[0]
    out.w3 = <double*>&w3[0, 0]
    return 0


cdef int _check_greedy(const double[::1] weights) except -1:
    return _check(weights.shape[0] > W_DANGER, "greedy's weights are pachisi.ai.compiled_bots.compiled's")


cdef int _check_ruleset(const i32[::1] st, const i32[::1] params, const double[::1] hit) except -1:
    _check(st.shape[0] == STATE_SIZE, "a state row has STATE_SIZE entries")
    _check(params.shape[0] == PARAMS_SIZE, "params is pachisi.fast.params.compile_ruleset's vector")
    _check(hit.shape[0] >= HIT_REACH, "hit has the chances of the distances 0..25")
    return 0


def encode(
    const i32[::1] st, const i32[::1] params, const double[::1] hit, i64 o, i64 blocked,
    const double[::1] greedy, i32[::1] idx, double[::1] val,
):
    """:func:`pachisi.ai.learned.features.encode`, compiled: the features of ``st`` seen from
    seat ``o`` into ``idx``/``val``; their count."""
    _check_ruleset(st, params, hit)
    _check(0 <= o < 4, "the observer is a seat, 0..3")
    _check(greedy.shape[0] >= 4, "greedy has a score per seat")
    _check(idx.shape[0] >= MAX_ACTIVE and val.shape[0] >= MAX_ACTIVE, "idx and val hold MAX_ACTIVE")
    cdef i64 n
    with nogil:
        n = c_encode(
            <i32*>&st[0], <i32*>&params[0], <double*>&hit[0], o, blocked, <double*>&greedy[0],
            &idx[0], &val[0],
        )
    return n


def forward(const i32[::1] idx, const double[::1] val, i64 n, tuple net, double[::1] h, double[::1] out):
    """The network's hidden units (into ``h``) and the sides' chances (into ``out``) for
    ``n`` active features."""
    cdef Net c
    _as_net(net, &c, False)
    _check(0 <= n <= idx.shape[0] and n <= val.shape[0], "n is at most the features given")
    _check(h.shape[0] >= c.hidden and out.shape[0] >= c.sides, "h and out are too short")
    cdef i64 a
    for a in range(n):
        _check(0 <= idx[a] < FEATURES, "a feature index is out of range")
    with nogil:
        c_forward(<i32*>&idx[0], <double*>&val[0], n, &c, &h[0], &out[0])


def blocked_seats(const i32[::1] st, const i32[::1] params):
    """Bit ``seat`` set for every seat R-DEADLOCK calls blocked (0 without kill-before-home)."""
    _check(st.shape[0] == STATE_SIZE, "a state row has STATE_SIZE entries")
    _check(params.shape[0] == PARAMS_SIZE, "params is pachisi.fast.params.compile_ruleset's vector")
    cdef i64 mask
    with nogil:
        mask = c_blocked_seats(<i32*>&st[0], <i32*>&params[0])
    return mask


def greedy_scores(
    const i32[::1] st, const i32[::1] params, const double[::1] weights, const double[::1] hit,
    double[::1] out,
):
    """``greedy``'s score of ``st`` for every seat's side (partners share theirs)."""
    _check_ruleset(st, params, hit)
    _check_greedy(weights)
    _check(out.shape[0] >= 4, "out has a score per seat")
    with nogil:
        c_greedy_scores(<i32*>&st[0], <i32*>&params[0], <double*>&weights[0], <double*>&hit[0], &out[0])


def to_absolute(const i32[::1] params, i64 o, const double[::1] rel, double[::1] out):
    """Turn chances by side relative to observer ``o`` into chances by absolute side."""
    _check(params.shape[0] == PARAMS_SIZE, "params is pachisi.fast.params.compile_ruleset's vector")
    _check(0 <= o < 4, "the observer is a seat, 0..3")
    cdef i64 sides = 4 if params[P_INDIVIDUAL] else 2
    _check(rel.shape[0] >= sides and out.shape[0] >= sides, "rel and out have a chance per side")
    with nogil:
        c_to_absolute(<i32*>&params[0], o, <double*>&rel[0], &out[0])


def search_root(
    const i32[::1] root, const i32[::1] params, const double[::1] hit, const double[::1] greedy,
    tuple net, const i32[::1] ks, const double[::1] ps, i64 depth, i64 limit, i64[::1] count,
    double[::1] values,
):
    """Every legal action's value at ``depth`` for the side to move in ``root``, in the
    engine's order of the legal actions, into ``values``; the number of actions.

    ``ks``/``ps`` are the throws and their probabilities (the engine's chance outcomes).
    ``count[0]`` is the positions visited so far, and the search stops (``count[1] =``
    :data:`OUT_OF_BUDGET`) on entering a position once it has reached ``limit``; the values
    of the actions searched until then stand in ``values``. ``count[1]`` becomes
    :data:`OVERFLOWED` where a position is past what a state row holds."""
    cdef Net c
    _as_net(net, &c, False)
    _check_ruleset(root, params, hit)
    _check_greedy(greedy)
    _check(1 <= depth <= MAX_DEPTH, "the depth is 1..MAX_DEPTH")
    _check(ks.shape[0] == ps.shape[0] and ks.shape[0] >= 1, "a probability for each throw")
    cdef Py_ssize_t i
    for i in range(ks.shape[0]):
        _check(0 <= ks[i] <= params[P_COWRIES] and ps[i] > 0.0, "the throws are the chance outcomes")
    _check(count.shape[0] >= 2 and values.shape[0] >= MAX_LIST, "count has 2, values MAX_ACTIONS")
    cdef i64 n
    with nogil:
        n = c_search_root(
            <i32*>&root[0], <i32*>&params[0], <double*>&hit[0], <double*>&greedy[0], &c,
            <i32*>&ks[0], <double*>&ps[0], ks.shape[0], depth, limit, &count[0], &values[0],
        )
    if n < 0:
        raise MemoryError("no memory for the search's frames")
    return n


cdef int _check_games(const i32[::1] start, const i32[::1] params, const double[::1] hit, const double[::1] greedy_weights, const i32[::1] bots, i64 games) except -1:
    _check_ruleset(start, params, hit)
    _check_greedy(greedy_weights)
    _check(bots.shape[0] == 4, "bots has a player per seat")
    cdef Py_ssize_t seat
    for seat in range(4):
        _check(0 <= bots[seat] <= LEARNED_BOT, "a player code is 0 (random), 1 (greedy) or 2 (learned)")
    _check(games >= 0, "the number of games cannot be negative")
    return 0


def train_games(
    const i32[::1] start, const i32[::1] params, double p, const double[::1] hit,
    const double[::1] greedy_weights, const i32[::1] bots, tuple net, i64 seed, i64 first_game,
    i64 games, double lam, double alpha, double eps, i64 max_steps, i64[::1] stats,
):
    """Play ``games`` games from ``start`` (game numbers ``first_game`` on, each seeded from
    ``(seed, number)``) and train the network in place after each.

    ``bots[seat]`` plays each seat: 2 the network itself (self-play, exploring with chance
    ``eps``), 1 ``greedy`` (to learn the value of good play before the network plays well
    enough to finish its own games).

    ``stats`` gets: games finished, games left unfinished (over ``max_steps``, not trained
    on), positions trained on, and wins per absolute side (from index 3)."""
    cdef Net c
    _as_net(net, &c, True)
    _check_games(start, params, hit, greedy_weights, bots, games)
    _check(stats.shape[0] >= 3 + c.sides, "stats has 3 counts and a win count per side")
    _check(c.sides == (4 if params[P_INDIVIDUAL] else 2), "the network rates another number of sides")
    cdef bint done
    with nogil:
        done = c_train_games(
            <i32*>&start[0], <i32*>&params[0], p, <double*>&hit[0], <double*>&greedy_weights[0],
            <i32*>&bots[0], &c, seed, first_game, games, lam, alpha, eps, max_steps, &stats[0],
        )
    if not done:
        raise MemoryError("no memory for the training games")


def match_games(
    const i32[::1] start, const i32[::1] params, double p, const double[::1] hit,
    const double[::1] greedy_weights, const i32[::1] bots, tuple net, i64 seed, i64 first_game,
    i64 games, i64 max_steps, i32[::1] winners,
):
    """Play ``games`` games from ``start`` with ``bots[seat]`` (0 random, 1 greedy, 2 the
    network) and write each game's winner (-1 unfinished, -2 a draw)."""
    cdef Net c
    _as_net(net, &c, False)
    _check_games(start, params, hit, greedy_weights, bots, games)
    _check(winners.shape[0] >= games, "winners has room for every game")
    _check(c.sides == (4 if params[P_INDIVIDUAL] else 2), "the network rates another number of sides")
    cdef bint done
    with nogil:
        done = c_match_games(
            <i32*>&start[0], <i32*>&params[0], p, <double*>&hit[0], <double*>&greedy_weights[0],
            <i32*>&bots[0], &c, seed, first_game, games, max_steps, &winners[0],
        )
    if not done:
        raise MemoryError("no memory for the games")
