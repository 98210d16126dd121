"""The computer players by name: the registry behind ``--bots`` and ``--players``.

>>> sorted(PLAYER_NAMES)[:2]
['greedy', 'random']
>>> make_player("nobody")
Traceback (most recent call last):
...
pachisi.ai.bots.UnknownBotError: unknown player 'nobody'; choose one of: greedy, random
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from pachisi.ai.bots import Bot, GreedyBot, RandomBot, UnknownBotError

__all__ = ["PLAYER_NAMES", "make_player"]

_FACTORIES: Final[dict[str, Callable[[], Bot]]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}

PLAYER_NAMES: Final = tuple(sorted(_FACTORIES))
"""The names :func:`make_player` accepts."""


def make_player(name: str) -> Bot:
    """A new player by name; :class:`UnknownBotError` (a ``ValueError``) otherwise."""
    factory = _FACTORIES.get(name.strip().lower())
    if factory is None:
        raise UnknownBotError(f"unknown player {name!r}; choose one of: {', '.join(PLAYER_NAMES)}")
    return factory()
