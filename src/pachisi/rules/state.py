"""The immutable game state (RULES.md C.11), its events and its outcome.

A :class:`State` is a compact, hashable value: 16 piece progresses and a few small fields
for the turn in progress. Everything about a game in progress is in it, so the position
string (:mod:`pachisi.notation`) can hold it whole and a state can be copied for free.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import NamedTuple

from pachisi.rules.board import HOME, LAST_SQUARE, NUM_SEATS, PIECES_PER_SEAT
from pachisi.rules.ruleset import Ruleset


class Stage(IntEnum):
    """Which kind of decision the state is waiting for."""

    THROW_OFF = 0
    """Chance: a seat throws to decide who begins (R-ORDER)."""
    THROW = 1
    """Chance: the seat to move throws the cowries."""
    ACT = 2
    """The seat uses or declines the pending throw (immediate mode, C.10a)."""
    PYADA = 3
    """The seat uses or declines the pyada step earned by the last throw (C.10a 7b)."""
    SPEND = 4
    """The seat spends its collected throws, or stops (collect mode, C.10b)."""
    OVER = 5
    """The game has ended."""


CHANCE = -1
"""``current_player()`` while a throw is due."""
TERMINAL = -4
"""``current_player()`` once the game is over."""
NO_WINNER = -1
"""``State.winner`` while the game goes on."""
DRAW = -2
"""``State.winner`` of a game that ended as a draw (R-DEADLOCK, R-FROZEN)."""


@dataclass(frozen=True, slots=True)
class CaptureRecord:
    """One capture, for V-RECAPTURE-ANNUL: who captured, with which pieces, where, whom.

    ``pieces`` is a bitmask of the capturing pieces (global ids) that still stand on
    ``square``; ``victims`` a bitmask of the victim seats whose window is still open.
    """

    capturer: int
    pieces: int
    square: int
    victims: int
    turn: int


class Memo:
    """A slot where the engine memoises what it works out about a state: its legal
    actions, and whether its board is frozen (R-FROZEN).

    It compares equal to anything and hashes like ``None``, so it never takes part in a
    state's value: two states with the same fields are equal whether or not either has
    its legal actions worked out already.
    """

    __slots__ = ("actions", "frozen")

    def __init__(self) -> None:
        self.actions: tuple[object, ...] | None = None
        self.frozen: bool | None = None
        """R-FROZEN's answer for the state's board, once known."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash(None)

    def __repr__(self) -> str:
        return "Memo()"


class State(NamedTuple):
    """A whole Pachisi position, including the turn in progress. Never mutated.

    ``pos[4 * seat + i]`` is the progress of piece ``i`` (a..d) of ``seat``: 0 waiting,
    1..83 on a square, 84 home. Other fields describe the turn; see docs/notation.md.
    A state is an immutable named tuple, cheap to create and to keep for search.
    """

    ruleset: Ruleset
    pos: tuple[int, ...]
    stage: Stage
    seat: int
    turn: int = 1
    order: tuple[int, ...] = ()
    """Pieces on the board in arrival order (C.11), kept only with ``capture_scope=top_one``."""
    laps: int = 0
    """Bitmask of pieces on their second lap (V-EXTRA-LAP)."""
    entered: int = 0
    """Bitmask of seats that have brought a piece out (R-FIRST-PIECE-FREE)."""
    kills: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Kill credits per seat (V-KILL-BEFORE-HOME)."""
    records: tuple[CaptureRecord, ...] = ()
    throw_k: int = -1
    """Mouths up of the throw being used (stage ACT/PYADA); -1 otherwise."""
    again: bool = False
    """The pending throw gives another throw (R-GRACE-REPEAT)."""
    captured: bool = False
    """A capture happened with this throw / in this spending phase (V-CAPTURE-BONUS)."""
    pyadas: int = 0
    """Pyadas earned and not yet used or declined (V-PYADA)."""
    items: tuple[int, ...] = ()
    """Collect mode: throws collected in this throwing phase, then the items left to spend."""
    run: tuple[int, int] = (0, 0)
    """Triple-cancel run: (class or value, length) (V-TRIPLE-CANCEL)."""
    split_left: int = 0
    """Steps of a split throw still to be shared out (V-SPLIT-THROW)."""
    split_value: int = 0
    """The value of the throw being split."""
    split_used: int = 0
    """Bitmask of the mover's pieces (0..3) already moved by the split throw."""
    phase_flags: int = 0
    """Collect mode, at the start of the throwing phase: 1 = a piece on the board,
    2 = no waiting piece (V-7-14-NEEDS-PIECE, V-PYADA)."""
    throwoff: tuple[int, ...] = ()
    """Throw-off (R-ORDER): per seat the value thrown this round, -1 still to throw,
    -2 out of the throw-off."""
    winner: int = NO_WINNER
    """When over: the winning team (0 = seats 0+2, 1 = seats 1+3), or seat under
    ``teams=individual``; :data:`DRAW` for a drawn game (R-DEADLOCK, R-FROZEN)."""
    memo: Memo | None = None
    """Where the engine memoises the legal actions (derived data; never part of the value)."""

    def piece(self, seat: int, index: int) -> int:
        """The progress of piece ``index`` (0..3) of ``seat``."""
        return self.pos[PIECES_PER_SEAT * seat + index]

    def seat_pieces(self, seat: int) -> tuple[int, ...]:
        """The four progresses of ``seat``'s pieces, a..d."""
        return self.pos[PIECES_PER_SEAT * seat : PIECES_PER_SEAT * seat + PIECES_PER_SEAT]

    def seat_finished(self, seat: int) -> bool:
        """Whether all four of ``seat``'s pieces are home."""
        return all(p == HOME for p in self.seat_pieces(seat))

    def on_board(self, seat: int) -> bool:
        """Whether ``seat`` has a piece on a square (p 1..83)."""
        return any(1 <= p <= LAST_SQUARE for p in self.seat_pieces(seat))

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.stage is Stage.OVER


