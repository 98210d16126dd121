# Expectimax with the learned evaluation, compiled: pachisi.ai.expectimax's search on the
# compiled engine's state rows.
#
# The search is the reference one step for step (the same depth rule for throws, the same
# best-first order, the same Star1 windows, the same count of positions visited), so that
# it reaches the same values and spends the same budget; only its leaves cost microseconds
# instead of the reference search's tens of microseconds. Its leaves are
# pachisi.ai.learned.value.LearnedValue's view, computed by the compiled encoder and
# network (features.pxi, selfplay.pxi).
#
# The search keeps its own stack of frames, one per node on the current path, and runs as a
# loop over three steps: enter a node, start its next child, take a child's value back.

cpdef enum:
    # pachisi.ai.expectimax.MAX_DEPTH: the deepest level the search is asked for.
    MAX_DEPTH = 8
    # How a search ended (count[1]): it finished; it visited as many positions as it was
    # allowed before it finished; a position was past what a state row holds (a series of
    # throws too long), and the caller must search it with the reference engine.
    OK = 0
    OUT_OF_BUDGET = 1
    OVERFLOWED = 2

cdef enum:
    # Nodes on one path at the reference search's deepest level: a decision costs a level
    # of depth, and so does every throw but the first of a series, so a path holds at most
    # two nodes per level, the root's children and the leaf.
    MAX_FRAMES = 2 * MAX_DEPTH + 4
    # The steps of the loop, and the kinds of node.
    STEP_ENTER = 0
    STEP_NEXT = 1
    STEP_RETURN = 2
    NODE_DECIDE = 0
    NODE_CHANCE = 1


cdef double leaf(i32* st, i32* params, double* hit, double* greedy, Net* net, i64 side, i64 actor, Scratch* s) noexcept nogil:
    """The searching side's chance of winning from ``st`` as ``actor`` sees it: the result
    of a finished game, or the network's estimate."""
    if st[STAGE] == OVER_STAGE:
        if st[WINNER] == DRAW:
            return 1.0 / <double>net.sides
        return 1.0 if st[WINNER] == side else 0.0
    c_greedy_scores(st, params, greedy, hit, s.scores)
    cdef i64 blocked = c_blocked_seats(st, params)
    cdef i64 m = c_encode(st, params, hit, actor, blocked, s.scores, s.idx, s.val)
    c_forward(s.idx, s.val, m, net, s.h, s.rel)
    c_to_absolute(params, actor, s.rel, s.chances)
    return s.chances[side]


# The search's frames, one per node on the current path, and its other buffers.
cdef struct Frames:
    i32 rows[MAX_FRAMES][STATE_SIZE]
    i32 acts[MAX_FRAMES][MAX_LIST]
    i32 order[MAX_FRAMES][MAX_LIST]
    double keys[MAX_LIST]
    i32 kind[MAX_FRAMES]
    i32 dep[MAX_FRAMES]
    i32 actor[MAX_FRAMES]
    i32 chained[MAX_FRAMES]
    i32 size[MAX_FRAMES]
    i32 at[MAX_FRAMES]
    i32 ours[MAX_FRAMES]
    double alpha[MAX_FRAMES]
    double beta[MAX_FRAMES]
    double best[MAX_FRAMES]
    double done[MAX_FRAMES]
    double left[MAX_FRAMES]
    double lo[MAX_FRAMES]
    double hi[MAX_FRAMES]
    i32 root_acts[MAX_LIST]
    i32 trial[STATE_SIZE]
    i32 occ_n[OCC_N_SIZE]
    i32 occ[OCC_SQUARES * OCC_DEPTH]
    i32 evn[3]


