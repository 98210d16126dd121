"""Tests for the terminal game (pachisi.play): a game played there is never lost.

Most tests drive :class:`PlaySession` or :func:`run_play` in-process with in-memory
streams; a real pipe is used where only a real one behaves as it does in a shell (a
closed stdout, bytes that are not UTF-8, Ctrl-C at the prompt).
"""

from __future__ import annotations

import io
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pachisi import play as play_module
from pachisi import savefile as savefile_module
from pachisi.ai.games import DEFAULT_MAX_STEPS
from pachisi.cli import main
from pachisi.game import Game
from pachisi.notation import read_position, read_record, replay
from pachisi.play import MAX_STEPS, PlaySession, run_play
from pachisi.rules.ruleset import get_ruleset, parse_ruleset
from pachisi.rules.state import State
from pachisi.savefile import SavePathError, check_save_path, save_text

SRC = Path(__file__).parents[1] / "src"
ENV = {**os.environ, "PYTHONPATH": str(SRC)}
PACHISI = [sys.executable, "-m", "pachisi.cli"]
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0

NEAR_DRAW = "80,84,84,84/75,84,84,84/0,84,84,84/84,84,84,84 t1 30 entered=0,1,2,3 "
"""Seat 1 to throw; its last piece (p75) passes the last square it can capture from
with any move, and then every side is blocked (R-DEADLOCK): seat 0's last piece is past
p75 with no kill, seat 3 has finished, seat 2 has no possible victim left."""


def session(
    tmp_path: Path,
    commands: str = "",
    *,
    ruleset: str = "classic",
    human: int = 0,
    seed: int = 1,
    bot: str = "random",
    inp: Any = None,
    out: Any = None,
    err: Any = None,
    **kwargs: Any,
) -> PlaySession:
    """A session saving to ``tmp_path/game.pgn``, reading ``commands`` unless ``inp``."""
    return PlaySession(
        parse_ruleset(ruleset),
        human=human,
        seed=seed,
        bot=bot,
        save=str(tmp_path / "game.pgn"),
        color=False,
        inp=inp if inp is not None else io.StringIO(commands),
        out=out if out is not None else io.StringIO(),
        err=err if err is not None else io.StringIO(),
        **kwargs,
    )


def saved_game(path: Path) -> Game:
    """The game a saved record holds, replayed (it must read back without an error)."""
    return replay(read_record(path.read_text(encoding="utf-8")))


def tag(path: Path, name: str) -> str:
    return read_record(path.read_text(encoding="utf-8")).tags[name]


