"""pachisi: Pachisi, India's cross-and-circle race game, played exactly and in every variant.

The rules core lives in :mod:`pachisi.rules` (pure, no I/O); :class:`Game` is the friendly
facade with ``push``/``pop``/``copy``.

The names below are loaded on first use (``from pachisi import Game`` works as ever), so
that importing a submodule, such as the ``pachisi`` command's entry point
(:mod:`pachisi.__main__`), does not load the rules first.
"""

from pachisi._lazy import lazy_exports

# Not typing.TYPE_CHECKING: importing typing alone would cost the command's start-up more
# than the rest of this module; type checkers take any TYPE_CHECKING for true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pachisi.game import CHANCE, TERMINAL, Game
    from pachisi.rules.actions import Action, ActionKind, IllegalActionError, InvalidActionError
    from pachisi.rules.ruleset import Ruleset, RulesetError, get_ruleset, parse_ruleset
    from pachisi.rules.state import Event, Outcome, Stage, State

__version__ = "0.5.0"
"""The package's version: the one place it is written (pyproject.toml reads it from here)."""

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "ActionKind",
    "Event",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "Outcome",
    "Ruleset",
    "RulesetError",
    "Stage",
    "State",
    "get_ruleset",
    "parse_ruleset",
]

_HOMES = {
    "CHANCE": "pachisi.game",
    "TERMINAL": "pachisi.game",
    "Game": "pachisi.game",
    "Action": "pachisi.rules.actions",
    "ActionKind": "pachisi.rules.actions",
    "IllegalActionError": "pachisi.rules.actions",
    "InvalidActionError": "pachisi.rules.actions",
    "Ruleset": "pachisi.rules.ruleset",
    "RulesetError": "pachisi.rules.ruleset",
    "get_ruleset": "pachisi.rules.ruleset",
    "parse_ruleset": "pachisi.rules.ruleset",
    "Event": "pachisi.rules.state",
    "Outcome": "pachisi.rules.state",
    "Stage": "pachisi.rules.state",
    "State": "pachisi.rules.state",
}
"""The module each name of :data:`__all__` comes from."""


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is a Ctrl-C: its ``KeyboardInterrupt``, or the ``RuntimeError`` that
    Python 3.11 puts around one raised while a class is being made (in a ``__set_name__``
    call, such as a dataclass field's), which a Ctrl-C while a module loads can hit."""
    return isinstance(exc, KeyboardInterrupt) or (
        isinstance(exc, RuntimeError) and isinstance(exc.__cause__, KeyboardInterrupt)
    )


# The package's names, each imported from its module on first use.
__getattr__, __dir__ = lazy_exports(__name__, _HOMES, __all__, globals())
