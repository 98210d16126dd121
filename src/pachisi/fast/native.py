"""The compiled engine's extension module (``pachisi.fast._core``), or a clear error.

The extension is built ahead of time by the package's own build (``scripts/setup``,
``pip install``: docs/install.md). Where it was not built (no C compiler), ``pachisi``
still imports and the reference engine, ``play`` and ``serve`` work; importing this module
raises :class:`~pachisi.fast.missing.CompiledEngineMissing`, which says what to do.
"""

from __future__ import annotations

from pachisi.fast.missing import NOT_BUILT, CompiledEngineMissing

__all__ = ["CompiledEngineMissing", "core"]

try:
    from pachisi.fast import _core as core
except ImportError as error:
    raise CompiledEngineMissing(NOT_BUILT.format(module="pachisi.fast._core")) from error
