"""Planning a tournament: pairings, seat rotations, rounding to whole deals, seeds."""

from __future__ import annotations

import pickle

import pytest

from pachisi.rules.ruleset import Ruleset, get_ruleset, parse_ruleset
from pachisi.tournament.schedule import (
    TournamentError,
    choice_rng,
    entrants,
    make_schedule,
    player_name,
    throw_rng,
)

CLASSIC = get_ruleset("classic")
INDIVIDUAL = parse_ruleset("classic+teams=individual")


def test_two_players_meet_in_both_seatings_of_every_deal() -> None:
    plan = make_schedule(["greedy", "random"], CLASSIC, games=4, seed=9)
    assert plan.mode == "pairs" and plan.rotations == 2
    assert plan.pairings == (("greedy", "random"),)
    assert [(s.number, s.deal, s.rotation) for s in plan.specs] == [
        (0, 0, 0),
        (1, 0, 1),
        (2, 1, 0),
        (3, 1, 1),
    ]
    a_first = ("greedy", "random", "greedy", "random")
    b_first = ("random", "greedy", "random", "greedy")
    assert [s.seats for s in plan.specs] == [a_first, b_first, a_first, b_first]
    assert all(s.seed == 9 and s.ruleset == "classic" for s in plan.specs)


@pytest.mark.parametrize(("asked", "played"), [(1, 2), (2, 2), (3, 4), (7, 8)])
def test_games_are_rounded_up_to_whole_deals(asked: int, played: int) -> None:
    plan = make_schedule(["greedy", "random"], CLASSIC, games=asked, seed=0)
    assert plan.games_requested == asked
    assert plan.games_per_pairing == len(plan.specs) == played
    assert plan.rounded_up == (asked != played)


def test_three_or_four_players_play_a_round_robin_of_pairs() -> None:
    plan = make_schedule(["a", "b", "c", "d"], CLASSIC, games=2, seed=0)
    assert plan.pairings == (
        ("a", "b"),
        ("a", "c"),
        ("a", "d"),
        ("b", "c"),
        ("b", "d"),
        ("c", "d"),
    )
    assert len(plan.specs) == 12
    # Every pairing has deals of its own, so the deal numbers never repeat across pairings.
    deals = {(s.deal, frozenset(s.seats)) for s in plan.specs}
    assert len({deal for deal, _ in deals}) == len(deals) == 6
    three = make_schedule(["a", "b", "c"], CLASSIC, games=2, seed=0)
    assert [set(p) for p in three.pairings] == [{"a", "b"}, {"a", "c"}, {"b", "c"}]


def test_individual_games_rotate_all_four_players_round_the_seats() -> None:
    plan = make_schedule(["a", "b", "c", "d"], INDIVIDUAL, games=5, seed=0)
    assert plan.mode == "individual" and plan.rotations == 4
    assert plan.games_per_pairing == len(plan.specs) == 8
    assert [s.seats for s in plan.specs[:4]] == [
        ("a", "b", "c", "d"),
        ("d", "a", "b", "c"),
        ("c", "d", "a", "b"),
        ("b", "c", "d", "a"),
    ]
    assert {s.deal for s in plan.specs[:4]} == {0}
    # Over one deal every player sits once at every seat.
    for seat in range(4):
        assert {s.seats[seat] for s in plan.specs[:4]} == {"a", "b", "c", "d"}


def test_a_player_entered_twice_becomes_two_entrants() -> None:
    assert entrants(["random", "random", "greedy", "random"]) == (
        "random",
        "random#2",
        "greedy",
        "random#3",
    )
    assert entrants(["x", "x#2", "x"]) == ("x", "x#2", "x#3")
    assert player_name("random#3") == "random" and player_name("greedy") == "greedy"
    plan = make_schedule(["random", "random"], CLASSIC, games=2, seed=0)
    assert plan.players == ("random", "random#2")


@pytest.mark.parametrize(
    ("players", "ruleset", "games", "words"),
    [
        (["greedy"], CLASSIC, 2, "2 to 4 players, not 1"),
        (["a", "b", "c", "d", "e"], CLASSIC, 2, "not 5"),
        (["a", "b"], CLASSIC, 0, "at least 1 game"),
        (["a", "b", "c"], INDIVIDUAL, 4, "needs 4 players, not 3"),
    ],
)
def test_impossible_tournaments_are_refused(
    players: list[str], ruleset: Ruleset, games: int, words: str
) -> None:
    with pytest.raises(TournamentError, match=words):
        make_schedule(players, ruleset, games=games, seed=0)


def test_the_whole_tournament_can_be_capped() -> None:
    plan = make_schedule(["a", "b", "c"], CLASSIC, games=3, seed=0, max_games=12)
    assert len(plan.specs) == 12
    with pytest.raises(TournamentError, match="4 games for each of 3 pairings make 12"):
        make_schedule(["a", "b", "c"], CLASSIC, games=3, seed=0, max_games=11)


def test_a_spec_is_small_and_pickles() -> None:
    plan = make_schedule(["greedy", "random"], get_ruleset("wikipedia-full"), games=2, seed=1)
    for spec in plan.specs:
        data = pickle.dumps(spec)
        assert len(data) < 600
        assert pickle.loads(data) == spec


def test_seeds_depend_on_seed_deal_rotation_and_side_only() -> None:
    assert throw_rng(5, 3).random() == throw_rng(5, 3).random()
    assert throw_rng(5, 3).random() != throw_rng(5, 4).random()
    assert throw_rng(5, 3).random() != throw_rng(6, 3).random()
    draws = {choice_rng(5, 3, r, side).random() for r in range(2) for side in range(2)}
    assert len(draws) == 4
    assert choice_rng(5, 3, 1, 0).random() == choice_rng(5, 3, 1, 0).random()
    # The throws and the choices never share a stream.
    assert throw_rng(5, 3).random() not in draws
