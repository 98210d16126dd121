# The compiled engine: Pachisi at compiled speed, with exactly the reference semantics.
# One module built from the parts in kernels/, included in dependency order, so that the C
# compiler sees (and can inline) all of it. Its Python face is kernels/api.pxi; the
# constants come from _constants.pxi (pachisi.fast._gen), the types from _core.pxd.

include "kernels/api.pxi"
