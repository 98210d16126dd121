# Python's own random generator, compiled: the same Mersenne Twister, the same draws.
#
# The reference engine throws with ``random.Random`` (pachisi.rules.cowries.throw) and its
# players choose with ``Random.choice``/``randrange``. To play the very same games the
# compiled engine steps the same MT19937 state (taken from ``Random.getstate()``,
# pachisi.rules.cowries.mt_state) with the same algorithms: ``getrandbits(k)`` for k <= 32
# is the top k bits of one tempered word, ``_randbelow(n)`` draws ``n.bit_length()`` bits
# until the number is below ``n``, and ``random()`` builds a double from two words. A state
# is 625 ``uint32``: the 624 words and the position.

cdef enum:
    MT_N = 624
    MT_M = 397
    MT_SIZE = MT_N + 1  # the words and the position

cdef inline u32 _mix(u32 upper, u32 lower, u32 far) noexcept nogil:
    cdef u32 y = (upper & 0x80000000U) | (lower & 0x7FFFFFFFU)
    return far ^ (y >> 1) ^ (0x9908B0DFU if y & 1 else 0U)


cdef void _twist(u32* mt) noexcept nogil:
    # CPython's three loops: no modulo in the inner loops.
    cdef int kk
    for kk in range(MT_N - MT_M):
        mt[kk] = _mix(mt[kk], mt[kk + 1], mt[kk + MT_M])
    for kk in range(MT_N - MT_M, MT_N - 1):
        mt[kk] = _mix(mt[kk], mt[kk + 1], mt[kk + MT_M - MT_N])
    mt[MT_N - 1] = _mix(mt[MT_N - 1], mt[0], mt[MT_M - 1])
    mt[MT_N] = 0


cdef inline i64 genrand(u32* mt) noexcept nogil:
    """The next tempered 32-bit word (CPython's ``genrand_uint32``)."""
    if mt[MT_N] >= MT_N:
        _twist(mt)
    cdef u32 i = mt[MT_N]
    cdef u32 y = mt[i]
    mt[MT_N] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680U
    y ^= (y << 15) & 0xEFC60000U
    y ^= y >> 18
    return y


cdef inline i64 getrandbits(u32* mt, i64 k) noexcept nogil:
    """``Random.getrandbits(k)`` for 0 <= k <= 32."""
    if k == 0:
        return 0
    return genrand(mt) >> (32 - k)


cdef inline i64 randbelow(u32* mt, i64 n) noexcept nogil:
    """``Random._randbelow(n)``, which ``randrange(n)`` and ``choice`` use; n >= 1."""
    # n.bit_length(), in one instruction.
    cdef i64 k = 64 - leading_zeros(<u64>n)
    cdef i64 r = getrandbits(mt, k)
    while r >= n:
        r = getrandbits(mt, k)
    return r


