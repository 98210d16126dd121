"""Every game ends (issue 19, item 3): seeded random games for every named ruleset and for
random switch combinations, and the proofs of R-PLAYABLE-RULESET checked against play.

With the step cap, no game may end unfinished unless its ruleset says ``deadlock=continue``:
R-DEADLOCK and R-FROZEN end every game that no side can win or in which nothing can move,
and R-PLAYABLE-RULESET refuses the rulesets that could never start. ``bench/termination.py``
runs the same check on many more rulesets and games.
"""

from __future__ import annotations

import dataclasses
import random
from itertools import islice

import pytest

from pachisi.ai import make_player
from pachisi.rules import _playable, cowries, engine, frozen
from pachisi.rules.actions import ActionKind
from pachisi.rules.choices import (
    EntryMode,
    FirstPieceFree,
    FirstPlayer,
    PyadaCondition,
    ThrowUsage,
    TripleCancel,
)
from pachisi.rules.ruleset import NAMED, Ruleset, RulesetError, parse_ruleset
from pachisi.rules.state import CHANCE, Stage, State, initial_pos
from pachisi.simulate import simulate
from tests.rules.random_rulesets import random_rulesets

RANDOM = list(random_rulesets(19, 200))
BOTS = [make_player("random")] * 4


def _unfinished(r: Ruleset, games: int, engine_name: str) -> int:
    return simulate(r, games, 5, BOTS, engine_name=engine_name, max_turns=10**6).unfinished


@pytest.mark.parametrize("name", list(NAMED))
def test_every_game_of_a_named_ruleset_ends(name: str) -> None:
    r = NAMED[name]
    assert _unfinished(r, 20, "fast") == 0
    assert _unfinished(r, 2, "reference") == 0


def test_every_game_of_200_random_switch_combinations_ends() -> None:
    assert len(RANDOM) >= 200
    stuck = [str(r) for r in RANDOM if r.deadlock == "draw" and _unfinished(r, 10, "fast")]
    assert not stuck, f"games left unfinished under {stuck}"


def test_random_switch_combinations_end_on_the_reference_engine_too() -> None:
    stuck = [
        str(r) for r in RANDOM[::10] if r.deadlock == "draw" and _unfinished(r, 1, "reference")
    ]
    assert not stuck, f"games left unfinished under {stuck}"


def test_the_random_combinations_cover_the_switches() -> None:
    changed = {part.partition("=")[0] for r in RANDOM for part in str(r).split("+")[1:]}
    assert len(changed) >= 30, sorted(changed)


# --------------------------------------------------------------------------- R-PLAYABLE


def _start(r: Ruleset) -> State:
    """Seat 0 about to throw at the start, whoever the throw-off would pick."""
    return engine.new_game(dataclasses.replace(r, first_player=FirstPlayer.SEAT0))


def _entry_rulesets(seed: int, count: int) -> list[Ruleset]:
    """Switch combinations around the ways in, unchecked (dataclasses.replace), so that
    many of them can never let a piece in."""
    rng = random.Random(seed)
    out = []
    off = FirstPieceFree.OFF
    for _ in range(count):
        base = NAMED[rng.choice(["classic", "wikipedia-full", "herklots-6", "tylor-1879"])]
        table = base.score_table
        r = dataclasses.replace(
            base,
            entry_values=frozenset(v for v in table if rng.random() < 0.3)
            if rng.random() < 0.5
            else frozenset(),
            first_piece_free=rng.choice([off, off, FirstPieceFree.TRAVEL, FirstPieceFree.SQUARE1]),
            entry_mode=rng.choice(list(EntryMode)),
            pyada=rng.random() < 0.6,
            pyada_can_enter=rng.random() < 0.5,
            pyada_condition=rng.choice(list(PyadaCondition)),
            pyada_values=frozenset(v for v in table if rng.random() < 0.4) or base.pyada_values,
            throw_usage=rng.choice(list(ThrowUsage)),
            triple_cancel=rng.choice(list(TripleCancel)),
        )
        if not r.pyada:
            r = dataclasses.replace(r, pyada_can_enter=False)
        out.append(r)
    return out


