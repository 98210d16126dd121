"""Every golden playthrough is reproduced exactly: positions, legal sets, chance outcomes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden.playthrough import golden_files, playthrough

FILES = golden_files()


@pytest.mark.parametrize(("path", "name", "seed"), FILES, ids=[p.name for p, _, _ in FILES])
def test_golden_playthrough_is_reproduced(path: Path, name: str, seed: int) -> None:
    expected = path.read_text().splitlines()
    actual = playthrough(name, seed).splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        assert got == want, f"{path.name}:{number}: golden\n  {want}\nbut now\n  {got}"
    assert len(actual) == len(expected)
    assert expected[-1].startswith("result ")
