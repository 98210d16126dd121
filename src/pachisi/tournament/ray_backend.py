"""Playing a tournament's games on Ray: on a cluster given by its address, or on a Ray
started here for the run and stopped after it.

Each game is one Ray task that runs :func:`~pachisi.tournament.run.play` on its
:class:`~pachisi.tournament.schedule.GameSpec`, exactly as the worker processes of
:func:`~pachisi.tournament.run.run_games` do, and the results are put back in the order of
the specs: a tournament on Ray gives the same results as one here for the same seed,
whatever order its games finish in (a task Ray retries after a lost worker replays the
same game). Every node of a cluster needs the same pachisi, ray and Python as this one.

Ray is the optional extra ``pachisi[ray]``, imported only when games run on it, so
``import pachisi`` and ``pachisi --help`` never load it.

>>> parse_address("127.0.0.1:6379")
('127.0.0.1', 6379)
>>> from pachisi.rules.ruleset import get_ruleset
>>> from pachisi.tournament.run import run_games
>>> from pachisi.tournament.schedule import make_schedule
>>> plan = make_schedule(["greedy", "random"], get_ruleset("classic"), games=2, seed=1)
>>> run_games_on_ray(plan.specs) == run_games(plan.specs)  # doctest: +SKIP
True
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import re
import socket
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Final, TypeVar

from pachisi.tournament.run import GameResult, Progress, play
from pachisi.tournament.schedule import GameSpec

if TYPE_CHECKING:
    from ray import ObjectRef

__all__ = [
    "AUTO",
    "INSTALL_HINT",
    "RayError",
    "map_on_ray",
    "parse_address",
    "require_ray",
    "run_games_on_ray",
    "stream_on_ray",
]

INSTALL_HINT: Final = "pip install 'pachisi[ray]'"
"""What installs Ray for pachisi (the pinned version of the extra)."""
AUTO: Final = "auto"
"""The address that means the cluster ``ray start`` last started on this machine (or
``RAY_ADDRESS``), as :func:`ray.init` takes it."""

J = TypeVar("J")
R = TypeVar("R")

_TASKS_PER_CPU: Final = 4
"""Games handed to the cluster per CPU at a time, as per worker in ``run_games``."""
_PROBE_SECONDS: Final = 5.0
"""How long to wait for the head node to accept a connection before giving up on it."""
_HOST_PORT: Final = re.compile(r"(?:ray://)?(\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):([0-9]{1,5})")


class RayError(Exception):
    """Ray cannot run the tournament: it is not installed, or the cluster is out of reach."""


def require_ray() -> None:
    """Import Ray, or say how to install it (:class:`RayError`)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        raise RayError(f"Ray is not installed: {INSTALL_HINT}") from None


def parse_address(address: str) -> tuple[str, int] | None:
    """The host and port of a cluster's head node, from ``host:port`` (as ``ray start
    --head`` prints it; ``ray://`` in front for Ray Client), or None for :data:`AUTO`.

    >>> parse_address("ray://[::1]:10001")
    ('::1', 10001)
    >>> parse_address("auto") is None
    True
    >>> parse_address("localhost")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    pachisi.tournament.ray_backend.RayError: 'localhost' is not a Ray address: ...
    """
    if address == AUTO:
        return None
    match = _HOST_PORT.fullmatch(address)
    if match is None or not 1 <= int(match[2]) <= 65535:
        shown = address if len(address) <= 40 else address[:37] + "..."
        raise RayError(
            f"{shown!r} is not a Ray address: give the head node's host:port "
            "(as `ray start --head` prints it) or auto"
        )
    return match[1].strip("[]"), int(match[2])


def run_games_on_ray(
    specs: Sequence[GameSpec],
    *,
    address: str | None = None,
    num_cpus: int | None = None,
    progress: Progress | None = None,
) -> list[GameResult]:
    """Play every game as a Ray task and return the results in the order of the specs.

    With no ``address``, a local Ray is started for the run, on ``num_cpus`` CPUs (default:
    all of them), without its dashboard, usage statistics or the workers' output, and is
    stopped at the end. With an ``address`` (:func:`parse_address`), the games run on that
    cluster, whose size is its own (``num_cpus`` must be None), and this process only
    disconnects at the end. A process already connected to Ray (``ray.init`` called) plays
    on that Ray and stays connected; ``address`` and ``num_cpus`` are then unused.

    Raises :class:`RayError` when Ray is not installed or the cluster cannot be reached.
    """
    total = len(specs)
    done = [0]

    def finished(_: int, __: GameResult) -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0], total)

    return map_on_ray(play, specs, address=address, num_cpus=num_cpus, on_result=finished)


