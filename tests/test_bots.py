"""Tests for the computer players (pachisi.ai) and the game loop that runs them."""

from __future__ import annotations

import random

import pytest

from pachisi.ai import PLAYER_NAMES, Bot, GreedyBot, RandomBot, UnknownBotError, make_player
from pachisi.ai.games import play_game
from pachisi.rules import engine
from pachisi.rules.actions import DECLINE, Action
from pachisi.rules.board import HOME, progress_of_square, square_of
from pachisi.rules.cowries import game_rngs
from pachisi.rules.ruleset import NAMED, get_ruleset
from pachisi.rules.state import Stage, State
from pachisi.simulate import simulate


class CheckedBot:
    """Wraps a bot and fails the test the moment it returns an action that is not legal."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.calls = 0

    def choose(self, state: State, rng: random.Random) -> Action:
        legal = engine.legal_actions(state)
        action = self.inner.choose(state, rng)
        assert action in legal, f"{self.name} chose {action}, legal: {legal}"
        self.calls += 1
        return action


def act_state(pos: dict[int, int], k: int, ruleset: str = "classic", seat: int = 0) -> State:
    """A classic position with seat ``seat`` to use a throw of ``k`` mouths up."""
    full = [0] * 16
    for g, p in pos.items():
        full[g] = p
    return State(
        get_ruleset(ruleset), tuple(full), Stage.ACT, seat, turn=5, entered=0b1111, throw_k=k
    )


SEARCHING = {"expectimax", "mcts", "hard", "expert"}
"""Players too slow for whole games here: tests/ai checks their choices position by position."""


@pytest.mark.parametrize("name", sorted(NAMED))
@pytest.mark.parametrize("bot", [n for n in PLAYER_NAMES if n not in SEARCHING])
def test_bots_only_choose_legal_actions(name: str, bot: str) -> None:
    checked = [CheckedBot(make_player(bot)) for _ in range(4)]
    dice, choices = game_rngs(11, 0)
    stats = play_game(NAMED[name], dice, checked, bot_rng=choices, max_turns=400)
    assert stats.actions == sum(b.calls for b in checked) > 0


def test_random_bot_declines_sometimes() -> None:
    state = act_state({0: 20, 1: 40}, k=3)
    legal = engine.legal_actions(state)
    assert DECLINE in legal and len(legal) == 3
    rng = random.Random(1)
    picks = {RandomBot().choose(state, rng) for _ in range(200)}
    assert picks == set(legal)


def test_same_generator_same_choices() -> None:
    state = act_state({0: 20, 1: 40, 2: 55}, k=2)
    for bot in (RandomBot(), GreedyBot()):
        a = [bot.choose(state, random.Random(4)) for _ in range(5)]
        b = [bot.choose(state, random.Random(4)) for _ in range(5)]
        assert a == b


def test_greedy_takes_a_capture() -> None:
    # Seat 1's piece a stands three squares ahead of seat 0's piece a (not on a castle).
    target = square_of(0, 23)
    (enemy_p,) = progress_of_square(1, target)
    state = act_state({0: 20, 1: 30, 4: enemy_p}, k=3)
    assert str(GreedyBot().choose(state, random.Random(0))) == "0a+3"
    _, events = engine.apply_action(state, Action.parse("0a+3"))
    assert any(e.kind == "capture" for e in events)


def test_greedy_brings_a_piece_home() -> None:
    state = act_state({0: 78, 1: 30}, k=6)  # 6 mouths up: 6 steps, 78 -> 84
    choice = GreedyBot().choose(state, random.Random(0))
    after, _ = engine.apply_action(state, choice)
    assert after.pos[0] == HOME


def test_greedy_prefers_any_move_to_declining_a_plain_throw() -> None:
    state = act_state({0: 20}, k=2)
    assert GreedyBot().choose(state, random.Random(0)) != DECLINE


def test_bots_refuse_when_no_action_is_due() -> None:
    start = engine.new_game(get_ruleset("classic"))
    for bot in (RandomBot(), GreedyBot()):
        with pytest.raises(ValueError):
            bot.choose(start, random.Random(0))


def test_make_player() -> None:
    assert isinstance(make_player("random"), RandomBot)
    assert isinstance(make_player(" Greedy "), GreedyBot)
    with pytest.raises(UnknownBotError, match="random, greedy, expectimax, mcts, learned, easy"):
        make_player("minimax")


def test_greedy_beats_random() -> None:
    bots = [GreedyBot(), RandomBot(), GreedyBot(), RandomBot()]
    summary = simulate(get_ruleset("classic"), games=40, seed=2024, bots=bots)
    assert summary.unfinished == 0
    assert summary.wins_by_team is not None
    greedy_wins, random_wins = summary.wins_by_team
    assert greedy_wins + random_wins == 40
    # Greedy won every one of 20 and 40 game trial runs; 30 of 40 leaves room for noise
    # while still failing clearly if the heuristic stops working.
    assert greedy_wins >= 30, summary
    assert summary.wins_by_seat == (greedy_wins, random_wins, greedy_wins, random_wins)
