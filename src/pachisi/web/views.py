"""The JSON the client is sent: a game's VIEW, its EVENTs and the board's geometry.

Everything here is a pure function of engine values (docs/web.md has the exact shapes).
What is legal, what an action does and how a game ended come from the rules engine and
:mod:`pachisi.describe`; this module only arranges it for a browser.

>>> from pachisi.rules import engine
>>> from pachisi.rules.ruleset import get_ruleset
>>> state = engine.new_game(get_ruleset("classic"))
>>> [p["where"] for p in pieces_json(state)][:2]
['waiting', 'waiting']
>>> turn_json(state, frozenset())["stage"]
'throw_off'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from pachisi.describe import describe_played, event_line, piece_label, situation
from pachisi.notation import result_of, write_position
from pachisi.rules import engine
from pachisi.rules.actions import ActionKind
from pachisi.rules.board import (
    CASTLES,
    COORDS,
    HOME,
    LAST_SQUARE,
    NUM_SEATS,
    NUM_SQUARES,
    PIECES_PER_SEAT,
    SEAT_NAMES,
    SQUARE_OF,
    square_name,
)
from pachisi.rules.state import Event, Stage, State

__all__ = [
    "HOMEWARD_FROM",
    "SEAT_COLOURS",
    "EncodedViews",
    "SeatView",
    "board_json",
    "event_json",
    "game_view",
    "legal_json",
    "piece_json",
    "pieces_json",
    "result_json",
    "seats_json",
    "turn_json",
]

SEAT_COLOURS: Final = (
    ("#b3261e", "red"),
    ("#e0a800", "yellow"),
    ("#1e7b34", "green"),
    ("#222222", "black"),
)
"""Each seat's colour on the cloth, as CSS and in words: red and green (seats 0 and 2)
play yellow and black (1 and 3)."""

HOMEWARD_FROM: Final = 77
"""The first progress on the seat's own middle column, on the way home."""

_ACTION_KINDS: Final = {
    ActionKind.DECLINE: "decline",
    ActionKind.MOVE: "move",
    ActionKind.ENTER: "enter",
    ActionKind.FREE: "free",
    ActionKind.EXIT: "exit",
    ActionKind.LAP: "lap",
}


@dataclass(frozen=True, slots=True)
class SeatView:
    """Who plays a seat: ``kind`` is ``human``, ``computer`` or ``open``."""

    kind: str
    player: str | None = None


def _square(seat: int, progress: int) -> int | None:
    """The square of progress ``progress`` of ``seat``'s pieces (None off the board)."""
    return SQUARE_OF[seat][progress] if 1 <= progress <= LAST_SQUARE else None


def board_json() -> dict[str, Any]:
    """The board's geometry for drawing (``GET /api/board``)."""
    return {
        "grid": 19,
        "squares": [
            {
                "id": square,
                "x": COORDS[square][0],
                "y": COORDS[square][1],
                "castle": square in CASTLES,
                "name": square_name(square),
            }
            for square in range(NUM_SQUARES)
        ],
        "charkoni": {"x": 9, "y": 9},
        "seats": [_seat_colours(seat) for seat in range(NUM_SEATS)],
        "routes": {
            str(seat): [SQUARE_OF[seat][p] for p in range(1, HOME)] for seat in range(NUM_SEATS)
        },
    }


def _seat_colours(seat: int) -> dict[str, Any]:
    colour, colour_name = SEAT_COLOURS[seat]
    return {"seat": seat, "name": SEAT_NAMES[seat], "colour": colour, "colour_name": colour_name}


def seats_json(seats: Sequence[SeatView], held: frozenset[int]) -> list[dict[str, Any]]:
    """The four seats, who plays each, and which of them this viewer holds."""
    return [
        {**_seat_colours(seat), "kind": view.kind, "player": view.player, "you": seat in held}
        for seat, view in enumerate(seats)
    ]


def piece_json(piece: int, progress: int, lap: bool) -> dict[str, Any]:
    """One piece (a global id 0..15): where it is, as progress, square and kind of place."""
    seat = piece // PIECES_PER_SEAT
    if progress == 0:
        where = "waiting"
    elif progress == HOME:
        where = "home"
    elif progress >= HOMEWARD_FROM:
        where = "homeward"
    else:
        where = "board"
    return {
        "id": piece,
        "seat": seat,
        "letter": "abcd"[piece % PIECES_PER_SEAT],
        "label": piece_label(piece),
        "progress": progress,
        "square": _square(seat, progress),
        "where": where,
        "lap": lap,
    }


