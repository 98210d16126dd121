"""The compiled players: :class:`~pachisi.ai.bots.RandomBot` and
:class:`~pachisi.ai.bots.GreedyBot` as the compiled engine's kernels play them, draw for draw.

The kernels (:mod:`pachisi.fast.native`'s ``core``) know the players by a code per seat and
take greedy's tables as arrays; this module owns the names, the codes and the tables
(:func:`compiled`), and :func:`bot_actions` lets the players choose in a batch of games
(:mod:`pachisi.fast.batch`). Their complete games are in :mod:`pachisi.ai.playouts`.

>>> from pachisi.fast import batch
>>> from pachisi.rules.ruleset import get_ruleset
>>> games = batch.init(get_ruleset("ludii"), 3, seed=1)
>>> chosen = bot_actions(games, ["greedy", "random", None, "random"])
>>> bool(all(games.legal_action_mask[b, a] for b, a in enumerate(chosen) if a >= 0))
True
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from pachisi.ai.bots import REACH_FLOOR, Bot, GreedyBot, RandomBot, Weights, _single_throw_chances
from pachisi.fast import batch as fast_batch
from pachisi.fast.native import core
from pachisi.fast.params import FastEngineError, engine_params
from pachisi.rules.ruleset import Ruleset

__all__ = [
    "PLAYERS",
    "REFERENCE",
    "Compiled",
    "bot_actions",
    "compiled",
    "player_codes",
]

PLAYERS: Final = {"random": core.RANDOM, "greedy": core.GREEDY}
"""The players the compiled engine plays, by the names :func:`pachisi.ai.make_player` uses."""

REFERENCE: Final[dict[int, Bot]] = {core.RANDOM: RandomBot(), core.GREEDY: GreedyBot()}
"""The reference players that the compiled ones are, draw for draw, by code."""


@dataclass(frozen=True)
class Compiled:
    """A ruleset as the compiled players' kernels take it: the engine's parameters
    (:func:`pachisi.fast.params.engine_params`) with the greedy player's tables."""

    ruleset: Ruleset
    params: npt.NDArray[np.int32]
    p_mouth_up: float
    weights: npt.NDArray[np.float64]
    """:class:`~pachisi.ai.bots.Weights`' defaults, in the kernels' order."""
    hit: npt.NDArray[np.float64]
    """``hit[d]``: the chance that one throw is worth ``d``, 0.02 where none is (d < 26)."""


@functools.lru_cache(maxsize=64)
def compiled(ruleset: Ruleset) -> Compiled:
    """The compiled form of ``ruleset`` (cached); :class:`FastEngineError` if it cannot run."""
    params, p = engine_params(ruleset)
    w = Weights()
    weights = np.array(
        [w.progress, w.enemy_progress, w.out, w.home, w.capture, w.castle, w.danger],
        dtype=np.float64,
    )
    chances = _single_throw_chances(ruleset)
    hit = np.array([chances.get(d, REACH_FLOOR) for d in range(26)], dtype=np.float64)
    return Compiled(ruleset, params, p, weights, hit)


def player_codes(names: Sequence[str]) -> npt.NDArray[np.int32]:
    """The kernels' code of each seat's player; :class:`FastEngineError` unless ``names``
    has one compiled player per seat."""
    return _codes(names, outside=False)


def bot_actions(batch: fast_batch.Batch, players: Sequence[str | None]) -> npt.NDArray[np.int32]:
    """The action each game's seat to act would take if played by ``players[seat]``
    (``random``, ``greedy``, or None for a seat played from outside, which gives -1).

    The choices come from each game's own generator, so they are reproducible; games that
    are over or wait for a throw get -1.
    """
    c = compiled(batch.ruleset)
    return fast_batch.choose(batch, _codes(players, outside=True), c.weights, c.hit)


def play_until_outside(
    batch: fast_batch.Batch,
    players: Sequence[str | None],
    steps: npt.NDArray[np.int64],
    max_steps: int,
    seat: int,
) -> npt.NDArray[np.float32]:
    """Let ``players[seat]`` play every game on (``random``, ``greedy``, or None for a seat
    played from outside) until a seat played from outside is to act, the game is over or
    ``steps[b]`` (counted up here) reaches ``max_steps``: :func:`bot_actions` and
    :func:`pachisi.fast.batch.step` round by round, in one compiled call. Returns the
    rewards of ``seat`` the steps brought."""
    c = compiled(batch.ruleset)
    codes = _codes(players, outside=True)
    return fast_batch.advance(batch, codes, c.weights, c.hit, steps, max_steps, seat)


def learner_step(
    batch: fast_batch.Batch,
    players: tuple[str | None, ...],
    steps: npt.NDArray[np.int64],
    max_steps: int,
    seat: int,
    modes: npt.NDArray[np.int8],
    actions: npt.NDArray[np.int32],
    seed: int,
    marks: npt.NDArray[np.int16],
    *,
    observe: bool,
    into: fast_batch.LearnerView | None = None,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32] | None, npt.NDArray[np.int8] | None]:
    """:func:`pachisi.fast.batch.learner_step` with ``players[seat]`` (``random``,
    ``greedy``, or None for the learner's seats) playing the other seats: each game's
    step to the learner's next decision, its rewards, and with ``observe`` what the
    learner sees (written into ``into`` when given)."""
    c = compiled(batch.ruleset)
    codes = _outside_codes(players)
    return fast_batch.learner_step(
        batch, codes, c.weights, c.hit, steps, max_steps, seat, modes, actions, seed, marks,
        observe=observe, into=into,
    )  # fmt: skip


@functools.cache
def _outside_codes(players: tuple[str | None, ...]) -> npt.NDArray[np.int32]:
    """:func:`_codes` with seats played from outside, once per tuple of players (the
    array is shared: not to be written)."""
    return _codes(players, outside=True)


def _codes(players: Sequence[str | None], *, outside: bool) -> npt.NDArray[np.int32]:
    """The kernels' code of each seat's player, -1 for None (a seat played from outside)
    where ``outside`` allows one; :class:`FastEngineError` for anything else."""
    if len(players) != 4:
        raise FastEngineError(f"need one player per seat (4), got {len(players)}")
    unknown = [str(p) for p in players if p not in PLAYERS and not (outside and p is None)]
    if unknown:
        raise FastEngineError(
            f"the compiled engine plays {', '.join(PLAYERS)}; not {', '.join(unknown)}"
        )
    return np.array([-1 if p is None else PLAYERS[p] for p in players], dtype=np.int32)
