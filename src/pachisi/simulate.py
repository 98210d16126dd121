"""Playing many complete games between bots, reproducibly, and summing up the results.

Every game gets its own generators derived from the run's seed and the game's index, so a
run with the same seed, ruleset and bots gives the same games whatever else changes, and
game ``i`` can be replayed on its own:

>>> from pachisi.ai import make_bot
>>> from pachisi.rules.ruleset import get_ruleset
>>> bots = [make_bot("random")] * 4
>>> a = simulate(get_ruleset("classic"), games=2, seed=5, bots=bots)
>>> b = simulate(get_ruleset("classic"), games=2, seed=5, bots=bots)
>>> a.wins_by_seat == b.wins_by_seat and a.mean_throws == b.mean_throws
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from pachisi.ai.bots import Bot
from pachisi.rules import cowries, engine
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import CHANCE

__all__ = [
    "DEFAULT_MAX_TURNS",
    "GameStats",
    "Summary",
    "game_rngs",
    "play_game",
    "simulate",
    "wilson_interval",
]

DEFAULT_MAX_TURNS: Final = 5000
"""Turns after which a simulated game is abandoned as unfinished.

The rules have no turn limit (R-NO-LIMIT), and some games can never end: under
``kill_before_home`` every side can be left with a seat whose pieces sit in their home
column with no kill credit. Games stop as soon as :func:`engine.is_deadlocked` sees that;
the cap is a safety net for anything it does not recognise. It is a simulation setting,
not a rule; normal games take a few hundred turns.
"""


@dataclass(frozen=True, slots=True)
class GameStats:
    """What happened in one simulated game."""

    throws: int
    """Chance events: cowrie throws, throw-off included."""
    actions: int
    """Decisions taken by the seats, declines included."""
    captures: int
    """Capture events (one event can send back several pieces)."""
    turns: int
    winner: int | None
    """The winning team (seat with ``teams=individual``); None if the game was abandoned."""
    winning_seats: tuple[int, ...]
    """The seats on the winning side; empty if the game was abandoned."""
    deadlocked: bool = False
    """Abandoned because no side could ever win (:func:`engine.is_deadlocked`)."""


def game_rngs(seed: int, index: int) -> tuple[random.Random, random.Random]:
    """The generators of game ``index`` of a run: one for the cowries, one for the bots.

    Seeding from a string is stable across Python runs and platforms, unlike ``hash``.
    Keeping the bots' choices apart from the throws means a change of bot does not shift
    the throws at the start of the game.
    """
    return random.Random(f"pachisi:{seed}:{index}:throws"), random.Random(
        f"pachisi:{seed}:{index}:bots"
    )


def play_game(
    ruleset: Ruleset,
    rng: random.Random,
    bots: Sequence[Bot],
    *,
    bot_rng: random.Random | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> GameStats:
    """Play one game to the end: ``rng`` throws the cowries, ``bots[seat]`` acts for a seat.

    ``bot_rng`` (default: ``rng``) is what the bots use for their random choices.
    """
    if len(bots) != 4:
        raise ValueError(f"need one bot per seat (4), got {len(bots)}")
    choice_rng = rng if bot_rng is None else bot_rng
    state = engine.new_game(ruleset)
    throws = actions = captures = 0
    n, p = ruleset.cowries, ruleset.p_mouth_up
    deadlocked = False
    while not state.is_over and state.turn <= max_turns:
        if engine.current_player(state) == CHANCE:
            # Checked at throws only: a deadlock can only begin with a move, and every
            # move is followed by a throw unless the game is over.
            if engine.is_deadlocked(state):
                deadlocked = True
                break
            state, events = engine.apply_chance(state, cowries.throw(rng, n, p))
            throws += 1
        else:
            action = bots[state.seat].choose(state, choice_rng)
            state, events = engine.apply_action(state, action)
            actions += 1
            captures += sum(1 for e in events if e.kind == "capture")
    result = engine.outcome(state)
    return GameStats(
        throws=throws,
        actions=actions,
        captures=captures,
        turns=state.turn,
        winner=result.winner if result else None,
        winning_seats=result.seats if result else (),
        deadlocked=deadlocked,
    )


@dataclass(frozen=True, slots=True)
class Summary:
    """Totals over a run of simulated games, with the settings that reproduce it."""

    ruleset: str
    """The canonical ruleset string."""
    seed: int
    bots: tuple[str, ...]
    """The bot name of each seat."""
    games: int
    unfinished: int
    """Games abandoned without a winner: deadlocked, or still going after ``max_turns``."""
    deadlocked: int
    """Of the unfinished games, those that had reached a position no side can win from."""
    seconds: float
    throws: int
    actions: int
    captures: int
    wins_by_seat: tuple[int, int, int, int]
    """Games in which the seat was on the winning side."""
    wins_by_team: tuple[int, int] | None
    """Wins of team 0 (seats 0+2) and team 1 (seats 1+3); None with ``teams=individual``."""
    max_turns: int = DEFAULT_MAX_TURNS
    """The turn after which a game was abandoned and counted in ``unfinished``."""

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf

    @property
    def mean_throws(self) -> float:
        return self.throws / self.games if self.games else 0.0

    @property
    def mean_actions(self) -> float:
        return self.actions / self.games if self.games else 0.0

    @property
    def mean_captures(self) -> float:
        return self.captures / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        """The summary as plain JSON-ready data (timing fields included)."""
        return {
            "ruleset": self.ruleset,
            "seed": self.seed,
            "bots": list(self.bots),
            "games": self.games,
            "unfinished": self.unfinished,
            "deadlocked": self.deadlocked,
            "max_turns": self.max_turns,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 2),
            "mean_throws": round(self.mean_throws, 3),
            "mean_actions": round(self.mean_actions, 3),
            "mean_captures": round(self.mean_captures, 3),
            "wins_by_seat": list(self.wins_by_seat),
            "wins_by_team": None if self.wins_by_team is None else list(self.wins_by_team),
        }


Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each game."""


def simulate(
    ruleset: Ruleset,
    games: int,
    seed: int,
    bots: Sequence[Bot],
    *,
    progress: Progress | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> Summary:
    """Play ``games`` games with one bot per seat; game ``i`` uses :func:`game_rngs`."""
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    wins = [0, 0, 0, 0]
    teams = [0, 0]
    throws = actions = captures = unfinished = deadlocked = 0
    start = time.perf_counter()
    for i in range(games):
        dice, choices = game_rngs(seed, i)
        stats = play_game(ruleset, dice, bots, bot_rng=choices, max_turns=max_turns)
        throws += stats.throws
        actions += stats.actions
        captures += stats.captures
        if stats.winner is None:
            unfinished += 1
            deadlocked += stats.deadlocked
        else:
            for s in stats.winning_seats:
                wins[s] += 1
            if ruleset.teams != "individual":
                teams[stats.winner] += 1
        if progress is not None:
            progress(i + 1, games)
    return Summary(
        ruleset=str(ruleset),
        seed=seed,
        bots=tuple(b.name for b in bots),
        games=games,
        unfinished=unfinished,
        deadlocked=deadlocked,
        seconds=time.perf_counter() - start,
        throws=throws,
        actions=actions,
        captures=captures,
        wins_by_seat=(wins[0], wins[1], wins[2], wins[3]),
        wins_by_team=None if ruleset.teams == "individual" else (teams[0], teams[1]),
        max_turns=max_turns,
    )


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% with the default ``z``).

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
