"""The learned player: one feature encoder in both engines, the weights files, training
that repeats itself, and shipped weights that load and play."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from pachisi.ai import _compiled
from pachisi.ai.budget import Budget
from pachisi.ai.compiled_bots import compiled
from pachisi.ai.compiled_expectimax import CompiledExpectimaxPlayer
from pachisi.ai.expectimax import ExpectimaxPlayer
from pachisi.ai.learned import train
from pachisi.ai.learned.features import FEATURES, MAX_ACTIVE
from pachisi.ai.learned.net import Net, WeightsError
from pachisi.ai.learned.player import LearnedPlayer
from pachisi.ai.learned.value import (
    WEIGHTS_DIR,
    LearnedEvaluation,
    LearnedValue,
    trained_for,
    value_for,
    weights_name,
    weights_path,
)
from pachisi.fast.convert import to_row
from pachisi.rules import engine
from pachisi.rules.ruleset import NAMED, parse_ruleset
from tests.ai.positions import RULESETS, decisions


def _weights(net: Net) -> tuple[np.ndarray, ...]:
    return (net.w1, net.b1, net.w2, net.b2, net.w3)


@pytest.mark.parametrize("name", RULESETS)
def test_compiled_features_and_network_match_the_numpy_ones(name: str) -> None:
    """Training (compiled) and play (plain Python) must see a position alike."""
    ruleset = parse_ruleset(name)
    sides = engine.side_count(ruleset)
    net = Net.initial(sides, 16, seed=3)
    rng = np.random.default_rng(0)
    net.w1 += rng.normal(0, 0.2, net.w1.shape)  # not just the starting weights
    net.w2 += rng.normal(0, 0.2, net.w2.shape)
    value = LearnedValue(net, ruleset)
    c = compiled(ruleset)
    h = np.zeros(16)
    out = np.zeros(sides)
    for state in decisions(ruleset, seed=5, count=12, every=3):
        row = to_row(state)
        for seat in range(4):
            scores = np.zeros(4)
            _compiled.greedy_scores(row, c.params, c.weights, c.hit, scores)
            blocked = _compiled.blocked_seats(row, c.params)
            idx = np.zeros(MAX_ACTIVE, dtype=np.int32)
            val = np.zeros(MAX_ACTIVE)
            n = _compiled.encode(row, c.params, c.hit, seat, blocked, scores, idx, val)
            assert 0 < n <= MAX_ACTIVE
            assert (np.diff(idx[:n]) > 0).all() and idx[n - 1] < FEATURES
            _compiled.forward(idx, val, n, net.weights(), h, out)
            relative = np.zeros(sides)
            _compiled.to_absolute(c.params, seat, out, relative)
            assert value.seen_by(state, seat) == pytest.approx(relative.tolist(), abs=1e-9)


def test_the_network_rates_a_won_race_above_a_lost_one() -> None:
    """A sanity check of the shipped classic weights: far ahead beats far behind."""
    value = value_for(parse_ruleset("classic"))
    ahead = _position("80,80,84,84/10,12,0,0/84,84,70,75/5,0,0,0")
    behind = _position("10,12,0,0/80,80,84,84/5,0,0,0/84,84,70,75")
    assert value.chances(ahead)[0] > 0.8
    assert value.chances(behind)[0] < 0.2


def _position(pieces: str, ruleset: str = "classic") -> engine.State:
    from pachisi.notation import read_position

    return read_position(f"{pieces} t0 40 entered=0,1,2,3 {ruleset}")


@pytest.mark.parametrize("name", [*NAMED, "classic+teams=individual"])
def test_shipped_weights_load_and_play_every_ruleset(name: str) -> None:
    ruleset = parse_ruleset(name)
    path = weights_path(ruleset)
    assert path.parent == WEIGHTS_DIR and path.exists()
    assert Net.load(path).meta["command"].startswith("python -m pachisi.ai.learned.train")
    player = LearnedPlayer()
    for state in decisions(ruleset, seed=2, count=4):
        ranked = player.rank(state, random.Random(0))
        assert {r.action for r in ranked} == set(engine.legal_actions(state))
        assert [r.win for r in ranked] == sorted((r.win for r in ranked), reverse=True)
        assert player.choose(state, random.Random(1)) in engine.legal_actions(state)


def test_every_named_ruleset_has_its_own_weights() -> None:
    for name in NAMED:
        assert (WEIGHTS_DIR / f"{weights_name(NAMED[name])}.npz").exists(), name
    assert weights_name(parse_ruleset("classic+teams=individual")) == "classic-individual"


def test_training_is_reproducible(tmp_path: Path) -> None:
    ruleset = parse_ruleset("classic")
    plan = train.Training(games=3, seed=7, hidden=8, greedy_games=1)
    nets = []
    for _ in range(2):
        net = Net.initial(2, 8, seed=7)
        counts = train.train(ruleset, net, plan, progress=False)
        assert counts.games == 4 and counts.positions > 100
        nets.append(net)
    assert np.array_equal(nets[0].w1, nets[1].w1) and np.array_equal(nets[0].w3, nets[1].w3)
    other = Net.initial(2, 8, seed=7)
    train.train(ruleset, other, train.Training(games=3, seed=8, hidden=8), progress=False)
    assert not np.array_equal(other.w1, nets[0].w1)
    assert not np.array_equal(nets[0].w1, Net.initial(2, 8, seed=7).w1)  # it learned


def test_averaged_training_ends_with_the_mean_of_the_weights_after_each_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One game a batch: averaging from game 1 on keeps the mean of the weights after games
    # 2 and 3, and training itself goes on from the latest weights.
    monkeypatch.setattr(train, "CHUNK", 1)
    ruleset = parse_ruleset("classic")
    after = []
    for games in (2, 3):
        net = Net.initial(2, 8, seed=7)
        train.train(ruleset, net, train.Training(games=games, seed=7, hidden=8), progress=False)
        after.append(net)
    averaged = Net.initial(2, 8, seed=7)
    plan = train.Training(games=3, seed=7, hidden=8, average_from=1)
    train.train(ruleset, averaged, plan, progress=False)
    kept = zip(_weights(averaged), _weights(after[0]), _weights(after[1]), strict=True)
    for mean, two, three in kept:
        assert np.allclose(mean, (two + three) / 2)
    assert not np.allclose(after[0].w1, after[1].w1)  # the mean is of two different nets


def test_training_command_writes_weights_with_their_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "w.npz"
    argv = ["--games", "2", "--seed", "3", "--hidden", "8", "--match-games", "2", "--out", str(out)]
    assert train.main(argv) == 0
    net = Net.load(out)
    assert net.hidden == 8 and net.sides == 2
    assert net.meta["training"]["seed"] == 3 and net.meta["games"] == 2
    assert net.meta["against_greedy"]["games"] == 4
    assert "against greedy" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["--ruleset", "nonsense"],
        ["--games", "-1"],
        ["--alpha", "0"],
        ["--hidden", "0"],
        ["--seed", "-5"],
        ["--average-from", "-1"],
    ],
)
def test_training_command_refuses_bad_arguments(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "w.npz"
    assert train.main([*argv, "--out", str(out)]) == 2
    assert "error:" in capsys.readouterr().err
    assert not out.exists()


def test_bad_weights_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(WeightsError, match="cannot read"):
        Net.load(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip file")
    with pytest.raises(WeightsError, match="cannot read"):
        Net.load(tmp_path / "junk.npz")
    net = Net.initial(2, 4, seed=0)
    net.w3 = net.w3[:, :1]
    net.save(tmp_path / "shape.npz")
    with pytest.raises(WeightsError, match="wrong shapes"):
        Net.load(tmp_path / "shape.npz")
    net = Net.initial(2, 4, seed=0)
    net.w1[0, 0] = np.nan
    net.save(tmp_path / "nan.npz")
    with pytest.raises(WeightsError, match="not finite"):
        Net.load(tmp_path / "nan.npz")
    with pytest.raises(WeightsError, match="4 sides"):
        LearnedValue(Net.initial(4, 4, seed=0), parse_ruleset("classic"))


def test_weights_round_trip(tmp_path: Path) -> None:
    net = Net.initial(4, 6, seed=1)
    net.meta = {"command": "python -m pachisi.ai.learned.train", "games": 1}
    net.save(tmp_path / "w.npz")
    back = Net.load(tmp_path / "w.npz")
    assert back.meta == net.meta
    assert np.allclose(back.w1, net.w1, atol=1e-6) and np.allclose(back.w3, net.w3, atol=1e-6)


def test_expectimax_at_depth_one_with_the_learned_evaluation_is_the_learned_player() -> None:
    """Leaves are seen by the seat that just moved, as in training: one action ahead, the
    search and the learned player agree on every value."""
    evaluate = LearnedEvaluation()
    search = ExpectimaxPlayer(evaluate=evaluate, max_depth=1)
    player = LearnedPlayer()
    for state in decisions(parse_ruleset("classic"), seed=8, count=5):
        mine = {r.action: r.win for r in player.rank(state, random.Random(0))}
        theirs = {r.action: r.win for r in search.rank(state, random.Random(0), Budget(10**6))}
        assert theirs == pytest.approx(mine, abs=1e-12)


def test_levels_play_the_network_only_where_one_was_trained() -> None:
    from pachisi.ai.levels import ByTraining, make_level

    assert trained_for(parse_ruleset("classic"))
    assert trained_for(parse_ruleset("classic+teams=individual"))
    assert trained_for(parse_ruleset("wikipedia-full"))
    assert not trained_for(parse_ruleset("classic+blockade=true"))
    assert not trained_for(parse_ruleset("herklots-6+teams=individual"))
    hard = make_level("hard").player
    expert = make_level("expert").player
    assert isinstance(hard, ByTraining) and isinstance(expert, ByTraining)
    trained = decisions(parse_ruleset("classic"), seed=1, count=1)[0]
    other = decisions(parse_ruleset("classic+blockade=true"), seed=1, count=1)[0]
    assert isinstance(hard.pick(trained)[0], LearnedPlayer)
    assert isinstance(hard.pick(other)[0], ExpectimaxPlayer)
    assert isinstance(expert.pick(trained)[0], CompiledExpectimaxPlayer)
    assert type(expert.pick(other)[0]).__name__ == "MctsPlayer"


def test_a_searching_player_takes_a_budget_after_a_colon() -> None:
    from pachisi.ai.bots import UnknownBotError
    from pachisi.ai.players import make_player

    player = make_player("mcts:25")
    assert player.name == "mcts:25" and player.budget == Budget(playouts=25)  # type: ignore[attr-defined]
    state = decisions(parse_ruleset("classic"), seed=3, count=1)[0]
    assert player.choose(state, random.Random(0)) == player.choose(state, random.Random(0))
    for bad in ("greedy:10", "mcts:", "mcts:ten", "mcts:0", "nobody:5"):
        with pytest.raises(UnknownBotError):
            make_player(bad)
