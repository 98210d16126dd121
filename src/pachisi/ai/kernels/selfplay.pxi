# Compiled self-play: TD(lambda) training games and evaluation matches of the learned player.
#
# The games run on the compiled engine's kernels (pachisi/fast/kernels/), so they follow the
# rules exactly as the reference engine does; only the choice of action is new here. The
# learned player looks one action ahead: it applies each legal action to a copy of the
# state, encodes the result from its own seat (c_encode, features.pxi: the plain Python
# encoder of pachisi.ai.learned.features, compiled) and takes the action whose result the
# network rates best for its side.
#
# Training (c_train_games) is TD(lambda) in its forward view, game by game as in
# TD-Gammon's self-play: every seat is played by the network being trained; after a game,
# each position the network chose gets as its target the lambda-return, a mix of the
# network's own values of the positions that followed and the game's result; one stochastic
# gradient step per position moves the softmax output towards it (cross-entropy).

from libc.math cimport exp, tanh

cpdef enum:
    # The code of the learned player in a bots vector (RANDOM_BOT 0 and GREEDY_BOT 1 are
    # the engine's, playout.pxi).
    LEARNED_BOT = 2

cdef enum:
    # Positions of one training game kept to learn from (the rest of a longer game is not).
    RECORD_CAP = 8192


# The network as the kernels take it (pachisi.ai.learned.net.Net): row-major float64
# arrays w1 (FEATURES, hidden), b1 (hidden), w2 (hidden, sides), b2 (sides) and
# w3 (FEATURES, sides).
cdef struct Net:
    double* w1
    double* b1
    double* w2
    double* b2
    double* w3
    i64 hidden
    i64 sides


# The buffers the learned player's choice and a leaf's evaluation work in: a trial row,
# occupancy, events off, the encoded features, the hidden units, the chances by relative
# and by absolute side, greedy's scores and the best actions so far.
cdef struct Scratch:
    i32 trial[STATE_SIZE]
    i32 occ_n[OCC_N_SIZE]
    i32 occ[OCC_SQUARES * OCC_DEPTH]
    i32 evn[3]
    i32 idx[MAX_ACTIVE]
    double val[MAX_ACTIVE]
    double* h
    double rel[4]
    double chances[4]
    double scores[4]
    i64 best[MAX_LIST]


cdef Scratch* new_scratch(i64 hidden) noexcept nogil:
    """Scratch for a network of ``hidden`` units (zeroed; NULL when out of memory)."""
    cdef Scratch* s = <Scratch*>calloc(1, sizeof(Scratch))
    if s == NULL:
        return NULL
    s.h = <double*>calloc(hidden if hidden > 0 else 1, sizeof(double))
    if s.h == NULL:
        free(s)
        return NULL
    return s


cdef void free_scratch(Scratch* s) noexcept nogil:
    if s != NULL:
        free(s.h)
        free(s)


cdef void c_forward(i32* idx, double* val, i64 n, Net* net, double* h, double* out) noexcept nogil:
    """The network's hidden units (into ``h``) and the sides' chances (into ``out``)."""
    cdef i64 hidden = net.hidden
    cdef i64 sides = net.sides
    cdef double* w1 = net.w1
    cdef double* w2 = net.w2
    cdef double* w3 = net.w3
    cdef i64 u, a, k, row
    cdef double v, z
    for u in range(hidden):
        h[u] = net.b1[u]
    for a in range(n):
        row = idx[a]
        v = val[a]
        for u in range(hidden):
            h[u] += w1[row * hidden + u] * v
    for u in range(hidden):
        h[u] = tanh(h[u])
    cdef double top = -INFINITY
    for k in range(sides):
        z = net.b2[k]
        for u in range(hidden):
            z += h[u] * w2[u * sides + k]
        for a in range(n):
            z += w3[idx[a] * sides + k] * val[a]
        out[k] = z
        top = max(top, z)
    cdef double total = 0.0
    for k in range(sides):
        out[k] = exp(out[k] - top)
        total += out[k]
    for k in range(sides):
        out[k] /= total


cdef i64 c_blocked_seats(i32* st, i32* params) noexcept nogil:
    """Bit ``seat`` set for every seat R-DEADLOCK calls blocked (0 without kill-before-home)."""
    if params[P_KBH] == 0:
        return 0
    cdef i64 mask = 0
    cdef i64 seat
    for seat in range(4):
        if seat_blocked(st, params, seat):
            mask |= (<i64>1) << seat
    return mask


