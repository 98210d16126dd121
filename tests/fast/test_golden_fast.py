"""The golden playthroughs (tests/golden) replayed on the compiled engine (issue 6, item 2).

Each file is played through the compiled kernels alone, from its first position: the
recorded throw or action is applied to the state row, and at every step the row, written as
a position string, must equal the file's ``position`` line; where the file lists actions,
the kernels' legal actions, as text, must equal them in order; where it throws, the row must
be waiting for a throw; and the game must end with the file's result.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pachisi.fast.convert import action_of, to_row, to_state
from pachisi.fast.layout import OVER_STAGE, STAGE, THROW_OFF_STAGE, THROW_STAGE
from pachisi.fast.native import core
from pachisi.fast.params import compile_ruleset
from pachisi.notation import read_position, write_position
from pachisi.rules import engine
from tests.fast.differential import Scratch
from tests.golden.playthrough import golden_files

FILES = golden_files()
CHANCE_STAGES = (THROW_OFF_STAGE, THROW_STAGE)


def test_every_golden_file_is_replayed() -> None:
    assert len(FILES) == 14  # every named ruleset twice, and the R-FROZEN draws
    assert all(path.exists() for path, _, _ in FILES)


def _record(path: Path) -> list[tuple[str, str]]:
    """The file's lines as (keyword, rest), comments left out."""
    lines = [line for line in path.read_text().splitlines() if not line.startswith("#")]
    return [(word, rest) for word, _, rest in (line.partition(" ") for line in lines)]


@pytest.mark.parametrize(("path", "name", "seed"), FILES, ids=[p.name for p, _, _ in FILES])
def test_golden_playthrough_on_the_fast_engine(path: Path, name: str, seed: int) -> None:
    record = _record(path)
    assert record[0][0] == "position"
    start = read_position(record[0][1])
    ruleset = start.ruleset
    assert str(ruleset) == name
    params, _ = compile_ruleset(ruleset)
    row = to_row(start)
    w = Scratch()
    steps = 0
    i = 0
    while True:
        assert i + 1 < len(record), f"{path.name}: the file ends before the game"
        word, text = record[i]
        where = f"{path.name}, step {steps} ({word} {text[:60]})"
        assert word == "position", where
        state = to_state(row, ruleset)
        assert write_position(state) == text, f"{where}: fast engine at\n  {write_position(state)}"
        word, text = record[i + 1]
        if word == "result":
            assert row[STAGE] == OVER_STAGE, where
            assert str(engine.outcome(state)) == text, where
            break
        if word == "chance":
            assert row[STAGE] in CHANCE_STAGES, f"{where}: the fast engine waits for no throw"
            throw, k = record[i + 2] if i + 2 < len(record) else ("", "")
            assert throw == "throw", where
            core.apply_chance(row, params, int(k), w)
        else:
            assert word == "actions", where
            assert row[STAGE] not in (*CHANCE_STAGES, OVER_STAGE), where
            ids = core.legal_actions(row, params, w).tolist()
            n = len(ids)
            names = [str(action_of(a, state)) for a in ids]
            assert names == text.split(), f"{where}: fast engine lists {names}"
            assert len(set(ids)) == n, f"{where}: repeated ids {ids}"
            play, chosen = record[i + 2] if i + 2 < len(record) else ("", "")
            assert play == "play" and chosen in names, where
            a = ids[names.index(chosen)]
            core.apply_action(row, params, a, w)
        i += 3
        steps += 1
    assert i + 2 == len(record), f"{path.name}: lines after the result"
    assert steps > 100
