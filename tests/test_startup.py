"""Tests for how the ``pachisi`` command starts: what it loads, each in a fresh process.

The commands people start most load the compiled engine (:mod:`pachisi.fast` and its
extension, and the compiled players' ``pachisi.ai._compiled``) only when a player that needs
it is used: they also work where the extensions were not built (docs/install.md).
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import pachisi.__main__ as entry
from pachisi import cli
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
heavy = [m for m in sys.modules if m == "pachisi.ai._compiled"]
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

WITHOUT_COMPILED = [
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


@pytest.mark.parametrize("argv", WITHOUT_COMPILED, ids=" ".join)
def test_commands_that_need_no_compiled_engine_do_not_load_it(
    tmp_path: Path, argv: list[str]
) -> None:
    names = {"RECORD": a_record(tmp_path), "SAVE": str(tmp_path / "game.pgn")}
    argv = [names.get(arg, arg) for arg in argv]
    result = loaded_by(tmp_path, argv, stdin="quit\n")
    assert result == {"code": 0, "heavy": []}


# --------------------------------------------------------------------------- early Ctrl-C

PYPROJECT = Path(__file__).parents[1] / "pyproject.toml"

CONSOLE_SCRIPT = """\
import json, os, signal, sys, tomllib
pyproject, trip, ready, argv = json.loads(sys.argv[1])
with open(pyproject, "rb") as f:
    module, _, function = tomllib.load(f)["project"]["scripts"]["pachisi"].partition(":")


class Watch:
    # Ctrl-C as the module `trip` starts to load; a byte to `ready` as pachisi.cli does.
    def find_spec(self, name, path=None, target=None):
        if name == "pachisi.cli" and ready:
            os.write(ready, b"!")
        if name == trip:
            os.kill(os.getpid(), signal.SIGINT)
        return None


sys.meta_path.insert(0, Watch())
sys.argv = ["pachisi", *argv]
# What the console script does: from MODULE import FUNCTION; sys.exit(FUNCTION()).
sys.exit(getattr(__import__(module, fromlist=[function]), function)())
"""
"""The console script that ``pyproject.toml`` declares, as pip writes it, with a Ctrl-C
as one module (``trip``) starts to load, and a byte written to the file descriptor
``ready`` when :mod:`pachisi.cli` does."""


def start_play(save: Path, *, trip: str = "", ready: int = 0) -> subprocess.Popen[bytes]:
    """``pachisi play`` through the console script, its input left open (at the prompt)."""
    argv = ["play", "--seed", "6", "--save", str(save)]
    return subprocess.Popen(
        [sys.executable, "-c", CONSOLE_SCRIPT, json.dumps([str(PYPROJECT), trip, ready, argv])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        pass_fds=(ready,) if ready else (),
    )


def ended(proc: subprocess.Popen[bytes]) -> tuple[int, str, str]:
    """The exit code, stdout and (the end of) stderr of ``proc``, once it has ended."""
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")[-800:]


def interrupted_cleanly(code: int, out: str, err: str, save: Path) -> bool:
    """Whether ``pachisi play`` ended as Ctrl-C should end it: exit code 130, no traceback,
    and ``pachisi: interrupted`` alone before the game began (nothing to save), or the
    game's ``Interrupted.`` and its record saved once it had."""
    if code != 130 or "Traceback" in err:
        return False
    if out == "" and err == "\npachisi: interrupted\n":
        return not save.exists()
    return err == "" and "Interrupted." in out and "Game saved to" in out and save.exists()


TRIPS = (
    "pachisi.cli",
    "pachisi.ai.bots",
    "pachisi.rules.engine",
    "pachisi.ai.mcts",
    "pachisi.notation",
    "rich.console",
    "pachisi.play",
    "pachisi.simulate",
)
"""Modules the command loads, in about that order, before ``pachisi.cli.main`` runs."""


@pytest.mark.skipif(os.name != "posix", reason="SIGINT")
def test_ctrl_c_while_the_command_loads_is_130_in_one_line(tmp_path: Path) -> None:
    outcomes = {}
    for trip in TRIPS:
        outcomes[trip] = ended(start_play(tmp_path / "game.pgn", trip=trip))
    # Before the game began there is nothing to save.
    assert outcomes == dict.fromkeys(TRIPS, (130, "", "\npachisi: interrupted\n"))
    assert not (tmp_path / "game.pgn").exists()


