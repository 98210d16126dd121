"""``pachisi explore --ray`` (issue 23): the jobs on a Ray cluster, or on a Ray started for
the run, give the numbers a run here gives; bad Ray options are one line and exit 2."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from pachisi.cli import main
from pachisi.explore import explore, grid_variants
from pachisi.explore.settings import Settings
from pachisi.tournament import ray_backend

ADDRESS = os.environ.get("PACHISI_TEST_RAY_ADDRESS", "")
"""A running Ray cluster's head, host:port; .ci/run starts one and sets this."""
PLAN = grid_variants("blockade=false,true", base="tylor-1879")
SETTINGS = Settings(games=600, seed=4, skill_games=20, strong_games=4)

pytest.importorskip("ray")


SLOW = os.environ.get("PACHISI_SLOW") == "1"


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the jobs that go to Ray (through the real stream_on_ray), per call."""
    calls: list[int] = []
    real = ray_backend.stream_on_ray

    def counted(function: Any, jobs: Any, on_result: Any, **kwargs: Any) -> None:
        calls.append(0)

        def seen(job: Any, result: Any) -> None:
            calls[-1] += 1
            on_result(job, result)

        real(function, jobs, seen, **kwargs)

    monkeypatch.setattr(ray_backend, "stream_on_ray", counted)
    return calls


def _figures(path: Path) -> list[dict[str, object]]:
    variants = json.loads(path.read_text())["variants"]
    return [{k: v for k, v in x.items() if k != "seconds"} for x in variants]


@pytest.mark.skipif(not ADDRESS, reason="no Ray cluster: set PACHISI_TEST_RAY_ADDRESS=host:port")
def test_a_cluster_gives_the_same_numbers_as_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = explore(PLAN, SETTINGS)
    path = tmp_path / "run.jsonl"
    calls = _counting(monkeypatch)
    assert explore(PLAN, SETTINGS, ray=ADDRESS, results=str(path)) == here
    # Per variant: two jobs of measured games (500 and 100), one of skill games, and one of
    # the network's where it was trained (not with a blockade).
    assert calls == [4 + 3]
    firsts = [json.loads(line).get("first") for line in path.read_text().splitlines()[1:]]
    assert firsts.count(500) == 2
    # And from the command line.
    args = ["explore", "--grid", "capture_bonus=true,false", "--games", "700", "--seed", "6"]
    assert main([*args, "--json", str(tmp_path / "here.json")]) == 0
    assert main([*args, "--ray", ADDRESS, "--json", str(tmp_path / "ray.json")]) == 0
    assert _figures(tmp_path / "ray.json") == _figures(tmp_path / "here.json")
    assert calls == [7, 2 * 2]


@pytest.mark.skipif(
    not SLOW,
    reason="starting a Ray here takes half a minute, and tests/tournament/test_ray.py checks "
    "that path; set PACHISI_SLOW=1",
)
def test_a_local_ray_started_for_the_run_gives_the_same_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _counting(monkeypatch)
    args = ["explore", "--grid", "capture_bonus=true,false", "--games", "700", "--seed", "6"]
    args += ["--skill-games", "8"]
    assert main([*args, "--json", str(tmp_path / "here.json")]) == 0
    assert main([*args, "--ray", "--workers", "2", "--json", str(tmp_path / "ray.json")]) == 0
    assert _figures(tmp_path / "ray.json") == _figures(tmp_path / "here.json")
    assert calls == [2 * (2 + 1)]  # the jobs went to Ray: per variant 500 + 200 games, 8 skill


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--ray", "localhost"], "not a Ray address"),
        (["--ray", "127.0.0.1:9", "--workers", "2"], "has its own"),
    ],
)
def test_bad_ray_options_are_one_line_and_exit_2(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["explore", "--games", "10", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and "--ray" in err
