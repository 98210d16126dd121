"""The checks of a whole ruleset (RULES.md E.1): a switch set to no effect, a switch
combination that makes no sense, a throw-off or turn that need not end (R-ORDER,
R-GRACE-REPEAT), a game that could never start or be won (R-PLAYABLE-RULESET).

:func:`pachisi.rules.ruleset.derive` runs them on every ruleset it builds, so that no
ruleset that cannot be played is ever accepted; each problem found names the switches
involved, and all of them are reported together in one :class:`RulesetError`. Every
message is one of :mod:`pachisi.rules.refusals`, and docs/rules-notes.md lists them all.

This module sits above the ruleset value (:mod:`pachisi.rules.ruleset_type`) and below the
reading of ruleset strings (:mod:`pachisi.rules.ruleset`), which runs it.
"""

from __future__ import annotations

import math
from typing import Final

from pachisi.rules import _bounds, refusals
from pachisi.rules._playable import unplayable
from pachisi.rules.board import PRIVATE_SQUARES
from pachisi.rules.choices import (
    FirstPieceFree,
    FirstPlayer,
    KillBeforeHome,
    LastSquareExit,
    PyadaUse,
    Stacking,
    Teams,
    ThrowUsage,
    TripleCancel,
)
from pachisi.rules.ruleset_type import NAMED, Ruleset
from pachisi.rules.switch_text import (
    MAX_THROW_VALUE,
    SWITCHES,
    RulesetError,
    format_set,
    format_value,
)

__all__ = ["check_ruleset", "without_effect"]

_PRIVATE_SQUARES: Final = frozenset().union(*PRIVATE_SQUARES)
_VOID_VALUES: Final = frozenset({7, 14})
"""Void while a seat has no piece on the board (V-7-14-NEEDS-PIECE)."""


def without_effect(r: Ruleset, key: str, pyada_follows: bool) -> str | None:
    """Why the switch ``key``, set explicitly, has no effect in ``r`` (None if it has one).

    ``pyada_follows`` says whether ``pyada_values`` follows ``big_values`` (V-PYADA), as it
    does unless the ruleset set it apart.

    These are the cells that RULES.md E.1 marks "not applicable" (``—``): another switch
    turns the key's rule off, so setting it means nothing and is refused. A switch whose
    rule is on but that RULES.md says does nothing in some mode (``triple_scope`` in
    immediate mode, ``unusable_throw`` in collect mode, ``deadlock`` without
    kill-before-home) keeps its documented meaning and is accepted. So does
    ``pyada_can_enter=false`` without a pyada: it is how a ruleset whose pyada may enter
    (``herklots-6``) turns the pyada off, while ``pyada_can_enter=true`` without a pyada
    is refused by :func:`check_ruleset`.
    """
    if key == "six_up_value" and r.cowries != 7:
        return refusals.IDLE_SIX_UP_VALUE()  # V-GRACE-SET-7, D-08
    if key == "seven_fourteen_needs_piece" and not _VOID_VALUES & set(r.score_table):
        return refusals.IDLE_SEVEN_FOURTEEN()  # V-7-14-NEEDS-PIECE
    if key == "triple_scope" and r.triple_cancel == TripleCancel.OFF:
        return refusals.IDLE_TRIPLE_SCOPE()  # V-TRIPLE-CANCEL
    feeds_pyada = r.pyada and pyada_follows
    if key == "big_values" and r.triple_cancel != TripleCancel.GROUP and not feeds_pyada:
        return refusals.IDLE_BIG_VALUES()  # V-TRIPLE-HIGH, V-PYADA
    if key in ("pyada_values", "pyada_condition", "pyada_use") and not r.pyada:
        return refusals.IDLE_PYADA_SWITCH(key=key)  # V-PYADA
    return None


_LUDII_FREE: Final = frozenset(
    {
        "track",
        "first_player",
        "capture_bonus",
        "unusable_throw",
        "p_mouth_up",
        "players",
        "deadlock",
    }
)
"""The switches that Ludii's own flow (track=ludii) lets a ruleset change."""


