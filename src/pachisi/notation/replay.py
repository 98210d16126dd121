"""Replaying a game record into a :class:`~pachisi.game.Game`, and the record of a game."""

from __future__ import annotations

from pachisi.game import Game
from pachisi.notation._start import illegal, start_state
from pachisi.notation.errors import RecordError, RecordProblem
from pachisi.notation.position import write_position
from pachisi.notation.record import GameRecord, result_of
from pachisi.rules import engine
from pachisi.rules.actions import IllegalActionError

__all__ = ["record_from_game", "replay"]


def replay(record: GameRecord) -> Game:
    """The :class:`~pachisi.game.Game` after every move of ``record``, from its start.

    Raises :class:`RecordError` if the start tags are bad or a move is illegal; the
    problem's line and column are 0 (a record object has no text) and its message names
    the move by its 1-based number in ``moves``.
    """
    start = start_state(record.tags)
    game = Game(start.ruleset, state=start)
    for number, move in enumerate(record.moves, 1):
        try:
            game.push(move)
        except IllegalActionError as exc:
            message = f"move {number}: {illegal(game.state, move, str(exc))}"
            raise RecordError([RecordProblem(0, 0, message)]) from None
    return game


def record_from_game(game: Game, tags: dict[str, str]) -> GameRecord:
    """A record of ``game``: the caller's ``tags`` plus ``Ruleset``, ``Result`` and ``Start``.

    ``Start`` is set only when the game did not begin at ``new_game`` of its ruleset (and a
    stale ``Start`` in ``tags`` is dropped otherwise).
    """
    out = dict(tags)
    out["Ruleset"] = str(game.ruleset)
    out["Result"] = result_of(game.state)
    if game.start != engine.new_game(game.ruleset):
        out["Start"] = write_position(game.start)
    else:
        out.pop("Start", None)
    return GameRecord(out, list(game.moves))
