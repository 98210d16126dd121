"""What long commands show on a terminal while they work: a progress bar, and a notice
while the compiled engine compiles (:mod:`rich` draws both, on standard error).

>>> with games_bar(3, show=False) as advance:
...     advance(3, 3)
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)

__all__ = ["compiling_notice", "games_bar"]

_NOTICE_AFTER = 0.5
"""Seconds of waiting before the compile notice appears (a cached load takes less)."""


@contextlib.contextmanager
def games_bar(total: int, *, show: bool) -> Iterator[Callable[[int, int], None]]:
    """A progress bar of games played, as a ``progress(done, total)`` callback."""
    if not show:
        yield lambda done, total: None
        return
    bar = Progress(
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task("games", total=total)
    with bar:
        yield lambda done, total: bar.update(task, completed=done)


def compiling_notice(warm_up: Callable[[], bool], *, stream: TextIO | None = None) -> float:
    """Run ``warm_up`` (which loads the compiled engine, or compiles it and returns True)
    and say so when it compiles.

    On a terminal a spinner appears once the wait passes half a second; if the engine was
    compiled, a line on standard error tells how long that took. Returns the seconds.
    """
    err = sys.stderr if stream is None else stream
    done = threading.Event()

    def spin() -> None:
        if done.wait(_NOTICE_AFTER):
            return
        with Progress(
            SpinnerColumn(),
            TextColumn("Preparing the fast engine (compiled once after an install, then cached)"),
            TimeElapsedColumn(),
            console=Console(file=err),
            transient=True,
        ) as spinner:
            spinner.add_task("compile", total=None)
            done.wait()

    thread = threading.Thread(target=spin, daemon=True)
    start = time.perf_counter()
    if err.isatty():
        thread.start()
    try:
        compiled = warm_up()
    finally:
        done.set()
        if thread.is_alive():
            thread.join()
    seconds = time.perf_counter() - start
    if compiled:
        print(
            f"pachisi: compiled the fast engine in {seconds:.1f} s; later runs load it from "
            "the cache",
            file=err,
        )
    return seconds
