"""Playing an exploration's games: one round of a variant at a time.

Every variant plays the same game indices of the same seed, so two variants meet the same
cowrie streams (common random numbers: their difference is measured more sharply than
either alone). Games with the ``random`` and ``greedy`` players run on the compiled engine
where it is built (the reference engine otherwise: the same games), spread over
``workers`` processes; neither choice changes a number. The games of the skill matches
have indices of their own (from :data:`SKILL_FIRST` and :data:`STRONG_FIRST`), so that
rounds of measured games never meet them.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, NamedTuple

from pachisi.ai import make_player
from pachisi.ai.games import GameStats, play_on
from pachisi.ai.learned.value import trained_for
from pachisi.explore.settings import Settings
from pachisi.explore.tally import GameRecord
from pachisi.explore.variants import Variant
from pachisi.rules import cowries, engine
from pachisi.rules.board import CASTLES, HOME, SQUARE_OF
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import Event, Stage, State
from pachisi.simulate import play_games

__all__ = [
    "SKILL_FIRST",
    "STRONG_FIRST",
    "Job",
    "JobResult",
    "engine_for",
    "first_mover",
    "play_measured",
    "play_pairs",
    "run_job",
    "strong_player",
]

SKILL_FIRST: Final = 1 << 30
"""The index of the first game of ``greedy`` against ``random`` (measured games are fewer)."""
STRONG_FIRST: Final = SKILL_FIRST + (1 << 29)
"""The index of the first game of ``learned`` against ``greedy``."""
Progress = Callable[[int], None]
"""Called with the number of games just played."""


def first_mover(ruleset: Ruleset, seed: int, index: int) -> int:
    """The seat that begins game ``index`` of the run ``seed``: the rules engine plays its
    throw-off (R-ORDER) on the game's own cowrie stream, which the game itself begins
    with, so the answer is the game's."""
    state = engine.new_game(ruleset)
    dice, _ = cowries.game_rngs(seed, index)
    n, p = ruleset.cowries, ruleset.p_mouth_up
    while state.stage == Stage.THROW_OFF:
        state, _ = engine.apply_chance(state, cowries.throw(dice, n, p))
    return state.seat


def engine_for(ruleset: Ruleset) -> str:
    """``fast`` where the compiled engine is built and plays ``ruleset``, else
    ``reference`` (the same games)."""
    try:
        from pachisi.ai.playouts import simulate_games  # noqa: F401
        from pachisi.fast.params import engine_params

        engine_params(ruleset)
    except (ImportError, ValueError):
        # CompiledEngineMissing (an ImportError), or a FastEngineError (a ValueError).
        return "reference"
    return "fast"


def strong_player(ruleset: Ruleset) -> str | None:
    """The player of the strong matches: ``learned`` where its network was trained for
    these rules, else None. Elsewhere the levels fall back on a search far too slow for
    thousands of games, and a network judges rules it never saw badly (docs/ai.md)."""
    return "learned" if trained_for(ruleset) else None


def play_measured(
    variant: Variant,
    settings: Settings,
    name: str,
    first: int,
    count: int,
    progress: Progress | None = None,
) -> list[GameRecord]:
    """Games ``first`` to ``first + count - 1`` of ``variant``, measured."""
    ruleset = variant.ruleset
    bots = [make_player(settings.players)] * 4
    games = _play(ruleset, settings, bots, name, first, count, progress)
    midpoints = _midpoints(ruleset, settings, games, name, first)
    sides = range(engine.side_count(ruleset))
    seats = [engine.side_seats(ruleset, side) for side in sides]
    out = []
    for j, (g, mid) in enumerate(zip(games, midpoints, strict=True)):
        if g.drawn:
            winner = -3 if g.draw_rule == "R-FROZEN" else -2
        elif g.winner is None:
            winner = -1
        else:
            winner = g.winner
        first_won = comeback = -1
        if winner >= 0:
            first_won = int(first_mover(ruleset, settings.seed, first + j) in g.winning_seats)
            progress_of = [
                sum(mid.pos[4 * s + i] for s in seats[side] for i in range(4)) for side in sides
            ]
            ahead = max(progress_of)
            if progress_of.count(ahead) == 1:
                comeback = int(progress_of.index(ahead) != winner)
        castle = stack = -1
        if first + j < settings.capture_games:
            castle, stack = _capture_kinds(ruleset, settings, first + j, g)
        out.append(
            GameRecord(
                g.throws, g.actions, g.turns, g.captures, winner, first_won, comeback,
                castle, stack,
            )
        )  # fmt: skip
    return out


