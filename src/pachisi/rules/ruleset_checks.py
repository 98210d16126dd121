"""The checks of a whole ruleset (RULES.md E.1): a switch set to no effect, a switch
combination that makes no sense, a throw-off or turn that need not end (R-ORDER,
R-GRACE-REPEAT), a game that could never start or be won (R-PLAYABLE-RULESET).

:func:`pachisi.rules.ruleset.derive` runs them on every ruleset it builds, so that no
ruleset that cannot be played is ever accepted; each problem found names the switches
involved, and all of them are reported together in one :class:`RulesetError`.

:mod:`pachisi.rules.ruleset` imports this module, so it reads :class:`Ruleset` only for
type checking, and the reference ruleset of Ludii's flow comes in as an argument.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from pachisi.rules import _bounds
from pachisi.rules._playable import unplayable
from pachisi.rules.board import PRIVATE_SQUARES
from pachisi.rules.choices import (
    CastleMode,
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
from pachisi.rules.switch_text import (
    MAX_THROW_VALUE,
    SWITCHES,
    RulesetError,
    format_set,
    format_value,
)

if TYPE_CHECKING:
    from pachisi.rules.ruleset import Ruleset

__all__ = ["check_ruleset", "without_effect"]

_PRIVATE_SQUARES: Final = frozenset().union(*PRIVATE_SQUARES)


def without_effect(r: Ruleset, key: str, pyada_follows: bool) -> str | None:
    """Why the switch ``key``, set explicitly, has no effect in ``r`` (None if it has one).

    ``pyada_follows`` says whether ``pyada_values`` follows ``big_values`` (V-PYADA), as it
    does unless the ruleset set it apart.

    These are the cells that RULES.md E.1 marks "not applicable" (``—``): another switch
    turns the key's rule off, so setting it means nothing and is refused. A switch whose
    rule is on but that RULES.md says does nothing in some mode (``triple_scope`` in
    immediate mode, ``unusable_throw`` in collect mode, ``deadlock`` without
    kill-before-home) keeps its documented meaning and is accepted.
    """
    if key == "six_up_value" and r.cowries != 7:
        return "six_up_value is the value of 6 mouths up with 7 cowries; it needs cowries=7"
    if key == "seven_fourteen_needs_piece" and not {7, 14} & set(r.score_table):
        return "seven_fourteen_needs_piece needs a 7 or a 14 in score_table"
    if key == "triple_scope" and r.triple_cancel == TripleCancel.OFF:
        return "triple_scope needs triple_cancel=group or same"
    feeds_pyada = r.pyada and pyada_follows
    if key == "big_values" and r.triple_cancel != TripleCancel.GROUP and not feeds_pyada:
        return "big_values needs triple_cancel=group (or pyada=true, whose values follow it)"
    if key in ("pyada_values", "pyada_condition", "pyada_use") and not r.pyada:
        return f"{key} needs pyada=true"
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


def check_ruleset(r: Ruleset, ludii: Ruleset, problems: list[str] | None = None) -> None:
    """Refuse a switch combination that makes no sense, naming the switches involved.

    ``ludii`` is the named ruleset of Ludii's flow, whose values a ruleset with
    ``track=ludii`` must keep outside :data:`_LUDII_FREE`. ``problems`` are reasons already
    found (by :func:`pachisi.rules.ruleset.derive`) to report with the others.
    """
    problems = list(problems or ())

    def check(bad: bool, msg: str) -> None:
        if bad:
            problems.append(msg)

    check(
        len(r.score_table) != r.cowries + 1,
        f"score_table has {len(r.score_table)} values but cowries={r.cowries} needs "
        f"{r.cowries + 1} (k = 0..{r.cowries} mouths up)",
    )
    table = set(r.score_table)
    for key in ("reroll_values", "entry_values"):
        extra = getattr(r, key) - table
        check(bool(extra), f"{key} names {format_set(extra)}, which no throw in score_table has")
    if isinstance(r.last_square_exit, frozenset):
        extra = r.last_square_exit - table
        check(bool(extra), f"last_square_exit names {format_set(extra)}, not in score_table")
    check(
        r.last_square_exit == LastSquareExit.LUDII and not r.ludii,
        "last_square_exit=ludii needs track=ludii",
    )
    check(
        r.first_piece_free == FirstPieceFree.LUDII_FORCED and not r.ludii,
        "first_piece_free=ludii_forced needs track=ludii",
    )
    if r.ludii:
        # Ludii's flow (RULES.md E.2) consults only these switches; any other value would
        # be silently ignored, so it is refused.
        for switch in SWITCHES:
            key = switch.key
            got = getattr(r, key)
            if key not in _LUDII_FREE and got != getattr(ludii, key):
                check(
                    True,
                    f"track=ludii reproduces Ludii's flow, which has no "
                    f"{key}={format_value(key, got)}",
                )
    check(
        r.recapture_annul and r.kill_before_home == KillBeforeHome.FALSE,
        "recapture_annul=true is only meaningful with kill_before_home=seat or team",
    )
    check(
        r.pyada_use == PyadaUse.ATTACHED and r.throw_usage == ThrowUsage.COLLECT,
        "pyada_use=attached is valid only with throw_usage=immediate",
    )
    check(
        r.pyada_can_enter and not r.pyada,
        "pyada_can_enter=true needs pyada=true",
    )
    check(
        r.players == 2 and r.teams == Teams.INDIVIDUAL,
        "players=2 (two people with two seats each) cannot be played with teams=individual",
    )
    check(
        r.blockade and r.stacking == Stacking.NONE,
        "blockade=true needs two friendly pieces on one square, which stacking=none never "
        "allows (V-BLOCKADE, V-STACK-RESTRICTED)",
    )
    check(
        r.blockade and isinstance(r.stacking, frozenset) and r.stacking <= _PRIVATE_SQUARES,
        "blockade=true needs two friendly pieces on a loop square, and the stacking set "
        "allows sharing only on private squares, where no blockade forms (V-BLOCKADE)",
    )
    check(
        r.pyada and not r.pyada_values & table,
        f"pyada=true with pyada_values={format_set(r.pyada_values)}: no throw in "
        f"score_table can earn a pyada (V-PYADA)",
    )
    check(
        r.blockade and r.castle_mode == CastleMode.COEXIST and r.stack_immune,
        "blockade=true with stack_immune=true and castle_mode=coexist leaves no capture rule",
    )
    check(
        any(not 1 <= v <= MAX_THROW_VALUE for v in r.score_table),
        f"score_table values must be 1..{MAX_THROW_VALUE}",
    )
    check(
        r.grace_must_enter and not r.entry_values,
        "grace_must_enter=true needs entry_values (no throw can enter a piece)",
    )
    if not problems:
        problems += _endless_throwing(r)
    if not problems:
        problems += unplayable(r)
    if problems:
        raise RulesetError("invalid ruleset: " + "; ".join(problems))


def _endless_throwing(r: Ruleset) -> list[str]:
    """Refuse a throw-off or a series of throws that can go on forever, or is expected to
    take more than ``MAX_EXPECTED_THROWS`` throws (R-ORDER, R-GRACE-REPEAT)."""
    limit = _bounds.MAX_EXPECTED_THROWS
    problems: list[str] = []
    if r.first_player == FirstPlayer.THROW_OFF:
        e = _bounds.expected_throwoff_throws(r)
        if e is None or e > limit:
            problems.append(
                f"the throw-off would take {_throws(e)} (the limit is {limit}): "
                f"score_table={format_value('score_table', r.score_table)} with "
                f"p_mouth_up={r.p_mouth_up} gives tie after tie"
            )
    e = _bounds.expected_series_throws(r)
    if e is None:
        problems.append(
            "a turn could go on forever: every throw gives another throw "
            f"(reroll_values={format_value('reroll_values', r.reroll_values)}, "
            f"score_table={format_value('score_table', r.score_table)}) and "
            f"triple_cancel={r.triple_cancel} does not stop it"
        )
    elif e > limit:
        problems.append(
            f"a turn would take {_throws(e)} (the limit is {limit}): "
            f"reroll_values={format_value('reroll_values', r.reroll_values)} with "
            f"p_mouth_up={r.p_mouth_up} gives another throw too often"
        )
    return problems


def _throws(expected: float | None) -> str:
    if expected is None:
        return "forever"
    if expected == math.inf:
        return "practically forever"
    return f"{expected:,.0f} throws on average"
