"""The PettingZoo AEC environment (issue 6, item 4; issue 19): PettingZoo's api_test,
state_test and render_test on every named ruleset, rewards as the reference engine's
outcome, seeds, illegal actions, dead agents, the global state."""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, state_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from pachisi.env import PachisiAECEnv, env, raw_env
from pachisi.fast.batch import OBS_SIZE
from pachisi.fast.convert import action_id
from pachisi.notation import write_position
from pachisi.rules import engine
from pachisi.rules.actions import IllegalActionError
from pachisi.rules.ruleset import NAMED

AGENTS = ["seat_0", "seat_1", "seat_2", "seat_3"]
# Beyond the named rulesets: two people with two seats each, and every seat alone.
RULESETS = [*NAMED, "classic+players=2", "classic+teams=individual"]


def _play(aec: PachisiAECEnv, seed: int, limit: int = 100_000) -> dict[str, float]:
    """Play random legal actions to the end; each agent's reward when it is done."""
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    for agent in aec.agent_iter(limit):
        obs, reward, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            final[agent] = reward
            aec.step(None)
        else:
            aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return final


@pytest.mark.parametrize("rules", RULESETS)
def test_pettingzoo_api_test_passes(rules: str) -> None:
    with warnings.catch_warnings():
        # api_test's advice for plain Box observations; ours are dicts with an action mask.
        warnings.filterwarnings("ignore", message=".*(NumPy array|gymnasium.spaces.box).*")
        api_test(env(ruleset=rules), num_cycles=40, verbose_progress=False)


def test_pettingzoo_api_test_plays_a_game_to_its_end() -> None:
    # Enough cycles for a whole game, so that the dead agents' steps are checked as well.
    aec = env(ruleset="wikipedia-full", notation=False)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*(NumPy array|gymnasium.spaces.box).*")
        api_test(aec, num_cycles=2000, verbose_progress=False)
    aec.reset()
    _play(aec.unwrapped, seed=0)
    assert aec.agents == []


@pytest.mark.parametrize("rules", ["wikipedia-full", "classic+teams=individual"])
def test_rewards_at_the_end_are_the_outcome_of_the_final_state(rules: str) -> None:
    aec = raw_env(ruleset=rules, notation=False)
    seen_draw = seen_win = False
    for seed in range(4):
        aec.reset(seed=seed)
        final = _play(aec, seed)
        assert aec.agents == []
        outcome = engine.outcome(aec.game_state)
        assert outcome is not None
        if outcome.is_draw:
            want = dict.fromkeys(AGENTS, 0.0)
            seen_draw = True
        else:
            want = {f"seat_{s}": 1.0 if s in outcome.seats else -1.0 for s in range(4)}
            seen_win = True
        assert final == want
        if rules.endswith("individual") and not outcome.is_draw:
            assert sorted(final.values()) == [-1.0, -1.0, -1.0, 1.0]
    assert seen_win
    assert seen_draw or rules.endswith("individual")


def test_the_same_seed_gives_the_same_game() -> None:
    games = []
    for _ in range(2):
        aec = raw_env(ruleset="herklots-7", notation=False)
        aec.reset(seed=11)
        _play(aec, seed=3, limit=300)
        games.append(write_position(aec.game_state))
    other = raw_env(ruleset="herklots-7", notation=False)
    other.reset(seed=12)
    _play(other, seed=3, limit=300)
    assert games[0] == games[1]
    assert write_position(other.game_state) != games[0]


def test_reset_without_a_seed_goes_on_with_the_seeded_stream() -> None:
    first, second = raw_env(), raw_env()
    first.reset(seed=5)
    second.reset(seed=5)
    first.reset()
    second.reset()
    assert write_position(first.game_state) == write_position(second.game_state)


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    aec = raw_env(ruleset="classic", illegal_action="raise")
    aec.reset(seed=2)
    agent = aec.agent_selection
    before = write_position(aec.game_state)
    obs = aec.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for bad in (illegal, -1, 2230, 1.0, None, np.array([1, 2])):
        with pytest.raises(IllegalActionError):
            aec.step(bad)
        assert aec.agent_selection == agent
        assert write_position(aec.game_state) == before
        assert not any(aec.terminations.values())
    # And the game goes on from there with a legal action.
    aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert write_position(aec.game_state) != before


@pytest.mark.parametrize("rules", ["classic", "classic+teams=individual"])
def test_by_default_an_illegal_id_ends_the_game_as_a_loss_for_its_side(rules: str) -> None:
    aec = raw_env(ruleset=rules)
    aec.reset(seed=2)
    agent = aec.agent_selection
    seat = AGENTS.index(agent)
    before = write_position(aec.game_state)
    obs = aec.observe(agent)
    # Not an id of the action space: an error, and nothing changes.
    for bad in (-1, 2230, 1.0, None, np.array([1, 2])):
        with pytest.raises(IllegalActionError):
            aec.step(bad)
        assert aec.agent_selection == agent and not any(aec.terminations.values())
        assert write_position(aec.game_state) == before
    # An id of the space that is not legal now: the game is abandoned where it stood.
    aec.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert write_position(aec.game_state) == before
    assert all(aec.terminations.values()) and not any(aec.truncations.values())
    assert all(aec.infos[a] == {"illegal_action": True} for a in AGENTS)
    assert not any(aec.observe(a)["action_mask"].any() for a in AGENTS)
    assert not aec.state()[-4:].any()
    side = {seat, (seat + 2) % 4} if rules == "classic" else {seat}
    want = {a: -1.0 if s in side else 0.0 for s, a in enumerate(AGENTS)}
    assert _play(aec, seed=0) == want
    assert aec.agents == []


