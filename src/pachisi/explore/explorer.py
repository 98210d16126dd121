"""Running an exploration: rounds of jobs over the variants, counted as they finish,
written to the results file, until the precision asked for (:func:`explore`).

>>> from pachisi.explore.variants import grid_variants
>>> plan = grid_variants("capture_bonus=true,false")
>>> results = explore(plan, Settings(games=20, seed=1))
>>> [r.variant.label for r in results]
['classic', 'classic+capture_bonus=false']
>>> results[0].games, 0 <= results[0].draws.value <= 1
(20, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from pachisi.explore.measures import Estimate
from pachisi.explore.results import ResultsFile
from pachisi.explore.run import Job, JobResult, engine_for, strong_player
from pachisi.explore.runner import run_jobs
from pachisi.explore.settings import Settings
from pachisi.explore.tally import Tally, VariantResult
from pachisi.explore.variants import Plan

__all__ = ["CHUNK", "PAIR_CHUNK", "explore", "narrow_enough"]


CHUNK = 500
"""Measured games per job: enough to outweigh a job's start, few enough to share a
variant's round among workers."""
PAIR_CHUNK = 40
"""Skill games per job (an even number): ``learned``'s games take a fraction of a second."""


def explore(
    plan: Plan,
    settings: Settings,
    progress: Callable[[int], None] | None = None,
    *,
    results: str | None = None,
    version: str = "",
    ray: str | None = None,
) -> list[VariantResult]:
    """Measure every variant of ``plan`` under ``settings``, in the plan's order.

    One round plays ``settings.games`` measured games of each variant (and its skill
    games); with ``settings.precision``, rounds go on for the variants whose intervals are
    still wider (:func:`narrow_enough`), up to ``settings.max_games``. A round's games are
    jobs of at most :data:`CHUNK` games, run here, on ``settings.workers`` processes, or on
    Ray (``ray``: a cluster's address, or ``"local"``), with the same figures.
    ``results`` names a results file: every batch is written to it as soon as it is
    played, and a run that finds its own file resumes from it, playing only the games the
    file lacks. ``progress(n)`` is called as each batch of
    ``n`` games is played.
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
            _play_round([(t, targets[id(t)]) for t in pending], settings, file, progress, ray)
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


def _jobs(tally: Tally, rounds: int, settings: Settings) -> Iterator[Job]:
    """The jobs that take ``tally``'s variant to ``rounds`` rounds: every game of each
    kind it lacks below that, in jobs of at most :data:`CHUNK` (:data:`PAIR_CHUNK`)."""
    wanted = min(rounds * settings.games, settings.max_games)
    for start, stop in tally.missing("games", wanted):
        for first in range(start, stop, CHUNK):
            size = min(CHUNK, stop - first)
            yield Job("games", tally.variant, settings, tally.engine, first, size)
    for kind, per_round in (("skill", settings.skill_games), ("strong", settings.strong_games)):
        if not per_round or (kind == "strong" and tally.strong_player is None):
            continue
        name = tally.engine if kind == "skill" else "reference"
        for start, stop in tally.missing(kind, rounds * per_round):
            for first in range(start, stop, PAIR_CHUNK):
                size = min(PAIR_CHUNK, stop - first)
                yield Job(kind, tally.variant, settings, name, first, size)


def _play_round(
    wanted: list[tuple[Tally, int]],
    settings: Settings,
    file: ResultsFile | None,
    progress: Callable[[int], None] | None,
    ray: str | None,
) -> None:
    """Run the jobs of one round, counting and writing each batch as soon as it is played
    (in whatever order the batches finish: a run stopped at any moment has lost only the
    batches still being played)."""
    by_label = {tally.variant.label: tally for tally, _ in wanted}

    def finished(job: Job, result: JobResult) -> None:
        if progress is not None:
            progress(job.size)
        _count(by_label[job.variant.label], job, result, file)

    # The jobs are made as the runner asks for them: a round of any size holds a window.
    jobs = (job for tally, rounds in wanted for job in _jobs(tally, rounds, settings))
    run_jobs(jobs, finished, workers=settings.workers, ray=ray)


def _count(tally: Tally, job: Job, result: JobResult, file: ResultsFile | None) -> None:
    records, won, seconds = result
    tally.cover(job.kind, job.first, job.size)
    if job.kind == "games":
        tally.add(records)
        tally.seconds += seconds
        if file is not None:
            file.games(tally, job.first, records, seconds)
    else:
        tally.add_pairs(job.kind, job.size, won)
        if file is not None:
            file.pairs(tally, job.kind, job.first, job.size, won)


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