cdef void c_greedy_scores(i32* st, i32* params, double* weights, double* hit, double* out) noexcept nogil:
    """``greedy``'s score of ``st`` for every seat's side (partners share theirs)."""
    cdef i64 seat
    if params[P_INDIVIDUAL]:
        for seat in range(4):
            out[seat] = evaluate(st, params, weights, hit, seat)
    else:
        for seat in range(2):
            out[seat] = evaluate(st, params, weights, hit, seat)
            out[seat + 2] = out[seat]


cdef inline i64 side_index(i32* params, i64 seat) noexcept nogil:
    """The absolute side of ``seat``: its team, or itself under teams=individual."""
    return seat if params[P_INDIVIDUAL] else seat & 1


cdef void c_to_absolute(i32* params, i64 o, double* rel, double* out) noexcept nogil:
    """Turn chances by side relative to observer ``o`` into chances by absolute side."""
    cdef i64 r
    if params[P_INDIVIDUAL]:
        for r in range(4):
            out[(o + r) % 4] = rel[r]
    else:
        out[o & 1] = rel[0]
        out[1 - (o & 1)] = rel[1]


cdef void outcome(i32* st, i32* params, double* out, i64 sides) noexcept nogil:
    """The result of a finished game as chances by absolute side (a draw shares them)."""
    cdef i64 k
    for k in range(sides):
        out[k] = 1.0 / sides if st[WINNER] == DRAW else 0.0
    if st[WINNER] >= 0:
        out[st[WINNER]] = 1.0


cdef i64 learned_choice(i32* st, i32* params, double* hit, double* weights, i32* acts, i64 n, Net* net, u32* mt, double eps, Scratch* s) noexcept nogil:
    """The index of the action the network rates best for the mover's side (uniformly
    among ties); with chance ``eps`` a uniformly random one instead (exploration)."""
    if n == 1:
        return 0
    if eps > 0.0 and random_double(mt) < eps:
        return randbelow(mt, n)
    cdef i64 sides = net.sides
    cdef i64 o = st[SEAT]
    cdef i64 mine = side_index(params, o)
    cdef i64 count = 0
    cdef double best_value = -INFINITY
    cdef double value, won
    cdef i64 j, m
    s.evn[0] = 0
    s.evn[1] = 0
    s.evn[2] = 0  # events off
    for j in range(n):
        memcpy(s.trial, st, STATE_SIZE * sizeof(i32))
        c_apply_action(s.trial, params, acts[j], s.occ_n, s.occ, NULL, s.evn)
        if s.trial[STAGE] == OVER_STAGE:
            won = 1.0 if s.trial[WINNER] == mine else 0.0
            value = 1.0 / sides if s.trial[WINNER] == DRAW else won
        else:
            c_greedy_scores(s.trial, params, weights, hit, s.scores)
            m = c_encode(s.trial, params, hit, o, c_blocked_seats(s.trial, params), s.scores, s.idx, s.val)
            c_forward(s.idx, s.val, m, net, s.h, s.rel)
            value = s.rel[0]
        if value > best_value + 1e-12:
            best_value = value
            s.best[0] = j
            count = 1
        elif value >= best_value - 1e-12:
            s.best[count] = j
            count += 1
    if count == 1:
        return s.best[0]
    return s.best[randbelow(mt, count)]


cdef void _seed_game(u32* mt_throws, u32* mt_choices, i64 seed, i64 game) noexcept nogil:
    """Seed the game's two generators from ``(seed, game)``; the arithmetic wraps around as
    numba's 64-bit integers did (in unsigned words, where C defines it)."""
    cdef i64 base = <i64>((<u64>seed << 24) + <u64>2 * <u64>game)
    seed_mt_pair(mt_throws, splitmix64(base), mt_choices, splitmix64(<i64>(<u64>base + 1)))


# The buffers of a run of games: the engine's (Work), the learned player's (Scratch), the
# generators, and for training the record of one game's positions.
cdef struct Games:
    Work* work
    Scratch* scratch
    i32 st[STATE_SIZE]
    u32 mt_throws[625]
    u32 mt_choices[625]
    i32 evn[3]
    i32* rec_idx  # (RECORD_CAP, MAX_ACTIVE)
    double* rec_val  # (RECORD_CAP, MAX_ACTIVE)
    i32* rec_n  # (RECORD_CAP)
    i32* rec_o  # (RECORD_CAP)
    double* rec_v  # (RECORD_CAP, sides)
    double* targets  # (RECORD_CAP, sides)
    double* dh  # (hidden)


