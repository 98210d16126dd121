"""The pure transition function: legal actions, chance outcomes and their effects (C.10).

Everything here is a function of a :class:`~pachisi.rules.state.State` and an action or a
chance outcome. Nothing is random and nothing is stored: throws come in as ``k``, the number
of cowries that landed mouth up, and transitions return the new state with its events.

>>> from pachisi.rules.ruleset import get_ruleset
>>> s = new_game(get_ruleset("ludii"))
>>> s, events = apply_chance(s, 3)
>>> [str(a) for a in legal_actions(s)]
['0a*3']
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from pachisi.rules import cowries
from pachisi.rules.actions import DECLINE, Action, ActionKind, IllegalActionError
from pachisi.rules.board import (
    HOME,
    IS_CASTLE,
    LAST_SQUARE,
    LUDII_ENTRY_PROGRESS,
    PRIVATE_SQUARES,
    SQUARE_OF,
)
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import (
    CHANCE,
    TERMINAL,
    CaptureRecord,
    Event,
    Memo,
    Outcome,
    Stage,
    State,
    initial_pos,
)

_SEVEN_FOURTEEN = (7, 14)
_CLASS_H, _CLASS_7, _CLASS_14 = 1, 2, 3
_HAS_PIECE, _NONE_WAITING = 1, 2
_PRIVATE = frozenset().union(*PRIVATE_SQUARES)


# --------------------------------------------------------------------------- set-up


def new_game(ruleset: Ruleset) -> State:
    """The start position (R-START-CHARKONI): all pieces waiting, a throw due.

    With ``first_player = throw_off`` the game opens with the throw-off (R-ORDER);
    with ``seat0`` (V-FIRST-PLAYER-FIXED) seat 0 throws first.
    """
    pos = initial_pos()
    if ruleset.first_player == "seat0":
        b = _Builder(State(ruleset, pos, Stage.THROW, 0))
        b.begin_phase()
        return b.freeze()
    return State(ruleset, pos, Stage.THROW_OFF, 0, throwoff=(-1, -1, -1, -1), memo=Memo())


# --------------------------------------------------------------------------- queries


def current_player(state: State) -> int:
    """The seat to act, :data:`CHANCE` when a throw is due, :data:`TERMINAL` when over."""
    if state.stage in (Stage.THROW, Stage.THROW_OFF):
        return CHANCE
    if state.stage is Stage.OVER:
        return TERMINAL
    return state.seat


def mover(state: State) -> int:
    """The seat whose pieces the current turn moves.

    That is the seat itself, or its partner when the seat has finished and
    ``finished_seat = throw_for_partner`` (V-PARTNER-THROWS).
    """
    r = state.ruleset
    s = state.seat
    if (
        r.finished_seat == "throw_for_partner"
        and r.teams == "pairs"
        and state.stage is not Stage.THROW_OFF
        and state.seat_finished(s)
    ):
        return (s + 2) % 4
    return s


def value_of(ruleset: Ruleset, k: int) -> int:
    """The value of a throw with ``k`` mouths up (R-THROW-TABLE)."""
    return ruleset.score_table[k]


def chance_outcomes(state: State) -> list[tuple[int, Fraction]]:
    """The possible throws ``k`` with their exact probabilities (empty if no throw is due)."""
    if current_player(state) != CHANCE:
        return []
    r = state.ruleset
    return cowries.chance_outcomes(r.cowries, r.p_mouth_up)


def outcome(state: State) -> Outcome | None:
    """The result, once the game is over (R-TEAM-WIN, V-INDIVIDUAL-WIN)."""
    if state.stage is not Stage.OVER:
        return None
    if state.ruleset.teams == "individual":
        return Outcome(state.winner, (state.winner,), True)
    return Outcome(state.winner, (state.winner, state.winner + 2), False)


def is_deadlocked(state: State) -> bool:
    """Whether no side can ever win from here, whatever is thrown and played.

    This is analysis, not a rule: R-NO-LIMIT has no draw, so such a game simply never
    ends. It happens under V-KILL-BEFORE-HOME when every side has a seat whose pieces are
    all in its private home column (or home) with no kill credit and no way left to
    capture: those pieces can never make the final step. Simulations stop here.
    """
    r = state.ruleset
    if state.stage is Stage.OVER or r.kill_before_home == "false":
        return False

    def can_capture(seat: int) -> bool:
        # A waiting piece can still enter, and a piece before p = 76 can still land on an
        # enemy; from 76 on, every move stays in the seat's private column.
        return any(p < 76 for p in state.seat_pieces(seat))

    def stuck(seat: int) -> bool:
        if state.seat_finished(seat) or _credits(state, seat) > 0 or can_capture(seat):
            return False
        team_credit = r.kill_before_home == "team" and r.teams == "pairs"
        return not (team_credit and can_capture((seat + 2) % 4))

    if r.teams == "individual":
        return all(stuck(s) for s in range(4))
    return all(stuck(team) or stuck(team + 2) for team in (0, 1))


def pending_value(state: State) -> int:
    """The value of the throw being used (stage ACT), else 0."""
    if state.throw_k < 0:
        return 0
    return state.ruleset.score_table[state.throw_k]


# --------------------------------------------------------------------------- board helpers


def _team(r: Ruleset, seat: int) -> int:
    return seat if r.teams == "individual" else seat & 1


def _occupancy(state: State) -> dict[int, list[int]]:
    """Square -> pieces on it, bottom to top when the ruleset keeps the order."""
    occ: dict[int, list[int]] = {}
    pos = state.pos
    pieces: Iterable[int] = state.order if state.ruleset.tracks_stack_order else range(16)
    for g in pieces:
        p = pos[g]
        if 0 < p < HOME:
            sq = SQUARE_OF[g >> 2][p]
            lst = occ.get(sq)
            if lst is None:
                occ[sq] = [g]
            else:
                lst.append(g)
    return occ


def _blockade_at(r: Ruleset, occ: dict[int, list[int]], sq: int) -> bool:
    """Two or more friendly pieces on a loop square form a blockade (V-BLOCKADE)."""
    here = occ.get(sq)
    if not here or len(here) < 2 or sq in _PRIVATE:
        return False
    teams: dict[int, int] = {}
    for g in here:
        t = _team(r, g >> 2)
        teams[t] = teams.get(t, 0) + 1
    return max(teams.values()) >= 2


def _passes_blockade(
    r: Ruleset, occ: dict[int, list[int]], seat: int, p: int, t: int, lap: bool
) -> bool:
    """Whether a single piece moving from ``p`` to ``t`` passes over a blockade."""
    row = SQUARE_OF[seat]
    path = [*range(p + 1, 76), *range(8, t - 68)] if lap else list(range(p + 1, min(t, HOME)))
    return any(_blockade_at(r, occ, row[q]) for q in path)


def _landing(
    r: Ruleset,
    occ: dict[int, list[int]],
    seat: int,
    n_moving: int,
    sq: int,
) -> tuple[int, ...] | None:
    """Resolve a landing on ``sq``: the pieces it captures, or ``None`` if it is illegal.

    R-MOVE item 4, R-CASTLE-BLOCK, R-CASTLE-SAFE, R-CAPTURE, V-STACK-RESTRICTED,
    V-STACK-IMMUNE and V-BLOCKADE.
    """
    here: list[int] = occ.get(sq) or []
    my_team = _team(r, seat)
    enemies = [g for g in here if _team(r, g >> 2) != my_team]
    friends = len(here) - len(enemies)
    castle = IS_CASTLE[sq]
    stacking = r.stacking
    if stacking != "all" and friends + n_moving > 1:
        if stacking == "none":
            return None
        if stacking == "castles_only":
            if not castle:
                return None
        elif isinstance(stacking, frozenset) and sq not in stacking:
            return None
    if not enemies:
        return ()
    mode = r.castle_mode
    if castle and mode == "block":
        return None
    blockaded = r.blockade and _blockade_at(r, occ, sq) and _enemy_blockade(r, enemies)
    if blockaded and n_moving < 2:
        return None
    if castle and mode == "coexist":
        return ()
    if blockaded and castle:
        return None
    if r.stack_immune and n_moving == 1 and len(enemies) >= 2:
        return None
    if r.capture_scope == "top_one":
        top = here[-1]
        return (top,) if _team(r, top >> 2) != my_team else ()
    return tuple(enemies)


def _enemy_blockade(r: Ruleset, enemies: list[int]) -> bool:
    counts: dict[int, int] = {}
    for g in enemies:
        t = _team(r, g >> 2)
        counts[t] = counts.get(t, 0) + 1
    return max(counts.values()) >= 2


def _credits(state: State, seat: int) -> int:
    r = state.ruleset
    if r.kill_before_home == "team" and r.teams == "pairs":
        return state.kills[seat] + state.kills[(seat + 2) % 4]
    return state.kills[seat]


def _may_go_home(state: State, seat: int) -> bool:
    """V-KILL-BEFORE-HOME: the final step needs a kill credit."""
    return state.ruleset.kill_before_home == "false" or _credits(state, seat) >= 1


# --------------------------------------------------------------------------- legal actions


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every distinct legal action of the seat to act; empty at chance and terminal nodes."""
    memo = state.memo
    if memo is not None and memo.actions is not None:
        return memo.actions  # type: ignore[return-value]
    stage = state.stage
    if stage is Stage.ACT:
        actions = _act_actions(state)
    elif stage is Stage.PYADA:
        actions = _finish_list(state, _pyada_uses(state, _occupancy(state), mover(state)))
    elif stage is Stage.SPEND:
        actions = _spend_actions(state)
    else:
        actions = ()
    # States are immutable values, so their legal actions never change: memoise them on
    # the state itself (in a slot outside its value) rather than in any global cache.
    if memo is not None:
        memo.actions = actions
    return actions


