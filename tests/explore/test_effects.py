"""The measured effects shipped with the package (issue 23) and ``pachisi rules NAME
--effects``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pachisi.cli import main
from pachisi.explore import explore, flip_variants, grid_variants
from pachisi.explore.effects import FIGURES, condense, load_effects
from pachisi.explore.report import as_json
from pachisi.explore.settings import Settings
from pachisi.explore.variants import Plan, named_variants
from pachisi.rules.ruleset import NAMED, parse_ruleset


def test_the_shipped_file_has_every_named_ruleset_and_the_flips_of_two_bases() -> None:
    effects = load_effects()
    assert set(effects["named"]) == set(NAMED)
    assert all(v["games"] >= 1000 for v in effects["named"].values())
    assert sorted(effects["flips"]) == ["classic", "wikipedia-full"]
    for base, flips in effects["flips"].items():
        assert flips[0]["variant"] == base and flips[0]["switch"] is None
        planned = {(v.switch, v.choice) for v in flip_variants(base).variants[1:]}
        assert {(f["switch"], f["choice"]) for f in flips[1:]} == planned
        for flip in flips[1:]:
            ruleset = parse_ruleset(flip["variant"])
            assert str(ruleset) == flip["variant"]
            for key, _, _ in FIGURES[:6]:
                figure = flip[key]
                assert figure["low"] <= figure["value"] <= figure["high"]
    # The network's matches only where it was trained: the named rulesets.
    assert all(v["strong_vs_greedy"] is not None for v in effects["named"].values())
    assert all(f["strong_vs_greedy"] is None for f in effects["flips"]["classic"][1:])
    assert len(effects["commands"]) == 3


def test_condense_keeps_each_variants_figures_and_sorts_named_from_flips() -> None:
    settings = Settings(games=20, seed=1)
    named = Plan(named_variants()[:2])
    flips = grid_variants("blockade=false,true")
    flip_plan = Plan(
        (
            flips.variants[0],
            flips.variants[1].__class__(
                flips.variants[1].label, flips.variants[1].ruleset, "blockade", "true"
            ),
        )
    )
    documents = [
        json.loads(as_json(explore(plan, settings), settings, (), "0"))
        for plan in (named, flip_plan)
    ]
    data = condense(documents, ["a", "b"])
    assert list(data["named"]) == ["classic", "wikipedia-full"]
    assert [f["variant"] for f in data["flips"]["classic"]] == ["classic", "classic+blockade=true"]
    assert data["named"]["classic"]["throws"] == documents[0]["variants"][0]["throws"]["mean"]
    assert data["commands"] == ["a", "b"]


def test_rules_effects_shows_what_each_flip_changes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "classic", "--effects"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Measured effects for classic")
    assert "extra_lap=true: throws" in out and "kill_before_home=seat:" in out
    assert "draws 0.0% -> " in out  # kill_before_home=seat draws where classic does not
    assert out.count("\n    ") >= len(load_effects()["flips"]["classic"]) - 1
    assert main(["rules", "ludii", "--effects"]) == 0
    out = capsys.readouterr().out
    assert "measured for classic and wikipedia-full only" in out
    assert main(["rules", "wikipedia-full", "--effects", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ruleset"] == "wikipedia-full" and data["flips"] and data["own"]["games"] > 0


@pytest.mark.parametrize(
    "args", [["--effects"], ["classic+pyada=true", "--effects"], ["chess", "--effects"]]
)
def test_rules_effects_needs_a_named_ruleset(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", *args]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_the_effects_file_is_package_data() -> None:
    path = Path(__file__).resolve().parents[2] / "src/pachisi/explore/data/effects.json"
    assert path.is_file()
    text = Path(__file__).resolve().parents[2].joinpath("pyproject.toml").read_text()
    assert '"explore/data/*.json"' in text
