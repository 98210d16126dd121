"""A vectorised Gymnasium environment: ``num_envs`` games in one compiled batch.

The same game for the learner as :class:`~pachisi.env.gymnasium_env.PachisiEnv`, but the
games are stepped together by :mod:`pachisi.fast.batch` and the opponents are its compiled
players (or a batched callable). Autoreset is *next-step* (Gymnasium's default): the step
that ends a game returns its last observation with ``terminated`` or ``truncated``; the
next step ignores that game's action, starts a new game there and returns its first
observation with reward 0.

>>> envs = PachisiVectorEnv(4, "ludii", learner="seat0", opponents="random")
>>> obs, info = envs.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape
((4, 786), (4, 2230))
>>> actions = obs["action_mask"].argmax(axis=1)     # the lowest legal id of each game
>>> obs, rewards, terminated, truncated, info = envs.step(actions)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from pachisi.env._games import (
    NUM_ACTIONS,
    Games,
    Observation,
    learner_seats,
    observation_space,
    ruleset_of,
    seat_policies,
    seat_roles,
)
from pachisi.rules.actions import IllegalActionError
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import State

__all__ = ["PachisiVectorEnv"]

Rewards = npt.NDArray[np.float32]
Flags = npt.NDArray[np.bool_]
BatchedPolicy = Callable[[Observation], Any]
"""``policy({"observation": (k, OBS_SIZE), "action_mask": (k, NUM_ACTIONS)}) -> (k,) ids``."""


class PachisiVectorEnv(VectorEnv[Observation, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of Pachisi for one learner, stepped as one batch.

    ``learner``, ``partner``, ``max_steps`` and the rewards are as in
    :class:`~pachisi.env.gymnasium_env.PachisiEnv`; ``opponents`` is ``"random"``,
    ``"greedy"`` or a batched callable. Actions are one id per game; an illegal action
    (in a game that is not being reset) raises
    :class:`~pachisi.rules.actions.IllegalActionError` and changes no game. A batched
    callable that returns an illegal id raises :class:`~pachisi.env.PolicyError` (naming
    its seat, the game, the id and the legal ids), and the step is undone: every game is
    as it was before it. ``threads`` spreads the games' compiled work over that many
    threads (:attr:`pachisi.fast.batch.Batch.threads`); the games do not depend on it.

    With ``copy`` (the default, as in Gymnasium's vector environments) every step returns
    writable arrays of the caller's own, written whole: new ones, or those of an earlier
    step that nothing holds any more, taken back. With ``copy=False`` (where every
    opponent is a compiled player) a step writes into the arrays of an earlier step that
    nothing holds any more (not the caller, nor a view or tensor of them), rewriting only
    what changed. Since the default's large arrays are streamed out to memory, the two are
    about as fast at 1,024 and 4,096 games (docs/rl.md); ``copy=False`` saves memory. Those
    arrays are read-only; arrays the caller still holds are never written.

    :meth:`action_masks` gives every game's legal actions now as booleans, for maskable
    learners.
    """

    # Gymnasium's wrappers read the autoreset mode from the metadata.
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        ruleset: Ruleset | str = "classic",
        *,
        learner: str | None = None,
        opponents: str | BatchedPolicy = "random",
        partner: str | BatchedPolicy | None = None,
        max_steps: int = 50_000,
        render_mode: str | None = None,
        threads: int = 1,
        copy: bool = True,
    ) -> None:
        if num_envs < 1:
            raise ValueError("num_envs is at least 1")
        if render_mode is not None:
            raise ValueError("the vector environment does not render")
        self.num_envs = num_envs
        self.ruleset = ruleset_of(ruleset)
        self.seats = learner_seats(learner, self.ruleset)
        policies = seat_policies(self.seats, opponents, partner)
        roles = seat_roles(self.seats, partner)
        self._games = Games(
            self.ruleset,
            num_envs,
            self.seats,
            policies,
            max_steps,
            batched=True,
            roles=roles,
            threads=threads,
            reuse=not copy,
        )
        self.single_observation_space = observation_space(self.ruleset)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)
        self._started = False

    def states(self) -> list[State]:
        """The games as reference states (their position strings: ``write_position``)."""
        return self._games.batch.states()

    def action_masks(self) -> Flags:
        """The legal actions now, ``(num_envs, NUM_ACTIONS)`` booleans: the last
        observation's ``action_mask``, as a new array the caller may keep (all ``False``
        before ``reset``, and in a game that ended on the last step until it restarts).

        The name is the one sb3-contrib's maskable algorithms look for; asking does not
        change or hand out anything a step returns, so it can be asked any number of times.

        >>> envs = PachisiVectorEnv(2, "classic")
        >>> obs, info = envs.reset(seed=1)
        >>> envs.action_masks().shape, envs.action_masks().dtype
        ((2, 2230), dtype('bool'))
        >>> bool((envs.action_masks() == obs["action_mask"].astype(bool)).all())
        True
        """
        if not self._started:
            return np.zeros((self.num_envs, NUM_ACTIONS), dtype=np.bool_)
        return self._games.masks()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        # Not started until the new games have: if a policy fails while the other seats play
        # up to the learner's first turns, the half-started games cannot be stepped.
        self._started = False
        self._games.start(int(self.np_random.integers(2**40)), int(self.np_random.integers(2**63)))
        self._autoreset[:] = False
        self._started = True
        return self._games.observe(), {}

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[Observation, Rewards, Flags, Flags, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or not np.issubdtype(chosen.dtype, np.integer):
            raise IllegalActionError(f"need one integer action per game ({self.num_envs})")
        games = self._games
        restart = self._autoreset.copy()
        generator = self.np_random.bit_generator.state
        # The learner's actions are checked and applied before any game restarts, so an
        # illegal one leaves every game as it was; a policy's illegal action comes later,
        # while the other seats play, and the step is undone.
        try:
            with games.unchanged_on_error():
                seed = int(self.np_random.integers(2**40)) if restart.any() else 0
                rewards = games.act(chosen, ~restart, restart, seed)
        except BaseException:
            self.np_random.bit_generator.state = generator
            raise
        terminated = games.batch.terminated.copy()
        truncated = games.truncated()
        self._autoreset = terminated | truncated
        return games.observe(), rewards, terminated, truncated, {}