def leftovers(folder: Path) -> list[str]:
    """Temporary files a save may have left behind."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def one_line_error(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2
    assert out == ""  # refused before the game printed anything: no throw was made
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0]


def run_cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, *argv: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------------------------- save path


def test_play_refuses_a_directory_as_save_path(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    one_line_error(
        *run_cli(capsys, monkeypatch, "1\n", "--save", str(tmp_path)), str(tmp_path), "directory"
    )


def test_play_refuses_a_path_in_a_missing_directory(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "missing" / "g.pgn"
    one_line_error(*run_cli(capsys, monkeypatch, "1\n", "--save", str(path)), "no such directory")
    assert not path.parent.exists()


def test_play_refuses_a_path_whose_parent_is_a_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Unlike permission bits, this stops root too (CI runs as root).
    (tmp_path / "plain").write_text("x", encoding="utf-8")
    path = tmp_path / "plain" / "g.pgn"
    one_line_error(*run_cli(capsys, monkeypatch, "1\n", "--save", str(path)), "not a directory")


def test_play_refuses_a_file_that_is_not_a_regular_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A rename over /dev/null would replace the device itself when run as root.
    if not os.path.exists(os.devnull) or os.path.isfile(os.devnull):
        pytest.skip("no null device")
    one_line_error(*run_cli(capsys, monkeypatch, "1\n", "--save", os.devnull), "not a regular file")


def test_play_refuses_an_empty_save_path(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    one_line_error(*run_cli(capsys, monkeypatch, "1\n", "--save", ""), "empty")


@pytest.mark.skipif(IS_ROOT or os.name != "posix", reason="permission bits do not stop root")
def test_play_refuses_a_read_only_directory(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        one_line_error(
            *run_cli(capsys, monkeypatch, "1\n", "--save", str(folder / "g.pgn")), "cannot write"
        )
        # Without --save the game goes to the current directory, checked the same way.
        monkeypatch.chdir(folder)
        one_line_error(*run_cli(capsys, monkeypatch, "1\n", "--seed", "4"), "cannot write")
    finally:
        folder.chmod(0o755)


@pytest.mark.skipif(IS_ROOT or os.name != "posix", reason="permission bits do not stop root")
def test_play_refuses_a_read_only_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "kept.pgn"
    path.write_text("mine\n", encoding="utf-8")
    path.chmod(0o444)
    one_line_error(*run_cli(capsys, monkeypatch, "1\n", "--save", str(path)), "read-only")
    assert path.read_text(encoding="utf-8") == "mine\n"


def test_play_refuses_a_directory_it_cannot_write_in(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """What the probe file meets (permissions, a read-only file system) refuses the path;
    shown here for root too, whom permission bits do not stop."""

    def refused(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(savefile_module.tempfile, "mkstemp", refused)
    code, out, err = run_cli(capsys, monkeypatch, "1\n", "--save", str(tmp_path / "g.pgn"))
    one_line_error(code, out, err, "cannot write in", "Permission denied")


def test_check_save_path_accepts_new_and_existing_files(tmp_path: Path) -> None:
    check_save_path(str(tmp_path / "new.pgn"))
    (tmp_path / "old.pgn").write_text("old\n", encoding="utf-8")
    check_save_path(str(tmp_path / "old.pgn"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.pgn"]  # the probe is gone
    with pytest.raises(SavePathError):
        check_save_path(str(tmp_path))


def test_run_play_checks_the_default_path_before_playing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "plain").write_text("x", encoding="utf-8")
    monkeypatch.setattr(play_module, "default_save_path", lambda seed: str(tmp_path / "plain/g"))
    out = io.StringIO()
    with pytest.raises(SavePathError):
        run_play(
            get_ruleset("classic"), seat=0, seed=1, bot="random", save=None, color=False,
            inp=io.StringIO("1\n"), out=out,
        )  # fmt: skip
    assert out.getvalue() == ""


# --------------------------------------------------------------------------- atomic save


def test_save_text_writes_the_whole_text_and_keeps_the_mode(tmp_path: Path) -> None:
    path = tmp_path / "g.pgn"
    save_text(str(path), "first\n")
    assert path.read_text(encoding="utf-8") == "first\n"
    if os.name == "posix":
        path.chmod(0o640)
    save_text(str(path), "second\n" * 1000)
    assert path.read_text(encoding="utf-8") == "second\n" * 1000
    if os.name == "posix":
        assert path.stat().st_mode & 0o777 == 0o640
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(os.name != "posix", reason="symbolic links")
def test_save_text_follows_a_symbolic_link(tmp_path: Path) -> None:
    target = tmp_path / "real.pgn"
    target.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.pgn"
    link.symlink_to(target)
    save_text(str(link), "new\n")
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8") == "new\n"


@pytest.mark.parametrize("when", ["write", "fsync", "replace"])
def test_an_interrupt_inside_the_save_leaves_the_old_file_whole(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, when: str
) -> None:
    """Even an interrupt that is not held back (raised in the middle of the save) leaves
    the old file as it was and no temporary file behind."""
    path = tmp_path / "g.pgn"
    path.write_text("the old game\n", encoding="utf-8")

    def interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    if when == "write":
        monkeypatch.setattr(savefile_module.os, "fdopen", _half_then_interrupt(os.fdopen))
    else:
        monkeypatch.setattr(savefile_module.os, when, interrupt)
    with pytest.raises(KeyboardInterrupt):
        save_text(str(path), "the new game\n" * 100)
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == "the old game\n"
    assert leftovers(tmp_path) == []


def _half_then_interrupt(fdopen: Callable[..., Any]) -> Callable[..., Any]:
    """An ``os.fdopen`` whose files write half of what they are given, then get Ctrl-C."""

    class HalfFile:
        def __init__(self, real: Any) -> None:
            self.real = real

        def __enter__(self) -> HalfFile:
            return self

        def __exit__(self, *exc: object) -> None:
            self.real.close()

        def write(self, text: str) -> int:
            self.real.write(text[: len(text) // 2])
            self.real.flush()
            raise KeyboardInterrupt

        def __getattr__(self, name: str) -> Any:
            return getattr(self.real, name)

    return lambda *args, **kwargs: HalfFile(fdopen(*args, **kwargs))


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to itself")
def test_a_real_ctrl_c_during_the_save_waits_for_the_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A second Ctrl-C during the save is held back: the new file is complete, and the
    interrupt comes after it."""
    path = tmp_path / "g.pgn"
    path.write_text("the old game\n", encoding="utf-8")
    real_fsync = os.fsync

    def fsync_after_ctrl_c(fd: int) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # give the signal time to arrive while the save is under way
        real_fsync(fd)

    monkeypatch.setattr(savefile_module.os, "fsync", fsync_after_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        save_text(str(path), "the new game\n" * 100)
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == "the new game\n" * 100
    assert leftovers(tmp_path) == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to itself")
def test_ctrl_c_during_the_session_save_still_saves(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real_fsync = os.fsync

    def fsync_after_ctrl_c(fd: int) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        real_fsync(fd)

    monkeypatch.setattr(savefile_module.os, "fsync", fsync_after_ctrl_c)
    s = session(tmp_path, "1\n1\nquit\n", seed=2)
    assert s.run() == 130
    monkeypatch.undo()
    assert s.saved == str(tmp_path / "game.pgn")
    assert len(saved_game(tmp_path / "game.pgn").moves) == s.steps > 0
    assert leftovers(tmp_path) == []


def test_a_failed_save_keeps_the_old_file_and_shows_the_record(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "game.pgn"
    path.write_text("the old game\n", encoding="utf-8")

    def disk_full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(savefile_module.os, "fsync", disk_full)
    err = io.StringIO()
    s = session(tmp_path, "quit\n", err=err)
    assert s.run() == 2
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == "the old game\n"
    assert leftovers(tmp_path) == []
    text = err.getvalue()
    assert "could not save the game" in text and "No space left on device" in text
    record = text[text.index("[Ruleset") :]
    assert read_record(record).tags["Seed"] == "1"  # nothing is lost: it can be kept


# --------------------------------------------------------------------------- odd input


def test_odd_numbers_at_the_prompt_are_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    """Only ASCII digits make a number: ``²`` passes ``str.isdigit`` but not ``int``, and
    5,000 digits are more than ``int`` converts."""
    commands = ["²", "٣", "１", "9" * 5000, "0" * 5000 + "1", "1", "quit"]
    out = io.StringIO()
    s = session(tmp_path, "\n".join(commands) + "\n", seed=3, out=out)
    assert s.run() == 0
    text = out.getvalue()
    assert "'²' is neither a number nor an action" in text
    assert "'٣' is neither a number nor an action" in text
    assert "'１' is neither a number nor an action" in text
    assert "There is no action with that number; choose 1 to" in text
    assert "invalid literal" not in text and "digits" not in text.replace("9" * 5000, "")
    # 0...01 is the number 1, and so is the 1 after it: two actions were played.
    assert text.count("\nYou play ") == 2
    assert "Stopped before the end of the game." in text
    assert len(saved_game(tmp_path / "game.pgn").moves) == s.steps


def test_a_long_line_is_quoted_only_in_part(tmp_path: Path) -> None:
    out = io.StringIO()
    s = session(tmp_path, "x" * 5000 + "\nquit\n", seed=3, out=out)
    assert s.run() == 0
    message = next(ln for ln in out.getvalue().splitlines() if "neither a number" in ln)
    assert len(message) < 100


def test_bytes_that_are_not_utf8_cost_one_line(tmp_path: Path) -> None:
    """run_play reads stdin replacing bad bytes, so the next lines still play."""
    inp = io.TextIOWrapper(io.BytesIO(b"\xff\xfe\n1\n1\nquit\n"), encoding="utf-8")
    out = io.StringIO()
    save = tmp_path / "g.pgn"
    code = run_play(
        get_ruleset("classic"), seat=0, seed=3, bot="random", save=str(save), color=False,
        inp=inp, out=out, err=io.StringIO(),
    )  # fmt: skip
    assert code == 0
    text = out.getvalue()
    assert "is neither a number nor an action" in text
    assert text.count("\nYou play ") == 2
    assert len(saved_game(save).moves) > 0


def test_a_strict_stream_that_fails_to_decode_ends_the_game_saved(tmp_path: Path) -> None:
    """A session given a stream that raises on bad bytes stops cleanly and saves."""
    inp = io.TextIOWrapper(io.BytesIO(b"1\n\xff\xfe\n1\n"), encoding="utf-8")
    out = io.StringIO()
    s = session(tmp_path, inp=inp, out=out, seed=3)
    assert s.run() == 0
    assert "not UTF-8 text" in out.getvalue()
    assert "Game saved to" in out.getvalue()
    assert len(saved_game(tmp_path / "game.pgn").moves) == s.steps > 0


def test_non_utf8_bytes_through_a_real_pipe(tmp_path: Path) -> None:
    save = tmp_path / "g.pgn"
    done = subprocess.run(
        [*PACHISI, "play", "--seed", "3", "--save", str(save)],
        input=b"\xff\xfe\n\x80\n1\n" + b"1\n" * 3000,
        capture_output=True,
        timeout=120,
        env=ENV,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    assert b"is neither a number nor an action" in done.stdout
    assert b"Game over:" in done.stdout
    assert saved_game(save).is_over()


# --------------------------------------------------------------------------- Ctrl-C


class _Interrupting(io.StringIO):
    """An output stream where Ctrl-C arrives at the ``at``-th write."""

    def __init__(self, at: int) -> None:
        super().__init__()
        self.writes = 0
        self.at = at

    def write(self, text: str) -> int:
        self.writes += 1
        if self.writes == self.at:
            raise KeyboardInterrupt
        return super().write(text)


def test_ctrl_c_during_start_up_still_saves(tmp_path: Path) -> None:
    """Ctrl-C while the greeting is printed, before any throw or prompt."""
    out = _Interrupting(at=1)
    s = session(tmp_path, "1\n", out=out)
    assert s.run() == 130
    assert "Interrupted." in out.getvalue()
    assert "Game saved to" in out.getvalue()
    assert tag(tmp_path / "game.pgn", "Result") == "*"
    assert saved_game(tmp_path / "game.pgn").moves == ()


def test_ctrl_c_during_the_game_saves_what_was_played(tmp_path: Path) -> None:
    out = _Interrupting(at=400)
    s = session(tmp_path, "1\n" * 1000, out=out, seed=4)
    assert s.run() == 130
    assert 0 < s.steps == len(saved_game(tmp_path / "game.pgn").moves)


def test_ctrl_c_before_the_session_exists_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def interrupted(name: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(play_module, "make_player", interrupted)
    code, out, err = run_cli(capsys, monkeypatch, "1\n", "--save", str(tmp_path / "g.pgn"))
    assert code == 130
    assert out == ""
    assert err.strip() == "pachisi: interrupted"


def _read_until(proc: subprocess.Popen[bytes], marker: bytes, timeout: float) -> bytes:
    """Read the process's stdout until ``marker`` appears (or fail after ``timeout``)."""
    assert proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + timeout
    while marker not in seen:
        left = deadline - time.monotonic()
        assert left > 0, seen[-500:]
        ready, _, _ = select.select([proc.stdout], [], [], left)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 65536)
            assert chunk, seen[-500:]
            seen += chunk
    return seen


@pytest.mark.skipif(os.name != "posix", reason="SIGINT and select on pipes")
def test_ctrl_c_at_the_prompt_of_a_real_process(tmp_path: Path) -> None:
    save = tmp_path / "g.pgn"
    proc = subprocess.Popen(
        [*PACHISI, "play", "--seed", "6", "--save", str(save)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    try:
        _read_until(proc, b"Your choice", timeout=60)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert b"Traceback" not in err
    assert b"Interrupted." in out and b"Game saved to" in out
    assert tag(save, "Result") == "*"
    assert len(saved_game(save).moves) > 0


# --------------------------------------------------------------------------- closed output


class _ClosingPipe(io.StringIO):
    """An output whose reader goes away after ``limit`` characters, as with ``| head``."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def write(self, text: str) -> int:
        if self.tell() + len(text) > self.limit:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def test_a_closed_output_ends_the_game_saved(tmp_path: Path) -> None:
    err = io.StringIO()
    s = session(tmp_path, "1\n" * 1000, out=_ClosingPipe(5000), err=err, seed=4)
    assert s.run() == 0
    assert err.getvalue() == f"pachisi: the output was closed; game saved to {s.saved}\n"
    assert len(saved_game(tmp_path / "game.pgn").moves) == s.steps


def test_a_closed_output_at_the_first_line_ends_the_game_saved(tmp_path: Path) -> None:
    err = io.StringIO()
    s = session(tmp_path, "1\n", out=_ClosingPipe(0), err=err)
    assert s.run() == 0
    assert "game saved to" in err.getvalue()
    assert s.steps == 0 and tag(tmp_path / "game.pgn", "Result") == "*"


def test_a_closed_stdout_of_a_real_process(tmp_path: Path) -> None:
    """``pachisi play | head -1``: the game stops, is saved, and the exit is quiet."""
    save = tmp_path / "g.pgn"
    proc = subprocess.Popen(
        [*PACHISI, "play", "--seed", "5", "--save", str(save)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    assert proc.stdout is not None
    try:
        first = proc.stdout.readline()
        proc.stdout.close()  # the reader goes away after one line, like head -1
        _, err = proc.communicate(b"1\n" * 20000, timeout=120)
    finally:
        proc.kill()
    assert first.startswith(b"Pachisi, ruleset classic")
    assert proc.returncode == 0, err
    assert err.decode() == f"pachisi: the output was closed; game saved to {save}\n"
    assert tag(save, "Seed") == "5"


# --------------------------------------------------------------------------- internal error


def test_an_internal_error_mid_game_still_saves(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls = 0
    real = play_module.describe_played

    def failing(*args: Any) -> str:
        nonlocal calls
        calls += 1
        if calls == 5:
            raise RuntimeError("a bug")
        return real(*args)

    monkeypatch.setattr(play_module, "describe_played", failing)
    save = tmp_path / "g.pgn"
    code, out, err = run_cli(capsys, monkeypatch, "1\n" * 100, "--seed", "2", "--save", str(save))
    assert code == 1
    assert "pachisi: internal error: RuntimeError: a bug" in err
    assert "Traceback" not in err
    assert f"Game saved to {save}" in out
    assert len(saved_game(save).moves) >= 5


# --------------------------------------------------------------------------- step cap


def blocked_forever() -> State:
    """The near-draw position under ``deadlock=continue``: it can never end."""
    return read_position(NEAR_DRAW + "classic+kill_before_home=seat+deadlock=continue")


def test_play_uses_the_simulation_step_cap() -> None:
    assert MAX_STEPS == DEFAULT_MAX_STEPS == 50_000


def test_a_game_the_bots_play_on_alone_stops_at_the_step_cap(tmp_path: Path) -> None:
    """Seat 3 has finished (``finished_seat=skip``) and the game is blocked for ever
    under ``deadlock=continue``: the person is never asked to move, and answers every
    question about going on with Enter. Only the cap ends the game."""
    start = blocked_forever()
    inp = io.StringIO("\n" * 1_000_000)
    out = io.StringIO()
    s = session(tmp_path, inp=inp, out=out, human=3, bot="greedy", start=start)
    assert s.run() == 0
    assert s.steps == MAX_STEPS
    assert inp.tell() < 1_000_000  # the input did not run out: the cap stopped it
    assert (
        f"Stopped after {MAX_STEPS} throws and actions with no result; "
        "the game may be unable to end." in out.getvalue()
    )
    game = saved_game(tmp_path / "game.pgn")
    assert len(game.moves) == MAX_STEPS and not game.is_over()
    assert tag(tmp_path / "game.pgn", "Result") == "*"


def test_the_step_cap_of_the_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    save = tmp_path / "g.pgn"
    code, out, _ = run_cli(
        capsys, monkeypatch, "1\n" * 1000, "--seed", "3", "--max-steps", "25", "--save", str(save)
    )
    assert code == 0
    assert "Stopped after 25 throws and actions" in out
    assert len(saved_game(save).moves) == 25


# --------------------------------------------------------------------------- draws


def test_a_drawn_game_from_a_position_near_a_draw(tmp_path: Path) -> None:
    """Whatever seat 1 throws, its move past p75 blocks every side (R-DEADLOCK)."""
    start = read_position(NEAR_DRAW + "classic+kill_before_home=seat")
    out = io.StringIO()
    s = session(tmp_path, "1\n" * 10, human=1, bot="greedy", start=start, out=out)
    assert s.run() == 0
    text = out.getvalue()
    assert "Game over: a draw." in text
    assert text.rstrip().splitlines()[-2] == "Game over: draw: no side can win any more."
    path = tmp_path / "game.pgn"
    assert tag(path, "Result") == "draw"
    assert tag(path, "Start") == NEAR_DRAW + "classic+kill_before_home=seat"
    outcome = saved_game(path).outcome()
    assert outcome is not None and outcome.is_draw


def first_drawn_game(tmp_path: Path, seeds: range) -> tuple[PlaySession, str]:
    for seed in seeds:
        out = io.StringIO()
        s = session(tmp_path, "1\n" * 5000, ruleset="wikipedia-full", seed=seed, out=out)
        assert s.run() == 0
        outcome = s.game.outcome()
        if outcome is not None and outcome.is_draw:
            return s, out.getvalue()
    pytest.fail(f"no drawn wikipedia-full game among seeds {seeds}")


def test_a_drawn_wikipedia_full_game_is_shown_and_saved(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """About a third of random wikipedia-full games end drawn; play one to its end."""
    s, text = first_drawn_game(tmp_path, range(40))
    assert "Game over: a draw." in text
    assert "Game over: draw: no side can win any more." in text
    path = tmp_path / "game.pgn"
    assert tag(path, "Result") == "draw"
    assert saved_game(path).outcome() == s.game.outcome()
    assert main(["replay", str(path)]) == 0
    assert "Game over: draw" in capsys.readouterr().out


# --------------------------------------------------------------------------- helpers


def test_interrupting_helpers_do_interrupt() -> None:
    """The fake streams above really do raise, so the tests using them can fail."""
    raising: list[Callable[[], object]] = [
        lambda: _Interrupting(at=1).write("x"),
        lambda: _ClosingPipe(0).write("x"),
    ]
    for call in raising:
        with pytest.raises((KeyboardInterrupt, BrokenPipeError)):
            call()
