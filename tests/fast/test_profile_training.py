"""The workload the profile-guided build trains the engine on (setup.py,
pachisi.profile_training): it must run on the engine's Python face, reach every named
ruleset, and the build's training script must load the build it is given."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from pachisi import profile_training
from pachisi.fast.native import core
from pachisi.rules.ruleset import NAMED, parse_ruleset

ROOT = Path(__file__).resolve().parents[2]


def setup_constant(name: str) -> object:
    """A constant of setup.py, read without running the build."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return ast.literal_eval(node.value)
    raise AssertionError(f"setup.py has no {name}")


def test_training_covers_every_named_ruleset_and_the_rarer_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played: list[str] = []
    real = profile_training.playouts

    def counted(start: object, games: int, **kwargs: object) -> object:
        played.append(start.ruleset.name)  # type: ignore[attr-defined]
        return real(start, games, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(profile_training, "GAMES", 8)
    monkeypatch.setattr(profile_training, "STEPPED", 1)
    monkeypatch.setattr(profile_training, "playouts", counted)
    profile_training.train()
    expected = [parse_ruleset(n).name for n in (*NAMED, *profile_training.VARIANTS)]
    # Each ruleset plays random and greedy playouts.
    assert sorted(set(played)) == sorted(set(expected))
    assert len(played) == 2 * len(expected)


def test_the_build_trains_the_extension_file_it_names() -> None:
    script = setup_constant("TRAIN")
    assert isinstance(script, str)
    probe = script.replace("train()", "print(sys.modules['pachisi.fast._core'].__file__)")
    built = Path(core.__file__).resolve()
    done = subprocess.run(
        [sys.executable, "-c", probe, str(ROOT / "src"), str(built)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert done.stdout.strip() == str(built)
