"""Tests for the packaging metadata: dependency ranges, their pins, and the wheel builds.

``pyproject.toml`` declares ranges and ``constraints.txt`` the exact versions the project is
tested with (docs/install.md); ``[tool.cibuildwheel]`` configures the release wheels, which
cannot be built here (cibuildwheel needs Docker), so its table is checked as data.
"""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).parents[1]
PYPROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())
CIBW: dict[str, Any] = PYPROJECT["tool"]["cibuildwheel"]

# The options cibuildwheel's documentation lists for [tool.cibuildwheel] (its options page
# and the JSON schema it ships), and the platform sub-tables.
CIBW_OPTIONS = {
    "archs", "audit-command", "audit-requires", "before-all", "before-build", "before-test",
    "build", "build-frontend", "build-verbosity", "config-settings", "container-engine",
    "dependency-versions", "enable", "environment", "environment-pass", "repair-wheel-command",
    "skip", "test-command", "test-environment", "test-extras", "test-groups", "test-requires",
    "test-runtime", "test-skip", "test-sources", "xbuild-tools", "xbuild-files",
    "pyodide-version", "overrides",
    *(f"{libc}-{arch}-image" for libc in ("manylinux", "musllinux")
      for arch in ("x86_64", "i686", "aarch64", "ppc64le", "s390x", "armv7l", "riscv64")),
    *(f"manylinux-pypy_{arch}-image" for arch in ("x86_64", "i686", "aarch64")),
}  # fmt: skip
CIBW_PLATFORMS = {"linux", "windows", "macos", "pyodide", "android", "ios"}
BUILD_FRONTENDS = {"pip", "build", "build[uv]", "uv"}

# Build identifiers cibuildwheel offers on Linux, as it names them.
CANDIDATES = [
    f"{python}-{libc}_{arch}"
    for python in ("cp310", "cp311", "cp312", "cp313", "cp314", "cp314t", "pp311")
    for libc in ("manylinux", "musllinux")
    for arch in ("x86_64", "aarch64", "i686", "ppc64le")
]
WANTED = {
    f"{python}-manylinux_{arch}"
    for python in ("cp311", "cp312", "cp313")
    for arch in ("x86_64", "aarch64")
}


def selected(identifier: str) -> bool:
    """Whether cibuildwheel builds it on Linux: its architecture is in the Linux `archs`,
    and the build and skip selectors (space-separated globs) choose it."""
    arch = identifier.split("_", 1)[1]
    built = any(fnmatch(identifier, glob) for glob in CIBW["build"].split())
    skipped = any(fnmatch(identifier, glob) for glob in CIBW.get("skip", "").split())
    return arch in CIBW["linux"]["archs"] and built and not skipped


def pins() -> dict[str, str]:
    """constraints.txt as {canonical name: exact version}."""
    found: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        requirement = Requirement(text)
        (specifier,) = requirement.specifier
        assert specifier.operator == "==", f"constraints.txt pins exactly: {line!r}"
        found[canonicalize_name(requirement.name)] = specifier.version
    return found


def declared() -> list[tuple[str, Requirement]]:
    """Every requirement pyproject.toml declares, with where: build, main or an extra."""
    listed = [("build-system", Requirement(r)) for r in PYPROJECT["build-system"]["requires"]]
    listed += [("dependencies", Requirement(r)) for r in PYPROJECT["project"]["dependencies"]]
    for extra, requirements in PYPROJECT["project"]["optional-dependencies"].items():
        listed += [(extra, Requirement(r)) for r in requirements]
    return [(where, r) for where, r in listed if canonicalize_name(r.name) != "pachisi"]


def test_cibuildwheel_table_uses_only_documented_options() -> None:
    assert set(CIBW) <= CIBW_OPTIONS | CIBW_PLATFORMS, set(CIBW) - CIBW_OPTIONS - CIBW_PLATFORMS
    for platform in CIBW_PLATFORMS & set(CIBW):
        assert set(CIBW[platform]) <= CIBW_OPTIONS, (platform, set(CIBW[platform]))
    assert CIBW["build-frontend"]["name"] in BUILD_FRONTENDS


def test_cibuildwheel_builds_manylinux_cpython_311_to_313_on_x86_64_and_aarch64() -> None:
    assert {c for c in CANDIDATES if selected(c)} == WANTED
    # PyPy stays off: cibuildwheel builds it only when `enable` names it.
    assert not {"pypy", "all"} & set(CIBW.get("enable", []))


def test_cibuildwheel_builds_with_the_constraints_and_tests_the_compiled_engine() -> None:
    args = CIBW["build-frontend"]["args"]
    assert args[args.index("--build-constraint") + 1] == "/project/constraints.txt"
    assert (ROOT / "constraints.txt").is_file()
    assert "import pachisi" in CIBW["test-command"]
    assert "pachisi simulate --games 5 --engine fast" in CIBW["test-command"]


@pytest.mark.parametrize("where", ["dependencies", "rl", "ray"])
def test_runtime_dependencies_are_ranges_not_pins(where: str) -> None:
    requirements = [r for w, r in declared() if w == where]
    exact = [str(r) for r in requirements if any(s.operator == "==" for s in r.specifier)]
    assert not exact, f"exact pins belong in constraints.txt: {exact}"
    assert all(r.specifier for r in requirements), "each names a lower bound"


def test_constraints_pin_every_declared_requirement_within_its_range() -> None:
    pinned = pins()
    for where, requirement in declared():
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement} ({where}) has no pin in constraints.txt"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"constraints.txt pins {name}=={pinned[name]}, outside {requirement} ({where})"
        )
