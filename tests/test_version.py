"""The version is written once and shown by ``pachisi --version``; CHANGELOG.md has it."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pachisi

ROOT = Path(__file__).resolve().parent.parent


def test_version_command_prints_the_package_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pachisi", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout == f"pachisi {pachisi.__version__}\n"
    assert done.stderr == ""


def test_the_version_is_written_in_one_place() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    dynamic = project["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "pachisi.__version__"}
    # The installed metadata was made from it.
    assert version("pachisi") == pachisi.__version__


def test_the_changelog_has_the_current_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    assert "## [Unreleased]" in text
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", text, re.MULTILINE)
    assert released, "no released version in CHANGELOG.md"
    assert released[0] == pachisi.__version__
