"""The error of an installation whose compiled extensions were not built (no C compiler).

Kept apart from :mod:`pachisi.fast.native`, which loads the engine's extension, so that the
compiled players (:mod:`pachisi.ai.native`) can raise it without loading the engine.
"""

from __future__ import annotations

__all__ = ["NOT_BUILT", "CompiledEngineMissing"]


class CompiledEngineMissing(ImportError):
    """The compiled engine or the compiled players were not built in this installation."""


NOT_BUILT = (
    "the compiled core ({module}) is not built in this installation, so the fast engine, "
    "its simulations, playouts and environments, and the compiled players (hard, expert, "
    "learned) are unavailable; the reference engine, `pachisi play` and `pachisi serve` "
    "work without it. Install a C compiler (gcc) and reinstall pachisi (scripts/setup, or "
    "`pip install .`): docs/install.md"
)
"""The message, with ``{module}`` the extension that is missing."""
