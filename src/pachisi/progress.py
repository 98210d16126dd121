"""What long commands show on a terminal while they work: a progress bar of games
(:mod:`rich` draws it, on standard error).

>>> with games_bar(3, show=False) as advance:
...     advance(3, 3)
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

__all__ = ["games_bar"]


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
        yield lambda done, total: bar.update(task, completed=done, total=total)
