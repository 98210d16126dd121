"""A random and a greedy agent on the Gymnasium and PettingZoo environments.

Both agents choose only among the legal actions, which every observation marks in its
``action_mask`` (1 for a legal action id, 0 otherwise; docs/rl.md). The random agent picks
one of them uniformly. The greedy agent looks one action ahead: it turns each legal id
into the rules engine's action (``pachisi.fast.convert.action_of``) and scores the
position it leads to with the ``greedy`` computer player's evaluation.

- Gymnasium (``gymnasium.make("pachisi/Pachisi-v0")``): the agent is team 0 (seats 0 and
  2); the environment plays team 1 with its ``random`` opponents.
- PettingZoo (``pachisi.env.env()``): the four seats are agents ``seat_0``..``seat_3``; our
  agent plays ``seat_0`` and ``seat_2``, a random agent the other two.

Each agent plays ``--games`` games in each environment; the script prints the win rates.

    .venv/bin/python examples/gym_agents.py                 # 50 games of each
    .venv/bin/python examples/gym_agents.py --games 10 --ruleset ludii
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

import pachisi.env  # registers pachisi/Pachisi-v0 with Gymnasium
from pachisi.ai import GreedyBot
from pachisi.fast.convert import action_of
from pachisi.rules.state import State

Agent = Callable[[dict[str, Any], State, np.random.Generator], int]
"""``agent(observation, state, rng) -> action id``: the observation (with its mask), and the
game as the rules engine's state for an agent that wants to look ahead."""


def random_agent(obs: dict[str, Any], state: State, rng: np.random.Generator) -> int:
    """A legal action id, uniformly at random."""
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


_GREEDY = GreedyBot()


def greedy_agent(obs: dict[str, Any], state: State, rng: np.random.Generator) -> int:
    """The legal action id whose result the greedy evaluation scores best."""
    legal = np.flatnonzero(obs["action_mask"])
    scores = [_GREEDY.score(state, action_of(int(a), state)) for a in legal]
    return int(legal[int(np.argmax(scores))])


AGENTS: dict[str, Agent] = {"random": random_agent, "greedy": greedy_agent}


def gymnasium_win_rate(agent: Agent, games: int, ruleset: str, seed: int) -> float:
    """The share of ``games`` that ``agent``, as team 0, wins against random opponents."""
    env = gym.make("pachisi/Pachisi-v0", ruleset=ruleset, learner="team0", opponents="random")
    rng = np.random.default_rng(seed)
    wins = 0
    obs, _ = env.reset(seed=seed)  # later resets go on with the seeded stream
    for _ in range(games):
        done = False
        while not done:
            # The unwrapped environment's `state` is the game as the rules engine sees it.
            action = agent(obs, env.unwrapped.state, rng)  # type: ignore[attr-defined]
            obs, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        wins += float(reward) > 0  # +1 won, -1 lost, 0 drawn or cut short
        obs, _ = env.reset()
    env.close()
    return wins / games


def pettingzoo_win_rate(agent: Agent, games: int, ruleset: str, seed: int) -> float:
    """The share of ``games`` that ``agent`` on seats 0 and 2 wins against a random agent
    on seats 1 and 3, in the AEC environment (every seat an agent)."""
    env = pachisi.env.env(ruleset=ruleset, notation=False)
    rng = np.random.default_rng(seed)
    wins = 0
    for game in range(games):
        env.reset(seed=seed + game)
        for name in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                if name == "seat_0":
                    wins += float(reward) > 0
                env.step(None)  # a finished agent steps with None, as PettingZoo asks
                continue
            ours = name in ("seat_0", "seat_2")
            chooser = agent if ours else random_agent
            env.step(chooser(obs, env.unwrapped.game_state, rng))
    env.close()
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per agent and env")
    parser.add_argument("--ruleset", default="classic", help="any ruleset string")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    print(f"{args.games} games per agent and environment, ruleset {args.ruleset}")
    measures = {"gymnasium": gymnasium_win_rate, "pettingzoo": pettingzoo_win_rate}
    for env_name, measure in measures.items():
        for agent_name, agent in AGENTS.items():
            start = time.perf_counter()
            rate = measure(agent, args.games, args.ruleset, args.seed)
            seconds = time.perf_counter() - start
            print(
                f"{env_name:<10}  {agent_name:<6} agent vs random: "
                f"win rate {rate:.2f} ({seconds:.1f} s)"
            )


if __name__ == "__main__":
    main()
