"""The compiled players (:mod:`pachisi.ai._compiled`) against their plain Python references:
the encoder bit for bit, greedy's scores and the blocked seats as the reference engine's,
the network as numpy's, self-play as recorded, and a Python face that refuses what would
make the C code read or write out of bounds.

(The search is held to the reference search in test_compiled_expectimax.py. When the Cython
port replaced the numba kernels, every kernel was found bit-identical to its numba original
on eight rulesets; the self-play records below come from that comparison.)
"""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt
import pytest

from pachisi.ai import _compiled
from pachisi.ai.bots import GreedyBot
from pachisi.ai.compiled_bots import compiled
from pachisi.ai.expectimax import MAX_DEPTH
from pachisi.ai.learned import features
from pachisi.ai.learned.net import Net, Weights
from pachisi.ai.learned.value import hit_table
from pachisi.fast.convert import to_row
from pachisi.rules import deadlock, engine
from pachisi.rules.ruleset import Ruleset, parse_ruleset
from pachisi.rules.state import State
from tests.ai import positions
from tests.ai.positions import decisions

RULESETS = [*positions.RULESETS, "classic+blockade=true"]


def _net(sides: int, hidden: int, seed: int) -> Net:
    """A network that is not just the starting one."""
    net = Net.initial(sides, hidden, seed=seed)
    rng = np.random.default_rng(seed)
    net.w1 += rng.normal(0, 0.2, net.w1.shape)
    net.w2 += rng.normal(0, 0.2, net.w2.shape)
    net.w3 += rng.normal(0, 0.05, net.w3.shape)
    return net


def _positions(ruleset: Ruleset) -> list[State]:
    return [s for seed in range(3) for s in decisions(ruleset, seed=seed, count=12, every=2)]


def test_the_constants_are_the_python_modules() -> None:
    assert _compiled.FEATURES == features.FEATURES
    assert _compiled.MAX_ACTIVE == features.MAX_ACTIVE
    assert _compiled.MAX_DEPTH == MAX_DEPTH
    assert len({_compiled.OK, _compiled.OUT_OF_BUDGET, _compiled.OVERFLOWED}) == 3
    assert _compiled.BOTS == {"random": 0, "greedy": 1, "learned": _compiled.LEARNED_BOT}


@pytest.mark.parametrize("name", RULESETS)
def test_scores_blocked_seats_and_features_are_the_references(name: str) -> None:
    ruleset = parse_ruleset(name)
    c = compiled(ruleset)
    hit = hit_table(ruleset)
    board = tuple(t.tolist() for t in features.tables())
    greedy = GreedyBot()
    for state in _positions(ruleset):
        row = to_row(state)
        scores = np.zeros(4)
        _compiled.greedy_scores(row, c.params, c.weights, c.hit, scores)
        seats = range(4) if engine.side_count(ruleset) == 4 else (0, 1, 0, 1)
        assert scores.tolist() == [greedy.evaluate(state, seat) for seat in seats]
        blocked = sum(
            1 << seat
            for seat in range(4)
            if deadlock.seat_blocked(ruleset, state.pos, state.kills, seat)
        )
        assert _compiled.blocked_seats(row, c.params) == blocked
        for seat in range(4):
            idx = np.zeros(features.MAX_ACTIVE, dtype=np.int32)
            val = np.zeros(features.MAX_ACTIVE)
            n = _compiled.encode(row, c.params, hit, seat, blocked, scores, idx, val)
            ref_idx = np.zeros(features.MAX_ACTIVE, dtype=np.int32)
            ref_val = np.zeros(features.MAX_ACTIVE)
            ref_n = features.encode(
                row.tolist(), c.params.tolist(), hit.tolist(), board, seat, blocked,
                scores.tolist(), ref_idx, ref_val,
            )  # fmt: skip
            assert n == ref_n
            assert idx[:n].tolist() == ref_idx[:n].tolist()
            assert val[:n].tobytes() == ref_val[:n].tobytes()  # bit for bit


