"""The Gymnasium environment for one learner (issue 6, item 4): check_env on every named
ruleset, seeds, illegal actions, rewards as the reference outcome, seat and team learners,
opponents of every kind."""

from __future__ import annotations

import random
import re
import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from pachisi.ai import make_player
from pachisi.ai.compiled_bots import bot_actions
from pachisi.env import ENV_ID, PachisiEnv, PolicyError
from pachisi.fast import batch as B
from pachisi.fast.convert import action_id
from pachisi.notation import write_position
from pachisi.rules import engine
from pachisi.rules.actions import IllegalActionError
from pachisi.rules.ruleset import NAMED

RULESETS = [*NAMED, "classic+players=2", "classic+teams=individual"]


def _random_episode(env: PachisiEnv, seed: int) -> tuple[float, list[int], int]:
    """A random legal agent to the end: return, the learner's seats to act, steps."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, seats, steps = 0.0, [info["seat"]], 0
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        steps += 1
        if terminated or truncated:
            return total, seats, steps
        seats.append(info["seat"])


@pytest.mark.parametrize("rules", RULESETS)
def test_gymnasium_check_env_passes(rules: str) -> None:
    # check_env steps with actions sampled without the mask: illegal ones end the episode.
    # The environment is made through its id, so that check_env also makes it anew for
    # each render mode and checks close(), and then unwrapped, as check_env wants it.
    made = gym.make(ENV_ID, ruleset=rules, illegal_action="lose", render_mode="ansi")
    assert isinstance(made.unwrapped, PachisiEnv)
    check_env(made.unwrapped)


@pytest.mark.parametrize("rules", list(NAMED))
def test_gymnasium_check_env_passes_in_the_default_configuration(rules: str) -> None:
    # What README.md and docs/rl.md claim: gymnasium.make(ENV_ID, ruleset=name) with every
    # other argument left at its default, on every named ruleset, with no warning either.
    made = gym.make(ENV_ID, ruleset=rules)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(made.unwrapped)


@pytest.mark.parametrize("rules", ["wikipedia-full", "classic+teams=individual"])
def test_the_reward_is_the_learners_side_of_the_outcome(rules: str) -> None:
    learner = "seat1" if rules.endswith("individual") else "team1"
    env = PachisiEnv(rules, learner=learner, opponents="greedy")
    results = set()
    for seed in range(5):
        total, _, _ = _random_episode(env, seed)
        outcome = engine.outcome(env.state)
        assert outcome is not None
        if outcome.is_draw:
            assert total == 0.0
        else:
            assert total == (1.0 if 1 in outcome.seats else -1.0)
        results.add(total)
    assert -1.0 in results


def test_a_team_learner_plays_both_seats_of_its_team() -> None:
    env = PachisiEnv("classic", learner="team1", opponents="random")
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    seen = set()
    for _ in range(150):
        seat = info["seat"]
        seen.add(seat)
        state = env.state
        assert engine.current_player(state) == seat
        # Seen from the seat to act, with that seat's legal actions.
        view = B.from_states([state]).observation([seat])[0]
        assert np.array_equal(obs["observation"], view)
        ids = sorted(action_id(a, state.ruleset) for a in engine.legal_actions(state))
        assert np.flatnonzero(obs["action_mask"]).tolist() == ids
        obs, _, terminated, truncated, info = env.step(rng.choice(ids))
        assert not (terminated or truncated)
    assert seen == {1, 3}


def test_a_seat_learner_plays_one_seat_and_its_partner_is_a_policy() -> None:
    calls: list[int] = []

    def partner(obs: dict[str, Any]) -> int:
        calls.append(int(obs["action_mask"].sum()))
        return int(np.flatnonzero(obs["action_mask"])[-1])

    env = PachisiEnv("ludii", learner="seat2", opponents="greedy", partner=partner)
    _, seats, _ = _random_episode(env, seed=4)
    assert set(seats) == {2}
    assert calls and min(calls) >= 1  # the partner only ever chose among legal actions


def test_players_two_wants_a_team_and_individual_a_seat() -> None:
    assert PachisiEnv("classic+players=2").seats == (0, 2)
    assert PachisiEnv("classic+teams=individual").seats == (0,)
    with pytest.raises(ValueError, match="team0 or team1"):
        PachisiEnv("classic+players=2", learner="seat0")
    with pytest.raises(ValueError, match="alone"):
        PachisiEnv("classic+teams=individual", learner="team0")
    with pytest.raises(ValueError, match="learner"):
        PachisiEnv("classic", learner="seat4")
    with pytest.raises(ValueError, match="policy"):
        PachisiEnv("classic", opponents="clever")


def test_players_two_and_individual_games_play_to_the_end() -> None:
    for rules, learner, mates in (
        ("classic+players=2", "team1", {1, 3}),
        ("classic+teams=individual", "seat3", {3}),
    ):
        env = PachisiEnv(rules, learner=learner)
        total, seats, _ = _random_episode(env, seed=1)
        outcome = engine.outcome(env.state)
        assert outcome is not None and not outcome.is_draw
        assert total == (1.0 if mates & set(outcome.seats) else -1.0)
        assert set(seats) <= mates


def test_the_same_seed_and_actions_give_the_same_episode() -> None:
    def run(seed: int) -> tuple[list[str], float]:
        env = PachisiEnv("herklots-6", learner="seat1", opponents="greedy", notation=True)
        obs, info = env.reset(seed=seed)
        positions = [info["position"]]
        total = 0.0
        for _ in range(80):
            obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))
            positions.append(info["position"])
            total += float(reward)
            if terminated or truncated:
                break
        return positions, total

    assert run(21) == run(21)
    assert run(21)[0] != run(22)[0]


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = PachisiEnv("classic", opponents="greedy", illegal_action="raise")
    obs, _ = env.reset(seed=9)
    before = write_position(env.state)
    generator = env.np_random.bit_generator.state
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for bad in (illegal, -3, 99_999, 2.0, "0a+4"):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert write_position(env.state) == before
        assert env.np_random.bit_generator.state == generator
    _, _, terminated, _, _ = env.step(int(obs["action_mask"].argmax()))
    assert not terminated


def test_by_default_an_illegal_id_loses_and_anything_outside_the_space_raises() -> None:
    env = PachisiEnv("classic", opponents="greedy")
    obs, _ = env.reset(seed=9)
    before = write_position(env.state)
    generator = env.np_random.bit_generator.state
    # Not an id of Discrete(NUM_ACTIONS): an error, and nothing changes (the episode goes on).
    for bad in (-3, 2230, 99_999, 2.0, "0a+4", None, np.array([1, 2])):
        assert bad not in env.action_space
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert write_position(env.state) == before
        assert env.np_random.bit_generator.state == generator
    # An id of the space that is not legal now: the learner loses, the game is abandoned.
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal_action": True})
    assert not obs["action_mask"].any()
    assert write_position(env.state) == before
    with pytest.raises(ValueError, match="'lose' or 'raise'"):
        PachisiEnv("classic", illegal_action="ignore")  # type: ignore[arg-type]


def test_lose_ends_the_episode_on_an_illegal_action() -> None:
    env = PachisiEnv("classic", illegal_action="lose")
    obs, _ = env.reset(seed=9)
    before = write_position(env.state)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal_action": True})
    assert not obs["action_mask"].any()
    assert write_position(env.state) == before  # abandoned, not played on
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


class _Opponent:
    """A callable opponent that plays the lowest legal id, or, once told to, an id its
    mask marks illegal."""

    def __init__(self) -> None:
        self.bad = False
        self.returned: list[int] = []
        self.legal: list[list[int]] = []

    def __call__(self, obs: dict[str, Any]) -> int:
        mask = obs["action_mask"]
        action = int(np.flatnonzero(mask == 0 if self.bad else mask)[0])
        self.returned.append(action)
        self.legal.append(np.flatnonzero(mask).tolist())
        return action


def _games_now(env: PachisiEnv) -> list[Any]:
    """Everything the environment's game is made of: the batch, steps, bot generator."""
    games = env._games
    batch = games.batch
    arrays = [batch.rows, batch.rngs, batch.choice_rngs, batch.legal_action_mask]
    arrays += [batch.current_player, batch.rewards, games.steps]
    return [a.copy() for a in arrays] + [games.rng.getstate()]


