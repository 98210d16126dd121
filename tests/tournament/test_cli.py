"""``pachisi tournament``: the report, JSON, CSV and plot outputs, and bad input refused
before any game is played."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from pachisi.cli import main
from pachisi.tournament import run as run_module

BASE = ("tournament", "--players", "greedy,random", "--games", "4", "--seed", "3")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def without_timing(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "seconds"}


def test_the_report_in_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *BASE)
    assert code == 0, err
    assert err == ""
    assert "ruleset  classic" in out
    assert "4 per pair: 2 throw sequences, each played in both seatings" in out
    assert "greedy vs random" in out
    assert "Fisher information" in out
    ladder = out.split("\nElo", 1)[1].splitlines()
    assert ladder[1].startswith("greedy ") and ladder[2].startswith("random ")


def test_json_holds_settings_players_pairs_and_ratings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *BASE, "--json", "--ruleset", "tylor")
    assert code == 0
    data = json.loads(out)
    assert data["settings"] == {
        "ruleset": "tylor-1879",
        "seed": 3,
        "players": ["greedy", "random"],
        "mode": "pairs",
        "games_requested": 4,
        "games_per_pairing": 4,
        "rotations": 2,
        "max_turns": 5000,
        "max_steps": 50000,
    }
    assert data["games"] == 4
    greedy, rand = data["players"]
    assert greedy["name"] == "greedy" and greedy["games"] == rand["games"] == 4
    assert greedy["wins"] + rand["wins"] + greedy["draws"] + data["unfinished"] == 4
    (pair,) = data["pairs"]
    assert (pair["a"], pair["b"], pair["a_wins"]) == ("greedy", "random", greedy["wins"])
    ratings = data["ratings"]
    assert ratings["anchor"] == "mean" and ratings["prior_draws"] == 1.0
    elos = [r["elo"] for r in ratings["players"]]
    assert sum(elos) == pytest.approx(0, abs=0.2)
    for r in ratings["players"]:
        lo, hi = r["interval"]
        assert lo < r["elo"] < hi


def test_the_same_seed_gives_the_same_tournament_on_any_number_of_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ("tournament", "--players", "random,greedy,random", "--games", "2", "--json")
    _, one, _ = run(capsys, *argv, "--seed", "5")
    _, two, _ = run(capsys, *argv, "--seed", "5", "--workers", "2")
    _, other, _ = run(capsys, *argv, "--seed", "6")
    assert without_timing(json.loads(one)) == without_timing(json.loads(two))
    assert without_timing(json.loads(one)) != without_timing(json.loads(other))
    assert json.loads(one)["settings"]["players"] == ["random", "greedy", "random#2"]


def test_odd_games_are_rounded_up_and_said_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tournament", "--players", "random,greedy", "--games", "3")
    assert code == 0
    assert err.strip() == (
        "pachisi: 3 games rounded up to 4, so that every throw sequence is played in both seatings"
    )
    assert "4 in all" in out


def test_four_individual_players(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys,
        "tournament",
        "--players",
        "greedy,random,random,random",
        "--ruleset",
        "classic+teams=individual",
        "--games",
        "4",
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["settings"]["mode"] == "individual"
    assert data["games"] == 4 and len(data["pairs"]) == 6


def test_csv_has_one_row_per_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "games.csv"
    code, out, _ = run(capsys, *BASE, "--json", "--csv", str(target))
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert [(r["game"], r["deal"], r["rotation"]) for r in rows] == [
        ("0", "0", "0"),
        ("1", "0", "1"),
        ("2", "1", "0"),
        ("3", "1", "1"),
    ]
    assert [r["seat0"] for r in rows] == ["greedy", "random", "greedy", "random"]
    wins = json.loads(out)["players"][0]["wins"]
    assert sum(r["winner"] == "greedy" for r in rows) == wins
    for r in rows:
        if r["winner"]:
            seats = [int(s) for s in r["winning_seats"].split("+")]
            assert {r[f"seat{s}"] for s in seats} == {r["winner"]}
        assert int(r["throws"]) > 0 and int(r["actions"]) > 0


@pytest.mark.parametrize("ending", [".png", ".svg"])
def test_plot_draws_the_ladder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, ending: str
) -> None:
    target = tmp_path / f"ladder{ending}"
    code, _, err = run(capsys, *BASE, "--plot", str(target))
    assert code == 0, err
    data = target.read_bytes()
    if ending == ".png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
    else:
        assert b"<svg" in data and b"greedy" in data


def _nothing_may_be_played(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(run_module, "play", refuse)


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (("--players", "greedy,nobody"), "unknown player 'nobody'"),
        (("--players", "greedy"), "2 to 4 players, not 1"),
        (("--players", "greedy,random,greedy,random,greedy"), "not 5"),
        (("--players", "greedy,"), "unknown player ''"),
        (("--players", "greedy,random", "--ruleset", "classic+teams=individual"), "needs 4"),
        (("--players", "greedy,random", "--games", "0"), "is not from 1"),
        (("--players", "greedy,random", "--ruleset", "nonsense"), "unknown ruleset"),
        (("--players", "greedy,random", "--ruleset", "classic+cowries=9"), "cowries"),
        (("--players", "greedy,random", "--workers", "0"), "--workers"),
        (("--players", "greedy,random", "--plot", "ladder.gif"), ".png"),
        (("--players", "greedy,random", "--csv", "no/such/dir/games.csv"), "no such directory"),
        (("--players", "greedy,random", "--plot", "no/such/dir/l.png"), "no such directory"),
        (("--players", "greedy,random", "--csv", "."), "is a directory"),
        (("--players", "greedy,random", "--csv", "x.png", "--plot", "x.png"), "same file"),
        (("--games", "2"), "--players"),
        (("--players", "greedy,random,greedy", "--games", "400000"), "at most 1,000,000"),
    ],
)
def test_bad_input_is_one_line_and_exit_2_before_any_game(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    extra: tuple[str, ...],
    words: str,
) -> None:
    _nothing_may_be_played(monkeypatch)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "tournament", *extra)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert words in lines[0]
    assert "Traceback" not in err
    assert os.listdir(tmp_path) == []


def test_a_read_only_output_file_is_refused_before_any_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes to read-only files")
    target = tmp_path / "games.csv"
    target.write_text("keep\n", encoding="utf-8")
    target.chmod(0o444)
    _nothing_may_be_played(monkeypatch)
    code, out, err = run(capsys, *BASE, "--csv", str(target))
    assert code == 2 and out == ""
    assert "read-only" in err
    assert target.read_text(encoding="utf-8") == "keep\n"
