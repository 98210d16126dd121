"""pachisi: Pachisi, India's cross-and-circle race game, played exactly and in every variant.

The rules core lives in :mod:`pachisi.rules` (pure, no I/O); :class:`Game` is the friendly
facade with ``push``/``pop``/``copy``.
"""

from pachisi.game import CHANCE, TERMINAL, Game
from pachisi.rules.actions import Action, ActionKind, IllegalActionError, InvalidActionError
from pachisi.rules.ruleset import Ruleset, RulesetError, get_ruleset, parse_ruleset
from pachisi.rules.state import Event, Outcome, Stage, State

__version__ = "0.1.0"

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
