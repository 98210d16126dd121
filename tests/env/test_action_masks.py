"""``action_masks()`` of the Gymnasium and vector environments (issue 47, item 3): the legal
actions now as booleans, always the last observation's mask, asked without changing the
run, and found where sb3-contrib's maskable algorithms look for it."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
import pytest

from pachisi.ai import make_player
from pachisi.env import ENV_ID, PachisiEnv, PachisiVectorEnv
from pachisi.fast.batch import NUM_ACTIONS


def _same_mask(mask: npt.NDArray[np.bool_], obs: dict[str, Any]) -> bool:
    return mask.dtype == np.bool_ and np.array_equal(mask, obs["action_mask"].astype(bool))


def _lowest(obs: dict[str, Any]) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


@pytest.mark.parametrize(
    ("rules", "options"),
    [
        ("classic", {"learner": "seat0", "opponents": "random"}),
        ("ludii", {"learner": "team1", "opponents": "greedy"}),
        ("wikipedia-full", {"learner": "seat2", "opponents": _lowest, "partner": "random"}),
        ("classic+teams=individual", {"learner": "seat3", "opponents": make_player("random")}),
    ],
    ids=["random", "team-greedy", "callable", "bot"],
)
def test_the_single_environment_gives_each_observations_mask(
    rules: str, options: dict[str, Any]
) -> None:
    env = PachisiEnv(rules, max_steps=2_000, **options)
    before = env.action_masks()
    assert before.shape == (NUM_ACTIONS,) and before.dtype == np.bool_ and not before.any()
    rng = np.random.default_rng(5)
    obs, _ = env.reset(seed=5)
    done, steps = False, 0
    while not done:
        mask = env.action_masks()
        assert mask.shape == (NUM_ACTIONS,) and _same_mask(mask, obs) and mask.any()
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        done, steps = terminated or truncated, steps + 1
    assert _same_mask(env.action_masks(), obs) and not env.action_masks().any()
    assert steps > 10


def test_the_mask_is_empty_after_an_illegal_action_and_full_again_after_reset() -> None:
    env = PachisiEnv("classic")
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    obs, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"]
    assert not env.action_masks().any() and _same_mask(env.action_masks(), obs)
    obs, _ = env.reset(seed=2)
    assert env.action_masks().any() and _same_mask(env.action_masks(), obs)


def test_asking_for_the_mask_changes_nothing_and_gives_the_caller_its_own_array() -> None:
    def run(ask: bool) -> list[Any]:
        env = PachisiEnv("ludii", learner="seat0", opponents="greedy")
        obs, _ = env.reset(seed=11)
        seen: list[Any] = []
        for _ in range(40):
            if ask:
                mine = env.action_masks()
                mine[:] = True  # the caller's own: the environment's mask is untouched
                assert _same_mask(env.action_masks(), obs)
            action = _lowest(obs)
            obs, reward, terminated, truncated, _ = env.step(action)
            seen.append((obs["observation"].copy(), reward, terminated, truncated))
            if terminated or truncated:
                obs, _ = env.reset()
        return seen

    for got, want in zip(run(ask=True), run(ask=False), strict=True):
        assert np.array_equal(got[0], want[0]) and got[1:] == want[1:]


def test_gymnasium_make_finds_it_through_its_wrappers() -> None:
    # sb3-contrib's get_action_masks / is_masking_supported ask for it so (and its
    # DummyVecEnv's env_method too).
    env = gym.make(ENV_ID, ruleset="classic")
    assert env is not env.unwrapped
    obs, _ = env.reset(seed=4)
    masks = env.get_wrapper_attr("action_masks")
    assert _same_mask(masks(), obs)


@pytest.mark.parametrize("copy", [True, False], ids=["copy", "no-copy"])
@pytest.mark.parametrize("rules", ["classic", "wikipedia-full"])
def test_the_vector_environment_gives_each_observations_masks(rules: str, copy: bool) -> None:
    envs = PachisiVectorEnv(16, rules, opponents="random", max_steps=300, copy=copy)
    assert envs.action_masks().shape == (16, NUM_ACTIONS) and not envs.action_masks().any()
    obs, _ = envs.reset(seed=8)
    rng = np.random.default_rng(8)
    ended = 0
    for _ in range(400):
        masks = envs.action_masks()
        assert masks.shape == (16, NUM_ACTIONS) and _same_mask(masks, obs)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, _, terminated, truncated, _ = envs.step(actions)
        # A game that ended waits for its restart with no legal action.
        assert not envs.action_masks()[terminated | truncated].any()
        ended += int((terminated | truncated).sum())
    assert ended > 16  # games ended and restarted on the way


def test_vector_masks_with_a_batched_callable_and_asking_changes_nothing() -> None:
    def highest(obs: dict[str, Any]) -> npt.NDArray[np.int64]:
        mask = obs["action_mask"]
        return np.asarray(mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1))

    def run(ask: bool) -> list[Any]:
        envs = PachisiVectorEnv(5, "ludii", learner="seat1", opponents=highest, max_steps=200)
        obs, _ = envs.reset(seed=6)
        seen: list[Any] = []
        for _ in range(250):
            if ask:
                masks = envs.action_masks()
                assert _same_mask(masks, obs)
                masks[:] = True  # the caller's own array
            obs, rewards, terminated, truncated, _ = envs.step(obs["action_mask"].argmax(axis=1))
            seen.append((obs["observation"].copy(), rewards.copy(), terminated | truncated))
        return seen

    for got, want in zip(run(ask=True), run(ask=False), strict=True):
        assert all(np.array_equal(a, b) for a, b in zip(got, want, strict=True))


def test_make_vec_gives_the_masks_too() -> None:
    envs = gym.make_vec(ENV_ID, num_envs=3, vectorization_mode="vector_entry_point")
    # Gymnasium's vector wrappers pass no attribute on: ask the unwrapped environment.
    assert isinstance(envs.unwrapped, PachisiVectorEnv)
    obs, _ = envs.reset(seed=0)
    assert _same_mask(envs.unwrapped.action_masks(), obs)


def test_sb3_contribs_lookup_finds_the_mask() -> None:
    pytest.importorskip(
        "sb3_contrib", reason="sb3-contrib is not installed (the `train` extra installs it)"
    )
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.env_util import make_vec_env

    env = gym.make(ENV_ID, ruleset="classic")
    obs, _ = env.reset(seed=3)
    assert is_masking_supported(env)
    assert _same_mask(get_action_masks(env), obs)
    # What MaskablePPO trains on: Gymnasium's wrappers, then SB3's Monitor and DummyVecEnv.
    vec = make_vec_env(lambda: gym.make(ENV_ID, ruleset="classic"), n_envs=2, seed=3)
    first = vec.reset()
    assert is_masking_supported(vec)
    masks = get_action_masks(vec)
    assert masks.shape == (2, NUM_ACTIONS)
    assert np.array_equal(masks, first["action_mask"].astype(bool))