def check_ruleset(r: Ruleset, problems: list[str] | None = None) -> None:
    """Refuse a switch combination that makes no sense, naming the switches involved.

    A ruleset with ``track=ludii`` must keep the named ``ludii`` ruleset's values outside
    :data:`_LUDII_FREE`. ``problems`` are reasons already found (by
    :func:`pachisi.rules.ruleset.derive`) to report with the others.
    """
    problems = list(problems or ())

    def check(bad: bool, msg: str) -> None:
        if bad:
            problems.append(msg)

    check(
        len(r.score_table) != r.cowries + 1,
        refusals.TABLE_LENGTH(
            count=len(r.score_table), cowries=r.cowries, needed=r.cowries + 1
        ),  # R-THROW-TABLE
    )
    table = set(r.score_table)
    for key in ("reroll_values", "entry_values"):
        extra = getattr(r, key) - table
        check(bool(extra), refusals.VALUES_NOT_THROWN(key=key, values=format_set(extra)))
    if isinstance(r.last_square_exit, frozenset):
        extra = r.last_square_exit - table
        check(bool(extra), refusals.EXIT_NOT_THROWN(values=format_set(extra)))
    check(r.last_square_exit == LastSquareExit.LUDII and not r.ludii, refusals.LUDII_EXIT())
    check(
        r.first_piece_free == FirstPieceFree.LUDII_FORCED and not r.ludii,
        refusals.LUDII_FIRST_PIECE(),
    )
    if r.ludii:
        # Ludii's flow (RULES.md E.2) consults only these switches; any other value would
        # be silently ignored, so it is refused.
        ludii = NAMED["ludii"]
        for switch in SWITCHES:
            key = switch.key
            got = getattr(r, key)
            if key not in _LUDII_FREE and got != getattr(ludii, key):
                check(True, refusals.LUDII_FLOW(key=key, value=format_value(key, got)))
    check(
        r.recapture_annul and r.kill_before_home == KillBeforeHome.FALSE,
        refusals.ANNUL_WITHOUT_KILL(),  # V-RECAPTURE-ANNUL
    )
    check(
        r.pyada_use == PyadaUse.ATTACHED and r.throw_usage == ThrowUsage.COLLECT,
        refusals.ATTACHED_IN_COLLECT(),  # V-PYADA, C.8
    )
    check(r.pyada_can_enter and not r.pyada, refusals.PYADA_ENTRY_WITHOUT_PYADA())
    check(
        r.players == 2 and r.teams == Teams.INDIVIDUAL,
        refusals.TWO_PLAYERS_ALONE(),  # V-TWO-PLAYER, V-INDIVIDUAL
    )
    check(r.blockade and r.stacking == Stacking.NONE, refusals.BLOCKADE_WITHOUT_STACKING())
    check(
        r.blockade and isinstance(r.stacking, frozenset) and r.stacking <= _PRIVATE_SQUARES,
        refusals.BLOCKADE_ON_PRIVATE_SQUARES(),
    )
    check(
        r.pyada and not r.pyada_values & table,
        refusals.PYADA_NEVER_EARNED(values=format_set(r.pyada_values)),
    )
    # No check ties blockade, stack_immune and castle_mode=coexist together: under all three
    # a lone enemy piece off the castles is still captured (R-CAPTURE, V-STACK-IMMUNE), a
    # stack of two or more only by a group landing (V-BLOCKADE, split_throw=group), and
    # nobody on a castle (R-CASTLE-SAFE); both engines play it alike (tests/fast).
    check(
        any(not 1 <= v <= MAX_THROW_VALUE for v in r.score_table),
        refusals.TABLE_VALUE_RANGE(limit=MAX_THROW_VALUE),
    )
    check(r.grace_must_enter and not r.entry_values, refusals.NO_ENTRY_GRACE())
    if not problems:
        problems += _endless_throwing(r)
    if not problems:
        problems += unplayable(r)
    if problems:
        raise RulesetError(refusals.INVALID(problems=refusals.PROBLEM_SEPARATOR.join(problems)))


def _endless_throwing(r: Ruleset) -> list[str]:
    """Refuse a throw-off or a series of throws that can go on forever, or is expected to
    take more than ``MAX_EXPECTED_THROWS`` throws (R-ORDER, R-GRACE-REPEAT)."""
    limit = _bounds.MAX_EXPECTED_THROWS
    problems: list[str] = []
    if r.first_player == FirstPlayer.THROW_OFF:
        e = _bounds.expected_throwoff_throws(r)
        if e is None or e > limit:
            problems.append(
                refusals.LONG_THROW_OFF(
                    throws=_throws(e),
                    limit=limit,
                    table=format_value("score_table", r.score_table),
                    p=r.p_mouth_up,
                )
            )
    e = _bounds.expected_series_throws(r)
    values = format_value("reroll_values", r.reroll_values)
    if e is None:
        if _table_rerolls(r):
            problems.append(
                refusals.ENDLESS_SERIES(
                    values=values,
                    table=format_value("score_table", r.score_table),
                    triple_cancel=r.triple_cancel,
                )
            )
        else:
            # Some throw stops a series, but only a 7 or 14, void and thrown again while the
            # seat has no piece on the board (V-7-14-NEEDS-PIECE rethrow_only).
            problems.append(
                refusals.ENDLESS_VOID_SERIES(values=values, triple_cancel=r.triple_cancel)
            )
    elif e > limit:
        problems.append(
            refusals.LONG_SERIES(throws=_throws(e), limit=limit, values=values, p=r.p_mouth_up)
        )
    return problems


def _table_rerolls(r: Ruleset) -> bool:
    """Whether every value of the score table gives another throw (R-GRACE-REPEAT)."""
    return set(r.score_table) <= r.reroll_values


def _throws(expected: float | None) -> str:
    if expected is None:
        return "forever"
    if expected == math.inf:
        return "practically forever"
    return f"{expected:,.0f} throws on average"
