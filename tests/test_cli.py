"""Tests for the ``pachisi`` command (pachisi.cli), run in-process through ``main``."""

from __future__ import annotations

import datetime
import io
import json
import os
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from pachisi import play as play_module
from pachisi.cli import main
from pachisi.game import Game
from pachisi.notation import read_position, record_from_game, write_position, write_record
from pachisi.rules import engine, refusals
from pachisi.rules.board import progress_of_square, square_of
from pachisi.rules.ruleset import (
    ALIASES,
    NAMED,
    SWITCH_BY_KEY,
    SWITCHES,
    RulesetError,
    get_ruleset,
    parse_ruleset,
)
from pachisi.rules.state import Stage, State

TIMING = ("seconds", "games_per_second")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_user_error(code: int, out: str, err: str, *words: str) -> None:
    """Exit 2, nothing on stdout, one line on stderr that names the problem."""
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0]


def capture_position() -> State:
    """Classic, seat 0 to use a 3; 0.a at p20 can capture seat 1's piece on its p23."""
    (enemy_p,) = progress_of_square(1, square_of(0, 23))
    pos = [0] * 16
    pos[0], pos[1], pos[4] = 20, 40, enemy_p
    return State(
        get_ruleset("classic"), tuple(pos), Stage.ACT, 0, turn=9, entered=0b1111, throw_k=3
    )


# --------------------------------------------------------------------------- rules


def test_rules_lists_every_named_ruleset_and_alias(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0
    for name in NAMED:
        assert name in out
    for alias in ALIASES:
        assert alias in out


def test_rules_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--json")
    assert code == 0
    data = json.loads(out)
    assert [entry["name"] for entry in data["rulesets"]] == list(NAMED)
    tylor = next(e for e in data["rulesets"] if e["name"] == "tylor-1879")
    assert "tylor" in tylor["aliases"] and tylor["description"]


def test_rules_one_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "classic+capture_bonus=false")
    assert code == 0
    assert "classic+capture_bonus=false" in out
    row = next(line for line in out.splitlines() if "V-CAPTURE-BONUS" in line)
    assert row.startswith("*")
    assert row.split()[1:5] == ["capture_bonus", "false", "true", "V-CAPTURE-BONUS"]
    assert len([line for line in out.splitlines() if "R-" in line or "V-" in line]) == len(SWITCHES)


def test_rules_one_ruleset_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "wiki", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["ruleset"] == "wikipedia-full"
    assert [row["key"] for row in data["switches"]] == [s.key for s in SWITCHES]
    cowries = next(row for row in data["switches"] if row["key"] == "cowries")
    assert (cowries["value"], cowries["default"], cowries["rule"]) == ("7", "6", "R-THROW-TABLE")


