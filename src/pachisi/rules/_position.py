"""Questions about a position that several parts of the engine ask (RULES.md C.5, C.6).

Who moves, who is friendly, where every piece stands, and what a landing on a square does:
legal, illegal, or a capture. Internal to :mod:`pachisi.rules`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pachisi.rules.board import (
    HOME,
    IS_CASTLE,
    PRIVATE_SQUARES,
    SQUARE_OF,
    partner,
)
from pachisi.rules.choices import (
    CaptureScope,
    CastleMode,
    FinishedSeat,
    KillBeforeHome,
    Stacking,
    Teams,
)
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import (
    Stage,
    State,
)

PRIVATE = frozenset().union(*PRIVATE_SQUARES)
"""All 28 private squares: only one seat's pieces ever stand there (R-PRIVATE-COLUMN)."""


def mover(state: State) -> int:
    """The seat whose pieces the current turn moves.

    That is the seat itself, or its partner when the seat has finished and
    ``finished_seat = throw_for_partner`` (V-PARTNER-THROWS).
    """
    if state.stage is Stage.THROW_OFF:
        return state.seat
    return mover_of(state.ruleset, state.pos, state.seat)


def mover_of(r: Ruleset, pos: Sequence[int], seat: int) -> int:
    """:func:`mover` for a seat and the 16 piece progresses."""
    if (
        r.finished_seat == FinishedSeat.THROW_FOR_PARTNER
        and r.teams == Teams.PAIRS
        and all(p == HOME for p in pos[4 * seat : 4 * seat + 4])
    ):
        return partner(seat)
    return seat


def takes_turns(r: Ruleset, pos: Sequence[int], seat: int) -> bool:
    """Whether ``seat`` still takes turns (R-FINISHED-SEAT): a finished seat misses them
    under ``skip``; it throws for its partner under ``throw_for_partner``, and in Ludii's
    flow it goes on throwing and passing (E.2 item 6)."""
    if r.ludii or r.finished_seat == FinishedSeat.THROW_FOR_PARTNER:
        return True
    return any(p != HOME for p in pos[4 * seat : 4 * seat + 4])


def side_of(r: Ruleset, seat: int) -> int:
    """The side ``seat`` plays for (R-TEAMS): team 0 (seats 0 and 2) or team 1 (seats 1 and
    3), or the seat itself under V-INDIVIDUAL; the side :func:`side_seats` takes."""
    return seat if r.teams == Teams.INDIVIDUAL else seat & 1


def occupancy(state: State) -> dict[int, list[int]]:
    """Square -> pieces on it, bottom to top when the ruleset keeps the order."""
    return occupancy_of(state.pos, state.order if state.ruleset.tracks_stack_order else None)


def occupancy_of(pos: Sequence[int], order: Iterable[int] | None) -> dict[int, list[int]]:
    """:func:`occupancy` from the 16 progresses and, if kept, the arrival order (C.11)."""
    occ: dict[int, list[int]] = {}
    for g in order if order is not None else range(16):
        p = pos[g]
        if 0 < p < HOME:
            sq = SQUARE_OF[g >> 2][p]
            lst = occ.get(sq)
            if lst is None:
                occ[sq] = [g]
            else:
                lst.append(g)
    return occ


def blockade_at(r: Ruleset, occ: dict[int, list[int]], sq: int) -> bool:
    """Two or more friendly pieces on a loop square form a blockade (V-BLOCKADE)."""
    here = occ.get(sq)
    if not here or len(here) < 2 or sq in PRIVATE:
        return False
    teams: dict[int, int] = {}
    for g in here:
        t = side_of(r, g >> 2)
        teams[t] = teams.get(t, 0) + 1
    return max(teams.values()) >= 2