@pytest.mark.parametrize("illegal_action", ["raise", "lose"])
def test_an_opponents_illegal_action_names_it_and_undoes_the_step(illegal_action: Any) -> None:
    opponent = _Opponent()
    env = PachisiEnv("classic", opponents=opponent, illegal_action=illegal_action)
    twin = PachisiEnv("classic", opponents=_Opponent(), illegal_action=illegal_action)
    obs, _ = env.reset(seed=5)
    twin.reset(seed=5)
    action = int(np.flatnonzero(obs["action_mask"])[0])
    while True:
        before = _games_now(env)
        position = write_position(env.state)
        generator = env.np_random.bit_generator.state
        opponent.bad = True
        # Not the learner's fault, so never its loss: an error that names the opponent.
        try:
            env.step(action)
        except PolicyError as error:
            message = str(error)
            break
        # The learner acts again (another throw): the opponent has not been asked yet.
        obs, *_ = twin.step(action)
        action = int(np.flatnonzero(obs["action_mask"])[0])
    assert f"the opponents policy at seat 1 returned {opponent.returned[-1]}, " in message
    assert "not a legal action id there; legal ids: " in message
    # The legal ids, each with its notation, are those of the mask the opponent was given.
    legal = re.findall(r"(\d+) \(([^)]*)\)", message.split("legal ids: ")[1])
    assert [int(a) for a, _ in legal] == opponent.legal[-1]
    assert all(text == "-" or text.startswith("1") for _, text in legal), message
    # The learner's move is not left half-applied: the game is as before the step.
    now = _games_now(env)
    assert all(np.array_equal(a, b) for a, b in zip(now[:-1], before[:-1], strict=True))
    assert now[-1] == before[-1]
    assert write_position(env.state) == position
    assert env.np_random.bit_generator.state == generator
    # So with the opponent mended, the episode goes on exactly as if nothing had failed.
    opponent.bad = False
    for _ in range(30):
        got = env.step(action)
        want = twin.step(action)
        assert np.array_equal(got[0]["observation"], want[0]["observation"])
        assert np.array_equal(got[0]["action_mask"], want[0]["action_mask"])
        assert got[1:] == want[1:]
        if got[2] or got[3]:
            break
        action = int(np.flatnonzero(got[0]["action_mask"])[0])


