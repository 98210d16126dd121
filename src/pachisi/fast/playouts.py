"""Complete games in compiled code: from the start (simulations) or from any position.

:func:`simulate_games` plays the games of :func:`pachisi.simulate.simulate` exactly: game
``i`` throws with the same generator (:func:`pachisi.rules.cowries.game_rngs`) and its players
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
from dataclasses import dataclass, field
from typing import Final

import numpy as np
import numpy.typing as npt

from pachisi.ai.bots import REACH_FLOOR, Bot, GreedyBot, RandomBot, Weights, _single_throw_chances
from pachisi.arguments import INT32_MAX, reachable, whole
from pachisi.fast import _playout
from pachisi.fast._rng import mt_random, mt_state, seed_mt, splitmix64
from pachisi.fast.convert import to_row, to_state
from pachisi.fast.layout import MAX_ITEMS, OVERFLOW, STATE_SIZE, WINNER
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
    """The final state rows (:meth:`final_state` gives the reference states)."""
    throws: npt.NDArray[np.int32]
    actions: npt.NDArray[np.int32]
    captures: npt.NDArray[np.int32]
    """Capture events, as :class:`pachisi.simulate.GameStats` counts them."""
    handed_over: dict[int, State] = field(default_factory=dict)
    """The final states of the games that outgrew the compiled engine's row (a series of
    more than ``MAX_ITEMS`` collected throws) and were played on in the reference engine,
    by game index. Their rows hold the final state too, where a row can hold it."""

    @property
    def winners(self) -> npt.NDArray[np.int32]:
        """The winning team (seat under ``teams=individual``); -2 a draw, -1 unfinished."""
        return self.rows[:, WINNER].copy()

    def final_state(self, j: int, ruleset: Ruleset) -> State:
        """The reference state game ``j`` ended in."""
        if j in self.handed_over:
            return self.handed_over[j]
        return to_state(self.rows[j], ruleset)


PlayoutResults = GameResults

_BOTS: Final[dict[int, Bot]] = {_playout.RANDOM_BOT: RandomBot(), _playout.GREEDY_BOT: GreedyBot()}
"""The reference players that the compiled ones are, draw for draw."""


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
    handed = {
        j: _hand_over(
            c, rows, stats, j, throw_rngs[j], choice_rngs[j], players, max_turns, max_steps
        )
        for j in np.flatnonzero(rows[:, OVERFLOW]).tolist()
    }
    return GameResults(rows, stats[:, 0].copy(), stats[:, 1].copy(), stats[:, 2].copy(), handed)


def _hand_over(
    c: Compiled,
    rows: npt.NDArray[np.int32],
    stats: npt.NDArray[np.int32],
    j: int,
    throw_rng: npt.NDArray[np.uint32],
    choice_rng: npt.NDArray[np.uint32],
    players: npt.NDArray[np.int32],
    max_turns: int,
    max_steps: int,
) -> State:
    """Play game ``j`` on in the reference engine from where its row overflowed: first the
    throw that did not fit (kept in ``OVERFLOW``), then with the same generators and the
    same players, so the game is the one a reference run plays. Updates its row (where a
    row can hold the final state) and its statistics; returns the final state."""
    from pachisi.simulate import play_on

    row = rows[j].copy()
    k = int(row[OVERFLOW]) - 1
    row[OVERFLOW] = 0
    state, events = engine.apply_chance(to_state(row, c.ruleset), k)
    captures = int(stats[j, 2]) + sum(1 for e in events if e.kind == "capture")
    state, game = play_on(
        state,
        mt_random(throw_rng),
        [_BOTS[int(code)] for code in players],
        bot_rng=mt_random(choice_rng),
        max_turns=max_turns,
        max_steps=max_steps,
        done=(int(stats[j, 0]) + 1, int(stats[j, 1]), captures),
    )
    stats[j] = (game.throws, game.actions, game.captures)
    if len(state.items) <= MAX_ITEMS:
        rows[j] = to_row(state)
    else:
        rows[j, OVERFLOW] = 0  # an unfinished game, left where the row could still hold it
    return state


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
    plays them (the same throws, the same choices, the same results). A game whose series
    of throws outgrows the state row goes on in the reference engine (:class:`GameResults`)."""
    from pachisi.rules.cowries import game_rngs

    max_turns = whole("max_turns", max_turns, 1, INT32_MAX)
    max_steps = whole("max_steps", max_steps, 1, INT32_MAX)
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


MAX_PLAYOUTS: Final = 10_000_000
"""The most playouts one call plays (their rows take about 1 KB each)."""


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
    after ``max_steps`` throws and actions are left unfinished (winner -1). A game whose
    series of throws outgrows the state row goes on in the reference engine.

    ``n``, ``seed`` and ``max_steps`` are whole numbers (Python or numpy integers);
    ``start`` must be a position a game can reach, checked as the position reader checks.
    """
    state = read_position(start) if isinstance(start, str) else reachable(start)
    n = whole("the number of playouts", n, 0, MAX_PLAYOUTS)
    seed = whole("the playout seed", seed, 0, 2**40 - 1)
    max_steps = whole("max_steps", max_steps, 1, INT32_MAX)
    names = [players] * 4 if isinstance(players, str) else list(players)
    c = compiled(state.ruleset)
    codes = _players(names)
    rows = np.empty((n, STATE_SIZE), dtype=np.int32)
    rows[:] = to_row(state)
    stats = np.zeros((n, 3), dtype=np.int32)
    _playout.play_seeded(
        rows, c.params, c.p_mouth_up, c.weights, c.hit, codes, seed, INT32_MAX, max_steps, stats
    )
    handed = {}
    for j in np.flatnonzero(rows[:, OVERFLOW]).tolist():
        # play_seeded seeds one pair of generators per game and reuses them: replay the
        # game from the start with its own pair, then hand it over where it overflowed.
        throw_rng, choice_rng = _seeded_pair(seed, j)
        rows[j] = to_row(state)
        one = np.zeros((1, 3), dtype=np.int32)
        _playout.play_many(
            rows[j : j + 1], c.params, c.p_mouth_up, c.weights, c.hit, codes,
            throw_rng[None], choice_rng[None], INT32_MAX, max_steps, one,
        )  # fmt: skip
        stats[j] = one[0]
        handed[j] = _hand_over(
            c, rows, stats, j, throw_rng, choice_rng, codes, INT32_MAX, max_steps
        )
    return GameResults(rows, stats[:, 0].copy(), stats[:, 1].copy(), stats[:, 2].copy(), handed)


def _seeded_pair(seed: int, j: int) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32]]:
    """The generators :func:`pachisi.fast._playout.play_seeded` gives game ``j``."""
    base = (seed << 20) + 2 * j
    throws = np.empty(625, dtype=np.uint32)
    choices = np.empty(625, dtype=np.uint32)
    seed_mt(throws, splitmix64(base))
    seed_mt(choices, splitmix64(base + 1))
    return throws, choices


def final_states(results: GameResults, ruleset: Ruleset) -> list[State]:
    """The reference states the games ended in (for checks and position strings)."""
    return [results.final_state(j, ruleset) for j in range(results.rows.shape[0])]
