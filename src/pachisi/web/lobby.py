"""Planning a new game: its ruleset, its seats and who plays them, checked before anything
is stored.

>>> plan = plan_game("classic", 2, [SeatSpec("human"), SeatSpec("computer", "Easy")])
>>> plan.ruleset_text, [seat.player for seat in plan.seats]
('classic+players=2', [None, 'easy', None, 'easy'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from pachisi.ai.bots import UnknownBotError
from pachisi.ai.players import make_player
from pachisi.rules.ruleset import RulesetError, derive, parse_ruleset
from pachisi.web.settings import LEVEL_NAMES

__all__ = ["DEFAULT_PLAYER", "BadRequest", "GamePlan", "SeatSpec", "game_url", "plan_game"]

DEFAULT_PLAYER: Final = "medium"
"""The computer player of a seat that names none."""


class BadRequest(ValueError):
    """A game that cannot be created as asked: a bad ruleset, player or seat spec."""


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """What a new game's creator asks for a seat: ``human``, ``computer`` or ``open``."""

    kind: str
    player: str | None = None


@dataclass(frozen=True, slots=True)
class GamePlan:
    """A checked request for a new game: its ruleset and one spec per seat."""

    ruleset_text: str
    players: int
    seats: tuple[SeatSpec, ...]


def plan_game(
    ruleset_text: str,
    players: int | None,
    specs: Sequence[SeatSpec],
    *,
    any_player: bool = True,
    computer_games: bool = True,
) -> GamePlan:
    """Check a request for a new game; :class:`BadRequest` names what is wrong.

    Unless ``any_player``, a computer seat may only be one of :data:`LEVEL_NAMES` (other
    players take budgets a client could make endless); unless ``computer_games``, some seat
    must be a person's or open (a game of computers alone runs unattended).
    """
    try:
        ruleset = parse_ruleset(ruleset_text)
        if players is not None and players != ruleset.players:
            ruleset = derive(ruleset, {"players": players})
    except RulesetError as exc:
        raise BadRequest(f"ruleset {ruleset_text!r}: {exc}") from None
    count = ruleset.players
    specs = list(specs)
    if count == 2 and len(specs) == 2:
        specs = specs * 2
    if len(specs) != 4:
        expected = "2 or 4" if count == 2 else "4"
        raise BadRequest(f"seats: {expected} seat specs are needed, not {len(specs)}")
    if count == 2 and specs[2:] != specs[:2]:
        raise BadRequest("seats: under players=2, seat 2 is seat 0's person and seat 3 seat 1's")
    checked = []
    for seat, spec in enumerate(specs):
        if spec.kind == "computer":
            name = spec.player or DEFAULT_PLAYER
            if not any_player and name.strip().lower() not in LEVEL_NAMES:
                raise BadRequest(
                    f"seats.{seat}.player: {name!r} is not offered here: choose a level "
                    f"({', '.join(LEVEL_NAMES)})"
                )
            try:
                make_player(name)
            except UnknownBotError as exc:
                raise BadRequest(f"seats.{seat}.player: {exc}") from None
            checked.append(SeatSpec("computer", name.strip().lower()))
        elif spec.player is not None:
            raise BadRequest(f"seats.{seat}.player: only a computer seat names a player")
        else:
            checked.append(SeatSpec(spec.kind))
    if not computer_games and all(spec.kind == "computer" for spec in checked):
        raise BadRequest(
            "seats: a game of computers alone is not offered here (its operator can allow it "
            "with pachisi serve --allow-computer-games)"
        )
    return GamePlan(str(ruleset), count, tuple(checked))


def game_url(game_id: str, seats_and_tokens: Sequence[tuple[int, str]]) -> str:
    """The game page's link for a seat (or, hot-seat, several) with its token."""
    query = "&".join(f"seat={seat}&token={token}" for seat, token in seats_and_tokens)
    return f"/game/{game_id}?{query}"
