"""Playing an exploration's games and measuring each variant.

Every variant plays the same game indices of the same seed, so two variants meet the same
cowrie streams (common random numbers: their difference is measured more sharply than
either alone). Games with the ``random`` and ``greedy`` players run on the compiled engine
where it is built (the reference engine otherwise: the same games), spread over
``workers`` processes; neither choice changes a number.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from pachisi.ai import make_player
from pachisi.ai.games import DEFAULT_MAX_STEPS, DEFAULT_MAX_TURNS, GameStats, play_on
from pachisi.ai.learned.value import trained_for
from pachisi.explore.measures import Estimate, Length, mean_of, rate
from pachisi.explore.variants import Variant
from pachisi.rules import cowries, engine
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import Stage, State
from pachisi.simulate import play_games

__all__ = ["PACE_SECONDS", "PLAYERS", "Settings", "VariantResult", "first_mover", "measure"]

PLAYERS: Final = ("random", "greedy")
"""The players of the measured games, all four seats alike."""
PACE_SECONDS: Final = 4.0
"""A person's pace assumed for the minutes a game takes: seconds per throw or action (a
throw of the cowries and a move counted alike, as at a real board with some talk)."""
Progress = Callable[[int], None]
"""Called with the number of games just played."""


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
    workers: int = 1
    pace: float = PACE_SECONDS
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
        if not self.pace > 0:
            raise ValueError("the pace is a positive number of seconds")

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seed": self.seed,
            "players": self.players,
            "skill_games": self.skill_games,
            "strong_games": self.strong_games,
            "workers": self.workers,
            "pace_seconds": self.pace,
            "max_turns": self.max_turns,
            "max_steps": self.max_steps,
        }


@dataclass(frozen=True, slots=True)
class VariantResult:
    """Everything measured of one variant, each figure with its 95% interval."""

    variant: Variant
    games: int
    engine: str
    """The engine that played the games: ``fast`` (compiled) or ``reference``."""
    seconds: float
    throws: Length
    actions: Length
    turns: Length
    minutes: Estimate
    """The mean game at :attr:`Settings.pace` seconds per throw or action."""
    draws: Estimate
    """Games drawn by R-DEADLOCK or R-FROZEN."""
    unfinished: Estimate
    """Games cut off by the turn or step cap (a simulation setting, not a rule)."""
    seat_wins: tuple[Estimate, ...]
    """Each seat's share of the games its side won."""
    team_wins: tuple[Estimate, ...] | None
    """Each team's share (teams 0 = seats 0+2 and 1 = seats 1+3); None without teams."""
    first_mover: Estimate
    """The share of decided games that the first mover's side won."""
    fair_share: float
    """What :attr:`first_mover` would be if beginning gave nothing: one over the sides."""
    captures: Estimate
    """Capture events per game."""
    comeback: Estimate
    """The share of decided games won by a side that did not lead at the game's midpoint
    (half its throws and actions), among the games with one side ahead then: ahead in the
    sum of its men's progress."""
    skill: Estimate | None
    """``greedy``'s side's share of the games against ``random``, two against two."""
    strong: Estimate | None = None
    """``learned``'s side's share of the games against ``greedy``, two against two; None
    where no network was trained for the variant's rules (or none were asked for)."""
    strong_player: str | None = None
    """The player of :attr:`strong`: ``learned`` (its network for this ruleset), or None."""

    @property
    def first_mover_edge(self) -> Estimate:
        """:attr:`first_mover` less the fair share."""
        f, s = self.first_mover, self.fair_share
        return Estimate(f.value - s, f.low - s, f.high - s)


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


def _engine_for(ruleset: Ruleset) -> str:
    """``fast`` where the compiled engine is built and plays ``ruleset``."""
    try:
        from pachisi.ai.playouts import simulate_games  # noqa: F401
        from pachisi.fast.params import engine_params

        engine_params(ruleset)
    except (ImportError, ValueError):
        # CompiledEngineMissing (an ImportError), or a FastEngineError (a ValueError):
        # the reference engine plays the same games.
        return "reference"
    return "fast"