def _finish_list(state: State, uses: list[Action], *, optional: bool = True) -> tuple[Action, ...]:
    """Add DECLINE unless moves are compulsory and something else is legal (V-MOVE-COMPULSORY)."""
    if not optional:
        return tuple(uses)
    if uses and state.ruleset.moves_compulsory:
        return tuple(uses)
    uses.append(DECLINE)
    return tuple(uses)


def _act_actions(state: State) -> tuple[Action, ...]:
    r = state.ruleset
    m = mover(state)
    v = r.score_table[state.throw_k]
    if r.ludii and state.entered >> m & 1:
        # Ludii's moves need no occupancy: landings never fail there (E.2 item 5).
        uses = _ludii_uses(state, m, v)
        uses.append(DECLINE)
        return tuple(uses)
    occ = _occupancy(state)
    if state.split_left:
        return tuple(_split_parts(state, occ, m, state.split_value, state.split_left))
    if r.first_piece_free == "ludii_forced" and not state.entered >> m & 1:
        # E.2 item 4: the first throw must bring a piece out; no pass, no re-throw.
        return tuple(_free_uses(state, occ, m, v))
    bonus = 1 if (state.pyadas and r.pyada_use == "attached") else 0
    uses = _value_uses(state, occ, m, v, bonus=bonus)
    return _finish_list(state, uses)


