"""The compiled engine's extension module (``pachisi.fast._core``), or a clear error.

The extension is built ahead of time by the package's own build (``scripts/setup``,
``pip install``: docs/install.md). Where it was not built (no C compiler), ``pachisi``
still imports and the reference engine, ``play`` and ``serve`` work; importing this module
raises :class:`CompiledEngineMissing`, which says what to do.
"""

from __future__ import annotations

__all__ = ["CompiledEngineMissing", "core"]


class CompiledEngineMissing(ImportError):
    """The compiled engine was not built in this installation."""


NOT_BUILT = (
    "the compiled engine (pachisi.fast._core) is not built in this installation, so the "
    "fast engine, its simulations, playouts and environments, and the compiled players "
    "are unavailable; the reference engine, `pachisi play` and `pachisi serve` work "
    "without it. Install a C compiler (gcc) and reinstall pachisi (scripts/setup, or "
    "`pip install .`): docs/install.md"
)

try:
    from pachisi.fast import _core as core
except ImportError as error:  # pragma: no cover - exercised by tests/fast/test_native.py
    raise CompiledEngineMissing(NOT_BUILT) from error