MOMENTS = (0.0, 0.01, 0.02, 0.04, 0.07, 0.1, 0.15, 0.25, 0.4)
"""Seconds after :mod:`pachisi.cli` starts to load at which a Ctrl-C comes: while the
command's modules load (some 0.15 s here, 0.3 s and more before) and once the game has
begun."""


@pytest.mark.skipif(os.name != "posix", reason="SIGINT and select on pipes")
def test_a_real_ctrl_c_early_in_play_is_130_without_a_traceback(tmp_path: Path) -> None:
    wrong = {}
    # At once: the signal comes before the interpreter has set up Python's handler, and the
    # process ends by the signal, quietly (shells report that as 130); or, a little later,
    # the command reports it.
    save = tmp_path / "at-once.pgn"
    proc = start_play(save)
    proc.send_signal(signal.SIGINT)
    code, out, err = ended(proc)
    if (code, out, err) != (-signal.SIGINT, "", "") and not interrupted_cleanly(
        code, out, err, save
    ):
        wrong["at once"] = (code, out, err)
    for moment in MOMENTS:
        save = tmp_path / f"{moment}.pgn"
        ready, ready_w = os.pipe()
        try:
            proc = start_play(save, ready=ready_w)
            os.close(ready_w)
            # The interpreter has started, and the console script has begun to load
            # the command.
            assert select.select([ready], [], [], 60)[0] and os.read(ready, 1) == b"!"
        finally:
            os.close(ready)
        time.sleep(moment)
        proc.send_signal(signal.SIGINT)
        code, out, err = ended(proc)
        if not interrupted_cleanly(code, out, err, save):
            wrong[str(moment)] = (code, out[-300:], err)
    assert wrong == {}


def test_the_entry_point_uses_the_command_s_code_for_ctrl_c() -> None:
    assert entry.EXIT_INTERRUPTED == cli.EXIT_INTERRUPTED


def test_ctrl_c_just_before_the_command_s_handler_is_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted() -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "main", interrupted)
    monkeypatch.setattr(entry, "_quiet_exit", lambda: None)  # keep this process's Ctrl-C
    assert entry.main() == 130
    assert capsys.readouterr() == ("", "\npachisi: interrupted\n")


def _wrapped_ctrl_c() -> RuntimeError:
    """What Python 3.11 raises for a Ctrl-C that lands in a ``__set_name__`` call while a
    class is being made (a dataclass field's, as a module loads)."""
    error = RuntimeError("Error calling __set_name__ on 'Field' instance 'x' in 'Holder'")
    error.__cause__ = KeyboardInterrupt()
    return error


def test_ctrl_c_while_a_class_is_made_is_130_too(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def loading() -> int:
        raise _wrapped_ctrl_c()

    monkeypatch.setattr(cli, "main", loading)
    monkeypatch.setattr(entry, "_quiet_exit", lambda: None)  # keep this process's Ctrl-C
    assert entry.main() == 130
    assert capsys.readouterr() == ("", "\npachisi: interrupted\n")


def test_another_runtime_error_while_the_command_loads_is_not_taken_for_ctrl_c(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def loading() -> int:
        raise RuntimeError("a bug")

    monkeypatch.setattr(cli, "main", loading)
    with pytest.raises(RuntimeError, match="a bug"):
        entry.main()


def test_a_second_ctrl_c_while_the_first_is_reported_is_still_130(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def interrupted(*args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "main", interrupted)
    monkeypatch.setattr(entry, "_complain", interrupted)
    monkeypatch.setattr(entry, "_quiet_exit", lambda: None)
    assert entry.main() == 130


def test_python_m_pachisi_runs_the_command_and_exits_quietly_on_a_late_ctrl_c() -> None:
    code = (
        "import signal, sys; from pachisi.__main__ import main; sys.argv[1:] = ['rules']; "
        "code = main(); print(signal.getsignal(signal.SIGINT) is signal.SIG_DFL); sys.exit(code)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=ENV, check=False
    )
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("Named rulesets") and done.stdout.endswith("True\n")
    done = subprocess.run(
        [sys.executable, "-m", "pachisi", "rules", "classic"],
        capture_output=True,
        text=True,
        env=ENV,
        check=False,
    )
    assert done.returncode == 0 and "canonical string: classic" in done.stdout
