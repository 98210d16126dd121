"""Playing many complete games between bots, reproducibly, and summing up the results.

Every game gets its own generators derived from the run's seed and the game's index, so a
run with the same seed, ruleset and bots gives the same games whatever else changes, and
game ``i`` can be replayed on its own:

>>> from pachisi.ai import make_player
>>> from pachisi.rules.ruleset import get_ruleset
>>> bots = [make_player("random")] * 4
>>> a = simulate(get_ruleset("classic"), games=2, seed=5, bots=bots)
>>> b = simulate(get_ruleset("classic"), games=2, seed=5, bots=bots)
>>> a.wins_by_seat == b.wins_by_seat and a.mean_throws == b.mean_throws
True
"""

from __future__ import annotations

import concurrent.futures
import math
import multiprocessing
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from pachisi.ai.bots import Bot
from pachisi.ai.games import DEFAULT_MAX_STEPS, DEFAULT_MAX_TURNS, GameStats, play_game
from pachisi.arguments import INT32_MAX, MAX_THREADS, whole
from pachisi.rules import cowries, engine
from pachisi.rules.choices import Teams
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import DRAW

__all__ = ["ENGINES", "Summary", "play_games", "simulate", "wilson_interval"]


@dataclass(frozen=True, slots=True)
class Summary:
    """Totals over a run of simulated games, with the settings that reproduce it."""

    ruleset: str
    """The canonical ruleset string."""
    seed: int
    bots: tuple[str, ...]
    """The bot name of each seat."""
    games: int
    draws: int
    """Games that ended as a draw because no side could win any more (R-DEADLOCK) or no
    piece could move again (R-FROZEN)."""
    unfinished: int
    """Games abandoned by a cap, with neither a winner nor a draw."""
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
    max_steps: int = DEFAULT_MAX_STEPS
    """The number of steps after which a game was abandoned and counted in ``unfinished``."""

    @property
    def draw_rate(self) -> float:
        """The share of games that ended as a draw."""
        return self.draws / self.games if self.games else 0.0

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
            "draws": self.draws,
            "draw_rate": round(self.draw_rate, 4),
            "unfinished": self.unfinished,
            "max_turns": self.max_turns,
            "max_steps": self.max_steps,
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


ENGINES: Final = ("fast", "reference")
"""The engines :func:`simulate` can play on: the compiled one (:mod:`pachisi.fast`) or the
reference rules engine. They give the same games for the same seed."""

_CHUNK: Final = 64
"""Games handed to a worker (or played between progress reports) at a time."""
_FAST_CHUNK: Final = 1024
"""The same on the compiled engine, whose games cost little against a call's overhead."""


def simulate(
    ruleset: Ruleset,
    games: int,
    seed: int,
    bots: Sequence[Bot],
    *,
    progress: Progress | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    max_steps: int = DEFAULT_MAX_STEPS,
    engine_name: str = "reference",
    workers: int = 1,
    threads: int = 1,
) -> Summary:
    """Play ``games`` games with one bot per seat; game ``i`` uses
    :func:`pachisi.rules.cowries.game_rngs`.

    ``engine_name`` is ``reference`` (the rules engine) or ``fast`` (the compiled engine,
    which plays the ``random`` and ``greedy`` bots); ``workers`` spreads the games over
    that many processes, and ``threads`` the compiled engine's games over that many
    threads of each process. None of them changes a single game: the results are the
    same.
    """
    start = time.perf_counter()
    results = play_games(
        ruleset,
        games,
        seed,
        bots,
        progress=progress,
        max_turns=max_turns,
        max_steps=max_steps,
        engine_name=engine_name,
        workers=workers,
        threads=threads,
    )
    return _summary(ruleset, seed, bots, results, time.perf_counter() - start, max_turns, max_steps)


def play_games(
    ruleset: Ruleset,
    games: int,
    seed: int,
    bots: Sequence[Bot],
    *,
    progress: Progress | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    max_steps: int = DEFAULT_MAX_STEPS,
    engine_name: str = "reference",
    workers: int = 1,
    threads: int = 1,
    first: int = 0,
) -> list[GameStats]:
    """Every game of :func:`simulate` on its own, in order: games ``first`` to
    ``first + games - 1`` of the run ``seed`` (the same games whatever ``first`` a caller
    plays them in chunks from)."""
    games = whole("the number of games", games, 0, INT32_MAX)
    first = whole("the first game", first, 0, INT32_MAX)
    max_turns = whole("max_turns", max_turns, 1, INT32_MAX)
    max_steps = whole("max_steps", max_steps, 1, INT32_MAX)
    workers = whole("workers", workers, 1, 1024)
    threads = whole("threads", threads, 1, MAX_THREADS)
    if engine_name not in ENGINES:
        raise ValueError(f"unknown engine {engine_name!r}; choose one of {', '.join(ENGINES)}")
    if engine_name == "fast":
        _check_fast_bots(bots)
    size = _FAST_CHUNK if engine_name == "fast" else _CHUNK
    end = first + games
    chunks = [range(i, min(i + size, end)) for i in range(first, end, size)]
    jobs = [
        (engine_name, ruleset, seed, chunk, tuple(bots), max_turns, max_steps, threads)
        for chunk in chunks
    ]
    results: list[GameStats] = []
    if workers == 1 or len(jobs) <= 1:
        for job in jobs:
            results += _play_chunk(job)
            if progress is not None:
                progress(len(results), games)
    else:
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
            for stats in pool.map(_play_chunk, jobs):
                results += stats
                if progress is not None:
                    progress(len(results), games)
    return results


