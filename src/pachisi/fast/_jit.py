"""The decorators every compiled kernel uses, and the one intrinsic the hot loops need.

:func:`jit` is numba's ``njit``, cached on disk, typed: ``cache=True`` keeps the machine
code between runs (in ``__pycache__`` beside each module), so only the first use after an
install compiles. ``error_model="numpy"`` drops the zero-division checks Python semantics
would add to every ``%`` and ``//`` (the kernels divide by constants only). The cast tells
mypy that the compiled function has the Python function's signature, which numba's own
decorator hides.

A call between compiled functions is not free in numba: every array argument travels as
a structure of seven or more fields and is reference-counted with atomic instructions. The
game loops therefore inline the per-step code (:func:`inline`) and work on borrowed views
(:func:`borrow`); measured on ``ludii`` random playouts, the two together took the compiled
engine from about 2,900 to about 10,000 playouts a second (bench/fast.py).

numba keys each cached kernel by its own module's file only, while a kernel's machine code
contains the helpers it calls from other modules: after an edit to a helper, its callers'
cached code would be stale. :func:`drop_stale_cache` (run when this module is imported,
before any kernel is defined) clears the cache whenever any of the package's sources changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
from numba.core import cgutils, types
from numba.extending import intrinsic
from numba.np.arrayobj import make_array

F = TypeVar("F", bound=Callable[..., Any])

STAMP = "kernels.sha256"
"""The file in the cache directory that names the sources the cached kernels came from."""


def drop_stale_cache(package: Path, also: tuple[Path, ...] = ()) -> bool:
    """Delete numba's cached kernels in ``package/__pycache__`` unless they were compiled
    from exactly the present sources of ``package`` and of the packages ``also`` (whose
    kernels its own call); True if it deleted them.

    Best effort: a cache it cannot read or write (an installation without write access,
    where numba keeps its cache elsewhere) is left to numba.
    """
    digest = hashlib.sha256()
    for folder in (package, *also):
        for source in sorted(folder.glob("*.py")):
            digest.update(source.name.encode())
            digest.update(source.read_bytes())
    cache = package / "__pycache__"
    stamp = cache / STAMP
    try:
        if stamp.read_text(encoding="ascii") == digest.hexdigest():
            return False
    except OSError:
        pass
    try:
        stale = [*cache.glob("*.nbi"), *cache.glob("*.nbc")]
        for path in stale:
            path.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest.hexdigest(), encoding="ascii")
    except OSError:
        return False
    return bool(stale)


drop_stale_cache(Path(__file__).parent)


_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "error_model": "numpy"}
"""What every kernel is compiled with."""

_njit: Any = numba.njit
"""numba's decorator, untyped: its type stubs lack ``_nrt``, the switch for its runtime."""


def jit(fn: F) -> F:
    """Compile ``fn`` in nopython mode, caching the result on disk: for kernels that
    allocate arrays (and so need numba's reference-counting runtime). The runtime is asked
    for explicitly: numba would otherwise take a caller's setting, and a :func:`kernel`
    could not call an allocating helper."""
    return cast(F, _njit(**_OPTIONS, _nrt=True)(fn))


def kernel(fn: F) -> F:
    """As :func:`jit`, without numba's reference counting: for kernels that only work on
    arrays their callers own and keep alive, which are all the hot ones.

    With the runtime on, numba calls its (not inlinable) increment and decrement functions
    for every array a function receives or passes on, even on borrowed views (which makes
    the calls no-ops); in ``classic`` random playouts those calls took about a tenth of all
    the time. Without it, a kernel cannot allocate: numba refuses to compile one that
    tries, so the rule is checked at compile time.
    """
    return cast(F, _njit(**_OPTIONS, _nrt=False)(fn))


def inline(fn: F) -> F:
    """As :func:`kernel`, and inlined into its callers: for the small helpers of hot loops,
    where a call costs more than the work."""
    return cast(F, _njit(**_OPTIONS, inline="always", _nrt=False)(fn))


A = TypeVar("A")


def _borrow(typingctx: Any, arr: Any) -> Any:
    """A view of the array ``arr`` that numba does not reference-count.

    numba counts references to every array a compiled function passes on, with an atomic
    increment and decrement per argument per call; in the kernels' small, hot helpers that
    counting took more than half of all the time. A borrowed view carries no memory owner,
    so its counting is a no-op. The caller must keep ``arr`` alive while the view is used:
    borrow only a function's own array arguments, never an array it allocates itself.
    """
    if not isinstance(arr, types.Array):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        view = cast(Any, make_array)(arr)(context, builder, value=args[0])
        null = cast(Any, cgutils.get_null_value)
        view.meminfo = null(view.meminfo.type)
        view.parent = null(view.parent.type)
        return view._getvalue()

    return arr(arr), codegen


borrow = cast(Callable[[A], A], intrinsic(_borrow))
"""A view of an array that numba does not reference-count (see :func:`_borrow`)."""


def _popcount(typingctx: Any, x: Any) -> Any:
    """How many bits of the integer ``x`` are set: one instruction (LLVM's ``ctpop``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return x(x), codegen


def _lowest_bit(typingctx: Any, x: Any) -> Any:
    """The index of the lowest set bit of the integer ``x`` (``x`` must not be 0): one
    instruction (LLVM's ``cttz``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], cgutils.true_bit)

    return x(x), codegen


def _reverse32(typingctx: Any, x: Any) -> Any:
    """The low 32 bits of the integer ``x`` in reverse order (bit ``j`` becomes bit
    ``31 - j``; the higher bits are dropped): one instruction where the machine has one
    (LLVM's ``bitreverse``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        low = builder.trunc(args[0], cgutils.int32_t)
        return builder.zext(builder.bitreverse(low), args[0].type)

    return x(x), codegen


popcount = cast(Callable[[int], int], intrinsic(_popcount))
"""The number of set bits of an integer, in compiled code (see :func:`_popcount`)."""
lowest_bit = cast(Callable[[int], int], intrinsic(_lowest_bit))
"""The index of an integer's lowest set bit, in compiled code (see :func:`_lowest_bit`)."""
reverse32 = cast(Callable[[int], int], intrinsic(_reverse32))
"""An integer's low 32 bits reversed, in compiled code (see :func:`_reverse32`)."""