def _someone_enters(r: Ruleset, steps: int, seed: int) -> bool:
    """Whether, throwing at random and declining everything, a seat is ever offered an
    entry (nothing moves, so every turn is a turn at the start)."""
    rng = random.Random(seed)
    state = _start(r)
    for _ in range(steps):
        if state.is_over:
            return False
        if engine.current_player(state) == CHANCE:
            state = engine.apply_chance(state, cowries.throw(rng, r.cowries, r.p_mouth_up))[0]
        else:
            actions = engine.legal_actions(state)
            if any(a.kind in (ActionKind.ENTER, ActionKind.FREE) for a in actions):
                return True
            state = engine.apply_action(state, actions[-1])[0]
    return False


def test_r_playable_ruleset_never_enters_is_exactly_what_play_shows() -> None:
    refused = accepted = 0
    for r in _entry_rulesets(4, 300):
        problems = _playable.unplayable(r)
        never = any("can ever enter" in p for p in problems)
        if never:
            refused += 1
            # Nothing can enter: no seat has a use for any throw at the start.
            start = _start(r)
            assert frozen.is_frozen(start) or r.throw_usage == "collect", str(r)
            assert not _someone_enters(r, 3000, 1), str(r)
        else:
            accepted += 1
            assert _someone_enters(r, 40_000, 1), str(r)
    assert refused >= 30 and accepted >= 30, (refused, accepted)


def test_r_playable_ruleset_never_home_holds_in_play() -> None:
    r = parse_ruleset("classic+deadlock=continue")
    odd = dataclasses.replace(
        r,
        score_table=(2, 2, 2, 4, 4, 6, 10),
        reroll_values=frozenset({6, 10}),
        entry_values=frozenset({6, 10}),
        last_square_exit=frozenset(),
        first_piece_free="square1",
    )
    assert any("reach home" in p for p in _playable.unplayable(odd))
    with pytest.raises(RulesetError, match="no piece can ever reach home"):
        parse_ruleset(
            "classic+score_table=2,2,2,4,4,6,10+reroll_values=6,10+entry_values=6,10"
            "+last_square_exit=none+first_piece_free=square1"
        )
    rng = random.Random(2)
    state = _start(odd)
    for _ in range(20_000):
        assert HOME_FREE(state)
        if engine.current_player(state) == CHANCE:
            state = engine.apply_chance(state, cowries.throw(rng, 6, r.p_mouth_up))[0]
        else:
            state = engine.apply_action(state, rng.choice(engine.legal_actions(state)))[0]


def HOME_FREE(state: State) -> bool:
    """No piece is home."""
    return all(p < 84 for p in state.pos)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("herklots-6+pyada_condition=all_entered", "pyada_condition=all_entered earns"),
        ("classic+entry_values=none+first_piece_free=off", "entry_values=none"),
        ("wikipedia-full+entry_values=7,14+first_piece_free=off", "V-7-14-NEEDS-PIECE"),
        (
            "classic+throw_usage=collect+reroll_values=2,3,4,5,6,10,25+triple_cancel=group"
            "+big_values=2,3,4,5,6,10,25",
            "every series of throws is cancelled",
        ),
        ("classic+stacking=none+blockade=true", "stacking=none never allows"),
        ("classic+pyada=true+pyada_values=none", "no throw in score_table can earn a pyada"),
    ],
)
def test_r_playable_ruleset_refusals_name_the_switches(text: str, words: str) -> None:
    with pytest.raises(RulesetError, match=words):
        parse_ruleset(text)


def test_the_start_of_every_accepted_ruleset_is_not_frozen() -> None:
    for r in islice(RANDOM, 200):
        state = _start(r)
        assert state.stage is Stage.THROW and state.pos == initial_pos()
        assert not frozen.is_frozen(state), str(r)
