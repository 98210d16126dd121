"""Every ``pachisi`` command against the exit-code table (issue 5, item 7).

    0    success, including a reader that closes our stdout early
    1    an unexpected internal error (a bug): one line and a hint, no traceback
    2    bad input of any kind, one line on stderr
    130  interrupted by Ctrl-C

and the numeric arguments, which take ASCII digits only, within bounds.
"""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import pachisi.review
import pachisi.tournament as tournament
from pachisi import cli
from pachisi import play as play_module
from pachisi.cli import EXIT_CODES, entry, games, main, queries
from pachisi.cli.parser import _integer
from pachisi.game import Game
from pachisi.notation import record_from_game, write_position, write_record
from pachisi.rules import engine
from pachisi.rules.ruleset import get_ruleset
from tests.ai.positions import ACTING

SRC = Path(__file__).parents[1] / "src"
ENV = {**os.environ, "PYTHONPATH": str(SRC)}
PACHISI = [sys.executable, "-m", "pachisi.cli"]
COMMANDS = ("rules", "moves", "hint", "simulate", "tournament", "replay", "review", "play")


def test_the_table() -> None:
    assert EXIT_CODES == {
        0: "success",
        1: "internal error (a bug)",
        2: "bad input",
        130: "interrupted",
    }


def test_the_guide_lists_the_table() -> None:
    guide = (Path(__file__).parents[1] / "docs" / "playing.md").read_text(encoding="utf-8")
    section = guide.split("\n## Exit codes\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert [int(row.split("`")[1]) for row in rows] == sorted(EXIT_CODES)


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """A short valid game record."""
    game = Game("classic")
    rng = random.Random(2)
    while len(game.moves) < 40:
        if game.current_player() < 0:
            game.throw(rng)
        else:
            game.push(rng.choice(game.legal_actions()))
    path = tmp_path / "game.pgn"
    path.write_text(write_record(record_from_game(game, {})), encoding="utf-8")
    return path


def start_position() -> str:
    return write_position(engine.new_game(get_ruleset("classic")))


def good_argv(command: str, tmp_path: Path, record: Path) -> list[str]:
    return {
        "rules": ["rules", "classic"],
        "moves": ["moves", start_position()],
        "hint": ["hint", ACTING, "--level", "medium"],
        "tournament": ["tournament", "--players", "random,greedy", "--games", "2", "--seed", "1"],
        "simulate": ["simulate", "--games", "2", "--seed", "1"],
        "replay": ["replay", str(record)],
        "review": ["review", str(record), "--workers", "1"],
        "play": ["play", "--seed", "1", "--save", str(tmp_path / "played.pgn")],
    }[command]


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    stdin: str = "1\n1\nquit\n",
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------------------------- 0


@pytest.mark.parametrize("command", COMMANDS)
def test_success_is_0(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    record: Path,
    command: str,
) -> None:
    code, out, err = run(capsys, monkeypatch, good_argv(command, tmp_path, record))
    assert (code, err) == (0, "")
    assert out


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_is_0(capsys: pytest.CaptureFixture[str], command: str | None) -> None:
    code = main([command, "--help"] if command else ["--help"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert out.startswith("usage: pachisi")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_closed_stdout_is_0(tmp_path: Path, record: Path, command: str) -> None:
    """The reader goes away before reading anything (``pachisi ... | head -0``)."""
    proc = subprocess.Popen(
        [*PACHISI, *good_argv(command, tmp_path, record)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    assert proc.stdout is not None
    proc.stdout.close()
    try:
        _, err = proc.communicate(b"1\n" * 20000, timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    if command == "play":
        saved = tmp_path / "played.pgn"
        assert err.decode() == f"pachisi: the output was closed; game saved to {saved}\n"
        assert saved.exists()
    else:
        assert err == b""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["rules", "classic", "--json"], ["rules", "wikipedia-full"]])
def test_an_output_that_cannot_be_written_is_2(argv: list[str]) -> None:
    """Not a closed pipe but a full disk: the output is lost, and the command says so,
    whether the write fails at the end (short output) or on the way (long output)."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*PACHISI, *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            env=ENV,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    (line,) = done.stderr.decode().splitlines()
    assert line.startswith("pachisi: error: ") and line.endswith("No space left on device")


# --------------------------------------------------------------------------- 2


def not_utf8(tmp_path: Path) -> str:
    path = tmp_path / "latin1.pgn"
    path.write_bytes(b'[Ruleset "classic"]\n\n\xe9\xff *\n')
    return str(path)


def bad_record(tmp_path: Path) -> str:
    path = tmp_path / "bad.pgn"
    path.write_text('[Ruleset "classic"]\n\nt3 0z+9 banana *\n', encoding="utf-8")
    return str(path)


BAD_INPUT: list[tuple[str, Any]] = [
    ("rules", lambda tmp: ["rules", "nonsense"]),
    ("rules", lambda tmp: ["rules", "classic+capture_bonus=maybe"]),
    ("rules", lambda tmp: ["rules", "--bogus"]),
    ("moves", lambda tmp: ["moves", "not a position"]),
    ("moves", lambda tmp: ["moves"]),
    ("hint", lambda tmp: ["hint", "not a position"]),
    ("hint", lambda tmp: ["hint", ACTING, "--level", "minimax"]),
    ("hint", lambda tmp: ["hint", start_position()]),
    ("tournament", lambda tmp: ["tournament", "--players", "greedy"]),
    ("tournament", lambda tmp: ["tournament", "--players", "greedy,minimax"]),
    ("simulate", lambda tmp: ["simulate", "--games", "١"]),
    ("simulate", lambda tmp: ["simulate", "--bots", "minimax"]),
    ("simulate", lambda tmp: ["simulate", "--ruleset", "nope"]),
    ("replay", lambda tmp: ["replay", str(tmp / "missing.pgn")]),
    ("replay", lambda tmp: ["replay", str(tmp)]),
    ("review", lambda tmp: ["review", str(tmp / "missing.pgn")]),
    ("review", lambda tmp: ["review", bad_record(tmp)]),
    ("review", lambda tmp: ["review", str(tmp), "--workers", "0"]),
    ("play", lambda tmp: ["play", "--save", str(tmp)]),
    ("play", lambda tmp: ["play", "--bots", "minimax", "--save", str(tmp / "g.pgn")]),
    ("play", lambda tmp: ["play", "--ruleset", "bogus", "--save", str(tmp / "g.pgn")]),
    ("play", lambda tmp: ["play", "--seat", "٣"]),
    (None, lambda tmp: []),
    (None, lambda tmp: ["dance"]),
]


@pytest.mark.parametrize(("command", "argv"), BAD_INPUT)
def test_bad_input_is_2_in_one_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    command: str | None,
    argv: Any,
) -> None:
    code, out, err = run(capsys, monkeypatch, argv(tmp_path))
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"pachisi {command}: error: " if command else "pachisi") or (
        err.startswith("pachisi: error: ")
    )
    assert not (tmp_path / "g.pgn").exists()


def test_a_record_that_is_not_utf8_is_2_with_the_byte_placed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = not_utf8(tmp_path)
    code, out, err = run(capsys, monkeypatch, ["replay", path])
    assert code == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert line.startswith(f"{path}:") and "UTF-8" in line


def test_an_invalid_record_is_2_with_every_problem_placed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = bad_record(tmp_path)
    code, out, err = run(capsys, monkeypatch, ["replay", path])
    assert code == 2  # it was 1, the code of an internal error
    assert out == ""
    lines = err.strip().splitlines()
    assert lines
    for line in lines:
        file, line_no, column, message = line.split(":", 3)
        assert (file, line_no) == (path, "3") and int(column) >= 1 and message.strip()


# --------------------------------------------------------------------------- numbers


NUMERIC = [
    ("simulate", "--games"),
    ("simulate", "--seed"),
    ("simulate", "--players"),
    ("simulate", "--max-turns"),
    ("simulate", "--max-steps"),
    ("play", "--seat"),
    ("play", "--seed"),
    ("play", "--max-steps"),
]
NOT_NUMBERS = ["١", "٣", "²", "１", "1_0", " 1", "1 ", "+1", "1.0", "0x10", "", "-", "--1"]


@pytest.mark.parametrize(("command", "option"), NUMERIC)
@pytest.mark.parametrize("value", [*NOT_NUMBERS, "-1", "9" * 40, "1" + "0" * 5000])
def test_numeric_arguments_take_ascii_digits_within_bounds(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    command: str,
    option: str,
    value: str,
) -> None:
    argv = [command, f"{option}={value}"]
    if command == "play":
        argv += ["--save", str(tmp_path / "g.pgn")]
    code, out, err = run(capsys, monkeypatch, argv)
    assert code == 2
    assert out == ""
    (line,) = err.strip().splitlines()
    assert line.startswith(f"pachisi {command}: error: argument {option}: ")
    assert len(line) < 200  # a huge number is quoted only in part
    assert not (tmp_path / "g.pgn").exists()


def test_numbers_within_bounds_are_taken(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = str(2**64 - 1)
    code, out, err = run(
        capsys, monkeypatch, ["simulate", "--games", "002", "--seed", seed, "--json"]
    )
    assert (code, err) == (0, "")
    assert '"games": 2' in out and f'"seed": {seed}' in out
    code, _, err = run(capsys, monkeypatch, ["simulate", "--games", "0", "--seed", str(2**64)])
    assert code == 2 and f"is not from 0 to {seed}" in err
    count = _integer(0, cli.MAX_GAMES)
    assert count(str(cli.MAX_GAMES)) == cli.MAX_GAMES
    with pytest.raises(Exception, match="is not from 0 to"):
        count(str(cli.MAX_GAMES + 1))


# --------------------------------------------------------------------------- 1 and 130


def break_command(monkeypatch: pytest.MonkeyPatch, command: str, exc: BaseException) -> None:
    """Make something deep inside ``command`` raise ``exc``."""

    def broken(*args: object, **kwargs: object) -> Any:
        raise exc

    target: dict[str, tuple[Any, str]] = {
        "rules": (queries, "describe"),
        "moves": (queries, "read_position"),
        "hint": (queries, "hint"),
        "simulate": (games, "simulate"),
        "tournament": (tournament, "run_games"),
        "replay": (games, "read_game_file"),
        "review": (pachisi.review, "review"),
        "play": (play_module, "describe_played"),
    }
    module, name = target[command]
    monkeypatch.setattr(module, name, broken)


@pytest.mark.parametrize("command", COMMANDS)
def test_an_internal_error_is_1_without_a_traceback(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    record: Path,
    command: str,
) -> None:
    monkeypatch.delenv(cli.DEBUG_VARIABLE, raising=False)
    break_command(monkeypatch, command, ZeroDivisionError("a bug"))
    code, _, err = run(capsys, monkeypatch, good_argv(command, tmp_path, record))
    assert code == 1
    assert "Traceback" not in err
    assert err.splitlines() == [
        "pachisi: internal error: ZeroDivisionError: a bug",
        "pachisi: this is a bug; please report it with the command that caused it "
        "(PACHISI_DEBUG=1 shows the traceback)",
    ]
    if command == "play":
        assert (tmp_path / "played.pgn").exists()  # the game is saved all the same


def test_the_debug_variable_shows_the_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cli.DEBUG_VARIABLE, "1")
    break_command(monkeypatch, "rules", ZeroDivisionError("a bug"))
    code, _, err = run(capsys, monkeypatch, ["rules", "classic"])
    assert code == 1
    assert err.startswith("Traceback (most recent call last):")
    assert "pachisi: internal error: ZeroDivisionError: a bug" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_ctrl_c_is_130(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    record: Path,
    command: str,
) -> None:
    break_command(monkeypatch, command, KeyboardInterrupt())
    code, out, err = run(capsys, monkeypatch, good_argv(command, tmp_path, record))
    assert code == 130
    assert "Traceback" not in err
    if command == "play":
        assert "Interrupted." in out and (tmp_path / "played.pgn").exists()
    else:
        assert err.strip() == "pachisi: interrupted"


def test_ctrl_c_while_a_command_loads_a_class_is_130(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    record: Path,
) -> None:
    """Python 3.11 wraps a Ctrl-C that lands in a class's ``__set_name__`` call (a dataclass
    field's, as a command's modules load) in a RuntimeError: still Ctrl-C, not a bug."""
    wrapped = RuntimeError("Error calling __set_name__ on 'Field' instance 'x' in 'Holder'")
    wrapped.__cause__ = KeyboardInterrupt()
    break_command(monkeypatch, "rules", wrapped)
    code, _, err = run(capsys, monkeypatch, good_argv("rules", tmp_path, record))
    assert code == 130
    assert err.strip() == "pachisi: interrupted"


def test_main_lets_no_exception_escape_even_while_reporting(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second Ctrl-C while the first error is being reported still gives a code."""

    def interrupted(text: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(entry, "complain", interrupted)
    assert main(["rules", "nonsense"]) == 130


def test_a_closed_stderr_does_not_stop_the_report(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    closed = io.StringIO()
    closed.close()
    monkeypatch.setattr(sys, "stderr", closed)
    assert main(["rules", "nonsense"]) == 2
