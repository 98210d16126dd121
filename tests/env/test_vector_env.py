"""The vectorised Gymnasium environment (issue 6, item 4): it steps, autoresets on the next
step, is reproducible, shows only games that wait for the learner, and plays the same games
as the single environment."""

from __future__ import annotations

import weakref
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
import pytest

from pachisi.env import ENV_ID, PachisiEnv, PachisiVectorEnv, PolicyError, _games
from pachisi.fast import batch as B
from pachisi.fast.convert import action_id
from pachisi.notation import write_position
from pachisi.rules import engine
from pachisi.rules.actions import IllegalActionError
from pachisi.rules.ruleset import NAMED


def _random_actions(obs: dict[str, Any], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    mask = obs["action_mask"].astype(bool)
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])


@pytest.mark.parametrize("rules", [*NAMED, "classic+players=2", "classic+teams=individual"])
def test_vector_env_steps_resets_and_keeps_its_spaces(rules: str) -> None:
    envs = PachisiVectorEnv(6, rules, max_steps=200)
    obs, info = envs.reset(seed=1)
    assert obs in envs.observation_space and info == {}
    assert envs.action_space.shape == (6,)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(150):
        obs, rewards, terminated, truncated, _ = envs.step(_random_actions(obs, rng))
        assert obs in envs.observation_space
        assert rewards.shape == terminated.shape == truncated.shape == (6,)
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert not (terminated & truncated).any()
        finished += int((terminated | truncated).sum())
    assert finished > 0


def test_every_game_waits_for_the_learner_with_its_legal_actions() -> None:
    envs = PachisiVectorEnv(8, "wikipedia-full", learner="team0", opponents="greedy")
    obs, _ = envs.reset(seed=2)
    rng = np.random.default_rng(2)
    done = np.zeros(8, dtype=bool)
    for _ in range(120):
        states = envs.states()
        for g, state in enumerate(states):
            if done[g]:
                # The last observation of a game: over (or cut short), nothing to do.
                assert not obs["action_mask"][g].any()
                continue
            seat = engine.current_player(state)
            assert seat in (0, 2)
            ids = sorted(action_id(a, state.ruleset) for a in engine.legal_actions(state))
            assert ids and np.flatnonzero(obs["action_mask"][g]).tolist() == ids
        obs, rewards, terminated, truncated, _ = envs.step(_random_actions(obs, rng))
        for g in np.flatnonzero(terminated):
            outcome = engine.outcome(envs.states()[g])
            assert outcome is not None
            want = 0.0 if outcome.is_draw else (1.0 if 0 in outcome.seats else -1.0)
            assert rewards[g] == want
        done = terminated | truncated


def test_next_step_autoreset() -> None:
    envs = PachisiVectorEnv(4, "ludii", max_steps=60)
    assert envs.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
    obs, _ = envs.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(40):
        obs, rewards, terminated, truncated, _ = envs.step(_random_actions(obs, rng))
        if truncated.any():
            break
    ended = np.flatnonzero(truncated)
    assert ended.size
    assert (envs._games.steps[ended] >= 60).all()
    # The next step ignores the ended games' actions (even illegal ones) and restarts them.
    actions = _random_actions(obs, rng)
    actions[ended] = 2229
    obs, rewards, terminated, truncated, _ = envs.step(actions)
    assert (rewards[ended] == 0).all()
    assert not (terminated[ended] | truncated[ended]).any()
    assert obs["action_mask"][ended].any(axis=1).all()
    assert (envs._games.steps[ended] < 60).all()


def test_the_same_seed_gives_the_same_run() -> None:
    def run(seed: int) -> tuple[list[str], float]:
        envs = PachisiVectorEnv(5, "herklots-7", learner="seat3", opponents="greedy")
        obs, _ = envs.reset(seed=seed)
        rng = np.random.default_rng(7)
        total = 0.0
        for _ in range(250):
            obs, rewards, *_ = envs.step(_random_actions(obs, rng))
            total += float(rewards.sum())
        return [write_position(s) for s in envs.states()], total

    assert run(4) == run(4)
    assert run(4)[0] != run(5)[0]


def test_an_illegal_action_raises_and_changes_no_game() -> None:
    envs = PachisiVectorEnv(3, "classic")
    obs, _ = envs.reset(seed=6)
    before = [write_position(s) for s in envs.states()]
    actions = obs["action_mask"].argmax(axis=1)
    actions[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[-1])
    with pytest.raises(IllegalActionError, match="game 1"):
        envs.step(actions)
    for bad in (np.zeros(2, dtype=np.int64), np.zeros(3), np.full(3, 5000)):
        with pytest.raises(IllegalActionError):
            envs.step(bad)
    assert [write_position(s) for s in envs.states()] == before
    envs.step(obs["action_mask"].argmax(axis=1))