def passes_blockade(
    r: Ruleset, occ: dict[int, list[int]], seat: int, p: int, t: int, lap: bool
) -> bool:
    """Whether a single piece moving from ``p`` to ``t`` passes over a blockade."""
    row = SQUARE_OF[seat]
    path = [*range(p + 1, 76), *range(8, t - 68)] if lap else list(range(p + 1, min(t, HOME)))
    return any(blockade_at(r, occ, row[q]) for q in path)


def stacking_allows(r: Ruleset, friendly: int, sq: int) -> bool:
    """Whether ``friendly`` friendly pieces may stand together on ``sq`` (V-STACK-RESTRICTED).

    The limit counts own and partner's pieces on the physical square, whatever their progress.
    """
    stacking = r.stacking
    if stacking == Stacking.ALL or friendly <= 1:
        return True
    if stacking == Stacking.NONE:
        return False
    if stacking == Stacking.CASTLES_ONLY:
        return IS_CASTLE[sq]
    return isinstance(stacking, frozenset) and sq in stacking


def landing(
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
    my_team = side_of(r, seat)
    enemies = [g for g in here if side_of(r, g >> 2) != my_team]
    friends = len(here) - len(enemies)
    castle = IS_CASTLE[sq]
    if not stacking_allows(r, friends + n_moving, sq):
        return None
    if not enemies:
        return ()
    mode = r.castle_mode
    if castle and mode == CastleMode.BLOCK:
        return None
    blockaded = r.blockade and blockade_at(r, occ, sq) and enemy_blockade(r, enemies)
    if blockaded and n_moving < 2:
        return None
    if castle and mode == CastleMode.COEXIST:
        return ()
    if blockaded and castle:
        return None
    if r.stack_immune and n_moving == 1 and len(enemies) >= 2:
        return None
    if r.capture_scope == CaptureScope.TOP_ONE:
        top = here[-1]
        return (top,) if side_of(r, top >> 2) != my_team else ()
    return tuple(enemies)


def enemy_blockade(r: Ruleset, enemies: list[int]) -> bool:
    counts: dict[int, int] = {}
    for g in enemies:
        t = side_of(r, g >> 2)
        counts[t] = counts.get(t, 0) + 1
    return max(counts.values()) >= 2


def pools_credits(r: Ruleset) -> bool:
    """Whether partners share their kill credits (``kill_before_home = team`` in pairs)."""
    return r.kill_before_home == KillBeforeHome.TEAM and r.teams == Teams.PAIRS


def side_count(r: Ruleset) -> int:
    """How many sides play (R-TEAMS): two teams of partners, or four seats alone under
    V-INDIVIDUAL."""
    return 4 if r.teams == Teams.INDIVIDUAL else 2


def side_seats(r: Ruleset, side: int) -> tuple[int, ...]:
    """The seats of ``side`` (R-TEAMS): a team's two partners, or one seat under
    V-INDIVIDUAL."""
    if r.teams == Teams.INDIVIDUAL:
        return (side,)
    return (side, partner(side))


def side_credits(r: Ruleset, kills: Sequence[int], seat: int) -> int:
    """The kill credits ``seat`` may go home on (R-KILL-BEFORE-HOME): its own kills, and its
    partner's too when :func:`pools_credits`."""
    if pools_credits(r):
        return kills[seat] + kills[partner(seat)]
    return kills[seat]


def credits(state: State, seat: int) -> int:
    return side_credits(state.ruleset, state.kills, seat)


def may_go_home(state: State, seat: int) -> bool:
    """V-KILL-BEFORE-HOME: the final step needs a kill credit."""
    return state.ruleset.kill_before_home == KillBeforeHome.FALSE or credits(state, seat) >= 1


def ludii_capture(r: Ruleset, occ: dict[int, list[int]], seat: int, sq: int) -> tuple[int, ...]:
    """E.2 5a: the top piece of the destination goes back if it belongs to the other team."""
    here = occ.get(sq)
    if not here:
        return ()
    top = here[-1]
    return (top,) if side_of(r, top >> 2) != side_of(r, seat) else ()
