"""Tests for hints (pachisi.ai.hints) and ``pachisi hint``."""

from __future__ import annotations

import json

import pytest

from pachisi.ai.bots import UnknownBotError
from pachisi.ai.budget import Budget
from pachisi.ai.hints import hint
from pachisi.cli import main
from pachisi.notation import read_position
from pachisi.rules import engine
from pachisi.rules.ruleset import get_ruleset
from tests.ai.positions import ACTING


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expectimax", "greedy"])
def test_a_hint_ranks_every_legal_action_best_first(level: str) -> None:
    state = read_position(ACTING)
    ranked = hint(state, level, budget=Budget(playouts=300))
    assert sorted(str(r.action) for r in ranked) == sorted(
        str(a) for a in engine.legal_actions(state)
    )
    wins = [r.win for r in ranked]
    assert all(0.0 <= w <= 1.0 for w in wins)
    if level not in ("mcts", "expert"):  # MCTS ranks by visits
        assert wins == sorted(wins, reverse=True)


def test_the_same_seed_gives_the_same_hint() -> None:
    state = read_position(ACTING)
    first = hint(state, "expert", seed=3, budget=Budget(playouts=40))
    assert hint(state, "expert", seed=3, budget=Budget(playouts=40)) == first


def test_no_hint_without_a_seat_to_act() -> None:
    with pytest.raises(ValueError, match="no action to rank"):
        hint(engine.new_game(get_ruleset("classic")))


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(UnknownBotError, match="unknown player"):
        hint(read_position(ACTING), "grandmaster")


def test_the_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", ACTING, "--level", "medium", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seat"] == 3 and data["level"] == "medium"
    assert data["actions"][0]["action"] == str(hint(read_position(ACTING), "medium")[0].action)
    assert {a["action"] for a in data["actions"]} == {"3b+4", "3c+4", "3d+4", "-"}


def test_the_command_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", ACTING, "--level", "easy"]) == 0
    out = capsys.readouterr().out
    assert "hint by easy" in out and "%" in out and "3d+4" in out


DRAWING = (
    "80,84,84,84/75,84,84,84/0,84,84,84/84,84,84,84 a1 30 k=2 entered=0,1,2,3 "
    "classic+kill_before_home=seat"
)
"""Seat 1 uses a 2: ``1a+2`` takes its last piece past p75 and then no side can win any
more, so the game is drawn (R-DEADLOCK); ``-`` declines."""


def test_the_table_calls_its_number_an_expected_score_where_a_draw_counts_half(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["hint", DRAWING, "--level", "medium"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == (
        "hint by medium: expected score of seat 1's side after each action "
        "(a win counts 1, a draw 1/2)"
    )
    drawing = next(line for line in lines if "1a+2" in line)
    assert "  50.0%  " in drawing and "the game is drawn" in drawing
    assert not any("chance" in line or "wins" in line for line in lines)


def test_under_teams_individual_a_draw_counts_a_quarter(
    capsys: pytest.CaptureFixture[str],
) -> None:
    position = ACTING.replace(" classic", " classic+teams=individual")
    assert main(["hint", position, "--level", "medium"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == (
        "hint by medium: expected score of seat 3 after each action (a win counts 1, a draw 1/4)"
    )


def test_the_help_says_what_the_number_and_the_json_field_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["hint", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert """--json print JSON (an action's "win" is its expected score, 0..1;""" in help_text
    assert main(["--help"]) == 0
    listing = " ".join(capsys.readouterr().out.split())
    assert "by the mover's expected score after each (a win counts 1, a draw 1/2" in listing
    assert "chance to win" not in listing


def test_several_positions_are_each_hinted_in_turn(capsys: pytest.CaptureFixture[str]) -> None:
    positions = (ACTING, DRAWING, ACTING.replace(" classic", " classic+teams=individual"))
    for count in (2, 3):
        assert main(["hint", *positions[:count], "--level", "medium"]) == 0
        out = capsys.readouterr().out
        alone = []
        for position in positions[:count]:
            assert main(["hint", position, "--level", "medium"]) == 0
            alone.append(capsys.readouterr().out)
        assert out == "\n".join(
            f"Position {i} of {count}: {position}\n{text}"
            for i, (position, text) in enumerate(zip(positions, alone, strict=False), start=1)
        )
        assert main(["hint", *positions[:count], "--level", "medium", "--json"]) == 0
        found = json.loads(capsys.readouterr().out)
        assert isinstance(found, list) and len(found) == count
        for position, entry in zip(positions, found, strict=False):
            assert main(["hint", position, "--level", "medium", "--json"]) == 0
            assert entry == json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("positions", "words"),
    [
        ((ACTING, "not a position"), "position 2 of 2: "),
        ((ACTING, DRAWING, "0,0/0 t0 1 ludii"), "position 3 of 3: pieces"),
        (
            (ACTING, "0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t0 1 ludii", DRAWING),
            "position 2 of 3: no seat is to act",
        ),
    ],
)
def test_a_bad_position_among_several_is_named_and_nothing_is_printed(
    capsys: pytest.CaptureFixture[str], positions: tuple[str, ...], words: str
) -> None:
    for json_flag in ((), ("--json",)):
        assert main(["hint", *positions, "--level", "medium", *json_flag]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err.startswith(f"pachisi: error: {words}") and err.count("\n") == 1
