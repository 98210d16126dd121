"""Every invariant the engine keeps, checked: a state no game can reach is refused.

The transitions of :mod:`pachisi.rules.engine` only ever produce states that keep the
invariants below; a state built by hand or read from text may break them, and then the
engine could act on a position with no legal action, or one that no game reaches.
:func:`check_state` refuses such a state with :class:`InvalidStateError`, which names the
field (as the position string calls it, docs/notation.md) and the reason. The position
reader calls it for every position it reads.

What is checked, by group (rule IDs in brackets):

* **pieces**: progresses 0..84, none on p 1..12 under ``track=ludii`` [R-TRACK]; a seat with
  a piece out, or a kill credit (0..999,999,999), has entered [R-FIRST-PIECE-FREE,
  V-KILL-BEFORE-HOME]; enemies share a square only where the rules
  let them (a castle under ``coexist``, a mixed stack under ``top_one``) [R-CASTLE-BLOCK,
  R-CAPTURE]; friendly pieces share only where stacking allows [V-STACK-RESTRICTED].
* **board memory**: second laps only under ``extra_lap`` and on p >= 8 [V-EXTRA-LAP]; the
  stack order lists exactly the pieces on the board, only under ``top_one`` [C.11]; capture
  records only under ``recapture_annul``, each with its capturing pieces on its square,
  enemy victims, a turn within its window, and a standing kill credit [V-RECAPTURE-ANNUL].
  (A piece home under kill-before-home has had a credit, but RULES.md's own scenarios,
  SC-26 and SC-51, set up pieces home with none, so that is not required.)
* **result**: a finished game has a winner whose side is home, or a draw that R-DEADLOCK
  or R-FROZEN gives, and no turn in progress; a game going on has no side home [R-TEAM-WIN,
  V-INDIVIDUAL-WIN] and, under ``deadlock=draw``, a side that can still win [R-DEADLOCK]
  and a piece that can still move [R-FROZEN]; a draw is one of those two.
* **stage and turn**: the throw-off happens before any piece moves, in seat order with ties
  thrown again [R-ORDER]; a finished seat takes no turn under ``skip`` [R-FINISHED-SEAT];
  every seat has entered after Ludii's first phase [E.2]; the pending throw, re-throw,
  capture, pyada, collected throws, triple run, split and phase fields are what the
  stage's transition leaves [C.10a, C.10b].
* **a move**: the position has a legal action, a chance outcome or an outcome.

The checks live in two modules, split where the board ends and the turn begins:
:mod:`pachisi.rules.board_invariants` (pieces, board memory, result) and
:mod:`pachisi.rules.turn_invariants` (the throw-off, stage and turn, a move), which share
:mod:`pachisi.rules.invalid_state` (:class:`InvalidStateError` and the check that no turn
is in progress). This module runs them in order; callers import :func:`check_state` and
:class:`InvalidStateError` from here.

>>> from pachisi.rules.ruleset import get_ruleset
>>> from pachisi.rules.state import Stage, State
>>> check_state(State(get_ruleset("classic"), (0,) * 16, Stage.THROW_OFF, 0,
...                   throwoff=(-1, -1, -1, -1)))
>>> home = (84,) * 4 + (0,) * 4
>>> try:
...     check_state(State(get_ruleset("classic"), home * 2, Stage.THROW, 1, entered=0b0101))
... except InvalidStateError as exc:
...     print(exc.field, "-", exc.reason)
pieces - team 0 has all 8 pieces home, so the game is over (R-TEAM-WIN)
"""

from __future__ import annotations

from pachisi.rules.board import NUM_SEATS

# MAX_KILLS was defined here before the checks moved out; it stays importable from here.
from pachisi.rules.board_invariants import MAX_KILLS as MAX_KILLS
from pachisi.rules.board_invariants import check_board_memory, check_pieces, check_result
from pachisi.rules.invalid_state import InvalidStateError, fail
from pachisi.rules.state import Stage, State
from pachisi.rules.turn_invariants import check_a_move_exists, check_stage, check_throw_off

__all__ = ["InvalidStateError", "check_state"]


def check_state(state: State) -> None:
    """Raise :class:`InvalidStateError` unless ``state`` keeps every invariant."""
    if not 0 <= state.seat < NUM_SEATS:
        raise fail("side", "the seat is 0..3")
    if state.turn < 1:
        raise fail("turn", "turns count from 1")
    if state.stage is Stage.THROW_OFF:
        # Before the throw-off nothing has moved, which says more than any check of pieces.
        check_throw_off(state)
    check_pieces(state)
    check_board_memory(state)
    if state.stage is not Stage.THROW_OFF:
        check_result(state)
        check_stage(state)
    check_a_move_exists(state)
