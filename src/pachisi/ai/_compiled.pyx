# The compiled players: the expectimax search behind ``expert``, the learned player's
# encoder and network, and its self-play training and matches.
#
# One C file with the engine: the engine's parts (pachisi/fast/kernels/, the same sources
# pachisi.fast._core is built from, but not its Python face) are included here, so that the
# compiler can inline the engine into the players and neither extension calls the other.
# The players' own parts are in kernels/ beside this file, their Python face in
# kernels/api.pxi; kernels with a Python face of the same name carry a c_ prefix.
# cython: freethreading_compatible = True

include "../fast/kernels/types.pxi"
include "../fast/kernels/rng.pxi"
include "../fast/kernels/codec.pxi"
include "../fast/kernels/position.pxi"
include "../fast/kernels/ops.pxi"
include "../fast/kernels/throws.pxi"
include "../fast/kernels/frozen.pxi"
include "../fast/kernels/legal.pxi"
include "../fast/kernels/splits.pxi"
include "../fast/kernels/step.pxi"
include "../fast/kernels/actions.pxi"
include "../fast/kernels/batch.pxi"
include "../fast/kernels/playout.pxi"

include "kernels/features.pxi"
include "kernels/selfplay.pxi"
include "kernels/expectimax.pxi"
include "kernels/api.pxi"
