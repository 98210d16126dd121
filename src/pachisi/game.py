"""The :class:`Game` facade: a friendly, mutable wrapper over the pure rules engine.

It keeps a stack of immutable states, so ``push``/``pop`` are O(1) and ``copy`` is cheap,
in the manner of python-chess's ``Board``:

>>> import random
>>> game = Game("classic")
>>> rng = random.Random(7)
>>> while game.current_player() == CHANCE and not game.is_over():
...     _ = game.throw(rng)
>>> game.current_player() in range(4)
True
>>> game.pop() is not None
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from pachisi.rules import cowries, engine
from pachisi.rules.actions import Action, IllegalActionError
from pachisi.rules.ruleset import Ruleset, parse_ruleset
from pachisi.rules.state import CHANCE, TERMINAL, Event, Outcome, State

__all__ = ["CHANCE", "TERMINAL", "Game", "Move"]

Move = Action | int
"""What can be pushed: an :class:`Action` for a seat, or a throw ``k`` (mouths up) at chance."""


class Game:
    """A game in progress: the current state, the moves that led to it, and their events."""

    def __init__(self, ruleset: Ruleset | str = "classic", *, state: State | None = None) -> None:
        if isinstance(ruleset, str):
            ruleset = parse_ruleset(ruleset)
        self.ruleset: Ruleset = state.ruleset if state is not None else ruleset
        start = state if state is not None else engine.new_game(self.ruleset)
        self._states: list[State] = [start]
        self._moves: list[Move] = []
        self._events: list[list[Event]] = []

    # ----------------------------------------------------------------- reading

    @property
    def state(self) -> State:
        """The current immutable state."""
        return self._states[-1]

    @property
    def start(self) -> State:
        """The state the game started from."""
        return self._states[0]

    @property
    def moves(self) -> Sequence[Move]:
        """Every throw and action pushed so far, in order."""
        return tuple(self._moves)

    @property
    def last_events(self) -> list[Event]:
        """The events of the last push (empty at the start)."""
        return list(self._events[-1]) if self._events else []

    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` when a throw is due, :data:`TERMINAL` when over."""
        return engine.current_player(self.state)

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the seat to act (empty at chance nodes)."""
        return engine.legal_actions(self.state)

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """The possible throws ``k`` and their exact probabilities (empty unless chance)."""
        return engine.chance_outcomes(self.state)

    def is_over(self) -> bool:
        return self.state.is_over

    def outcome(self) -> Outcome | None:
        return engine.outcome(self.state)

    # ----------------------------------------------------------------- changing

    def push(self, move: Move) -> list[Event]:
        """Play a throw or an action; raises (and changes nothing) if it is not legal."""
        new, events = engine.apply(self.state, move)
        self._states.append(new)
        self._moves.append(move)
        self._events.append(events)
        return events

    def push_text(self, text: str) -> list[Event]:
        """Play an action given in its text form (see :mod:`pachisi.rules.actions`)."""
        if self.current_player() == CHANCE:
            raise IllegalActionError("a throw is due, not an action")
        return self.push(Action.parse(text))

    def pop(self) -> Move:
        """Take back the last throw or action and return it."""
        if not self._moves:
            raise IndexError("pop from a game with no moves")
        self._states.pop()
        self._events.pop()
        return self._moves.pop()

    def throw(self, rng: random.Random) -> list[Event]:
        """Throw the cowries with the caller's generator and push the result."""
        if self.current_player() != CHANCE:
            raise IllegalActionError("no throw is due")
        r = self.state.ruleset
        return self.push(cowries.throw(rng, r.cowries, r.p_mouth_up))

    def copy(self, *, stack: bool = True) -> Game:
        """A copy; with ``stack=False`` only the current state is kept (cheap)."""
        other = Game.__new__(Game)
        other.ruleset = self.ruleset
        if stack:
            other._states = list(self._states)
            other._moves = list(self._moves)
            other._events = list(self._events)
        else:
            other._states = [self.state]
            other._moves = []
            other._events = []
        return other
