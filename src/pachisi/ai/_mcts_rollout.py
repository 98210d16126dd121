"""How the search values a leaf: games played on from it, the greedy evaluation, or both.

A leaf's value is one reward per *side*: per team under ``teams = pairs`` (team 0 is seats
0 and 2), per seat under ``teams = individual``. A win is worth 1, a draw an equal share to
every side (half in pairs), and a game a cap cut short counts as a draw.

* The evaluation (:func:`pachisi.ai.evaluation.win_chances`) turns each side's strength,
  as the greedy player scores it, into chances of winning. It has no noise but knows
  nothing of the dice beyond the greedy danger estimate.
* :class:`Rollouts` plays ``per_leaf`` games on from the leaf in the compiled engine
  (:func:`pachisi.ai.playouts.playouts`), to the end or, with ``steps``, for that many
  throws and actions, after which the evaluation values the games still going. A ruleset
  the compiled engine cannot play (:class:`~pachisi.fast.params.FastEngineError`) is
  played by the reference engine instead, one game at a time: the same players, slower.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from pachisi.ai.bots import Bot, GreedyBot, RandomBot
from pachisi.ai.evaluation import sides, win_chances
from pachisi.rules import cowries, engine
from pachisi.rules.state import CHANCE, State

__all__ = ["ROLLOUT_PLAYERS", "Evaluate", "Rollouts", "terminal_reward"]

Evaluate = Callable[[State], list[float]]
"""A static evaluation: each side's chance of winning from a position."""

ROLLOUT_PLAYERS: Final = ("greedy", "random")
"""Who plays the seats in a rollout."""
SEED_BITS: Final = 40
"""The compiled engine takes playout seeds of 40 bits."""
MAX_STEPS: Final = 50_000
"""Throws and actions after which a rollout is abandoned (counted as a draw)."""


def terminal_reward(state: State) -> list[float]:
    """The reward vector of a finished game; a game still going counts as a draw."""
    if state.is_over:
        return win_chances(state)
    n = sides(state)
    return [1.0 / n] * n


class Rollouts:
    """Plays ``per_leaf`` games from a leaf and averages their rewards.

    With ``steps`` the games stop after that many throws and actions and ``evaluate``
    values those still going. With a ``weight`` below 1 the leaf's value is that share of
    the games' mean plus the rest of the leaf's own evaluation. Seeds for the compiled
    engine come from the generator passed to each call, so a search limited by playouts is
    reproducible.
    """

    def __init__(
        self,
        players: str = "greedy",
        per_leaf: int = 1,
        steps: int | None = None,
        weight: float = 1.0,
        evaluate: Evaluate = win_chances,
    ) -> None:
        if players not in ROLLOUT_PLAYERS:
            raise ValueError(f"rollout players are one of {', '.join(ROLLOUT_PLAYERS)}")
        if per_leaf < 1:
            raise ValueError(f"rollouts per leaf must be at least 1, not {per_leaf}")
        if steps is not None and steps < 1:
            raise ValueError(f"rollout steps must be at least 1, not {steps}")
        if not 0 < weight <= 1:
            raise ValueError(f"the rollouts' weight is more than 0 and at most 1, not {weight}")
        self.players = players
        self.per_leaf = per_leaf
        self.steps = steps
        self.weight = weight
        self.evaluate = evaluate
        self.bot: Bot = GreedyBot() if players == "greedy" else RandomBot()

    def __call__(self, state: State, rng: random.Random) -> list[float]:
        """The leaf's value: the games' mean reward, mixed with the evaluation by ``weight``."""
        if state.is_over:
            return terminal_reward(state)
        played = self._play(state, rng)
        if self.weight == 1.0:
            return played
        w = self.weight
        return [w * r + (1.0 - w) * e for r, e in zip(played, self.evaluate(state), strict=True)]

    def _play(self, state: State, rng: random.Random) -> list[float]:
        # Imported here, not at the top: the compiled engine loads numpy and its extension,
        # which would cost every command that makes no rollout (`pachisi --help`,
        # `pachisi play` against greedy) a second or more of start-up.
        from pachisi.ai.playouts import playouts
        from pachisi.fast.params import FastEngineError

        seed = rng.getrandbits(SEED_BITS)
        max_steps = MAX_STEPS if self.steps is None else self.steps
        try:
            results = playouts(
                state, self.per_leaf, seed=seed, players=self.players, max_steps=max_steps
            )
        except FastEngineError:
            return self._reference(state, random.Random(seed))
        n = sides(state)
        total = [0.0] * n
        for j, w in enumerate(results.winners.tolist()):
            if w >= 0:
                total[w] += 1.0
                continue
            if w == -1 and self.steps is not None:
                reward = self.evaluate(results.final_state(j, state.ruleset))
            else:
                reward = [1.0 / n] * n
            total = [t + r for t, r in zip(total, reward, strict=True)]
        return [t / self.per_leaf for t in total]

    def _reference(self, state: State, rng: random.Random) -> list[float]:
        """The fallback: the same games with the reference engine (slow)."""
        total = [0.0] * sides(state)
        for _ in range(self.per_leaf):
            reward = self._play_out(state, rng)
            total = [t + r for t, r in zip(total, reward, strict=True)]
        return [t / self.per_leaf for t in total]

    def _play_out(self, state: State, rng: random.Random) -> list[float]:
        r = state.ruleset
        max_steps = MAX_STEPS if self.steps is None else self.steps
        steps = 0
        while not state.is_over and steps < max_steps:
            if engine.current_player(state) == CHANCE:
                k = cowries.throw(rng, r.cowries, r.p_mouth_up)
                state, _ = engine.apply_chance(state, k)
            else:
                state, _ = engine.apply_action(state, self.bot.choose(state, rng))
            steps += 1
        if state.is_over or self.steps is None:
            return terminal_reward(state)
        return self.evaluate(state)
