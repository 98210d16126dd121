"""Where an exploration's jobs run: here, on worker processes, or on Ray.

Every runner calls ``on_result(i, result)`` as job ``i`` finishes, in whatever order the
jobs do; the games of a job do not depend on where it ran, so the figures are the same.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import multiprocessing
from collections.abc import Callable, Sequence

from pachisi.explore.run import Job, JobResult, run_job
from pachisi.explore.settings import LOCAL_RAY

__all__ = ["LOCAL_RAY", "run_jobs"]

OnResult = Callable[[int, JobResult], None]
JOBS_PER_WORKER = 4
"""Jobs handed to each worker process at a time, as the Ray runner keeps per CPU."""


def run_jobs(
    jobs: Sequence[Job],
    on_result: OnResult,
    *,
    workers: int = 1,
    ray: str | None = None,
) -> None:
    """Run every job: here (``workers`` 1), on ``workers`` processes, or on Ray (``ray``
    a cluster's address, or :data:`LOCAL_RAY` for a Ray on this machine's ``workers``
    CPUs when more than one is given, else all of them)."""
    if ray is not None:
        from pachisi.tournament.ray_backend import map_on_ray

        local = ray == LOCAL_RAY
        map_on_ray(
            run_job,
            jobs,
            address=None if local else ray,
            num_cpus=(workers if workers > 1 else None) if local else None,
            on_result=on_result,
        )
        return
    if workers == 1 or len(jobs) <= 1:
        for i, job in enumerate(jobs):
            on_result(i, run_job(job))
        return
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        # A few jobs per worker in flight, the next sent as one finishes: a sweep of a
        # million games holds a window of jobs, not all of them.
        waiting = iter(enumerate(jobs))
        running: dict[concurrent.futures.Future[JobResult], int] = {}
        try:
            while True:
                for i, job in itertools.islice(waiting, JOBS_PER_WORKER * workers - len(running)):
                    running[pool.submit(run_job, job)] = i
                if not running:
                    break
                done, _ = concurrent.futures.wait(
                    running, return_when=concurrent.futures.FIRST_COMPLETED
                )
                for future in done:
                    on_result(running.pop(future), future.result())
        except BaseException:
            for future in running:
                future.cancel()
            raise
