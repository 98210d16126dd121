"""The VIEW: its encoded text is exactly the view, for every viewer, along whole games."""

from __future__ import annotations

import json
import random

import pytest

from pachisi.game import Game
from pachisi.notation.record import move_text
from pachisi.rules.board import HOME
from pachisi.web.views import EncodedViews, SeatView, game_view

SEATS = [SeatView("human"), SeatView("computer", "greedy"), SeatView("open"), SeatView("human")]
VIEWERS = [frozenset(), frozenset({0}), frozenset({1, 3}), frozenset({0, 1, 2, 3})]


@pytest.mark.parametrize(
    "ruleset", ["classic", "wikipedia-full", "herklots-6", "classic+players=2"]
)
def test_the_encoded_view_is_the_view(ruleset: str) -> None:
    game = Game(ruleset)
    rng = random.Random(ruleset)
    step = 0
    while not game.is_over() and step < 3000:
        if step % 37 == 0 or game.is_over():
            moves = [move_text(m) for m in game.moves]
            views = EncodedViews("g", len(moves), "active", game.state, json.dumps(moves), SEATS)
            for held in VIEWERS:
                expected = game_view("g", len(moves), "active", game.state, moves, SEATS, held)
                assert json.loads(views.text(held)) == expected
        if game.legal_actions():
            game.push(rng.choice(game.legal_actions()))
        else:
            game.throw(rng)
        step += 1


def test_legal_actions_only_for_the_seat_to_act() -> None:
    game = Game("classic")
    rng = random.Random(5)
    while not game.legal_actions():
        game.throw(rng)
    seat = game.state.seat
    mine = game_view("g", 0, "active", game.state, [], SEATS, frozenset({seat}))
    theirs = game_view("g", 0, "active", game.state, [], SEATS, frozenset({(seat + 1) % 4}))
    assert mine["turn"]["you_act"] and not theirs["turn"]["you_act"]
    assert [entry["action"] for entry in mine["legal"]] == [str(a) for a in game.legal_actions()]
    assert theirs["legal"] == []
    assert all(p["where"] in ("waiting", "board", "homeward", "home") for p in mine["pieces"])
    assert all((p["progress"] == HOME) == (p["where"] == "home") for p in mine["pieces"])
