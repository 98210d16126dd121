"""The computer players by name: the registry behind ``--bots`` and ``--players``.

Players: ``random``, ``greedy``, ``expectimax``, ``mcts`` (each with its default budget) and
``learned`` (one action ahead with the self-trained network, :mod:`pachisi.ai.learned`);
levels for people: ``easy``, ``medium``, ``hard``, ``expert`` (:mod:`pachisi.ai.levels`).

>>> PLAYER_NAMES
('random', 'greedy', 'expectimax', 'mcts', 'learned', 'easy', 'medium', 'hard', 'expert')
>>> make_player("nobody")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pachisi.ai.bots.UnknownBotError: unknown player 'nobody'; choose one of: random, greedy, ...
>>> make_player("mcts:3000").name
'mcts:3000'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from pachisi.ai.bots import Bot, GreedyBot, RandomBot, UnknownBotError
from pachisi.ai.budget import Budget
from pachisi.ai.expectimax import ExpectimaxPlayer
from pachisi.ai.levels import LEVELS, Level
from pachisi.ai.mcts import MctsPlayer

__all__ = ["PLAYER_NAMES", "make_player"]


def _learned() -> Bot:
    # Imported on use: the network's encoder reads the compiled engine's tables, and
    # loading that package would slow down every command that names no player.
    from pachisi.ai.learned.player import LearnedPlayer

    return LearnedPlayer()


_FACTORIES: Final[dict[str, Callable[[], Bot]]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "expectimax": ExpectimaxPlayer,
    "mcts": MctsPlayer,
    "learned": lambda: _learned(),
    **LEVELS,
}

PLAYER_NAMES: Final = tuple(_FACTORIES)
"""The names :func:`make_player` accepts: the players, then the levels, easiest first."""


SEARCHING: Final = ("expectimax", "mcts", "hard", "expert")
"""The names that take a budget of their own as ``NAME:PLAYOUTS``."""


def make_player(name: str) -> Bot:
    """A new player by name; :class:`UnknownBotError` (a ``ValueError``) otherwise.

    ``NAME:N`` gives a searching player (:data:`SEARCHING`) a budget of ``N`` playouts per
    decision instead of its own, e.g. ``mcts:3000`` (no time limit: the same seed gives
    the same game).
    """
    key = name.strip().lower()
    base, colon, count = key.partition(":")
    factory = _FACTORIES.get(base)
    if factory is None:
        raise UnknownBotError(f"unknown player {name!r}; choose one of: {', '.join(PLAYER_NAMES)}")
    if not colon:
        return factory()
    if base not in SEARCHING:
        raise UnknownBotError(
            f"{base!r} does not search, so it takes no budget; only {', '.join(SEARCHING)} do"
        )
    if not count.isdigit() or not 1 <= int(count) <= 10**7:
        raise UnknownBotError(f"{name!r}: the budget after ':' is a number of playouts, 1..10^7")
    return Level(key, factory(), Budget(playouts=int(count)))