Job = tuple[str, Ruleset, int, range, tuple[Bot, ...], int, int, int]


def _play_chunk(job: Job) -> list[GameStats]:
    """The games of one chunk (a top-level function, so that worker processes can run it)."""
    engine_name, ruleset, seed, indices, bots, max_turns, max_steps, threads = job
    if engine_name == "fast":
        return _fast_chunk(ruleset, seed, indices, bots, max_turns, max_steps, threads)
    out = []
    for i in indices:
        dice, choices = cowries.game_rngs(seed, i)
        out.append(
            play_game(
                ruleset, dice, bots, bot_rng=choices, max_turns=max_turns, max_steps=max_steps
            )
        )
    return out


def fast_plays(bots: Sequence[Bot]) -> bool:
    """Whether the compiled engine can play these bots: the stock random and greedy ones."""
    from pachisi.ai.bots import GreedyBot, RandomBot, Weights

    return all(
        isinstance(bot, RandomBot) or (isinstance(bot, GreedyBot) and bot.weights == Weights())
        for bot in bots
    )


def _check_fast_bots(bots: Sequence[Bot]) -> None:
    for bot in bots:
        if not fast_plays([bot]):
            raise ValueError(
                f"the fast engine plays only the random and greedy bots, not {bot.name!r} "
                "(use the reference engine)"
            )


def _fast_chunk(
    ruleset: Ruleset,
    seed: int,
    indices: range,
    bots: tuple[Bot, ...],
    max_turns: int,
    max_steps: int,
    threads: int,
) -> list[GameStats]:
    from pachisi.ai.playouts import simulate_games

    result = simulate_games(
        ruleset,
        seed,
        list(indices),
        [b.name for b in bots],
        max_turns=max_turns,
        max_steps=max_steps,
        threads=threads,
    )
    out = []
    # Read from the results' arrays: turning every row into a reference state would cost
    # more than playing the game.
    turns = result.turns.tolist()
    for j, winner in enumerate(result.winners.tolist()):
        rule = ""
        if winner == DRAW:
            # Which rule drew it is the rules core's to say, from the final position.
            drawn = engine.outcome(result.final_state(j, ruleset))
            rule = drawn.rule if drawn is not None else ""
        out.append(
            GameStats(
                throws=int(result.throws[j]),
                actions=int(result.actions[j]),
                captures=int(result.captures[j]),
                turns=turns[j],
                winner=winner if winner >= 0 else None,
                winning_seats=engine.side_seats(ruleset, winner) if winner >= 0 else (),
                drawn=winner == DRAW,
                draw_rule=rule,
            )
        )
    return out


def _summary(
    ruleset: Ruleset,
    seed: int,
    bots: Sequence[Bot],
    results: list[GameStats],
    seconds: float,
    max_turns: int,
    max_steps: int,
) -> Summary:
    wins = [0, 0, 0, 0]
    teams = [0, 0]
    draws = unfinished = 0
    for stats in results:
        if stats.drawn:
            draws += 1
        elif stats.winner is None:
            unfinished += 1
        else:
            for s in stats.winning_seats:
                wins[s] += 1
            if ruleset.teams != Teams.INDIVIDUAL:
                teams[stats.winner] += 1
    return Summary(
        ruleset=str(ruleset),
        seed=seed,
        bots=tuple(b.name for b in bots),
        games=len(results),
        draws=draws,
        unfinished=unfinished,
        seconds=seconds,
        throws=sum(r.throws for r in results),
        actions=sum(r.actions for r in results),
        captures=sum(r.captures for r in results),
        wins_by_seat=(wins[0], wins[1], wins[2], wins[3]),
        wins_by_team=None if ruleset.teams == Teams.INDIVIDUAL else (teams[0], teams[1]),
        max_turns=max_turns,
        max_steps=max_steps,
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
