"""A game's stored moves turned into what people read: the game record for export, every
step for the replay viewer, and the room rebuilt after a restart.

Everything here replays the moves through the rules engine (or the notation's replay), so it
is plain CPU work that the service runs in a worker thread.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from pachisi.notation import GameRecord, record_from_game, replay, write_position, write_record
from pachisi.rules import engine
from pachisi.rules.ruleset import Ruleset, parse_ruleset
from pachisi.rules.state import State
from pachisi.web.room import Room, Seat, parse_move
from pachisi.web.storage import StoredGame
from pachisi.web.views import event_json, pieces_json, result_json, turn_json

__all__ = ["history", "rebuild", "record_text"]


def record_text(
    game_id: str, ruleset: str, created: dt.datetime, seats: Sequence[Seat], moves: Sequence[str]
) -> str:
    """The game record (docs/notation.md) of a stored game, with the web game's tags."""
    tags = {f"Seat{n}": _seat_tag(seat) for n, seat in enumerate(seats)}
    tags.update(Date=created.strftime("%Y.%m.%d"), Site="pachisi serve", Game=game_id)
    game = replay(GameRecord({"Ruleset": ruleset}, [parse_move(m) for m in moves]))
    return write_record(record_from_game(game, tags))


def _seat_tag(seat: Seat) -> str:
    # As `pachisi play` names its seats: "human", "greedy bot"; and "open" for a free seat.
    return f"{seat.player} bot" if seat.kind == "computer" else seat.kind


def history(game_id: str, ruleset: Ruleset, moves: Sequence[str]) -> dict[str, Any]:
    """Every step of a game from its start, for the replay viewer (docs/web.md)."""
    state = engine.new_game(ruleset)
    steps = [_step(0, None, [], state)]
    for version, text in enumerate(moves, 1):
        before = state
        state, events = engine.apply(state, parse_move(text))
        steps.append(_step(version, text, [event_json(e, before) for e in events], state))
    return {
        "id": game_id,
        "ruleset": str(ruleset),
        "version": len(moves),
        "moves": list(moves),
        "steps": steps,
    }


def _step(
    version: int, move: str | None, events: list[dict[str, Any]], state: State
) -> dict[str, Any]:
    return {
        "version": version,
        "move": move,
        "events": events,
        "position": write_position(state),
        "pieces": pieces_json(state),
        "turn": turn_json(state, frozenset()),
        "result": result_json(state),
    }


def rebuild(stored: StoredGame) -> Room:
    """A stored game's room: its moves replayed through the rules engine."""
    ruleset = parse_ruleset(stored.ruleset)
    state = engine.new_game(ruleset)
    for text in stored.moves:
        state, _ = engine.apply(state, parse_move(text))
    seats = [Seat(row.kind, row.player, row.token_hash) for row in stored.seats]
    return Room(stored.id, ruleset, stored.created, seats, state, stored.moves)
