"""Complete games in compiled code: from the start (simulations) or from any position.

:func:`simulate_games` plays the games of :func:`pachisi.simulate.simulate` exactly: game
``i`` throws with the same generator (:func:`pachisi.simulate.game_rngs`) and its players
choose with the same draws, so both engines give the same results for the same seed.
:func:`playouts` plays ``n`` games on from one position, for Monte Carlo rollouts.

>>> from pachisi.rules.ruleset import get_ruleset
>>> result = playouts("0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t0 1 ludii", 8, seed=1)
>>> int(result.winners.shape[0]), sorted(set(result.winners.tolist())) <= [0, 1]
(8, True)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from pachisi.ai.bots import REACH_FLOOR, Weights, _single_throw_chances
from pachisi.fast import _playout
from pachisi.fast._rng import mt_state
from pachisi.fast.convert import to_row, to_state
from pachisi.fast.layout import OVERFLOW, STATE_SIZE, WINNER
from pachisi.fast.params import FastEngineError, compile_ruleset
from pachisi.notation import read_position
from pachisi.rules import engine
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import State

__all__ = ["PLAYERS", "Compiled", "PlayoutResults", "compiled", "playouts", "simulate_games"]

PLAYERS: Final = {"random": _playout.RANDOM_BOT, "greedy": _playout.GREEDY_BOT}
"""The players the compiled engine plays, by the names :func:`pachisi.ai.make_player` uses."""


@dataclass(frozen=True)
class Compiled:
    """A ruleset as the kernels take it, with the greedy player's tables."""

    ruleset: Ruleset
    params: npt.NDArray[np.int32]
    p_mouth_up: float
    weights: npt.NDArray[np.float64]
    hit: npt.NDArray[np.float64]
    """``hit[d]``: the chance that one throw is worth ``d``, 0.02 where none is (d < 26)."""


@functools.lru_cache(maxsize=64)
def compiled(ruleset: Ruleset) -> Compiled:
    """The compiled form of ``ruleset`` (cached); :class:`FastEngineError` if it cannot run."""
    params, p = compile_ruleset(ruleset)
    w = Weights()
    weights = np.array(
        [w.progress, w.enemy_progress, w.out, w.home, w.capture, w.castle, w.danger],
        dtype=np.float64,
    )
    chances = _single_throw_chances(ruleset)
    hit = np.array([chances.get(d, REACH_FLOOR) for d in range(26)], dtype=np.float64)
    return Compiled(ruleset, params, p, weights, hit)


def _players(names: Sequence[str]) -> npt.NDArray[np.int32]:
    if len(names) != 4:
        raise FastEngineError(f"need one player per seat (4), got {len(names)}")
    unknown = [n for n in names if n not in PLAYERS]
    if unknown:
        raise FastEngineError(
            f"the compiled engine plays {', '.join(PLAYERS)}; not {', '.join(unknown)}"
        )
    return np.array([PLAYERS[n] for n in names], dtype=np.int32)


@dataclass(frozen=True)
class GameResults:
    """What happened in a batch of complete games, one entry per game."""

    rows: npt.NDArray[np.int32]
    """The final state rows (``to_state`` turns one into a reference state)."""
    throws: npt.NDArray[np.int32]
    actions: npt.NDArray[np.int32]
    captures: npt.NDArray[np.int32]
    """Capture events, as :class:`pachisi.simulate.GameStats` counts them."""

    @property
    def winners(self) -> npt.NDArray[np.int32]:
        """The winning team (seat under ``teams=individual``); -2 a draw, -1 unfinished."""
        return self.rows[:, WINNER].copy()


PlayoutResults = GameResults


def _run(
    c: Compiled,
    rows: npt.NDArray[np.int32],
    throw_rngs: npt.NDArray[np.uint32],
    choice_rngs: npt.NDArray[np.uint32],
    players: npt.NDArray[np.int32],
    max_turns: int,
    max_steps: int,
) -> GameResults:
    stats = np.zeros((rows.shape[0], 3), dtype=np.int32)
    _playout.play_many(
        rows, c.params, c.p_mouth_up, c.weights, c.hit, players, throw_rngs, choice_rngs,
        max_turns, max_steps, stats,
    )  # fmt: skip
    return _results(rows, stats)


def _results(rows: npt.NDArray[np.int32], stats: npt.NDArray[np.int32]) -> GameResults:
    if rows[:, OVERFLOW].any():
        raise FastEngineError(
            "a game's series of throws outgrew the compiled engine's state row; "
            "play this ruleset with the reference engine"
        )
    return GameResults(rows, stats[:, 0].copy(), stats[:, 1].copy(), stats[:, 2].copy())


def simulate_games(
    ruleset: Ruleset,
    seed: int,
    indices: Sequence[int],
    players: Sequence[str],
    *,
    max_turns: int,
    max_steps: int,
) -> GameResults:
    """Games ``indices`` of the simulation ``seed``, as :func:`pachisi.simulate.play_game`
    plays them (the same throws, the same choices, the same results)."""
    from pachisi.simulate import game_rngs

    c = compiled(ruleset)
    codes = _players(players)
    n = len(indices)
    rows = np.empty((n, STATE_SIZE), dtype=np.int32)
    rows[:] = to_row(engine.new_game(ruleset))
    throw_rngs = np.empty((n, 625), dtype=np.uint32)
    choice_rngs = np.empty((n, 625), dtype=np.uint32)
    for j, i in enumerate(indices):
        dice, choices = game_rngs(seed, i)
        throw_rngs[j] = mt_state(dice)
        choice_rngs[j] = mt_state(choices)
    return _run(c, rows, throw_rngs, choice_rngs, codes, max_turns, max_steps)


def playouts(
    start: State | str,
    n: int,
    *,
    seed: int,
    players: str | Sequence[str] = "random",
    max_steps: int = 50_000,
) -> GameResults:
    """``n`` games played on from ``start`` (a state or a position string) to the end.

    Every game gets its own generators, seeded in compiled code from ``seed`` and its
    index, so the results are reproducible and a call costs little beyond its games.
    ``players`` is one player name for every seat or one per seat. Games still going
    after ``max_steps`` throws and actions are left unfinished (winner -1).
    """
    state = read_position(start) if isinstance(start, str) else start
    if n < 0:
        raise ValueError("the number of playouts cannot be negative")
    if not 0 <= seed < 2**40:
        raise ValueError("the playout seed is 0..2**40-1")
    names = [players] * 4 if isinstance(players, str) else list(players)
    c = compiled(state.ruleset)
    codes = _players(names)
    rows = np.empty((n, STATE_SIZE), dtype=np.int32)
    rows[:] = to_row(state)
    stats = np.zeros((n, 3), dtype=np.int32)
    _playout.play_seeded(
        rows, c.params, c.p_mouth_up, c.weights, c.hit, codes, seed, 2**31 - 1, max_steps, stats
    )
    return _results(rows, stats)


def final_states(results: GameResults, ruleset: Ruleset) -> list[State]:
    """The reference states the games ended in (for checks and position strings)."""
    return [to_state(row, ruleset) for row in results.rows]