cdef void free_games(Games* g) noexcept nogil:
    if g == NULL:
        return
    if g.work != NULL:
        free_work(g.work)
    free_scratch(g.scratch)
    free(g.rec_idx)
    free(g.rec_val)
    free(g.rec_n)
    free(g.rec_o)
    free(g.rec_v)
    free(g.targets)
    free(g.dh)
    free(g)


cdef Games* new_games(Net* net, bint training) noexcept nogil:
    """The buffers of a run of games (with the records when ``training``); NULL when out
    of memory."""
    cdef Games* g = <Games*>calloc(1, sizeof(Games))
    if g == NULL:
        return NULL
    g.work = new_work()
    g.scratch = new_scratch(net.hidden)
    if g.work == NULL or g.scratch == NULL:
        free_games(g)
        return NULL
    if training:
        g.rec_idx = <i32*>calloc(RECORD_CAP * MAX_ACTIVE, sizeof(i32))
        g.rec_val = <double*>calloc(RECORD_CAP * MAX_ACTIVE, sizeof(double))
        g.rec_n = <i32*>calloc(RECORD_CAP, sizeof(i32))
        g.rec_o = <i32*>calloc(RECORD_CAP, sizeof(i32))
        g.rec_v = <double*>calloc(RECORD_CAP * net.sides, sizeof(double))
        g.targets = <double*>calloc(RECORD_CAP * net.sides, sizeof(double))
        g.dh = <double*>calloc(net.hidden if net.hidden > 0 else 1, sizeof(double))
        if (g.rec_idx == NULL or g.rec_val == NULL or g.rec_n == NULL or g.rec_o == NULL
                or g.rec_v == NULL or g.targets == NULL or g.dh == NULL):
            free_games(g)
            return NULL
    return g


cdef bint c_train_games(i32* start, i32* params, double p, double* hit, double* greedy_weights, i32* bots, Net* net, i64 seed, i64 first_game, i64 games, double lam, double alpha, double eps, i64 max_steps, i64* stats) noexcept nogil:
    """Play ``games`` games from ``start`` (game numbers ``first_game`` on, each seeded from
    ``(seed, number)``) and train the network in place after each; False when out of memory
    (nothing played).

    ``bots[seat]`` plays each seat: 2 the network itself (self-play, exploring with chance
    ``eps``), 1 ``greedy`` (to learn the value of good play before the network plays well
    enough to finish its own games).

    ``stats`` gets: games finished, games left unfinished (over ``max_steps``, not trained
    on), positions trained on, and wins per absolute side (from index 3).
    """
    cdef Games* g = new_games(net, True)
    if g == NULL:
        return False
    cdef i64 sides = net.sides
    cdef i64 hidden = net.hidden
    cdef double* w1 = net.w1
    cdef double* b1 = net.b1
    cdef double* w2 = net.w2
    cdef double* b2 = net.b2
    cdef double* w3 = net.w3
    cdef Work* work = g.work
    cdef Scratch* s = g.scratch
    cdef i32* st = g.st
    cdef double* h = s.h
    cdef double* rel = s.rel
    cdef double* dh = g.dh
    cdef double target[4]
    cdef double g_ret[4]
    cdef double dz[4]
    cdef i64 cowries = params[P_COWRIES]
    cdef bint half = params[P_HALF] == 1
    cdef i64 game, q, steps, t, n, o, j, m, i, k, r, u, a, row
    cdef double back, v
    g.evn[2] = 0  # events off
    for game in range(first_game, first_game + games):
        _seed_game(g.mt_throws, g.mt_choices, seed, game)
        for q in range(STATE_SIZE):
            st[q] = start[q]
        steps = 0
        t = 0
        while st[STAGE] != OVER_STAGE and steps < max_steps and not st[OVERFLOW]:
            steps += 1
            if st[STAGE] == THROW_STAGE or st[STAGE] == THROW_OFF_STAGE:
                c_apply_chance(st, params, throw_cowries(g.mt_throws, cowries, half, p), NULL, g.evn)
                continue
            n = c_legal_actions(st, params, work.occ_n, work.occ, work.acts, work.pool)
            o = st[SEAT]
            if bots[o] == GREEDY_BOT:
                j = greedy_choice(st, params, greedy_weights, hit, work.acts, n, g.mt_choices, work)
            else:
                j = learned_choice(st, params, hit, greedy_weights, work.acts, n, net, g.mt_choices, eps, s)
            c_apply_action(st, params, work.acts[j], work.occ_n, work.occ, NULL, g.evn)
            if n == 1 or st[STAGE] == OVER_STAGE or t == RECORD_CAP:
                continue
            c_greedy_scores(st, params, greedy_weights, hit, s.scores)
            m = c_encode(st, params, hit, o, c_blocked_seats(st, params), s.scores, g.rec_idx + t * MAX_ACTIVE, g.rec_val + t * MAX_ACTIVE)
            g.rec_n[t] = <i32>m
            g.rec_o[t] = <i32>o
            c_forward(g.rec_idx + t * MAX_ACTIVE, g.rec_val + t * MAX_ACTIVE, m, net, h, rel)
            c_to_absolute(params, o, rel, g.rec_v + t * sides)
            t += 1
        if st[STAGE] != OVER_STAGE:
            stats[1] += 1
            continue
        stats[0] += 1
        outcome(st, params, g_ret, sides)
        for k in range(sides):
            if g_ret[k] == 1.0:
                stats[3 + k] += 1
        # Targets, last position first: the lambda-return G_t = (1 - lam) V_{t+1} + lam G_{t+1}.
        for i in range(t - 1, -1, -1):
            for k in range(sides):
                g.targets[i * sides + k] = g_ret[k]
                g_ret[k] = (1.0 - lam) * g.rec_v[i * sides + k] + lam * g_ret[k]
        for i in range(t):
            o = g.rec_o[i]
            m = g.rec_n[i]
            c_forward(g.rec_idx + i * MAX_ACTIVE, g.rec_val + i * MAX_ACTIVE, m, net, h, rel)
            # the target, turned to the observer's frame
            if params[P_INDIVIDUAL]:
                for r in range(4):
                    target[r] = g.targets[i * sides + (o + r) % 4]
            else:
                target[0] = g.targets[i * sides + (o & 1)]
                target[1] = g.targets[i * sides + 1 - (o & 1)]
            for k in range(sides):
                dz[k] = rel[k] - target[k]
            for u in range(hidden):
                back = 0.0
                for k in range(sides):
                    back += w2[u * sides + k] * dz[k]
                dh[u] = back * (1.0 - h[u] * h[u])
            for u in range(hidden):
                for k in range(sides):
                    w2[u * sides + k] -= alpha * h[u] * dz[k]
            for k in range(sides):
                b2[k] -= alpha * dz[k]
            for a in range(m):
                row = g.rec_idx[i * MAX_ACTIVE + a]
                v = alpha * g.rec_val[i * MAX_ACTIVE + a]
                for u in range(hidden):
                    w1[row * hidden + u] -= v * dh[u]
                for k in range(sides):
                    w3[row * sides + k] -= v * dz[k]
            for u in range(hidden):
                b1[u] -= alpha * dh[u]
        stats[2] += t
    free_games(g)
    return True


