"""R-DEADLOCK: a game that no side can win any more ends as a draw.

Under V-KILL-BEFORE-HOME a seat needs a kill credit for its final step home. Once a seat
has no credit and no way left to earn one, its side can never win; when that holds for
every side, the game is over. RULES.md C.9 fixes the test exactly (it is sufficient, not
complete) so that every engine draws at the same moment:

* a **capturer** is a piece that is waiting or on ``p <= 75``;
* a **possible victim** is an enemy piece that is waiting or on ``p <= 75``, or on
  ``p = 76`` under ``castle_mode = inert``;
* a seat is **blocked** when it has not finished, has no kill credit (under
  ``kill_before_home = team`` with pairs, nor has its partner), and either no possible
  victim exists or none of its pieces (with pooled credits: its own and its partner's)
  is a capturer;
* a team is blocked when one of its seats is (it needs all 8 pieces home); under
  ``teams = individual`` every seat is a side of its own.

The functions take the 16 progresses and the kill credits rather than a state, so that
the engine can ask them of a position it is still building.

>>> from pachisi.rules.ruleset import parse_ruleset
>>> r = parse_ruleset("classic+kill_before_home=seat")
>>> pos = (80, 84, 84, 84, 77, 84, 84, 84, 0, 84, 84, 84, 84, 84, 84, 84)   # SC-51
>>> [seat_blocked(r, pos, (0, 0, 0, 0), s) for s in range(4)]
[True, True, True, False]
>>> every_side_blocked(r, pos, (0, 0, 0, 0))
True
"""

from __future__ import annotations

from collections.abc import Sequence

from pachisi.rules._position import pools_credits, side_credits
from pachisi.rules.board import HOME, LOOP_END, partner
from pachisi.rules.choices import CastleMode, KillBeforeHome, Teams
from pachisi.rules.ruleset import Ruleset

__all__ = ["every_side_blocked", "seat_blocked"]

_LAST_CAPTURING: int = LOOP_END - 1
"""p = 75, the last progress from which a piece can still land on an enemy."""


def _enemy_seats(r: Ruleset, seat: int) -> tuple[int, ...]:
    if r.teams == Teams.INDIVIDUAL:
        return tuple(s for s in range(4) if s != seat)
    return ((seat + 1) % 4, (seat + 3) % 4)


def seat_blocked(r: Ruleset, pos: Sequence[int], kills: Sequence[int], seat: int) -> bool:
    """Whether ``seat`` can never make a final step home (R-DEADLOCK "blocked").

    Always False without V-KILL-BEFORE-HOME, where no seat needs a credit.
    """
    if r.kill_before_home == KillBeforeHome.FALSE:
        return False
    own = pos[4 * seat : 4 * seat + 4]
    if all(p == HOME for p in own):
        return False
    if side_credits(r, kills, seat):
        return False
    mate = partner(seat)
    hunters = own if not pools_credits(r) else (*own, *pos[4 * mate : 4 * mate + 4])
    if not any(p <= _LAST_CAPTURING for p in hunters):
        return True
    victim_limit = LOOP_END if r.castle_mode == CastleMode.INERT else _LAST_CAPTURING
    return not any(p <= victim_limit for s in _enemy_seats(r, seat) for p in pos[4 * s : 4 * s + 4])


def every_side_blocked(r: Ruleset, pos: Sequence[int], kills: Sequence[int]) -> bool:
    """Whether every side is blocked: the R-DEADLOCK test for a game still going on."""
    if r.kill_before_home == KillBeforeHome.FALSE:
        return False
    if r.teams == Teams.INDIVIDUAL:
        return all(seat_blocked(r, pos, kills, s) for s in range(4))
    return all(seat_blocked(r, pos, kills, t) or seat_blocked(r, pos, kills, t + 2) for t in (0, 1))
