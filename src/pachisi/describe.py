"""Words for the game: pieces, actions, events, throws and whose turn it is.

Everything the ``pachisi`` command shows a person about a position or a move is worded
here, from the events the engine reports, so the words cannot disagree with the rules.
Used by :mod:`pachisi.cli` (``rules``, ``moves``, ``replay``) and :mod:`pachisi.play`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from pachisi.rules import engine
from pachisi.rules.actions import Action, ActionKind
from pachisi.rules.board import HOME, SEAT_NAMES, square_name
from pachisi.rules.choices import ThrowUsage
from pachisi.rules.state import Event, Stage, State

__all__ = [
    "DESCRIPTIONS",
    "LETTERS",
    "describe_action",
    "describe_played",
    "event_line",
    "piece_label",
    "piece_name",
    "situation",
]

LETTERS: Final = "abcd"

DESCRIPTIONS: Final = {
    "classic": "the rules the sources state most plainly, with the capture bonus (default)",
    "wikipedia-full": "7 cowries and every well-defined 'in some versions' rule switched on",
    "herklots-6": "Deccan six cowries (Herklots 1832): collect throws, pyada, triples cancel",
    "herklots-7": "Deccan seven cowries (Herklots 1832): as herklots-6 with a 30",
    "tylor-1879": "Bengal rules (Tylor 1879, after Mitra): 10/25 start a man, lone men die",
    "ludii": "exactly what Ludii's Pachisi.lud does, for move-by-move comparison",
}
"""One line per named ruleset for ``pachisi rules``."""


def piece_name(g: int) -> str:
    """A piece in prose, e.g. ``0.a`` for global piece 0."""
    return f"{g >> 2}.{LETTERS[g & 3]}"


def piece_label(g: int) -> str:
    """A piece as drawn on the board, e.g. ``0a``."""
    return f"{g >> 2}{LETTERS[g & 3]}"


def _where(p: int) -> str:
    return "home" if p == HOME else f"p{p}"


def describe_action(state: State, action: Action) -> str:
    """What a legal action does, in words, e.g. ``move 0.a from p20 to p23 (captures 1.a)``.

    The words come from the events the engine reports for the action, so they cannot
    disagree with the rules.
    """
    _, events = engine.apply_action(state, action)
    return describe_played(state, action, events)


def describe_played(state: State, action: Action, events: Sequence[Event]) -> str:
    """What ``action``, taken in ``state``, did, given the ``events`` the engine reported."""
    if action.kind is ActionKind.DECLINE:
        if state.stage is Stage.SPEND:
            text = "stop spending (throws not yet used are lost)"
        elif state.stage is Stage.PYADA:
            text = "decline the pyada step"
        elif state.split_left:
            text = f"stop sharing out the {state.split_value}"
        else:
            text = f"decline the {engine.pending_value(state)}"
    else:
        text = _describe_move(action, [e for e in events if e.kind in ("move", "enter")])
    notes: list[str] = []
    captured = [g for e in events if e.kind == "capture" for g in e.pieces]
    if captured:
        notes.append("captures " + ", ".join(piece_name(g) for g in captured))
    if any(e.kind == "annul" for e in events):
        notes.append("annuls a kill")
    if any(e.kind == "win" for e in events):
        notes.append("wins the game")
    elif any(e.kind == "draw" for e in events):
        # The events say that the game is drawn; the outcome says by which rule.
        outcome = engine.outcome(engine.apply_action(state, action)[0])
        frozen = outcome is not None and outcome.rule == "R-FROZEN"
        why = "no piece can move any more" if frozen else "no side can win any more"
        notes.append(f"the game is drawn: {why}")
    elif any(e.kind == "again" for e in events):
        notes.append("throws again")
    return f"{text} ({'; '.join(notes)})" if notes else text


def _describe_move(action: Action, moved: list[Event]) -> str:
    if not moved:
        return str(action)
    who = " and ".join(piece_name(e.piece) for e in moved)
    frm, to = moved[0].frm, moved[0].to
    kind = action.kind
    if kind is ActionKind.ENTER:
        how = "a pyada" if action.pyada else f"the grace {action.value}"
        return f"enter {who} at p{to} with {how}"
    if kind is ActionKind.FREE:
        return f"bring {who} out to p{to} with the {action.value} (first piece, no grace needed)"
    if kind is ActionKind.EXIT:
        return f"finish {who} from the last square with the {action.value}"
    if kind is ActionKind.LAP:
        return f"move {who} from p{frm} by {action.value} into a second lap, to p{to}"
    text = f"move {who} from p{frm} to {_where(to)}"
    if action.pyada:
        text += " (pyada step)"
    elif action.part:
        text += f" ({action.part} of the {action.value})"
    return text


def event_line(event: Event, before: State) -> str | None:
    """A line for an event that an action's own description does not already tell."""
    r = before.ruleset
    s = event.seat
    kind = event.kind
    if kind == "throw_off":
        return f"Seat {s} throws {_mouths(event.k)} -> {event.value} (throw-off: who begins)"
    if kind == "begins":
        return f"Seat {s} ({SEAT_NAMES[s]}) begins."
    if kind == "throw":
        grace = ""
        if event.value in r.reroll_values:
            # In collect mode the throwing simply goes on; in immediate mode the extra
            # throw comes after the move and has its own "again" event.
            grace = "; grace: throws again" if r.throw_usage == ThrowUsage.COLLECT else " (a grace)"
        return f"Seat {s} throws {_mouths(event.k)} -> {event.value}{grace}"
    if kind == "void":
        return f"  the {event.value} counts for nothing: seat {s} has no piece on the board"
    if kind == "cancel":
        return "  three in a row: the throws are cancelled and the turn ends"
    if kind == "pyada":
        count = event.value
        return f"  seat {s} earns {count} pyada{'s' if count != 1 else ''} (a one-step move)"
    if kind == "again":
        if before.again:
            return f"  grace: seat {s} throws again"
        return f"  capture bonus: seat {s} throws again"
    if kind == "annul":
        return f"  seat {s}'s kill on {square_name(event.to)} is annulled by the recapture"
    if kind == "turn":
        return f"--- seat {s} ({SEAT_NAMES[s]}) to play ---"
    if kind == "win":
        result = engine.outcome(_over(before, event.seat))
        return f"Game over: {result}." if result else "Game over."
    if kind == "draw":
        return (
            "Game over: a draw. Every side has a seat that needs a kill to go home and can "
            "no longer make one (R-DEADLOCK)."
        )
    return None