def test_state_is_seat_0s_view_and_the_seat_to_act() -> None:
    aec = env(ruleset="wikipedia-full", notation=False)
    aec.reset(seed=6)
    space = aec.state_space
    assert space.shape == (OBS_SIZE + 4,) and space is aec.unwrapped.state_space
    rng = np.random.default_rng(6)
    seen = set()
    for agent in aec.agent_iter():
        state = aec.state()
        assert state in space
        assert np.array_equal(state[:-4], aec.observe("seat_0")["observation"])
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            assert not state[-4:].any()  # the game is over: no seat is to act
            aec.step(None)
            continue
        assert state[-4:].tolist() == [float(a == agent) for a in AGENTS]
        seen.add(agent)
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert seen == set(AGENTS)


@pytest.mark.parametrize("rules", RULESETS)
def test_pettingzoo_state_test_passes(rules: str) -> None:
    # In the default configuration: state_test steps with actions sampled without the mask.
    # Its parallel environment is PettingZoo's own conversion of a turn-based game.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state_test(env(ruleset=rules), turn_based_aec_to_parallel(env(ruleset=rules)))


@pytest.mark.parametrize("rules", RULESETS)
def test_pettingzoo_render_test_passes(rules: str) -> None:
    assert PachisiAECEnv.metadata["render_modes"] == ["ansi", "human"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        render_test(functools.partial(env, ruleset=rules))


def test_human_rendering_prints_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    # After reset, on render() (which returns None) and after every step.
    aec = raw_env(ruleset="ludii", render_mode="human")
    capsys.readouterr()
    aec.reset(seed=0)
    first = write_position(aec.game_state)
    assert aec.render() is None
    aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    printed = capsys.readouterr().out.splitlines()
    positions = [line for line in printed if line.endswith(" ludii")]
    assert positions == [first, first, write_position(aec.game_state)]
    assert any("Charkoni" in line for line in printed)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")


def test_observations_masks_and_infos_follow_the_agent_to_act() -> None:
    aec = raw_env(ruleset="wikipedia-full")
    aec.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(60):
        agent = aec.agent_selection
        state = aec.game_state
        seat = AGENTS.index(agent)
        assert engine.current_player(state) == seat
        legal = engine.legal_actions(state)
        obs = aec.observe(agent)
        ids = sorted(action_id(a, state.ruleset) for a in legal)
        assert np.flatnonzero(obs["action_mask"]).tolist() == ids
        info = aec.infos[agent]
        assert info["position"] == write_position(state)
        assert sorted(info["legal_actions"]) == sorted(str(a) for a in legal)
        for other in AGENTS:
            if other != agent:
                assert not aec.observe(other)["action_mask"].any()
                assert aec.infos[other] == {}
        # The observation is the agent's own view: its own pieces come first.
        own = [p / 84 for p in state.seat_pieces(seat)]
        assert obs["observation"][:4] == pytest.approx(own)
        aec.step(int(rng.choice(ids)))


def test_truncation_after_max_steps() -> None:
    aec = raw_env(ruleset="classic", max_steps=25, notation=False)
    aec.reset(seed=1)
    rng = np.random.default_rng(1)
    actions = 0
    while not any(aec.truncations.values()):
        mask = aec.observe(aec.agent_selection)["action_mask"]
        aec.step(int(rng.choice(np.flatnonzero(mask))))
        actions += 1
    assert actions == 25
    assert all(aec.truncations.values()) and not any(aec.terminations.values())
    assert set(aec.rewards.values()) == {0.0}
    assert not aec.observe(aec.agent_selection)["action_mask"].any()
    # Done agents leave one by one, each stepped with None; anything else is refused.
    with pytest.raises(ValueError):
        aec.step(0)
    while aec.agents:
        aec.step(None)
    assert aec.agents == []


def test_players_two_keeps_four_seat_agents_with_team_rewards() -> None:
    aec = raw_env(ruleset="classic+players=2", notation=False)
    aec.reset(seed=8)
    final = _play(aec, seed=8)
    assert final["seat_0"] == final["seat_2"] == -final["seat_1"] == -final["seat_3"]


def test_render_draws_the_board() -> None:
    aec = raw_env(ruleset="classic", render_mode="ansi")
    aec.reset(seed=0)
    text = aec.render()
    assert isinstance(text, str)
    assert write_position(aec.game_state) in text
    assert "Charkoni" in text
    assert raw_env().render() is None