cdef i64 c_search_root(i32* root, i32* params, double* hit, double* greedy, Net* net, i32* ks, double* ps, i64 n_ks, i64 depth, i64 limit, i64* count, double* values) noexcept nogil:
    """Every legal action's value at ``depth`` for the side to move in ``root``, in the
    engine's order of the legal actions, into ``values``; the number of actions (-1 when
    out of memory).

    ``ks``/``ps`` are the ``n_ks`` throws and their probabilities (the engine's chance
    outcomes). ``count[0]`` is the positions visited so far, and the search stops
    (``count[1] =`` OUT_OF_BUDGET) on entering a position once it has reached ``limit``;
    the values of the actions searched until then stand in ``values``."""
    cdef Frames* fr = <Frames*>calloc(1, sizeof(Frames))
    cdef Scratch* s = new_scratch(net.hidden)
    cdef Pool* pool = new_pool()
    cdef i64 n_root = -1
    if fr != NULL and s != NULL and pool != NULL:
        n_root = _search(root, params, hit, greedy, net, ks, ps, n_ks, depth, limit, count, values, fr, s, pool)
    free(pool)
    free_scratch(s)
    free(fr)
    return n_root


cdef i64 _search(i32* root, i32* params, double* hit, double* greedy, Net* net, i32* ks, double* ps, i64 n_ks, i64 depth, i64 limit, i64* count, double* values, Frames* fr, Scratch* s, Pool* pool) noexcept nogil:
    """:func:`c_search_root` in the buffers it allocated."""
    cdef i32* occ_n = fr.occ_n
    cdef i32* occ = fr.occ
    cdef i32* evn = fr.evn
    cdef i32* trial = fr.trial
    cdef double* keys = fr.keys
    evn[2] = 0  # events off
    cdef i64 n_root = c_legal_actions(root, params, occ_n, occ, fr.root_acts, pool)
    cdef i64 side = side_index(params, root[SEAT])
    cdef i64 r, top, mode, f, g, stage, n, j, o, q, i
    cdef bint mine
    cdef double ret, p, v
    cdef i32* st
    for r in range(n_root):
        memcpy(fr.rows[0], root, STATE_SIZE * sizeof(i32))
        c_apply_action(fr.rows[0], params, fr.root_acts[r], occ_n, occ, NULL, evn)
        if fr.rows[0][OVERFLOW]:
            count[1] = OVERFLOWED
            return n_root
        fr.dep[0] = <i32>(depth - 1)
        fr.alpha[0] = 0.0
        fr.beta[0] = 1.0
        fr.actor[0] = root[SEAT]
        fr.chained[0] = 0
        top = 0
        mode = STEP_ENTER
        ret = 0.0
        while True:
            f = top
            if mode == STEP_ENTER:
                if count[0] >= limit:
                    count[1] = OUT_OF_BUDGET
                    return n_root
                count[0] += 1
                st = fr.rows[f]
                stage = st[STAGE]
                if stage == OVER_STAGE:
                    ret = leaf(st, params, hit, greedy, net, side, fr.actor[f], s)
                    mode = STEP_RETURN
                elif st[STAGE] == THROW_STAGE or st[STAGE] == THROW_OFF_STAGE:
                    if fr.chained[f]:
                        fr.dep[f] -= 1
                    if fr.dep[f] <= 0:
                        ret = leaf(st, params, hit, greedy, net, side, fr.actor[f], s)
                        mode = STEP_RETURN
                    else:
                        fr.kind[f] = NODE_CHANCE
                        fr.at[f] = 0
                        fr.done[f] = 0.0
                        fr.left[f] = 1.0
                        mode = STEP_NEXT
                elif fr.dep[f] <= 0:
                    ret = leaf(st, params, hit, greedy, net, side, fr.actor[f], s)
                    mode = STEP_RETURN
                else:
                    fr.kind[f] = NODE_DECIDE
                    mine = side_index(params, st[SEAT]) == side
                    fr.ours[f] = 1 if mine else 0
                    fr.best[f] = -1.0 if mine else 2.0
                    n = c_legal_actions(st, params, occ_n, occ, fr.acts[f], pool)
                    fr.size[f] = <i32>n
                    fr.at[f] = 0
                    for j in range(n):
                        fr.order[f][j] = <i32>j
                    if fr.dep[f] >= 2 and n > 1:
                        # Best-first by the static value, ties in the engine's order.
                        for j in range(n):
                            memcpy(trial, st, STATE_SIZE * sizeof(i32))
                            c_apply_action(trial, params, fr.acts[f][j], occ_n, occ, NULL, evn)
                            if trial[OVERFLOW]:
                                count[1] = OVERFLOWED
                                return n_root
                            keys[j] = leaf(trial, params, hit, greedy, net, side, st[SEAT], s)
                        for j in range(1, n):
                            o = fr.order[f][j]
                            q = j
                            while q > 0 and (
                                keys[fr.order[f][q - 1]] < keys[o]
                                if mine
                                else keys[fr.order[f][q - 1]] > keys[o]
                            ):
                                fr.order[f][q] = fr.order[f][q - 1]
                                q -= 1
                            fr.order[f][q] = <i32>o
                    mode = STEP_NEXT
            elif mode == STEP_NEXT:
                g = f + 1
                if fr.kind[f] == NODE_CHANCE:
                    i = fr.at[f]
                    if i == n_ks:
                        ret = fr.done[f]
                        mode = STEP_RETURN
                        continue
                    p = ps[i]
                    fr.left[f] -= p
                    fr.lo[f] = (fr.alpha[f] - fr.done[f] - fr.left[f]) / p
                    fr.hi[f] = (fr.beta[f] - fr.done[f]) / p
                    memcpy(fr.rows[g], fr.rows[f], STATE_SIZE * sizeof(i32))
                    c_apply_chance(fr.rows[g], params, ks[i], NULL, evn)
                    fr.dep[g] = fr.dep[f]
                    fr.alpha[g] = max(fr.lo[f], 0.0)
                    fr.beta[g] = min(fr.hi[f], 1.0)
                    fr.actor[g] = fr.actor[f]
                    fr.chained[g] = 1
                else:
                    if fr.at[f] == fr.size[f]:
                        ret = fr.best[f]
                        mode = STEP_RETURN
                        continue
                    memcpy(fr.rows[g], fr.rows[f], STATE_SIZE * sizeof(i32))
                    c_apply_action(fr.rows[g], params, fr.acts[f][fr.order[f][fr.at[f]]], occ_n, occ, NULL, evn)
                    fr.dep[g] = fr.dep[f] - 1
                    fr.alpha[g] = fr.alpha[f]
                    fr.beta[g] = fr.beta[f]
                    fr.actor[g] = fr.rows[f][SEAT]
                    fr.chained[g] = 0
                if fr.rows[g][OVERFLOW]:
                    count[1] = OVERFLOWED
                    return n_root
                top = g
                mode = STEP_ENTER
            else:
                if top == 0:
                    break
                top -= 1
                f = top
                v = ret
                if fr.kind[f] == NODE_CHANCE:
                    fr.done[f] += ps[fr.at[f]] * v
                    if v >= fr.hi[f]:
                        ret = fr.done[f]  # a lower bound, at least beta
                        continue
                    if v <= fr.lo[f]:
                        ret = fr.done[f] + fr.left[f]  # an upper bound, at most alpha
                        continue
                    fr.at[f] += 1
                    mode = STEP_NEXT
                else:
                    if fr.ours[f]:
                        if v > fr.best[f]:
                            fr.best[f] = v
                        fr.alpha[f] = max(fr.alpha[f], v)
                    else:
                        if v < fr.best[f]:
                            fr.best[f] = v
                        fr.beta[f] = min(fr.beta[f], v)
                    if fr.alpha[f] >= fr.beta[f]:
                        ret = fr.best[f]
                        continue
                    fr.at[f] += 1
                    mode = STEP_NEXT
        values[r] = ret
    return n_root