def _spend_actions(state: State) -> tuple[Action, ...]:
    r = state.ruleset
    m = mover(state)
    occ = _occupancy(state)
    if state.split_left:
        return tuple(_split_parts(state, occ, m, state.split_value, state.split_left))
    uses: list[Action] = []
    for v in sorted(set(state.items), reverse=True):
        uses.extend(_value_uses(state, occ, m, v, bonus=0))
    if state.pyadas:
        uses.extend(_pyada_uses(state, occ, m))
    del r
    return _finish_list(state, uses)


def _movable(state: State, m: int, exclude: int = 0) -> list[int]:
    """The mover's pieces on the board, one per group of interchangeable pieces.

    ``exclude`` is a bitmask of pieces (0..3) to leave out before grouping, such as the
    pieces a split throw has already moved.
    """
    pos = state.pos
    base = 4 * m
    if state.ruleset.ludii:
        # E.2 5a: Ludii lists a move for each piece of a stack, level by level.
        return [i for i in range(4) if 0 < pos[base + i] < HOME and not exclude >> i & 1]
    seen: set[tuple[int, int, bool]] = set()
    in_records = 0
    for rec in state.records:
        in_records |= rec.pieces
    out: list[int] = []
    for i in range(4):
        g = base + i
        p = pos[g]
        if 0 < p < HOME and not exclude >> i & 1:
            key = (p, state.laps >> g & 1, bool(in_records >> g & 1))
            if key not in seen:
                seen.add(key)
                out.append(i)
    return out


def _waiting(state: State, m: int) -> int:
    """The waiting piece with the lowest letter (C.10a step 5), or -1."""
    pos = state.pos
    for i in range(4):
        if pos[4 * m + i] == 0:
            return i
    return -1


def _move_legal(
    state: State, occ: dict[int, list[int]], m: int, gids: tuple[int, ...], k: int
) -> bool:
    """R-MOVE for the pieces ``gids`` (all on one progress) moving ``k`` steps."""
    r = state.ruleset
    p = state.pos[gids[0]]
    t = p + k
    if t > HOME:
        return False
    if r.blockade and len(gids) == 1 and _passes_blockade(r, occ, m, p, t, False):
        return False
    if t == HOME:
        return _may_go_home(state, gids[0] >> 2)
    return _landing(r, occ, m, len(gids), SQUARE_OF[m][t]) is not None


def _value_uses(
    state: State, occ: dict[int, list[int]], m: int, v: int, *, bonus: int
) -> list[Action]:
    """Every use of a throw of value ``v`` by seat ``m`` (C.10a step 5)."""
    r = state.ruleset
    if r.ludii:
        return _ludii_uses(state, m, v)
    uses: list[Action] = []
    steps = v + bonus
    movable = _movable(state, m)
    pos = state.pos
    for i in movable:
        g = 4 * m + i
        p = pos[g]
        if _move_legal(state, occ, m, (g,), steps):
            uses.append(Action(ActionKind.MOVE, m, (i,), v))
        if r.extra_lap and not state.laps >> g & 1 and p <= 75 and p + steps >= 76:
            t = p + steps - 68
            if (
                t <= LAST_SQUARE
                and not (r.blockade and _passes_blockade(r, occ, m, p, p + steps, True))
                and _landing(r, occ, m, 1, SQUARE_OF[m][t]) is not None
            ):
                uses.append(Action(ActionKind.LAP, m, (i,), v))
        if (
            p == LAST_SQUARE
            and isinstance(r.last_square_exit, frozenset)
            and v in r.last_square_exit
            and steps != 1
            and _may_go_home(state, g >> 2)
        ):
            uses.append(Action(ActionKind.EXIT, m, (i,), v))
    if r.split_throw == "group":
        uses.extend(_group_uses(state, occ, m, v, steps))
    entries: list[Action] = []
    if not state.entered >> m & 1 and r.first_piece_free != "off":
        entries.extend(_free_uses(state, occ, m, v, bonus=bonus))
    if v in r.entry_values:
        i = _waiting(state, m)
        if i >= 0 and _entry_target(state, occ, m, _entry_progress(r, v)) is not None:
            entries.append(Action(ActionKind.ENTER, m, (i,), v))
    if r.split_throw == "split" and not bonus:
        uses.extend(_split_starts(state, occ, m, v))
    if r.grace_must_enter and entries and v in r.entry_values:
        # V-GRACE-MUST-ENTER: no move of any kind with the grace, split parts included.
        uses = []
    return uses + entries


def _entry_progress(r: Ruleset, v: int) -> int:
    """Where an entry grace puts a piece (R-ENTRY-CONSUMES, R-TRACK)."""
    if r.ludii:
        return LUDII_ENTRY_PROGRESS
    mode = r.entry_mode
    if mode == "consume":
        return 1
    if mode == "consume_plus_move":
        return 1 + v
    return v


def _entry_target(
    state: State, occ: dict[int, list[int]], m: int, t: int
) -> tuple[int, ...] | None:
    """Check an entry's landing: only stacking can forbid ``consume`` (R-ENTRY-SQUARE1)."""
    r = state.ruleset
    if t > LAST_SQUARE:
        return None
    sq = SQUARE_OF[m][t]
    if r.ludii or (r.entry_mode == "consume" and t in (1, LUDII_ENTRY_PROGRESS)):
        # A consuming entry is a placement, not a landing: it never captures (R-ENTRY-SQUARE1,
        # E.2 5b); on square 1 only the stacking limit applies.
        if r.stacking != "all":
            here = occ.get(sq) or []
            my_team = _team(r, m)
            friends = sum(1 for g in here if _team(r, g >> 2) == my_team)
            if friends and (
                r.stacking == "none"
                or (r.stacking == "castles_only" and not IS_CASTLE[sq])
                or (isinstance(r.stacking, frozenset) and sq not in r.stacking)
            ):
                return None
        return ()
    return _landing(r, occ, m, 1, sq)