def test_one_game_plays_as_the_single_environment() -> None:
    # The same seed draws the same batch seed: the first episode is the same game.
    single = PachisiEnv("tylor-1879", learner="team1", opponents="greedy")
    vector = PachisiVectorEnv(1, "tylor-1879", learner="team1", opponents="greedy")
    obs, _ = single.reset(seed=8)
    vobs, _ = vector.reset(seed=8)
    for _ in range(5000):
        assert np.array_equal(obs["observation"], vobs["observation"][0])
        assert np.array_equal(obs["action_mask"], vobs["action_mask"][0])
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, reward, terminated, truncated, _ = single.step(action)
        vobs, vrewards, vterminated, vtruncated, _ = vector.step(np.array([action]))
        assert (reward, terminated, truncated) == (vrewards[0], vterminated[0], vtruncated[0])
        if terminated or truncated:
            break
    assert terminated
    assert write_position(single.state) == write_position(vector.states()[0])


def test_a_batched_callable_can_play_the_opponents() -> None:
    sizes: list[int] = []

    def highest(obs: dict[str, Any]) -> npt.NDArray[np.int64]:
        sizes.append(len(obs["action_mask"]))
        assert obs["observation"].shape == (len(obs["action_mask"]), 786)
        mask = obs["action_mask"]
        return np.asarray(mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1))

    envs = PachisiVectorEnv(6, "classic", learner="seat0", opponents=highest, partner="random")
    obs, _ = envs.reset(seed=0)
    for _ in range(30):
        obs, *_ = envs.step(obs["action_mask"].argmax(axis=1))
    assert sizes and max(sizes) <= 6


# With this seed and max_steps every game is cut short at step 30, so at step 31 all four
# restart (the failure comes after the new games' seed is drawn); at step 45 none does.
@pytest.mark.parametrize("fail_at", [31, 45])
def test_a_batched_callables_illegal_action_names_it_and_undoes_the_step(fail_at: int) -> None:
    bad = [False]

    def lowest(obs: dict[str, Any]) -> npt.NDArray[np.int64]:
        mask = obs["action_mask"]
        chosen = mask.argmax(axis=1)
        if bad[0]:
            chosen[-1] = int(np.flatnonzero(mask[-1] == 0)[0])  # illegal in its last game
        return chosen

    def run(fail_at: int) -> list[Any]:
        envs = PachisiVectorEnv(4, "classic", opponents=lowest, max_steps=40)
        obs, _ = envs.reset(seed=3)
        seen = []
        for step in range(60):
            actions = obs["action_mask"].argmax(axis=1)
            if step == fail_at:
                games = envs._games
                before = [a.copy() for a in (games.batch.rows, games.batch.rngs, games.steps)]
                positions = [write_position(s) for s in envs.states()]
                generator = envs.np_random.bit_generator.state
                autoreset = envs._autoreset.copy()
                assert autoreset.all() if fail_at == 31 else not autoreset.any()
                bad[0] = True
                with pytest.raises(PolicyError, match=r"the opponents policy at seat \d returned"):
                    envs.step(actions)
                bad[0] = False
                # Every game, its generators and step count, and the autoresets to come,
                # are as before the step.
                after = (games.batch.rows, games.batch.rngs, games.steps)
                assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))
                assert [write_position(s) for s in envs.states()] == positions
                assert envs.np_random.bit_generator.state == generator
                assert np.array_equal(envs._autoreset, autoreset)
            obs, rewards, terminated, truncated, _ = envs.step(actions)
            seen.append((obs["observation"].copy(), rewards.copy(), terminated | truncated))
        return seen

    # A step that failed and was undone leaves the run exactly as if it had never been
    # tried, autoresets (after 40 actions) included.
    for got, want in zip(run(fail_at), run(fail_at=-1), strict=True):
        assert all(np.array_equal(a, b) for a, b in zip(got, want, strict=True))


def test_a_batched_callable_must_return_one_integer_id_per_game() -> None:
    envs = PachisiVectorEnv(3, "ludii", learner="seat1", opponents=lambda obs: [0.5] * 3)
    with pytest.raises(PolicyError, match=r"opponents policy at seat 0 returned .*3 integer"):
        envs.reset(seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.zeros(3, dtype=np.int64))


def test_make_vec_builds_the_batched_environment() -> None:
    envs = gym.make_vec(
        ENV_ID, num_envs=3, vectorization_mode="vector_entry_point", ruleset="ludii"
    )
    assert isinstance(envs, PachisiVectorEnv) and envs.num_envs == 3
    obs, _ = envs.reset(seed=0)
    obs, *_ = envs.step(obs["action_mask"].argmax(axis=1))
    assert obs in envs.observation_space


