"""The compiled engine: Pachisi at compiled speed, with exactly the reference semantics.

The reference engine (:mod:`pachisi.rules`) is the specification; this package is the one
second implementation STYLE.md allows, proven identical to it by differential tests
(tests/fast). Game states are rows of ``int32`` (:mod:`pachisi.fast.layout`), rulesets a
parameter vector (:mod:`pachisi.fast.params`), actions ids of a fixed action space
(:mod:`pachisi.fast._codec`), and transitions numba-compiled kernels that work in place.
:mod:`pachisi.fast.convert` maps states, actions and events to the reference ones and back.
"""
