"""How an exploration plays: the settings every variant shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from pachisi.ai.games import DEFAULT_MAX_STEPS, DEFAULT_MAX_TURNS

__all__ = ["LOCAL_RAY", "PACE_SECONDS", "PLAYERS", "Settings"]

PLAYERS: Final = ("random", "greedy")
"""The players of the measured games, all four seats alike."""
LOCAL_RAY: Final = "local"
"""``--ray`` without an address: a Ray started here for the run (and stopped after it)."""
PACE_SECONDS: Final = 4.0
"""A person's pace assumed for the minutes a game takes: seconds per throw or action (a
throw of the cowries and a move counted alike, as at a real board with some talk)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How an exploration plays: the same for every variant."""

    games: int
    seed: int = 0
    players: str = "random"
    skill_games: int = 0
    """Games of ``greedy`` against ``random`` (two against two) per variant; 0: none."""
    strong_games: int = 0
    """Games of ``learned`` against ``greedy`` (two against two) per variant where the
    network was trained for the variant's rules; 0: none."""
    capture_games: int = 0
    """The first this many measured games of each variant are also replayed on the rules
    engine, whose events say where each capture was made from: the share of captures made
    from a castle and of those that sent back two men or more at once."""
    workers: int = 1
    """Processes each variant's games are spread over (the numbers do not depend on it)."""
    pace: float = PACE_SECONDS
    precision: float | None = None
    """Play rounds of :attr:`games` (and of the skill games) until every interval is at
    most this wide (rates in absolute terms, lengths and captures relative to their value),
    or until :attr:`max_games`; None: one round."""
    max_games: int = 1_000_000
    """The most measured games per variant that ``precision`` may play."""
    max_turns: int = DEFAULT_MAX_TURNS
    max_steps: int = DEFAULT_MAX_STEPS

    def __post_init__(self) -> None:
        if self.players not in PLAYERS:
            raise ValueError(f"players must be one of {', '.join(PLAYERS)}, not {self.players!r}")
        if self.games < 1:
            raise ValueError("an exploration plays at least one game per variant")
        for count in (self.skill_games, self.strong_games):
            if count < 0 or count % 2:
                raise ValueError(
                    "skill games come in pairs (each side of the board): an even number"
                )
        if self.capture_games < 0:
            raise ValueError("capture_games is a number of games, 0 or more")
        if not self.pace > 0:
            raise ValueError("the pace is a positive number of seconds")
        if self.precision is not None and not 0 < self.precision < 1:
            raise ValueError("the precision is an interval width between 0 and 1 (0.01: 1%)")
        if self.max_games < self.games:
            raise ValueError("max_games is at least the games of one round")

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seed": self.seed,
            "players": self.players,
            "skill_games": self.skill_games,
            "strong_games": self.strong_games,
            "capture_games": self.capture_games,
            "workers": self.workers,
            "pace_seconds": self.pace,
            "precision": self.precision,
            "max_games": self.max_games,
            "max_turns": self.max_turns,
            "max_steps": self.max_steps,
        }

    def same_games(self, other: Settings) -> bool:
        """Whether ``other`` plays the same games (a results file made with it can be
        resumed with these settings): the workers, the rounds and the precision may
        differ."""
        keys = ("seed", "players", "max_turns", "max_steps")
        return all(getattr(self, k) == getattr(other, k) for k in keys)
