"""The variant explorer: what each rule really changes, measured on many games.

It plays the same seeded games under many rulesets (:mod:`~pachisi.explore.variants`: the
named ones, every one-switch flip of a base, or a grid), in rounds
(:mod:`~pachisi.explore.run`), counts them in bounded memory
(:mod:`~pachisi.explore.tally`, with the intervals of :mod:`~pachisi.explore.measures`),
streams every game to a results file it can resume from (:mod:`~pachisi.explore.results`)
and reports the variants side by side (:mod:`~pachisi.explore.report`); ``pachisi explore``
is its command (:mod:`~pachisi.explore.command`).

>>> plan = grid_variants("capture_bonus=true,false")
>>> results = explore(plan, Settings(games=20, seed=1))
>>> [r.variant.label for r in results]
['classic', 'classic+capture_bonus=false']
>>> results[0].games, 0 <= results[0].draws.value <= 1
(20, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable

from pachisi.explore.measures import Estimate
from pachisi.explore.results import ResultsError, ResultsFile
from pachisi.explore.run import engine_for, play_measured, play_pairs, strong_player
from pachisi.explore.settings import Settings
from pachisi.explore.tally import Tally, VariantResult
from pachisi.explore.variants import (
    ExplorePlanError,
    Plan,
    Variant,
    flip_variants,
    grid_variants,
    named_variants,
)

__all__ = [
    "ExplorePlanError",
    "Plan",
    "ResultsError",
    "Settings",
    "Variant",
    "VariantResult",
    "explore",
    "flip_variants",
    "grid_variants",
    "named_variants",
    "narrow_enough",
]


def explore(
    plan: Plan,
    settings: Settings,
    progress: Callable[[int], None] | None = None,
    *,
    results: str | None = None,
    version: str = "",
) -> list[VariantResult]:
    """Measure every variant of ``plan`` under ``settings``, in the plan's order.

    One round plays ``settings.games`` measured games of each variant (and its skill
    games); with ``settings.precision``, rounds go on for the variants whose intervals are
    still wider (:func:`narrow_enough`), up to ``settings.max_games``. ``results`` names a
    results file: every batch is written to it as it is played, and a run that finds its
    own file resumes from it, playing only the games it lacks. ``progress(n)`` is called
    as each batch of ``n`` games is played.
    """
    tallies = [Tally(v, engine_for(v.ruleset), strong_player=strong_player(v.ruleset))
               for v in plan.variants]  # fmt: skip
    if not settings.strong_games:
        for tally in tallies:
            tally.strong_player = None
    file = ResultsFile.open(results, settings, tallies, version) if results else None
    try:
        # Each variant's rounds so far: a resumed run first completes the round it was in.
        targets = {id(t): max(1, -(-t.games // settings.games)) for t in tallies}
        pending = list(tallies)
        while pending:
            for tally in pending:
                _play_to(tally, targets[id(tally)], settings, file, progress)
            if settings.precision is None:
                break
            pending = [
                t
                for t in tallies
                if t.games < settings.max_games
                and not narrow_enough(t.result(settings), settings.precision)
            ]
            for tally in pending:
                targets[id(tally)] += 1
    finally:
        if file is not None:
            file.close()
    return [t.result(settings) for t in tallies]


def _play_to(
    tally: Tally,
    rounds: int,
    settings: Settings,
    file: ResultsFile | None,
    progress: Callable[[int], None] | None,
) -> None:
    """Play ``tally``'s variant up to ``rounds`` rounds: measured games, then the skill
    games, each batch counted and written before the next is played."""
    wanted = min(rounds * settings.games, settings.max_games)
    while tally.games < wanted:
        first = tally.games
        count = min(settings.games, wanted - first)
        began = time.perf_counter()
        records = play_measured(tally.variant, settings, tally.engine, first, count, progress)
        seconds = time.perf_counter() - began
        tally.add(records)
        tally.seconds += seconds
        if file is not None:
            file.games(tally, first, records, seconds)
    for kind, per_round in (("skill", settings.skill_games), ("strong", settings.strong_games)):
        if not per_round or (kind == "strong" and tally.strong_player is None):
            continue
        name = tally.engine if kind == "skill" else "reference"
        while (played := tally.skill_games if kind == "skill" else tally.strong_games) < (
            rounds * per_round
        ):
            won = play_pairs(tally.variant, settings, kind, name, played, per_round, progress)
            tally.add_pairs(kind, per_round, won)
            if file is not None:
                file.pairs(tally, kind, played, per_round, won)


def narrow_enough(result: VariantResult, precision: float) -> bool:
    """Whether every interval of ``result`` is at most ``precision`` wide: the rates
    (draws, unfinished games, each seat's and team's wins, the first mover's side,
    comebacks, the skill matches) in absolute terms, the lengths, minutes and captures
    relative to their value."""
    rates: list[Estimate] = [
        result.draws,
        result.unfinished,
        result.first_mover,
        result.comeback,
        *result.seat_wins,
        *(result.team_wins or ()),
        *(e for e in (result.skill, result.strong) if e is not None),
    ]
    sizes = [
        e
        for length in (result.throws, result.actions, result.turns)
        for e in (length.mean, length.median, length.p90)
    ] + [result.minutes, result.captures]
    return all(e.width <= precision for e in rates) and all(
        e.width <= precision * max(abs(e.value), 1e-9) for e in sizes
    )