def measure(
    variant: Variant, settings: Settings, progress: Progress | None = None
) -> VariantResult:
    """Play ``settings.games`` games of ``variant`` (and its skill games) and measure them."""
    ruleset = variant.ruleset
    name = _engine_for(ruleset)
    began = time.perf_counter()
    bots = [make_player(settings.players)] * 4
    games = _play(ruleset, settings, bots, name, progress)
    skill = None
    if settings.skill_games:
        skill = _pairs(ruleset, settings, "greedy", "random", settings.skill_games, name, progress)
    strong = strong_player = None
    if settings.strong_games and trained_for(ruleset):
        # The network plays only the rules it was trained for (docs/ai.md): elsewhere the
        # level falls back on a search far too slow for thousands of games.
        strong_player = "learned"
        strong = _pairs(
            ruleset, settings, "learned", "greedy", settings.strong_games, "reference", progress
        )
    seconds = time.perf_counter() - began
    n = len(games)
    sides = engine.side_count(ruleset)
    seat_wins = tuple(rate(sum(s in g.winning_seats for g in games), n) for s in range(4))
    team_wins = None
    if sides == 2:
        team_wins = tuple(rate(sum(g.winner == t for g in games), n) for t in range(2))
    decided = [(i, g) for i, g in enumerate(games) if g.winner is not None]
    led = sum(first_mover(ruleset, settings.seed, i) in g.winning_seats for i, g in decided)
    throws = [g.throws for g in games]
    actions = [g.actions for g in games]
    steps = mean_of([t + a for t, a in zip(throws, actions, strict=True)])
    per = settings.pace / 60
    return VariantResult(
        variant=variant,
        games=n,
        engine=name,
        seconds=seconds,
        throws=Length.of(throws),
        actions=Length.of(actions),
        turns=Length.of([g.turns for g in games]),
        minutes=Estimate(steps.value * per, steps.low * per, steps.high * per),
        draws=rate(sum(g.drawn for g in games), n),
        unfinished=rate(sum(not g.finished for g in games), n),
        seat_wins=seat_wins,
        team_wins=team_wins,
        first_mover=rate(led, len(decided)),
        fair_share=1 / sides,
        captures=mean_of([g.captures for g in games]),
        comeback=_comeback(ruleset, _midpoints(ruleset, settings, games, name), games),
        skill=skill,
        strong=strong,
        strong_player=strong_player,
    )


def _play(
    ruleset: Ruleset,
    settings: Settings,
    bots: Sequence[Any],
    name: str,
    progress: Progress | None,
    first: int = 0,
    games: int | None = None,
) -> list[GameStats]:
    count = settings.games if games is None else games
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
    ruleset: Ruleset, settings: Settings, games: Sequence[GameStats], name: str
) -> list[State]:
    """Where each game stood after half its throws and actions: the same game played
    again, with its own generators, and stopped there by the step cap."""
    names = [settings.players] * 4
    halves: dict[int, list[int]] = {}
    for i, g in enumerate(games):
        halves.setdefault(max(1, (g.throws + g.actions) // 2), []).append(i)
    out: list[State | None] = [None] * len(games)
    if name == "fast":
        from pachisi.ai.playouts import simulate_games

        # Games of the same half length stop at the same cap: one call each.
        for half, indices in halves.items():
            result = simulate_games(
                ruleset, settings.seed, indices, names, max_turns=settings.max_turns,
                max_steps=half,
            )  # fmt: skip
            for j, i in enumerate(indices):
                out[i] = result.final_state(j, ruleset)
    else:
        bots = [make_player(settings.players)] * 4
        for half, indices in halves.items():
            for i in indices:
                dice, choices = cowries.game_rngs(settings.seed, i)
                out[i], _ = play_on(
                    engine.new_game(ruleset), dice, bots, bot_rng=choices,
                    max_turns=settings.max_turns, max_steps=half,
                )  # fmt: skip
    return [state for state in out if state is not None]


def _comeback(ruleset: Ruleset, midpoints: Sequence[State], games: Sequence[GameStats]) -> Estimate:
    """How often the side that led at the midpoint did not win (:attr:`VariantResult.comeback`)."""
    sides = range(engine.side_count(ruleset))
    seats = [engine.side_seats(ruleset, side) for side in sides]
    won = counted = 0
    for state, g in zip(midpoints, games, strict=True):
        if g.winner is None:
            continue
        progress = [
            sum(state.pos[4 * s + i] for s in seats[side] for i in range(4)) for side in sides
        ]
        ahead = max(progress)
        if progress.count(ahead) > 1:
            continue
        counted += 1
        won += progress.index(ahead) != g.winner
    return rate(won, counted)


def _pairs(
    ruleset: Ruleset,
    settings: Settings,
    stronger: str,
    weaker: str,
    count: int,
    name: str,
    progress: Progress | None,
) -> Estimate:
    """``stronger`` on seats 0 and 2 against ``weaker`` on 1 and 3 for half of ``count``
    games, the other way round for the other half (the same throws: games of the same
    indices), so that neither side of the board favours either player; the stronger
    side's share of the games."""
    strong, weak = make_player(stronger), make_player(weaker)
    half = count // 2
    # Games after the measured ones: their own throws.
    first = settings.games
    even = _play(ruleset, settings, [strong, weak] * 2, name, progress, first, half)
    odd = _play(ruleset, settings, [weak, strong] * 2, name, progress, first, half)
    won = sum(bool({0, 2} & set(g.winning_seats)) for g in even)
    won += sum(bool({1, 3} & set(g.winning_seats)) for g in odd)
    return rate(won, 2 * half)