def pieces_json(state: State) -> list[dict[str, Any]]:
    """The 16 pieces: where each is, as progress, square and kind of place."""
    return [
        piece_json(piece, progress, bool(state.laps >> piece & 1))
        for piece, progress in enumerate(state.pos)
    ]


@lru_cache(maxsize=4 * HOME * NUM_SEATS * PIECES_PER_SEAT)
def _piece_text(piece: int, progress: int, lap: bool) -> str:
    # A piece can be in only 16 x 85 x 2 places: each is encoded once, then reused.
    return json.dumps(piece_json(piece, progress, lap))


def _pieces_text(state: State) -> str:
    laps = state.laps
    texts = [_piece_text(g, p, bool(laps >> g & 1)) for g, p in enumerate(state.pos)]
    return f"[{', '.join(texts)}]"


def turn_json(state: State, held: frozenset[int]) -> dict[str, Any]:
    """Whose turn it is, at which stage, with which throw, and whether this viewer is due."""
    r = state.ruleset
    stage = state.stage
    throw = None
    if state.throw_k >= 0 and stage in (Stage.ACT, Stage.PYADA):
        value = r.score_table[state.throw_k]
        throw = {
            "k": state.throw_k,
            "value": value,
            "cowries": r.cowries,
            "grace": value in r.reroll_values,
        }
    you_throw, you_act = _due(state, held)
    return {
        "seat": state.seat,
        "mover": engine.mover(state),
        "number": state.turn,
        "stage": stage.name.lower(),
        "throw": throw,
        "pending": list(state.items),
        "pyadas": state.pyadas,
        "split_left": state.split_left,
        "throw_off": list(state.throwoff),
        "you_throw": you_throw,
        "you_act": you_act,
        "text": situation(state),
    }


def _due(state: State, held: frozenset[int]) -> tuple[bool, bool]:
    """Whether a viewer holding ``held`` is to throw, and whether it is to act."""
    stage = state.stage
    due = state.seat in held and stage is not Stage.OVER
    return (
        due and stage in (Stage.THROW, Stage.THROW_OFF),
        due and stage in (Stage.ACT, Stage.PYADA, Stage.SPEND),
    )


def legal_json(state: State) -> list[dict[str, Any]]:
    """Every legal action with what it would do: words, pieces, squares, captures.

    ``leads_to`` is the index of the first legal action that leads to the same position
    (its own index when none before it does), so that a client knows which choices are
    no choice at all: actions with one ``leads_to`` differ only in name.
    """
    out = []
    first_of: dict[str, int] = {}
    for index, action in enumerate(engine.legal_actions(state)):
        after, events = engine.apply_action(state, action)
        leads_to = first_of.setdefault(write_position(after), index)
        moved = [e for e in events if e.kind in ("enter", "move")]
        first = moved[0] if moved else None
        piece = first.piece if first is not None else None
        seat = piece // PIECES_PER_SEAT if piece is not None else -1
        out.append(
            {
                "action": str(action),
                "description": describe_played(state, action, events),
                "kind": _ACTION_KINDS[action.kind],
                "piece": piece,
                "pieces": [e.piece for e in moved],
                "from": _square(seat, first.frm) if first is not None else None,
                "to": _square(seat, first.to) if first is not None else None,
                "captures": [g for e in events if e.kind == "capture" for g in e.pieces],
                "leads_to": leads_to,
            }
        )
    return out


ABANDONED_RESULT: Final[dict[str, Any]] = {
    "winner": None,
    "seats": [],
    "draw": False,
    "rule": "abandoned",
    "individual": False,
    "text": "abandoned: nobody played it for too long",
    "record": "*",
}
"""The result of a game that the server ended because nobody played it (docs/web.md)."""


def result_json(state: State, abandoned: bool = False) -> dict[str, Any] | None:
    """How the game ended (None while it goes on): winner, seats, draw, in words."""
    if abandoned:
        return dict(ABANDONED_RESULT)
    outcome = engine.outcome(state)
    if outcome is None:
        return None
    return {
        "winner": outcome.winner,
        "seats": list(outcome.seats),
        "draw": outcome.is_draw,
        "rule": outcome.rule or None,
        "individual": outcome.individual,
        "text": str(outcome),
        "record": result_of(state),
    }


