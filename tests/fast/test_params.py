"""The compiled parameter vector stays what the kernels read (issue 22, item 6.6).

``tests/data/compiled-params.json`` holds :func:`~pachisi.fast.params.compile_ruleset`'s
vector for every named ruleset, for a ruleset with each choice of each switch, and for
random switch combinations, as it was before the switch choices became enums (commit
1816cac). The compiled kernels read those numbers, so they must never change. Entries added
since come after the recorded ones, each checked on its own.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pachisi.fast.params import (
    FREE_STEPS,
    P_SMALLEST,
    P_VALUES,
    PARAMS_SIZE,
    compile_ruleset,
)
from pachisi.rules.ruleset import NAMED, parse_ruleset

RECORDED = Path(__file__).resolve().parents[1] / "data" / "compiled-params.json"
VECTORS: dict[str, list[int]] = json.loads(RECORDED.read_text(encoding="utf-8"))


def test_the_record_covers_every_named_ruleset() -> None:
    assert set(NAMED) <= set(VECTORS)


@pytest.mark.parametrize("text", list(VECTORS))
def test_the_vector_is_the_recorded_one(text: str) -> None:
    ruleset = parse_ruleset(text)
    assert str(ruleset) == text
    params, p = compile_ruleset(ruleset)
    recorded = VECTORS[text]
    assert params.tolist()[: len(recorded)] == recorded
    assert p == float(ruleset.p_mouth_up)
    # Added after the record: R-FROZEN's cheap test starts at the cheapest throw, and asks
    # every value below FREE_STEPS at once.
    assert len(recorded) == P_SMALLEST and P_VALUES == P_SMALLEST + 1
    assert PARAMS_SIZE == P_VALUES + 3
    table = ruleset.score_table
    cheapest = [k for k in range(ruleset.cowries + 1) if table[k] == min(table)]
    assert params[P_SMALLEST] == cheapest[0]
    mask = int(params[P_VALUES]) | int(params[P_VALUES + 1]) << 31
    assert [v for v in range(FREE_STEPS) if mask >> v & 1] == sorted(set(table))
    assert params[P_VALUES + 2] == 0


def test_values_beyond_the_mask_are_flagged() -> None:
    params, _ = compile_ruleset(parse_ruleset("classic+score_table=25,10,2,3,4,70,6"))
    mask = int(params[P_VALUES]) | int(params[P_VALUES + 1]) << 31
    assert 70 not in [v for v in range(FREE_STEPS) if mask >> v & 1]
    assert params[P_VALUES + 2] == 1
