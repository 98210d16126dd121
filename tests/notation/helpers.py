"""What the notation tests share: seeded random games, round-trip checks and problem lists."""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import HealthCheck, Phase, settings

from pachisi.game import Game
from pachisi.notation import RecordError, read_position, read_record, write_position
from pachisi.rules import engine
from pachisi.rules.actions import Action
from pachisi.rules.ruleset import parse_ruleset
from pachisi.rules.state import CHANCE, State

MAX_STEPS = 3000
"""A cap on random games: some rulesets can reach positions no side can ever finish from
(e.g. wikipedia-full, every piece left waiting on its last square with no kill credit)."""

VARIANTS = (
    # Stage p and per-seat winners are only reachable outside the named rulesets.
    "classic+pyada=true+pyada_can_enter=true+teams=individual",
    # Second laps and capture records in immediate mode.
    "classic+extra_lap=true+blockade=true+kill_before_home=team+recapture_annul=true",
    # Stack order together with split throws, triple runs and partner throws.
    "classic+capture_scope=top_one+finished_seat=throw_for_partner+split_throw=split"
    "+triple_cancel=group",
)
STATE_FIELDS = tuple(name for name in State._fields if name != "memo")
FRESH = "0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0"
SEATS = {"Seat0": "random", "Seat1": "greedy", "Seat2": "random", "Seat3": "human"}

# A failing seed is reported as it is: a smaller seed is not a simpler game, so shrinking
# would only replay whole games for minutes.
GAMES = settings(
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow],
)


def play(ruleset: str, seed: int) -> tuple[list[State], list[Action | int]]:
    """A seeded random game: every state it passes through and every move made."""
    r = parse_ruleset(ruleset)
    rng = random.Random(seed)
    s = engine.new_game(r)
    states, moves = [s], []
    while not s.is_over and len(moves) < MAX_STEPS:
        move: Action | int
        if engine.current_player(s) == CHANCE:
            move = rng.getrandbits(r.cowries).bit_count()
            s, _ = engine.apply_chance(s, move)
        else:
            move = rng.choice(engine.legal_actions(s))
            s, _ = engine.apply_action(s, move)
        states.append(s)
        moves.append(move)
    return states, moves


def game_of(ruleset: str, moves: list[Action | int], start: State | None = None) -> Game:
    game = Game(parse_ruleset(ruleset), state=start)
    for move in moves:
        game.push(move)
    return game


def assert_position_round_trips(state: State) -> None:
    text = write_position(state)
    back = read_position(text)
    # Field by field, so a failure names the field (and bools stay bools, ints ints).
    for name in STATE_FIELDS:
        got, want = getattr(back, name), getattr(state, name)
        assert (type(got), got) == (type(want), want), f"{name} in {text}"
    assert back == state
    assert write_position(back) == text


def short_id(value: object) -> str:
    """A test id that stays readable when the parameter is a megabyte of text."""
    text = str(value)
    return text if len(text) <= 30 else f"{text[:20]}...{len(text)}"


def problems_of(text: str) -> list[tuple[int, int]]:
    with pytest.raises(RecordError) as info:
        read_record(text)
    return [(p.line, p.column) for p in info.value.errors]


def problems_and_messages(text: str) -> list[tuple[int, int, str]]:
    with pytest.raises(RecordError) as info:
        read_record(text)
    return [(p.line, p.column, p.message) for p in info.value.errors]


LONG_RULESET = "classic+kill_before_home=seat+deadlock=continue"
"""Once every side is blocked, a game under this ruleset goes on for ever."""


@functools.cache
def long_record(moves: int) -> str:
    """The text of a legal record of ``moves`` moves or more, quickly: a random game under
    :data:`LONG_RULESET` until its position (turn number aside) comes back at least 400
    moves later, then that stretch of moves over and over."""
    for seed in range(1, 100):
        found = _cycle(seed)
        if found is not None:
            break
    else:
        raise AssertionError("no seed gave a repeating game")
    played, first = found
    cycle = played[first:]
    texts = [str(m) if isinstance(m, Action) else f"t{m}" for m in played]
    loop = [str(m) if isinstance(m, Action) else f"t{m}" for m in cycle]
    while len(texts) < moves:
        texts += loop
    lines = [" ".join(texts[i : i + 16]) for i in range(0, len(texts), 16)]
    return f'[Ruleset "{LONG_RULESET}"]\n\n' + "\n".join(lines) + " *\n"


def _cycle(seed: int) -> tuple[list[Action | int], int] | None:
    """The moves of a game up to a repeated position, and where the repeat begins."""
    r = parse_ruleset(LONG_RULESET)
    rng = random.Random(seed)
    s = engine.new_game(r)
    seen: dict[State, int] = {}
    moves: list[Action | int] = []
    while not s.is_over and len(moves) < 100_000:
        move: Action | int
        if engine.current_player(s) == CHANCE:
            key = s._replace(turn=0, memo=None)
            if key in seen and len(moves) - seen[key] >= 400:
                return moves, seen[key]
            seen.setdefault(key, len(moves))
            move = rng.getrandbits(r.cowries).bit_count()
        else:
            move = rng.choice(engine.legal_actions(s))
        s, _ = engine.apply(s, move)
        moves.append(move)
    return None
