"""The learning environments' speed (issue 22, item 4): steps per second of the PettingZoo
AEC environment, the Gymnasium environment and the vector environment, each playing random
legal actions (sampled from the action mask) on one core.

    .venv/bin/python bench/env.py [--seconds S] [--ruleset NAME] [--sizes N ...]

- AEC: ``pachisi.env.env(ruleset, notation=False)``, every seat an agent; a step is one
  agent's ``env.step`` (``notation=True``, the default, is measured too).
- Gym: ``PachisiEnv(ruleset, opponents="random")``; a step is the learner's ``env.step``
  (the opponents' moves inside it are not counted).
- vector: ``PachisiVectorEnv(N, ruleset)``; a step of N environments counts N steps; then
  the largest N with ``copy=False`` (each step writes over the arrays of an earlier one
  that nothing holds, rewriting only what changed), and with ``threads=--threads``
  (default 2).

Only the environments' own calls are timed (``step``, and ``last`` for AEC), not the
choice of the random actions. Each figure is the best of three rounds of about
``--seconds`` of those calls. Issue 22's targets: AEC and Gym at least 30,000 steps/s, the
vector environment at least 1,000,000 at 4,096 envs.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

import numpy as np

from pachisi.env import env as make_aec
from pachisi.env.gymnasium_env import PachisiEnv
from pachisi.env.vector_env import PachisiVectorEnv

TARGETS = {
    "AEC": 30_000,
    "Gym": 30_000,
    "vector 4096": 1_000_000,
    "vector 4096, copy=False": 1_000_000,
    "vector 4096, 2 threads": 1_000_000,
}


def best_of_three(round_: object, seconds: float) -> float:
    return max(round_(seconds) for _ in range(3))  # type: ignore[operator]


def aec_rate(ruleset: str, seconds: float, notation: bool) -> float:
    env = make_aec(ruleset=ruleset, notation=notation)
    rng = np.random.default_rng(1)
    steps = 0
    spent = 0.0
    env.reset(seed=1)
    while True:
        for _agent in env.agent_iter():
            began = time.perf_counter()
            obs, _, terminated, truncated, _ = env.last()
            spent += time.perf_counter() - began
            action = None
            if not (terminated or truncated):
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            began = time.perf_counter()
            env.step(action)
            spent += time.perf_counter() - began
            steps += 1
            if spent >= seconds:
                return steps / spent
        env.reset(seed=int(rng.integers(2**31)))


def gym_rate(ruleset: str, seconds: float) -> float:
    env = PachisiEnv(ruleset=ruleset)
    rng = np.random.default_rng(2)
    obs, _ = env.reset(seed=2)
    steps = 0
    spent = 0.0
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        began = time.perf_counter()
        obs, _, terminated, truncated, _ = env.step(action)
        spent += time.perf_counter() - began
        steps += 1
        if terminated or truncated:
            obs, _ = env.reset(seed=int(rng.integers(2**31)))
        if spent >= seconds:
            return steps / spent


def vector_rate(
    ruleset: str, size: int, seconds: float, threads: int = 1, copy: bool = True
) -> float:
    env = PachisiVectorEnv(size, ruleset=ruleset, threads=threads, copy=copy)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    steps = 0
    spent = 0.0
    while True:
        # A random legal action per game: the mask's argmax after random noise (untimed).
        mask = obs["action_mask"].astype(bool)
        noise = rng.random(mask.shape, dtype=np.float32)
        actions = np.where(mask, noise, -1.0).argmax(axis=1)
        began = time.perf_counter()
        obs, *_ = env.step(actions)
        spent += time.perf_counter() - began
        steps += size
        if spent >= seconds:
            return steps / spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 4096])
    parser.add_argument("--threads", type=int, default=2, help="threads of the last row")
    args = parser.parse_args(argv)
    print("$ .venv/bin/python bench/env.py " + " ".join(sys.argv[1:]))
    print(f"# python {platform.python_version()}, {platform.machine()}, {args.ruleset}")
    rows = [
        ("AEC", best_of_three(lambda s: aec_rate(args.ruleset, s, False), args.seconds)),
        ("AEC, notation", best_of_three(lambda s: aec_rate(args.ruleset, s, True), args.seconds)),
        ("Gym", best_of_three(lambda s: gym_rate(args.ruleset, s), args.seconds)),
    ]
    for size in args.sizes:
        rate = best_of_three(lambda s, n=size: vector_rate(args.ruleset, n, s), args.seconds)
        rows.append((f"vector {size}", rate))
    size = args.sizes[-1]
    rate = best_of_three(lambda s: vector_rate(args.ruleset, size, s, copy=False), args.seconds)
    rows.append((f"vector {size}, copy=False", rate))
    rate = best_of_three(lambda s: vector_rate(args.ruleset, size, s, args.threads), args.seconds)
    rows.append((f"vector {size}, {args.threads} threads", rate))
    print(f"{'environment':<24}{'steps/s':>12}{'target':>12}  met")
    for name, rate in rows:
        target = TARGETS.get(name)
        verdict = "" if target is None else ("yes" if rate >= target else "no")
        shown = "" if target is None else f"{target:>12,}"
        print(f"{name:<24}{rate:>12,.0f}{shown:>12}  {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