@pytest.mark.parametrize("name", ["classic", "classic+teams=individual"])
def test_the_network_is_numpys(name: str) -> None:
    ruleset = parse_ruleset(name)
    sides = engine.side_count(ruleset)
    net = _net(sides, 24, 11)
    c = compiled(ruleset)
    h = np.zeros(24)
    rel = np.zeros(sides)
    absolute = np.zeros(sides)
    for state in _positions(ruleset):
        row = to_row(state)
        scores = np.zeros(4)
        _compiled.greedy_scores(row, c.params, c.weights, c.hit, scores)
        idx = np.zeros(features.MAX_ACTIVE, dtype=np.int32)
        val = np.zeros(features.MAX_ACTIVE)
        seat = state.seat
        n = _compiled.encode(row, c.params, c.hit, seat, 0, scores, idx, val)
        _compiled.forward(idx, val, n, net.weights(), h, rel)
        assert rel.tolist() == pytest.approx(net.probabilities(idx, val, n).tolist(), abs=1e-12)
        _compiled.to_absolute(c.params, seat, rel, absolute)
        for r in range(sides):
            side = (seat + r) % 4 if sides == 4 else (seat + r) & 1
            assert absolute[side] == rel[r]


SELF_PLAY: dict[tuple[str, tuple[int, ...]], tuple[list[int], list[int], list[float]]] = {
    ("classic", (2, 2, 2, 2)): (
        [3, 0, 1164, 1, 2],
        [1, 1, 1, 1, 1, 1, 1, 1],
        [540.2991607490919, 1.8082945983521298e-05, 0.007733743542912737,
         0.0028921015626686085, 1.1939855828456942],
    ),
    ("classic", (2, 1, 2, 1)): (
        [3, 0, 1007, 0, 3],
        [1, 1, 1, 1, 1, 1, 1, 1],
        [540.299166472856, 7.412443817422052e-06, 0.008258143571170419,
         0.0014014182768166718, 1.1589081749230097],
    ),
    ("wikipedia-full", (1, 2, 1, 2)): (
        [3, 0, 731, 2, 1],
        [1, -2, 1, 1, 1, -2, 1, 1],
        [540.2991532764092, 4.1984303381053955e-06, 0.007213480448014276,
         0.0010060779861319083, 1.238462304848595],
    ),
    ("classic+teams=individual", (2, 1, 1, 1)): (
        [3, 0, 1296, 0, 1, 1, 1],
        [1, 1, 0, 3, 0, 3, 3, 3],
        [540.2991575516814, 7.260379463127312e-06, 0.015755516072922762,
         0.002836403994788061, 4.398499860549338],
    ),
}  # fmt: skip
"""Per ruleset and training players: the statistics of three training games (seed 7,
games 3 to 5), the winners of eight matches that follow (seed 9, games 1 to 8; seats:
learned, greedy, random, learned) and the sum of each trained array's magnitudes."""


@pytest.mark.parametrize(("name", "bots"), list(SELF_PLAY))
def test_self_play_repeats_the_recorded_games(name: str, bots: tuple[int, ...]) -> None:
    ruleset = parse_ruleset(name)
    sides = engine.side_count(ruleset)
    c = compiled(ruleset)
    start = to_row(engine.new_game(ruleset))
    net = Net.initial(sides, 8, seed=5)
    stats = np.zeros(3 + sides, dtype=np.int64)
    _compiled.train_games(
        start, c.params, c.p_mouth_up, c.hit, c.weights, np.array(bots, dtype=np.int32),
        net.weights(), 7, 3, 3, 0.7, 0.001, 0.1, 30_000, stats,
    )  # fmt: skip
    winners = np.zeros(8, dtype=np.int32)
    _compiled.match_games(
        start, c.params, c.p_mouth_up, c.hit, c.weights, np.array([2, 1, 0, 2], dtype=np.int32),
        net.weights(), 9, 1, 8, 30_000, winners,
    )  # fmt: skip
    recorded_stats, recorded_winners, magnitudes = SELF_PLAY[name, bots]
    assert stats.tolist() == recorded_stats
    assert winners.tolist() == recorded_winners
    assert [float(np.abs(w).sum()) for w in net.weights()] == pytest.approx(magnitudes, rel=1e-12)


Ints = npt.NDArray[np.int32]
Floats = npt.NDArray[np.float64]


def _search_args(
    ruleset: Ruleset, state: State
) -> tuple[Ints, Ints, Floats, Floats, Weights, Ints, Floats]:
    from pachisi.ai.learned.value import value_for

    value = value_for(ruleset)
    outcomes = engine.chance_outcomes(engine.new_game(ruleset))
    return (
        to_row(state),
        value.params,
        value.hit,
        compiled(ruleset).weights,
        value.net.weights(),
        np.array([k for k, _ in outcomes], dtype=np.int32),
        np.array([float(p) for _, p in outcomes]),
    )


