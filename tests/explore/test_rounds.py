"""``pachisi explore`` in rounds (issue 23): --precision, the results file and resuming."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pachisi.cli import main
from pachisi.explore import ResultsError, explore, grid_variants, narrow_enough
from pachisi.explore.settings import Settings

PLAN = grid_variants("capture_bonus=true,false", base="herklots-7")


def _counting() -> tuple[list[int], object]:
    played = [0]

    def progress(n: int) -> None:
        played[0] += n

    return played, progress


def test_precision_plays_rounds_until_every_interval_is_narrow_enough() -> None:
    settings = Settings(games=100, seed=2, precision=0.25, max_games=2000)
    results = explore(PLAN, settings)
    for r in results:
        assert narrow_enough(r, 0.25) or r.games == 2000
        assert r.games % 100 == 0 and r.games > 100  # seat wins need more than one round
        # Rounds play games 0, 1, 2, ...: the same figures as one round of that many.
        again = explore(PLAN, Settings(games=r.games, seed=2))
        assert again[[x.variant for x in again].index(r.variant)] == r


def test_precision_stops_at_max_games() -> None:
    results = explore(PLAN, Settings(games=50, seed=2, precision=0.01, max_games=120))
    assert [r.games for r in results] == [120, 120]
    assert not narrow_enough(results[0], 0.01)


def test_a_results_file_streams_every_batch_and_an_interrupted_run_resumes(
    tmp_path: Path,
) -> None:
    settings = Settings(games=40, seed=5, skill_games=10, precision=0.3, max_games=200)
    whole = explore(PLAN, settings)
    path = tmp_path / "run.jsonl"
    played, progress = _counting()
    assert explore(PLAN, settings, progress, results=str(path)) == whole  # type: ignore[arg-type]
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["variants"] == [v.label for v in PLAN.variants]
    batches = [json.loads(line) for line in lines[1:]]
    for label in header["variants"]:
        firsts = [b["first"] for b in batches if b["variant"] == label and b["kind"] == "games"]
        assert firsts == list(range(0, len(firsts) * 40, 40))  # no game twice, none left out
    total = played[0]
    # Cut the file after its third batch and in the middle of the fourth, as a run stopped
    # while writing would leave it; the resumed run plays only what the file lacks.
    kept = "\n".join(lines[:4]) + "\n" + lines[4][: len(lines[4]) // 2]
    path.write_text(kept)
    played, progress = _counting()
    assert explore(PLAN, settings, progress, results=str(path)) == whole  # type: ignore[arg-type]
    redone = sum(len(b["records"]) if b["kind"] == "games" else b["games"] for b in batches[3:])
    assert played[0] == redone < total

    def untimed(texts: list[str]) -> list[dict[str, object]]:
        return [{k: v for k, v in json.loads(t).items() if k != "seconds"} for t in texts]

    assert untimed(path.read_text().splitlines()[1:]) == untimed(lines[1:])
    # A finished run's file resumes to the same figures and plays nothing.
    played, progress = _counting()
    assert explore(PLAN, settings, progress, results=str(path)) == whole  # type: ignore[arg-type]
    assert played[0] == 0


def test_a_results_file_of_another_run_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    explore(PLAN, Settings(games=20, seed=5), results=str(path))
    before = path.read_text()
    with pytest.raises(ResultsError, match="another run"):
        explore(PLAN, Settings(games=20, seed=6), results=str(path))
    with pytest.raises(ResultsError, match="variants"):
        explore(grid_variants("blockade=false,true"), Settings(games=20, seed=5), results=str(path))
    lines = before.splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines[0] + "\n{not json\n" + lines[1] + "\n")
    with pytest.raises(ResultsError, match="line 2"):
        explore(PLAN, Settings(games=20, seed=5), results=str(broken))
    (tmp_path / "other.jsonl").write_text('{"format": "something else"}\n')
    with pytest.raises(ResultsError, match="not a results file"):
        explore(PLAN, Settings(games=20, seed=5), results=str(tmp_path / "other.jsonl"))
    assert path.read_text() == before


def test_the_command_resumes_from_its_results_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, out_json = tmp_path / "run.jsonl", tmp_path / "out.json"
    args = ["explore", "--grid", "stacking=all,none", "--games", "30", "--seed", "3"]
    args += ["--precision", "0.4", "--max-games", "90", "--results", str(path)]
    assert main([*args, "--json", str(out_json)]) == 0
    first = json.loads(out_json.read_text())["variants"]
    assert main([*args, "--json", str(out_json)]) == 0  # resumed: the file has every game
    second = json.loads(out_json.read_text())["variants"]
    assert [{**v, "seconds": 0} for v in first] == [{**v, "seconds": 0} for v in second]
    assert all(v["games"] in (30, 60, 90) for v in first)
    capsys.readouterr()
    assert main([*args[:-2], "--results", str(path), "--seed", "4"]) == 2
    assert "another run" in capsys.readouterr().err
    assert main(["explore", "--precision", "2"]) == 2


def test_a_tallys_memory_does_not_grow_with_its_games() -> None:
    from pachisi.explore.run import play_measured
    from pachisi.explore.tally import Tally

    variant = PLAN.variants[0]
    settings = Settings(games=300, seed=9)
    records = play_measured(variant, settings, "fast", 0, 300)
    tally = Tally(variant)
    tally.add(records)
    sizes = [len(c) for c in (tally.throws, tally.actions, tally.turns, tally.captures)]
    for _ in range(20):
        tally.add(records)
    assert tally.games == 21 * 300
    assert [len(c) for c in (tally.throws, tally.actions, tally.turns, tally.captures)] == sizes
    assert not any(isinstance(v, list) for v in vars(tally).values())


def test_many_jobs_on_worker_processes_give_the_numbers_of_one_process() -> None:
    # 1,200 games a variant: three jobs each, six in all, four in flight per worker.
    plan = grid_variants("capture_bonus=true,false", base="ludii")
    here = explore(plan, Settings(games=1200, seed=3))
    assert explore(plan, Settings(games=1200, seed=3, workers=2)) == here


def test_a_resumed_run_plays_exactly_the_batches_its_file_lacks_wherever_they_are(
    tmp_path: Path,
) -> None:
    # Batches finish in any order on workers or Ray, and each is written as it finishes:
    # a file may lack one in the middle. Here the second batch of each variant is taken out.
    settings = Settings(games=40, seed=5, skill_games=10, precision=0.3, max_games=200)
    whole = explore(PLAN, settings)
    path = tmp_path / "run.jsonl"
    explore(PLAN, settings, results=str(path))
    lines = path.read_text().splitlines()
    second = [
        i for i, text in enumerate(lines) if '"kind":"games"' in text and '"first":40,' in text
    ]
    assert len(second) == 2
    path.write_text("\n".join(t for i, t in enumerate(lines) if i not in second) + "\n")
    played, progress = _counting()
    assert explore(PLAN, settings, progress, results=str(path)) == whole  # type: ignore[arg-type]
    assert played[0] == 2 * 40
    # A batch written twice is refused: its games would count twice.
    twice = tmp_path / "twice.jsonl"
    twice.write_text("\n".join([*lines, lines[1]]) + "\n")
    with pytest.raises(ResultsError, match="twice"):
        explore(PLAN, settings, results=str(twice))
