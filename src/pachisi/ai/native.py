"""The compiled players' extension module (``pachisi.ai._compiled``), or a clear error
(:class:`~pachisi.fast.missing.CompiledEngineMissing`) where it was not built."""

from __future__ import annotations

from pachisi.fast.missing import NOT_BUILT, CompiledEngineMissing

__all__ = ["players"]

try:
    from pachisi.ai import _compiled as players
except ImportError as error:
    raise CompiledEngineMissing(NOT_BUILT.format(module="pachisi.ai._compiled")) from error