def _over(state: State, winner: int) -> State:
    """A finished copy of ``state``, only to let :func:`engine.outcome` word the result."""
    return state._replace(stage=Stage.OVER, winner=winner)


def _mouths(k: int) -> str:
    return f"{k} mouth{'s' if k != 1 else ''} up"


def situation(state: State) -> str:
    """Who is to do what, in one line."""
    result = engine.outcome(state)
    if result is not None:
        return f"Game over: {result}."
    s = state.seat
    who = f"Seat {s} ({SEAT_NAMES[s]})"
    if state.stage is Stage.THROW_OFF:
        return f"{who} throws to decide who begins:"
    if state.stage is Stage.THROW:
        return f"{who} throws:"
    m = engine.mover(state)
    pieces = "" if m == s else f" (moving seat {m}'s pieces)"
    if state.split_left:
        return f"{who}{pieces}: {state.split_left} of the {state.split_value} still to share out"
    if state.stage is Stage.PYADA:
        return f"{who}{pieces}: a pyada step to use"
    if state.stage is Stage.SPEND:
        items = ", ".join(str(v) for v in state.items) or "none"
        extra = f", pyadas: {state.pyadas}" if state.pyadas else ""
        return f"{who}{pieces}: throws to spend: {items}{extra}"
    return f"{who}{pieces}: the throw is {engine.pending_value(state)}"