def _free_uses(
    state: State, occ: dict[int, list[int]], m: int, v: int, *, bonus: int = 0
) -> list[Action]:
    """The first piece's entry without a grace (R-FIRST-PIECE-FREE)."""
    r = state.ruleset
    i = _waiting(state, m)
    if i < 0:
        return []
    mode = r.first_piece_free
    if mode == "ludii_forced":
        t = LUDII_ENTRY_PROGRESS - 1 + v
        return [Action(ActionKind.FREE, m, (i,), v)] if t <= LAST_SQUARE else []
    if v in r.entry_values:
        # Under travel an entry grace never travels (S4); under square1 it is the same
        # outcome as ENTER, which is listed instead.
        return []
    if mode == "travel":
        t = v + bonus
        if t > LAST_SQUARE or _landing(r, occ, m, 1, SQUARE_OF[m][t]) is None:
            return []
    elif mode == "square1" and _entry_target(state, occ, m, 1) is None:
        return []
    return [Action(ActionKind.FREE, m, (i,), v)]


def _group_uses(
    state: State, occ: dict[int, list[int]], m: int, v: int, steps: int
) -> list[Action]:
    """Two or more own pieces on the same progress moving together (V-SPLIT-THROW group)."""
    by_p: dict[int, list[int]] = {}
    for i in range(4):
        p = state.pos[4 * m + i]
        if 0 < p < HOME:
            by_p.setdefault(p, []).append(i)
    uses: list[Action] = []
    for members in by_p.values():
        for size in range(2, len(members) + 1):
            chosen = tuple(members[:size])
            gids = tuple(4 * m + i for i in chosen)
            if _move_legal(state, occ, m, gids, steps):
                uses.append(Action(ActionKind.MOVE, m, chosen, v))
    return uses


def _pyada_uses(state: State, occ: dict[int, list[int]], m: int) -> list[Action]:
    """A pyada: one step for any piece, or an entry with ``pyada_can_enter`` (V-PYADA)."""
    r = state.ruleset
    uses = [
        Action(ActionKind.MOVE, m, (i,), 0, 0, True)
        for i in _movable(state, m)
        if _move_legal(state, occ, m, (4 * m + i,), 1)
    ]
    if r.pyada_can_enter:
        i = _waiting(state, m)
        if i >= 0 and _entry_target(state, occ, m, 1) is not None:
            uses.append(Action(ActionKind.ENTER, m, (i,), 0, 0, True))
    return uses


def _ludii_uses(state: State, m: int, v: int) -> list[Action]:
    """Ludii's main-phase moves for one throw (E.2 item 5)."""
    r = state.ruleset
    k = r.score_table.index(v) if state.throw_k < 0 else state.throw_k
    grace = v in r.reroll_values
    uses: list[Action] = []
    pos = state.pos
    for i in _movable(state, m):
        p = pos[4 * m + i]
        if p + k == HOME and k == v:
            uses.append(Action(ActionKind.MOVE, m, (i,), v))
        elif p == LAST_SQUARE and grace:
            uses.append(Action(ActionKind.EXIT, m, (i,), v))
        elif p + v <= LAST_SQUARE:
            uses.append(Action(ActionKind.MOVE, m, (i,), v))
    if grace and _waiting(state, m) >= 0:
        uses.append(Action(ActionKind.ENTER, m, (_waiting(state, m),), v))
    return uses


# --------------------------------------------------------------------------- split throws


def _split_starts(state: State, occ: dict[int, list[int]], m: int, v: int) -> list[Action]:
    """First parts of a split of ``v`` that can be completed (V-SPLIT-THROW split)."""
    if v < 2:
        return []
    return [a for a in _split_parts(state, occ, m, v, v) if a.part < v]


def _split_parts(
    state: State, occ: dict[int, list[int]], m: int, v: int, left: int
) -> list[Action]:
    """Parts of ``left`` steps (of the throw ``v``) that still lead to a full split."""
    parts: list[Action] = []
    used = state.split_used
    starting = left == v and not used
    memo: dict[tuple[object, ...], bool] = {}
    for i in _movable(state, m, used):
        g = 4 * m + i
        top = left - 1 if starting else left
        for k in range(1, top + 1):
            if not _move_legal(state, occ, m, (g,), k):
                continue
            if k == left:
                parts.append(Action(ActionKind.MOVE, m, (i,), v, k))
                continue
            if _completes_directly(state, occ, m, i, k, left) or _completable(
                _apply_part(state, m, i, k, left), m, left - k, memo
            ):
                parts.append(Action(ActionKind.MOVE, m, (i,), v, k))
    return parts


def _completes_directly(
    state: State, occ: dict[int, list[int]], m: int, i: int, k: int, left: int
) -> bool:
    """Quick sufficient test: after a capture-free part, one other piece takes the rest.

    Only the moved piece changes square then, so its occupancy is patched instead of
    building the next state; anything less simple goes to the full search.
    """
    g = 4 * m + i
    p = state.pos[g]
    t = p + k
    if t >= HOME:
        return False
    sq_from, sq_to = SQUARE_OF[m][p], SQUARE_OF[m][t]
    if _landing(state.ruleset, occ, m, 1, sq_to):
        return False
    patched = dict(occ)
    patched[sq_from] = [x for x in occ[sq_from] if x != g]
    patched[sq_to] = [*occ.get(sq_to, ()), g]
    used = state.split_used | (1 << i)
    # The moved piece now stands elsewhere, so group the others without it.
    return any(
        _move_legal(state, patched, m, (4 * m + j,), left - k) for j in _movable(state, m, used)
    )


