"""The game record as an object: :class:`GameRecord`, its standard tags and results.

docs/notation.md section 2 is the reference for its text form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from pachisi.rules import engine
from pachisi.rules.actions import Action
from pachisi.rules.state import State

__all__ = ["DRAWN", "ROSTER", "UNFINISHED", "GameRecord", "result_of"]

ROSTER: Final = ("Ruleset", "Seat0", "Seat1", "Seat2", "Seat3", "Seed", "Date", "Result")
"""The tags every record should carry, written first and in this order (``Start`` last)."""
UNFINISHED: Final = "*"
DRAWN: Final = "draw"
"""The ``Result`` of a game that ended as a draw (R-DEADLOCK)."""


@dataclass
class GameRecord:
    """A game as a PGN-like record: tags, and every throw and action in order.

    ``moves`` holds an :class:`~pachisi.rules.actions.Action` for each choice of a seat
    and an ``int`` for each throw (the number of cowries mouth up). ``tags`` carries at
    least ``Ruleset`` (or ``Start``) and normally the roster of :data:`ROSTER`; ``Start``
    holds a position string when the game did not begin at ``new_game``.
    """

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[Action | int] = field(default_factory=list)


def result_of(state: State) -> str:
    """The ``Result`` text of a state: ``team0``/``team1``, ``seat0``..``seat3``, ``draw``
    or ``*``."""
    outcome = engine.outcome(state)
    if outcome is None:
        return UNFINISHED
    if outcome.winner is None:
        return DRAWN
    return f"{'seat' if outcome.individual else 'team'}{outcome.winner}"


def move_text(move: Action | int) -> str:
    """A move as the movetext writes it: the action's text, or ``t<k>`` for a throw."""
    if isinstance(move, Action):
        return str(move)
    if abs(move) >= 10**9:
        # Python will not even write an int past 4,300 digits; no throw is that big anyway.
        return f"t<a {move.bit_length()}-bit number>"
    return f"t{int(move)}"  # int(): a bool is an int, but is written True
