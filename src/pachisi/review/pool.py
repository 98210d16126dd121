"""Judging a review's tasks in worker processes: the ``run`` of ``pachisi review
--workers N`` (the web server uses its own pool)."""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import multiprocessing
from collections.abc import Iterator, Sequence

from pachisi.review.judging import Run, judge_all
from pachisi.review.model import THRESHOLDS, Task, Thresholds, Verdict

__all__ = ["process_pool"]


@contextlib.contextmanager
def process_pool(
    workers: int, *, seed: int = 0, thresholds: Thresholds = THRESHOLDS
) -> Iterator[Run]:
    """A ``run`` for :func:`~pachisi.review.judging.review` that judges each chunk of tasks
    in ``workers`` processes, giving the same verdicts as judging them here.

    The processes are started with ``spawn``, as the other commands' pools are, and stop
    when the block ends; on an error or Ctrl-C the tasks not yet started are dropped.
    """
    if workers < 1:
        raise ValueError(f"at least one worker is needed, not {workers}")
    work = functools.partial(judge_all, seed=seed, thresholds=thresholds)
    if workers == 1:
        yield work
        return
    context = multiprocessing.get_context("spawn")
    pool = concurrent.futures.ProcessPoolExecutor(workers, mp_context=context)

    def run(chunk: list[Task]) -> list[Verdict]:
        # Dealt out in turn, so that the searched decisions (not the throws, which cost
        # nothing) are shared evenly whatever their order in the chunk.
        parts = [chunk[i::workers] for i in range(workers)]
        answers: Sequence[list[Verdict]] = list(pool.map(work, [p for p in parts if p]))
        verdicts = [v for answer in answers for v in answer]
        return sorted(verdicts, key=lambda v: v.step)

    try:
        yield run
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
