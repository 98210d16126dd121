"""The compiled engine: Pachisi at compiled speed, with exactly the reference semantics.

The reference engine (:mod:`pachisi.rules`) is the specification; this package is the one
second implementation STYLE.md allows, proven identical to it by differential tests
(tests/fast). Game states are rows of ``int32`` (:mod:`pachisi.fast.layout`), rulesets a
parameter vector (:mod:`pachisi.fast.params`), actions ids of a fixed action space
(:mod:`pachisi.fast.codes`), and transitions Cython kernels (``kernels/*.pxi``, built
ahead of time into ``pachisi.fast._core``) that work in place.
:mod:`pachisi.fast.convert` maps states, actions and events to the reference ones and back;
:mod:`pachisi.fast.batch` steps many games at once. The package is the engine only: the
compiled players and their complete games are :mod:`pachisi.ai`'s
(:mod:`pachisi.ai.compiled_bots`, :mod:`pachisi.ai.playouts`), which call the same
kernels. Where the extension was not built, :mod:`pachisi.fast.native` says so.

The names below are the package's public API: the batch API of :mod:`pachisi.fast.batch`
(:func:`init`, :func:`from_states`, :func:`step`, :func:`throw` on a :class:`Batch`), the
conversions of :mod:`pachisi.fast.convert`, a ruleset's parameter vector, and the errors.
Each is loaded from its module on first use: importing this package loads no compiled code.
"""

from pachisi._lazy import lazy_exports

# Not typing.TYPE_CHECKING: importing typing alone would cost the command's start-up more
# than the rest of this module; type checkers take any TYPE_CHECKING for true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pachisi.fast.batch import (
        CHANCE,
        TERMINAL,
        Batch,
        first_illegal,
        from_states,
        init,
        step,
        throw,
    )
    from pachisi.fast.codes import NUM_ACTIONS, OBS_SIZE
    from pachisi.fast.convert import action_id, action_of, events_of, to_row, to_state
    from pachisi.fast.missing import CompiledEngineMissing
    from pachisi.fast.params import FastEngineError, compile_ruleset

__all__ = [
    "CHANCE",
    "NUM_ACTIONS",
    "OBS_SIZE",
    "TERMINAL",
    "Batch",
    "CompiledEngineMissing",
    "FastEngineError",
    "action_id",
    "action_of",
    "compile_ruleset",
    "events_of",
    "first_illegal",
    "from_states",
    "init",
    "step",
    "throw",
    "to_row",
    "to_state",
]

_HOMES = {
    **dict.fromkeys(
        ("CHANCE", "TERMINAL", "Batch", "first_illegal", "from_states", "init", "step", "throw"),
        "pachisi.fast.batch",
    ),
    **dict.fromkeys(("NUM_ACTIONS", "OBS_SIZE"), "pachisi.fast.codes"),
    **dict.fromkeys(
        ("action_id", "action_of", "events_of", "to_row", "to_state"), "pachisi.fast.convert"
    ),
    "CompiledEngineMissing": "pachisi.fast.missing",
    **dict.fromkeys(("FastEngineError", "compile_ruleset"), "pachisi.fast.params"),
}
"""The module each name of :data:`__all__` is imported from."""


# The package's names, each imported from its module on first use.
__getattr__, __dir__ = lazy_exports(__name__, _HOMES, __all__, globals())