def _apply_part(state: State, m: int, i: int, k: int, left: int) -> State:
    b = _Builder(state)
    b.move((4 * m + i,), state.pos[4 * m + i] + k, 0, [])
    b.split_left = left - k
    b.split_used |= 1 << i
    return b.freeze()


def _completable(state: State, m: int, left: int, memo: dict[tuple[object, ...], bool]) -> bool:
    """Whether the remaining ``left`` steps can be shared among the unused pieces."""
    key = (state.pos, state.kills, state.split_used, left)
    if key in memo:
        return memo[key]
    occ = _occupancy(state)
    result = False
    used = state.split_used
    base = 4 * m
    # Each piece takes at most one part, so sharing the rest further needs two unused pieces.
    unused = sum(1 for j in range(4) if not used >> j & 1 and 0 < state.pos[base + j] < HOME)
    for i in _movable(state, m, used):
        g = base + i
        if _move_legal(state, occ, m, (g,), left):
            result = True
            break
        if unused < 2:
            continue
        for k in range(1, left):
            if _move_legal(state, occ, m, (g,), k) and _completable(
                _apply_part(state, m, i, k, left), m, left - k, memo
            ):
                result = True
                break
        if result:
            break
    memo[key] = result
    return result


# --------------------------------------------------------------------------- transitions