@pytest.mark.parametrize("whole", [False, True], ids=["changes", "whole"])
@pytest.mark.parametrize("rules", ["classic", "wikipedia-full"])
def test_copy_false_gives_the_same_observations_and_never_writes_what_the_caller_holds(
    rules: str, whole: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``copy=False`` writes a step's observations over an earlier step's arrays that
    nothing holds: the same run as with new arrays, every observation the caller keeps
    stays as it was handed out, and the arrays handed out are read-only. Arrays too
    large for the caches (here ``whole``, at any size) are written whole instead of
    where they changed."""
    if whole:
        monkeypatch.setattr(B, "STREAM_BYTES", 0)
    new = PachisiVectorEnv(7, rules, max_steps=120)
    over = PachisiVectorEnv(7, rules, max_steps=120, copy=False)
    views = over._games._views
    assert views is not None and views.whole == whole and views.read_only
    obs, _ = new.reset(seed=2)
    kept_obs, _ = over.reset(seed=2)
    rng = np.random.default_rng(3)
    kept: list[tuple[dict[str, Any], dict[str, Any]]] = []
    finished = 0
    for step in range(300):
        assert np.array_equal(obs["observation"], kept_obs["observation"]), step
        assert np.array_equal(obs["action_mask"], kept_obs["action_mask"]), step
        if step % 25 == 0:  # some of them held on to, with copies to compare with later
            kept.append((kept_obs, {k: v.copy() for k, v in kept_obs.items()}))
        actions = _random_actions(obs, rng)
        obs, rewards, terminated, truncated, _ = new.step(actions)
        kept_obs, vrewards, vterminated, vtruncated, _ = over.step(actions)
        assert np.array_equal(rewards, vrewards)
        assert np.array_equal(terminated, vterminated) and np.array_equal(truncated, vtruncated)
        finished += int((terminated | truncated).sum())
    assert finished > 0
    for held, copied in kept:
        assert all(np.array_equal(held[k], copied[k]) for k in copied)
    with pytest.raises(ValueError, match="read-only"):
        kept_obs["observation"][0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        kept_obs["action_mask"][0, 0] = 1


def test_copy_false_takes_back_the_arrays_the_caller_let_go() -> None:
    """A loop that keeps only the latest observation is handed the same two sets of
    arrays in turn; a set the caller still holds (here through a view) is not."""
    envs = PachisiVectorEnv(4, "ludii", copy=False)
    obs, _ = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    obs, *_ = envs.step(_random_actions(obs, rng))
    first = weakref.ref(obs["observation"])
    obs, *_ = envs.step(_random_actions(obs, rng))
    second = weakref.ref(obs["observation"])
    assert second() is not first()
    for _ in range(10):
        obs, *_ = envs.step(_random_actions(obs, rng))
        assert obs["observation"] is first()
        obs, *_ = envs.step(_random_actions(obs, rng))
        assert obs["observation"] is second()
    view = obs["observation"][:1]
    before = view.copy()
    for _ in range(4):
        obs, *_ = envs.step(_random_actions(obs, rng))
        assert obs["observation"] is not view.base
    assert np.array_equal(view, before)


def test_copy_true_takes_back_only_arrays_let_go_and_writes_them_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``copy=True`` the arrays are writable and the caller's own. Those it lets go
    are taken back (here at any size; by default from 1 MB of arrays, about 200 games)
    and written whole: whatever it wrote into them before letting go leaves no trace
    (the run equals ``copy=False``'s), and those it holds are never written."""
    monkeypatch.setattr(_games, "_TAKE_BACK", 0)
    envs = PachisiVectorEnv(5, "classic", max_steps=150)
    twin = PachisiVectorEnv(5, "classic", max_steps=150, copy=False)
    obs, _ = envs.reset(seed=8)
    other, _ = twin.reset(seed=8)
    rng = np.random.default_rng(8)
    kept: list[tuple[dict[str, Any], dict[str, Any]]] = []
    handed: list[weakref.ref[npt.NDArray[np.float32]]] = []
    taken_back = 0
    for step in range(200):
        assert np.array_equal(obs["observation"], other["observation"]), step
        assert np.array_equal(obs["action_mask"], other["action_mask"]), step
        assert obs["observation"].flags.writeable and obs["action_mask"].flags.writeable
        handed.append(weakref.ref(obs["observation"]))
        actions = _random_actions(obs, rng)
        if step % 30 == 0:
            kept.append((obs, {k: v.copy() for k, v in obs.items()}))
        else:  # scribbled over, then let go
            obs["observation"][...] = 7.0
            obs["action_mask"][...] = 1
        obs, *_ = envs.step(actions)
        other, *_ = twin.step(actions)
        taken_back += any(ref() is obs["observation"] for ref in handed)
    for held, copied in kept:
        assert all(np.array_equal(held[k], copied[k]) for k in copied)
    # Two sets in turn, and a new one where the older was still held.
    assert taken_back >= 200 - 2 * len(kept) - 2


def test_make_vec_passes_copy_false() -> None:
    envs = gym.make_vec(ENV_ID, num_envs=3, copy=False)
    obs, _ = envs.reset(seed=0)
    assert not obs["observation"].flags.writeable