class Event(NamedTuple):
    """Something a transition did, for UIs to animate and logs to keep.

    ``kind`` is one of: ``throw_off``, ``begins``, ``throw``, ``void``, ``cancel``,
    ``enter``, ``move``, ``capture``, ``finish``, ``decline``, ``pyada``, ``again``,
    ``annul``, ``turn``, ``win``, ``draw``. Pieces are global ids (``4 * seat + index``).
    A ``draw`` event ends a game that no side can win any more (R-DEADLOCK) or in which no
    piece can ever move again (R-FROZEN); its ``seat`` is -1.

    ``frm``/``to`` are progresses for ``enter`` and ``move`` (84 = home); for ``capture`` and
    ``annul``, ``to`` is the square (its id) and ``pieces`` lists the captured pieces. ``seat``
    is the seat concerned: the thrower, the mover, the capturer, the seat whose kill credit
    is annulled, the seat whose turn begins, or the winning team (seat under individual play).
    ``value`` is a throw's value (the number of pyadas for a collect-mode ``pyada``) and ``k``
    its number of cowries mouth up.
    """

    kind: str
    seat: int = -1
    piece: int = -1
    frm: int = -1
    to: int = -1
    value: int = 0
    pieces: tuple[int, ...] = ()
    k: int = -1
    """For throws: the number of cowries mouth up."""

    def __str__(self) -> str:
        parts = [self.kind]
        if self.seat >= 0:
            parts.append(f"seat={self.seat}")
        if self.piece >= 0:
            parts.append(f"piece={self.piece // 4}{'abcd'[self.piece % 4]}")
        if self.frm >= 0 or self.to >= 0:
            parts.append(f"{self.frm}->{self.to}")
        if self.value:
            parts.append(f"value={self.value}")
        if self.pieces:
            parts.append("pieces=" + ",".join(f"{p // 4}{'abcd'[p % 4]}" for p in self.pieces))
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: the winning team and its seats (or the winning seat
    under ``teams=individual``), or a draw with no winner and no seats, with the rule that
    ended it: ``R-DEADLOCK`` (no side can win any more) or ``R-FROZEN`` (no piece can ever
    move again)."""

    winner: int | None
    seats: tuple[int, ...]
    individual: bool
    rule: str = ""
    """For a draw, ``R-DEADLOCK`` or ``R-FROZEN`` (a board that is both counts as the
    first, which the engine checks first); empty for a win."""

    @property
    def is_draw(self) -> bool:
        """Whether the game ended with no winner (R-DEADLOCK, R-FROZEN)."""
        return self.winner is None

    def __str__(self) -> str:
        if self.winner is None:
            if self.rule == "R-FROZEN":
                return "draw: no piece can move any more"
            return "draw: no side can win any more"
        if self.individual:
            return f"seat {self.winner} wins"
        return f"team {self.winner} (seats {' and '.join(map(str, self.seats))}) wins"


def initial_pos() -> tuple[int, ...]:
    """All 16 pieces waiting in the Charkoni (R-START-CHARKONI)."""
    return (0,) * (NUM_SEATS * PIECES_PER_SEAT)
