"""A game's stored moves turned into what people read: the game record for export, and the
room rebuilt after a restart (the replay viewer's steps are :mod:`pachisi.web.history`'s).

Everything here replays the moves through the rules engine (or the notation's replay), so it
is plain CPU work that the service runs in a worker thread.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from pachisi.notation import GameRecord, record_from_game, replay, write_record
from pachisi.rules import engine
from pachisi.rules.ruleset import parse_ruleset
from pachisi.web.room import Access, Room, Seat, parse_move
from pachisi.web.schema import ABANDONED, StoredGame

__all__ = ["rebuild", "record_text"]


def record_text(
    game_id: str,
    ruleset: str,
    created: dt.datetime,
    seats: Sequence[Seat],
    moves: Sequence[str],
    abandoned: bool = False,
) -> str:
    """The game record (docs/notation.md) of a stored game, with the web game's tags (and
    ``Termination "abandoned"`` for a game the server ended because nobody played it)."""
    tags = {f"Seat{n}": _seat_tag(seat) for n, seat in enumerate(seats)}
    tags.update(Date=created.strftime("%Y.%m.%d"), Site="pachisi serve", Game=game_id)
    if abandoned:
        tags["Termination"] = "abandoned"
    game = replay(GameRecord({"Ruleset": ruleset}, [parse_move(m) for m in moves]))
    return write_record(record_from_game(game, tags))


def _seat_tag(seat: Seat) -> str:
    # As `pachisi play` names its seats: "human", "greedy bot"; and "open" for a free seat.
    return f"{seat.player} bot" if seat.kind == "computer" else seat.kind


def rebuild(stored: StoredGame) -> Room:
    """A stored game's room: its moves replayed through the rules engine."""
    ruleset = parse_ruleset(stored.ruleset)
    state = engine.new_game(ruleset)
    for text in stored.moves:
        state, _ = engine.apply(state, parse_move(text))
    seats = [Seat(row.kind, row.player, row.token_hash, row.invite_hash) for row in stored.seats]
    access = Access(stored.visibility, stored.owner_hash, stored.watch_hash)
    abandoned = stored.result == ABANDONED and not state.is_over
    return Room(stored.id, ruleset, stored.created, seats, state, stored.moves, access, abandoned)