cdef double random_double(u32* mt) noexcept nogil:
    """``Random.random()``: a double in [0, 1) from two words."""
    cdef i64 a = genrand(mt) >> 5
    cdef i64 b = genrand(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


cdef inline i64 throw_cowries(u32* mt, i64 cowries, bint half, double p) noexcept nogil:
    """pachisi.rules.cowries.throw: the number of cowries mouth up."""
    if half:
        return popcount(getrandbits(mt, cowries))
    cdef i64 count = 0
    for _ in range(cowries):
        if random_double(mt) < p:
            count += 1
    return count


cdef i64 splitmix64(i64 x) noexcept nogil:
    """A well-mixed 64-bit value from ``x`` (SplitMix64), for deriving one seed per game.

    The arithmetic is that of the numba kernel it replaces, so that every seed gives the
    games it gave before: signed 64-bit words that wrap around, with arithmetic (sign-
    extending) right shifts. The products wrap as unsigned words, which C defines.
    """
    cdef i64 z = <i64>(<u64>x + 0x9E3779B97F4A7C15ULL)
    z = <i64>(<u64>(z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL)
    z = <i64>(<u64>(z ^ (z >> 27)) * 0x94D049BB133111EBULL)
    return z ^ (z >> 31)


cdef void seed_mt(u32* mt, i64 seed) noexcept nogil:
    """Seed a state with MT19937's own ``init_genrand`` from the low 32 bits of ``seed``."""
    mt[0] = <u32>(seed & 0xFFFFFFFFLL)
    cdef u32 prev
    for i in range(1, MT_N):
        prev = mt[i - 1]
        mt[i] = <u32>(1812433253U * (prev ^ (prev >> 30)) + <u32>i)
    mt[MT_N] = MT_N




cdef void seed_mt_pair(u32* a, i64 seed_a, u32* b, i64 seed_b) noexcept nogil:
    """:func:`seed_mt` of two states at once (a game's two generators). Each word of the
    seeding waits on the one before it (a multiply and a few shifts), so one state at a
    time leaves the processor idle most of the time; the two chains are independent and
    run side by side."""
    cdef u32 x = <u32>(seed_a & 0xFFFFFFFFLL)
    cdef u32 y = <u32>(seed_b & 0xFFFFFFFFLL)
    a[0] = x
    b[0] = y
    for i in range(1, MT_N):
        x = <u32>(1812433253U * (x ^ (x >> 30)) + <u32>i)
        y = <u32>(1812433253U * (y ^ (y >> 30)) + <u32>i)
        a[i] = x
        b[i] = y
    a[MT_N] = MT_N
    b[MT_N] = MT_N


cdef void seed_mt_by_key(u32* mt, u32* key, i64 n, u32* base) noexcept nogil:
    """Seed a state with MT19937's ``init_by_array`` from the ``n`` 32-bit words of
    ``key`` (n >= 1), as CPython's ``random.seed`` does with a number's words (least
    significant first): a string seed is a number there (pachisi.fast.generators).
    ``base`` is ``seed_mt(base, 19650218)``, where ``init_by_array`` starts from: the
    same for every key, so a caller seeding many works it out once."""
    memcpy(mt, base, MT_N * sizeof(u32))
    cdef i64 i = 1
    cdef i64 j = 0
    cdef i64 k = MT_N if MT_N > n else n
    while k > 0:
        mt[i] = <u32>((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + <u32>j)
        i += 1
        j += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
        if j >= n:
            j = 0
        k -= 1
    k = MT_N - 1
    while k > 0:
        mt[i] = <u32>((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - <u32>i)
        i += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
        k -= 1
    mt[0] = 0x80000000U
    mt[MT_N] = MT_N


cdef enum:
    SEED_LANES = 4


cdef void seed_mt_by_keys(u32** mts, u32** keys, i64* ns, u32* base) noexcept nogil:
    """:func:`seed_mt_by_key` for SEED_LANES states at once, every key at most MT_N
    words long. Each word of the seeding waits on the one before it (a multiply and a
    few shifts), so one state at a time leaves the processor idle most of the time; the
    lanes' chains are independent and run side by side. With keys this short every lane
    takes the same MT_N steps, only its key's index differs."""
    # The lanes' pointers and counters are copied to arrays of this function's own, which
    # nothing else can point into: the states' words are written through pointers, and
    # the build lets any such write alias anything reachable (-fno-strict-aliasing), so
    # the caller's arrays would be read again after every word.
    cdef u32* mt[SEED_LANES]
    cdef u32* key[SEED_LANES]
    cdef i64 n[SEED_LANES]
    cdef u32 prev[SEED_LANES]
    cdef i64 j[SEED_LANES]
    cdef i64 i = 1
    cdef int lane
    for lane in range(SEED_LANES):
        mt[lane] = mts[lane]
        key[lane] = keys[lane]
        n[lane] = ns[lane]
        memcpy(mt[lane], base, MT_N * sizeof(u32))
        prev[lane] = base[0]
        j[lane] = 0
    for _ in range(MT_N):
        for lane in range(SEED_LANES):
            prev[lane] = <u32>(
                (mt[lane][i] ^ ((prev[lane] ^ (prev[lane] >> 30)) * 1664525U))
                + key[lane][j[lane]] + <u32>j[lane]
            )
            mt[lane][i] = prev[lane]
            j[lane] += 1
            if j[lane] >= n[lane]:
                j[lane] = 0
        i += 1
        if i >= MT_N:
            for lane in range(SEED_LANES):
                mt[lane][0] = prev[lane]
            i = 1
    for _ in range(MT_N - 1):
        for lane in range(SEED_LANES):
            prev[lane] = <u32>(
                (mt[lane][i] ^ ((prev[lane] ^ (prev[lane] >> 30)) * 1566083941U)) - <u32>i
            )
            mt[lane][i] = prev[lane]
        i += 1
        if i >= MT_N:
            for lane in range(SEED_LANES):
                mt[lane][0] = prev[lane]
            i = 1
    for lane in range(SEED_LANES):
        mt[lane][0] = 0x80000000U
        mt[lane][MT_N] = MT_N