class _Builder:
    """A mutable working copy of a state, for building the next state in one pass."""

    __slots__ = (
        "again",
        "captured",
        "entered",
        "homed",
        "items",
        "keep_order",
        "kills",
        "laps",
        "order",
        "phase_flags",
        "pos",
        "pyadas",
        "r",
        "records",
        "run",
        "seat",
        "split_left",
        "split_used",
        "split_value",
        "stage",
        "throw_k",
        "throwoff",
        "turn",
        "winner",
    )

    def __init__(self, state: State) -> None:
        self.homed = False
        self.r = state.ruleset
        self.pos = list(state.pos)
        self.stage = state.stage
        self.seat = state.seat
        self.turn = state.turn
        self.order = list(state.order)
        self.laps = state.laps
        self.entered = state.entered
        self.kills = list(state.kills)
        self.records = list(state.records)
        self.throw_k = state.throw_k
        self.again = state.again
        self.captured = state.captured
        self.pyadas = state.pyadas
        self.items = list(state.items)
        self.run = state.run
        self.split_left = state.split_left
        self.split_value = state.split_value
        self.split_used = state.split_used
        self.phase_flags = state.phase_flags
        self.throwoff = state.throwoff
        self.winner = state.winner
        self.keep_order = self.r.tracks_stack_order

    def freeze(self) -> State:
        return State(
            self.r,
            tuple(self.pos),
            self.stage,
            self.seat,
            self.turn,
            tuple(self.order),
            self.laps,
            self.entered,
            (self.kills[0], self.kills[1], self.kills[2], self.kills[3]),
            tuple(self.records),
            self.throw_k,
            self.again,
            self.captured,
            self.pyadas,
            tuple(self.items),
            self.run,
            self.split_left,
            self.split_value,
            self.split_used,
            self.phase_flags,
            self.throwoff,
            self.winner,
            Memo(),
        )

    def occupancy(self) -> dict[int, list[int]]:
        occ: dict[int, list[int]] = {}
        pieces: Iterable[int] = self.order if self.keep_order else range(16)
        for g in pieces:
            p = self.pos[g]
            if 0 < p < HOME:
                occ.setdefault(SQUARE_OF[g >> 2][p], []).append(g)
        return occ

    def _left_square(self, g: int) -> None:
        """A piece moved: it no longer stands where it captured (V-RECAPTURE-ANNUL)."""
        if self.records:
            bit = 1 << g
            self.records = [
                rec if not rec.pieces & bit else _without_pieces(rec, bit)
                for rec in self.records
                if rec.pieces != bit
            ]
        if self.keep_order and g in self.order:
            self.order.remove(g)

    def move(self, gids: tuple[int, ...], t: int, lap: int, events: list[Event]) -> bool:
        """Move pieces to progress ``t`` (84 = home), resolving the landing. True if it captured."""
        seat = gids[0] >> 2
        occ = self.occupancy()
        for g in gids:
            frm = self.pos[g]
            self._left_square(g)
            self.pos[g] = t
            if lap:
                self.laps |= 1 << g
            events.append(Event("move", seat, g, frm, t))
            if t == HOME:
                self.homed = True
                events.append(Event("finish", seat, g))
        if t == HOME:
            return False
        sq = SQUARE_OF[seat][t]
        if self.r.ludii:
            captured = _ludii_capture(self.r, occ, seat, sq)
        else:
            landing = _landing(self.r, occ, seat, len(gids), sq)
            captured = landing or ()
        if captured:
            self.capture(gids, captured, sq, events)
        if self.keep_order:
            self.order.extend(gids)
        return bool(captured)

    def place(self, g: int, t: int, events: list[Event], captures: bool) -> bool:
        """Bring a waiting piece out to ``t`` (R-GRACE-ENTRY, R-FIRST-PIECE-FREE)."""
        seat = g >> 2
        occ = self.occupancy() if captures else {}
        self.pos[g] = t
        self.entered |= 1 << seat
        events.append(Event("enter", seat, g, 0, t))
        captured: tuple[int, ...] = ()
        if captures:
            sq = SQUARE_OF[seat][t]
            landing = _landing(self.r, occ, seat, 1, sq)
            captured = landing or ()
            if captured:
                self.capture((g,), captured, sq, events)
        if self.keep_order:
            self.order.append(g)
        return bool(captured)

    def capture(
        self, gids: tuple[int, ...], captured: tuple[int, ...], sq: int, events: list[Event]
    ) -> None:
        """Send captured pieces back; credit, record and annul kills (R-CAPTURE, C.6)."""
        owner = gids[0] >> 2
        cmask = 0
        victims = 0
        for c in captured:
            cmask |= 1 << c
            victims |= 1 << (c >> 2)
        events.append(Event("capture", owner, -1, -1, sq, 0, captured))
        if self.r.recapture_annul:
            kept: list[CaptureRecord] = []
            for rec in self.records:
                if owner == self.seat and rec.victims >> owner & 1 and rec.pieces & cmask:
                    self.kills[rec.capturer] -= 1
                    events.append(Event("annul", rec.capturer, -1, -1, rec.square))
                else:
                    kept.append(rec)
            self.records = kept
        for c in captured:
            self._left_square(c)
            self.pos[c] = 0
            self.laps &= ~(1 << c)
        self.kills[owner] += 1
        if self.r.recapture_annul:
            gmask = 0
            for g in gids:
                gmask |= 1 << g
            self.records.append(CaptureRecord(owner, gmask, sq, victims, self.turn))
        self.captured = True

    # ----------------------------------------------------------------- turn flow

    def end_turn(self, events: list[Event]) -> None:
        """Pass the turn on (R-ORDER), skipping finished seats under ``skip`` (R-FINISHED-SEAT)."""
        self._close_windows(self.seat)
        seat = self.seat
        for _ in range(4):
            seat = (seat + 1) % 4
            if self._takes_turns(seat):
                break
            self._close_windows(seat)
        self.seat = seat
        self.turn += 1
        self._reset_turn()
        self.begin_phase()
        events.append(Event("turn", seat))

    def _takes_turns(self, seat: int) -> bool:
        if self.r.ludii or self.r.finished_seat == "throw_for_partner":
            return True
        return any(p != HOME for p in self.pos[4 * seat : 4 * seat + 4])

    def _close_windows(self, seat: int) -> None:
        if not self.records:
            return
        bit = 1 << seat
        kept = []
        for rec in self.records:
            if rec.victims & bit and rec.turn < self.turn:
                rec = CaptureRecord(
                    rec.capturer, rec.pieces, rec.square, rec.victims & ~bit, rec.turn
                )
            if rec.victims:
                kept.append(rec)
        self.records = kept

    def _reset_turn(self) -> None:
        self.stage = Stage.THROW
        self.throw_k = -1
        self.again = False
        self.captured = False
        self.pyadas = 0
        self.items = []
        self.run = (0, 0)
        self.split_left = self.split_value = self.split_used = 0

    def check_win(self, events: list[Event]) -> bool:
        """R-TEAM-WIN / V-INDIVIDUAL-WIN: end the game the moment a side is home."""
        if not self.homed:
            return False
        pos = self.pos
        if self.r.teams == "individual":
            for s in range(4):
                if all(p == HOME for p in pos[4 * s : 4 * s + 4]):
                    return self._win(s, events)
            return False
        for team in (0, 1):
            if all(pos[g] == HOME for g in range(16) if (g >> 2) & 1 == team):
                return self._win(team, events)
        return False

    def _win(self, winner: int, events: list[Event]) -> bool:
        self.stage = Stage.OVER
        self.winner = winner
        # Turn fields mean nothing once the game is over: clear them so that two games
        # ending on the same board end in equal states.
        self.throw_k = -1
        self.again = self.captured = False
        self.run = (0, 0)
        self.phase_flags = 0
        self.items = []
        self.pyadas = 0
        self.split_left = self.split_value = self.split_used = 0
        events.append(Event("win", winner))
        return True

    def seat_done(self) -> bool:
        """C.9: the turn's seat has finished and its turn ends at once under ``skip``."""
        if self.r.ludii or self.r.finished_seat != "skip":
            return False
        return all(p == HOME for p in self.pos[4 * self.seat : 4 * self.seat + 4])

    def mover(self) -> int:
        s = self.seat
        if (
            self.r.finished_seat == "throw_for_partner"
            and self.r.teams == "pairs"
            and all(p == HOME for p in self.pos[4 * s : 4 * s + 4])
        ):
            return (s + 2) % 4
        return s

    def begin_phase(self) -> None:
        """Collect mode: a new throwing phase with fresh counts (C.10b step 2)."""
        self.stage = Stage.THROW
        self.items = []
        self.run = (0, 0)
        self.captured = False
        self.pyadas = 0
        if self.r.throw_usage == "collect":
            pieces = self.pos[4 * self.mover() : 4 * self.mover() + 4]
            flags = 0
            if any(1 <= p <= LAST_SQUARE for p in pieces):
                flags |= _HAS_PIECE
            if all(p != 0 for p in pieces):
                flags |= _NONE_WAITING
            self.phase_flags = flags


def _without_pieces(rec: CaptureRecord, bit: int) -> CaptureRecord:
    return CaptureRecord(rec.capturer, rec.pieces & ~bit, rec.square, rec.victims, rec.turn)


def _ludii_capture(r: Ruleset, occ: dict[int, list[int]], seat: int, sq: int) -> tuple[int, ...]:
    """E.2 5a: the top piece of the destination goes back if it belongs to the other team."""
    here = occ.get(sq)
    if not here:
        return ()
    top = here[-1]
    return (top,) if _team(r, top >> 2) != _team(r, seat) else ()


