"""The VIEW: its encoded text is exactly the view, for every viewer, along whole games."""

from __future__ import annotations

import json
import random

import pytest

from pachisi.game import Game
from pachisi.notation import write_position
from pachisi.notation.record import move_text
from pachisi.rules import engine
from pachisi.rules.board import HOME
from pachisi.web.views import EncodedViews, SeatView, event_json, game_view, legal_json

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


def _legal_states(ruleset: str, seed: int, steps: int) -> list[Game]:
    """Copies of one seeded game at each step where an action is due."""
    game = Game(ruleset)
    rng = random.Random(seed)
    found = []
    for _ in range(steps):
        if game.is_over():
            break
        if game.legal_actions():
            found.append(game.copy())
            game.push(rng.choice(game.legal_actions()))
        else:
            game.throw(rng)
    return found


def test_each_action_leads_to_the_first_action_of_its_position() -> None:
    for game in _legal_states("classic", 21, 1500):
        legal = legal_json(game.state)
        state = game.state
        after = [write_position(engine.apply_action(state, a)[0]) for a in game.legal_actions()]
        assert [entry["leads_to"] for entry in legal] == [after.index(text) for text in after]


def test_actions_with_one_result_position_share_their_leads_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The rules core lists one action per outcome, so a state's actions rarely share a
    # position: list each one twice, as a ruleset with two names for one move would.
    game = _legal_states("classic", 4, 400)[-1]
    actions = engine.legal_actions(game.state)
    assert len(actions) >= 2
    monkeypatch.setattr(engine, "legal_actions", lambda state: actions + actions)
    legal = legal_json(game.state)
    count = len(actions)
    assert [entry["leads_to"] for entry in legal] == [*range(count), *range(count)]


def test_a_throw_event_says_whether_it_is_a_grace() -> None:
    game = Game("classic")
    rng = random.Random(8)
    graces = {True: 0, False: 0}
    while not game.is_over() and sum(graces.values()) < 400:
        before = game.state
        legal = game.legal_actions()
        events = game.push(rng.choice(legal)) if legal else game.throw(rng)
        for event in events:
            said = event_json(event, before)
            if event.kind == "throw":
                assert said["grace"] == (event.value in before.ruleset.reroll_values)
                graces[said["grace"]] += 1
            else:
                assert said["grace"] is False
    assert graces[True] and graces[False]
