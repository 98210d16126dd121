"""The compiled engine's decorators and its borrowed views (pachisi.fast._jit)."""

from __future__ import annotations

from pathlib import Path

import numba
import numpy as np
import pytest

from pachisi.fast._jit import borrow, drop_stale_cache


@numba.njit
def _fill_through_views(a: np.ndarray, b: np.ndarray) -> int:
    va = borrow(a)
    vb = borrow(b)
    for i in range(va.shape[0]):
        va[i] = 3 * i
    vb[1, 2] = 7
    return int(va.sum() + vb.sum())


def test_a_borrowed_view_reads_and_writes_the_array_itself() -> None:
    a = np.zeros(5, dtype=np.int32)
    b = np.zeros((2, 3), dtype=np.int32)
    assert _fill_through_views(a, b) == 30 + 7
    assert a.tolist() == [0, 3, 6, 9, 12]
    assert b[1, 2] == 7 and b.sum() == 7


def test_only_arrays_can_be_borrowed() -> None:
    @numba.njit
    def borrow_a_number(x: int) -> int:
        return borrow(x)

    with pytest.raises(numba.core.errors.TypingError):
        borrow_a_number(3)


def test_the_kernel_cache_is_dropped_when_any_source_changes(tmp_path: Path) -> None:
    (tmp_path / "_ops.py").write_text("x = 1\n")
    (tmp_path / "_step.py").write_text("y = 2\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    compiled = [cache / "_step.apply-10.py311.nbi", cache / "_step.apply-10.py311.1.nbc"]
    for path in compiled:
        path.write_bytes(b"machine code")
    keep = cache / "_ops.cpython-311.pyc"
    keep.write_bytes(b"bytecode")

    assert drop_stale_cache(tmp_path) is True  # no stamp yet: nothing says what they are
    assert not any(path.exists() for path in compiled) and keep.exists()
    for path in compiled:
        path.write_bytes(b"machine code")
    assert drop_stale_cache(tmp_path) is False  # same sources: the cache stays
    assert all(path.exists() for path in compiled)

    (tmp_path / "_ops.py").write_text("x = 3\n")  # a helper the cached kernels call changed
    assert drop_stale_cache(tmp_path) is True
    assert not any(path.exists() for path in compiled) and keep.exists()