def map_on_ray(
    function: Callable[[J], R],
    jobs: Sequence[J],
    *,
    address: str | None = None,
    num_cpus: int | None = None,
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:
    """``[function(job) for job in jobs]``, each call a Ray task, on a local Ray or a
    cluster as :func:`run_games_on_ray` says; ``on_result(i, result)`` is called as job
    ``i`` finishes, in whatever order they do. ``function`` must be importable by the
    workers (a module's top-level function)."""
    done: dict[int, R] = {}

    def keep(i: int, _: J, result: R) -> None:
        done[i] = result
        if on_result is not None:
            on_result(i, result)

    _on_ray(function, jobs, keep, address, num_cpus)
    return [done[i] for i in range(len(jobs))]


def stream_on_ray(
    function: Callable[[J], R],
    jobs: Iterable[J],
    on_result: Callable[[J, R], None],
    *,
    address: str | None = None,
    num_cpus: int | None = None,
) -> None:
    """:func:`map_on_ray` for a stream of jobs whose results are not kept: ``jobs`` is
    read a window at a time and each result goes only to ``on_result(job, result)``, so
    a sweep of any length holds a few jobs per CPU."""
    _on_ray(function, jobs, lambda _, job, result: on_result(job, result), address, num_cpus)


def _on_ray(
    function: Callable[[J], R],
    jobs: Iterable[J],
    on_result: Callable[[int, J, R], None],
    address: str | None,
    num_cpus: int | None,
) -> None:
    if address is not None and num_cpus is not None:
        raise ValueError("a cluster has its own CPUs: num_cpus is only for a local Ray")
    require_ray()
    import ray

    if ray.is_initialized():
        _stream(function, jobs, on_result)
        return
    try:
        if address is None:
            with _unless_set(RAY_USAGE_STATS_ENABLED="0"):
                ray.init(
                    address="local",  # a new Ray, not one `ray start` or RAY_ADDRESS names
                    num_cpus=num_cpus,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                )
        else:
            _connect(address)
        _stream(function, jobs, on_result)
    finally:
        # Also after a failed or interrupted start: a local Ray stops with its processes,
        # from a cluster this process disconnects.
        ray.shutdown(wait_for_processes=address is None)


def _connect(address: str) -> None:
    import ray

    head = parse_address(address)
    if head is not None:
        # Ray waits many minutes for a head that does not answer: look first.
        try:
            with socket.create_connection(head, timeout=_PROBE_SECONDS):
                pass
        except OSError as exc:
            reason = exc.strerror or str(exc) or type(exc).__name__
            raise RayError(f"cannot reach the Ray cluster at {address}: {reason}") from None
    try:
        ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    except (ConnectionError, RuntimeError, ValueError, ImportError) as exc:
        raise RayError(f"cannot connect to the Ray cluster at {address}: {_why(exc)}") from None


def _why(exc: BaseException) -> str:
    """The reason a connection failed, in a line."""
    chain = []
    cause: BaseException | None = exc
    while cause is not None:
        chain.append(str(cause))
        cause = cause.__cause__ or cause.__context__
    if any("InvalidAuthToken" in text for text in chain):
        return (
            "it refused this process's authentication token (set RAY_AUTH_MODE=token, and "
            "RAY_AUTH_TOKEN or ~/.ray/auth_token to the cluster's token)"
        )
    first = " ".join(str(exc).split())
    return first if len(first) <= 300 else first[:297] + "..."


def _stream(
    function: Callable[[J], R], jobs: Iterable[J], on_result: Callable[[int, J, R], None]
) -> None:
    import ray

    remote = ray.remote(num_cpus=1)(function)
    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    cpus = int(resources.get("CPU", 1))
    window = _TASKS_PER_CPU * max(cpus, 1)
    waiting = iter(enumerate(jobs))
    running: dict[ObjectRef[R], tuple[int, J]] = {}
    try:
        while True:
            for i, job in itertools.islice(waiting, window - len(running)):
                running[remote.remote(job)] = (i, job)
            if not running:
                break
            finished, _ = ray.wait(list(running), num_returns=1)
            for ref in finished:
                i, job = running.pop(ref)
                on_result(i, job, ray.get(ref))
    finally:
        # On an error or Ctrl-C, do not leave jobs running on the cluster.
        for ref in running:
            with contextlib.suppress(Exception):
                ray.cancel(ref)


@contextlib.contextmanager
def _unless_set(**values: str) -> Iterator[None]:
    """Set environment variables the user has not set, for the Ray processes started in
    the block (they copy the environment), and take them away after."""
    added = {name: value for name, value in values.items() if name not in os.environ}
    os.environ.update(added)
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)
