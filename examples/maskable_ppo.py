"""Train an off-the-shelf agent: sb3-contrib's MaskablePPO on the Gymnasium environment.

MaskablePPO is PPO that never samples an action its environment marks illegal. It asks the
environment for the mask through a method named ``action_masks()``, which ``PachisiEnv``
has, so the environment is used as it is: no wrapper, no mask function. Its observation is
a dict (``observation`` and ``action_mask``), which SB3's ``MultiInputPolicy`` takes.

The agent is team 0 (seats 0 and 2) against the ``random`` players. After ``--steps``
steps of training the script plays ``--eval-games`` games with the trained policy
(deterministic: its most likely legal action) and as many with random legal actions, and
prints both win rates.

This needs the ``train`` extra (sb3-contrib, and with it stable-baselines3 and PyTorch):

    .venv/bin/python -m pip install -c constraints.txt -e '.[train]'   # a CPU PyTorch will do
    .venv/bin/python examples/maskable_ppo.py                      # 20,000 steps
    .venv/bin/python examples/maskable_ppo.py --steps 2048 --eval-games 20
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
import torch
from sb3_contrib import MaskablePPO

import pachisi.env  # registers pachisi/Pachisi-v0 with Gymnasium

Chooser = Callable[[dict[str, Any], npt.NDArray[np.bool_]], int]
"""``choose(observation, mask) -> action id``."""


def win_rate(env: gym.Env[Any, Any], games: int, choose: Chooser, seed: int) -> float:
    """The share of ``games`` won, with ``choose(obs, mask) -> action id`` choosing."""
    wins = 0
    obs, _ = env.reset(seed=seed)
    for _ in range(games):
        done = False
        while not done:
            # Found through gymnasium.make's wrappers, as MaskablePPO finds it.
            mask = env.get_wrapper_attr("action_masks")()
            obs, reward, terminated, truncated, _ = env.step(choose(obs, mask))
            done = terminated or truncated
        wins += float(reward) > 0
        obs, _ = env.reset()
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000, help="training steps")
    parser.add_argument("--eval-games", type=int, default=50, help="games to measure with")
    parser.add_argument("--ruleset", default="classic", help="any ruleset string")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch's CPU threads")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    env = gym.make(pachisi.env.ENV_ID, ruleset=args.ruleset, learner="team0", opponents="random")
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=min(2048, args.steps),  # steps per update, the whole run at most
        batch_size=256,
        n_epochs=4,  # passes over each rollout: fewer than SB3's 10, for speed
        seed=args.seed,
        verbose=0,
    )
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    print(f"trained MaskablePPO for {args.steps} steps in {time.perf_counter() - start:.1f} s")

    rng = np.random.default_rng(args.seed)

    def trained(obs: dict[str, Any], mask: npt.NDArray[np.bool_]) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    def random_legal(obs: dict[str, Any], mask: npt.NDArray[np.bool_]) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    eval_env = gym.make(pachisi.env.ENV_ID, ruleset=args.ruleset, learner="team0")
    after = win_rate(eval_env, args.eval_games, trained, seed=args.seed + 1)
    baseline = win_rate(eval_env, args.eval_games, random_legal, seed=args.seed + 1)
    print(f"win rate against random over {args.eval_games} games:")
    print(f"  random legal actions {baseline:.2f}")
    print(f"  MaskablePPO          {after:.2f}")


if __name__ == "__main__":
    main()