@pytest.mark.parametrize("text", ["nonsense", "classic+capture_bonus=maybe", "classic+nokey=1"])
def test_rules_bad_ruleset(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert_user_error(*run(capsys, "rules", text))


WRITE_BACK = [
    *NAMED,
    "classic+pyada=true",
    "classic+cowries=7",
    "wikipedia-full+six_up_value=35",
    "herklots-6+entry_values=10,25+pyada=false+pyada_can_enter=false",
    # pyada_values only follows big_values here (V-PYADA): it cannot be written out.
    "wikipedia-full+triple_cancel=same+big_values=7,10,25+triple_scope=turn",
    "tylor-1879+blockade=true+castle_mode=coexist",
    "ludii+players=2",
]
"""Every named ruleset and a few variant strings, for ``pachisi rules``'s write-back test."""


def written_back(text: str, key: str, value: str) -> str:
    """The ruleset string ``text`` with ``key=value``: in place of its own change of ``key``,
    else added."""
    head, *parts = text.split("+")
    parts = [part for part in parts if part.partition("=")[0] != key]
    return "+".join([head, *parts, f"{key}={value}"])


def rules_table(out: str) -> tuple[dict[str, tuple[str, str | None]], dict[str, tuple[str, str]]]:
    """What ``pachisi rules NAME`` printed: each switch's value and its mark (``[n]``, or
    None), and each note under the table by its mark: (switch, why)."""
    shown: dict[str, tuple[str, str | None]] = {}
    notes: dict[str, tuple[str, str]] = {}
    for line in out.splitlines():
        words = line[2:].split()
        if words and words[0] in SWITCH_BY_KEY:
            shown[words[0]] = (words[1], words[2] if words[2].startswith("[") else None)
        elif line.startswith("  [") and "] " in line:
            mark, note = line[2:].split(" ", 1)
            key, _, why = note.partition(": ")
            notes[mark] = (key, why)
    return shown, notes


@pytest.mark.parametrize("text", WRITE_BACK)
def test_rules_prints_values_that_write_back_and_marks_the_others(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    # Issue 47: written back as NAME+key=value, every value that `pachisi rules NAME`
    # prints unmarked gives the same ruleset; a value marked [n] is refused, and the note
    # [n] under the table gives the reason the refusal gives.
    ruleset = parse_ruleset(text)
    code, out, _ = run(capsys, "rules", text)
    assert code == 0
    shown, notes = rules_table(out)
    assert list(shown) == [s.key for s in SWITCHES]
    canonical = str(ruleset)
    for key, (value, mark) in shown.items():
        again = written_back(canonical, key, value)
        if mark is None:
            assert parse_ruleset(again) == ruleset, again
            continue
        assert notes[mark][0] == key
        with pytest.raises(RulesetError) as refused:
            parse_ruleset(again)
        assert str(refused.value).removeprefix("invalid ruleset: ") in notes[mark][1]
    assert sorted(notes) == sorted(mark for _, mark in shown.values() if mark is not None)
    assert not notes or f"{canonical}+key=value refuses" in out
    code, out, _ = run(capsys, "rules", "--json", text)
    rows = json.loads(out)["switches"]
    assert [row["writable"] for row in rows] == [shown[row["key"]][1] is None for row in rows]
    assert all(bool(row["note"]) is not row["writable"] for row in rows)


def test_rules_classic_marks_the_switches_that_other_switches_turn_off(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # RULES.md E.1's "—" cells of classic show the value they would have, marked; the
    # others, pyada_can_enter=false included, write back.
    shown, notes = rules_table(run(capsys, "rules", "classic")[1])
    marked = {key for key, (_, mark) in shown.items() if mark is not None}
    assert marked == {
        "six_up_value",
        "seven_fourteen_needs_piece",
        "big_values",
        "triple_scope",
        "pyada_values",
        "pyada_condition",
        "pyada_use",
    }
    six_up = notes[str(shown["six_up_value"][1])]
    assert six_up == ("six_up_value", f"it has no effect here: {refusals.IDLE_SIX_UP_VALUE()}")


# --------------------------------------------------------------------------- moves


def test_moves_lists_actions_with_descriptions(capsys: pytest.CaptureFixture[str]) -> None:
    position = write_position(capture_position())
    code, out, _ = run(capsys, "moves", position)
    assert code == 0
    line = next(ln for ln in out.splitlines() if "0a+3" in ln)
    assert line.split()[0] == "1."
    assert "move 0.a from p20 to p23 (captures 1.a" in line
    assert any("decline the 3" in ln for ln in out.splitlines())


def test_moves_json_matches_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    state = capture_position()
    code, out, _ = run(capsys, "moves", write_position(state), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["to_move"] == "seat" and data["seat"] == 0
    assert [a["action"] for a in data["actions"]] == [
        str(a) for a in engine.legal_actions(read_position(data["position"]))
    ]
    assert [a["index"] for a in data["actions"]] == list(range(1, len(data["actions"]) + 1))
    assert data["outcomes"] == []


def test_moves_at_a_throw(capsys: pytest.CaptureFixture[str]) -> None:
    start = engine.new_game(get_ruleset("wikipedia-full"))
    code, out, _ = run(capsys, "moves", write_position(start), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["to_move"] == "chance" and data["actions"] == []
    assert [o["k"] for o in data["outcomes"]] == list(range(8))
    assert [o["value"] for o in data["outcomes"]] == [7, 10, 2, 3, 4, 25, 30, 14]
    assert sum(Fraction(o["probability"]) for o in data["outcomes"]) == 1
    code, out, _ = run(capsys, "moves", write_position(start))
    assert code == 0 and "1/128" in out and "35/128" in out


def test_moves_when_the_game_is_over(capsys: pytest.CaptureFixture[str]) -> None:
    game = finished_game(seed=3)
    assert game.is_over()
    code, out, _ = run(capsys, "moves", write_position(game.state), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["to_move"] == "over" and data["outcome"] == str(game.outcome())


@pytest.mark.parametrize("name", sorted(NAMED))
def test_moves_on_positions_from_real_games(capsys: pytest.CaptureFixture[str], name: str) -> None:
    """Every kind of decision that comes up in play is listed and put into words."""
    game = finished_game(seed=21, ruleset=name)
    states = [s for s in game_states(game) if engine.current_player(s) >= 0]
    verbs = ("move ", "enter ", "bring ", "finish ", "decline ", "stop ")
    for state in states[:: max(1, len(states) // 25)]:
        code, out, _ = run(capsys, "moves", write_position(state), "--json")
        assert code == 0
        data = json.loads(out)
        assert [a["action"] for a in data["actions"]] == [
            str(a) for a in engine.legal_actions(state)
        ]
        for entry in data["actions"]:
            assert entry["description"].startswith(verbs), entry


def game_states(game: Game) -> list[State]:
    """Every state the game went through, by replaying its moves."""
    state = game.start
    states = [state]
    for move in game.moves:
        state, _ = engine.apply(state, move)
        states.append(state)
    return states


@pytest.mark.parametrize("text", ["not a position", "classic|zz"])
def test_moves_bad_position(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert_user_error(*run(capsys, "moves", text))


THREE = (
    write_position(engine.new_game(get_ruleset("ludii"))),
    write_position(capture_position()),
    "80,84,84,84/75,84,84,84/0,84,84,84/84,84,84,84 a1 30 k=2 entered=0,1,2,3 "
    "classic+kill_before_home=seat",
)
"""A throw due, a choice with a capture, and a choice that draws the game."""


def alone(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The output of a command given one position, which must succeed."""
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    return out


@pytest.mark.parametrize("count", [2, 3])
def test_moves_takes_several_positions_each_in_turn(
    capsys: pytest.CaptureFixture[str], count: int
) -> None:
    positions = THREE[:count]
    code, out, err = run(capsys, "moves", *positions)
    assert (code, err) == (0, "")
    expected = "\n".join(
        f"Position {i} of {count}: {p}\n" + alone(capsys, "moves", p)
        for i, p in enumerate(positions, start=1)
    )
    assert out == expected


@pytest.mark.parametrize("count", [2, 3])
def test_moves_json_of_several_positions_is_a_list(
    capsys: pytest.CaptureFixture[str], count: int
) -> None:
    positions = THREE[:count]
    code, out, err = run(capsys, "moves", *positions, "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == [json.loads(alone(capsys, "moves", p, "--json")) for p in positions]


def test_moves_takes_several_positions_written_as_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Unquoted, each position begins at its pieces field; one position's words are one."""
    words = [word for p in THREE for word in p.split()]
    code, out, _ = run(capsys, "moves", *words, "--json")
    assert code == 0
    assert [entry["position"] for entry in json.loads(out)] == list(THREE)
    code, out, _ = run(capsys, "moves", *THREE[1].split(), "--json")
    assert code == 0 and json.loads(out)["position"] == THREE[1]


@pytest.mark.parametrize(
    ("positions", "number"),
    [
        ((THREE[0], "not a position"), "position 2 of 2: "),
        ((THREE[0], "0,0/0 t0 1 ludii", THREE[2]), "position 2 of 3: pieces"),
        ((THREE[0], THREE[1], "nonsense"), "position 3 of 3: "),
    ],
)
def test_moves_names_the_position_that_cannot_be_read(
    capsys: pytest.CaptureFixture[str], positions: tuple[str, ...], number: str
) -> None:
    for json_flag in ((), ("--json",)):
        code, out, err = run(capsys, "moves", *positions, *json_flag)
        assert_user_error(code, out, err, number)
        assert err.startswith(f"pachisi: error: {number}")


# --------------------------------------------------------------------------- simulate


def simulate_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code, out, err = run(capsys, "simulate", *argv, "--json")
    assert code == 0, err
    assert len(out.strip().splitlines()) == 1
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_simulate_json_fields(capsys: pytest.CaptureFixture[str]) -> None:
    data = simulate_json(capsys, "--ruleset", "classic", "--games", "4", "--seed", "9")
    for key in (
        "games",
        "seconds",
        "games_per_second",
        "mean_throws",
        "mean_actions",
        "mean_captures",
        "wins_by_seat",
        "wins_by_team",
        "ruleset",
        "seed",
        "bots",
    ):
        assert key in data
    assert data["games"] == 4 and data["seed"] == 9 and data["ruleset"] == "classic"
    assert data["bots"] == ["random"] * 4
    wins_by_seat = data["wins_by_seat"]
    wins_by_team = data["wins_by_team"]
    assert isinstance(wins_by_seat, list) and isinstance(wins_by_team, list)
    assert sum(wins_by_team) == 4
    assert wins_by_seat == [wins_by_team[0], wins_by_team[1]] * 2


def test_simulate_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("--ruleset", "tylor", "--games", "5", "--seed", "77", "--bots", "greedy,random")
    first = simulate_json(capsys, *argv)
    second = simulate_json(capsys, *argv)
    assert first["bots"] == ["greedy", "random", "greedy", "random"]
    other = simulate_json(capsys, "--ruleset", "tylor", "--games", "5", "--seed", "78")
    for data in (first, second, other):
        for key in TIMING:
            del data[key]
    assert first == second
    assert first["mean_throws"] != other["mean_throws"]


def test_simulate_text_has_wilson_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "--games", "3", "--seed", "1")
    assert code == 0
    assert err == ""  # no progress bar when stderr is not a terminal
    seat_lines = [ln for ln in out.splitlines() if ln.strip().startswith("seat ")]
    team_lines = [ln for ln in out.splitlines() if ln.strip().startswith("team ")]
    assert len(seat_lines) == 4 and len(team_lines) == 2
    assert all("%, " in ln and ln.rstrip().endswith("%]") for ln in seat_lines + team_lines)


@pytest.mark.parametrize("name", sorted(NAMED))
def test_simulate_every_named_ruleset(capsys: pytest.CaptureFixture[str], name: str) -> None:
    data = simulate_json(capsys, "--ruleset", name, "--games", "2", "--seed", "5")
    assert data["ruleset"] == str(NAMED[name])
    assert data["games"] == 2


def test_simulate_individual_and_two_players(capsys: pytest.CaptureFixture[str]) -> None:
    data = simulate_json(
        capsys, "--ruleset", "classic+teams=individual", "--games", "3", "--seed", "2"
    )
    assert data["wins_by_team"] is None
    wins = data["wins_by_seat"]
    assert isinstance(wins, list) and sum(wins) + data["unfinished"] == 3  # type: ignore[operator]
    data = simulate_json(capsys, "--games", "2", "--seed", "2", "--players", "2")
    assert data["ruleset"] == "classic+players=2"


@pytest.mark.parametrize(
    ("argv", "word"),
    [
        (("--bots", "minimax"), "minimax"),
        (("--bots", "random,greedy,random"), "--bots"),
        (("--ruleset", "nope"), "nope"),
        (("--ruleset", "classic+teams=individual", "--players", "2"), "players=2"),
        (("--games", "-1"), "--games"),
        (("--max-turns", "0"), "--max-turns"),
    ],
)
def test_simulate_bad_input(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], word: str
) -> None:
    assert_user_error(*run(capsys, "simulate", *argv), word)


# --------------------------------------------------------------------------- replay


def finished_game(seed: int, ruleset: str = "classic") -> Game:
    """A game between random players, played to the end (or for at most 20000 moves, as
    some rulesets can reach positions that never end)."""
    game = Game(ruleset)
    rng = random.Random(seed)
    while not game.is_over() and len(game.moves) < 20000:
        if game.current_player() < 0:
            game.throw(rng)
        else:
            game.push(rng.choice(game.legal_actions()))
    return game


def test_replay_prints_final_position_and_outcome(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = finished_game(seed=8, ruleset="tylor")
    assert game.is_over()
    path = tmp_path / "game.pgn"
    path.write_text(write_record(record_from_game(game, {"Event": "test"})), encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == write_position(game.state)
    assert str(game.outcome()) in lines[1]


def test_replay_reports_every_error_with_its_place(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = finished_game(seed=8)
    text = write_record(record_from_game(game, {}))
    path = tmp_path / "broken.pgn"
    path.write_text(text + "\n 0z+9 banana \n", encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2  # bad input (issue 5 item 7; it was 1, the code of an internal error)
    assert out == ""
    lines = err.strip().splitlines()
    assert lines
    for line in lines:
        file, line_no, column, message = line.split(":", 3)
        assert file == str(path) and int(line_no) >= 1 and int(column) >= 1 and message.strip()


def test_replay_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert_user_error(*run(capsys, "replay", str(tmp_path / "nope.pgn")), "nope.pgn")


# --------------------------------------------------------------------------- play


def play(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: str,
    *argv: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return run(capsys, "play", *argv)


def test_play_a_whole_game_and_replay_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    save = tmp_path / "game.pgn"
    code, out, err = play(
        capsys, monkeypatch, "1\n" * 20000, "--seed", "3", "--bots", "random", "--save", str(save)
    )
    assert code == 0, err
    assert "Seed 3" in out
    assert "Game over:" in out
    assert f"Game saved to {save}" in out
    assert "throws" in out and "mouths up" in out
    code, replayed, _ = run(capsys, "replay", str(save))
    assert code == 0
    assert "Game over:" in replayed
    # The record holds the seed, so the same input plays the same game again.
    again = tmp_path / "again.pgn"
    code, _, _ = play(
        capsys, monkeypatch, "1\n" * 20000, "--seed", "3", "--bots", "random", "--save", str(again)
    )
    assert code == 0
    assert again.read_text(encoding="utf-8") == save.read_text(encoding="utf-8")
    assert "Seed" in save.read_text(encoding="utf-8")


def test_play_handles_bad_input_and_quit(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    save = tmp_path / "short.pgn"
    commands = "\n".join(["", "?", "board", "banana", "99", "0", "3a+4", "1", "quit", "1"])
    code, out, err = play(capsys, monkeypatch, commands + "\n", "--seed", "1", "--save", str(save))
    assert code == 0, err
    assert "Traceback" not in out + err
    assert "Type the number of an action" in out  # the help
    assert "'banana' is neither a number nor an action" in out
    assert "There is no action 99" in out
    assert "There is no action 0" in out
    assert "3a+4 is not legal now" in out
    assert "Stopped before the end of the game." in out
    code, replayed, _ = run(capsys, "replay", str(save))
    assert code == 0 and "Not over." in replayed


def test_play_ends_cleanly_at_end_of_input(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = play(capsys, monkeypatch, "", "--seed", "42")
    assert code == 0, err
    name = f"pachisi-{datetime.date.today():%Y%m%d}-42.pgn"
    assert (tmp_path / name).exists()
    assert f"Game saved to {name}" in out


def test_play_asks_before_going_on_when_nothing_moves(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A game can reach a position that never ends (R-NO-LIMIT); with bots passing forever
    # the person must still be asked now and then, or piped play would never stop.
    monkeypatch.setattr(play_module, "STALL_TURNS", 0)
    save = str(tmp_path / "g.pgn")
    code, out, _ = play(capsys, monkeypatch, "\n\nquit\n", "--seed", "4", "--save", save)
    assert code == 0
    assert out.count("No piece has moved for 0 turns") == 3
    assert "Stopped before the end of the game." in out


def test_play_two_player_ruleset_gives_the_partner_seat(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    save = str(tmp_path / "g.pgn")
    code, out, _ = play(
        capsys, monkeypatch, "quit\n", "--ruleset", "classic+players=2", "--seat", "1",
        "--save", save,
    )  # fmt: skip
    assert code == 0
    assert "You play seats 1 and 3" in out


@pytest.mark.parametrize(
    ("argv", "word"),
    [
        (("--ruleset", "bogus"), "bogus"),
        (("--bots", "minimax"), "minimax"),
        (("--save", "/nonexistent-dir/x.pgn"), "x.pgn"),
    ],
)
def test_play_bad_input(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: tuple[str, ...],
    word: str,
) -> None:
    assert_user_error(*play(capsys, monkeypatch, "quit\n", "--seed", "1", *argv), word)


def test_play_through_a_real_pipe(tmp_path: Path) -> None:
    save = tmp_path / "piped.pgn"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "pachisi.cli", "play", "--seed", "5", "--save", str(save)],
        input="1\n" * 20000,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "Game over:" in done.stdout
    assert save.exists()


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys)
    assert code == 2 and "usage" in err


def test_replay_refuses_a_record_over_the_size_limit_before_reading_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 5 item 5: inputs over the documented limit are refused at once."""
    from pachisi.notation import MAX_RECORD_LENGTH

    path = tmp_path / "huge.pgn"
    with open(path, "wb") as f:
        f.truncate(MAX_RECORD_LENGTH + 1)  # sparse: nothing is written, nothing to read
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert f"{MAX_RECORD_LENGTH:,}" in err or str(MAX_RECORD_LENGTH) in err


def test_replay_reports_bytes_that_are_not_utf8_at_their_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "latin1.pgn"
    path.write_bytes(b'[Ruleset "classic"]\n\nt3 caf\xe9\n')
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert f"{path}:3:" in err and "UTF-8" in err


def test_play_max_steps_keeps_the_record_within_the_size_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pachisi.cli import MAX_PLAY_STEPS
    from pachisi.notation import MAX_RECORD_LENGTH

    assert MAX_PLAY_STEPS * 20 <= MAX_RECORD_LENGTH
    code, _, err = run(capsys, "play", "--max-steps", str(MAX_PLAY_STEPS + 1))
    assert code == 2 and "max-steps" in err


def test_simulate_engines_and_workers_print_the_same_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 6 item 5: --engine fast|reference and --workers change nothing but the time."""
    outputs = []
    for extra in (["--engine", "reference"], ["--engine", "fast"], ["--workers", "2"]):
        code, out, _ = run(
            capsys, "simulate", "--ruleset", "herklots-7", "--games", "70", "--seed", "4",
            "--bots", "greedy,random", "--json", *extra,
        )  # fmt: skip
        assert code == 0
        data = json.loads(out)
        outputs.append({k: v for k, v in data.items() if k not in TIMING})
    assert outputs[0] == outputs[1] == outputs[2]


def test_simulate_refuses_an_unknown_engine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "--engine", "turbo")
    assert code == 2 and out == "" and "engine" in err
