"""The pure rules core: board, cowries, rulesets, state, actions and the transition function.

The names below are the package's public API: rulesets (:func:`get_ruleset`,
:func:`parse_ruleset`, :class:`Ruleset` and the enums of its switches' choices), the game
state (:class:`State`, :class:`Event`, :class:`Outcome`), actions (:class:`Action`) and the
pure transition functions of :mod:`pachisi.rules.engine` (:func:`new_game`,
:func:`legal_actions`, :func:`apply_action`, :func:`apply_chance`, :func:`outcome`, ...), with
the board's few facts that callers ask for (:func:`partner`, :func:`person_seats`, square
names). Each is loaded from its module on first use, so that importing one module of the
package (``pachisi.rules.board``, which imports this package first) loads no other.

>>> from pachisi.rules import apply_chance, get_ruleset, legal_actions, new_game
>>> state, events = apply_chance(new_game(get_ruleset("ludii")), 3)
>>> [str(a) for a in legal_actions(state)]
['0a*3']
"""

from pachisi._lazy import lazy_exports

# Not typing.TYPE_CHECKING: importing typing alone would cost the command's start-up more
# than the rest of this module; type checkers take any TYPE_CHECKING for true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pachisi.rules.actions import (
        DECLINE,
        Action,
        ActionKind,
        IllegalActionError,
        InvalidActionError,
    )
    from pachisi.rules.board import (
        HOME,
        NUM_SEATS,
        PIECES_PER_SEAT,
        SEAT_NAMES,
        WAITING,
        parse_square,
        partner,
        person_seats,
        square_name,
        square_of,
    )
    from pachisi.rules.choices import (
        CaptureScope,
        CastleMode,
        Deadlock,
        EntryMode,
        FinishedSeat,
        FirstPieceFree,
        FirstPlayer,
        KillBeforeHome,
        LastSquareExit,
        PyadaCondition,
        PyadaUse,
        SevenFourteenNeedsPiece,
        SplitThrow,
        Stacking,
        Teams,
        ThrowUsage,
        Track,
        TripleCancel,
        TripleScope,
        UnusableThrow,
    )
    from pachisi.rules.cowries import game_rngs
    from pachisi.rules.engine import (
        apply,
        apply_action,
        apply_chance,
        chance_outcomes,
        current_player,
        is_blocked,
        is_frozen,
        legal_actions,
        new_game,
        no_side_can_win,
        outcome,
        pending_value,
        pools_credits,
        side_credits,
        side_of,
        side_seats,
        value_of,
    )
    from pachisi.rules.invariants import InvalidStateError, check_state
    from pachisi.rules.ruleset import (
        DEFAULT_RULESET,
        NAMED,
        SWITCHES,
        Ruleset,
        RulesetError,
        Switch,
        derive,
        get_ruleset,
        parse_ruleset,
        ruleset_string,
    )
    from pachisi.rules.state import CHANCE, DRAW, NO_WINNER, TERMINAL, Event, Outcome, Stage, State

__all__ = [
    "CHANCE",
    "DECLINE",
    "DEFAULT_RULESET",
    "DRAW",
    "HOME",
    "NAMED",
    "NO_WINNER",
    "NUM_SEATS",
    "PIECES_PER_SEAT",
    "SEAT_NAMES",
    "SWITCHES",
    "TERMINAL",
    "WAITING",
    "Action",
    "ActionKind",
    "CaptureScope",
    "CastleMode",
    "Deadlock",
    "EntryMode",
    "Event",
    "FinishedSeat",
    "FirstPieceFree",
    "FirstPlayer",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidStateError",
    "KillBeforeHome",
    "LastSquareExit",
    "Outcome",
    "PyadaCondition",
    "PyadaUse",
    "Ruleset",
    "RulesetError",
    "SevenFourteenNeedsPiece",
    "SplitThrow",
    "Stacking",
    "Stage",
    "State",
    "Switch",
    "Teams",
    "ThrowUsage",
    "Track",
    "TripleCancel",
    "TripleScope",
    "UnusableThrow",
    "apply",
    "apply_action",
    "apply_chance",
    "chance_outcomes",
    "check_state",
    "current_player",
    "derive",
    "game_rngs",
    "get_ruleset",
    "is_blocked",
    "is_frozen",
    "legal_actions",
    "new_game",
    "no_side_can_win",
    "outcome",
    "parse_ruleset",
    "parse_square",
    "partner",
    "pending_value",
    "person_seats",
    "pools_credits",
    "ruleset_string",
    "side_credits",
    "side_of",
    "side_seats",
    "square_name",
    "square_of",
    "value_of",
]

_HOMES = {
    **dict.fromkeys(
        ("DECLINE", "Action", "ActionKind", "IllegalActionError", "InvalidActionError"),
        "pachisi.rules.actions",
    ),
    **dict.fromkeys(
        (
            "HOME",
            "NUM_SEATS",
            "PIECES_PER_SEAT",
            "SEAT_NAMES",
            "WAITING",
            "parse_square",
            "partner",
            "person_seats",
            "square_name",
            "square_of",
        ),
        "pachisi.rules.board",
    ),
    **dict.fromkeys(
        (
            "CaptureScope",
            "CastleMode",
            "Deadlock",
            "EntryMode",
            "FinishedSeat",
            "FirstPieceFree",
            "FirstPlayer",
            "KillBeforeHome",
            "LastSquareExit",
            "PyadaCondition",
            "PyadaUse",
            "SevenFourteenNeedsPiece",
            "SplitThrow",
            "Stacking",
            "Teams",
            "ThrowUsage",
            "Track",
            "TripleCancel",
            "TripleScope",
            "UnusableThrow",
        ),
        "pachisi.rules.choices",
    ),
    "game_rngs": "pachisi.rules.cowries",
    **dict.fromkeys(
        (
            "apply",
            "apply_action",
            "apply_chance",
            "chance_outcomes",
            "current_player",
            "is_blocked",
            "is_frozen",
            "legal_actions",
            "new_game",
            "no_side_can_win",
            "outcome",
            "pending_value",
            "pools_credits",
            "side_credits",
            "side_of",
            "side_seats",
            "value_of",
        ),
        "pachisi.rules.engine",
    ),
    **dict.fromkeys(("InvalidStateError", "check_state"), "pachisi.rules.invariants"),
    **dict.fromkeys(
        (
            "DEFAULT_RULESET",
            "NAMED",
            "SWITCHES",
            "Ruleset",
            "RulesetError",
            "Switch",
            "derive",
            "get_ruleset",
            "parse_ruleset",
            "ruleset_string",
        ),
        "pachisi.rules.ruleset",
    ),
    **dict.fromkeys(
        ("CHANCE", "DRAW", "NO_WINNER", "TERMINAL", "Event", "Outcome", "Stage", "State"),
        "pachisi.rules.state",
    ),
}
"""The module each name of :data:`__all__` is imported from (the engine's transition
functions from :mod:`pachisi.rules.engine`, which re-exports a few defined in its helper
modules; the ruleset's error and switch table from :mod:`pachisi.rules.ruleset`, as
callers have always imported them)."""


# The package's names, each imported from its module on first use.
__getattr__, __dir__ = lazy_exports(__name__, _HOMES, __all__, globals())