def event_json(event: Event, before: State) -> dict[str, Any]:
    """An engine event as JSON, with the squares it concerns for animation.

    ``grace`` says whether a throw gives another throw (the same fact as the view's
    ``turn.throw.grace``), so that a page can say so of a throw it shows after the fact.
    """
    square_from = square_to = None
    if event.kind in ("enter", "move") and event.piece >= 0:
        seat = event.piece // PIECES_PER_SEAT
        square_from, square_to = _square(seat, event.frm), _square(seat, event.to)
    elif event.kind in ("capture", "annul"):
        square_to = event.to
    return {
        "kind": event.kind,
        "seat": event.seat,
        "piece": event.piece,
        "frm": event.frm,
        "to": event.to,
        "value": event.value,
        "pieces": list(event.pieces),
        "k": event.k,
        "grace": event.kind == "throw" and event.value in before.ruleset.reroll_values,
        "square_from": square_from,
        "square_to": square_to,
        "text": event_line(event, before),
    }


def game_view(
    game_id: str,
    version: int,
    status: str,
    state: State,
    moves: Sequence[str],
    seats: Sequence[SeatView],
    held: frozenset[int],
    abandoned: bool = False,
) -> dict[str, Any]:
    """The whole VIEW of a game for a viewer holding the seats ``held`` (docs/web.md)."""
    if abandoned:
        held = frozenset()  # an abandoned game is nobody's to play
    r = state.ruleset
    turn = turn_json(state, held)
    return {
        "id": game_id,
        "version": version,
        "status": status,
        "ruleset": str(r),
        "players": r.players,
        "teams": r.teams,
        "cowries": r.cowries,
        "seats": seats_json(seats, held),
        "position": write_position(state),
        "pieces": pieces_json(state),
        "turn": turn,
        "legal": legal_json(state) if turn["you_act"] else [],
        "moves": list(moves),
        "result": result_json(state, abandoned),
    }


class EncodedViews:
    """The VIEW of one version of a game as JSON text, for any viewer.

    Every client of a game gets the same VIEW but for the seats it holds (``seats[].you``,
    ``turn.you_*`` and ``legal``), so the shared part is encoded once per version and only
    the rest per kind of viewer: a busy server sends an update to every client of every
    game. ``moves_json`` is the move list already encoded (the room keeps it, as it only
    grows). The text decodes to exactly :func:`game_view`'s value.
    """

    def __init__(
        self,
        game_id: str,
        version: int,
        status: str,
        state: State,
        moves_json: str,
        seats: Sequence[SeatView],
        ruleset_text: str | None = None,
        abandoned: bool = False,
    ) -> None:
        r = state.ruleset
        self._abandoned = abandoned
        self._state = state
        self._seats = seats
        self._legal: str | None = None
        self._texts: dict[frozenset[int], str] = {}
        shared = json.dumps(
            {
                "id": game_id,
                "version": version,
                "status": status,
                # The caller may know the ruleset's text: working it out takes a while.
                "ruleset": ruleset_text if ruleset_text is not None else str(r),
                "players": r.players,
                "teams": r.teams,
                "cowries": r.cowries,
                "position": write_position(state),
                "result": result_json(state, abandoned),
            }
        )
        # Whose turn it is reads the same for everyone but for the you_* flags.
        self._turn = turn_json(state, frozenset())
        pieces = _pieces_text(state)
        self._shared = f'{shared[:-1]}, "pieces": {pieces}, "moves": {moves_json}'

    def text(self, held: frozenset[int]) -> str:
        """The VIEW for a viewer holding the seats ``held``, as JSON text."""
        if self._abandoned:
            held = frozenset()
        text = self._texts.get(held)
        if text is None:
            you_throw, you_act = _due(self._state, held)
            turn = {**self._turn, "you_throw": you_throw, "you_act": you_act}
            if you_act:
                if self._legal is None:
                    self._legal = json.dumps(legal_json(self._state))
                legal = self._legal
            else:
                legal = "[]"
            own = json.dumps({"seats": seats_json(self._seats, held), "turn": turn})
            text = self._texts[held] = f'{self._shared}, {own[1:-1]}, "legal": {legal}}}'
        return text
