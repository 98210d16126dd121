"""Counting results: players' records, head-to-head pairs, and their Wilson intervals."""

from __future__ import annotations

import pytest

from pachisi.rules.ruleset import get_ruleset, parse_ruleset
from pachisi.simulate import wilson_interval
from pachisi.tournament.run import GameResult
from pachisi.tournament.schedule import GameSpec, make_schedule
from pachisi.tournament.stats import PairRecord, tally


def _result(spec: GameSpec, winning_seats: tuple[int, ...], drawn: bool = False) -> GameResult:
    return GameResult(spec, winning_seats, drawn, throws=10, actions=9, captures=0, turns=5)


def test_pairs_results_are_counted_for_players_and_pairs() -> None:
    plan = make_schedule(["a", "b", "c"], get_ruleset("classic"), games=2, seed=0)
    ab0, ab1, ac0, ac1, bc0, bc1 = plan.specs
    results = [
        _result(ab0, (0, 2)),  # a (seats 0+2) wins
        _result(ab1, (1, 3)),  # a (now seats 1+3) wins again
        _result(ac0, (), drawn=True),
        _result(ac1, (0, 2)),  # c wins
        _result(bc0, ()),  # unfinished
        _result(bc1, (1, 3)),  # b wins
    ]
    standings = tally(plan.players, results)
    by_name = {p.name: p for p in standings.players}
    assert [(p.games, p.wins, p.draws, p.unfinished, p.losses) for p in by_name.values()] == [
        (4, 2, 1, 0, 1),
        (4, 1, 0, 1, 2),
        (4, 1, 1, 1, 1),
    ]
    assert by_name["a"].win_rate == 0.5
    assert by_name["a"].interval == wilson_interval(2, 4)
    assert standings.pairs == (
        PairRecord("a", "b", 2, 2, 0, 0),
        PairRecord("a", "c", 2, 0, 1, 1),
        PairRecord("b", "c", 2, 1, 0, 0),
    )
    assert (standings.games, standings.draws, standings.unfinished) == (6, 1, 1)


def test_a_pairs_share_and_score() -> None:
    pair = PairRecord("a", "b", games=10, a_wins=6, b_wins=2, draws=2)
    assert pair.decided == 8
    assert pair.a_share == 0.75
    assert pair.interval == wilson_interval(6, 8)
    assert pair.a_score == pytest.approx(0.7)
    empty = PairRecord("a", "b", games=3, a_wins=0, b_wins=0, draws=0)
    assert empty.a_share == empty.a_score == 0.5
    assert empty.interval == (0.0, 1.0)


def test_in_four_player_games_the_winner_beats_each_of_the_others() -> None:
    plan = make_schedule(["a", "b", "c", "d"], parse_ruleset("classic+teams=individual"), 4, 0)
    first, second, third, fourth = plan.specs  # seats: abcd, dabc, cdab, bcda
    standings = tally(
        plan.players,
        [_result(first, (0,)), _result(second, (1,)), _result(third, (2,)), _result(fourth, ())],
    )
    # a won the first three games (seat 0, then seat 1, then seat 2); the last is unfinished.
    assert [p.wins for p in standings.players] == [3, 0, 0, 0]
    assert all(p.games == 4 for p in standings.players)
    assert len(standings.pairs) == 6
    for pair in standings.pairs:
        assert pair.games == 4
        assert (pair.a_wins, pair.b_wins) == ((3, 0) if pair.a == "a" else (0, 0))


def test_a_draw_counts_for_every_pair_at_the_table() -> None:
    plan = make_schedule(["a", "b", "c", "d"], parse_ruleset("classic+teams=individual"), 4, 0)
    standings = tally(plan.players, [_result(plan.specs[0], (), drawn=True)])
    assert all(p.draws == 1 for p in standings.players)
    assert all(q.draws == 1 and q.decided == 0 for q in standings.pairs)
