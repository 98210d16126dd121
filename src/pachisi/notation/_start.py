"""Where a record starts (its ``Start`` or ``Ruleset`` tag) and why a move cannot be played:
shared by the record writer, reader and replay."""

from __future__ import annotations

from typing import Final

from pachisi.notation._text import BOM, excerpt
from pachisi.notation.errors import NotationError, RecordError, RecordProblem
from pachisi.notation.position import read_position
from pachisi.notation.record import move_text
from pachisi.rules import engine
from pachisi.rules.actions import Action
from pachisi.rules.ruleset import Ruleset, RulesetError, parse_ruleset
from pachisi.rules.state import CHANCE, State

_SHOW_LEGAL: Final = 12


def start_state(tags: dict[str, str]) -> State:
    """The state a record starts from: its ``Start`` tag, else ``new_game`` of ``Ruleset``."""
    problems: list[RecordProblem] = []
    state = start_from(tags, None, problems)
    if state is None:
        raise RecordError(problems)
    return state


def start_from(
    tags: dict[str, str],
    where: dict[str, tuple[int, int]] | None,
    problems: list[RecordProblem],
) -> State | None:
    """As :func:`start_state`, adding problems instead of raising.

    ``where`` maps tag names to the line and column of their values; it is ``None`` for a
    record object, which has no text, and its problems then have line and column 0.
    """
    located = where is not None
    where = where or {}
    ruleset: Ruleset | None = None
    ok = True
    if "Ruleset" in tags:
        line, col = where.get("Ruleset", (0, 0))
        try:
            ruleset = parse_ruleset(tags["Ruleset"])
        except RulesetError as exc:
            problems.append(RecordProblem(line, col, f"Ruleset tag: {exc}"))
            ok = False
    start: State | None = None
    if "Start" in tags:
        line, col = where.get("Start", (0, 0))
        try:
            start = read_position(tags["Start"])
        except NotationError as exc:
            # The column inside the value counts from after a byte-order mark, if any.
            skipped = 1 if tags["Start"].startswith(BOM) else 0
            at = col + skipped + exc.column - 1 if col and exc.column else col
            problems.append(RecordProblem(line, at, f"Start tag: {exc}"))
            return None
        if ruleset is not None and start.ruleset != ruleset:
            line, col = where.get("Ruleset", (0, 0))
            problems.append(
                RecordProblem(
                    line,
                    col,
                    f"Ruleset tag {excerpt(tags['Ruleset'])} differs from the Start position's "
                    f"ruleset {str(start.ruleset)!r}",
                )
            )
            return None
        return start if ok else None
    if ruleset is None:
        if ok:
            line, col = (1, 1) if located else (0, 0)
            message = 'missing Ruleset tag, e.g. [Ruleset "classic"]'
            problems.append(RecordProblem(line, col, message))
        return None
    return engine.new_game(ruleset)


def illegal(state: State, move: Action | int, reason: str) -> str:
    """Why ``move`` cannot be played in ``state``, with what could be played instead."""
    text = move_text(move)
    if state.is_over:
        return f"{text}: the game is already over"
    if engine.current_player(state) == CHANCE:
        if isinstance(move, Action):
            return f"{text}: a throw (t0..t{state.ruleset.cowries}) is due, not an action"
        return f"{text}: {reason}"
    legal = [str(a) for a in engine.legal_actions(state)]
    shown = ", ".join(legal[:_SHOW_LEGAL]) + (", ..." if len(legal) > _SHOW_LEGAL else "")
    if not isinstance(move, Action):
        return f"{text}: seat {state.seat} must act, not throw (legal: {shown})"
    return f"{text} is not legal here (legal: {shown})"
