"""The vector environment at scale: thousands of games stepped as one compiled batch.

``PachisiVectorEnv`` (what ``gymnasium.make_vec("pachisi/Pachisi-v0", num_envs=N,
vectorization_mode="vector_entry_point")`` builds) plays ``--envs`` games at once for one
learner, team 0, against the compiled ``random`` players. Every step takes one action id
per game; here a random legal one, drawn for all games at once from the legal-action
masks. A game that ends restarts on the next step (Gymnasium's next-step autoreset).

The script prints how many learner steps a second the environment makes, with and without
the time the random choices take, and how the finished games ended.

    .venv/bin/python examples/vector_env.py                     # 4096 games, 500 steps
    .venv/bin/python examples/vector_env.py --envs 1024 --steps 200 --threads 2
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import numpy.typing as npt

from pachisi.env import PachisiVectorEnv


def random_legal(masks: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One random legal action id per game (row of ``masks``); 0 for a game with none (it
    is waiting to restart, and its action is ignored)."""
    # Every legal (game, id) pair, game by game (flatnonzero is many times faster than a
    # two-dimensional nonzero here).
    games, ids = np.divmod(np.flatnonzero(masks), masks.shape[1])
    counts = np.bincount(games, minlength=len(masks))
    first = np.cumsum(counts) - counts  # where each game's pairs begin
    pick = first + (rng.random(len(masks)) * counts).astype(np.int64)
    return np.where(counts > 0, ids[np.minimum(pick, len(ids) - 1)], 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=4096, help="games stepped together")
    parser.add_argument("--steps", type=int, default=500, help="steps of the whole batch")
    parser.add_argument("--ruleset", default="classic", help="any ruleset string")
    parser.add_argument("--threads", type=int, default=1, help="threads of the compiled batch")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    envs = PachisiVectorEnv(
        args.envs, args.ruleset, learner="team0", opponents="random", threads=args.threads
    )
    rng = np.random.default_rng(args.seed)
    obs, _ = envs.reset(seed=args.seed)
    won = lost = drawn = 0
    in_step = 0.0
    start = time.perf_counter()
    for _ in range(args.steps):
        # The observation's int8 mask; envs.action_masks() gives the same as booleans.
        actions = random_legal(obs["action_mask"].view(np.bool_), rng)
        before = time.perf_counter()
        obs, rewards, terminated, truncated, _ = envs.step(actions)
        in_step += time.perf_counter() - before
        ended = terminated | truncated
        won += int((rewards[ended] > 0).sum())
        lost += int((rewards[ended] < 0).sum())
        drawn += int((rewards[ended] == 0).sum())
    total = time.perf_counter() - start
    steps = args.envs * args.steps
    print(f"{args.envs} games of {args.ruleset}, {args.steps} steps, {args.threads} thread(s)")
    print(f"env.step alone:          {steps / in_step:,.0f} steps/s")
    print(f"with the random choices: {steps / total:,.0f} steps/s")
    finished = won + lost + drawn
    share = won / finished if finished else float("nan")
    print(f"{finished} games finished: team 0 won {won} ({share:.2f}), lost {lost}, drew {drawn}")


if __name__ == "__main__":
    main()
