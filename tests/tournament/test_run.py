"""Playing a tournament's games: common throws across seatings, fresh players, the same
results on any number of worker processes, and greedy beating random."""

from __future__ import annotations

import os
import random

import pytest

from pachisi.rules.ruleset import get_ruleset, parse_ruleset
from pachisi.tournament import run as run_module
from pachisi.tournament.report import summarise
from pachisi.tournament.run import play, run_games
from pachisi.tournament.schedule import make_schedule

CLASSIC = get_ruleset("classic")


class _Recording(random.Random):
    """A generator that remembers every batch of bits drawn from it (cowrie throws)."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.drawn: list[int] = []

    def getrandbits(self, k: int, /) -> int:
        bits = super().getrandbits(k)
        self.drawn.append(bits)
        return bits


def test_every_seating_of_a_deal_gets_the_same_throws(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[_Recording] = []

    def recording(seed: int, deal: int) -> random.Random:
        rng = _Recording(f"pachisi:tournament:{seed}:{deal}:throws")
        made.append(rng)
        return rng

    monkeypatch.setattr(run_module, "throw_rng", recording)
    plan = make_schedule(["random", "random"], CLASSIC, games=2, seed=4)
    first, second = (play(spec) for spec in plan.specs)
    assert first.spec.seats != second.spec.seats
    a, b = made
    shared = min(len(a.drawn), len(b.drawn))
    assert shared > 100
    assert a.drawn[:shared] == b.drawn[:shared]
    # The two seatings are different games, though: the choices differ.
    assert (first.throws, first.actions) != (second.throws, second.actions)


def test_a_game_depends_on_its_spec_alone() -> None:
    plan = make_schedule(["greedy", "random"], CLASSIC, games=4, seed=2)
    forward = [play(spec) for spec in plan.specs]
    backward = [play(spec) for spec in reversed(plan.specs)][::-1]
    assert forward == backward
    assert run_games(plan.specs) == forward


def test_greedy_beats_random_on_classic() -> None:
    plan = make_schedule(["greedy", "random"], CLASSIC, games=6, seed=11)
    results = run_games(plan.specs)
    assert all(r.finished and not r.drawn for r in results)
    assert sum(r.winners == ("greedy",) for r in results) >= 5
    for r in results:
        (winner,) = r.winners
        assert {r.spec.seats[s] for s in r.winning_seats} == {winner}


def test_progress_is_reported_after_every_game() -> None:
    plan = make_schedule(["random", "greedy"], CLASSIC, games=2, seed=0)
    calls: list[tuple[int, int]] = []
    run_games(plan.specs, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 2), (2, 2)]


def test_workers_give_the_same_results() -> None:
    plan = make_schedule(
        ["greedy", "random", "random"], get_ruleset("wikipedia-full"), games=2, seed=8
    )
    calls: list[int] = []
    alone = run_games(plan.specs)
    spread = run_games(plan.specs, workers=2, progress=lambda done, total: calls.append(done))
    assert spread == alone
    assert calls == list(range(1, len(plan.specs) + 1))


def test_individual_games_seat_four_players() -> None:
    ruleset = parse_ruleset("classic+teams=individual")
    plan = make_schedule(["greedy", "random", "random", "random"], ruleset, games=4, seed=3)
    results = run_games(plan.specs)
    for r in results:
        assert len(r.winning_seats) == 1 and len(r.winners) == 1
    assert sum(r.winners == ("greedy",) for r in results) >= 3


SLOW = os.environ.get("PACHISI_SLOW") == "1"


@pytest.mark.skipif(not SLOW, reason="a 300-game round robin (20 to 30 s): set PACHISI_SLOW=1")
def test_a_larger_round_robin_ranks_greedy_first() -> None:
    plan = make_schedule(
        ["random", "greedy", "random"], get_ruleset("wikipedia-full"), games=100, seed=1
    )
    report = summarise(plan, run_games(plan.specs, workers=2), seconds=0.0)
    by_name = {r.name: r for r in report.ratings}
    assert by_name["greedy"].interval[0] > max(by_name["random"].elo, by_name["random#2"].elo)
    # A player against itself: an even match, give or take chance (3.5 standard errors).
    mirror = next(q for q in report.standings.pairs if q.a == "random" and q.b == "random#2")
    assert abs(mirror.a_share - 0.5) < 1.75 / mirror.decided**0.5
