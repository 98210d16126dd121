"""Tests for how the ``pachisi`` command starts: what it loads, each in a fresh process.

The compiled engine (:mod:`pachisi.fast`, numba) takes a second or more to load, so the
commands people start most load it only when a player that needs it is used.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pachisi.game import Game
from pachisi.notation import record_from_game, write_position, write_record
from pachisi.rules import engine
from pachisi.rules.ruleset import get_ruleset
from tests.ai.positions import ACTING

SRC = Path(__file__).parents[1] / "src"
ENV = {**os.environ, "PYTHONPATH": str(SRC)}

LOADED = """\
import io, json, sys
argv, stdin, report = json.loads(sys.argv[1])
sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
from pachisi.cli import main
code = main(argv)
heavy = [m for m in sys.modules if m.partition(".")[0] in ("numba", "llvmlite")]
heavy += [m for m in sys.modules if m == "pachisi.fast" or m.startswith("pachisi.fast.")]
with open(report, "w") as f:
    json.dump({"code": code, "heavy": sorted(heavy)}, f)
"""
"""Runs the command in-process with the given input and reports the modules it loaded."""


def loaded_by(tmp_path: Path, argv: list[str], stdin: str = "") -> dict[str, object]:
    """The exit code of ``pachisi ARGV`` and the compiled engine's modules it loaded."""
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-c", LOADED, json.dumps([argv, stdin, str(report)])],
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(report.read_text(encoding="utf-8"))
    return result


def a_record(tmp_path: Path) -> str:
    game = Game("classic")
    game.throw(random.Random(1))
    path = tmp_path / "short.pgn"
    path.write_text(write_record(record_from_game(game, {})), encoding="utf-8")
    return str(path)


START = write_position(engine.new_game(get_ruleset("classic")))

WITHOUT_NUMBA = [
    ["--help"],
    ["play", "--help"],
    ["rules"],
    ["rules", "wikipedia-full"],
    ["moves", START],
    ["moves", ACTING, "--json"],
    ["hint", ACTING, "--level", "medium"],
    ["hint", ACTING, "--level", "mcts:50"],
    ["replay", "RECORD"],
    ["play", "--seed", "3", "--save", "SAVE"],
    ["play", "--seed", "3", "--save", "SAVE", "--bots", "mcts"],
    ["play", "--seed", "3", "--save", "SAVE", "--bots", "expectimax"],
]


@pytest.mark.parametrize("argv", WITHOUT_NUMBA, ids=" ".join)
def test_commands_that_need_no_compiled_engine_do_not_load_it(
    tmp_path: Path, argv: list[str]
) -> None:
    names = {"RECORD": a_record(tmp_path), "SAVE": str(tmp_path / "game.pgn")}
    argv = [names.get(arg, arg) for arg in argv]
    result = loaded_by(tmp_path, argv, stdin="quit\n")
    assert result == {"code": 0, "heavy": []}
