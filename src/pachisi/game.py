"""The :class:`Game` facade: a friendly, mutable wrapper over the pure rules engine.

It keeps the moves played and enough immutable states to take any of them back, in the
manner of python-chess's ``Board``. ``push`` and ``pop`` are O(1) amortised, and the memory
a long game takes is a few bytes a move: recent states are kept whole, older ones only
every :data:`CHECKPOINT_EVERY` moves, and ``pop`` replays from the checkpoint below when it
needs one of those.

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
from functools import lru_cache
from typing import Final

from pachisi.rules import cowries, engine
from pachisi.rules.actions import Action, IllegalActionError
from pachisi.rules.ruleset import Ruleset, parse_ruleset
from pachisi.rules.state import CHANCE, TERMINAL, Event, Outcome, State

__all__ = ["CHANCE", "CHECKPOINT_EVERY", "TERMINAL", "Game", "Move"]

Move = Action | int
"""What can be pushed: an :class:`Action` for a seat, or a throw ``k`` (mouths up) at chance."""

CHECKPOINT_EVERY: Final = 256
"""How many moves apart the kept states of a game's older history are. Fewer makes ``pop``
through old history cheaper (it replays at most this many moves) and the game larger."""


@lru_cache(maxsize=4096)
def _shared(action: Action) -> Action:
    """The first action seen equal to ``action``: a long game holds each distinct action
    once (it has a few hundred), not once per time it was played."""
    return action


_Step = tuple[State, list[Event]]
"""A state and the events of the move that led to it (no events for the start)."""


class Game:
    """A game in progress: the current state, the moves that led to it, and their events."""

    def __init__(self, ruleset: Ruleset | str = "classic", *, state: State | None = None) -> None:
        if isinstance(ruleset, str):
            ruleset = parse_ruleset(ruleset)
        self.ruleset: Ruleset = state.ruleset if state is not None else ruleset
        start = state if state is not None else engine.new_game(self.ruleset)
        self._moves: list[Move] = []
        # Keeping every state (and its events) would cost about 500 bytes a move, 250 times a
        # record's text. So: ``_marks[i]`` is the step after move ``i * CHECKPOINT_EVERY``
        # (the start for i = 0), and ``_recent`` holds the steps after each move since the
        # mark at ``_base``, fewer than ``2 * CHECKPOINT_EVERY`` of them.
        self._marks: list[_Step] = [(start, [])]
        self._recent: list[_Step] = []
        self._base = 0

    # ----------------------------------------------------------------- reading

    @property
    def state(self) -> State:
        """The current immutable state."""
        return self._last()[0]

    @property
    def start(self) -> State:
        """The state the game started from."""
        return self._marks[0][0]

    @property
    def moves(self) -> Sequence[Move]:
        """Every throw and action pushed so far, in order."""
        return tuple(self._moves)

    @property
    def last_events(self) -> list[Event]:
        """The events of the last push (empty at the start)."""
        return list(self._last()[1])

    def _last(self) -> _Step:
        # With no recent steps the game stands exactly on its last mark (``_base`` moves).
        return self._recent[-1] if self._recent else self._marks[-1]

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
        # Only actions: throws are small ints, which Python shares already.
        self._moves.append(_shared(move) if isinstance(move, Action) else move)
        self._recent.append((new, events))
        if len(self._moves) % CHECKPOINT_EVERY == 0:
            self._marks.append((new, events))
        if len(self._recent) == 2 * CHECKPOINT_EVERY:
            # Forget the older half: the newest mark below it still covers those moves.
            del self._recent[:CHECKPOINT_EVERY]
            self._base += CHECKPOINT_EVERY
        return events

    def pop(self) -> Move:
        """Take back the last throw or action and return it."""
        if not self._moves:
            raise IndexError("pop from a game with no moves")
        if len(self._moves) % CHECKPOINT_EVERY == 0:
            self._marks.pop()
        if not self._recent:
            # The game stood on the mark just dropped: replay up to the move before from the
            # mark below. This happens at most once every CHECKPOINT_EVERY pops.
            self._base -= CHECKPOINT_EVERY
            state = self._marks[-1][0]
            for move in self._moves[self._base : -1]:
                state, events = engine.apply(state, move)
                self._recent.append((state, events))
        else:
            self._recent.pop()
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
            other._moves = list(self._moves)
            other._marks = list(self._marks)
            other._recent = list(self._recent)
            other._base = self._base
        else:
            other._moves = []
            other._marks = [(self.state, [])]
            other._recent = []
            other._base = 0
        return other