def _run_key(r: Ruleset, v: int) -> int:
    """The triple-cancel class of a value (V-TRIPLE-CANCEL); 0 = none."""
    if r.triple_cancel == "same":
        return v
    if v in r.big_values:
        return _CLASS_H
    if v == 7:
        return _CLASS_7
    if v == 14:
        return _CLASS_14
    return 0


def _advance_run(r: Ruleset, run: tuple[int, int], v: int) -> tuple[int, int]:
    key = _run_key(r, v)
    if key == 0:
        return (0, 0)
    if run[0] == key:
        return (key, run[1] + 1)
    return (key, 1)


def apply_chance(state: State, k: int) -> tuple[State, list[Event]]:
    """Apply a throw with ``k`` mouths up; returns the new state and its events."""
    r = state.ruleset
    stage = state.stage
    if stage is not Stage.THROW and stage is not Stage.THROW_OFF:
        raise IllegalActionError("no throw is due in this position")
    if not isinstance(k, int) or not 0 <= k <= r.cowries:
        raise IllegalActionError(f"a throw of {r.cowries} cowries has 0..{r.cowries} mouths up")
    v = r.score_table[k]
    if stage is Stage.THROW_OFF:
        b = _Builder(state)
        events: list[Event] = []
        _throw_off(b, k, v, events)
        return b.freeze(), events
    events = [Event("throw", state.seat, value=v, k=k)]
    if r.throw_usage == "collect":
        b = _Builder(state)
        _collect_throw(b, state, v, events)
        return b.freeze(), events
    m = mover(state)
    if v in _SEVEN_FOURTEEN and not state.on_board(m):
        # V-7-14-NEEDS-PIECE: no value; void ends the turn, rethrow_only throws again.
        events.append(Event("void", state.seat, value=v))
        b = _Builder(state)
        if r.seven_fourteen_needs_piece == "void":
            b.end_turn(events)
        return b.freeze(), events
    run = state.run
    if r.triple_cancel != "off":
        run = _advance_run(r, run, v)
        if run[1] >= 3:
            events.append(Event("cancel", state.seat, value=v))
            b = _Builder(state)
            b.end_turn(events)
            return b.freeze(), events
    pyadas = 0
    if r.pyada and v in r.pyada_values:
        pieces = state.seat_pieces(m)
        if r.pyada_condition == "always" or all(p != 0 for p in pieces):
            pyadas = 1
    # The common case builds the next state directly: a throw changes only turn fields.
    new = State(
        r,
        state.pos,
        Stage.ACT,
        state.seat,
        state.turn,
        state.order,
        state.laps,
        state.entered,
        state.kills,
        state.records,
        k,
        v in r.reroll_values,
        False,
        pyadas,
        state.items,
        run,
        state.split_left,
        state.split_value,
        state.split_used,
        state.phase_flags,
        state.throwoff,
        state.winner,
        Memo(),
    )
    return new, events


def _throw_off(b: _Builder, k: int, v: int, events: list[Event]) -> None:
    """R-ORDER: every seat throws; the highest value begins; ties throw again."""
    values = list(b.throwoff)
    values[b.seat] = v
    events.append(Event("throw_off", b.seat, value=v, k=k))
    pending = [s for s in range(4) if values[s] == -1]
    if pending:
        b.seat = pending[0]
        b.throwoff = tuple(values)
        return
    best = max(values)
    tied = [s for s in range(4) if values[s] == best]
    if len(tied) > 1:
        b.throwoff = tuple(-1 if s in tied else -2 for s in range(4))
        b.seat = tied[0]
        return
    b.throwoff = ()
    b.seat = tied[0]
    b.turn = 1
    events.append(Event("begins", tied[0]))
    b.begin_phase()


def _collect_throw(b: _Builder, state: State, v: int, events: list[Event]) -> None:
    """One throw of a throwing phase in collect mode (C.10b step 2)."""
    r = b.r
    if v in _SEVEN_FOURTEEN and not state.phase_flags & _HAS_PIECE:
        events.append(Event("void", state.seat, value=v))
        if r.seven_fourteen_needs_piece == "void":
            _end_throwing(b, events)
        return
    b.items.append(v)
    if r.triple_cancel != "off":
        b.run = _advance_run(r, b.run, v)
        if b.run[1] >= 3:
            events.append(Event("cancel", state.seat, value=v))
            b.items = [] if r.triple_scope == "turn" else b.items[:-3]
            _end_throwing(b, events)
            return
    if v not in r.reroll_values:
        _end_throwing(b, events)


def _end_throwing(b: _Builder, events: list[Event]) -> None:
    """Close the throwing phase: count pyadas, then spend or pass the turn (C.10b 3-4)."""
    r = b.r
    b.pyadas = 0
    if r.pyada and (r.pyada_condition == "always" or b.phase_flags & _NONE_WAITING):
        b.pyadas = sum(1 for v in b.items if v in r.pyada_values)
        if b.pyadas:
            events.append(Event("pyada", b.seat, value=b.pyadas))
    if b.items or b.pyadas:
        b.stage = Stage.SPEND
        b.captured = False
    else:
        b.end_turn(events)


def apply_action(state: State, action: Action) -> tuple[State, list[Event]]:
    """Apply a legal action; :class:`IllegalActionError` (and no change) if it is not legal."""
    legal = legal_actions(state)
    if not any(a is action for a in legal) and action not in legal:
        raise IllegalActionError(f"{action} is not legal here")
    return _apply(state, action)


