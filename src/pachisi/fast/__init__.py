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
"""
