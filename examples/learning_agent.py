"""A small learning agent, numpy only, that learns to beat random players.

The agent is a softmax policy over the legal actions: each legal action ``a`` in a
position ``s`` gets the score ``theta . phi(s, a)``, and the agent plays ``a`` with
probability proportional to ``exp(score)``. The features ``phi`` are a few facts about
the action, read from ``pachisi.env.action_table()`` and the observation:

- its kind (decline, move, enter, first piece out, finish, second lap), one-hot;
- the throw slot it uses (which of the ruleset's throw values), one-hot;
- how many pieces it moves together, one-hot;
- how far along its path the moved piece is (0 at the start, 1 home), and that squared.

It is trained with REINFORCE: after each game, every choice it made is made more likely
if the game was won and less likely if it was lost, in proportion to ``reward - baseline``
(the baseline is the running mean reward, which lowers the variance). The games are
played 64 at a time in the vector environment, as team 0 against the compiled ``random``
players.

The untrained policy (``theta = 0``) is uniform over the legal actions, which is exactly the
random player: it wins about half its games. The script measures the win rate before and
after training, and saves the learning curve to ``--out`` (a PNG).

    .venv/bin/python examples/learning_agent.py                   # 1,000 training games
    .venv/bin/python examples/learning_agent.py --games 300 --out curve.png
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import numpy.typing as npt

# A Figure made directly (not through pyplot) draws to a file with the Agg renderer, and
# needs no screen and no backend setting.
from matplotlib.figure import Figure

from pachisi.env import PachisiVectorEnv, action_table

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


class Features:
    """``phi(s, a)`` for every legal (game, action) pair of a batch of observations."""

    def __init__(self) -> None:
        table = action_table()  # kind, piece, slot, pieces moved, split steps, pyada
        self.piece = table[:, 1]  # the mover's piece 0..3, or -1 (an entry, a decline)
        # The parts that depend on the action alone, one row per action id.
        self.static = np.hstack(
            [
                np.eye(6)[table[:, 0]],  # kind
                np.eye(9)[table[:, 2] + 1],  # throw slot, or none
                np.eye(5)[table[:, 3]],  # pieces moved: 0 (a decline) .. 4
            ]
        )
        self.size = self.static.shape[1] + 2

    def __call__(self, obs: dict[str, Any], games: Ints, ids: Ints) -> Array:
        # The observation's first 16 values are each piece's progress / 84, seen from the
        # seat to act: piece i of that seat is entry i. (Under V-PARTNER-THROWS a seat whose
        # pieces are home moves its partner's; this rough feature ignores that.)
        piece = self.piece[ids]
        progress = np.where(piece >= 0, obs["observation"][games, np.maximum(piece, 0)], 0.0)
        return np.hstack([self.static[ids], progress[:, None], progress[:, None] ** 2])


class Agent:
    """The softmax policy and its REINFORCE update."""

    def __init__(self, features: Features, rng: np.random.Generator) -> None:
        self.features = features
        self.theta = np.zeros(features.size)
        self.rng = rng

    def act(self, obs: dict[str, Any]) -> tuple[Ints, Array]:
        """One action per game (0 where the game waits for its restart) and, per game,
        the gradient of the chosen action's log-probability (0 where none was chosen)."""
        mask = obs["action_mask"]
        n, n_actions = mask.shape
        games, ids = np.divmod(np.flatnonzero(mask), n_actions)  # legal pairs, by game
        actions = np.zeros(n, dtype=np.int64)
        grads = np.zeros((n, self.features.size))
        if games.size == 0:
            return actions, grads
        phi = self.features(obs, games, ids)
        score = phi @ self.theta
        acting, starts, counts = np.unique(games, return_index=True, return_counts=True)
        # Sample within each game: the largest score plus Gumbel noise is a softmax draw.
        noisy = score + self.rng.gumbel(size=score.size)
        order = np.lexsort((-noisy, games))  # by game, best first
        chosen = order[np.searchsorted(games[order], acting)]
        actions[acting] = ids[chosen]
        # The softmax probabilities within each game, and the expected features under them.
        top = np.maximum.reduceat(score, starts)
        weight = np.exp(score - np.repeat(top, counts))
        weight /= np.repeat(np.add.reduceat(weight, starts), counts)
        expected = np.add.reduceat(weight[:, None] * phi, starts)
        grads[acting] = phi[chosen] - expected  # d log pi(a) / d theta
        return actions, grads


def play(
    agent: Agent,
    envs: PachisiVectorEnv,
    games: int,
    *,
    lr: float = 0.0,
    seed: int,
    curve: list[float] | None = None,
    block: int = 50,
) -> float:
    """Play until ``games`` games have ended; learn from each (if ``lr``). The share won.

    With ``curve``, the win rate of every ``block`` games is appended to it.
    """
    obs, _ = envs.reset(seed=seed)
    pending = np.zeros((envs.num_envs, agent.features.size))  # each game's summed gradient
    baseline, wins, done, recent = 0.0, 0, 0, []
    while done < games:
        actions, grads = agent.act(obs)
        pending += grads
        obs, rewards, terminated, truncated, _ = envs.step(actions)
        for game in np.flatnonzero(terminated | truncated):
            reward = float(rewards[game])  # +1 won, -1 lost, 0 drawn or cut short
            if lr:
                agent.theta += lr * (reward - baseline) * pending[game]
                baseline += 0.05 * (reward - baseline)
            pending[game] = 0.0
            done += 1
            wins += reward > 0
            recent.append(reward > 0)
            if curve is not None and len(recent) == block:
                curve.append(float(np.mean(recent)))
                recent = []
    return wins / done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="training games")
    parser.add_argument("--eval-games", type=int, default=300, help="games to measure with")
    parser.add_argument("--envs", type=int, default=64, help="games played at once")
    parser.add_argument("--lr", type=float, default=0.002, help="the learning rate")
    parser.add_argument("--ruleset", default="classic", help="any ruleset string")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="learning_curve.png", help="where to save the curve")
    args = parser.parse_args()

    start = time.perf_counter()
    envs = PachisiVectorEnv(args.envs, args.ruleset, learner="team0", opponents="random")
    agent = Agent(Features(), np.random.default_rng(args.seed))
    before = play(agent, envs, args.eval_games, seed=args.seed + 1)
    block = max(10, args.games // 30)
    curve: list[float] = []
    play(agent, envs, args.games, lr=args.lr, seed=args.seed + 2, curve=curve, block=block)
    after = play(agent, envs, args.eval_games, seed=args.seed + 3)

    fig = Figure(figsize=(7, 4), layout="tight")
    ax = fig.subplots()
    ax.plot(np.arange(1, len(curve) + 1) * block, curve, marker="o", label="while training")
    ax.axhline(before, color="grey", linestyle="--", label=f"before: {before:.2f}")
    ax.axhline(after, color="green", linestyle="--", label=f"after: {after:.2f}")
    ax.set(xlabel="training games", ylabel=f"win rate (blocks of {block} games)", ylim=(0, 1.05))
    ax.set_title(f"REINFORCE, linear softmax policy, against random ({args.ruleset})")
    ax.legend(loc="lower right")
    fig.savefig(args.out)

    print(f"trained on {args.games} games in {time.perf_counter() - start:.1f} s")
    print(f"learning curve saved to {args.out}")
    print(f"win rate before {before:.2f}, after {after:.2f}")


if __name__ == "__main__":
    main()
