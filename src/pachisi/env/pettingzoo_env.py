"""A PettingZoo AEC environment: the four seats of Pachisi as agents ``seat_0``..``seat_3``.

>>> env = raw_env(ruleset="ludii")
>>> env.reset(seed=1)
>>> for agent in env.agent_iter(max_iter=8):
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else int(obs["action_mask"].argmax())
...     env.step(action)
>>> len(env.agents)
4
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from pachisi.env._games import (
    NUM_ACTIONS,
    Games,
    Observation,
    _action_int,
    legal_notation,
    observation_space,
    render_text,
    ruleset_of,
)
from pachisi.notation import write_position
from pachisi.rules.actions import IllegalActionError
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import State

__all__ = ["AGENTS", "PachisiAECEnv", "env", "raw_env"]

AGENTS = ("seat_0", "seat_1", "seat_2", "seat_3")


class PachisiAECEnv(AECEnv):
    """Pachisi as an agent-environment cycle: each agent is a seat and acts in turn.

    Throws are drawn inside, from the generator that ``reset(seed=...)`` seeds, so the
    agent selected is always a seat with a decision to make. Observations are seen from
    the observing agent's seat; the mask holds its legal actions when it is to act (else
    zeros). Rewards are 0 until the end, then +1 for the winning side's seats, -1 for
    the others (0 for all in a draw). Every agent is terminated when the game is over and
    truncated after ``max_steps`` actions; each must then be stepped with None. Under
    ``players=2`` one person holds ``seat_0`` and ``seat_2`` (and another the others); the
    agents are still the seats.

    An illegal action, or None from an agent that is to act, raises
    :class:`~pachisi.rules.actions.IllegalActionError` and changes nothing. With
    ``notation=True`` (the default) the info of the agent to act holds the position
    string and its legal actions in the reference notation, in the order of their ids;
    ``notation=False`` leaves infos empty and the steps about twice as fast.
    """

    # PettingZoo's tools read the metadata from the class.
    metadata = {"render_modes": ["ansi"], "name": "pachisi_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        ruleset: Ruleset | str = "classic",
        *,
        max_steps: int = 50_000,
        notation: bool = True,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.ruleset = ruleset_of(ruleset)
        self.render_mode = render_mode
        self.notation = notation
        self.possible_agents = list(AGENTS)
        self._games = Games(self.ruleset, 1, (0, 1, 2, 3), [None] * 4, max_steps, batched=False)
        self._np_random: np.random.Generator | None = None
        self._space = observation_space(self.ruleset)
        self._action_space = spaces.Discrete(NUM_ACTIONS)

    def observation_space(self, agent: str) -> spaces.Dict:
        """The same space object for every agent and every call, as PettingZoo asks."""
        return self._space

    def action_space(self, agent: str) -> spaces.Discrete:
        """Discrete(NUM_ACTIONS), the same object for every agent and every call."""
        return self._action_space

    @property
    def game_state(self) -> State:
        """The game as a reference state (its position string: ``write_position``)."""
        return self._games.state(0)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self._games.start(int(self._np_random.integers(2**40)), 0)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self._skip_agent_selection = None
        self._update()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} is to act; None is for agents that are done")
        self._games.act(np.array([_action_int(action)]), np.ones(1, dtype=np.bool_))
        self._cumulative_rewards[agent] = 0.0
        self._update()
        self._accumulate_rewards()

    def observe(self, agent: str) -> Observation:
        seat = AGENTS.index(agent)
        batch = self._games.batch
        obs = batch.observation([seat])[0]
        mask = batch.legal_action_mask[0].astype(np.int8)
        if batch.current_player[0] != seat or self._games.truncated()[0]:
            mask[:] = 0
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The whole game as seen from seat 0 (Pachisi hides nothing)."""
        seen: np.ndarray[Any, np.dtype[np.float32]] = self._games.batch.observation([0])[0]
        return seen

    def render(self) -> str | None:
        """The board as text (``render_mode="ansi"``), else nothing."""
        if self.render_mode != "ansi":
            return None
        return render_text(self.game_state)

    def close(self) -> None:
        """Nothing to release."""

    def _update(self) -> None:
        """Set rewards, terminations, truncations, infos and the agent to act from the game."""
        games = self._games
        batch = games.batch
        over = bool(batch.terminated[0])
        cut = bool(games.truncated()[0])
        for seat, agent in enumerate(AGENTS):
            self.rewards[agent] = float(batch.rewards[0, seat]) if over else 0.0
            self.terminations[agent] = over
            self.truncations[agent] = cut
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        seat = int(batch.current_player[0])
        if seat >= 0:
            self.agent_selection = AGENTS[seat]
        if self.notation and not over:
            state = self.game_state
            self.infos[self.agent_selection] = {
                "position": write_position(state),
                "legal_actions": legal_notation(state, batch.legal_action_mask[0]),
            }


def raw_env(**kwargs: Any) -> PachisiAECEnv:
    """The environment without PettingZoo's wrappers (arguments as :class:`PachisiAECEnv`)."""
    return PachisiAECEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment in PettingZoo's order-enforcing wrapper, which refuses steps and
    observations before ``reset``. The wrappers that would end the game on an illegal
    move are left out: an illegal action is an error here."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