cdef bint c_match_games(i32* start, i32* params, double p, double* hit, double* greedy_weights, i32* bots, Net* net, i64 seed, i64 first_game, i64 games, i64 max_steps, i32* winners) noexcept nogil:
    """Play ``games`` games from ``start`` with ``bots[seat]`` (0 random, 1 greedy, 2 the
    network) and write each game's winner (-1 unfinished, -2 a draw); False when out of
    memory (nothing played)."""
    cdef Games* g = new_games(net, False)
    if g == NULL:
        return False
    cdef Work* work = g.work
    cdef i32* st = g.st
    cdef i64 cowries = params[P_COWRIES]
    cdef bint half = params[P_HALF] == 1
    cdef i64 i, q, steps, n, bot, j
    g.evn[2] = 0  # events off
    for i in range(games):
        _seed_game(g.mt_throws, g.mt_choices, seed, first_game + i)
        for q in range(STATE_SIZE):
            st[q] = start[q]
        steps = 0
        while st[STAGE] != OVER_STAGE and steps < max_steps and not st[OVERFLOW]:
            steps += 1
            if st[STAGE] == THROW_STAGE or st[STAGE] == THROW_OFF_STAGE:
                c_apply_chance(st, params, throw_cowries(g.mt_throws, cowries, half, p), NULL, g.evn)
                continue
            n = c_legal_actions(st, params, work.occ_n, work.occ, work.acts, work.pool)
            bot = bots[st[SEAT]]
            if bot == LEARNED_BOT:
                j = learned_choice(st, params, hit, greedy_weights, work.acts, n, net, g.mt_choices, 0.0, g.scratch)
            elif bot == GREEDY_BOT:
                j = greedy_choice(st, params, greedy_weights, hit, work.acts, n, g.mt_choices, work)
            else:
                j = randbelow(g.mt_choices, n)
            c_apply_action(st, params, work.acts[j], work.occ_n, work.occ, NULL, g.evn)
        winners[i] = st[WINNER] if st[STAGE] == OVER_STAGE else -1
    free_games(g)
    return True
