"""Transitional (issue 22): the Cython players (pachisi.ai._compiled) against the numba
kernels they replace, bit for bit, on positions of many rulesets."""

from __future__ import annotations

import numpy as np
import pytest

from pachisi.ai import _compiled as cy
from pachisi.ai.kernels import expectimax as nb_search
from pachisi.ai.learned import _selfplay as nb
from pachisi.ai.learned.features import FEATURES, MAX_ACTIVE
from pachisi.ai.learned.net import Net
from pachisi.ai.learned.value import value_for
from pachisi.fast.convert import to_row
from pachisi.fast.playouts import compiled
from pachisi.rules import engine
from pachisi.rules.ruleset import parse_ruleset
from tests.ai.positions import decisions

RULESETS = [
    "classic",
    "wikipedia-full",
    "herklots-6",
    "tylor-1879",
    "ludii",
    "classic+teams=individual",
    "classic+kill_before_home=team",
    "classic+blockade=true",
]


def _net(sides: int, hidden: int, seed: int) -> Net:
    net = Net.initial(sides, hidden, seed=seed)
    rng = np.random.default_rng(seed)
    net.w1 += rng.normal(0, 0.2, net.w1.shape)
    net.w2 += rng.normal(0, 0.2, net.w2.shape)
    net.w3 += rng.normal(0, 0.05, net.w3.shape)
    return net


def _weights(net: Net) -> tuple[np.ndarray, ...]:
    return (net.w1, net.b1, net.w2, net.b2, net.w3)


def test_constants_agree() -> None:
    assert cy.FEATURES == FEATURES and cy.MAX_ACTIVE == MAX_ACTIVE
    assert cy.MAX_ACTIONS == nb_search.MAX_ACTIONS
    assert (cy.OK, cy.OUT_OF_BUDGET, cy.OVERFLOWED) == (
        nb_search.OK,
        nb_search.OUT_OF_BUDGET,
        nb_search.OVERFLOWED,
    )
    assert cy.LEARNED_BOT == nb.LEARNED_BOT and cy.BOTS["greedy"] == nb.GREEDY_BOT


@pytest.mark.parametrize("name", RULESETS)
def test_encoder_network_and_scores_are_bit_identical(name: str) -> None:
    ruleset = parse_ruleset(name)
    sides = 4 if ruleset.teams == "individual" else 2
    net = _net(sides, 24, 11)
    c = compiled(ruleset)
    for seed in range(3):
        for state in decisions(ruleset, seed=seed, count=15, every=2):
            row = to_row(state)
            a, b = np.zeros(4), np.zeros(4)
            nb.greedy_scores(row, c.params, c.weights, c.hit, a)
            cy.greedy_scores(row, c.params, c.weights, c.hit, b)
            assert a.tobytes() == b.tobytes()
            blocked = nb.blocked_seats(row, c.params)
            assert cy.blocked_seats(row, c.params) == blocked
            for seat in range(4):
                idx = [np.zeros(MAX_ACTIVE, dtype=np.int32) for _ in range(2)]
                val = [np.zeros(MAX_ACTIVE) for _ in range(2)]
                n1 = nb.encode(row, c.params, c.hit, seat, blocked, a, idx[0], val[0])
                n2 = cy.encode(row, c.params, c.hit, seat, blocked, a, idx[1], val[1])
                assert n1 == n2
                assert idx[0][:n1].tolist() == idx[1][:n1].tolist()
                assert val[0][:n1].tobytes() == val[1][:n1].tobytes()
                h = [np.zeros(24) for _ in range(2)]
                out = [np.zeros(sides) for _ in range(2)]
                nb.forward(idx[0], val[0], n1, _weights(net), h[0], out[0])
                cy.forward(idx[0], val[0], n1, _weights(net), h[1], out[1])
                assert h[0].tobytes() == h[1].tobytes()
                assert out[0].tobytes() == out[1].tobytes()
                r = [np.zeros(sides) for _ in range(2)]
                nb.to_absolute(c.params, seat, out[0], r[0])
                cy.to_absolute(c.params, seat, out[0], r[1])
                assert r[0].tobytes() == r[1].tobytes()


def _search_tables(ruleset_name: str) -> tuple:
    ruleset = parse_ruleset(ruleset_name)
    value = value_for(ruleset)
    net = value.net
    outcomes = engine.chance_outcomes(engine.new_game(ruleset))
    return (
        value.params,
        value.hit,
        compiled(ruleset).weights,
        (net.w1, net.b1, net.w2, net.b2, net.w3),
        np.array([k for k, _ in outcomes], dtype=np.int32),
        np.array([float(p) for _, p in outcomes], dtype=np.float64),
    )


@pytest.mark.parametrize(
    "name", ["classic", "wikipedia-full", "ludii", "classic+teams=individual", "herklots-6"]
)
def test_search_values_and_counts_are_bit_identical(name: str) -> None:
    params, hit, greedy, net, ks, ps = _search_tables(name)
    for seed in range(2):
        for state in decisions(parse_ruleset(name), seed=seed, count=6, every=5):
            row = to_row(state)
            for depth, limit in ((1, 10**9), (2, 10**9), (3, 10**9), (4, 3000), (3, 57)):
                results = []
                for kernel in (nb_search, cy):
                    count = np.zeros(2, dtype=np.int64)
                    values = np.zeros(cy.MAX_ACTIONS)
                    n = kernel.search_root(
                        row, params, hit, greedy, net, ks, ps, depth, limit, count, values
                    )
                    results.append((n, count.tolist(), values[:n].tobytes()))
                assert results[0] == results[1], (name, depth, limit)


@pytest.mark.parametrize("name", ["classic", "wikipedia-full", "classic+teams=individual"])
def test_self_play_training_and_matches_are_bit_identical(name: str) -> None:
    ruleset = parse_ruleset(name)
    sides = 4 if ruleset.teams == "individual" else 2
    c = compiled(ruleset)
    start = to_row(engine.new_game(ruleset))
    for bots in ([2, 2, 2, 2], [2, 1, 2, 1], [1, 2, 1, 2], [1, 1, 1, 1]):
        b = np.array(bots, dtype=np.int32)
        nets = [_net(sides, 8, 5) for _ in range(2)]
        stats = [np.zeros(3 + sides, dtype=np.int64) for _ in range(2)]
        for kernel, net, st in zip((nb, cy), nets, stats, strict=True):
            kernel.train_games(
                start, c.params, c.p_mouth_up, c.hit, c.weights, b, _weights(net),
                7, 3, 3, 0.7, 0.001, 0.1, 30_000, st,
            )  # fmt: skip
        assert stats[0].tolist() == stats[1].tolist()
        for x, y in zip(_weights(nets[0]), _weights(nets[1]), strict=True):
            assert x.tobytes() == y.tobytes()
        winners = [np.zeros(6, dtype=np.int32) for _ in range(2)]
        for kernel, w in zip((nb, cy), winners, strict=True):
            kernel.match_games(
                start, c.params, c.p_mouth_up, c.hit, c.weights, np.array([2, 1, 0, 2],
                dtype=np.int32), _weights(nets[0]), 9, 1, 6, 30_000, w,
            )  # fmt: skip
        assert winners[0].tolist() == winners[1].tolist()
