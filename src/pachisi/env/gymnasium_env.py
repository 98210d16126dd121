"""A Gymnasium environment for one learner: a seat or a team against chosen opponents.

>>> env = PachisiEnv("ludii", learner="team0", opponents="greedy")
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape, obs["action_mask"].shape
((786,), (2230,))
>>> action = env.action_space.sample(obs["action_mask"])   # a legal action
>>> obs, reward, terminated, truncated, info = env.step(action)
"""

from __future__ import annotations

from typing import Any, Literal, SupportsFloat, cast

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from pachisi.env._games import (
    NUM_ACTIONS,
    ONE_GAME,
    Games,
    Observation,
    Policy,
    action_in_space,
    learner_seats,
    legal_notation,
    observation_space,
    render_text,
    ruleset_of,
    seat_policies,
    seat_roles,
)
from pachisi.notation import write_position
from pachisi.rules.actions import IllegalActionError
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import State

__all__ = ["PachisiEnv"]


class PachisiEnv(gym.Env[Observation, np.int64]):
    """Pachisi for one learner, the other seats played by policies.

    ``learner`` is ``"seat0"``..``"seat3"`` or ``"team0"``/``"team1"`` (the learner plays
    both seats of the team; the default under ``players=2``, where a seat alone is
    refused). ``opponents`` plays the other side: ``"random"``, ``"greedy"``, a bot of
    :mod:`pachisi.ai` or a callable ``policy(observation) -> action id``; ``partner``
    plays the partner of a one-seat learner (default: as ``opponents``).

    Each step applies the learner's action and plays the other seats until the learner
    is to act again or the game ends. The observation is seen from the learner's seat to
    act; the reward is 0 until the end, then +1 (the learner's side won), -1 (lost) or 0
    (a draw). ``truncated`` comes after ``max_steps`` actions of all seats. Throws are
    drawn inside, from the generator that ``reset(seed=...)`` seeds.

    An action is an id of the action space, ``Discrete(NUM_ACTIONS)``; anything else (not
    one integer, or outside ``0..NUM_ACTIONS - 1``) raises
    :class:`~pachisi.rules.actions.IllegalActionError` and changes nothing. An id that is
    not legal now loses by default (``illegal_action="lose"``): the episode ends with
    reward -1, ``terminated`` and ``info["illegal_action"]``, the game abandoned where it
    stood, never played on with another action. Gymnasium asks ``step`` to accept every
    element of the action space (``check_env`` samples them without the mask), and pgx
    has the same convention. ``illegal_action="raise"`` raises
    :class:`~pachisi.rules.actions.IllegalActionError` instead and changes nothing, so
    that the caller can choose again.

    With ``notation=True`` the info holds the position string and the legal actions in
    the reference notation. :meth:`action_masks` gives the legal actions now as booleans,
    for maskable learners such as sb3-contrib's ``MaskablePPO``.

    A policy of the other seats that returns an illegal action id raises
    :class:`~pachisi.env.PolicyError`, which names the policy, its seat, the id and the
    legal ids; the step is undone, the game left as it was before it.
    """

    # Gymnasium reads the render modes from the class, before it makes an instance.
    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        ruleset: Ruleset | str = "classic",
        *,
        learner: str | None = None,
        opponents: Policy = "random",
        partner: Policy | None = None,
        max_steps: int = 50_000,
        illegal_action: Literal["lose", "raise"] = "lose",
        notation: bool = False,
        render_mode: str | None = None,
    ) -> None:
        self.ruleset = ruleset_of(ruleset)
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action is 'lose' or 'raise', not {illegal_action!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.seats = learner_seats(learner, self.ruleset)
        policies = seat_policies(self.seats, opponents, partner)
        roles = seat_roles(self.seats, partner)
        self._games = Games(
            self.ruleset, 1, self.seats, policies, max_steps, batched=False, roles=roles
        )
        self.illegal_action = illegal_action
        self.notation = notation
        self.render_mode = render_mode
        self.observation_space = cast(spaces.Space[Observation], observation_space(self.ruleset))
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._done = True

    @property
    def state(self) -> State:
        """The game as a reference state (its position string: ``write_position``)."""
        return self._games.state(0)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        # Done until the new game has started: if a policy fails while the other seats play
        # up to the learner's first turn, the half-started game cannot be stepped.
        self._done = True
        self._games.start(int(self.np_random.integers(2**40)), int(self.np_random.integers(2**63)))
        self._done = False
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset() first")
        games = self._games
        # Outside the action space is an error whatever illegal_action says: only an id of
        # the space can be a move that is merely not legal now.
        chosen = np.array([action_in_space(action)])
        try:
            with games.unchanged_on_error():
                reward = float(games.act(chosen, ONE_GAME)[0])
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._done = True
            return self._observation(), -1.0, True, False, {"illegal_action": True}
        _, terminated, truncated = games.status(0)
        self._done = terminated or truncated
        return self._observation(), reward, terminated, truncated, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, ``(NUM_ACTIONS,)`` booleans: the last observation's
        ``action_mask`` (all ``False`` before ``reset`` and once the episode is over).

        The name is the one sb3-contrib's ``MaskablePPO`` looks for (through
        ``env.get_wrapper_attr("action_masks")``, so it is found through
        ``gymnasium.make``'s wrappers too): it trains on this environment as it is.

        >>> env = PachisiEnv("classic")
        >>> obs, info = env.reset(seed=1)
        >>> bool((env.action_masks() == obs["action_mask"].astype(bool)).all())
        True
        """
        if self._done:
            return np.zeros(NUM_ACTIONS, dtype=np.bool_)
        mask: npt.NDArray[np.bool_] = self._games.masks()[0]
        return mask

    def render(self) -> str | None:
        """The board as text (``render_mode="ansi"``), else nothing."""
        if self.render_mode != "ansi":
            return None
        return render_text(self.state)

    def _observation(self) -> Observation:
        obs = self._games.observe()
        if self._done:
            _, over, cut = self._games.status(0)
            if not over and not cut:
                obs["action_mask"][:] = 0  # abandoned after an illegal action
        return {key: value[0] for key, value in obs.items()}

    def _info(self) -> dict[str, Any]:
        games = self._games
        seat = games.status(0)[0]
        acting = seat >= 0
        info: dict[str, Any] = {"seat": seat}
        if self.notation:
            state = self.state
            info["position"] = write_position(state)
            mask = games.batch.legal_action_mask[0]
            info["legal_actions"] = legal_notation(state, mask) if acting else []
        return info
