"""Legal actions (RULES.md C.10a step 5, C.10b step 4): every use of a throw or a pyada.

Internal to :mod:`pachisi.rules`; :func:`pachisi.rules.engine.legal_actions` is the entry point.
"""

from __future__ import annotations

from pachisi.rules._builder import Builder
from pachisi.rules._entry import entry_progress, free_progress
from pachisi.rules._position import (
    landing,
    may_go_home,
    mover,
    occupancy,
    passes_blockade,
    side_of,
    stacking_allows,
)
from pachisi.rules.actions import DECLINE, Action, ActionKind
from pachisi.rules.board import (
    HOME,
    LAST_SQUARE,
    LUDII_ENTRY_PROGRESS,
    SQUARE_OF,
)
from pachisi.rules.choices import EntryMode, FirstPieceFree, PyadaUse, SplitThrow, Stacking
from pachisi.rules.state import (
    Stage,
    State,
)


def legal_actions(state: State) -> tuple[Action, ...]:
    """The legal actions of the seat to act, before C.10b's "one outcome, one action"
    (which needs the transitions: :func:`pachisi.rules.engine.legal_actions`); empty at
    chance and terminal nodes."""
    stage = state.stage
    if stage is Stage.ACT:
        actions = _act_actions(state)
    elif stage is Stage.PYADA:
        actions = _finish_list(state, pyada_uses(state, occupancy(state), mover(state)))
    elif stage is Stage.SPEND:
        actions = _spend_actions(state)
    else:
        actions = ()
    return actions


def _finish_list(state: State, uses: list[Action]) -> tuple[Action, ...]:
    """Add DECLINE unless moves are compulsory and something else is legal (V-MOVE-COMPULSORY)."""
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
        uses = ludii_uses(state, m, v)
        uses.append(DECLINE)
        return tuple(uses)
    occ = occupancy(state)
    if state.split_left:
        return tuple(_split_parts(state, occ, m, state.split_value, state.split_left))
    if r.first_piece_free == FirstPieceFree.LUDII_FORCED and not state.entered >> m & 1:
        # E.2 item 4: the first throw must bring a piece out; no pass, no re-throw.
        return tuple(_free_uses(state, occ, m, v))
    bonus = 1 if (state.pyadas and r.pyada_use == PyadaUse.ATTACHED) else 0
    uses = _value_uses(state, occ, m, v, bonus=bonus)
    return _finish_list(state, uses)


def _spend_actions(state: State) -> tuple[Action, ...]:
    m = mover(state)
    occ = occupancy(state)
    if state.split_left:
        return tuple(_split_parts(state, occ, m, state.split_value, state.split_left))
    uses: list[Action] = []
    for v in sorted(set(state.items), reverse=True):
        uses.extend(_value_uses(state, occ, m, v, bonus=0))
    if state.pyadas:
        uses.extend(pyada_uses(state, occ, m))
    return _finish_list(state, uses)


def movable(state: State, m: int, exclude: int = 0) -> list[int]:
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


def waiting(state: State, m: int) -> int:
    """The waiting piece with the lowest letter (C.10a step 5), or -1."""
    pos = state.pos
    for i in range(4):
        if pos[4 * m + i] == 0:
            return i
    return -1


def move_legal(
    state: State, occ: dict[int, list[int]], m: int, gids: tuple[int, ...], k: int
) -> bool:
    """R-MOVE for the pieces ``gids`` (all on one progress) moving ``k`` steps."""
    r = state.ruleset
    p = state.pos[gids[0]]
    t = p + k
    if t > HOME:
        return False
    if r.blockade and len(gids) == 1 and passes_blockade(r, occ, m, p, t, False):
        return False
    if t == HOME:
        return may_go_home(state, gids[0] >> 2)
    return landing(r, occ, m, len(gids), SQUARE_OF[m][t]) is not None


def _value_uses(
    state: State, occ: dict[int, list[int]], m: int, v: int, *, bonus: int
) -> list[Action]:
    """Every use of a throw of value ``v`` by seat ``m`` (C.10a step 5)."""
    r = state.ruleset
    if r.ludii:
        return ludii_uses(state, m, v)
    uses: list[Action] = []
    steps = v + bonus
    pos = state.pos
    for i in movable(state, m):
        g = 4 * m + i
        p = pos[g]
        if move_legal(state, occ, m, (g,), steps):
            uses.append(Action(ActionKind.MOVE, m, (i,), v))
        if r.extra_lap and not state.laps >> g & 1 and p <= 75 and p + steps >= 76:
            t = p + steps - 68
            if (
                t <= LAST_SQUARE
                and not (r.blockade and passes_blockade(r, occ, m, p, p + steps, True))
                and landing(r, occ, m, 1, SQUARE_OF[m][t]) is not None
            ):
                uses.append(Action(ActionKind.LAP, m, (i,), v))
        if (
            p == LAST_SQUARE
            and isinstance(r.last_square_exit, frozenset)
            and v in r.last_square_exit
            and steps != 1
            and may_go_home(state, g >> 2)
        ):
            uses.append(Action(ActionKind.EXIT, m, (i,), v))
    if r.split_throw == SplitThrow.GROUP:
        uses.extend(_group_uses(state, occ, m, v, steps))
    entries: list[Action] = []
    if not state.entered >> m & 1 and r.first_piece_free != FirstPieceFree.OFF:
        entries.extend(_free_uses(state, occ, m, v, bonus=bonus))
    if v in r.entry_values:
        i = waiting(state, m)
        if i >= 0 and entry_target(state, occ, m, entry_progress(r, v)) is not None:
            entries.append(Action(ActionKind.ENTER, m, (i,), v))
    if r.split_throw == SplitThrow.SPLIT and not bonus:
        uses.extend(_split_starts(state, occ, m, v))
    if r.grace_must_enter and entries and v in r.entry_values:
        # V-GRACE-MUST-ENTER: no move of any kind with the grace, split parts included.
        uses = []
    return uses + entries