def _capture_kinds(
    ruleset: Ruleset, settings: Settings, index: int, game: GameStats
) -> tuple[int, int]:
    """Game ``index`` replayed on the rules engine, whose events say where each capture was
    made from: the captures made by a man moving from a castle, and those that sent back
    two men or more at once."""
    counts = [0, 0, 0]

    def seen(before: State, events: list[Event]) -> None:
        origin = -1  # the square the capturing men left, where they moved (not entered)
        for e in events:
            if e.kind == "move":
                origin = SQUARE_OF[e.piece >> 2][e.frm] if 0 < e.frm < HOME else -1
            elif e.kind == "enter":
                origin = -1
            elif e.kind == "capture":
                counts[0] += 1
                counts[1] += origin in CASTLES
                counts[2] += len(e.pieces) >= 2

    dice, choices = cowries.game_rngs(settings.seed, index)
    bots = [make_player(settings.players)] * 4
    play_on(
        engine.new_game(ruleset), dice, bots, bot_rng=choices, max_turns=settings.max_turns,
        max_steps=settings.max_steps, on_action=seen,
    )  # fmt: skip
    if counts[0] != game.captures:
        raise AssertionError(
            f"game {index}: the rules engine's replay captured {counts[0]} times, not "
            f"{game.captures}"
        )
    return counts[1], counts[2]


def play_pairs(
    variant: Variant,
    settings: Settings,
    kind: str,
    name: str,
    first: int,
    count: int,
    progress: Progress | None = None,
) -> int:
    """``count`` games (even) of a stronger player on seats 0 and 2 against a weaker on 1
    and 3 for half of them, the other way round for the other half on the same throws, so
    that neither side of the board favours either: the stronger side's wins. ``kind`` is
    ``skill`` (``greedy`` against ``random``) or ``strong`` (``learned`` against
    ``greedy``, on the reference engine); ``first`` counts from that kind's own first
    index."""
    stronger, weaker = ("greedy", "random") if kind == "skill" else ("learned", "greedy")
    base = SKILL_FIRST if kind == "skill" else STRONG_FIRST
    strong, weak = make_player(stronger), make_player(weaker)
    half = count // 2
    start = base + first // 2
    ruleset = variant.ruleset
    even = _play(ruleset, settings, [strong, weak] * 2, name, start, half, progress)
    odd = _play(ruleset, settings, [weak, strong] * 2, name, start, half, progress)
    won = sum(bool({0, 2} & set(g.winning_seats)) for g in even)
    return won + sum(bool({1, 3} & set(g.winning_seats)) for g in odd)


def _play(
    ruleset: Ruleset,
    settings: Settings,
    bots: Sequence[Any],
    name: str,
    first: int,
    count: int,
    progress: Progress | None,
) -> list[GameStats]:
    done = [0]

    def advance(played: int, _total: int) -> None:
        if progress is not None:
            progress(played - done[0])
        done[0] = played

    return play_games(
        ruleset,
        count,
        settings.seed,
        bots,
        max_turns=settings.max_turns,
        max_steps=settings.max_steps,
        engine_name=name,
        workers=settings.workers,
        progress=advance,
        first=first,
    )


def _midpoints(
    ruleset: Ruleset, settings: Settings, games: Sequence[GameStats], name: str, first: int
) -> list[State]:
    """Where each game stood after half its throws and actions: the same game played
    again, with its own generators, and stopped there by the step cap."""
    names = [settings.players] * 4
    halves: dict[int, list[int]] = {}
    for j, g in enumerate(games):
        halves.setdefault(max(1, (g.throws + g.actions) // 2), []).append(j)
    out: list[State | None] = [None] * len(games)
    if name == "fast":
        from pachisi.ai.playouts import simulate_games

        # Games of the same half length stop at the same cap: one call each.
        for half, js in halves.items():
            result = simulate_games(
                ruleset, settings.seed, [first + j for j in js], names,
                max_turns=settings.max_turns, max_steps=half,
            )  # fmt: skip
            for k, j in enumerate(js):
                out[j] = result.final_state(k, ruleset)
    else:
        bots = [make_player(settings.players)] * 4
        for half, js in halves.items():
            for j in js:
                dice, choices = cowries.game_rngs(settings.seed, first + j)
                out[j], _ = play_on(
                    engine.new_game(ruleset), dice, bots, bot_rng=choices,
                    max_turns=settings.max_turns, max_steps=half,
                )  # fmt: skip
    return [state for state in out if state is not None]


class Job(NamedTuple):
    """One batch of one variant's games, which any process (or Ray worker) can play."""

    kind: str
    """``games`` (measured), ``skill`` or ``strong``."""
    variant: Variant
    settings: Settings
    engine: str
    first: int
    size: int
    """How many games: ``first`` to ``first + size - 1`` of its kind."""


JobResult = tuple[list[GameRecord], int, float]
"""A job's measured games (none for skill games), its stronger side's wins (0 for measured
games) and the seconds it took."""


def run_job(job: Job) -> JobResult:
    """Play one :class:`Job` (a top-level function, so worker processes and Ray can)."""
    began = time.perf_counter()
    # The job is the unit of parallel work: inside it, one process plays.
    settings = dataclasses.replace(job.settings, workers=1)
    if job.kind == "games":
        records = play_measured(job.variant, settings, job.engine, job.first, job.size)
        return records, 0, time.perf_counter() - began
    won = play_pairs(job.variant, settings, job.kind, job.engine, job.first, job.size)
    return [], won, time.perf_counter() - began
