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

from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from pachisi.env._games import (
    NUM_ACTIONS,
    OBS_SIZE,
    ONE_GAME,
    Games,
    Observation,
    action_in_space,
    legal_notation,
    observation_high,
    observation_space,
    render_text,
    ruleset_of,
)
from pachisi.notation import write_position
from pachisi.rules.actions import IllegalActionError
from pachisi.rules.board import partner
from pachisi.rules.choices import Teams
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import State

__all__ = ["AGENTS", "STATE_SIZE", "PachisiAECEnv", "env", "raw_env"]

AGENTS = ("seat_0", "seat_1", "seat_2", "seat_3")

STATE_SIZE = OBS_SIZE + 4
"""The length of :meth:`PachisiAECEnv.state`: seat 0's observation, then the seat to act."""


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

    An action is an id of the action space, ``Discrete(NUM_ACTIONS)``; anything else (not
    one integer, outside ``0..NUM_ACTIONS - 1``, or None from an agent that is to act)
    raises :class:`~pachisi.rules.actions.IllegalActionError` and changes nothing. An id
    that is not legal now ends the game by default (``illegal_action="lose"``): the game
    is abandoned where it stood, every agent is terminated, the side that chose it gets -1
    (its two seats under ``teams=pairs``, the seat alone under ``teams=individual``) and
    every other seat 0, and every agent's info holds ``illegal_action``. PettingZoo's
    ``state_test`` steps with actions sampled without the mask, and its classic games end
    the game on an illegal move too. ``illegal_action="raise"`` raises
    :class:`~pachisi.rules.actions.IllegalActionError` instead and changes nothing.

    With ``notation=True`` (the default) the info of the agent to act holds the position
    string and its legal actions in the reference notation, in the order of their ids;
    ``notation=False`` leaves infos empty and the steps about twice as fast.

    :meth:`state` is the whole game for centralised training, in :attr:`state_space`.
    ``render_mode="ansi"`` makes :meth:`render` return the board as text;
    ``render_mode="human"`` prints it, after ``reset`` and every step too.
    """

    # PettingZoo's tools read the metadata from the class.
    metadata = {  # noqa: RUF012
        "render_modes": ["ansi", "human"],
        "name": "pachisi_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        ruleset: Ruleset | str = "classic",
        *,
        max_steps: int = 50_000,
        illegal_action: Literal["lose", "raise"] = "lose",
        notation: bool = True,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action is 'lose' or 'raise', not {illegal_action!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode is None, 'ansi' or 'human', not {render_mode!r}")
        self.ruleset = ruleset_of(ruleset)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.notation = notation
        self.possible_agents = list(AGENTS)
        self._games = Games(
            self.ruleset, 1, (0, 1, 2, 3), [None] * 4, max_steps, batched=False, observes=False
        )
        self._np_random: np.random.Generator | None = None
        self._space = observation_space(self.ruleset)
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        high = np.concatenate([observation_high(self.ruleset), np.ones(4, dtype=np.float32)])
        self.state_space = spaces.Box(0.0, high, shape=(STATE_SIZE,), dtype=np.float32)
        """The space of :meth:`state`: seat 0's observation space, then four 0/1 flags."""
        self._abandoned = False
        self.infos: dict[str, dict[str, Any]] = {}

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
        self._abandoned = False
        self._update()
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} is to act; None is for agents that are done")
        # Outside the action space is an error whatever illegal_action says: only an id of
        # the space can be a move that is merely not legal now.
        chosen = action_in_space(action)
        try:
            self._games.act(np.array([chosen]), ONE_GAME)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._abandon(AGENTS.index(agent))
        else:
            self._update()
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        seat = AGENTS.index(agent)
        batch = self._games.batch
        obs = batch.observation([seat])[0]
        mask = batch.legal_action_mask[0].astype(np.int8)
        if self._to_act() != seat:
            mask[:] = 0
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The whole game, for centralised training (Pachisi hides nothing): the
        observation seen from seat 0, then a 0/1 flag per seat for the seat to act (all 0
        once no agent is to act: the game over, cut short or abandoned), which the
        observation alone does not hold."""
        seen = self._games.batch.observation([0])[0]
        to_act = np.zeros(4, dtype=np.float32)
        seat = self._to_act()
        if seat >= 0:
            to_act[seat] = 1.0
        whole: np.ndarray[Any, np.dtype[np.float32]] = np.concatenate([seen, to_act])
        return whole

    def render(self) -> str | None:
        """The board as text: returned under ``render_mode="ansi"``, printed under
        ``"human"`` (which returns None), else nothing."""
        if self.render_mode is None:
            return None
        text = render_text(self.game_state)
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def _to_act(self) -> int:
        """The seat of the agent to act, or -1 when none is (over, truncated, abandoned)."""
        # Every seat is an agent: the learner's seat to act is the seat to act.
        return -1 if self._abandoned else self._games.status(0)[0]

    def _abandon(self, seat: int) -> None:
        """End the game after ``seat``'s illegal action: -1 to its side, 0 to the others."""
        side = {seat, partner(seat)} if self.ruleset.teams == Teams.PAIRS else {seat}
        self._abandoned = True
        for s, agent in enumerate(AGENTS):
            self.rewards[agent] = -1.0 if s in side else 0.0
            self.terminations[agent] = True
        self.infos = {agent: {"illegal_action": True} for agent in AGENTS}

    def _update(self) -> None:
        """Set rewards, terminations, truncations, infos and the agent to act from the game."""
        games = self._games
        batch = games.batch
        _, over, cut = games.status(0)
        for seat, agent in enumerate(AGENTS):
            self.rewards[agent] = float(batch.rewards[0, seat]) if over else 0.0
            self.terminations[agent] = over
            self.truncations[agent] = cut
        self.infos = {agent: {} for agent in AGENTS}
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
    observations before ``reset``. PettingZoo's wrapper that ends the game on an illegal
    move is left out: the environment does that itself (``illegal_action``)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
