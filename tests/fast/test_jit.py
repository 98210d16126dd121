"""The compiled engine's decorators and its borrowed views (pachisi.fast._jit)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from pachisi.fast._jit import borrow


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
