"""How the search values a leaf: games played on from it to the end.

A rollout returns one reward per *side*: per team under ``teams = pairs`` (team 0 is seats
0 and 2), per seat under ``teams = individual``. A win is worth 1, a draw half to every
side, and a game a cap cut short counts as a draw.

The games are played by the compiled engine (:func:`pachisi.fast.playouts.playouts`),
several in one call. A ruleset it cannot play (:class:`~pachisi.fast.params.FastEngineError`)
is played instead by the reference engine, one game at a time: the same players, much slower.
"""

from __future__ import annotations

import random
from typing import Final

from pachisi.ai.bots import Bot, GreedyBot, RandomBot
from pachisi.fast.params import FastEngineError
from pachisi.fast.playouts import playouts
from pachisi.rules import cowries, engine
from pachisi.rules.state import CHANCE, DRAW, State

__all__ = ["ROLLOUT_PLAYERS", "Rollouts", "side_count", "side_of", "terminal_reward"]

ROLLOUT_PLAYERS: Final = ("greedy", "random")
"""Who plays the seats in a rollout."""

SEED_BITS: Final = 40
"""The compiled engine takes playout seeds of 40 bits."""
MAX_STEPS: Final = 50_000
"""Throws and actions after which a rollout is abandoned (counted as a draw)."""


def side_count(state: State) -> int:
    """How many sides a value vector has: 2 teams, or 4 seats playing alone."""
    return 4 if state.ruleset.teams == "individual" else 2


def side_of(state: State, seat: int) -> int:
    """The index of ``seat``'s side in a value vector (its team, or itself)."""
    return seat if state.ruleset.teams == "individual" else seat % 2


def terminal_reward(state: State) -> list[float]:
    """The reward vector of a finished game."""
    sides = side_count(state)
    if state.winner == DRAW or state.winner < 0:
        return [0.5] * sides
    reward = [0.0] * sides
    reward[state.winner] = 1.0
    return reward


class Rollouts:
    """Plays ``per_leaf`` games from a leaf and averages their rewards.

    Seeds for the compiled engine come from the generator passed to each call, so a search
    limited by playouts is reproducible.
    """

    def __init__(self, players: str = "greedy", per_leaf: int = 1) -> None:
        if players not in ROLLOUT_PLAYERS:
            raise ValueError(f"rollout players are one of {', '.join(ROLLOUT_PLAYERS)}")
        if per_leaf < 1:
            raise ValueError(f"rollouts per leaf must be at least 1, not {per_leaf}")
        self.players = players
        self.per_leaf = per_leaf
        self.bot: Bot = GreedyBot() if players == "greedy" else RandomBot()

    def __call__(self, state: State, rng: random.Random) -> list[float]:
        """The mean reward vector of ``per_leaf`` games played on from ``state``."""
        if state.is_over:
            return terminal_reward(state)
        seed = rng.getrandbits(SEED_BITS)
        try:
            winners = playouts(
                state, self.per_leaf, seed=seed, players=self.players, max_steps=MAX_STEPS
            ).winners.tolist()
        except FastEngineError:
            return self._reference(state, random.Random(seed))
        sides = side_count(state)
        reward = [0.0] * sides
        for w in winners:
            if w >= 0:
                reward[w] += 1.0
            else:
                for j in range(sides):
                    reward[j] += 0.5
        return [r / self.per_leaf for r in reward]

    def _reference(self, state: State, rng: random.Random) -> list[float]:
        """The fallback: the same games with the reference engine (slow)."""
        sides = side_count(state)
        total = [0.0] * sides
        for _ in range(self.per_leaf):
            reward = _play_out(state, rng, self.bot)
            total = [t + r for t, r in zip(total, reward, strict=True)]
        return [t / self.per_leaf for t in total]


def _play_out(state: State, rng: random.Random, bot: Bot) -> list[float]:
    r = state.ruleset
    steps = 0
    while not state.is_over and steps < MAX_STEPS:
        if engine.current_player(state) == CHANCE:
            state, _ = engine.apply_chance(state, cowries.throw(rng, r.cowries, r.p_mouth_up))
        else:
            state, _ = engine.apply_action(state, bot.choose(state, rng))
        steps += 1
    return terminal_reward(state)
