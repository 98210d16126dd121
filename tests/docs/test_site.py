"""The documentation site builds with ``mkdocs build --strict`` and without a warning.

The build is what `scripts/docs` runs, into a temporary directory. mkdocs.yml's
``validation`` settings make a broken internal link or anchor, a link to a file outside
docs/ and a page left out of the nav warnings, which ``--strict`` turns into a failed build;
mkdocstrings warns of an API entry it cannot find or a docstring it cannot read. A failure
shows mkdocs' own report.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_links_and_anchors_are_checked() -> None:
    # The build below can only catch a broken link if mkdocs is told to warn of one.
    mkdocs_config = pytest.importorskip("mkdocs.config", reason="scripts/setup dev installs it")
    config = mkdocs_config.load_config(str(ROOT / "mkdocs.yml"))
    links = config["validation"]["links"]
    nav = config["validation"]["nav"]
    for setting in ("not_found", "absolute_links", "unrecognized_links", "anchors"):
        assert links[setting] == logging.WARNING, f"validation.links.{setting}"
    for setting in ("omitted_files", "not_found", "absolute_links"):
        assert nav[setting] == logging.WARNING, f"validation.nav.{setting}"


def test_site_builds_strictly_without_warnings(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        # mkdocs-material's banner about its successor, on every build, is not a warning.
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=110,
        check=False,
    )
    report = f"{done.stdout}\n{done.stderr}".strip()
    if "No module named mkdocs" in report:
        pytest.fail("mkdocs is not installed: run `scripts/setup dev`")
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{report}"
    warnings = [line for line in report.splitlines() if "WARNING" in line]
    assert not warnings, "mkdocs build warned:\n" + "\n".join(warnings)
    assert (site / "index.html").is_file()
    assert (site / "reference" / "rules" / "index.html").is_file()
