"""A position's worth to each side, as estimated chances of winning: the static evaluation
of the searching players and of hints.

Every side gets a *strength* in points: the progress of its pieces, a bonus per piece out
of the Charkoni and per piece home, a bonus for a piece resting on a castle where castles
protect, and minus the expected loss of its pieces that enemies could hit with their next
throw (the features and weights of :class:`pachisi.ai.bots.Weights`). Under
V-KILL-BEFORE-HOME a seat without a kill credit loses the points of the final step it
cannot make yet, and a seat that can never earn one (R-DEADLOCK "blocked") counts as far
behind. The chances are a softmax of the strengths, ``exp(s / SCALE)`` normalised over the
sides, so in a team game ``P(win) = 1 / (1 + exp(-(s_us - s_them) / SCALE))``. A game over
is worth 1 to the winner, 0 to the others, and a draw an equal share to every side.

>>> from pachisi.rules import engine
>>> from pachisi.rules.ruleset import get_ruleset
>>> chances = win_chances(engine.new_game(get_ruleset("classic")))
>>> [round(c, 3) for c in chances]
[0.5, 0.5]
"""

from __future__ import annotations

import math
from typing import Final

from pachisi.ai.bots import Weights, add_piece_worth, risk_map
from pachisi.rules import engine
from pachisi.rules.board import HOME, partner
from pachisi.rules.choices import CastleMode, KillBeforeHome
from pachisi.rules.state import DRAW, State

__all__ = ["SCALE", "side_of", "sides", "strengths", "win_chance", "win_chances"]

SCALE: Final = 150.0
"""Points of strength that make the odds ``e`` to 1. Fitted by maximum likelihood of the
logistic model to greedy-vs-greedy games (``bench/calibrate.py``: 147 on ``classic``, 205 on
``wikipedia-full``)."""

KILL_NEEDED: Final = 20.0
"""Points a seat lacks while it still needs a kill credit to go home."""
BLOCKED: Final = 400.0
"""Points a seat lacks when it can never go home (R-DEADLOCK's "blocked")."""

_WEIGHTS: Final = Weights()


def sides(state: State) -> int:
    """How many sides play: 2 teams, or 4 seats under ``teams = individual``."""
    return engine.side_count(state.ruleset)


def side_of(state: State, seat: int) -> int:
    """The side index of ``seat``: its team, or the seat itself when alone (R-TEAMS)."""
    return engine.side_of(state.ruleset, seat)


def strengths(state: State) -> list[float]:
    """Every side's strength in points (see the module's description)."""
    r = state.ruleset
    n = sides(state)
    w = _WEIGHTS
    castles_protect = r.castle_mode != CastleMode.INERT
    out = [0.0] * n
    for side in range(n):
        members = (side,) if n == 4 else (side, partner(side))
        risk = risk_map(state, members)
        total = 0.0
        for seat in members:
            for i in range(4):
                p = state.pos[4 * seat + i]
                if p != 0:
                    total = add_piece_worth(total, w, seat, p, castles_protect, risk)
            if r.kill_before_home != KillBeforeHome.FALSE:
                credit = engine.side_credits(r, state.kills, seat)
                if engine.is_blocked(state, seat):
                    total -= BLOCKED
                elif credit == 0 and any(0 < state.pos[4 * seat + i] < HOME for i in range(4)):
                    total -= KILL_NEEDED
        out[side] = total
    return out


def win_chances(state: State) -> list[float]:
    """The estimated chance that each side wins (they add up to 1)."""
    n = sides(state)
    if state.is_over:
        if state.winner == DRAW:
            return [1.0 / n] * n
        # State.winner is the winning team, or the winning seat under teams=individual:
        # the side index either way.
        return [1.0 if s == state.winner else 0.0 for s in range(n)]
    s = strengths(state)
    top = max(s)
    weights = [math.exp((x - top) / SCALE) for x in s]
    total = sum(weights)
    return [x / total for x in weights]


def win_chance(state: State, seat: int) -> float:
    """The estimated chance that the side of ``seat`` wins from ``state``."""
    return win_chances(state)[side_of(state, seat)]