def test_a_partner_or_bot_returning_an_illegal_action_is_named() -> None:
    partner = _Opponent()
    partner.bad = True
    env = PachisiEnv("ludii", learner="seat0", opponents="random", partner=partner)
    with pytest.raises(PolicyError, match=r"the partner policy at seat 2 returned \d+, which"):
        for seed in range(20):
            obs, _ = env.reset(seed=seed)
            for _ in range(20):
                env.step(int(np.flatnonzero(obs["action_mask"])[0]))

    class Stubborn:
        def choose(self, state: Any, rng: random.Random) -> Any:
            return "0a+4"

    # Under ludii seat 0 begins, so the bot is asked before the learner's first turn.
    env = PachisiEnv("ludii", learner="seat1", opponents=Stubborn())
    with pytest.raises(PolicyError, match="opponents policy at seat 0 returned 0a\\+4"):
        env.reset(seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)  # the game the failed reset half started cannot be played


def test_truncation_after_max_steps() -> None:
    env = PachisiEnv("classic", max_steps=30)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    learner_steps = 0
    while learner_steps < 30:
        learner_steps += 1
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        assert reward == 0.0 and not terminated
        if truncated:
            break
    assert truncated and learner_steps < 30  # 30 actions of all seats, some of them the learner's
    assert not env.state.is_over
    assert info["seat"] == -1 and not obs["action_mask"].any()


def test_a_reference_bot_can_play_the_opponents() -> None:
    env = PachisiEnv("tylor-1879", learner="seat0", opponents=make_player("greedy"))
    obs, info = env.reset(seed=2)
    for _ in range(40):
        obs, _, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))
        assert info["seat"] == 0 and not (terminated or truncated)
        assert engine.current_player(env.state) == 0


def test_registered_with_gymnasium() -> None:
    env = gym.make(ENV_ID, ruleset="ludii", learner="team0", opponents="greedy")
    assert isinstance(env.unwrapped, PachisiEnv)
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space
    env.action_space.seed(0)
    obs, *_ = env.step(env.action_space.sample(obs["action_mask"]))
    assert obs in env.observation_space


def test_observations_stay_inside_their_space_in_whole_games() -> None:
    # Random games of every ruleset, every seat's view of every position.
    for rules in RULESETS:
        env = PachisiEnv(rules)
        batch = B.init(env.ruleset, 12, seed=random.Random(rules).randrange(2**20))
        space = env.observation_space["observation"]
        assert isinstance(space, gym.spaces.Box)
        while not batch.terminated.all():
            for seat in range(4):
                view = batch.observation(np.full(batch.size, seat))
                assert view.dtype == space.dtype and view.shape[1:] == space.shape
                assert (view >= space.low).all() and (view <= space.high).all(), rules
            B.step(batch, bot_actions(batch, ["random"] * 4))
        assert view[0] in space
