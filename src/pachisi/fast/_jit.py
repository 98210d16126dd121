"""The one decorator every compiled kernel uses: numba's ``njit``, cached on disk, typed.

``cache=True`` keeps the machine code between runs (in ``__pycache__`` beside each
module), so only the first use after an install compiles. ``error_model="numpy"`` drops
the zero-division checks Python semantics would add to every ``%`` and ``//`` (the kernels
divide by constants only). The cast tells mypy that the
compiled function has the Python function's signature, which numba's own decorator hides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])


def jit(fn: F) -> F:
    """Compile ``fn`` in nopython mode, caching the result on disk."""
    return cast(F, numba.njit(cache=True, nogil=True, error_model="numpy")(fn))


def inline(fn: F) -> F:
    """As :func:`jit`, and inlined into its callers: for the small helpers of hot loops,
    where a call (with its array arguments' reference counting) costs more than the work."""
    return cast(F, numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")(fn))