def test_searches_run_side_by_side_in_threads() -> None:
    """The search releases the GIL and shares nothing between calls."""
    ruleset = parse_ruleset("classic")
    state = decisions(ruleset, seed=4, count=1)[0]
    args = _search_args(ruleset, state)
    results: list[list[float]] = [[] for _ in range(4)]

    def search(k: int) -> None:
        count = np.zeros(2, dtype=np.int64)
        values = np.zeros(_compiled.MAX_ACTIONS)
        n = _compiled.search_root(*args, 3, 10**9, count, values)
        results[k] = values[:n].tolist()

    threads = [threading.Thread(target=search, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0] and all(r == results[0] for r in results)


def test_the_python_face_refuses_what_the_kernels_cannot_take() -> None:
    ruleset = parse_ruleset("classic")
    c = compiled(ruleset)
    row = to_row(engine.new_game(ruleset))
    idx = np.zeros(features.MAX_ACTIVE, dtype=np.int32)
    val = np.zeros(features.MAX_ACTIVE)
    scores = np.zeros(4)
    with pytest.raises(ValueError, match="STATE_SIZE"):
        _compiled.encode(row[:-1], c.params, c.hit, 0, 0, scores, idx, val)
    with pytest.raises(ValueError, match="observer"):
        _compiled.encode(row, c.params, c.hit, 4, 0, scores, idx, val)
    with pytest.raises(ValueError, match="MAX_ACTIVE"):
        _compiled.encode(row, c.params, c.hit, 0, 0, scores, idx[:10], val)
    with pytest.raises(ValueError):  # a wrong dtype
        _compiled.encode(row.astype(np.int64), c.params, c.hit, 0, 0, scores, idx, val)
    net = Net.initial(2, 4, seed=0)
    h, out = np.zeros(4), np.zeros(2)
    with pytest.raises(ValueError, match="five arrays"):
        _compiled.forward(idx, val, 1, net.weights()[:4], h, out)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="shapes"):
        _compiled.forward(idx, val, 1, (net.w1, net.b1, net.w2[:3], net.b2, net.w3), h, out)
    with pytest.raises(ValueError, match="too short"):
        _compiled.forward(idx, val, 1, net.weights(), h[:2], out)
    idx[0] = features.FEATURES
    with pytest.raises(ValueError, match="out of range"):
        _compiled.forward(idx, val, 1, net.weights(), h, out)
    state = decisions(ruleset, seed=4, count=1)[0]
    args = _search_args(ruleset, state)
    values = np.zeros(_compiled.MAX_ACTIONS)
    with pytest.raises(ValueError, match="depth"):
        _compiled.search_root(*args, MAX_DEPTH + 1, 10, np.zeros(2, np.int64), values)
    with pytest.raises(ValueError, match="MAX_ACTIONS"):
        _compiled.search_root(*args, 1, 10, np.zeros(2, np.int64), values[:5])
    bots = np.array([2, 1, 2, 3], dtype=np.int32)
    with pytest.raises(ValueError, match="player code"):
        _compiled.match_games(
            row, c.params, c.p_mouth_up, c.hit, c.weights, bots, net.weights(), 0, 0, 1, 10,
            np.zeros(1, np.int32),
        )  # fmt: skip
    individual = Net.initial(4, 4, seed=0)
    with pytest.raises(ValueError, match="sides"):
        _compiled.train_games(
            row, c.params, c.p_mouth_up, c.hit, c.weights, np.ones(4, np.int32),
            individual.weights(), 0, 0, 1, 0.7, 0.001, 0.0, 10, np.zeros(7, np.int64),
        )  # fmt: skip
    frozen = Net.initial(2, 4, seed=0)
    frozen.w1.flags.writeable = False
    with pytest.raises(ValueError):  # training writes the weights
        _compiled.train_games(
            row, c.params, c.p_mouth_up, c.hit, c.weights, np.ones(4, np.int32),
            frozen.weights(), 0, 0, 1, 0.7, 0.001, 0.0, 10, np.zeros(5, np.int64),
        )  # fmt: skip
