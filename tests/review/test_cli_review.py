"""``pachisi review RECORD``: the printout, --json equal to the library's review, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pachisi import cli
from pachisi.notation import write_record
from pachisi.review import review
from tests.review.games import short_record

RECORD = short_record(steps=40, seed=3)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(["review", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.pgn"
    path.write_text(write_record(RECORD), encoding="utf-8")
    return path


def test_json_is_the_library_review(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    code, out, _ = run(capsys, str(record_file), "--json", "--workers", "1", "--seed", "4")
    assert code == cli.EXIT_OK
    assert json.loads(out) == review(RECORD, seed=4).to_json()


def test_the_printout_has_the_summary_decisions_and_graph(
    capsys: pytest.CaptureFixture[str], record_file: Path
) -> None:
    code, out, _ = run(capsys, str(record_file), "--workers", "1")
    assert code == cli.EXIT_OK
    assert "Per seat" in out and "Asha" in out and "Decisions judged" in out
    assert "South and North's win chance" in out
    graph = out.rstrip().splitlines()[-1].strip()
    assert graph and set(graph) <= set("▁▂▃▄▅▆▇█")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[Ruleset "classic"]\n\n1. t3 0a+9 *', "0a+9"),
        ('[Ruleset "nonsense"]\n\n*', "nonsense"),
    ],
)
def test_a_bad_record_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, words: str
) -> None:
    path = tmp_path / "bad.pgn"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, str(path))
    assert code == cli.EXIT_USAGE
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and words in err


def test_a_missing_file_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, str(tmp_path / "none.pgn"))
    assert code == cli.EXIT_USAGE
    assert err.startswith("pachisi: error:") and "none.pgn" in err
    assert len(err.strip().splitlines()) == 1
