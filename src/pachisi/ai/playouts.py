"""Complete games of the compiled players (:mod:`pachisi.ai.compiled_bots`) in compiled code:
from the start (simulations) or from any position.

:func:`simulate_games` plays the games of :func:`pachisi.simulate.simulate` exactly: game
``i`` throws with the same generator (:func:`pachisi.rules.cowries.game_rngs`) and its players
choose with the same draws, so both engines give the same results for the same seed.
:func:`playouts` plays ``n`` games on from one position, for Monte Carlo rollouts. A game
that outgrows the compiled engine's state row goes on in the reference game loop
(:func:`pachisi.ai.games.play_on`).

>>> result = playouts("0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t0 1 ludii", 8, seed=1)
>>> int(result.winners.shape[0]), sorted(set(result.winners.tolist())) <= [0, 1]
(8, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

import numpy as np
import numpy.typing as npt

from pachisi.ai.compiled_bots import REFERENCE, Compiled, compiled, player_codes
from pachisi.ai.games import play_on
from pachisi.arguments import INT32_MAX, MAX_THREADS, reachable, whole
from pachisi.fast.batch import run_in_parts
from pachisi.fast.convert import to_row, to_state
from pachisi.fast.generators import MT_SIZE, mt_random, text_seeded
from pachisi.fast.layout import MAX_ITEMS, OVERFLOW, STATE_SIZE, TURN, WINNER
from pachisi.fast.native import core
from pachisi.notation import read_position
from pachisi.rules import engine
from pachisi.rules.cowries import game_seeds
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import State

__all__ = [
    "MAX_PLAYOUTS",
    "GameResults",
    "PlayoutResults",
    "final_states",
    "playouts",
    "simulate_games",
]


@dataclass(frozen=True)
class GameResults:
    """What happened in a batch of complete games, one entry per game."""

    rows: npt.NDArray[np.int32]
    """The final state rows (:meth:`final_state` gives the reference states)."""
    throws: npt.NDArray[np.int32]
    actions: npt.NDArray[np.int32]
    captures: npt.NDArray[np.int32]
    """Capture events, as :class:`pachisi.ai.games.GameStats` counts them."""
    handed_over: dict[int, State] = field(default_factory=dict)
    """The final states of the games that outgrew the compiled engine's row (a series of
    more than ``MAX_ITEMS`` collected throws) and were played on in the reference engine,
    by game index. Their rows hold the final state too, where a row can hold it."""

    @property
    def winners(self) -> npt.NDArray[np.int32]:
        """The winning team (seat under ``teams=individual``), as
        :attr:`pachisi.rules.state.State.winner`: ``DRAW`` (-2) a draw, ``NO_WINNER`` (-1)
        unfinished. A game handed over answers from its final state."""
        out = self.rows[:, WINNER].copy()
        for j, state in self.handed_over.items():
            out[j] = state.winner
        return out

    @property
    def turns(self) -> npt.NDArray[np.int32]:
        """The turn each game ended in (as :attr:`pachisi.rules.state.State.turn`)."""
        out = self.rows[:, TURN].copy()
        for j, state in self.handed_over.items():
            out[j] = state.turn
        return out

    def final_state(self, j: int, ruleset: Ruleset) -> State:
        """The reference state game ``j`` ended in."""
        if j in self.handed_over:
            return self.handed_over[j]
        return to_state(self.rows[j], ruleset)


PlayoutResults = GameResults


def _spread(count: int, threads: int, play: Callable[[int, int], None]) -> None:
    """``play(start, stop)`` on up to ``threads`` parts of ``range(count)`` side by side:
    every game has its own row, generators and statistics (the kernels allocate their own
    buffers), so the parts give the results one call would."""
    run_in_parts(count, min(threads, count), lambda _, start, stop: play(start, stop))


def _run(
    c: Compiled,
    rows: npt.NDArray[np.int32],
    throw_rngs: npt.NDArray[np.uint32],
    choice_rngs: npt.NDArray[np.uint32],
    players: npt.NDArray[np.int32],
    max_turns: int,
    max_steps: int,
    threads: int = 1,
) -> GameResults:
    stats = np.zeros((rows.shape[0], 3), dtype=np.int32)

    def play(start: int, stop: int) -> None:
        core.play_many(
            rows[start:stop], c.params, c.p_mouth_up, c.weights, c.hit, players,
            throw_rngs[start:stop], choice_rngs[start:stop], max_turns, max_steps,
            stats[start:stop],
        )  # fmt: skip

    _spread(rows.shape[0], threads, play)
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
    row = rows[j].copy()
    k = int(row[OVERFLOW]) - 1
    row[OVERFLOW] = 0
    state, events = engine.apply_chance(to_state(row, c.ruleset), k)
    captures = int(stats[j, 2]) + sum(1 for e in events if e.kind == "capture")
    state, game = play_on(
        state,
        mt_random(throw_rng),
        [REFERENCE[int(code)] for code in players],
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
    threads: int = 1,
) -> GameResults:
    """Games ``indices`` of the simulation ``seed``, as :func:`pachisi.ai.games.play_game`
    plays them (the same throws, the same choices, the same results), spread over
    ``threads`` threads. A game whose series of throws outgrows the state row goes on in
    the reference engine (:class:`GameResults`)."""
    max_turns = whole("max_turns", max_turns, 1, INT32_MAX)
    max_steps = whole("max_steps", max_steps, 1, INT32_MAX)
    threads = whole("threads", threads, 1, MAX_THREADS)
    c = compiled(ruleset)
    codes = player_codes(players)
    n = len(indices)
    rows = np.empty((n, STATE_SIZE), dtype=np.int32)
    rows[:] = to_row(engine.new_game(ruleset))
    texts = [game_seeds(seed, i) for i in indices]
    throw_rngs = text_seeded([throws for throws, _ in texts])
    choice_rngs = text_seeded([bots for _, bots in texts])
    return _run(c, rows, throw_rngs, choice_rngs, codes, max_turns, max_steps, threads)


MAX_PLAYOUTS: Final = 10_000_000
"""The most playouts one call plays (their rows take about 1 KB each)."""


def playouts(
    start: State | str,
    n: int,
    *,
    seed: int,
    players: str | Sequence[str] = "random",
    max_steps: int = 50_000,
    threads: int = 1,
) -> GameResults:
    """``n`` games played on from ``start`` (a state or a position string) to the end.

    Every game gets its own generators, seeded in compiled code from ``seed`` and its
    index, so the results are reproducible and a call costs little beyond its games.
    ``players`` is one player name for every seat or one per seat. Games still going
    after ``max_steps`` throws and actions are left unfinished (winner -1). A game whose
    series of throws outgrows the state row goes on in the reference engine. ``threads``
    spreads the games over threads; the results do not depend on it.

    ``n``, ``seed`` and ``max_steps`` are whole numbers (Python or numpy integers);
    ``start`` must be a position a game can reach, checked as the position reader checks.
    """
    state = read_position(start) if isinstance(start, str) else reachable(start)
    n = whole("the number of playouts", n, 0, MAX_PLAYOUTS)
    seed = whole("the playout seed", seed, 0, 2**40 - 1)
    max_steps = whole("max_steps", max_steps, 1, INT32_MAX)
    threads = whole("threads", threads, 1, MAX_THREADS)
    names = [players] * 4 if isinstance(players, str) else list(players)
    c = compiled(state.ruleset)
    codes = player_codes(names)
    rows = np.empty((n, STATE_SIZE), dtype=np.int32)
    rows[:] = to_row(state)
    stats = np.zeros((n, 3), dtype=np.int32)

    def play(start: int, stop: int) -> None:
        core.play_seeded(
            rows[start:stop], c.params, c.p_mouth_up, c.weights, c.hit, codes,
            seed, start, INT32_MAX, max_steps, stats[start:stop],
        )  # fmt: skip

    _spread(n, threads, play)
    handed = {}
    for j in np.flatnonzero(rows[:, OVERFLOW]).tolist():
        # play_seeded seeds one pair of generators per game and reuses them: replay the
        # game from the start with its own pair, then hand it over where it overflowed.
        throw_rng, choice_rng = _seeded_pair(seed, j)
        rows[j] = to_row(state)
        one = np.zeros((1, 3), dtype=np.int32)
        core.play_many(
            rows[j : j + 1], c.params, c.p_mouth_up, c.weights, c.hit, codes,
            throw_rng[None], choice_rng[None], INT32_MAX, max_steps, one,
        )  # fmt: skip
        stats[j] = one[0]
        handed[j] = _hand_over(
            c, rows, stats, j, throw_rng, choice_rng, codes, INT32_MAX, max_steps
        )
    return GameResults(rows, stats[:, 0].copy(), stats[:, 1].copy(), stats[:, 2].copy(), handed)


def _seeded_pair(seed: int, j: int) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32]]:
    """The generators the compiled ``play_seeded`` gives game ``j``."""
    base = (seed << 20) + 2 * j
    throws = np.empty(MT_SIZE, dtype=np.uint32)
    choices = np.empty(MT_SIZE, dtype=np.uint32)
    core.seed_generator(throws, core.mix_seed(base))
    core.seed_generator(choices, core.mix_seed(base + 1))
    return throws, choices


def final_states(results: GameResults, ruleset: Ruleset) -> list[State]:
    """The reference states the games ended in (for checks and position strings)."""
    return [results.final_state(j, ruleset) for j in range(results.rows.shape[0])]