def _apply(state: State, a: Action) -> tuple[State, list[Event]]:
    r = state.ruleset
    if (
        a.kind is ActionKind.DECLINE
        and state.again
        and state.stage is Stage.ACT
        and not state.pyadas
        and not state.split_left
        and r.throw_usage == "immediate"
        and r.unusable_throw == "forfeit_throw"
    ):
        # A declined grace (R-DECLINE, R-GRACE-REPEAT): the seat simply throws again.
        # This is half of all decisions in random play, so it skips the general path.
        again = [Event("decline", state.seat), Event("again", state.seat)]
        return state._replace(
            stage=Stage.THROW, throw_k=-1, again=False, captured=False, memo=Memo()
        ), again
    b = _Builder(state)
    events: list[Event] = []
    captured = False
    if a.kind is ActionKind.DECLINE:
        events.append(Event("decline", state.seat))
    else:
        captured = _carry_out(b, state, a, events)
    if r.throw_usage == "collect":
        _after_spend(b, state, a, events)
    elif state.stage is Stage.PYADA:
        b.pyadas = 0
        _after_throw(b, events, captured)
    else:
        _after_act(b, state, a, events, captured)
    return b.freeze(), events


def _carry_out(b: _Builder, state: State, a: Action, events: list[Event]) -> bool:
    """Do what the action says to the board; True if it captured."""
    r = state.ruleset
    gids = a.global_pieces
    kind = a.kind
    if kind is ActionKind.ENTER:
        t = 1 if a.pyada else _entry_progress(r, a.value)
        captures = not (r.ludii or (r.entry_mode == "consume") or a.pyada)
        return b.place(gids[0], t, events, captures)
    if kind is ActionKind.FREE:
        if r.first_piece_free == "ludii_forced":
            t = LUDII_ENTRY_PROGRESS - 1 + a.value
            return b.place(gids[0], t, events, True)
        if r.first_piece_free == "square1":
            return b.place(gids[0], 1, events, False)
        bonus = 1 if (state.pyadas and r.pyada_use == "attached") else 0
        return b.place(gids[0], a.value + bonus, events, True)
    if kind is ActionKind.EXIT:
        b.move(gids, HOME, 0, events)
        return False
    p = state.pos[gids[0]]
    if a.pyada:
        steps = 1
    elif a.part:
        steps = a.part
    else:
        bonus = (
            1 if (state.stage is Stage.ACT and state.pyadas and r.pyada_use == "attached") else 0
        )
        steps = a.value + bonus
    if kind is ActionKind.LAP:
        return b.move(gids, p + steps - 68, 1, events)
    return b.move(gids, p + steps, 0, events)


def _after_act(b: _Builder, state: State, a: Action, events: list[Event], captured: bool) -> None:
    """C.10a steps 6-9 after the main action with the throw."""
    r = state.ruleset
    if a.part:
        left = (state.split_left or a.value) - a.part
        if left:
            b.split_left = left
            b.split_value = a.value
            b.split_used = state.split_used | (1 << a.pieces[0])
            b.captured = state.captured or captured
            b.check_win(events)
            return
        b.split_left = b.split_value = b.split_used = 0
        captured = captured or state.captured
    if r.first_piece_free == "ludii_forced" and a.kind is ActionKind.FREE:
        b.end_turn(events)
        return
    if (
        a.kind is ActionKind.DECLINE
        and r.unusable_throw == "forfeit_turn"
        and legal_actions(state) == (DECLINE,)
        and not (b.pyadas and r.pyada_use == "free" and _pyada_usable(state))
    ):
        b.end_turn(events)
        return
    b.captured = captured
    if b.check_win(events):
        return
    if b.seat_done():
        b.end_turn(events)
        return
    if b.pyadas and r.pyada_use == "free":
        b.stage = Stage.PYADA
        events.append(Event("pyada", state.seat, value=1))
        return
    b.pyadas = 0
    _after_throw(b, events, captured)


def _pyada_usable(state: State) -> bool:
    return bool(_pyada_uses(state, _occupancy(state), mover(state)))


def _after_throw(b: _Builder, events: list[Event], captured: bool) -> None:
    """C.10a steps 8-9: win, finished seat, then another throw or the next seat."""
    r = b.r
    captured = captured or b.captured
    if b.stage is not Stage.OVER and b.check_win(events):
        return
    if b.seat_done():
        b.end_turn(events)
        return
    if b.again or (captured and r.capture_bonus):
        b.stage = Stage.THROW
        b.throw_k = -1
        b.again = False
        b.captured = False
        b.pyadas = 0
        events.append(Event("again", b.seat))
        return
    b.end_turn(events)


def _after_spend(b: _Builder, state: State, a: Action, events: list[Event]) -> None:
    """C.10b step 4-6 after one spent item (or a stop)."""
    r = state.ruleset
    if a.kind is ActionKind.DECLINE:
        _end_spending(b, events)
        return
    if a.pyada:
        b.pyadas -= 1
    elif a.part:
        if not state.split_left:
            b.items.remove(a.value)
        left = (state.split_left or a.value) - a.part
        b.split_left = left
        b.split_value = a.value if left else 0
        b.split_used = (state.split_used | (1 << a.pieces[0])) if left else 0
    else:
        b.items.remove(a.value)
    if b.check_win(events):
        return
    if b.seat_done():
        b.end_turn(events)
        return
    if b.split_left:
        return
    if not b.items and not b.pyadas:
        _end_spending(b, events)
    del r


def _end_spending(b: _Builder, events: list[Event]) -> None:
    if b.captured and b.r.capture_bonus:
        events.append(Event("again", b.seat))
        b.begin_phase()
        return
    b.end_turn(events)


def apply(state: State, action: Action | int) -> tuple[State, list[Event]]:
    """Apply a chance outcome ``k`` (an int) or an :class:`Action`, whichever is due."""
    if isinstance(action, Action):
        return apply_action(state, action)
    return apply_chance(state, action)