def entry_target(state: State, occ: dict[int, list[int]], m: int, t: int) -> tuple[int, ...] | None:
    """Check an entry's landing: only stacking can forbid ``consume`` (R-ENTRY-SQUARE1)."""
    r = state.ruleset
    if t > LAST_SQUARE:
        return None
    sq = SQUARE_OF[m][t]
    if r.ludii or (r.entry_mode == EntryMode.CONSUME and t in (1, LUDII_ENTRY_PROGRESS)):
        # A consuming entry is a placement, not a landing: it never captures (R-ENTRY-SQUARE1,
        # E.2 5b); on square 1 only the stacking limit applies.
        if r.stacking != Stacking.ALL:
            my_team = side_of(r, m)
            friends = sum(1 for g in occ.get(sq, ()) if side_of(r, g >> 2) == my_team)
            if not stacking_allows(r, friends + 1, sq):
                return None
        return ()
    return landing(r, occ, m, 1, sq)


def _free_uses(
    state: State, occ: dict[int, list[int]], m: int, v: int, *, bonus: int = 0
) -> list[Action]:
    """The first piece's entry without a grace (R-FIRST-PIECE-FREE)."""
    r = state.ruleset
    i = waiting(state, m)
    if i < 0:
        return []
    t = free_progress(r, v, bonus)
    if t is None or t > LAST_SQUARE:
        return []
    mode = r.first_piece_free
    if mode == FirstPieceFree.TRAVEL:
        if landing(r, occ, m, 1, SQUARE_OF[m][t]) is None:
            return []
    elif mode == FirstPieceFree.SQUARE1 and entry_target(state, occ, m, 1) is None:
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
            if move_legal(state, occ, m, gids, steps):
                uses.append(Action(ActionKind.MOVE, m, chosen, v))
    return uses


def pyada_uses(state: State, occ: dict[int, list[int]], m: int) -> list[Action]:
    """A pyada: one step for any piece, or an entry with ``pyada_can_enter`` (V-PYADA)."""
    r = state.ruleset
    uses = [
        Action(ActionKind.MOVE, m, (i,), 0, 0, True)
        for i in movable(state, m)
        if move_legal(state, occ, m, (4 * m + i,), 1)
    ]
    if r.pyada_can_enter:
        i = waiting(state, m)
        if i >= 0 and entry_target(state, occ, m, 1) is not None:
            uses.append(Action(ActionKind.ENTER, m, (i,), 0, 0, True))
    return uses


def ludii_uses(state: State, m: int, v: int) -> list[Action]:
    """Ludii's main-phase moves for one throw (E.2 item 5)."""
    r = state.ruleset
    k = r.score_table.index(v) if state.throw_k < 0 else state.throw_k
    grace = v in r.reroll_values
    uses: list[Action] = []
    pos = state.pos
    for i in movable(state, m):
        p = pos[4 * m + i]
        if p + k == HOME and k == v:
            uses.append(Action(ActionKind.MOVE, m, (i,), v))
        elif p == LAST_SQUARE and grace:
            uses.append(Action(ActionKind.EXIT, m, (i,), v))
        elif p + v <= LAST_SQUARE:
            uses.append(Action(ActionKind.MOVE, m, (i,), v))
    if grace and waiting(state, m) >= 0:
        uses.append(Action(ActionKind.ENTER, m, (waiting(state, m),), v))
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
    for i in movable(state, m, used):
        g = 4 * m + i
        top = left - 1 if starting else left
        for k in range(1, top + 1):
            if not move_legal(state, occ, m, (g,), k):
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
    if landing(state.ruleset, occ, m, 1, sq_to):
        return False
    patched = dict(occ)
    patched[sq_from] = [x for x in occ[sq_from] if x != g]
    patched[sq_to] = [*occ.get(sq_to, ()), g]
    used = state.split_used | (1 << i)
    # The moved piece now stands elsewhere, so group the others without it.
    return any(
        move_legal(state, patched, m, (4 * m + j,), left - k) for j in movable(state, m, used)
    )


def _apply_part(state: State, m: int, i: int, k: int, left: int) -> State:
    b = Builder(state)
    b.move((4 * m + i,), state.pos[4 * m + i] + k, 0, [])
    b.split_left = left - k
    b.split_used |= 1 << i
    return b.freeze()


def _completable(state: State, m: int, left: int, memo: dict[tuple[object, ...], bool]) -> bool:
    """Whether the remaining ``left`` steps can be shared among the unused pieces."""
    key = (state.pos, state.kills, state.split_used, left)
    if key in memo:
        return memo[key]
    occ = occupancy(state)
    result = False
    used = state.split_used
    base = 4 * m
    # Each piece takes at most one part, so sharing the rest further needs two unused pieces.
    unused = sum(1 for j in range(4) if not used >> j & 1 and 0 < state.pos[base + j] < HOME)
    for i in movable(state, m, used):
        g = base + i
        if move_legal(state, occ, m, (g,), left):
            result = True
            break
        if unused < 2:
            continue
        for k in range(1, left):
            if move_legal(state, occ, m, (g,), k) and _completable(
                _apply_part(state, m, i, k, left), m, left - k, memo
            ):
                result = True
                break
        if result:
            break
    memo[key] = result
    return result
