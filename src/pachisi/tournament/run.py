"""Playing the games of a tournament, in this process or spread over worker processes.

:func:`play` plays one :class:`~pachisi.tournament.schedule.GameSpec` with fresh players
and the generators the spec's seed gives, so a game's result depends on its spec alone:
the same on one process or many, in any order. Any backend that can map a function over
picklable values (a process pool here, a cluster later) can run a tournament with it.

>>> from pachisi.rules.ruleset import get_ruleset
>>> from pachisi.tournament.schedule import make_schedule
>>> plan = make_schedule(["greedy", "random"], get_ruleset("classic"), games=2, seed=1)
>>> [r.winners for r in run_games(plan.specs)]
[('greedy',), ('greedy',)]
"""

from __future__ import annotations

import concurrent.futures
import functools
import itertools
import multiprocessing
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from pachisi.ai.bots import Bot
from pachisi.ai.budget import Budget
from pachisi.ai.games import play_game
from pachisi.ai.players import make_player
from pachisi.rules import engine
from pachisi.rules.actions import Action
from pachisi.rules.ruleset import Ruleset, parse_ruleset
from pachisi.rules.state import State
from pachisi.tournament.schedule import GameSpec, choice_rng, player_name, throw_rng

__all__ = ["GameResult", "Progress", "play", "run_games"]

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each game."""

_TASKS_PER_WORKER: Final = 4
"""Games handed to the pool per worker at a time."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one game of a tournament ended, with the spec that reproduces it."""

    spec: GameSpec
    winning_seats: tuple[int, ...]
    """The seats on the winning side; empty for a draw or an unfinished game."""
    drawn: bool
    """The game ended as a draw: no side could win any more (R-DEADLOCK) or no piece
    could move again (R-FROZEN)."""
    throws: int
    actions: int
    captures: int
    turns: int

    @property
    def finished(self) -> bool:
        """Whether the game ended by the rules (a win or a draw), not by a cap."""
        return self.drawn or bool(self.winning_seats)

    @property
    def winners(self) -> tuple[str, ...]:
        """The winning entrant (one label), or none for a draw or an unfinished game."""
        return tuple(dict.fromkeys(self.spec.seats[s] for s in self.winning_seats))


class _OwnGenerator:
    """A player that always chooses with its own generator, whatever the game loop passes.

    :func:`pachisi.ai.games.play_game` hands every seat the same generator; a tournament
    gives each side its own (see :func:`~pachisi.tournament.schedule.choice_rng`).
    """

    def __init__(self, player: Bot, rng: random.Random) -> None:
        self._player = player
        self._rng = rng

    @property
    def name(self) -> str:
        return self._player.name

    def choose(self, state: State, rng: random.Random, budget: Budget | None = None) -> Action:
        return self._player.choose(state, self._rng, budget)


@functools.lru_cache(maxsize=8)
def _ruleset(text: str) -> Ruleset:
    return parse_ruleset(text)


def play(spec: GameSpec, make: Callable[[str], Bot] = make_player) -> GameResult:
    """Play one game of a tournament (a top-level function, so that workers can run it).

    Each side gets a fresh player, ``make(name)`` of its entrant's player name (a label
    such as ``medium#2`` names ``medium``), used for both seats of a team, and its own
    choice generator; the throws come from the deal's generator. ``make`` is how a player
    of your own enters: a function that returns it for its name, and a built-in player
    for the others (with workers, a module-level function, so that it can be pickled).
    """
    ruleset = _ruleset(spec.ruleset)
    players = {
        side: _OwnGenerator(
            make(player_name(spec.seats[side])),
            choice_rng(spec.seed, spec.deal, spec.rotation, side),
        )
        for side in range(engine.side_count(ruleset))
    }
    seated = [players[engine.side_of(ruleset, seat)] for seat in range(4)]
    stats = play_game(
        ruleset,
        throw_rng(spec.seed, spec.deal),
        seated,
        max_turns=spec.max_turns,
        max_steps=spec.max_steps,
    )
    return GameResult(
        spec=spec,
        winning_seats=stats.winning_seats,
        drawn=stats.drawn,
        throws=stats.throws,
        actions=stats.actions,
        captures=stats.captures,
        turns=stats.turns,
    )


def run_games(
    specs: Sequence[GameSpec],
    *,
    workers: int = 1,
    progress: Progress | None = None,
    make: Callable[[str], Bot] = make_player,
) -> list[GameResult]:
    """Play every game, in order of the specs, on ``workers`` processes, each with the
    players ``make`` gives (:func:`play`).

    The results are the same for any ``workers``. Worker processes are started with
    ``spawn`` (as :func:`pachisi.simulate.simulate` does) and each game is one task, so
    that slow players share the work evenly to the end; a few tasks per worker are handed
    out at a time, so that a long tournament holds few in memory and stops soon on Ctrl-C.
    """
    if workers < 1:
        raise ValueError("at least one worker is needed")
    total = len(specs)
    if workers == 1 or total <= 1:
        results = []
        for spec in specs:
            results.append(play(spec, make))
            if progress is not None:
                progress(len(results), total)
        return results
    done: dict[int, GameResult] = {}
    waiting = iter(enumerate(specs))
    window = _TASKS_PER_WORKER * workers
    context = multiprocessing.get_context("spawn")
    pool = concurrent.futures.ProcessPoolExecutor(min(workers, total), mp_context=context)
    try:
        running: dict[concurrent.futures.Future[GameResult], int] = {}
        while True:
            for i, spec in itertools.islice(waiting, window - len(running)):
                running[pool.submit(play, spec, make)] = i
            if not running:
                break
            finished, _ = concurrent.futures.wait(
                running, return_when=concurrent.futures.FIRST_COMPLETED
            )
            for future in finished:
                done[running.pop(future)] = future.result()
                if progress is not None:
                    progress(len(done), total)
    finally:
        # On an error or Ctrl-C, drop the games not yet started instead of waiting for them.
        pool.shutdown(wait=True, cancel_futures=True)
    return [done[i] for i in range(total)]
