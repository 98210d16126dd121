"""Pachisi for learning code: PettingZoo and Gymnasium environments (docs/rl.md).

- :class:`PachisiAECEnv` (and PettingZoo's ``env()`` / ``raw_env()``): the four seats as
  agents ``seat_0``..``seat_3``, throws drawn inside.
- :class:`PachisiEnv`: one learner (a seat or a team) against ``random``, ``greedy`` or
  any policy; registered with Gymnasium as :data:`ENV_ID`.
- :class:`PachisiVectorEnv`: many games for one learner in one compiled batch, what
  ``gymnasium.make_vec(ENV_ID, num_envs=N)`` builds.
- :func:`action_table`: what each id of the fixed action space means, for features.
- :class:`PolicyError`: a policy given for the other seats returned an illegal action.

They need the ``rl`` extra (gymnasium, pettingzoo); ``import pachisi`` imports neither.
Importing this package registers :data:`ENV_ID`; the environment modules (and the compiled
engine behind them) are imported when a name below is first used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

from gymnasium.envs.registration import register, registry

if TYPE_CHECKING:
    from pachisi.env._games import PolicyError, action_table
    from pachisi.env.gymnasium_env import PachisiEnv
    from pachisi.env.pettingzoo_env import PachisiAECEnv, env, raw_env
    from pachisi.env.vector_env import PachisiVectorEnv

__all__ = [
    "ENV_ID",
    "PachisiAECEnv",
    "PachisiEnv",
    "PachisiVectorEnv",
    "PolicyError",
    "action_table",
    "env",
    "raw_env",
]

ENV_ID: Final = "pachisi/Pachisi-v0"
"""``gymnasium.make(ENV_ID, ruleset=..., learner=..., opponents=...)``."""

_HOMES: Final = {
    "PachisiAECEnv": "pachisi.env.pettingzoo_env",
    "env": "pachisi.env.pettingzoo_env",
    "raw_env": "pachisi.env.pettingzoo_env",
    "PachisiEnv": "pachisi.env.gymnasium_env",
    "PachisiVectorEnv": "pachisi.env.vector_env",
    "action_table": "pachisi.env._games",
    "PolicyError": "pachisi.env._games",
}

if ENV_ID not in registry:
    register(
        id=ENV_ID,
        entry_point="pachisi.env.gymnasium_env:PachisiEnv",
        vector_entry_point="pachisi.env.vector_env:PachisiVectorEnv",
    )


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
