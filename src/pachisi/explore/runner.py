"""Where an exploration's jobs run: here, on worker processes, or on Ray.

Every runner calls ``on_result(job, result)`` as each job finishes, in whatever order the
jobs do, and keeps nothing; the games of a job do not depend on where it ran, so the
figures are the same.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import multiprocessing
from collections.abc import Callable, Iterable

from pachisi.explore.run import Job, JobResult, run_job
from pachisi.explore.settings import LOCAL_RAY

__all__ = ["LOCAL_RAY", "run_jobs"]

OnResult = Callable[[Job, JobResult], None]
JOBS_PER_WORKER = 4
"""Jobs handed to each worker process at a time, as the Ray runner keeps per CPU."""


def run_jobs(
    jobs: Iterable[Job],
    on_result: OnResult,
    *,
    workers: int = 1,
    ray: str | None = None,
) -> None:
    """Run every job: here (``workers`` 1), on ``workers`` processes, or on Ray (``ray``
    a cluster's address, or :data:`LOCAL_RAY` for a Ray on this machine's ``workers``
    CPUs when more than one is given, else all of them). ``jobs`` is read a window at a
    time and no result is kept here: ``on_result(job, result)`` has each one."""
    if ray is not None:
        from pachisi.tournament.ray_backend import stream_on_ray

        local = ray == LOCAL_RAY
        stream_on_ray(
            run_job,
            jobs,
            on_result,
            address=None if local else ray,
            num_cpus=(workers if workers > 1 else None) if local else None,
        )
        return
    if workers == 1:
        for job in jobs:
            on_result(job, run_job(job))
        return
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        # A few jobs per worker in flight, the next sent as one finishes: a sweep of a
        # million games holds a window of jobs, not all of them.
        waiting = iter(jobs)
        running: dict[concurrent.futures.Future[JobResult], Job] = {}
        try:
            while True:
                for job in itertools.islice(waiting, JOBS_PER_WORKER * workers - len(running)):
                    running[pool.submit(run_job, job)] = job
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
